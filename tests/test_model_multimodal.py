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
from lmscreen.model.memory.releases import release_for

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
    assert multimodal_profile(spec, "0.13.0", 65_536, 256, 32_768, {"video": 0}).items == 4
    # with videos allowed, the 4-frame video of a 32,768-token max_model_len outnumbers the image
    assert multimodal_profile(spec, "0.13.0", 65_536, 256, 32_768).modality == "video"


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


def test_a_qwen2_vl_video_takes_every_frame_that_fits_whatever_the_limit() -> None:
    """The budget asks the processor for one item of each modality (`mm_counts` 1 in 0.11.0-0.23.0), so the
    default video limit (999) does not share the frames: at 128,000 tokens the dummy video is 14 frames,
    7 × 16,384 = 114,688 tokens ("budget of 114688 tokens, and profiled with 1 video items", heldout-29)."""
    spec = spec_for("Qwen/Qwen2.5-VL-7B-Instruct")
    mm = multimodal_profile(spec, "0.23.0", 2048, 256, 128_000)
    assert (mm.modality, mm.item_tokens, mm.budget, mm.items) == ("video", 114_688, 114_688, 1)
    assert multimodal_profile(spec, "0.23.0", 2048, 256, 128_000, {"video": 2}).item_tokens == 114_688
    # a shorter max_model_len fits fewer frames: 32,768 tokens hold 4 frames (2 token rows)
    assert multimodal_profile(spec, "0.23.0", 2048, 256, 32_768).item_tokens == 2 * 16_384


def test_the_tower_peak_is_counted_per_patch_from_the_vision_config() -> None:
    """Qwen2.5-VL's gated block (vllm 0.23.0 qwen2_5_vl.py) holds 5 tower widths and 3 MLP widths at its MLP,
    Qwen2-VL's and Qwen3-VL's plain one 3 and 2, beside the dummy pixels (model dtype)."""
    from lmscreen.model.memory.multimodal import FAMILIES, encoder_peak_bytes_per_patch

    qwen25 = spec_for("Qwen/Qwen2.5-VL-7B-Instruct")
    gated = next(f for f in FAMILIES if "qwen2_5_vl" in f.model_types)
    assert encoder_peak_bytes_per_patch(qwen25.vision_config, gated) == 2 * (1176 + 5 * 1280 + 3 * 3420)
    qwen2 = spec_for("Qwen/Qwen2-VL-7B-Instruct")
    plain = next(f for f in FAMILIES if "qwen2_vl" in f.model_types)
    # Qwen2-VL's tower width is embed_dim (its vision_config hidden_size is the language model's 3,584)
    assert encoder_peak_bytes_per_patch(qwen2.vision_config, plain) == 2 * (1176 + 3 * 1280 + 2 * 5120)
    # under TP the MLP's column-parallel output is a rank's share, the tower-wide tensors whole
    assert encoder_peak_bytes_per_patch(qwen2.vision_config, plain, tp=4) == 2 * (1176 + 3 * 1280 + 2 * 1280)
    video = multimodal_profile(qwen25, "0.23.0", 2048, 256, 128_000)
    assert video.encoder_gib == pytest.approx(114_688 * 4 * 35_672 / GIB)  # 458,752 patches, 15.24 GiB


def test_the_encoder_run_sizes_the_023_profile_and_text_only_drops_it() -> None:
    """heldout-29: Qwen2.5-VL-7B at 0.22 of an A100 80GB on vLLM 0.23.0 with vLLM's defaults (max_model_len
    128,000) logs 'Available KV cache memory: -14.28 GiB' after profiling one 14-frame video. With images
    and videos limited to 0, or --skip-mm-profiling, the encoder is not run: the pool is the text model's."""
    spec = spec_for("Qwen/Qwen2.5-VL-7B-Instruct")
    card = gpu("A100 80GB")
    args = dict(context=128_000, vllm_version="0.23.0", gpu_memory_utilization=0.22, table=False)
    full = plan(spec, card, **args)
    assert full.available_kv_gib == pytest.approx(-14.28, abs=0.3)
    text = plan(with_vllm_flags(spec, limit_mm_per_prompt={"image": 0, "video": 0}), card, **args)
    skipped = plan(with_vllm_flags(spec, skip_mm_profiling=True), card, **args)
    assert text.available_kv_gib == pytest.approx(skipped.available_kv_gib)
    assert text.available_kv_gib - full.available_kv_gib > 14.0
    # one modality at 0 keeps the other: images only profile one 16,384-token image (65,536 patches)
    images = with_vllm_flags(spec, limit_mm_per_prompt={"video": 0})
    assert full.available_kv_gib < plan(images, card, **args).available_kv_gib < text.available_kv_gib


def test_a_plan_short_of_kv_because_of_the_encoder_profile_names_the_flags() -> None:
    """The A100 start-up above: the plan says the encoder's profile is what leaves no KV, and what the
    text-only flags leave; a plan where the encoder costs little does not say so."""
    spec = spec_for("Qwen/Qwen2.5-VL-7B-Instruct")
    card = gpu("A100 80GB")
    short = plan(spec, card, context=128_000, vllm_version="0.23.0", gpu_memory_utilization=0.22, table=False)
    said = [n for n in short.notes if "vision encoder's start-up profile" in n]
    assert len(said) == 1 and "--skip-mm-profiling" in said[0] and '"video": 0' in said[0]
    roomy = plan(spec, card, context=4096, vllm_version="0.23.0", table=False)
    assert not any("vision encoder's start-up profile" in n for n in roomy.notes)


