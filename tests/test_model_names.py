"""model decode: what a name says, with the catalog filling only the gaps (and saying so)."""

from __future__ import annotations

import json
import subprocess

import pytest

from inproc import run_lmscreen
from lmscreen.errors import InputError
from lmscreen.model.names import decode


@pytest.mark.parametrize(
    "name,expected",
    [
        (
            "Qwen3.6-35B-A3B",
            dict(family="qwen", version="3.6", total_params_b=35, active_params_b=3, variant=[]),
        ),
        ("Qwen/Qwen3.6-35B-A3B", dict(org="Qwen", form="hf_id", total_params_b=35, active_params_b=3)),
        (
            "Llama 3-70B-Instruct",
            dict(family="llama", version="3", total_params_b=70, active_params_b=70, variant=["instruct"]),
        ),
        (
            "GLM-4-9B-Chat",
            dict(family="glm", version="4", total_params_b=9, active_params_b=9, variant=["chat"]),
        ),
        (
            "qwen3.5:9b",
            dict(
                form="ollama",
                family="qwen",
                version="3.5",
                total_params_b=9,
                active_params_b=9,
                quantization=None,
            ),
        ),
        (
            "llama3.1:70b-instruct-q4_K_M",
            dict(
                form="ollama",
                family="llama",
                version="3.1",
                total_params_b=70,
                variant=["instruct"],
                quantization="q4_k_m",
            ),
        ),
        (
            "Qwen3-8B-Q4_K_M.gguf",
            dict(form="gguf", family="qwen", version="3", total_params_b=8, quantization="q4_k_m"),
        ),
        (
            "models/Qwen3-30B-A3B-UD-Q4_K_XL.gguf",
            dict(form="gguf", total_params_b=30, active_params_b=3, quantization="ud-q4_k_xl"),
        ),
        ("Qwen3-8B-IQ4_XS.gguf", dict(quantization="iq4_xs", total_params_b=8)),
        (
            "Qwen3-235B-A22B-Q4_K_M-00001-of-00003.gguf",
            dict(
                total_params_b=235,
                active_params_b=22,
                quantization="q4_k_m",
                catalog_id="Qwen/Qwen3-235B-A22B",
            ),
        ),
        (
            "Qwen/Qwen3-Next-80B-A3B-Thinking",
            dict(total_params_b=80, active_params_b=3, variant=["next", "thinking"]),
        ),
        ("Qwen/Qwen2.5-VL-7B-Instruct", dict(variant=["vl", "instruct"], modality="text+vision")),
        ("Qwen/Qwen2.5-Omni-7B", dict(variant=["omni"], modality="omni")),
        ("Qwen/Qwen2.5-Coder-32B-Instruct", dict(variant=["coder", "instruct"], total_params_b=32)),
        ("Qwen/Qwen2.5-7B-Instruct-AWQ", dict(quantization="awq", quantization_bits=4)),
        ("Qwen/Qwen2.5-7B-Instruct-GPTQ-Int8", dict(quantization="gptq", quantization_bits=8)),
        ("RedHatAI/Qwen3-8B-FP8-dynamic", dict(quantization="fp8", org="RedHatAI")),
        ("nvidia/Qwen3-30B-A3B-NVFP4", dict(quantization="nvfp4", active_params_b=3)),
        ("unsloth/gpt-oss-20b-BF16", dict(dtype="bf16", quantization=None, total_params_b=20)),
        ("mistralai/Mistral-7B-Instruct-v0.3", dict(family="mistral", version="0.3", total_params_b=7)),
        ("HuggingFaceTB/SmolLM2-135M-Instruct", dict(family="smollm", version="2", total_params_b=0.135)),
        ("Qwen/Qwen2.5-7B-Instruct-1M", dict(context_hint=1048576)),
        ("google/gemma-3-27b-it", dict(family="gemma", version="3", variant=["instruct"], total_params_b=27)),
    ],
)
def test_decode_from_name(name: str, expected: dict) -> None:
    decoded = decode(name)
    for field, value in expected.items():
        assert getattr(decoded, field) == value, (field, getattr(decoded, field))
    for field in ("total_params_b", "active_params_b", "quantization"):
        if field in expected and expected[field] is not None:
            assert decoded.source[field] == "name"


