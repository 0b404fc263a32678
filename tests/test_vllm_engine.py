"""The vLLM engine's own logic: request building, chunking, checkpointing and error handling.

Every test here except the last DOES NOT EXERCISE vLLM ITSELF: vLLM needs an NVIDIA GPU, so they drive the
engine through its one seam (`VllmCalls`) with `ScriptedVllm`, a stand-in that records exactly what the
engine would pass to `LLM.chat` and answers with schema-valid JSON built from each request's own schema.
What they check is the engine's code around vLLM, run through the real runner and the real checkpoint.
The test marked `gpu` runs the real `vllm.LLM` and is skipped, with the reason shown, without a GPU.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
from dataclasses import asdict
from pathlib import Path
from typing import Any

import pytest

from freeform_question import row_schema  # a long, strict schema to send (the bench's old question)
from lmscreen.engines import plugin
from lmscreen.engines.protocol import LLMRequest
from lmscreen.engines.vllm_engine import ChatOutput, VllmEngine, VllmSettings, planned_defaults
from lmscreen.engines.vllm_schema import SchemaRejected, grammar_schema
from lmscreen.run.options import ScreenOptions
from lmscreen.run.screen import screen

ROOT = Path(__file__).resolve().parents[1]
POOL = ROOT / "examples" / "pool.csv"
REPORTS = ROOT / "examples" / "reports"


def answer_for(schema: dict[str, Any]) -> Any:
    """The simplest value `schema` accepts: consts, null where allowed, a fixed reason."""
    if "const" in schema:
        return schema["const"]
    if "anyOf" in schema:
        for option in schema["anyOf"]:
            if option.get("type") == "null":
                return None
        return answer_for(schema["anyOf"][0])
    if schema.get("type") == "object":
        return {k: answer_for(v) for k, v in schema.get("properties", {}).items()}
    if schema.get("type") == "string":
        return "年报摘要未见异常"
    return None


class ScriptedVllm:
    """Stand-in for `vllm.LLM` behind the seam (NOT vLLM): records calls, answers from the schema."""

    def __init__(
        self, *, fail_on_call: int | None = None, reject_marker: str | None = None, truncate: str = ""
    ) -> None:
        self.calls: list[dict[str, Any]] = []
        self.fail_on_call = fail_on_call
        self.reject_marker = reject_marker
        self.truncate = truncate
        self.closed = False

    def chat(self, conversations, sampling, chat_template_kwargs):
        self.calls.append(
            {"conversations": conversations, "sampling": sampling, "kwargs": chat_template_kwargs}
        )
        if self.fail_on_call is not None and len(self.calls) == self.fail_on_call:
            raise RuntimeError("EngineCore died (simulated crash)")
        if self.reject_marker and any(self.reject_marker in c[-1]["content"] for c in conversations):
            raise ValueError("prompt is longer than max_model_len")
        outs = []
        for conv, sp in zip(conversations, sampling, strict=True):
            text = json.dumps(answer_for(sp["structured_outputs"]["json"]), ensure_ascii=False)
            prompt = sum(self.count_tokens(m["content"]) for m in conv)
            if self.truncate and self.truncate in conv[-1]["content"]:
                outs.append(ChatOutput(text[:20], "length", prompt, sp["max_tokens"], 0))
            else:
                outs.append(
                    ChatOutput(text, "stop", prompt, len(text), self.count_tokens(conv[0]["content"]))
                )
        return outs

    def count_tokens(self, text: str) -> int:
        return len(text)

    def describe(self) -> dict[str, Any]:
        return {"vllm": "scripted"}

    def close(self) -> None:
        self.closed = True

    def keys_sent(self) -> list[str]:
        return [c[-1]["content"] for call in self.calls for c in call["conversations"]]


def request(key: str, text: str, code: str = "600519.SH", max_tokens: int = 448) -> LLMRequest:
    return LLMRequest(
        key=key,
        messages=[{"role": "system", "content": "SYSTEM"}, {"role": "user", "content": text}],
        schema=row_schema(code),
        max_tokens=max_tokens,
    )


def test_sampling_and_engine_settings_are_explicit() -> None:
    """Not exercising vLLM: what the engine would pass to LLM(...) and SamplingParams(...)."""
    fake = ScriptedVllm()
    settings = VllmSettings(model="Qwen/Qwen3-0.6B", gpu_memory_utilization=0.8, max_model_len=8192, tp=2)
    engine = VllmEngine(settings, calls=fake)
    results = list(engine.run([request("a", "text a", max_tokens=300)]))
    assert results[0].error is None and results[0].cached_prompt_tokens == len("SYSTEM")
    sp = fake.calls[0]["sampling"][0]
    assert sp["max_tokens"] == 300, "vLLM's default of 16 tokens would cut every answer"
    assert sp["temperature"] == 0.0 and sp["seed"] == 0
    sent = sp["structured_outputs"]["json"]
    reason = sent["properties"]["reason"]
    assert "pattern" in reason and "maxLength" not in reason, "xgrammar rejects maxLength beside pattern"
    assert row_schema("600519.SH")["properties"]["reason"]["maxLength"] == 30, "task schema untouched"
    assert fake.calls[0]["kwargs"] == {"enable_thinking": False}
    kwargs = settings.llm_kwargs()
    assert kwargs["enable_prefix_caching"] is True
    assert kwargs["structured_outputs_config"] == {"backend": "xgrammar"}
    assert (kwargs["tensor_parallel_size"], kwargs["gpu_memory_utilization"], kwargs["max_model_len"]) == (
        2,
        0.8,
        8192,
    )
    assert engine.describe()["grammar_relaxed"] == ["properties.reason.maxLength"]


def test_schema_check_rejects_what_the_pinned_backend_cannot_compile() -> None:
    """Not exercising vLLM: the up-front schema check."""
    with pytest.raises(SchemaRejected, match="invalid JSON schema"):
        grammar_schema({"type": "strin"})
    with pytest.raises(SchemaRejected, match="multipleOf"):
        grammar_schema({"type": "number", "multipleOf": 0.5})
    ok = grammar_schema({"type": "number", "multipleOf": 0.5}, backend="guidance")
    assert ok.schema == {"type": "number", "multipleOf": 0.5} and ok.relaxed == []
    named = {"type": "object", "properties": {"pattern": {"type": "string", "maxLength": 3}}}
    assert grammar_schema(named).schema == named, "a property called 'pattern' is not the keyword"


def test_chunks_are_sorted_by_length_and_yielded_as_each_returns() -> None:
    """Not exercising vLLM: chunking, ordering within a chunk, streaming per chunk."""
    fake = ScriptedVllm()
    engine = VllmEngine(VllmSettings(model="m", chunk_rows=4), calls=fake)
    taken: list[str] = []

    def requests():
        for i in range(10):
            taken.append(f"r{i}")
            yield request(f"r{i}", "x" * (50 - i * 3) + f"#{i}")

    stream = engine.run(requests())
    first = [next(stream) for _ in range(4)]
    assert len(fake.calls) == 1 and len(taken) == 4, "chunk 1 answered before chunk 2 is even built"
    rest = list(stream)
    assert [len(c["conversations"]) for c in fake.calls] == [4, 4, 2]
    for call in fake.calls:
        lengths = [len(c[-1]["content"]) for c in call["conversations"]]
        assert lengths == sorted(lengths), "shortest prompt first within a chunk"
    keys = [r.key for r in first + rest]
    assert sorted(keys) == sorted(f"r{i}" for i in range(10)) and len(set(keys)) == 10


def test_bad_rows_fail_alone_and_the_rest_of_the_chunk_is_answered() -> None:
    """Not exercising vLLM: an invalid schema never reaches the call; a rejected prompt is isolated."""
    fake = ScriptedVllm(reject_marker="POISON", truncate="LONG")
    engine = VllmEngine(VllmSettings(model="m", chunk_rows=8), calls=fake)
    reqs = [request(f"k{i}", f"row {i}") for i in range(6)]
    reqs[1] = LLMRequest("bad-schema", reqs[1].messages, {"type": "strin"}, 100)
    reqs[3] = request("poison", "POISON row")
    reqs[4] = request("long", "LONG row")
    results = {r.key: r for r in engine.run(reqs)}
    assert set(results) == {r.key for r in reqs}
    assert results["bad-schema"].error.startswith("request rejected before vLLM: invalid JSON schema")
    assert results["poison"].error.startswith("vLLM rejected the request: ValueError")
    assert results["long"].error == "truncated: the answer hit max_tokens"
    assert results["long"].finish_reason == "length"
    for key in ("k0", "k2", "k5"):
        assert results[key].error is None and json.loads(results[key].text)["code"] == "600519.SH"
    assert "row 1" not in fake.keys_sent(), "a row whose schema fails the check never reaches vLLM"


def test_crash_loses_at_most_one_chunk_and_rerun_sends_only_the_rest(tmp_path: Path) -> None:
    """Not exercising vLLM: the real runner and checkpoint around a seam that dies on its 2nd call."""
    out = tmp_path / "out"
    opts = ScreenOptions(pool=POOL, out=out, reports=REPORTS, engine="vllm", progress=False)
    crashing = ScriptedVllm(fail_on_call=2)
    with pytest.raises(RuntimeError, match="simulated crash"):
        screen(opts, engine=VllmEngine(VllmSettings(model="m", chunk_rows=3), calls=crashing))
    with sqlite3.connect(out / "checkpoint.sqlite") as con:
        saved = con.execute("SELECT count(*) FROM llm_results WHERE error IS NULL").fetchone()[0]
    assert saved == 3, "the first chunk was committed as it returned; only the crashed chunk is lost"

    healthy = ScriptedVllm()
    summary = screen(opts, engine=VllmEngine(VllmSettings(model="m", chunk_rows=3), calls=healthy))
    total = summary.run["llm"]["rows_with_report"]
    assert summary.llm_resumed == 3 and summary.llm_sent == total - 3
    assert len(healthy.keys_sent()) == total - 3, "finished rows are not sent again"
    rows = [json.loads(line) for line in (out / "results.jsonl").read_text(encoding="utf-8").splitlines()]
    answered = [r for r in rows if r.get("llm")]
    assert len(answered) == total and all(r["status"] == "ok" for r in answered)
    with sqlite3.connect(out / "checkpoint.sqlite") as con:
        n, distinct = con.execute("SELECT count(*), count(DISTINCT key) FROM llm_results").fetchone()
    assert n == distinct == total


def test_planner_supplies_defaults_the_user_did_not_set(tmp_path: Path) -> None:
    """Not exercising vLLM: --tp/--gpu-memory-utilization/--max-model-len default to `model fit`'s plan."""
    from lmscreen.engines.vllm_engine import fill_from_plan
    from lmscreen.model.arch import inspect
    from lmscreen.model.memory import plan

    folder = tmp_path / "Qwen2.5-0.5B-Instruct"
    folder.mkdir()
    (folder / "config.json").write_text(json.dumps(QWEN25_05B), encoding="utf-8")
    expected = plan(inspect(str(folder)), vram_gib=80.0, gpus=1, tp=1, engine="vllm", table=False)
    got = planned_defaults(str(folder), 80.0, 1, None, None)
    assert got["planned"] and got["fits"]
    assert (got["tp"], got["gpu_memory_utilization"], got["max_model_len"]) == (
        expected.tp,
        expected.gpu_memory_utilization,
        expected.context,
    )
    mine = fill_from_plan(VllmSettings(model=str(folder), max_model_len=4096), 80.0, 1)
    assert mine.max_model_len == 4096, "the user's flag wins"
    assert mine.gpu_memory_utilization == expected.gpu_memory_utilization and mine.tp == 1
    unknown = planned_defaults(str(tmp_path / "nowhere"), 80.0, 1, None, None)
    assert unknown["planned"] is False and "could not read" in unknown["why"]


