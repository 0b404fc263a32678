"""ModelSpec: the architecture facts a memory plan needs, each traceable to its source.

Every planner in ../shared/research/fit-planners.md goes wrong by flattening the architecture (one KV
formula for all layers). So the spec keeps the attention layout per kind of layer, and `sources` records
where each field came from: `gguf`, `safetensors`, `config`, `catalog` or `name` (an estimate).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any


@dataclass(kw_only=True, frozen=True)
class LinearAttention:
    """Recurrent-state layers of hybrid models (Qwen3-Next / Qwen3.5 gated delta net, Mamba-like).

    Their state is fixed per sequence and does not grow with context.
    """

    num_layers: int
    num_key_heads: int
    key_head_dim: int
    num_value_heads: int
    value_head_dim: int
    conv_kernel: int = 4
    state_dtype_bytes: int | None = None
    """Bytes per element of the recurrent state when it differs from the KV dtype (None: same)."""


@dataclass(kw_only=True, frozen=True)
class MLA:
    """Multi-head latent attention (DeepSeek-V2/V3, Kimi K2): one compressed latent per token per layer."""

    kv_lora_rank: int
    qk_rope_head_dim: int
    q_lora_rank: int | None = None
    """Rank of the low-rank query path (q_a_proj → q_b_proj); None where the query is one q_proj
    (DeepSeek-V2-Lite, Kimi-Linear)."""
    qk_nope_head_dim: int | None = None
    v_head_dim: int | None = None


@dataclass(kw_only=True)
class ModelSpec:
    # A plain dataclass: built from the catalog and from what the planner computes. A reader of untrusted
    # metadata (a user's config.json, a GGUF header) fills model.validate's pydantic twin instead, which
    # checks every assignment, so a corrupt value (a string window, a float layer count) fails where it is
    # read, as a one-line error; it hands back one of these.

    name: str
    architecture: str | None = None
    """config.json `architectures[0]` or GGUF `general.architecture`."""
    model_type: str | None = None

    num_layers: int | None = None
    hidden_size: int | None = None
    intermediate_size: int | None = None
    num_attention_heads: int | None = None
    num_kv_heads: int | None = None
    head_dim: int | None = None
    vocab_size: int | None = None
    tie_word_embeddings: bool | None = None
    max_position_embeddings: int | None = None
    rotary_dim: int | None = None
    """Width of the rotary embedding per head (head_dim × partial_rotary_factor; MLA's qk_rope_head_dim);
    None where unknown (the whole head)."""
    rope_tables: tuple[tuple[float, int], ...] | None = None
    """vLLM's rotary cos/sin tables, one per distinct rope setting of the layers: (rows as a multiple of
    max_position_embeddings, row width). A linear or dynamic-NTK rope builds max_position × factor rows;
    Gemma 3 keeps a second, unscaled table for its sliding layers, Gemma 4 one for each layer type.
    None: the one table of max_position × rotary_dim (memory.weights.rope_cache_bytes)."""

    full_attention_layers: int | None = None
    """Layers whose KV grows with the whole context (all layers for a plain dense model)."""
    sliding_window_layers: int = 0
    sliding_window: int | None = None
    linear_attention: LinearAttention | None = None
    mla: MLA | None = None
    kv_shared_layers: int = 0
    """Layers that reuse an earlier layer's KV and cache none of their own (Gemma 4 num_kv_shared_layers)."""
    full_head_dim: int | None = None
    """Head size of the full-attention layers where it differs from the sliding ones (Gemma 4)."""
    full_kv_heads: int | None = None
    """KV heads of the full-attention layers when they differ (Gemma 4 num_global_key_value_heads)."""
    full_k_eq_v: bool = False
    """Full-attention layers keep one tensor for K and V (Gemma 4 attention_k_eq_v)."""
    attention_output_gate: bool = False
    """`q_proj` also emits a per-head output gate, twice the query width (Qwen3-Next, Qwen3.5
    `attn_output_gate`): the parameter count and a 16-bit `self_attn` list both need the wider projection."""

    num_experts: int | None = None
    num_experts_per_tok: int | None = None
    num_shared_experts: int | None = None
    moe_intermediate_size: int | None = None
    dense_mlp_with_experts: bool = False
    """Every MoE layer also runs a dense MLP of `intermediate_size` beside its routed experts (Gemma 4
    `enable_moe_block`: `mlp` + `router` + `experts` in one layer). Leaving the dense MLP out put
    gemma-4-26B-A4B at 25.1 B where Google states 25.2 B without the vision tower (3.8 B active)."""

    total_params: int | None = None
    active_params: int | None = None
    """Parameters used per token (MoE); equal to total for dense models."""
    embedding_params: int | None = None
    """Input embedding (+ untied lm_head) parameters: engines keep these unquantized in many formats."""

    weights_bytes: int | None = None
    """Exact bytes of the weights when read from safetensors / GGUF headers."""
    bytes_by_dtype: dict[str, int] = field(default_factory=dict)
    torch_dtype: str | None = None
    quantization: str | None = None
    """awq, gptq, fp8, nvfp4, mxfp4, q4_k_m …, or None for bf16/fp16 weights."""
    quantization_bits: int | None = None
    """Weight bits of awq / gptq / int checkpoints (4 or 8); None when not stated."""
    unquantized_params: int | None = None
    """Linear-layer parameters a quantized checkpoint keeps 16 bit (its modules_to_not_convert / ignore list;
    embeddings and lm_head not included)."""
    fp8_params: int | None = None
    """Linear-layer parameters an NVFP4 checkpoint stores as FP8 instead (ModelOpt MIXED_PRECISION exports
    keep attention and linear-attention projections FP8, the MLP / experts NVFP4)."""
    lm_head_quantized: bool = False
    """lm_head is stored in the 4-bit format (ModelOpt mixed NVFP4 lists it with the W4 layers)."""
    quantization_group_size: int | None = None
    """Group size of awq / gptq / int scales (128 typical; -1 = per channel); sets the scale overhead."""
    mtp_layers: int = 0
    """Multi-token-prediction layers in the checkpoint (DeepSeek-V3, Qwen3.5, GLM-4.5); not in num_layers."""
    is_vision: bool = False
    vision_params: int | None = None
    """Vision-encoder parameters (arch.vision), part of total_params; 16-bit in quantized checkpoints."""
    audio_params: int | None = None
    """Audio-encoder parameters (arch.audio: Gemma 4 E2B / E4B's Conformer tower and its embedder), part of
    total_params; like the vision tower, 16-bit in quantized checkpoints and dropped by
    --language-model-only."""
    vision_config: dict[str, Any] | None = None
    """The checkpoint's `vision_config` (patch / merge sizes, output width, DeepStack levels), which sizes
    the multimodal part of vLLM's start-up profile (memory.multimodal)."""
    mm_limits: dict[str, int] | None = None
    """vLLM's `--limit-mm-per-prompt` as given (modality -> items); None: the release's default."""
    mm_max_pixels: int | None = None
    """`max_pixels` of vLLM's `--mm-processor-kwargs`: the largest image the processor makes
    (memory.multimodal); None: the checkpoint's preprocessor_config."""
    skip_mm_profiling: bool = False
    """vLLM's `--skip-mm-profiling`: the start-up profile runs no encoder and fills no encoder cache."""

    sources: dict[str, str] = field(default_factory=dict)
    """field name -> gguf | safetensors | config | catalog | name."""
    notes: list[str] = field(default_factory=list)

    def facts(self) -> dict[str, Any]:
        """Every field but name, sources and notes: what a reader marks with the source it read it from."""
        return {f.name: getattr(self, f.name) for f in fields(self) if f.name not in _NOT_FACTS}


_NOT_FACTS = ("name", "sources", "notes")


@dataclass(frozen=True)
class Records:
    """The record classes a reader builds: these plain ones for the catalog, model.validate's checked
    twins (pydantic, every assignment checked) for a user's config.json or GGUF header."""

    spec: type[ModelSpec]
    linear_attention: type[LinearAttention]
    mla: type[MLA]


PLAIN = Records(spec=ModelSpec, linear_attention=LinearAttention, mla=MLA)
