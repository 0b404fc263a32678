"""An Omni name carries the thinker's audio encoder besides its vision tower.

Qwen2.5-Omni-7B is estimated like Qwen2.5-VL-7B, whose layout holds the language model and the vision tower:
vLLM loads 16.74 GiB for it (vllm#25970, 0.10.2, bench heldout-28) where that layout gives 15.56. The 1.18 GiB
between them is its Whisper-style audio encoder (transformers' Qwen2_5OmniAudioEncoderConfig defaults: 32
layers of 1280, FFN 5120, 128 mel bins), 0.64 B in bf16.
"""

from __future__ import annotations

import pytest

from lmscreen.model.arch.audio import QWEN_OMNI_AUDIO, audio_params, whisper_audio_params
from lmscreen.model.arch.estimate import spec_from_name
from lmscreen.model.memory.weights import weights


def test_an_omni_name_gets_the_whisper_style_audio_encoder() -> None:
    omni = spec_from_name("Qwen/Qwen2.5-Omni-7B")
    vl = spec_from_name("acme/Qwen2.5-VL-7B-Instruct-remix")
    assert 0.62e9 < omni.audio_params < 0.66e9
    assert not vl.audio_params
    assert omni.total_params == pytest.approx(vl.total_params + omni.audio_params, rel=0.001)
    assert weights(omni).per_gpu_gib == pytest.approx(16.74, rel=0.02)


def test_the_whisper_count_follows_its_tensors() -> None:
    """Two convs (kernel 3, biases), per layer q/k/v/o (k without bias), fc1/fc2 with biases, two LayerNorms,
    ln_post, the projection into the text width with bias and two bos/eos rows."""
    cfg = {"model_type": "qwen2_5_omni_audio_encoder", "num_mel_bins": 4, "encoder_layers": 2}
    cfg |= {"d_model": 8, "encoder_ffn_dim": 16}
    d, ffn, mels, out = 8, 16, 4, 12
    convs = mels * d * 3 + d + d * d * 3 + d
    layer = (4 * d * d + 3 * d) + (d * ffn + ffn + ffn * d + d) + 2 * 2 * d
    expected = convs + 2 * layer + 2 * d + (d * out + out) + 2 * out
    assert whisper_audio_params(cfg, text_hidden=out) == expected
    assert audio_params(cfg, text_hidden=out) == expected
    assert audio_params({"model_type": "other", "d_model": 8}) == 0  # an unknown encoder: not guessed
    assert audio_params(QWEN_OMNI_AUDIO, 3584) == pytest.approx(0.64e9, rel=0.01)
