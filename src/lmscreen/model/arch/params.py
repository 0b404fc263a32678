"""Parameter counts from the architecture alone (when no weights header is at hand).

The totals follow the tensors the checkpoints really hold (q/k/v/o with biases where the family has them,
SwiGLU/GeGLU MLPs or the two-matrix MLPs of Phi-2 / GPT-NeoX / Falcon-style families, routed + shared
experts, MLA low-rank projections, gated-delta-net projections), so a config.json gives
the same count a safetensors header would, within norms and other vectors. MTP layers are left out, as
publishers leave them out of the headline count.
"""

from __future__ import annotations

from typing import Any

from lmscreen.model.spec import ModelSpec

# Families whose MLP is two matrices (up → activation → down: fc1 / fc2, dense_h_to_4h / dense_4h_to_h, c_fc /
# c_proj) where Llama-style SwiGLU / GeGLU MLPs hold three (gate, up, down). Each maps to whether its linear
# layers carry biases by default and the config key that says otherwise, read in transformers' modeling files:
# PhiForCausalLM (phi-2: fc1 / fc2 with biases, q / k / v / dense with biases, lm_head with a bias),
# GPTNeoXForCausalLM (biased), FalconForCausalLM (`bias`, default false),
# GPT2 / GPTBigCode / GPT-J / CodeGen / GPT-Neo / BLOOM / OPT (biased), Starcoder2 (`use_bias`, default true),
# MPT (`no_bias`, default true) and Nemotron (squared-ReLU up / down, `mlp_bias`, default false).
TWO_MATRIX_MLP: dict[str, tuple[bool, str | None]] = {
    "phi": (True, None),
    "gpt_neox": (True, None),
    "falcon": (False, "bias"),
    "gpt2": (True, None),
    "gpt_bigcode": (True, None),
    "gptj": (True, None),
    "codegen": (True, None),
    "gpt_neo": (True, None),
    "bloom": (True, None),
    "opt": (True, "enable_bias"),
    "starcoder2": (True, "use_bias"),
    "mpt": (False, None),
    "nemotron": (False, "mlp_bias"),
}


def two_matrix_mlp(spec: ModelSpec) -> bool:
    """Whether the dense MLP is up / down only (no gate), from the config's model_type."""
    return str(spec.model_type or "") in TWO_MATRIX_MLP


def _linear_biases(spec: ModelSpec, cfg: dict[str, Any]) -> bool:
    """Whether a two-matrix family's linear layers (attention and MLP) carry biases."""
    default, key = TWO_MATRIX_MLP.get(str(spec.model_type or ""), (False, None))
    if key and isinstance(cfg.get(key), bool):
        return bool(cfg[key])
    return default


def dense_mlp_params(spec: ModelSpec, cfg: dict[str, Any]) -> int:
    """Parameters of one dense (non-expert) MLP: gate + up + down, or up + down (with their biases) for the
    two-matrix families of TWO_MATRIX_MLP, whose width defaults to 4 × hidden where the config leaves it out
    (GPT-2 `n_inner` null, Falcon without `ffn_hidden_size`)."""
    h = spec.hidden_size or 0
    if not two_matrix_mlp(spec):
        return 3 * h * (spec.intermediate_size or 0)
    inter = spec.intermediate_size or 4 * h
    return 2 * h * inter + ((inter + h) if _linear_biases(spec, cfg) else 0)


def moe_layer_flags(spec: ModelSpec, cfg: dict[str, Any]) -> list[bool]:
    """Which layers carry routed experts (DeepSeek/GLM first_k_dense_replace, Qwen mlp_only_layers, step;
    ERNIE 4.5's moe_layer_start_index / moe_layer_end_index / moe_layer_interval, read as vLLM ernie45_moe.py
    does: layer i is MoE when start <= i <= end and (i + 1) % interval == 0, end defaulting to the last)."""
    n = spec.num_layers or 0
    if not spec.num_experts:
        return [False] * n
    if "moe_layer_start_index" in cfg or "moe_layer_end_index" in cfg:
        start = int(cfg.get("moe_layer_start_index") or 0)
        end = cfg.get("moe_layer_end_index")
        end = n - 1 if not isinstance(end, int) or end < 0 else end
        interval = int(cfg.get("moe_layer_interval") or 1)
        return [start <= i <= end and (i + 1) % interval == 0 for i in range(n)]
    first_dense = int(cfg.get("first_k_dense_replace") or 0)
    dense_only = set(cfg.get("mlp_only_layers") or [])
    step = (
        int(cfg.get("decoder_sparse_step") or cfg.get("moe_layer_freq") or 1)
        if not isinstance(cfg.get("moe_layer_freq"), list)
        else 1
    )
    return [i >= first_dense and i not in dense_only and (i + 1) % step == 0 for i in range(n)]


