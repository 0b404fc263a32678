"""The multimodal part of vLLM's start-up profile (memory.multimodal): which dummy item the encoder runs
on and what its outputs keep through the text profile, per release, and the flags that drop it."""

from __future__ import annotations

import pytest

from lmscreen.errors import InputError
from lmscreen.model.catalog import spec_for
from lmscreen.model.hardware import gpu
from lmscreen.model.memory import plan
from lmscreen.model.memory.flags import with_vllm_flags
from lmscreen.model.memory.multimodal import multimodal_profile, parse_limits
from lmscreen.model.memory.overhead import activation_gib

GIB = 1 << 30


def test_qwen3_vl_profiles_a_formatted_video_on_011_and_an_image_on_013() -> None:
    spec = spec_for("Qwen/Qwen3-VL-30B-A3B-Instruct")
    assert spec.vision_config and spec.vision_config["out_hidden_size"] == 2048
    # 0.11.0: the video counts 12.5 tokens per visual token, 153,600 (the 4×RTX 3090 log's budget)
    old = multimodal_profile(spec, "0.11.0", 2048, 256, 65536)
    assert old is not None
    assert (old.modality, old.budget, old.items, old.encoded_tokens) == ("video", 153_600, 1, 12_288)
    # what 0.11.0's profile keeps: the 12,288-row output padded to the 153,600-token budget
    # (`new_zeros((encoder_budget, width))`) plus the unpadded output the loop variable still holds,
    # rows × 2,048 × (1 + 3 DeepStack levels) × 2 B
    assert old.padded_tokens == 153_600
    assert old.held_gib == pytest.approx((153_600 + 12_288) * 2048 * 4 * 2 / GIB)
    assert multimodal_profile(spec, "0.12.0", 2048, 256, 65536).modality == "video"
    # 0.13.0: no formatting factor, the 16,384-token image is the largest item (the H100 NVL log)
    new = multimodal_profile(spec, "0.13.0", 8192, 1024, 8192)
    assert (new.modality, new.budget, new.items, new.item_tokens) == ("image", 16_384, 1, 16_384)
    assert new.held_gib == pytest.approx(16_384 * 2048 * 4 * 2 / GIB)


def test_qwen2_vl_image_of_the_processor_max_and_its_video_frames() -> None:
    spec = spec_for("Qwen/Qwen2-VL-7B-Instruct")
    mm = multimodal_profile(spec, "0.13.0", 2048, 256, 4096, parse_limits("image:1"))
    assert (mm.modality, mm.item_tokens, mm.items) == ("image", 16_384, 1)
    assert mm.held_gib == pytest.approx(16_384 * 3584 * 2 / GIB)  # no DeepStack: the LM width
    # one video a prompt at a long context: up to 14 frames, two a token row -> 7 × 16,384
    video = multimodal_profile(spec, "0.13.0", 2048, 256, 262_144, {"image": 0, "video": 1})
    assert (video.modality, video.item_tokens) == ("video", 7 * 16_384)
    # a larger batch budget profiles more images (budget // item tokens)
    assert multimodal_profile(spec, "0.13.0", 65_536, 256, 32_768).items == 4


def test_limit_zero_and_language_model_only_drop_the_profile() -> None:
    spec = spec_for("Qwen/Qwen3-VL-30B-A3B-Instruct")
    no_video = multimodal_profile(spec, "0.11.0", 2048, 256, 65536, parse_limits("video=0"))
    assert no_video.modality == "image" and no_video.budget == 16_384
    assert (
        multimodal_profile(spec, "0.11.0", 2048, 256, 65536, parse_limits('{"image": 0, "video": 0}')) is None
    )
    text = with_vllm_flags(spec, language_model_only=True)
    assert multimodal_profile(text, "0.11.0", 2048, 256, 65536) is None
    with_limits = with_vllm_flags(spec, limit_mm_per_prompt={"image": 0, "video": 0})
    args = dict(
        tp=4, max_num_batched_tokens=2048, vllm_version="0.11.0", max_num_seqs=256, max_model_len=65536
    )
    held = activation_gib(spec, **args) - activation_gib(with_limits, **args)
    assert held == pytest.approx((153_600 + 12_288) * 2048 * 4 * 2 / GIB, abs=1e-6)
    # the term is counted on the first pipeline stage only, and not on releases that do not carry it
    assert activation_gib(spec, **{**args, "first_stage": False}) == activation_gib(with_limits, **args)
    later = {**args, "vllm_version": "0.13.0"}
    assert activation_gib(spec, **later) == activation_gib(with_limits, **later)


def test_the_held_outputs_shrink_the_011_pool() -> None:
    spec = spec_for("Qwen/Qwen3-VL-30B-A3B-Instruct")
    card = gpu("RTX 3090")
    args = dict(gpus=4, tp=4, context=65536, vllm_version="0.11.0", table=False)
    full = plan(spec, card, **args)
    off = plan(with_vllm_flags(spec, limit_mm_per_prompt={"image": 0, "video": 0}), card, **args)
    # 2.53 GiB: the 4×RTX 3090 log (sipeed, 0.11.0) keeps 2.31 GiB of KV where 5.04 was planned without it
    assert off.available_kv_gib - full.available_kv_gib == pytest.approx(2.53, abs=0.005)


def test_the_cached_outputs_are_padded_by_release() -> None:
    """0.10.2 caches the dummy outputs as they are, 0.11.0 pads each to the encoder budget, 0.12.0 to the
    modality's tokens per item, 0.13.0 caches them as they are again (gpu_model_runner.py profile_run)."""
    spec = spec_for("Qwen/Qwen3-VL-30B-A3B-Instruct")
    row = 2048 * 4 * 2 / GIB
    assert multimodal_profile(spec, "0.10.2", 2048, 256, 65536).padded_tokens == 0
    assert multimodal_profile(spec, "0.10.2", 2048, 256, 65536).held_gib == pytest.approx(12_288 * row)
    v12 = multimodal_profile(spec, "0.12.0", 2048, 256, 65536)
    assert v12.padded_tokens == v12.item_tokens == 153_600
    # an image is its own item size: nothing to pad on 0.12; on 0.11 a budget above it pads
    image = parse_limits("video=0")
    assert multimodal_profile(spec, "0.12.0", 32_768, 256, 65536, image).padded_tokens == 0
    big = multimodal_profile(spec, "0.11.0", 32_768, 256, 65536, image)
    assert (big.items, big.padded_tokens) == (2, 32_768)
    assert big.held_gib == pytest.approx(2 * (32_768 + 16_384) * row)
    assert multimodal_profile(spec, "0.13.0", 2048, 256, 65536).padded_tokens == 0


def test_parse_limits_forms() -> None:
    assert parse_limits(None) is None
    assert parse_limits("image=2,video=0") == {"image": 2, "video": 0}
    assert parse_limits('{"image": {"count": 1}, "video": 0}') == {"image": 1, "video": 0}
    with pytest.raises(InputError):
        parse_limits("nonsense")
