"""Any model a user names: config.json (path, folder, HF cache) else an estimate from the name, marked so;
release suffixes (-2507, -0528, -v0.3) select their own catalog entry and never the first release."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from inproc import run_lmscreen
from lmscreen.model.arch.estimate import estimated_fields, is_estimated
from lmscreen.model.catalog import lookup
from lmscreen.model.catalog.models import releases
from lmscreen.model.hardware import gpu
from lmscreen.model.launch import family_for, launch_command
from lmscreen.model.memory import plan
from lmscreen.model.resolve import resolve

CONFIGS = Path(__file__).parent / "data" / "configs"
ABSENT = "example-org/Qwen2.5-Finetune-14B-Instruct"
"""Not in the catalog, never on disk: a Qwen2.5 fine-tune named the way the hub names them."""


def _cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return run_lmscreen(["model", *args], env={**os.environ, **(env or {})})


def _hf_cache(tmp_path: Path, model_id: str, config: Path) -> Path:
    """A local Hugging Face cache holding only the config.json of `model_id`, laid out as the hub does."""
    repo = tmp_path / "hub" / ("models--" + model_id.replace("/", "--"))
    snapshot = repo / "snapshots" / "0123abcd"
    snapshot.mkdir(parents=True)
    shutil.copy(config, snapshot / "config.json")
    (repo / "refs").mkdir()
    (repo / "refs" / "main").write_text("0123abcd", encoding="utf-8")
    return tmp_path / "hub"


def test_absent_model_without_config_is_estimated_and_marked() -> None:
    assert lookup(ABSENT) is None
    found = resolve(ABSENT)
    assert found.how == "name-estimate"
    spec = found.spec
    assert is_estimated(spec)
    assert spec.sources["num_layers"].startswith("estimate: like Qwen/Qwen2.5-14B")
    # the size comes from the template's layout at the name's 14 B (embeddings included), not 14e9 literally
    assert spec.sources["total_params"].startswith("estimate: like Qwen/Qwen2.5-14B")
    assert spec.total_params == pytest.approx(14.7e9, rel=0.02)
    assert {"num_layers", "num_kv_heads", "head_dim"} <= set(estimated_fields(spec))
    result = plan(spec, gpu("H100"), engine="vllm")
    assert result.fits and result.max_context > 0


def test_absent_model_launch_prints_command_and_warning() -> None:
    out = _cli("launch", ABSENT, "--engine", "vllm", "--gpu", "H100")
    assert out.returncode == 0, out.stderr
    command = next(x for x in out.stdout.splitlines() if x.startswith("vllm serve"))
    assert command.startswith(f"vllm serve {ABSENT} ") and "--max-model-len" in command
    warning = next(x for x in out.stderr.splitlines() if "estimated" in x)
    assert warning.startswith("warning:") and "Qwen/Qwen2.5-14B" in warning and "--config" in warning


def test_issue_example_distill_launch() -> None:
    """The issue's own example: a command for an R1 distill, parsers from its family, exit 0."""
    out = _cli("launch", "deepseek-ai/DeepSeek-R1-Distill-Qwen-14B", "--engine", "vllm")
    assert out.returncode == 0, out.stderr
    command = next(x for x in out.stdout.splitlines() if x.startswith("vllm serve"))
    assert "--reasoning-parser deepseek_r1" in command
    assert "--tool-call-parser" not in command  # a Qwen2 checkpoint: no DeepSeek-V3 tool-call format


def test_unknown_family_without_size_still_gets_a_launch_line() -> None:
    out = _cli("launch", "example-org/Mystery-Model", "--engine", "vllm")
    assert out.returncode == 0, out.stderr
    assert any(x.startswith("vllm serve example-org/Mystery-Model") for x in out.stdout.splitlines())
    assert "warning:" in out.stderr
    # sizing a GPU needs an architecture: a clear one-line error, exit 2
    fit = _cli("fit", "example-org/Mystery-Model", "--gpu", "H100")
    assert fit.returncode == 2 and len(fit.stderr.strip().splitlines()) == 1 and "config.json" in fit.stderr


def test_absent_model_with_config_in_hf_cache(tmp_path: Path) -> None:
    """Same absent name, its config.json in the local HF cache: exact facts, no estimate, no warning."""
    cache = _hf_cache(tmp_path, ABSENT, CONFIGS / "Qwen2.5-7B-Instruct" / "config.json")
    os.environ["HF_HUB_CACHE"] = str(cache)
    try:
        found = resolve(ABSENT)
    finally:
        del os.environ["HF_HUB_CACHE"]
    assert found.how == "hf-cache" and not is_estimated(found.spec)
    assert found.spec.num_layers == 28 and found.spec.sources["num_layers"] == "config"
    out = _cli("launch", ABSENT, "--engine", "vllm", "--gpu", "RTX 4090", env={"HF_HUB_CACHE": str(cache)})
    assert out.returncode == 0, out.stderr
    assert "estimated" not in out.stderr
    assert any(x.startswith(f"vllm serve {ABSENT} ") for x in out.stdout.splitlines())