QWEN25_05B = {
    "architectures": ["Qwen2ForCausalLM"],
    "model_type": "qwen2",
    "hidden_size": 896,
    "intermediate_size": 4864,
    "num_hidden_layers": 24,
    "num_attention_heads": 14,
    "num_key_value_heads": 2,
    "max_position_embeddings": 32768,
    "vocab_size": 151936,
    "tie_word_embeddings": True,
    "torch_dtype": "bfloat16",
}


def test_identity_is_known_from_the_settings_and_is_the_engines(tmp_path: Path) -> None:
    """Not exercising vLLM: the plugin's identity before any GPU is touched equals the engine's."""
    vllm = plugin("vllm")
    opts = ScreenOptions(pool=POOL, out=tmp_path, engine="vllm", model="Qwen/Qwen3-0.6B", tp=2)
    settings = vllm.settings(asdict(opts))
    assert (settings.tp, settings.chat_template_kwargs) == (2, {"enable_thinking": False})
    before = vllm.identity(settings)
    engine = VllmEngine(settings, calls=ScriptedVllm())
    assert engine.identity() == engine.describe()["identity"] == before
    assert before["structured_output_backend"] == "xgrammar" and before["seed"] == 0
    assert "tensor_parallel_size" not in before, "memory layout changes speed, not answers"


