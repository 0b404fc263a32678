"""Launch commands: every flag, parser name and KV type must exist in the engine version we name.

The flag lists are research/engine-flags/*.txt, read from each engine's own argument parser (vLLM 0.33.0,
SGLang 0.5.23, llama.cpp 0c1e57098, Ollama 0.33.0-rc2); the value lists are in parsers-and-sampling.md.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from dataclasses import replace
from functools import cache
from pathlib import Path

import pytest

from lmscreen.model.catalog import all_models, spec_for
from lmscreen.model.hardware import gpu
from lmscreen.model.launch import LaunchCommand, launch_command
from lmscreen.model.launch.families import family_for, sampling_preset
from lmscreen.model.memory import plan
from lmscreen.model.spec import ModelSpec

# A copy of ../shared/research/engine-flags (the engines' real flags, read from their own parsers), kept in
# the repo so these checks always run.
FLAGS_DIR = Path(__file__).resolve().parent / "data" / "research" / "engine-flags"


@cache
def flag_set(engine: str) -> frozenset[str]:
    """Every accepted spelling in an engine's flag file (deprecated SGLang spellings excluded)."""
    flags: set[str] = set()
    section = ""
    for line in (FLAGS_DIR / f"{engine}.txt").read_text(encoding="utf-8").splitlines():
        if line.startswith("# ---"):
            section = line
            continue
        if not line.strip() or line.startswith("#") or "deprecated" in section:
            continue
        flags.update(line.split())
    return frozenset(flags)


@cache
def ollama_sections() -> dict[str, frozenset[str]]:
    sections: dict[str, set[str]] = {}
    current = ""
    for line in (FLAGS_DIR / "ollama.txt").read_text(encoding="utf-8").splitlines():
        if line.startswith("# ---"):
            current = line.strip("# -").split("(")[0].strip()
            sections.setdefault(current, set())
        elif line.strip() and not line.startswith("#") and current:
            sections[current].update(line.split())
    return {k: frozenset(v) for k, v in sections.items()}


@cache
def value_list(engine_section: str, flag: str) -> frozenset[str]:
    """The value list of `### \\`FLAG\\`` in section `engine_section` of parsers-and-sampling.md."""
    text = (FLAGS_DIR / "parsers-and-sampling.md").read_text(encoding="utf-8")
    section = text.split(engine_section, 1)[1].split("\n## ", 1)[0]
    heading, body = section.split(f"### `{flag}`", 1)[1].split("\n", 1)
    inline = re.match(r"\s*\([^)]*\):\s*(.+)$", heading)  # "### `--kv-cache-dtype` (8): auto, fp8_e5m2, …"
    if inline:
        return frozenset(v.split("(")[0].strip() for v in inline.group(1).split(","))
    values: list[str] = []
    for line in body.strip().splitlines():
        if not line.strip() or line.startswith(("#", "-", "Note")):
            break
        values += [v.strip() for v in line.split(",") if v.strip()]
    return frozenset(values)


def llamacpp_values(flag: str) -> frozenset[str]:
    header = (FLAGS_DIR / "llamacpp.txt").read_text(encoding="utf-8")
    match = re.search(re.escape(flag) + r"\s*\{([^}]*)\}", header)
    assert match, flag
    return frozenset(match.group(1).split(","))


def check_argv(cmd: LaunchCommand) -> None:
    """Every flag of the command exists in its engine's list; parser/KV values exist in the value lists."""
    skip = {"vllm": 3, "sglang": 3, "llamacpp": 1}[cmd.engine]  # `vllm serve MODEL`, `python -m sglang…`
    args = cmd.argv[skip:]
    known = flag_set(cmd.engine)
    for i, token in enumerate(args):
        if token.startswith("-") and not re.fullmatch(r"-\d+(\.\d+)?", token):
            assert token in known, f"{cmd.engine}: {token} is not a flag of {cmd.engine_version}"
            value = args[i + 1] if i + 1 < len(args) else None
            if cmd.engine == "vllm" and token in (
                "--tool-call-parser",
                "--reasoning-parser",
                "--kv-cache-dtype",
            ):
                assert value in value_list("## 1. vLLM", token), f"vLLM {token} {value}"
            if cmd.engine == "sglang" and token in (
                "--tool-call-parser",
                "--reasoning-parser",
                "--kv-cache-dtype",
            ):
                assert value in value_list("## 2. SGLang", token), f"SGLang {token} {value}"
            if cmd.engine == "llamacpp" and token in ("-ctk", "-ctv"):
                assert value in llamacpp_values("-ctk/-ctv")
            if cmd.engine == "llamacpp" and token == "--reasoning-format":
                assert value in llamacpp_values("--reasoning-format")
            if cmd.engine == "llamacpp" and token in ("-fa", "-ngl"):
                assert value in {"on", "off", "auto", "all"} or value.isdigit()