def test_the_tower_peak_is_a_peak_of_its_own_on_the_releases_that_count_it() -> None:
    """The encoder runs before the text profile: its peak competes with the text peak (max), on the first
    pipeline stage; 0.12-0.13 leave it out (releases.VllmRelease.mm_encoder_peak), 0.14 counts it."""
    spec = spec_for("Qwen/Qwen2.5-VL-7B-Instruct")
    off = with_vllm_flags(spec, skip_mm_profiling=True)
    args = dict(max_num_batched_tokens=2048, max_num_seqs=256, max_model_len=128_000)
    tower = multimodal_profile(spec, "0.14.0", 2048, 256, 128_000).encoder_gib
    for version in ("0.14.0", "0.23.0"):
        with_tower = activation_gib(spec, vllm_version=version, **args)
        assert with_tower > activation_gib(off, vllm_version=version, **args) + 10
        # the tower's peak is the profile's, not added to the text run's
        assert with_tower == pytest.approx(tower + release_for(version).activation_constant_gib)
        assert activation_gib(spec, vllm_version=version, first_stage=False, **args) < 5
    on_013 = activation_gib(spec, vllm_version="0.13.0", **args)
    assert on_013 == activation_gib(off, vllm_version="0.13.0", **args)


def test_model_fit_takes_skip_mm_profiling(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from lmscreen.cli import main

    base = ["model", "fit", "Qwen/Qwen2.5-VL-7B-Instruct", "--gpu", "A100 80GB", "--vllm-version", "0.23"]
    base += ["--context", "128000", "--json"]
    small = [*base, "--mm-processor-kwargs", '{"max_pixels": 1003520}']
    text_only = [*base, "--limit-mm-per-prompt", "image=0,video=0"]
    for args in (base, [*base, "--skip-mm-profiling"], text_only, small):
        with pytest.raises(SystemExit) as done:
            main(args)
        assert done.value.code == 0
    full, skipped, text, smaller = (json.loads(line) for line in capsys.readouterr().out.strip().splitlines())
    assert skipped["available_kv_gib"] == pytest.approx(text["available_kv_gib"])
    assert skipped["available_kv_gib"] > full["available_kv_gib"] + 14
    # 1,280-token frames: the video's profile shrinks to ~1.2 GiB
    assert full["available_kv_gib"] + 12 < smaller["available_kv_gib"] < text["available_kv_gib"]


def test_mm_processor_max_pixels_shrinks_the_dummy_items() -> None:
    """`--mm-processor-kwargs '{"max_pixels": 1003520}'` (1,280 tokens of 28 × 28 px) makes Qwen2.5-VL's
    dummy frames that size (qwen2_vl.py 0.23.0 get_image_size_with_most_features), so the 14-frame video
    is 7 × 1,280 tokens; a Qwen3-VL video's total is capped by it below its own 25,165,824 px."""
    spec = with_vllm_flags(spec_for("Qwen/Qwen2.5-VL-7B-Instruct"), mm_max_pixels=1_003_520)
    mm = multimodal_profile(spec, "0.23.0", 2048, 256, 128_000)
    assert (mm.modality, mm.item_tokens, mm.budget) == ("video", 7 * 1280, 8960)
    assert mm.encoder_gib == pytest.approx(7 * 1280 * 4 * 35_672 / GIB)
    qwen3 = with_vllm_flags(spec_for("Qwen/Qwen3-VL-30B-A3B-Instruct"), mm_max_pixels=1_048_576)
    small = multimodal_profile(qwen3, "0.13.0", 8192, 1024, 8192)
    assert (small.modality, small.item_tokens) == ("image", 1024)
    assert multimodal_profile(qwen3, "0.13.0", 8192, 1024, 8192, {"image": 0}).encoded_tokens == 512


def test_parse_max_pixels_forms() -> None:
    from lmscreen.model.memory.multimodal import parse_max_pixels

    assert parse_max_pixels(None) is None
    assert parse_max_pixels('{"max_pixels": 1003520, "min_pixels": 3136}') == 1_003_520
    assert parse_max_pixels('{"size": {"longest_edge": 802816}}') == 802_816
    assert parse_max_pixels('{"fps": 2}') is None
    with pytest.raises(InputError):
        parse_max_pixels("max_pixels=5")


def test_a_tower_borrowed_from_another_family_has_no_known_processor() -> None:
    """A name estimate takes its vision tower from a sibling; where the name is not of the sibling's family
    (Qwen2.5-Omni-7B, served by vLLM's qwen2_5_omni_thinker.py with the Omni processor) the sibling's
    processor limits do not size its profile, while a VL name estimated from a VL sibling keeps them."""
    from lmscreen.model.resolve import resolve

    omni = resolve("Qwen/Qwen2.5-Omni-7B").spec
    assert omni.model_type == "qwen2_5_vl" and omni.sources["model_type"].startswith("estimate")
    assert multimodal_profile(omni, "0.23.0", 2048, 256, 32_768) is None
    thinking = resolve("Qwen/Qwen3-VL-30B-A3B-Thinking-FP8").spec
    assert thinking.sources["model_type"].startswith("estimate")
    assert multimodal_profile(thinking, "0.14.0", 2048, 256, 262_144) is not None
