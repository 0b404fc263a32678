"""KV-cache cost of one model on one GPU: what grows per token, and what is fixed per sequence.

Every planner surveyed in research/fit-planners.md gets this wrong in the same way: one formula
(2 × layers × kv_heads × head_dim × bytes) for every layer. Real models mix layer kinds, so the cost is
split here by kind:

- full attention (GQA/MHA): `2 × kv_heads_per_rank × head_dim × bytes` per token per layer; KV heads are
  split across TP ranks and replicated when TP > kv heads (vLLM: `max(1, kv_heads // tp)`);
- MLA (DeepSeek-V2/V3/R1, Kimi K2): one latent of `kv_lora_rank + qk_rope_head_dim` per token per layer,
  coefficient 1 (no separate K and V), replicated on every TP rank (DeepSeek-V3: 61 × 576 × 2 B = 68.6 KiB);
- sliding window (Gemma 2/3, gpt-oss, Mistral v0.1): the same per-token bytes, but a sequence never holds
  more than the window, so it is a fixed cost per sequence once the context exceeds the window;
- hybrid linear attention (Qwen3-Next, Qwen3.5/3.6 gated delta net, Mamba2): a recurrent state per layer per
  sequence that does not grow with context: SSM `v_heads × k_dim × v_dim` plus the convolution state
  `(conv_kernel − 1) × (2·k_heads·k_dim + v_heads·v_dim)`. vLLM keeps the SSM state in fp32 and the conv state
  in the model dtype (bf16); llama.cpp keeps both in f32 (fit-planners.md 2.6, 3; checked against the
  Qwen3.6-27B llama.cpp log: 149.6 MiB per sequence).

All byte counts are per GPU: divided across TP ranks as the engines do and, under pipeline parallelism,
for the stage holding the most layers.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from lmscreen.errors import InputError
from lmscreen.model.spec import ModelSpec

# Bytes per element of the KV cache, by the names the engines use (vLLM --kv-cache-dtype, SGLang
# --kv-cache-dtype, llama.cpp -ctk/-ctv, Ollama OLLAMA_KV_CACHE_TYPE). "auto" means the model dtype.
# GGML block types: bytes per block / values per block (q8_0 34/32, q4_0 18/32 …, fit-planners.md 2.1).
KV_DTYPE_BYTES: dict[str, float] = {
    "auto": 2.0,
    "bf16": 2.0,
    "bfloat16": 2.0,
    "f16": 2.0,
    "fp16": 2.0,
    "float16": 2.0,
    "f32": 4.0,
    "fp8": 1.0,
    "fp8_e4m3": 1.0,
    "fp8_e5m2": 1.0,
    "fp8_inc": 1.0,
    "fp8_ds_mla": 1.0,
    "fp8_per_token_head": 1.0,
    "mxfp8": 1.0,
    "int8_per_token_head": 1.01,
    "int4_per_token_head": 0.51,
    "nvfp4": 0.5625,
    "fp4_mx_block16": 0.5625,
    "q8_0": 34 / 32,
    "q4_0": 18 / 32,
    "q4_1": 20 / 32,
    "q5_0": 22 / 32,
    "q5_1": 24 / 32,
    "iq4_nl": 18 / 32,
}

VLLM_SSM_STATE_BYTES = 4
"""vLLM keeps the gated-delta-net / Mamba SSM state in fp32 (validated on three Qwen3.6/3.8 logs)."""
VLLM_CONV_STATE_BYTES = 2
"""vLLM's convolution state is kept in the model dtype (bf16)."""
LLAMACPP_STATE_BYTES = 4
"""llama.cpp keeps recurrent (r and s) state in f32."""


def kv_dtype_bytes(kv_cache_dtype: str) -> float:
    """Bytes per cached element for a KV dtype name; unknown names are an input error, not a guess."""
    key = (kv_cache_dtype or "auto").strip().lower()
    if key not in KV_DTYPE_BYTES:
        raise InputError(
            f"unknown --kv-cache-dtype {kv_cache_dtype!r}; known: {', '.join(sorted(KV_DTYPE_BYTES))}"
        )
    return KV_DTYPE_BYTES[key]


def vllm_auto_kv_dtype(spec: ModelSpec, kv_cache_dtype: str) -> str:
    """The element type vLLM's `--kv-cache-dtype auto` resolves to for `spec`: the model dtype.

    vLLM's CacheConfig maps "auto" to model_config.dtype (vllm/utils/torch_utils.py
    STR_DTYPE_TO_TORCH_DTYPE / kv_cache_dtype_str_to_dtype), so a checkpoint served with `--dtype float32`
    caches 4 bytes per element: Llama-3.1-8B at float32 on an H100 logs 175,296 tokens in 42.8 GiB, 256 KiB
    a token (llm-d-planner v0.19.0 logs, meta-llama-llama-3--h100-80gb--tp1pp1dp1--8192-dtf32.log). Every
    other weight format keeps a 16-bit activation dtype, so "auto" stays 2 bytes.
    """
    from lmscreen.model.memory.weights import normalize_quantization

    key = (kv_cache_dtype or "auto").strip().lower()
    if key == "auto" and normalize_quantization(spec.quantization) == "fp32":
        return "f32"
    return key


