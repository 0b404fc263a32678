"""config.json → ModelSpec: attention layout per kind of layer, MoE, MLA, hybrid linear attention, quant.

Field names differ by family (ChatGLM's `multi_query_group_num`, Mixtral's `num_local_experts`, DeepSeek's
`n_routed_experts`), VL checkpoints nest the language model under `text_config`, and the layout of each layer
comes from `layer_types`, `full_attention_interval` or a sliding-window pattern. This module reads all of them
so that the memory plan never has to look at raw config keys.
"""

from __future__ import annotations

from typing import Any

from lmscreen.model.arch.audio import audio_params
from lmscreen.model.arch.params import attention_linear_params, count_params
from lmscreen.model.arch.vision import minicpmv_resampler_params, vision_params
from lmscreen.model.spec import PLAIN, ModelSpec, Records

_FULL = {"full_attention", "attention", "global_attention", "global"}
_SLIDING = {"sliding_attention", "sliding_window", "local_attention", "local", "chunked_attention"}
_LINEAR = {"linear_attention", "mamba", "ssm", "gated_delta_net", "recurrent"}


def _first(cfg: dict[str, Any], *keys: str) -> Any:
    """The value of the first key present and not null (families name the same fact differently)."""
    for key in keys:
        if cfg.get(key) is not None:
            return cfg[key]
    return None


def _per_layer(value: Any) -> Any:
    """One number for a per-layer list (Hunyuan-A13B's `moe_topk`, `num_shared_expert` and
    `moe_intermediate_size` give one entry a layer, all equal in the published configs): the list's largest
    entry, so that a plan never holds less than the widest layer; anything else as given."""
    if isinstance(value, list):
        numbers = [v for v in value if isinstance(v, int | float)]
        return max(numbers) if numbers else None
    return value


def _rotary_dim(cfg: dict[str, Any], head_dim: int | None) -> int | None:
    """Rotary width per head: MLA's qk_rope_head_dim, an explicit rotary_dim, or head_dim scaled by
    partial_rotary_factor (top level, or inside rope_parameters as transformers 5 writes it)."""
    if cfg.get("kv_lora_rank") and cfg.get("qk_rope_head_dim"):
        return int(cfg["qk_rope_head_dim"])
    explicit = _first(cfg, "rotary_dim", "rotary_emb_dim")
    if explicit:
        return int(explicit)
    if not head_dim:
        return None
    rope = cfg.get("rope_parameters") if isinstance(cfg.get("rope_parameters"), dict) else {}
    factor = _first(cfg, "partial_rotary_factor") or rope.get("partial_rotary_factor") or 1.0
    return int(head_dim * float(factor))


def _rope_rows(params: dict[str, Any], max_pos: int) -> float:
    """Rows of one vLLM rotary table as a multiple of max_position_embeddings.

    vLLM's LinearScalingRotaryEmbedding and DynamicNTKScalingRotaryEmbedding precompute
    max_position × factor positions (google/gemma-3-4b-it: 131,072 × 8 rows); YaRN's tables hold
    original_max_position_embeddings × factor (DeepSeek-V3: 4,096 × 40 = its 163,840 positions); the
    multimodal M-RoPE table of a default rope 4 × max_position; the default and llama3 tables max_position
    rows (vllm 0.19.0 rotary_embedding/)."""
    kind = str(params.get("rope_type") or params.get("type") or "default")
    if "mrope_section" in params:
        # MRotaryEmbedding (Qwen2-VL … Qwen3.5): "We enlarge max_position_embeddings to 4 times"
        return 4.0 if kind in ("default", "mrope") else 1.0
    factor = params.get("factor")
    if not isinstance(factor, (int, float)) or factor <= 1:
        return 1.0
    if kind == "linear" or (kind == "dynamic" and "alpha" not in params):
        return float(factor)
    original = params.get("original_max_position_embeddings")
    if kind in ("yarn", "deepseek_yarn") and isinstance(original, int) and original > 0:
        return original * float(factor) / max_pos
    return 1.0