def _full_attention_params(spec: ModelSpec, cfg: dict[str, Any]) -> int:
    """One full-attention layer of a model whose full layers differ from its sliding ones (Gemma 4)."""
    h, nh = spec.hidden_size or 0, spec.num_attention_heads or 0
    hd = spec.full_head_dim or spec.head_dim or 0
    nkv = spec.full_kv_heads or spec.num_kv_heads or 0
    return h * nh * hd + (1 if spec.full_k_eq_v else 2) * h * nkv * hd + nh * hd * h


def mla_dims(spec: ModelSpec) -> tuple[int, int, int]:
    """(qk_nope_head_dim, qk_rope_head_dim, v_head_dim) of an MLA model, 128 where the config leaves the
    first or last out (transformers' DeepseekV3Config defaults)."""
    assert spec.mla is not None
    m = spec.mla
    return m.qk_nope_head_dim or 128, m.qk_rope_head_dim, m.v_head_dim or 128


def mla_latent_params(spec: ModelSpec) -> int:
    """Parameters per layer of MLA's down-projections to the latents (q_a_proj, kv_a_proj_with_mqa), which
    vLLM does not shard under tensor parallelism: deepseek_v2.py builds them as one `fused_qkv_a_proj`
    MergedColumnParallelLinear with `disable_tp=True` (ReplicatedLinear `kv_a_proj_with_mqa` without a query
    rank), so every TP rank holds them whole."""
    if spec.mla is None or not spec.hidden_size:
        return 0
    h, m = spec.hidden_size, spec.mla
    return h * (m.q_lora_rank or 0) + h * (m.kv_lora_rank + m.qk_rope_head_dim)


def mla_modules(spec: ModelSpec, prefix: str = "") -> list[tuple[str, int]]:
    """An MLA layer's linear modules in DeepSeek-V2/V3 naming (modeling_deepseek.py DeepseekV3Attention):
    q_a_proj / q_b_proj (or one q_proj), kv_a_proj_with_mqa, kv_b_proj and o_proj."""
    assert spec.mla is not None
    h, heads, m = spec.hidden_size or 0, spec.num_attention_heads or 0, spec.mla
    nope, rope, v = mla_dims(spec)
    a = f"{prefix}.self_attn"
    query = (
        [(f"{a}.q_a_proj", h * m.q_lora_rank), (f"{a}.q_b_proj", m.q_lora_rank * heads * (nope + rope))]
        if m.q_lora_rank
        else [(f"{a}.q_proj", h * heads * (nope + rope))]
    )
    return query + [
        (f"{a}.kv_a_proj_with_mqa", h * (m.kv_lora_rank + rope)),
        (f"{a}.kv_b_proj", m.kv_lora_rank * heads * (nope + v)),
        (f"{a}.o_proj", heads * v * h),
    ]


def _attention_params(spec: ModelSpec, cfg: dict[str, Any]) -> int:
    h, nh = spec.hidden_size or 0, spec.num_attention_heads or 0
    if spec.mla:
        # the linear modules plus the two latent norms (q_a_layernorm, kv_a_layernorm)
        norms = (spec.mla.q_lora_rank or 0) + spec.mla.kv_lora_rank
        return sum(n for _, n in mla_modules(spec)) + norms
    hd, nkv = spec.head_dim or 0, spec.num_kv_heads or 0
    params = h * nh * hd * (2 if spec.attention_output_gate else 1) + 2 * h * nkv * hd + nh * hd * h
    if cfg.get("attention_bias") or cfg.get("add_qkv_bias") or str(spec.model_type) in ("qwen2", "qwen2_moe"):
        params += nh * hd + 2 * nkv * hd
    elif two_matrix_mlp(spec) and _linear_biases(spec, cfg):
        params += nh * hd + 2 * nkv * hd + h  # q / k / v and the output projection, each with its bias
    return params


def _linear_attention_params(spec: ModelSpec) -> int:
    la, h = spec.linear_attention, spec.hidden_size or 0
    if la is None:
        return 0
    qk = 2 * la.num_key_heads * la.key_head_dim
    v = la.num_value_heads * la.value_head_dim
    # in_proj qkv + z gate, a/b projections, depthwise conv, out_proj, A_log + dt_bias, gated norm.
    return (
        h * (qk + v)
        + h * v
        + 2 * h * la.num_value_heads
        + (qk + v) * la.conv_kernel
        + v * h
        + 2 * la.num_value_heads
        + la.value_head_dim
    )


def linear_attention_params(spec: ModelSpec) -> int:
    """Parameters of every gated-delta-net (linear-attention) layer's projections, conv and gates."""
    la = spec.linear_attention
    return _linear_attention_params(spec) * la.num_layers if la else 0


