"""`lmscreen doctor --log`: the cause of a failed start in one line and the fix with numbers, on real log
excerpts from public issue threads (each file's first line cites its thread)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from lmscreen.doctor.logs import CAUSES, diagnose, diagnose_file, read_facts

LOGS = Path(__file__).parent / "data" / "logs"

# file → (cause, texts the fix must carry)
EXPECTED = {
    "vllm-2418-kv-v0.log": ("kv_cache_too_small", ["--max-model-len 3664"]),
    "vllm-34076-kv-v1.log": ("kv_cache_too_small", ["--max-model-len 34736", "--kv-cache-dtype fp8"]),
    "vllm-25350-kv-fp8.log": ("kv_cache_too_small", ["--max-model-len 122080"]),
    "vllm-19186-graph-oom.log": ("cuda_graph_oom", ["--gpu-memory-utilization 0.85", "--enforce-eager"]),
    "vllm-16343-weights-oom.log": ("weights_too_large", ["quantized checkpoint"]),
    "llamacpp-20431-weights.log": ("weights_too_large", ["141.4 GiB", "-ngl"]),
    "longwriter-39-no-template.log": (
        "no_chat_template",
        ["--chat-template", "THUDM/LongWriter-llama3.1-8b"],
    ),
    "ollama-12984-unknown-arch.log": ("unknown_architecture", ["pangu-embedded", "upgrade"]),
    "vllm-9515-broken-install.log": ("broken_install", ["LlamaForCausalLM", "reinstall"]),
    "vllm-3486-wrong-name.log": ("wrong_model_name", ["/root/autodl-tmp/models/Qwen1.5-14B-Chat-GPTQ-Int8"]),
}


def test_every_excerpt_cites_its_thread_and_six_causes_are_covered() -> None:
    files = sorted(LOGS.glob("*.log"))
    assert {f.name for f in files} == set(EXPECTED)
    for f in files:
        first = f.read_text(encoding="utf-8").splitlines()[0]
        assert first.startswith("# source: https://github.com/"), f.name
    assert len({cause for cause, _ in EXPECTED.values()}) >= 6


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_cause_and_fix(name: str) -> None:
    cause, musts = EXPECTED[name]
    found = diagnose_file(str(LOGS / name))
    assert found.cause == cause, found.summary
    assert "\n" not in found.summary and CAUSES[cause] in found.summary
    assert found.evidence and found.evidence in (LOGS / name).read_text(encoding="utf-8")
    text = "\n".join(found.fixes)
    for must in musts:
        assert must in text, (must, text)


def test_facts_read_from_the_log() -> None:
    facts = read_facts((LOGS / "vllm-34076-kv-v1.log").read_text(encoding="utf-8"))
    assert facts.engine == "vllm" and facts.max_model_len == 262144
    assert facts.available_kv_gib == 3.18 and facts.needed_kv_gib == 24.0 and facts.estimated_max_len == 34736
    assert facts.gpu_memory_utilization == 0.9
    assert facts.served_names == ["Qwen3-Coder-30B-A3B-Instruct-FP8"]
    v0 = read_facts((LOGS / "vllm-2418-kv-v0.log").read_text(encoding="utf-8"))
    assert v0.max_model_len == 4096 and v0.kv_tokens == 3664 and v0.tp == 1


def test_planner_sizes_the_fix_when_model_and_card_are_known() -> None:
    """With the card named, every memory-sized fix carries the planner's largest --max-model-len."""
    found = diagnose_file(str(LOGS / "longwriter-39-no-template.log"), "RTX 4090")
    line = next(x for x in found.fixes if x.startswith("planner"))
    assert "--max-model-len" in line and "estimated" in line  # no config.json here: layout from the name


def test_util_fix_when_memory_is_close() -> None:
    """KV short by less than the card's headroom: the fix names the --gpu-memory-utilization that fits."""
    log = (
        "INFO worker.py:241] the current vLLM instance can use total_gpu_memory (79.19GiB) x "
        "gpu_memory_utilization (0.90) = 71.27GiB\n"
        "ValueError: To serve at least one request with the models's max seq len (131072), (16.00 GiB KV "
        "cache is needed, which is larger than the available KV cache memory (14.50 GiB). "
        "Based on the available memory, the estimated maximum model length is 118784. "
        "Try increasing `gpu_memory_utilization`\n"
    )
    found = diagnose(log)
    assert found.cause == "kv_cache_too_small"
    assert any("--gpu-memory-utilization 0.92" in x for x in found.fixes)


def test_clean_log_names_no_cause() -> None:
    found = diagnose(
        "INFO 01-01 00:00:00 api_server.py] Started server process\nINFO Application startup complete."
    )
    assert found.cause is None and found.fixes == []


def test_cli_text_json_and_bad_file(tmp_path: Path) -> None:
    base = [sys.executable, "-m", "lmscreen", "doctor", "--log"]
    text = subprocess.run(
        [*base, str(LOGS / "vllm-2418-kv-v0.log")], capture_output=True, text=True, timeout=600
    )
    assert text.returncode == 1 and text.stdout.splitlines()[0].startswith("vllm: KV cache too small")
    js = subprocess.run(
        [*base, str(LOGS / "vllm-19186-graph-oom.log"), "--json"], capture_output=True, text=True, timeout=600
    )
    assert js.returncode == 1 and len(js.stdout.strip().splitlines()) == 1
    assert json.loads(js.stdout)["cause"] == "cuda_graph_oom"
    clean = tmp_path / "ok.log"
    clean.write_text("INFO Application startup complete.\n", encoding="utf-8")
    ok = subprocess.run([*base, str(clean)], capture_output=True, text=True, timeout=600)
    assert ok.returncode == 0
    bad = subprocess.run([*base, str(tmp_path / "missing.log")], capture_output=True, text=True, timeout=600)
    assert bad.returncode == 2 and "missing.log" in bad.stderr and len(bad.stderr.strip().splitlines()) == 1