def _rope_tables(
    cfg: dict[str, Any], max_pos: int | None, head_dim: int | None, rotary_dim: int | None
) -> tuple[tuple[float, int], ...] | None:
    """vLLM's rotary tables as (rows per max_position, width) pairs, where they are not the one plain table.

    get_rope caches one table per distinct setting, so a model whose layer types rotate differently holds
    one per type: transformers 5's per-type rope_parameters (Gemma 4: the full-attention layers' proportional
    rope spans their global_head_dim, its table the whole head), or Gemma 3's rope_local_base_freq for the
    sliding layers beside the (linear-scaled) rope of the full ones."""
    if not max_pos or not head_dim:
        return None
    width = rotary_dim or head_dim
    params = cfg.get("rope_parameters")
    tables: list[tuple[float, int]] = []
    if isinstance(params, dict) and params and all(isinstance(v, dict) for v in params.values()):
        types = cfg.get("layer_types")
        present = set(types) if isinstance(types, list) else set(params)
        seen: list[tuple[str, int]] = []
        for layer_type, rope in params.items():
            if layer_type not in present:
                continue
            global_dim = cfg.get("global_head_dim")
            head = global_dim if layer_type == "full_attention" and isinstance(global_dim, int) else head_dim
            if str(rope.get("rope_type") or "default") == "proportional":
                rows_width = head  # Gemma4RotaryEmbedding hands the whole head to its base table
            else:
                rows_width = int(head * float(rope.get("partial_rotary_factor") or 1.0))
            key = (repr(sorted(rope.items())), head)
            if key not in seen:
                seen.append(key)
                tables.append((_rope_rows(rope, max_pos), rows_width))
    else:
        scaling = cfg.get("rope_scaling")
        scaling = scaling if isinstance(scaling, dict) else params if isinstance(params, dict) else {}
        tables.append((_rope_rows(scaling, max_pos), width))
        local = cfg.get("rope_local_base_freq")
        if isinstance(local, (int, float)) and (local != cfg.get("rope_theta") or tables[0][0] != 1.0):
            tables.append((1.0, head_dim))
    if not tables or tables == [(1.0, width)]:
        return None
    return tuple(tables)


_FAMILY_DEFAULTS: dict[str, dict[str, Any]] = {
    # GemmaConfig default (transformers): Gemma 1 (gemma-2b / gemma-7b) ties the output head to the
    # embedding; its published config.json leaves the key out (counted twice: gemma-2b 3.03 B, not 2.51).
    "gemma": {"tie_word_embeddings": True},
    # Gemma2Config default (transformers): the published Gemma 2 configs leave the key out and tie the
    # output head to the 256,000-row embedding (counting it twice put gemma-2-2b at 3.2 B, not 2.6 B).
    "gemma2": {"tie_word_embeddings": True},
    # Gemma3TextConfig defaults (transformers): the published Gemma 3 configs leave these keys out.
    "gemma3_text": {
        "vocab_size": 262208,
        "max_position_embeddings": 131072,
        "tie_word_embeddings": True,
        "sliding_window_pattern": 6,
        "head_dim": 256,
        # rope of the full-attention layers, and the separate base of the sliding ones (vLLM's gemma3.py
        # builds a second rotary table for those: memory.weights.rope_cache_bytes)
        "rope_theta": 1_000_000.0,
        "rope_local_base_freq": 10_000.0,
    },
    # Gemma4TextConfig.__post_init__ (transformers 5): a rope per layer type when the file states none
    # (google/gemma-4-E2B / E4B copies here leave it out); vLLM's gemma4.py builds one table for each.
    "gemma4_text": {
        "rope_parameters": {
            "sliding_attention": {"rope_type": "default", "rope_theta": 10_000.0},
            "full_attention": {
                "rope_type": "proportional",
                "partial_rotary_factor": 0.25,
                "rope_theta": 1_000_000.0,
            },
        }
    },
    # CohereConfig / Cohere2Config default (transformers): Command R ties its 256,000-row output head to the
    # embedding and its config.json leaves the key out (counted twice: c4ai-command-r-v01 37.1 B, not 35.0).
    "cohere": {"tie_word_embeddings": True},
    "cohere2": {"tie_word_embeddings": True},
}
# Qwen3-Next / Qwen3.5 / Qwen3.6 rotate a quarter of each head: transformers' Qwen3NextConfig and
# Qwen3_5TextConfig default partial_rotary_factor to 0.25 and the published config.json files state it
# (Qwen/Qwen3.5-*: "rope_parameters": {..., "partial_rotary_factor": 0.25}); some catalog copies leave it out.
for _qwen_hybrid in ("qwen3_next", "qwen3_5", "qwen3_5_text", "qwen3_5_moe", "qwen3_5_moe_text"):
    _FAMILY_DEFAULTS[_qwen_hybrid] = {"partial_rotary_factor": 0.25}


