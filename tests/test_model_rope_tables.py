"""vLLM's rotary cos/sin tables, one per distinct rope setting, with a linear rope's rows scaled (issue 25).

heldout-23's blind miss: google/gemma-3-4b-it loaded 8.58 GiB on an H100 (vLLM 0.19.0) where 8.07 were
planned. vLLM's LinearScalingRotaryEmbedding precomputes max_position × factor positions (131,072 × 8 for
Gemma 3's full-attention layers) and gemma3.py builds a second, unscaled table for the sliding layers'
rope_local_base_freq;
Gemma 4 builds one per layer type, its full layers' proportional rope spanning the whole 512-wide global head.
The expectations are the tables' sizes worked out from those rules, not the planner's output.
"""

from __future__ import annotations

import pytest

from lmscreen.model.arch.config import spec_from_config
from lmscreen.model.catalog import spec_for
from lmscreen.model.memory.weights import rope_cache_bytes, weights

MIB = 1 << 20
GIB = 1 << 30


def _config(**extra: object) -> dict:
    return {
        "model_type": "llama",
        "hidden_size": 2048,
        "intermediate_size": 8192,
        "num_hidden_layers": 4,
        "num_attention_heads": 16,
        "num_key_value_heads": 8,
        "head_dim": 128,
        "vocab_size": 32000,
        "max_position_embeddings": 16384,
        **extra,
    }


def test_a_plain_rope_keeps_the_one_table() -> None:
    spec = spec_from_config(_config(), "x")
    assert spec.rope_tables is None
    assert rope_cache_bytes(spec) == 16384 * 128 * 2


def test_linear_and_dynamic_scaling_multiply_the_rows() -> None:
    """deepseek-coder-1.3b's rope_scaling {linear, factor 4}: 16,384 × 4 rows; dynamic NTK alike."""
    linear = spec_from_config(_config(rope_scaling={"rope_type": "linear", "factor": 4.0}), "x")
    assert linear.rope_tables == ((4.0, 128),)
    assert rope_cache_bytes(linear) == 16384 * 4 * 128 * 2
    dynamic = spec_from_config(_config(rope_scaling={"type": "dynamic", "factor": 2.0}), "x")
    assert rope_cache_bytes(dynamic) == 16384 * 2 * 128 * 2


def test_yarn_holds_original_positions_times_factor_and_llama3_its_positions() -> None:
    """DeepSeek-V3's yarn: 4,096 × 40 = its 163,840 positions, one plain-sized table; llama3 is unscaled."""
    yarn = _config(
        max_position_embeddings=163840,
        rope_scaling={"type": "yarn", "factor": 40, "original_max_position_embeddings": 4096},
    )
    assert spec_from_config(yarn, "x").rope_tables is None
    scaling = {"rope_type": "llama3", "factor": 8.0, "original_max_position_embeddings": 8192}
    llama3 = _config(rope_scaling=scaling)
    assert spec_from_config(llama3, "x").rope_tables is None


def test_gemma_3_keeps_a_scaled_global_and_an_unscaled_local_table() -> None:
    """google/gemma-3-4b-it: 131,072 × 8 × 256 + 131,072 × 256 elements of 2 bytes = 576 MiB (64 before)."""
    spec = spec_for("google/gemma-3-4b-it")
    assert spec.rope_tables == ((8.0, 256), (1.0, 256))
    assert rope_cache_bytes(spec) == 576 * MIB
    # gemma-3-1b-it states no rope_scaling: its local base alone adds the second table
    assert spec_for("google/gemma-3-1b-it").rope_tables == ((1.0, 256), (1.0, 256))


