"""Gemma 4's multimodal towers (arch.vision.gemma4_vision_params, arch.audio): counted from transformers'
module shapes, kept 16 bit in quantized checkpoints, dropped by --language-model-only.

Sources: transformers v5.25.0 models/gemma4/modeling_gemma4.py (Gemma4VisionModel, Gemma4AudioModel,
Gemma4MultimodalEmbedder) and configuration_gemma4.py; rnagabh/gemma4-vision-encoder's config.json
(https://huggingface.co/rnagabh/gemma4-vision-encoder/blob/main/config.json: the tower extracted from
google/gemma-4-31B-it, `_verified_total_params` 569550384); google/gemma-4-E4B-it's config.json
(https://huggingface.co/google/gemma-4-E4B-it/blob/main/config.json) and the E2B-it copy in ollama's
dhiltgen/gemma4:e2b-mlx-bf6 blob for the audio_config; Google's model card (vision ~150M, audio ~300M; E2B
5.1 B and E4B 8 B with embeddings); the vLLM start-ups of bench heldout-6 and heldout-21 for the weights.
"""

from __future__ import annotations

import pytest

from lmscreen.model.arch.audio import audio_params
from lmscreen.model.arch.vision import vision_params
from lmscreen.model.catalog import spec_for
from lmscreen.model.memory.flags import with_vllm_flags
from lmscreen.model.memory.weights import weights
from lmscreen.model.resolve import resolve

GIB = 1 << 30

GEMMA4_31B_VISION = {  # google/gemma-4-31B-it's vision_config (catalog/models/google--gemma-4-31B-it)
    "model_type": "gemma4_vision",
    "hidden_size": 1152,
    "intermediate_size": 4304,
    "num_hidden_layers": 27,
    "num_attention_heads": 16,
    "num_key_value_heads": 16,
    "head_dim": 72,
    "patch_size": 16,
    "position_embedding_size": 10240,
    "standardize": True,
    "use_clipped_linears": False,
}


def test_gemma4_vision_count_matches_the_verified_31b_tower() -> None:
    """rnagabh/gemma4-vision-encoder records 569,550,384 parameters (buffers included) for the 31B tower; the
    embedder into the text width (1152 × 5376) comes on top in the full model."""
    tower_and_square_embedder = vision_params(GEMMA4_31B_VISION, None)
    assert tower_and_square_embedder - 1152 * 1152 == 569_550_384
    assert vision_params(GEMMA4_31B_VISION, 5376) == 569_550_384 + 1152 * 5376
    assert spec_for("google/gemma-4-31B-it").vision_params == 569_550_384 + 1152 * 5376


def test_gemma4_e2b_e4b_towers_are_counted_as_google_states() -> None:
    """Vision ~150M and audio ~300M (Google's card); E2B 5.1 B and E4B 8 B in all."""
    e2b, e4b = spec_for("google/gemma-4-E2B-it"), spec_for("google/gemma-4-E4B-it")
    assert e2b.vision_params == 168_544_256  # 0.151 B tower + the 768 × 1536 embedder
    assert e2b.audio_params == 307_184_384  # 0.305 B tower + 1536 × 1536 embedder
    assert e4b.vision_params == 168_544_256 - 768 * 1536 + 768 * 2560
    assert e4b.audio_params == 307_184_384 - 1536 * 1536 + 1536 * 2560
    assert e2b.is_vision and e4b.is_vision
    assert e2b.total_params / 1e9 == pytest.approx(5.1, abs=0.05)
    assert e4b.total_params / 1e9 == pytest.approx(8.0, abs=0.1)


def test_audio_config_of_another_kind_or_without_depth_counts_nothing() -> None:
    assert audio_params(None) == 0
    assert audio_params({"model_type": "gemma4_audio", "hidden_size": 1024}) == 0
    assert audio_params({"model_type": "whisper", "hidden_size": 1024, "num_hidden_layers": 12}) == 0
    # gemma-4-31B-it's config.json states "audio_config": null
    assert not spec_for("google/gemma-4-31B-it").audio_params


def test_gemma4_e2b_weights_match_the_logged_start_ups_with_and_without_the_towers() -> None:
    """heldout-21: a T4 logs 'Model loading took' 9.80 GiB for google/gemma-4-E2B-it served whole (fp16);
    heldout-6: an L4 logs 8.89 GiB for google/gemma-4-E2B with --language-model-only. The difference is the
    0.89 GiB of 16-bit towers."""
    spec = spec_for("google/gemma-4-E2B-it")
    full = weights(spec).per_gpu_gib
    text_spec = with_vllm_flags(spec, language_model_only=True)
    text = weights(text_spec).per_gpu_gib
    assert full == pytest.approx(9.80, rel=0.05)
    assert text == pytest.approx(8.89, rel=0.05)
    assert full - text == pytest.approx((168_544_256 + 307_184_384) * 2 / GIB, rel=0.01)
    assert not text_spec.vision_params and not text_spec.audio_params and not text_spec.is_vision
    assert text_spec.total_params == spec.total_params - spec.vision_params - spec.audio_params


def test_quantized_gemma4_e4b_keeps_both_towers_16_bit() -> None:
    """heldout-21: an L4 logs 9.81 GiB of weights for google/gemma-4-E4B-it-qat-w4a16-ct (vLLM 0.28.0); the
    towers stay 16 bit like the embeddings, only the text layers are 4-bit."""
    spec = resolve("google/gemma-4-E4B-it-qat-w4a16-ct").spec
    assert spec.quantization and spec.audio_params and spec.vision_params
    w = weights(spec)
    assert w.per_gpu_gib == pytest.approx(9.81, rel=0.05)
    assert "vision + audio encoders (bf16)" in w.detail
    text = weights(with_vllm_flags(spec, language_model_only=True)).per_gpu_gib
    assert w.per_gpu_gib - text == pytest.approx((spec.vision_params + spec.audio_params) * 2 / GIB, rel=0.01)