def text_part(config: dict[str, Any]) -> dict[str, Any]:
    """The language-model part of a config: `text_config` / `llm_config` merged over the top level,
    with the defaults of the family's transformers config class for keys the file leaves out."""
    merged = config
    for key in ("text_config", "llm_config", "language_config"):
        inner = config.get(key)
        if isinstance(inner, dict) and inner:
            merged = {k: v for k, v in config.items() if k not in ("vision_config", "audio_config", key)}
            merged.update(inner)
            break
    defaults = _FAMILY_DEFAULTS.get(str(merged.get("model_type", "")))
    return {**defaults, **merged} if defaults else merged


def _layer_kinds(cfg: dict[str, Any], num_layers: int, max_pos: int | None) -> tuple[list[str], int | None]:
    """Per-layer attention kind ('full' | 'sliding' | 'linear') and the sliding window, from the config."""
    window = cfg.get("sliding_window")
    if cfg.get("use_sliding_window") is False:
        window = None  # Qwen2/3 ship a sliding_window value with use_sliding_window=false: not used
    if isinstance(window, int) and max_pos and window >= max_pos:
        window = None  # Phi-3 style "window" larger than the context: plain full attention
    kimi = cfg.get("linear_attn_config")
    if isinstance(kimi, dict) and (kimi.get("kda_layers") or kimi.get("full_attn_layers")):
        # Kimi-Linear: 1-indexed lists of KDA (linear) and MLA (full) layers; either list implies the other.
        kda, full = set(kimi.get("kda_layers") or []), set(kimi.get("full_attn_layers") or [])
        if not kda:
            kda = {i + 1 for i in range(num_layers)} - full
        return ["linear" if i + 1 in kda else "full" for i in range(num_layers)], None
    types = cfg.get("layer_types")
    if isinstance(types, list) and len(types) == num_layers:
        kinds = []
        for t in types:
            t = str(t).lower()
            kinds.append("linear" if t in _LINEAR else "sliding" if t in _SLIDING and window else "full")
        return kinds, window
    interval = cfg.get("full_attention_interval")
    if (
        isinstance(interval, int)
        and interval > 0
        and _first(cfg, "linear_num_value_heads", "linear_num_key_heads")
    ):
        return ["full" if (i + 1) % interval == 0 else "linear" for i in range(num_layers)], window
    if not window:
        return ["full"] * num_layers, None
    pattern = _first(cfg, "sliding_window_pattern", "_sliding_window_pattern")
    model_type = str(cfg.get("model_type", ""))
    if isinstance(pattern, int) and pattern > 0:  # Gemma 3: every pattern-th layer is global
        return ["full" if (i + 1) % pattern == 0 else "sliding" for i in range(num_layers)], window
    if model_type.startswith("gemma2") or model_type == "gpt_oss":  # alternate, even layers sliding
        return ["sliding" if i % 2 == 0 else "full" for i in range(num_layers)], window
    if model_type.startswith("gemma3"):  # Gemma 3 default pattern when the key is absent
        return ["full" if (i + 1) % 6 == 0 else "sliding" for i in range(num_layers)], window
    return ["sliding"] * num_layers, window  # Mistral v0.1 style: every layer windowed


