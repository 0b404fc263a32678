"""Planning a model in a format other than its checkpoint's own drops what that checkpoint said of its format.

A catalog spec read from a quantized release's config.json carries the release's bit width, group size,
16-bit layer list and header bytes. Planned in another format (a logged format, a recommender variant), those
describe a different file: an FP8 config's 8 bits sized a W4A16 checkpoint at 8 bits a weight (heldout-28).
"""

from __future__ import annotations

from dataclasses import replace

from lmscreen.model.memory.weights import reformatted, weights
from lmscreen.model.spec import ModelSpec

GIB = 1 << 30


def fp8_release() -> ModelSpec:
    """A 7.6 B dense model as an FP8 release's config states it: 8-bit, a 16-bit layer list, header bytes."""
    return ModelSpec(
        name="org/Dense-7B-FP8",
        num_layers=28,
        hidden_size=3584,
        intermediate_size=18944,
        num_attention_heads=28,
        num_kv_heads=4,
        vocab_size=152064,
        tie_word_embeddings=False,
        max_position_embeddings=32768,
        total_params=7_620_000_000,
        quantization="fp8",
        quantization_bits=8,
        unquantized_params=300_000_000,
        weights_bytes=8_900_000_000,
        sources={"quantization": "config"},
    )


def test_another_format_drops_the_checkpoints_own_format_facts() -> None:
    spec = reformatted(fp8_release(), "gptq")
    assert spec.quantization == "gptq"
    assert spec.quantization_bits is None and spec.quantization_group_size is None
    assert spec.unquantized_params is None and spec.weights_bytes is None
    assert spec.sources["quantization"] == "applied"


def test_an_fp8_config_planned_as_int4_is_sized_at_4_bits() -> None:
    int4 = weights(reformatted(fp8_release(), "gptq")).per_gpu_gib
    fp8 = weights(fp8_release()).per_gpu_gib
    four = replace(
        fp8_release(), quantization="gptq", quantization_bits=4, unquantized_params=None, weights_bytes=None
    )
    stated = weights(four)
    assert abs(int4 - stated.per_gpu_gib) < 0.01
    assert int4 < 0.65 * fp8


def test_the_override_argument_sizes_the_same_as_the_reformatted_spec() -> None:
    by_argument = weights(fp8_release(), quantization="gptq").per_gpu_bytes
    assert by_argument == weights(reformatted(fp8_release(), "gptq")).per_gpu_bytes


def test_the_same_format_and_bf16_keep_or_clear_as_they_should() -> None:
    spec = fp8_release()
    assert reformatted(spec, "fp8") is spec
    assert reformatted(spec, "bf16").quantization is None
    assert weights(reformatted(spec, "bf16")).per_gpu_gib > 14.0