def check_ollama(cmd: LaunchCommand) -> None:
    sections = ollama_sections()
    instructions = next(v for k, v in sections.items() if k.startswith("Modelfile instructions"))
    params = next(v for k, v in sections.items() if k.startswith("valid PARAMETER names"))
    env_vars = next(v for k, v in sections.items() if k.startswith("server environment variables"))
    cli = next(v for k, v in sections.items() if k.startswith("CLI flags"))
    for line in cmd.files["Modelfile"].splitlines():
        word, *rest = line.split()
        assert word in instructions, word
        if word == "PARAMETER":
            assert rest[0] in params, rest[0]
    assert set(cmd.env) <= env_vars
    assert cmd.argv == ["ollama", "serve"]
    for setup in cmd.setup:
        assert setup[:2] == ["ollama", "create"]
        assert all(t in cli for t in setup if t.startswith("-"))
    if "OLLAMA_KV_CACHE_TYPE" in cmd.env:
        assert cmd.env["OLLAMA_KV_CACHE_TYPE"] in {"f16", "q8_0", "q4_0"}


def build(spec: ModelSpec, engine: str, **kw: object) -> LaunchCommand:
    card = kw.pop("card", "H200")
    gpus = kw.pop("gpus", 1)
    kv = kw.pop("kv", "auto")
    concurrency = kw.pop("concurrency", None)
    plan_engine = "vllm" if engine == "sglang" else engine
    if engine == "llamacpp" and kv == "fp8":
        kv = "q8_0"
    if engine == "ollama" and kv == "fp8":
        kv = "q8_0"
    p = plan(
        spec,
        gpu(card),
        gpus=gpus,
        kv_cache_dtype=kv,
        concurrency=concurrency,
        engine=plan_engine,
        table=False,
    )
    return launch_command(spec, engine, p, api_key="test-key", **kw)


CATALOG = [e.id for e in all_models()]


@pytest.mark.parametrize("model_id", CATALOG)
@pytest.mark.parametrize("engine", ["vllm", "sglang", "llamacpp", "ollama"])
def test_every_flag_exists_for_every_catalog_model(model_id: str, engine: str) -> None:
    spec = spec_for(model_id)
    for kw in ({}, {"gpus": 2, "kv": "fp8", "concurrency": 4, "host": "0.0.0.0", "task": "agent"}):
        cmd = build(spec, engine, **kw)
        if engine == "ollama":
            check_ollama(cmd)
        else:
            check_argv(cmd)


def _arg(cmd: LaunchCommand, flag: str) -> str | None:
    return cmd.argv[cmd.argv.index(flag) + 1] if flag in cmd.argv else None


def test_vllm_command_carries_the_plan() -> None:
    spec = spec_for("Qwen/Qwen3-8B")
    p = plan(spec, gpu("RTX 3090"), kv_cache_dtype="fp8", concurrency=4)
    cmd = launch_command(spec, "vllm", p)
    assert cmd.argv[:3] == ["vllm", "serve", "Qwen/Qwen3-8B"]
    assert _arg(cmd, "--served-model-name") == "Qwen3-8B"
    assert _arg(cmd, "--host") == "127.0.0.1" and cmd.api_key is None and "--api-key" not in cmd.argv
    assert _arg(cmd, "--max-model-len") == str(p.context)
    assert float(_arg(cmd, "--gpu-memory-utilization")) == p.gpu_memory_utilization
    assert _arg(cmd, "--kv-cache-dtype") == "fp8" and _arg(cmd, "--max-num-seqs") == "4"
    assert _arg(cmd, "--reasoning-parser") == "qwen3" and _arg(cmd, "--tool-call-parser") == "hermes"
    assert json.loads(_arg(cmd, "--override-generation-config"))["temperature"] == 0.6
    two = launch_command(spec, "vllm", plan(spec, gpu("RTX 3090"), gpus=2))
    assert _arg(two, "--tensor-parallel-size") == "2"