def parse_quantization(config: dict[str, Any]) -> tuple[str | None, int | None, int | None]:
    """(method, bits, group_size) from quantization_config (awq, gptq, fp8, compressed-tensors, mxfp4…)."""
    q = config.get("quantization_config") or (config.get("text_config") or {}).get("quantization_config")
    if not isinstance(q, dict):
        mlx = config.get("quantization")
        if isinstance(mlx, dict) and mlx.get("bits"):
            return f"mlx-{mlx['bits']}bit", int(mlx["bits"]), mlx.get("group_size")
        return None, None, None
    method = str(q.get("quant_method") or "").lower()
    bits, group = q.get("bits") or q.get("w_bit"), q.get("group_size") or q.get("q_group_size")
    if method in ("awq", "gptq", "awq_marlin", "gptq_marlin", "auto-round", "autoround"):
        name = "awq" if method.startswith("awq") else "gptq" if method.startswith("gptq") else "autoround"
        return name, int(bits) if bits else None, int(group) if group else None
    if method == "fp8" or method == "fbgemm_fp8":
        return "fp8", 8, None
    if method == "mxfp4":
        return "mxfp4", 4, 32
    if method == "modelopt":
        algo = modelopt_algo(q).lower()
        return (
            ("nvfp4", 4, 16)
            if "fp4" in algo
            else ("fp8", 8, None)
            if "fp8" in algo
            else (algo or "modelopt", None, None)
        )
    if method == "bitsandbytes":
        return ("bnb-4bit", 4, None) if q.get("load_in_4bit") else ("bnb-8bit", 8, None)
    if method == "compressed-tensors":
        return _compressed_tensors(q)
    return method or None, int(bits) if bits else None, int(group) if group else None


def modelopt_algo(q: dict[str, Any]) -> str:
    """A ModelOpt checkpoint's weight format; for MIXED_PRECISION, the one its MLP / expert layers use.

    Mixed checkpoints (NVFP4 MLPs + FP8 attention, nvidia/Qwen3.6-*-NVFP4) list a format per layer; the
    MLP and expert weights hold most of the parameters of any transformer, so their format sizes the
    checkpoint (a per-layer count would pick FP8 for a dense 27B whose attention layers outnumber its MLPs).
    The other layers are then sized at the MLP format too, so the weight bytes are a lower bound (for
    nvidia/Qwen3.6-27B-NVFP4 the FP8 attention and gated-delta layers add about 3 GiB more).
    """
    algo = str(q.get("quant_algo") or "")
    layers = q.get("quantized_layers")
    if algo.upper() != "MIXED_PRECISION" or not isinstance(layers, dict) or not layers:
        return algo
    mlp = {n: v for n, v in layers.items() if "mlp" in n or "expert" in n} or layers
    counts: dict[str, int] = {}
    for layer in mlp.values():
        name = str((layer or {}).get("quant_algo") or "")
        counts[name] = counts.get(name, 0) + 1
    return max(counts, key=lambda a: counts[a])


def modelopt_mixed_layout(q: dict[str, Any] | None, num_layers: int = 0) -> tuple[bool, bool]:
    """(attention layers stored FP8, lm_head stored NVFP4) for a ModelOpt NVFP4 export.

    Mixed exports say so either per module (`quantized_layers`: name -> quant_algo) or as counts
    (`mixed_precision_layers`: {"FP8": 208, "W4A16_NVFP4": 193} for nvidia/Qwen3.6-27B-NVFP4, whose card and
    vllm-project/recipes#606 state "MLP linears NVFP4, attention linears FP8"); in the counted form the W4
    groups beyond a whole number per layer are the lm_head (193 = 3 × 64 + 1; the 40-layer
    Qwen3.6-35B-A3B lists 161 = 4 × 40 + 1). Plain NVFP4 exports
    (quant_algo NVFP4) quantize every linear layer but lm_head.
    """
    if not isinstance(q, dict):
        return False, False
    layers = q.get("quantized_layers")
    if isinstance(layers, dict) and layers:
        algos = {str(n): str((v or {}).get("quant_algo") or "").upper() for n, v in layers.items()}
        fp8 = any("FP8" in a and not ("mlp" in n or "expert" in n) for n, a in algos.items())
        lm_head = any("lm_head" in n and "FP4" in a for n, a in algos.items())
        return fp8, lm_head
    counts = q.get("mixed_precision_layers")
    if isinstance(counts, dict):
        fp8 = sum(int(v) for k, v in counts.items() if "FP8" in str(k).upper() and isinstance(v, int)) > 0
        w4 = sum(int(v) for k, v in counts.items() if "FP4" in str(k).upper() and isinstance(v, int))
        return fp8, bool(num_layers and w4 % num_layers == 1)
    return False, False