def test_config_option_reads_a_config_file_for_any_name() -> None:
    config = CONFIGS / "Qwen2.5-7B-Instruct" / "config.json"
    out = _cli("fit", ABSENT, "--config", str(config), "--gpu", "RTX 4090", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["model"] == ABSENT and not any("estimate" in n for n in data["notes"])
    folder = _cli("fit", ABSENT, "--config", str(config.parent), "--gpu", "RTX 4090", "--json")
    assert json.loads(folder.stdout)["kv_bytes_per_token"] == data["kv_bytes_per_token"]
    missing = _cli("fit", ABSENT, "--config", "/no/such/config.json", "--gpu", "RTX 4090")
    assert missing.returncode == 2 and "/no/such/config.json" in missing.stderr


@pytest.mark.parametrize(
    ("name", "tags"),
    [
        ("Qwen/Qwen3-30B-A3B-Instruct-2507-AWQ", {"2507"}),
        ("deepseek-ai/DeepSeek-R1-0528", {"0528"}),
        ("mistralai/Mistral-7B-Instruct-v0.3", {"v0.3"}),
        ("Qwen/Qwen3-30B-A3B", set()),
        ("meta-llama/Llama-3.1-8B-Instruct", set()),
    ],
)
def test_release_tags(name: str, tags: set[str]) -> None:
    assert releases(name) == tags


def test_instruct_2507_is_its_own_model() -> None:
    """The issue's miss: Qwen3-30B-A3B-Instruct-2507-AWQ planned as the hybrid-thinking first release."""
    found = resolve("Qwen/Qwen3-30B-A3B-Instruct-2507-AWQ")
    spec = found.spec
    assert found.how == "catalog" and spec.name == "Qwen/Qwen3-30B-A3B-Instruct-2507"
    assert spec.max_position_embeddings == 262_144 and spec.quantization == "awq"
    cmd = launch_command(spec, "vllm", None, model_ref="Qwen/Qwen3-30B-A3B-Instruct-2507-AWQ")
    assert "--reasoning-parser" not in cmd.shell()
    assert cmd.sampling == {"temperature": 0.7, "top_p": 0.8, "top_k": 20, "min_p": 0.0}
    first = resolve("Qwen/Qwen3-30B-A3B").spec
    assert first.max_position_embeddings == 40_960 and family_for(first).vllm_reasoning == "qwen3"


def test_release_absent_from_catalog_never_becomes_the_first_release() -> None:
    # (issue 25 gave Qwen3-235B-A22B-Instruct-2507 and Qwen3-30B-A3B-Thinking-2507 entries: the Thinking-2507
    # release of the 235B is the one still absent)
    assert lookup("Qwen/Qwen3-235B-A22B-Thinking-2507") is None
    assert lookup("Qwen/Qwen3-235B-A22B").id == "Qwen/Qwen3-235B-A22B"
    spec = resolve("Qwen/Qwen3-235B-A22B-Thinking-2507").spec
    # context from the same release of the same line, marked as an estimate; thinking parsers by name
    assert spec.max_position_embeddings == 262_144
    assert spec.sources["max_position_embeddings"].startswith(
        "estimate: like Qwen/Qwen3-235B-A22B-Instruct-2507"
    )
    assert family_for(spec).vllm_reasoning == "deepseek_r1"


def test_recommend_ranks_a_named_model_outside_the_catalog() -> None:
    args = ("--gpu", "H100", "--task", "screen", "--model", ABSENT, "--limit", "100", "--json")
    out = _cli("recommend", *args)
    assert out.returncode == 0, out.stderr
    ranked = {m["model"]: m for m in json.loads(out.stdout)["models"]}
    assert ABSENT in ranked and ranked[ABSENT]["rows_per_hour"] > 0
    assert "estimated" in out.stderr


def test_decode_of_an_absent_name_says_what_it_does_not_know() -> None:
    out = _cli("decode", ABSENT, "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["total_params_b"] == 14 and data["source"]["total_params_b"] == "name"
    assert data["catalog_id"] is None


def test_unknown_ollama_tag_for_vllm_says_it_needs_an_hf_id() -> None:
    out = _cli("launch", "mistral-nemo:12b", "--engine", "vllm")
    assert out.returncode == 0, out.stderr
    assert "Ollama tag" in out.stderr and "Hugging Face id" in out.stderr
    known = _cli("launch", "qwen3:8b", "--engine", "vllm")
    assert any(x.startswith("vllm serve Qwen/Qwen3-8B ") for x in known.stdout.splitlines())
    assert "Ollama tag" not in known.stderr


def test_a_dense_sibling_with_a_big_vocabulary_is_not_taken_for_moe() -> None:
    """A bare name borrows the layout of the nearest catalog sibling of its kind (dense with dense, MoE with
    MoE). The kind is read from the config's expert count: Qwen3.5-0.8B counts only 0.75 of its 0.85 B as
    active (embeddings and ViT), which the old active/total ratio read as MoE, so a bare Qwen3.5-4B (its own
    entry set aside) was planned from the 27B scaled by 0.15 instead of from the 0.8B."""
    from lmscreen.model.arch.estimate import _moe, spec_from_name

    assert not _moe(lookup("Qwen/Qwen3.5-0.8B"))
    assert not _moe(lookup("Qwen/Qwen3-VL-2B-Instruct"))
    assert _moe(lookup("Qwen/Qwen3.5-35B-A3B"))
    spec = spec_from_name("Qwen/Qwen3.5-4B", exclude=frozenset({"Qwen/Qwen3.5-4B"}))
    borrowed = next(iter(spec.sources.values()))
    # the nearest dense sibling by size: the 0.8B, or the 9B since it has an entry; never the 27B or a MoE
    assert "Qwen/Qwen3.5-0.8B" in borrowed or "Qwen/Qwen3.5-9B" in borrowed