def test_public_host_adds_api_key_and_warning() -> None:
    spec = spec_for("openai/gpt-oss-20b")
    for engine in ("vllm", "sglang", "llamacpp"):
        cmd = launch_command(spec, engine, host="0.0.0.0")
        assert cmd.api_key and _arg(cmd, "--api-key") == cmd.api_key
        assert any("0.0.0.0" in w and "API key" in w for w in cmd.warnings)
    ollama = launch_command(spec, "ollama", host="0.0.0.0")
    assert ollama.env["OLLAMA_HOST"] == "0.0.0.0:11434" and any("no API key" in w for w in ollama.warnings)
    assert (
        launch_command(spec, "vllm", host="0.0.0.0").api_key
        != launch_command(spec, "vllm", host="0.0.0.0").api_key
    )


@pytest.mark.parametrize(
    ("model_id", "vllm_reasoning", "vllm_tool", "sglang_reasoning", "sglang_tool"),
    [
        ("Qwen/Qwen3.6-35B-A3B", "qwen3", "qwen3_coder", "qwen3", "qwen3_coder"),
        ("Qwen/Qwen3-Coder-30B-A3B-Instruct", None, "qwen3_coder", None, "qwen3_coder"),
        ("deepseek-ai/DeepSeek-R1", "deepseek_r1", "deepseek_v3", "deepseek-r1", "deepseekv3"),
        # a Qwen2-architecture distill: R1 reasoning, but no DeepSeek-V3 tool-call format
        ("deepseek-ai/DeepSeek-R1-Distill-Qwen-7B", "deepseek_r1", None, "deepseek-r1", None),
        ("deepseek-ai/DeepSeek-R1-Distill-Llama-70B", "deepseek_r1", None, "deepseek-r1", None),
        ("openai/gpt-oss-120b", None, "openai", "gpt-oss", "gpt-oss"),
        ("meta-llama/Llama-3.1-8B-Instruct", None, "llama3_json", None, "llama3"),
        ("zai-org/GLM-4.5-Air", "glm45", "glm45", "glm45", "glm45"),
    ],
)
def test_parsers_per_family(
    model_id: str,
    vllm_reasoning: str | None,
    vllm_tool: str | None,
    sglang_reasoning: str | None,
    sglang_tool: str | None,
) -> None:
    spec = spec_for(model_id)
    vllm = launch_command(spec, "vllm")
    sglang = launch_command(spec, "sglang")
    assert (
        _arg(vllm, "--reasoning-parser") == vllm_reasoning and _arg(vllm, "--tool-call-parser") == vllm_tool
    )
    assert ("--enable-auto-tool-choice" in vllm.argv) == (vllm_tool is not None)
    assert _arg(sglang, "--reasoning-parser") == sglang_reasoning
    assert _arg(sglang, "--tool-call-parser") == sglang_tool


def test_sampling_presets_per_task() -> None:
    qwen35 = spec_for("Qwen/Qwen3.5-27B")
    assert sampling_preset(qwen35, "text")[0]["temperature"] == 1.0
    assert sampling_preset(qwen35, "agent")[0]["temperature"] == 0.6
    assert sampling_preset(spec_for("openai/gpt-oss-20b"))[0] == {"temperature": 1.0, "top_p": 1.0}
    assert sampling_preset(spec_for("microsoft/phi-4"))[0] == {}
    assert family_for(spec_for("Qwen/Qwen3-Next-80B-A3B-Instruct")).key == "qwen3-instruct-2507"


def test_llamacpp_and_ollama_carry_the_plan() -> None:
    spec = spec_for("Qwen/Qwen3.6-35B-A3B")
    p = plan(
        replace(spec, **{"quantization": "q4_k_m"}),
        gpu("RTX 4060"),
        context=16384,
        concurrency=2,
        kv_cache_dtype="q8_0",
        engine="llamacpp",
    )
    cmd = launch_command(replace(spec, **{"quantization": "q4_k_m"}), "llamacpp", p)
    assert _arg(cmd, "-c") == str(16384 * 2) and _arg(cmd, "-np") == "2"
    assert _arg(cmd, "--n-cpu-moe") == str(p.n_cpu_moe) and _arg(cmd, "-ngl") == "all"
    assert _arg(cmd, "-ctk") == "q8_0" and _arg(cmd, "-ctv") == "q8_0" and _arg(cmd, "-fa") == "on"
    op = plan(spec, gpu("RTX 4090"), engine="ollama", concurrency=3, kv_cache_dtype="q8_0")
    ollama = launch_command(spec, "ollama", op, ollama_tag="qwen3.6:35b")
    assert ollama.files["Modelfile"].startswith("FROM qwen3.6:35b\n")
    assert f"PARAMETER num_ctx {op.context}" in ollama.files["Modelfile"]
    assert ollama.env["OLLAMA_NUM_PARALLEL"] == "3" and ollama.env["OLLAMA_KV_CACHE_TYPE"] == "q8_0"
    assert ollama.env["OLLAMA_HOST"] == "127.0.0.1:11434"