def _compressed_tensors(q: dict[str, Any]) -> tuple[str | None, int | None, int | None]:
    fmt = str(q.get("format") or "").lower()
    if "nvfp4" in fmt:
        return "nvfp4", 4, 16
    for group in (q.get("config_groups") or {}).values():
        weights = (group or {}).get("weights") or {}
        bits, kind, size = weights.get("num_bits"), weights.get("type"), weights.get("group_size")
        if kind == "float" and bits == 8:
            return "fp8", 8, None
        if kind == "float" and bits == 4:
            return "nvfp4", 4, size or 16
        if kind == "int" and bits:
            return f"int{bits}", int(bits), int(size) if size else None
    return "compressed-tensors", None, None


def spec_from_config(config: dict[str, Any], name: str, records: Records = PLAIN) -> ModelSpec:
    """ModelSpec from a parsed config.json (text_config nesting, hybrid, MLA, SWA, quantization_config).

    records: the classes to build: PLAIN for the catalog's configs (shipped, checked by the tests),
    model.validate.CHECKED for a user's file (arch.read), whose every field pydantic checks."""
    cfg = text_part(config)
    num_layers = _first(cfg, "num_hidden_layers", "num_layers", "n_layer", "n_layers")
    hidden = _first(cfg, "hidden_size", "d_model", "n_embd", "dim")
    heads = _first(cfg, "num_attention_heads", "n_head", "n_heads")
    kv_heads = _first(cfg, "num_key_value_heads", "multi_query_group_num", "n_kv_heads", "num_kv_heads")
    if kv_heads is None and cfg.get("multi_query_attention") is False:
        kv_heads = heads
    if kv_heads is None:
        kv_heads = heads
    head_dim = _first(cfg, "head_dim", "kv_channels")
    if head_dim is None and cfg.get("kv_lora_rank") and cfg.get("qk_nope_head_dim"):
        head_dim = int(cfg["qk_nope_head_dim"]) + int(cfg.get("qk_rope_head_dim") or 0)  # MLA query/key width
    if head_dim is None and hidden and heads:
        head_dim = hidden // heads
    max_pos = _first(
        cfg, "max_position_embeddings", "model_max_length", "seq_length", "max_sequence_length", "n_positions"
    )
    quant, bits, group = parse_quantization(config)
    spec = records.spec(
        name=name,
        architecture=(config.get("architectures") or cfg.get("architectures") or [None])[0],
        model_type=config.get("model_type") or cfg.get("model_type"),
        num_layers=num_layers,
        hidden_size=hidden,
        intermediate_size=_first(cfg, "intermediate_size", "ffn_hidden_size", "n_inner"),
        num_attention_heads=heads,
        num_kv_heads=kv_heads,
        head_dim=head_dim,
        vocab_size=_first(cfg, "vocab_size", "padded_vocab_size"),
        tie_word_embeddings=_first(config, "tie_word_embeddings")
        if "tie_word_embeddings" in config
        else _first(cfg, "tie_word_embeddings"),
        max_position_embeddings=max_pos,
        rotary_dim=_rotary_dim(cfg, head_dim),
        num_experts=_first(cfg, "num_experts", "num_local_experts", "n_routed_experts", "moe_num_experts"),
        num_experts_per_tok=_per_layer(
            _first(cfg, "num_experts_per_tok", "num_experts_per_token", "moe_topk", "top_k_experts", "moe_k")
        ),
        # Hunyuan's `num_shared_expert` (a shared MLP beside the experts when `use_mixed_mlp_moe`), ERNIE
        # 4.5's `moe_num_shared_experts` (vLLM ernie45_moe: one shared MLP of moe_intermediate_size × count)
        num_shared_experts=_per_layer(
            _first(cfg, "n_shared_experts", "num_shared_experts", "moe_num_shared_experts")
            if cfg.get("num_shared_expert") is None or cfg.get("use_mixed_mlp_moe") is False
            else cfg["num_shared_expert"]
        ),
        moe_intermediate_size=_per_layer(_first(cfg, "moe_intermediate_size", "expert_intermediate_size")),
        dense_mlp_with_experts=bool(cfg.get("enable_moe_block")),
        torch_dtype=_first(cfg, "torch_dtype", "dtype") or _first(config, "torch_dtype", "dtype"),
        quantization=quant,
        quantization_bits=bits,
        quantization_group_size=group,
        mtp_layers=int(_first(cfg, "num_nextn_predict_layers", "mtp_num_hidden_layers") or 0),
        is_vision=isinstance(config.get("vision_config"), dict) and bool(config.get("vision_config")),
    )
    spec.rope_tables = _rope_tables(cfg, max_pos, head_dim, spec.rotary_dim)
    if spec.num_experts is not None and spec.num_experts <= 1:
        spec.num_experts = None
    if (
        spec.num_experts
        and spec.num_shared_experts is None
        and _first(cfg, "shared_expert_intermediate_size")
    ):
        spec.num_shared_experts = 1
    if num_layers:
        _fill_layout(spec, cfg, num_layers, max_pos, records)
    params = count_params(spec, cfg)
    if params:
        spec.total_params, spec.active_params, spec.embedding_params = params
        vision = _vision_params(config, spec)
        if vision:
            spec.vision_params = vision
            spec.vision_config = dict(config["vision_config"])
            spec.total_params += vision
        audio = audio_params(config.get("audio_config"), spec.hidden_size)
        if audio:
            spec.audio_params = audio
            spec.total_params += audio
    if quant == "nvfp4":
        q = config.get("quantization_config") or (config.get("text_config") or {}).get("quantization_config")
        fp8, lm_head = modelopt_mixed_layout(q, spec.num_layers or 0)
        if fp8:
            spec.fp8_params = attention_linear_params(spec, cfg) or None
        spec.lm_head_quantized = lm_head
    if quant and quant not in ("mxfp4",):  # mxfp4 sizes experts only: the rest is bf16 already
        from lmscreen.model.arch.params import moe_layer_flags
        from lmscreen.model.arch.unquantized import kept_modules, patterns

        q = config.get("quantization_config") or (config.get("text_config") or {}).get("quantization_config")
        flags = moe_layer_flags(spec, cfg)
        dense = {i for i, moe in enumerate(flags) if not moe} if spec.num_experts else None
        modules = kept_modules(spec, patterns(q), dense)
        kept = sum(n for _, n in modules)
        if kept:
            spec.unquantized_params = kept
            if spec.fp8_params:  # a mixed export counts every projection FP8, not the ones kept 16 bit
                spec.fp8_params = max(spec.fp8_params - kept, 0) or None
    spec.sources = {k: "config" for k, v in spec.facts().items() if v not in (None, [], {}, False, 0)}
    return spec