@dataclass(frozen=True)
class KVLayout:
    """KV cost of one model on one GPU (one TP rank of the most loaded PP stage).

    `layer_token_bytes` is the unit vLLM pages are made of (bytes per token of one attention layer);
    the other fields say how many layers of each kind this GPU holds.
    """

    kind: str
    """gqa | mha | mla | none."""
    layer_token_bytes: float
    """Bytes per token of one attention layer on this GPU (K+V, or the MLA latent)."""
    full_layers: int
    """Attention layers on this GPU whose cache grows with the whole context."""
    swa_layers: int
    sliding_window: int | None
    linear_layers: int
    state_bytes_per_layer: int
    """Recurrent state (SSM + conv) of one linear-attention layer for one sequence on this GPU."""
    kv_heads_per_rank: int | None
    replicated: bool
    """True when TP > KV heads (or MLA): every rank stores the same cache."""
    full_layer_token_bytes: float | None = None
    """Bytes per token of one full-attention layer when it differs from `layer_token_bytes` (Gemma 4 global
    layers: 512-wide heads, K = V)."""

    @property
    def full_token_bytes(self) -> float:
        return self.full_layer_token_bytes or self.layer_token_bytes

    @property
    def bytes_per_token(self) -> float:
        """Bytes that every token of context adds, for the layers that grow with context."""
        return self.full_layers * self.full_token_bytes

    @property
    def swa_bytes_per_token(self) -> float:
        """Bytes per token of the sliding-window layers (until the window is full)."""
        return self.swa_layers * self.layer_token_bytes

    @property
    def state_bytes_per_seq(self) -> int:
        """Recurrent state every sequence holds, whatever its length."""
        return self.linear_layers * self.state_bytes_per_layer

    def swa_bytes_per_seq(self, context: int) -> float:
        """Sliding-window cache one sequence of `context` tokens holds (capped at the window)."""
        if not self.swa_layers:
            return 0.0
        return self.swa_bytes_per_token * min(context, self.sliding_window or context)

    def bytes_per_seq(self, context: int) -> float:
        """Everything one sequence of `context` tokens holds on this GPU (no paging or padding)."""
        return self.bytes_per_token * context + self.swa_bytes_per_seq(context) + self.state_bytes_per_seq


def head_dim(spec: ModelSpec) -> int:
    """Head size: `head_dim` when the config has it (Qwen3: 128 ≠ hidden/heads), else hidden/heads."""
    if spec.head_dim:
        return spec.head_dim
    if spec.hidden_size and spec.num_attention_heads:
        return spec.hidden_size // spec.num_attention_heads
    raise InputError(f"{spec.name}: head_dim unknown (need head_dim or hidden_size and num_attention_heads)")


def layer_counts(spec: ModelSpec) -> tuple[int, int, int]:
    """(full-attention, sliding-window, linear-attention) layer counts of the whole model."""
    linear = spec.linear_attention.num_layers if spec.linear_attention else 0
    swa = spec.sliding_window_layers if spec.sliding_window else 0
    if spec.full_attention_layers is not None:
        full = spec.full_attention_layers
    elif spec.num_layers is not None:
        full = spec.num_layers - swa - linear
    else:
        raise InputError(f"{spec.name}: number of layers unknown")
    if full < 0:
        raise InputError(
            f"{spec.name}: layer counts do not add up (full {full}, sliding {swa}, linear {linear})"
        )
    return full, swa, linear


def _stage_layers(count: int, pp: int, share: float | None = None) -> int:
    """Layers of one kind on a pipeline stage: the most loaded of `pp` stages, or the stage holding `share`
    of the model's layers (kinds interleave through the model, so a stage holds them in proportion)."""
    if not count:
        return 0
    return math.ceil(count * share - 1e-9) if share is not None else math.ceil(count / pp)


def recurrent_state_bytes_per_layer(spec: ModelSpec, tp: int = 1, engine: str = "vllm") -> int:
    """State one linear-attention layer keeps for one sequence on one TP rank.

    SSM: `v_heads × k_dim × v_dim`; conv: `(kernel − 1) × (2·k_heads·k_dim + v_heads·v_dim)`, both split
    across TP ranks. vLLM: SSM fp32, conv bf16; llama.cpp/Ollama: both f32. A spec may pin the SSM dtype.
    """
    la = spec.linear_attention
    if la is None:
        return 0
    if engine in ("llamacpp", "ollama"):
        ssm_bytes, conv_bytes = LLAMACPP_STATE_BYTES, LLAMACPP_STATE_BYTES
    else:
        ssm_bytes, conv_bytes = VLLM_SSM_STATE_BYTES, VLLM_CONV_STATE_BYTES
    if la.state_dtype_bytes:
        ssm_bytes = la.state_dtype_bytes
    ssm = la.num_value_heads * la.key_head_dim * la.value_head_dim * ssm_bytes
    conv_channels = 2 * la.num_key_heads * la.key_head_dim + la.num_value_heads * la.value_head_dim
    conv = (la.conv_kernel - 1) * conv_channels * conv_bytes
    return (ssm + conv) // tp if tp > 1 else ssm + conv