def test_transformers_is_a_script_without_server_flags() -> None:
    cmd = launch_command(spec_for("Qwen/Qwen3-8B"), "transformers")
    assert cmd.argv == ["python", "chat_transformers.py"]
    script = cmd.files["chat_transformers.py"]
    compile(script, "chat_transformers.py", "exec")
    assert "Qwen/Qwen3-8B" in script and "temperature=0.6" in script


def test_launch_cli_text_and_json() -> None:
    base = [
        sys.executable,
        "-m",
        "lmscreen",
        "model",
        "launch",
        "Qwen/Qwen3-8B",
        "--engine",
        "vllm",
        "--gpu",
        "RTX 3090",
    ]
    text = subprocess.run([*base, "--host", "0.0.0.0"], capture_output=True, text=True, timeout=600)
    assert text.returncode == 0, text.stderr
    assert "warning:" in text.stderr and "0.0.0.0" in text.stderr
    command = next(x for x in text.stdout.splitlines() if x.startswith("vllm serve"))
    assert "--api-key" in command and "--served-model-name Qwen3-8B" in command
    js = subprocess.run([*base, "--json"], capture_output=True, text=True, timeout=600)
    assert js.returncode == 0 and len(js.stdout.strip().splitlines()) == 1
    data = json.loads(js.stdout)
    assert data["command"].startswith("vllm serve") and data["plan"]["fits"] is True
    bad = subprocess.run([*base[:-4], "--engine", "tgi"], capture_output=True, text=True, timeout=600)
    assert bad.returncode == 2 and "tgi" in bad.stderr


def test_catalog_generation_config_preset_keeps_integer_top_k() -> None:
    """A release's own generation_config.json (with its source) is its preset; top_k stays an integer in the
    --override-generation-config JSON (vLLM types it int), and the source names the file it came from."""
    spec = spec_for("Qwen/Qwen2.5-Coder-32B-Instruct")
    preset, source = sampling_preset(spec)
    assert preset == {"temperature": 0.7, "top_p": 0.8, "top_k": 20, "repetition_penalty": 1.05}
    assert "generation_config.json" in source
    override = json.loads(_arg(launch_command(spec, "vllm"), "--override-generation-config"))
    assert override["top_k"] == 20 and isinstance(override["top_k"], int)


def test_expert_parallel_flag_only_for_a_moe_model_on_vllm() -> None:
    """--enable-expert-parallel (vLLM's own flag, research/engine-flags/vllm.txt) goes into the command of a
    MoE model; a dense model leaves it out and says why; other engines refuse it."""
    from lmscreen.errors import InputError

    moe = spec_for("Qwen/Qwen3-30B-A3B")
    p = plan(moe, gpu("H100"), gpus=2, expert_parallel=True, table=False)
    cmd = launch_command(moe, "vllm", p)
    check_argv(cmd)
    assert cmd.argv.count("--enable-expert-parallel") == 1 and _arg(cmd, "--tensor-parallel-size") == "2"
    assert "--enable-expert-parallel" not in launch_command(moe, "vllm", plan(moe, gpu("H100"), gpus=2)).argv
    bare = launch_command(moe, "vllm", expert_parallel=True)
    assert bare.argv.count("--enable-expert-parallel") == 1
    dense = spec_for("Qwen/Qwen3-8B")
    d = plan(dense, gpu("H100"), gpus=2, expert_parallel=True, table=False)
    cmd = launch_command(dense, "vllm", d, expert_parallel=True)
    assert "--enable-expert-parallel" not in cmd.argv
    assert any("dense model" in n for n in cmd.notes)
    with pytest.raises(InputError, match="vLLM flag"):
        launch_command(moe, "sglang", p, expert_parallel=True)
    with pytest.raises(InputError, match="vLLM flag"):
        plan(moe, gpu("H100"), engine="llamacpp", expert_parallel=True)