def _expert_params(spec: ModelSpec, cfg: dict[str, Any]) -> tuple[int, int, int]:
    """(one routed expert, router, shared experts) parameter counts for one MoE layer."""
    h = spec.hidden_size or 0
    inter = spec.moe_intermediate_size or spec.intermediate_size or 0
    expert = 3 * h * inter
    if str(spec.model_type) == "gpt_oss":
        expert += 2 * inter + h  # gate_up and down biases
    router = h * (spec.num_experts or 0) + (spec.num_experts or 0 if str(spec.model_type) == "gpt_oss" else 0)
    shared_inter = cfg.get("shared_expert_intermediate_size")
    if shared_inter:
        shared = 3 * h * int(shared_inter) + h  # Qwen: one shared expert with its sigmoid gate
    else:
        shared = (spec.num_shared_experts or 0) * 3 * h * inter
    return expert, router, shared


def _count_full_layers(spec: ModelSpec, cfg: dict[str, Any], n: int) -> int:
    """Full-attention layers of the whole model (KV-shared ones included: they keep their projections)."""
    types = cfg.get("layer_types")
    if isinstance(types, list) and len(types) == n:
        return sum(1 for t in types if "full" in str(t) or "global" in str(t))
    return spec.full_attention_layers or 0


def attention_linear_params(spec: ModelSpec, cfg: dict[str, Any]) -> int:
    """Parameters of every attention and linear-attention projection (no MLP, experts, norms or embeddings):
    the layers a ModelOpt mixed NVFP4 export keeps in FP8."""
    n = spec.num_layers or 0
    if not (spec.hidden_size and n and spec.num_attention_heads):
        return 0
    linear_layers = spec.linear_attention.num_layers if spec.linear_attention else 0
    attn_layers = n - linear_layers
    if spec.full_head_dim or spec.full_kv_heads or spec.full_k_eq_v:
        full = _count_full_layers(spec, cfg, n)
        attention = _full_attention_params(spec, cfg) * full + _attention_params(spec, cfg) * (
            attn_layers - full
        )
    else:
        attention = _attention_params(spec, cfg) * attn_layers
    return attention + _linear_attention_params(spec) * linear_layers


def count_params(spec: ModelSpec, cfg: dict[str, Any]) -> tuple[int, int, int] | None:
    """(total, active, embedding+lm_head) parameters, or None when the config lacks the basic sizes."""
    h, n, vocab = spec.hidden_size, spec.num_layers, spec.vocab_size
    if not (h and n and vocab and spec.num_attention_heads):
        return None
    embedding = vocab * h * (1 if spec.tie_word_embeddings else 2)
    if str(spec.model_type or "") == "phi" and not spec.tie_word_embeddings:
        embedding += vocab  # PhiForCausalLM's lm_head = nn.Linear(hidden, vocab, bias=True)
    # Gemma 3n/4 per-layer embeddings (PLE): a vocab × (layers × dim) table and its projections, stored
    # like an embedding (16 bit) and left out of the "effective" size the name states (E2B, E4B).
    ple = int(cfg.get("hidden_size_per_layer_input") or 0)
    if ple:
        ple_vocab = int(cfg.get("vocab_size_per_layer_input") or vocab)
        embedding += ple_vocab * n * ple + h * n * ple + n * 2 * h * ple
    linear_layers = spec.linear_attention.num_layers if spec.linear_attention else 0
    attn_layers = n - linear_layers
    if spec.full_head_dim or spec.full_kv_heads or spec.full_k_eq_v:
        full = _count_full_layers(spec, cfg, n)
        attention = _full_attention_params(spec, cfg) * full + _attention_params(spec, cfg) * (
            attn_layers - full
        )
    else:
        attention = _attention_params(spec, cfg) * attn_layers
    attention += _linear_attention_params(spec) * linear_layers
    moe_flags = moe_layer_flags(spec, cfg)
    moe_layers = sum(moe_flags)
    dense_layers = n if spec.dense_mlp_with_experts else n - moe_layers  # Gemma 4: MLP beside the experts
    dense_mlp = dense_mlp_params(spec, cfg) * dense_layers
    if cfg.get("use_double_wide_mlp") and spec.kv_shared_layers:
        dense_mlp += dense_mlp_params(spec, cfg) * spec.kv_shared_layers  # KV-shared layers: 2× MLP
    expert, router, shared = _expert_params(spec, cfg)
    experts_total = moe_layers * ((spec.num_experts or 0) * expert + router + shared)
    norms = 2 * h * n + h
    total = embedding + attention + dense_mlp + experts_total + norms
    idle_experts = (spec.num_experts or 0) - (spec.num_experts_per_tok or spec.num_experts or 0)
    active = total - moe_layers * idle_experts * expert
    return total, active, embedding