def test_gemma_3_4b_weights_come_to_the_logged_load() -> None:
    """4.3 B parameters at 2 bytes (8.01 GiB) and the 576 MiB of tables: 8.57 GiB, 8.58 logged
    (llm-d-planner v0.19.0, bench/data/vllm-logs-heldout-23.csv); 12b 23.31 and 27b 51.45 logged alike."""
    assert weights(spec_for("google/gemma-3-4b-it")).per_gpu_bytes / GIB == pytest.approx(8.58, rel=0.01)
    assert weights(spec_for("google/gemma-3-12b-it")).per_gpu_bytes / GIB == pytest.approx(23.31, rel=0.01)
    assert weights(spec_for("google/gemma-3-27b-it")).per_gpu_bytes / GIB == pytest.approx(51.45, rel=0.01)


def test_per_layer_type_rope_parameters_build_one_table_each() -> None:
    """Gemma 4 (transformers 5 rope_parameters keyed by layer type): the full layers' proportional rope hands
    the whole 512-wide global head to its table, the sliding layers' default rope its 256-wide head."""
    rope = {
        "full_attention": {"partial_rotary_factor": 0.25, "rope_theta": 1e6, "rope_type": "proportional"},
        "sliding_attention": {"rope_theta": 10000.0, "rope_type": "default"},
    }
    config = _config(
        model_type="gemma4_text",
        head_dim=256,
        global_head_dim=512,
        max_position_embeddings=262144,
        layer_types=["sliding_attention", "sliding_attention", "sliding_attention", "full_attention"],
        sliding_window=1024,
        rope_parameters=rope,
    )
    spec = spec_from_config(config, "x")
    assert spec.rope_tables == ((1.0, 512), (1.0, 256))
    assert rope_cache_bytes(spec) == 262144 * (512 + 256) * 2
    # a type no layer has builds no table
    only_sliding = {**config, "layer_types": ["sliding_attention"] * 4}
    assert spec_from_config(only_sliding, "x").rope_tables is None


def test_gemma_4_without_rope_parameters_takes_transformers_per_type_default() -> None:
    """Gemma4TextConfig.__post_init__ fills a sliding default rope and a full proportional one when the file
    states none (the google/gemma-4-E2B copy here): 131,072 × (256 + 512) × 2 B = 192 MiB, 64 before."""
    spec = spec_for("google/gemma-4-E2B")
    assert spec.rope_tables == ((1.0, 256), (1.0, 512))
    assert rope_cache_bytes(spec) == 192 * MIB


def test_m_rope_tables_hold_four_times_the_positions() -> None:
    """vLLM's MRotaryEmbedding (Qwen2-VL … Qwen3.5) enlarges max_position_embeddings 4 times for video
    positions: nvidia/Qwen3.6-27B-NVFP4's config states its M-RoPE, 262,144 × 4 × 64 × 2 B = 128 MiB."""
    spec = spec_for("nvidia/Qwen3.6-27B-NVFP4")
    assert spec.rope_tables == ((4.0, 64),)
    assert rope_cache_bytes(spec) == 128 * MIB
    # Qwen2.5-VL writes the legacy type "mrope", which vLLM reads as a default rope
    legacy = _config(rope_scaling={"type": "mrope", "mrope_section": [16, 24, 24]})
    assert spec_from_config(legacy, "x").rope_tables == ((4.0, 128),)


def test_qwen3_vl_30b_a3b_holds_its_published_m_rope_table() -> None:
    """The released Qwen/Qwen3-VL-30B-A3B-Instruct config.json states text_config.rope_scaling (mrope_section
    [24, 20, 20]), which aiconfigurator's copy leaves out: 262,144 × 4 × 128 × 2 B = 256 MiB of rotary table,
    not one 64 MiB table. heldout-4's 4 × RTX 3090 TP4 start-up logged 14.77 GiB of weights per GPU."""
    spec = spec_for("Qwen/Qwen3-VL-30B-A3B-Instruct")
    assert spec.rope_tables == ((4.0, 128),)
    assert rope_cache_bytes(spec) == 256 * MIB
    assert weights(spec, tp=4).per_gpu_gib == pytest.approx(14.77, rel=0.01)
