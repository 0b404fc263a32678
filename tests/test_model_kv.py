"""KV bytes per token and recurrent state: the fact table of research/fit-planners.md section 4.

Specs are built from the config values in that table (not from the catalog), so these tests pin the formulas.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from lmscreen.errors import InputError
from lmscreen.model.memory.kv import (
    kv_bytes_per_token,
    kv_dtype_bytes,
    kv_layout,
    recurrent_state_bytes_per_layer,
)
from lmscreen.model.spec import MLA, LinearAttention, ModelSpec

KIB = 1024
MIB = 1 << 20


def dense(
    name: str,
    layers: int,
    heads: int,
    kv_heads: int,
    head_dim: int | None = None,
    hidden: int | None = None,
    **extra: object,
) -> ModelSpec:
    return ModelSpec(
        name=name,
        num_layers=layers,
        num_attention_heads=heads,
        num_kv_heads=kv_heads,
        head_dim=head_dim,
        hidden_size=hidden,
        **extra,
    )


def qwen35_35b() -> ModelSpec:
    return ModelSpec(
        name="Qwen/Qwen3.5-35B-A3B",
        num_layers=40,
        hidden_size=2048,
        num_attention_heads=16,
        num_kv_heads=2,
        head_dim=256,
        full_attention_layers=10,
        linear_attention=LinearAttention(
            num_layers=30,
            num_key_heads=16,
            key_head_dim=128,
            num_value_heads=32,
            value_head_dim=128,
            conv_kernel=4,
        ),
        num_experts=256,
        num_experts_per_tok=8,
        moe_intermediate_size=512,
    )


def qwen36_27b() -> ModelSpec:
    return ModelSpec(
        name="Qwen/Qwen3.6-27B",
        num_layers=64,
        hidden_size=5120,
        num_attention_heads=24,
        num_kv_heads=4,
        head_dim=256,
        full_attention_layers=16,
        linear_attention=LinearAttention(
            num_layers=48,
            num_key_heads=16,
            key_head_dim=128,
            num_value_heads=48,
            value_head_dim=128,
            conv_kernel=4,
        ),
    )


def deepseek_v3() -> ModelSpec:
    return ModelSpec(
        name="deepseek-ai/DeepSeek-V3",
        num_layers=61,
        hidden_size=7168,
        num_attention_heads=128,
        num_kv_heads=128,
        head_dim=128,
        mla=MLA(kv_lora_rank=512, qk_rope_head_dim=64),
    )


def test_hybrid_counts_only_full_attention_layers() -> None:
    spec = qwen35_35b()
    assert kv_bytes_per_token(spec) == 20 * KIB  # 10 layers × 2 × 2 heads × 256 × 2 B
    naive = spec.num_layers * 2 * 2 * 256 * 2
    assert naive == 80 * KIB and kv_bytes_per_token(spec) != naive
    assert kv_bytes_per_token(qwen36_27b()) == 64 * KIB  # 256 KiB if all 64 layers were counted


def test_qwen3_next_and_fp8_halves() -> None:
    spec = ModelSpec(
        name="Qwen/Qwen3-Next-80B-A3B-Instruct",
        num_layers=48,
        hidden_size=2048,
        num_attention_heads=16,
        num_kv_heads=2,
        head_dim=256,
        full_attention_layers=12,
        linear_attention=LinearAttention(
            num_layers=36, num_key_heads=16, key_head_dim=128, num_value_heads=32, value_head_dim=128
        ),
    )
    assert kv_bytes_per_token(spec) == 24 * KIB
    assert kv_bytes_per_token(spec, "fp8") == 12 * KIB


def test_mla_latent_is_replicated_under_tp() -> None:
    spec = deepseek_v3()
    per_token = kv_bytes_per_token(spec)
    assert per_token == 61 * 576 * 2 == 70_272
    assert round(per_token / KIB, 1) == 68.6
    layout = kv_layout(spec, tp=8)
    assert layout.kind == "mla" and layout.replicated
    assert kv_bytes_per_token(spec, tp=8) == per_token  # the latent is not split across ranks
    naive_mha = 61 * 2 * 128 * (128 + 64) * 2
    assert per_token < naive_mha / 70


@pytest.mark.parametrize(
    ("spec", "kib"),
    [
        (dense("Qwen/Qwen2.5-7B-Instruct", 28, 28, 4, hidden=3584), 56),
        (dense("Qwen/Qwen3-8B", 36, 32, 8, 128, hidden=4096), 144),
        (dense("Qwen/Qwen3-32B", 64, 64, 8, 128, hidden=5120), 256),
        (dense("meta-llama/Llama-3.1-8B-Instruct", 32, 32, 8, 128), 128),
        (dense("meta-llama/Llama-3.1-70B-Instruct", 80, 64, 8, 128), 320),
        (dense("mistralai/Mistral-7B-Instruct-v0.3", 32, 32, 8, 128), 128),
        (dense("THUDM/glm-4-9b-chat", 40, 32, 2, 128), 40),
        (dense("Qwen/Qwen3-30B-A3B", 48, 32, 4, 128, hidden=2048, num_experts=128), 96),
        (dense("Qwen/Qwen3-235B-A22B", 94, 64, 4, 128), 188),
    ],
)
def test_gqa_fact_table(spec: ModelSpec, kib: int) -> None:
    assert kv_bytes_per_token(spec) == kib * KIB


def test_head_dim_falls_back_to_hidden_over_heads_only_without_head_dim() -> None:
    # Qwen3-30B-A3B: hidden/heads = 64, the real head_dim is 128.
    spec = dense("Qwen/Qwen3-30B-A3B", 48, 32, 4, 128, hidden=2048)
    assert kv_bytes_per_token(spec) == 2 * kv_bytes_per_token(replace(spec, **{"head_dim": None}))


def test_tp_splits_kv_heads_and_replicates_beyond_them() -> None:
    spec = dense("Qwen/Qwen3-235B-A22B", 94, 64, 4, 128)
    assert kv_bytes_per_token(spec, tp=4) == 47 * KIB
    qwen25 = dense("Qwen/Qwen2.5-7B-Instruct", 28, 28, 4, hidden=3584)
    assert kv_bytes_per_token(qwen25, tp=2) == 28 * KIB
    layout = kv_layout(qwen25, tp=8)  # 4 KV heads on 8 ranks: one head per rank, replicated
    assert layout.kv_heads_per_rank == 1 and layout.replicated
    assert kv_bytes_per_token(qwen25, tp=8) == 14 * KIB


def test_pipeline_parallel_counts_the_most_loaded_stage() -> None:
    spec = dense("Qwen/Qwen3-Coder-30B-A3B-Instruct", 48, 32, 4, 128)
    assert kv_bytes_per_token(spec) == 98_304  # vLLM's "24.0 GiB for 262144 tokens" (vllm#34076)
    assert kv_bytes_per_token(spec, pp=3) == 98_304 // 3


def test_sliding_window_is_fixed_per_sequence() -> None:
    gemma = dense(
        "google/gemma-3-27b-it",
        62,
        32,
        16,
        128,
        full_attention_layers=10,
        sliding_window_layers=52,
        sliding_window=1024,
    )
    layout = kv_layout(gemma)
    assert layout.bytes_per_token == 80 * KIB  # naive all-layer math: 496 KiB
    assert layout.swa_bytes_per_seq(131072) == 416 * MIB
    assert layout.swa_bytes_per_seq(512) == 52 * 512 * 8 * KIB
    oss20 = dense(
        "openai/gpt-oss-20b",
        24,
        64,
        8,
        64,
        full_attention_layers=12,
        sliding_window_layers=12,
        sliding_window=128,
    )
    oss120 = replace(oss20, **{"num_layers": 36, "full_attention_layers": 18, "sliding_window_layers": 18})
    assert kv_bytes_per_token(oss20) == 24 * KIB
    assert kv_bytes_per_token(oss120) == 36 * KIB


def test_recurrent_state_per_sequence_matches_llamacpp_log() -> None:
    # llama.cpp: "llama_memory_recurrent: size = 598.50 MiB (4 cells, 64 layers, 4 seqs)" for Qwen3.6-27B.
    layout = kv_layout(qwen36_27b(), "f16", engine="llamacpp")
    assert layout.state_bytes_per_seq * 4 == 598.5 * MIB
    assert layout.bytes_per_seq(0) == layout.state_bytes_per_seq  # does not grow with context
    assert layout.bytes_per_seq(1000) - layout.bytes_per_seq(0) == 1000 * 64 * KIB


def test_recurrent_state_in_vllm_is_fp32_ssm_plus_bf16_conv() -> None:
    spec = qwen35_35b()
    ssm = 32 * 128 * 128 * 4
    conv = 3 * (2 * 16 * 128 + 32 * 128) * 2
    assert recurrent_state_bytes_per_layer(spec) == ssm + conv == 2_146_304
    assert recurrent_state_bytes_per_layer(spec, tp=2) == (ssm + conv) // 2
    assert kv_layout(spec).state_bytes_per_seq == 30 * (ssm + conv)


def test_kv_dtype_bytes_and_unknown_names() -> None:
    assert kv_dtype_bytes("auto") == 2 and kv_dtype_bytes("fp8_e4m3") == 1
    assert kv_dtype_bytes("q8_0") == 34 / 32 and kv_dtype_bytes("q4_0") == 18 / 32
    with pytest.raises(InputError, match="kv-cache-dtype"):
        kv_dtype_bytes("int3")


def test_missing_facts_are_input_errors() -> None:
    with pytest.raises(InputError, match="layers"):
        kv_bytes_per_token(ModelSpec(name="x", num_attention_heads=8, num_kv_heads=8, head_dim=64))
    with pytest.raises(InputError, match="head_dim"):
        kv_bytes_per_token(ModelSpec(name="x", num_layers=2, num_kv_heads=8))