def test_a3b_is_active_parameters_not_multimodal() -> None:
    decoded = decode("acme/Foo-30B-A3B")
    assert (decoded.total_params_b, decoded.active_params_b) == (30, 3)
    assert decoded.modality is None and "vl" not in decoded.variant
    assert "modality" in decoded.unknown and decoded.catalog_id is None


def test_mixtral_expert_form_uses_catalog_totals() -> None:
    decoded = decode("Mixtral-8x7B")
    assert decoded.experts == 8 and decoded.family == "mixtral"
    assert (decoded.total_params_b, decoded.active_params_b) == (46.7, 12.9)
    assert decoded.source["total_params_b"] == decoded.source["active_params_b"] == "catalog"


@pytest.mark.parametrize(
    "name,total,active,version",
    [
        ("DeepSeek-V3", 671, 37, "V3"),
        ("deepseek-ai/DeepSeek-R1", 671, 37, "R1"),
        ("Kimi-K2-Instruct", 1000, 32, "K2"),
    ],
)
def test_names_without_size_come_from_catalog(name: str, total: float, active: float, version: str) -> None:
    decoded = decode(name)
    assert (decoded.total_params_b, decoded.active_params_b, decoded.version) == (total, active, version)
    assert decoded.source["total_params_b"] == "catalog"


def test_moe_family_without_active_in_name_is_not_called_dense() -> None:
    decoded = decode("gpt-oss-20b")
    assert decoded.total_params_b == 20 and decoded.source["total_params_b"] == "name"
    assert decoded.active_params_b == 3.6 and decoded.source["active_params_b"] == "catalog"
    assert decoded.quantization == "mxfp4" and decoded.source["quantization"] == "catalog"


def test_unknown_name_says_unknown() -> None:
    decoded = decode("my-finetune")
    assert decoded.total_params_b is None and decoded.active_params_b is None
    assert {"total_params_b", "active_params_b", "org", "quantization"} <= set(decoded.unknown)
    with pytest.raises(InputError):
        decode("   ")


@pytest.mark.parametrize(
    "hf_id,total,active",
    [
        ("Qwen/Qwen2.5-7B-Instruct", 7, 7),
        ("Qwen/Qwen3-8B", 8, 8),
        ("Qwen/Qwen3-30B-A3B", 30, 3),
        ("Qwen/Qwen3-Next-80B-A3B-Instruct", 80, 3),
        ("Qwen/Qwen3.5-27B", 27, 27),
        ("Qwen/Qwen3.6-27B", 27, 27),
        ("Qwen/Qwen3.5-35B-A3B", 35, 3),
        ("meta-llama/Llama-3.1-8B-Instruct", 8, 8),
        ("meta-llama/Llama-3.1-70B-Instruct", 70, 70),
        ("mistralai/Mistral-7B-Instruct-v0.3", 7, 7),
        ("mistralai/Mixtral-8x7B-Instruct-v0.1", 46.7, 12.9),
        ("deepseek-ai/DeepSeek-V3", 671, 37),
        ("THUDM/glm-4-9b-chat", 9, 9),
        ("openai/gpt-oss-20b", 20, 3.6),
        ("openai/gpt-oss-120b", 120, 5.1),
        ("google/gemma-3-27b-it", 27, 27),
    ],
)
def test_section4_models_decode(hf_id: str, total: float, active: float) -> None:
    decoded = decode(hf_id)
    assert (decoded.total_params_b, decoded.active_params_b) == (total, active)
    assert decoded.catalog_id is not None and decoded.context_hint


def _cli(*args: str) -> subprocess.CompletedProcess:
    return run_lmscreen(["model", *args])  # in this process, fd 1 and 2 captured (tests/inproc.py)


def test_cli_decode_json_and_table() -> None:
    out = _cli("decode", "llama3.1:70b-instruct-q4_K_M", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    for key in (
        "name",
        "org",
        "family",
        "version",
        "total_params_b",
        "active_params_b",
        "variant",
        "quantization",
        "modality",
        "context_hint",
        "source",
        "unknown",
    ):
        assert key in data
    assert data["quantization"] == "q4_k_m" and data["source"]["total_params_b"] == "name"
    table = _cli("decode", "Qwen3.6-35B-A3B")
    assert table.returncode == 0 and "active_params_b" in table.stdout and "catalog" in table.stdout
    empty = _cli("decode", " ")
    assert empty.returncode == 2 and len(empty.stderr.strip().splitlines()) == 1