def _vision_params(config: dict[str, Any], spec: ModelSpec) -> int:
    """The vision encoder and what maps it to the language model: the merger or projector vision.py counts,
    or for MiniCPM-V (`model_type` minicpmv with a `query_num`) a SigLIP tower and its perceiver resampler
    (vLLM minicpmv.py MiniCPMV2_6: Idefics2VisionTransformer, Resampler2_5 of the text width)."""
    vision = config.get("vision_config")
    query_num = config.get("query_num")
    minicpmv = str(config.get("model_type")) == "minicpmv"
    if minicpmv and isinstance(vision, dict) and isinstance(query_num, int):
        tower = vision_params(vision, spec.hidden_size, merger=False)
        width = int(vision.get("hidden_size") or 0)
        if tower and width and spec.hidden_size:
            return tower + minicpmv_resampler_params(spec.hidden_size, width, query_num)
        return 0
    return vision_params(vision, spec.hidden_size)


def _fill_layout(
    spec: ModelSpec, cfg: dict[str, Any], num_layers: int, max_pos: int | None, records: Records
) -> None:
    """Attention layout per kind of layer: full / sliding counts, GDN state dims, MLA latent.

    Gemma 4: the last `num_kv_shared_layers` layers read the KV of earlier layers and hold none of their own;
    its full-attention layers use `global_head_dim` and `num_global_key_value_heads`, with one tensor for K
    and V when `attention_k_eq_v`.
    """
    kinds, window = _layer_kinds(cfg, num_layers, max_pos)
    shared = int(cfg.get("num_kv_shared_layers") or 0)
    if 0 < shared < num_layers:
        spec.kv_shared_layers = shared
        kinds_kv = kinds[: num_layers - shared] + [k for k in kinds[num_layers - shared :] if k == "linear"]
    else:
        kinds_kv = kinds
    spec.full_attention_layers = kinds_kv.count("full")
    spec.sliding_window_layers = kinds_kv.count("sliding")
    spec.sliding_window = window if spec.sliding_window_layers else None
    global_dim = cfg.get("global_head_dim")
    if (
        isinstance(global_dim, int)
        and global_dim
        and global_dim != spec.head_dim
        and spec.sliding_window_layers
    ):
        spec.full_head_dim = global_dim
    global_kv = cfg.get("num_global_key_value_heads")
    if isinstance(global_kv, int) and global_kv and global_kv != spec.num_kv_heads:
        spec.full_kv_heads = global_kv
    if cfg.get("attention_k_eq_v") is True:
        spec.full_k_eq_v = True
    # transformers' Qwen3NextAttention always gates (its config has no key); Qwen3.5 states attn_output_gate
    if cfg.get("attn_output_gate") is True or str(spec.model_type or "").startswith("qwen3_next"):
        spec.attention_output_gate = True
    linear = kinds.count("linear")
    kimi = cfg.get("linear_attn_config")
    if linear and isinstance(kimi, dict):
        # Kimi Delta Attention: q, k and v heads alike, one head_dim, a short conv on each of q, k and v;
        # vLLM keeps the recurrent state in fp32 (mamba_ssm_dtype default).
        heads, dim = int(kimi.get("num_heads") or 32), int(kimi.get("head_dim") or 128)
        spec.linear_attention = records.linear_attention(
            num_layers=linear,
            num_key_heads=heads,
            key_head_dim=dim,
            num_value_heads=heads,
            value_head_dim=dim,
            conv_kernel=int(kimi.get("short_conv_kernel_size") or 4),
            state_dtype_bytes=4,
        )
    elif linear:
        k_heads = _first(cfg, "linear_num_key_heads") or 16
        v_heads = _first(cfg, "linear_num_value_heads") or 32
        spec.linear_attention = records.linear_attention(
            num_layers=linear,
            num_key_heads=k_heads,
            key_head_dim=_first(cfg, "linear_key_head_dim") or 128,
            num_value_heads=v_heads,
            value_head_dim=_first(cfg, "linear_value_head_dim") or 128,
            conv_kernel=_first(cfg, "linear_conv_kernel_dim") or 4,
            state_dtype_bytes=4 if str(cfg.get("mamba_ssm_dtype", "float32")) == "float32" else 2,
        )
    if _first(cfg, "kv_lora_rank") and _first(cfg, "qk_rope_head_dim"):
        spec.mla = records.mla(
            kv_lora_rank=cfg["kv_lora_rank"],
            qk_rope_head_dim=cfg["qk_rope_head_dim"],
            q_lora_rank=_first(cfg, "q_lora_rank") or None,
            qk_nope_head_dim=_first(cfg, "qk_nope_head_dim") or None,
            v_head_dim=_first(cfg, "v_head_dim") or None,
        )