def kv_layout(
    spec: ModelSpec,
    kv_cache_dtype: str = "auto",
    tp: int = 1,
    pp: int = 1,
    engine: str = "vllm",
    stage: int | None = None,
    draft_layers: int = 0,
) -> KVLayout:
    """The KV layout of `spec` on one GPU of a `tp` × `pp` deployment (pipeline `stage`, else the busiest).

    `draft_layers`: attention layers of a drafter that shares the pool (vLLM's MTP draft, whose layers are
    the target's kind: a Qwen3.5 / Qwen3-Next MTP layer is one full-attention layer, a DeepSeek one MLA);
    they join this GPU's full-attention layers, so a Qwen3.6-27B with its MTP layer caches 17 attention layers
    beside 48 gated-delta ones ("Add 3 padding layers" in its start-up log: 3 groups of 17).
    """
    if tp < 1 or pp < 1:
        raise InputError(f"tensor/pipeline parallel sizes must be >= 1 (got tp={tp}, pp={pp})")
    bytes_el = kv_dtype_bytes(kv_cache_dtype)
    full, swa, linear = layer_counts(spec)
    share = None
    if stage is not None and pp > 1 and spec.num_layers:
        from lmscreen.model.memory.weights import pp_partition

        share = pp_partition(spec.num_layers, pp)[stage] / spec.num_layers

    def _per_stage(count: int, pp: int) -> int:
        return _stage_layers(count, pp, share)

    full_layers = _per_stage(full, pp) + draft_layers
    state = recurrent_state_bytes_per_layer(spec, tp, engine)
    if spec.mla is not None:
        latent = spec.mla.kv_lora_rank + spec.mla.qk_rope_head_dim
        return KVLayout(
            kind="mla",
            layer_token_bytes=latent * bytes_el,
            full_layers=full_layers,
            swa_layers=_per_stage(swa, pp),
            sliding_window=spec.sliding_window,
            linear_layers=_per_stage(linear, pp),
            state_bytes_per_layer=state,
            kv_heads_per_rank=None,
            replicated=tp > 1,
        )
    if full + swa == 0:
        return KVLayout(
            kind="none",
            layer_token_bytes=0.0,
            full_layers=0,
            swa_layers=0,
            sliding_window=None,
            linear_layers=_per_stage(linear, pp),
            state_bytes_per_layer=state,
            kv_heads_per_rank=None,
            replicated=False,
        )
    kv_heads = spec.num_kv_heads or spec.num_attention_heads
    if not kv_heads:
        raise InputError(f"{spec.name}: number of KV heads unknown")
    # vLLM shards KV heads when TP divides them and replicates each head on tp // kv_heads ranks otherwise.
    per_rank = max(1, math.ceil(kv_heads / tp))
    kind = "mha" if spec.num_attention_heads and kv_heads == spec.num_attention_heads else "gqa"
    full_bytes = None
    if spec.full_head_dim or spec.full_kv_heads or spec.full_k_eq_v:
        full_rank = max(1, math.ceil((spec.full_kv_heads or kv_heads) / tp))
        tensors = 1 if spec.full_k_eq_v else 2
        full_bytes = tensors * full_rank * (spec.full_head_dim or head_dim(spec)) * bytes_el
    return KVLayout(
        kind=kind,
        full_layer_token_bytes=full_bytes,
        layer_token_bytes=2 * per_rank * head_dim(spec) * bytes_el,
        full_layers=full_layers,
        swa_layers=_per_stage(swa, pp),
        sliding_window=spec.sliding_window,
        linear_layers=_per_stage(linear, pp),
        state_bytes_per_layer=state,
        kv_heads_per_rank=per_rank,
        replicated=tp > kv_heads,
    )


def kv_bytes_per_token(spec: ModelSpec, kv_cache_dtype: str = "auto", tp: int = 1, pp: int = 1) -> int:
    """Bytes each token of context adds on one GPU (full-attention / MLA layers only)."""
    return round(kv_layout(spec, kv_cache_dtype, tp, pp).bytes_per_token)


def state_bytes_per_seq(spec: ModelSpec, tp: int = 1, pp: int = 1, engine: str = "vllm") -> int:
    """Recurrent state each sequence holds on one GPU, whatever its length (hybrid models; 0 otherwise)."""
    return kv_layout(spec, "auto", tp, pp, engine).state_bytes_per_seq