def _model_fit(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    """`lmscreen model fit … --json`, in this process."""
    from lmscreen.cli import main

    with pytest.raises(SystemExit) as done:
        main(["model", "fit", *args, "--json"])
    out = capsys.readouterr().out
    assert done.value.code == 0, out
    return json.loads(out)


@pytest.mark.parametrize("name", ["folder", "Qwen/Qwen3-30B-A3B-Instruct-2507-AWQ"])
def test_model_fit_and_the_vllm_defaults_plan_one_name_alike(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Not exercising vLLM: one resolver. The AWQ catalog name was planned as the unquantized release by
    `--engine vllm` (136,192 tokens) and as AWQ by `model fit` (262,144) before they shared it."""
    from lmscreen.model.arch import inspect
    from lmscreen.model.resolve import resolve

    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "empty-cache"))
    if name == "folder":
        folder = tmp_path / "Qwen2.5-0.5B-Instruct"
        folder.mkdir()
        (folder / "config.json").write_text(json.dumps(QWEN25_05B), encoding="utf-8")
        name = str(folder)
    assert inspect(name) == resolve(name).spec
    fit = _model_fit(capsys, name, "--vram-gib", "80")
    planned = planned_defaults(name, 80.0, 1, None, None)
    assert planned["planned"] and planned["resolved"] in ("path", "catalog")
    got = [planned[k] for k in ("tp", "gpu_memory_utilization", "max_model_len", "quantization", "fits")]
    assert got == [fit[k] for k in ("tp", "gpu_memory_utilization", "context", "quantization", "fits")]
    assert planned["max_concurrency"] == fit["max_concurrency"]


def test_a_name_only_estimate_never_sets_vllm_flags() -> None:
    """Not exercising vLLM: `model fit` may plan a guessed architecture with a warning; vLLM is not started
    with a max_model_len guessed from a name."""
    got = planned_defaults("example-org/Qwen2.5-14B-Mystery", 80.0, 1, None, None)
    assert got["planned"] is False and "estimate" in got["why"]


def test_missing_vllm_or_gpu_is_one_line_exit_2(tmp_path: Path) -> None:
    """Not exercising vLLM: without the extra (or a GPU) the CLI says which, in one line, exit 2."""
    proc = subprocess.run(
        [sys.executable, "-m", "lmscreen", "screen", str(POOL), "--reports", str(REPORTS)]
        + ["--out", str(tmp_path / "o"), "--engine", "vllm", "--model", "Qwen/Qwen3-0.6B", "--quiet"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert "lmscreen[vllm]" in lines[0] or "NVIDIA GPU" in lines[0]


def _gpu_reason() -> str | None:
    if shutil.which("nvidia-smi") is None:
        return "no NVIDIA GPU on this machine (nvidia-smi not found)"
    try:
        import torch
        import vllm  # noqa: F401
    except ImportError:
        return "the [vllm] extra is not installed (pip install 'lmscreen[vllm]')"
    if not torch.cuda.is_available():
        return "torch sees no CUDA device"
    if not os.environ.get("LMSCREEN_GPU_MODEL"):
        return "set LMSCREEN_GPU_MODEL to a local Qwen instruct model folder (scripts/gpu_check.sh does)"
    return None


@pytest.mark.gpu
@pytest.mark.skipif(_gpu_reason() is not None, reason=_gpu_reason() or "")
def test_real_vllm_screens_the_example_pool(tmp_path: Path) -> None:
    """Exercises vLLM itself: the example pool through `vllm.LLM` on a GPU."""
    opts = ScreenOptions(
        pool=POOL,
        out=tmp_path / "o",
        reports=REPORTS,
        engine="vllm",
        model=os.environ["LMSCREEN_GPU_MODEL"],
        gpu_memory_utilization=0.5,
        progress=False,
    )
    summary = screen(opts)
    llm = summary.run["llm"]
    assert llm["sent"] == llm["rows_with_report"] and llm["failed"] == 0
    assert llm["usage"]["cached_prompt_tokens"] > 0, "prefix caching must serve the shared system prompt"
    rows = [json.loads(x) for x in (tmp_path / "o" / "results.jsonl").read_text("utf-8").splitlines()]
    assert all(r["status"] == "ok" for r in rows if r.get("llm"))
