"""Start-up flags, checkpoint formats and names that heldout-18 (bench/planner_accuracy.py) showed the
planner reading wrong: --language-model-only, --mamba-ssm-cache-dtype, Kimi-K2-Thinking's own INT4 format,
and a -MXFP8 release name."""

from __future__ import annotations

import pytest

from lmscreen.errors import InputError
from lmscreen.model.catalog import spec_for
from lmscreen.model.catalog.models import lookup
from lmscreen.model.hardware import gpu
from lmscreen.model.memory import plan
from lmscreen.model.memory.flags import with_vllm_flags
from lmscreen.model.memory.kv import recurrent_state_bytes_per_layer
from lmscreen.model.memory.weights import weights
from lmscreen.model.names import decode

GIB = 1 << 30


def test_language_model_only_drops_the_vision_tower_and_keeps_the_text_model() -> None:
    spec = spec_for("Qwen/Qwen3.6-27B")
    assert spec.is_vision and spec.vision_params
    text = with_vllm_flags(spec, language_model_only=True)
    assert not text.is_vision and not text.vision_params
    assert text.total_params == spec.total_params - spec.vision_params
    drop = weights(spec).per_gpu_gib - weights(text).per_gpu_gib
    assert drop == pytest.approx(spec.vision_params * 2 / GIB, rel=0.01)  # the tower is 16-bit
    # a text-only model is what it was
    llama = spec_for("meta-llama/Llama-3.1-8B-Instruct")
    assert with_vllm_flags(llama, language_model_only=True) == llama


def test_language_model_only_leaves_more_kv_on_the_same_card() -> None:
    spec = spec_for("Qwen/Qwen3.6-27B")
    card = gpu("RTX PRO 6000 Blackwell")
    args = dict(context=32768, vllm_version="0.24.0", table=False)
    full = plan(spec, card, **args)
    text = plan(with_vllm_flags(spec, language_model_only=True), card, **args)
    assert text.available_kv_gib > full.available_kv_gib + 0.5


def test_ssm_cache_dtype_float16_halves_the_recurrent_state() -> None:
    spec = spec_for("Qwen/Qwen3.6-27B")
    fp32 = recurrent_state_bytes_per_layer(spec)
    fp16 = recurrent_state_bytes_per_layer(with_vllm_flags(spec, mamba_ssm_cache_dtype="float16"))
    la = spec.linear_attention
    ssm = la.num_value_heads * la.key_head_dim * la.value_head_dim
    assert fp32 - fp16 == 2 * ssm
    assert with_vllm_flags(spec, mamba_ssm_cache_dtype="auto") == spec
    with pytest.raises(InputError):
        with_vllm_flags(spec, mamba_ssm_cache_dtype="int3")
    # a model without recurrent layers has nothing to change
    llama = spec_for("meta-llama/Llama-3.1-8B-Instruct")
    assert with_vllm_flags(llama, mamba_ssm_cache_dtype="float16") == llama


def test_kimi_k2_thinking_is_planned_in_its_own_int4_format() -> None:
    """Routed experts INT4 in groups of 32, attention, shared experts and the dense first MLP bf16 (the
    release's quantization_config). The same scheme's Kimi-K2.5 logs 72.02 GiB a GPU at TP8 on H100 (bench
    heldout-15); read as bf16 the model needed ~240 GiB a GPU, and at the generic group-128 4 bits 62.9."""
    spec = spec_for("moonshotai/Kimi-K2-Thinking")
    assert (spec.quantization, spec.quantization_bits, spec.quantization_group_size) == ("int4", 4, 32)
    assert spec.unquantized_params and spec.unquantized_params > 5e9
    per_gpu = weights(spec, tp=8).per_gpu_gib
    assert per_gpu == pytest.approx(72.02, rel=0.02)


def test_an_mxfp8_release_name_is_the_catalog_model_in_mxfp8() -> None:
    entry = lookup("MiniMaxAI/MiniMax-M3-MXFP8")
    assert entry is not None and entry.id == "MiniMaxAI/MiniMax-M3"
    decoded = decode("MiniMaxAI/MiniMax-M3-MXFP8")
    assert (decoded.quantization, decoded.quantization_bits) == ("mxfp8", 8)
    base = spec_for("MiniMaxAI/MiniMax-M3")
    from dataclasses import replace

    mx = weights(replace(base, quantization="mxfp8"), tp=8).per_gpu_gib
    bf16 = weights(base, tp=8).per_gpu_gib
    assert 0.5 < mx / bf16 < 0.55  # 8.25 of 16 bits on the linear layers, embeddings 16-bit


def test_model_fit_takes_the_flags(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from lmscreen.cli import main

    base = ["model", "fit", "Qwen/Qwen3.6-27B", "--gpu", "A10", "--context", "32768", "--json"]
    for args in (base, [*base, "--language-model-only", "--mamba-ssm-cache-dtype", "float16"]):
        with pytest.raises(SystemExit) as done:
            main(args)
        assert done.value.code == 0
    full, lean = (json.loads(line) for line in capsys.readouterr().out.strip().splitlines())
    assert lean["weights_gib"] < full["weights_gib"] - 0.5
