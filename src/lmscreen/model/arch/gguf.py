"""GGUF headers → ModelSpec: architecture keys, tensor types and exact tensor bytes, never the weights.

gguf.GGUFReader memory-maps the file and only touches the header pages, so a multi-GB (or sparse) file costs
a few megabytes of RSS. The attention layout follows llama.cpp: per-layer `head_count_kv` arrays (0 = a
recurrent layer), `full_attention_interval` for Qwen3-Next/3.5 hybrids, `ssm.*` sizes for the gated-delta-net
state, `kv_lora_rank` for MLA, and the sliding-window patterns llama.cpp hard-codes per architecture.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from lmscreen.errors import InputError
from lmscreen.model.spec import ModelSpec, Records

# Architectures whose sliding-window layout llama.cpp hard-codes: (period, global layer index within period)
# gemma3: every 6th layer global; gemma2 / gpt-oss: alternate, odd layers global; cohere2: every 4th global.
_SWA_PATTERNS = {"gemma3": 6, "gemma3n": 5, "gemma2": 2, "gpt-oss": 2, "cohere2": 4}


def _fields(reader: Any) -> dict[str, Any]:
    """Scalar and small-array field values (large token arrays are skipped, only their length is kept)."""
    out: dict[str, Any] = {}
    for key, field in reader.fields.items():
        if key.startswith("tokenizer.ggml.") and key not in ("tokenizer.ggml.model", "tokenizer.ggml.pre"):
            if key == "tokenizer.ggml.tokens":
                out["_n_tokens"] = len(field.data)
            continue
        try:
            out[key] = field.contents()
        except (ValueError, IndexError, TypeError):
            continue
    return out


def _quant_name(file_type: Any) -> str | None:
    import gguf

    try:
        name = gguf.LlamaFileType(int(file_type)).name
    except (ValueError, TypeError):
        return None
    name = name.removeprefix("MOSTLY_").removeprefix("ALL_")
    return None if name in ("F16", "BF16", "F32") else name.lower()


def read_gguf(path: Path) -> ModelSpec:
    """ModelSpec from a GGUF file header; truncated / not-GGUF → InputError naming the file. The header
    is a user's file: its values fill model.validate's checked spec (pydantic), handed back plain."""
    import gguf

    from lmscreen.model import validate

    try:
        with path.open("rb") as fh:
            magic = fh.read(4)
    except OSError as exc:
        raise InputError(f"cannot read GGUF file: {exc.strerror or exc}", file=str(path)) from None
    if magic != b"GGUF":
        raise InputError("not a GGUF file (bad magic)", file=str(path))
    try:
        reader = gguf.GGUFReader(path, "r")
        fields = _fields(reader)
        tensors = [
            (t.name, t.tensor_type, int(t.n_elements), int(t.n_bytes), int(t.data_offset))
            for t in reader.tensors
        ]
    except (ValueError, IndexError, KeyError, TypeError, OSError, EOFError, MemoryError) as exc:
        raise InputError(
            f"truncated or corrupt GGUF header ({type(exc).__name__}: {exc})", file=str(path)
        ) from None
    size = path.stat().st_size
    end = max((off + nbytes for _, _, _, nbytes, off in tensors), default=0)
    if end > size:
        raise InputError(
            f"truncated GGUF: tensor data ends at byte {end} but the file has {size}", file=str(path)
        )
    return validate.plain(_spec_from_fields(path, fields, tensors, validate.CHECKED))


def _spec_from_fields(path: Path, f: dict[str, Any], tensors: list[tuple], records: Records) -> ModelSpec:
    arch = str(f.get("general.architecture") or "")

    def key(name: str) -> Any:
        return f.get(f"{arch}.{name}")

    layers = key("block_count")
    heads = key("attention.head_count")
    kv = key("attention.head_count_kv")
    kv_per_layer = list(kv) if isinstance(kv, list) else None
    hidden = key("embedding_length")
    head_dim = key("attention.key_length") or (
        hidden // heads if hidden and isinstance(heads, int) and heads else None
    )
    spec = records.spec(
        name=str(f.get("general.name") or path.stem),
        architecture=arch or None,
        model_type=arch or None,
        num_layers=layers,
        hidden_size=hidden,
        intermediate_size=key("feed_forward_length")
        if not isinstance(key("feed_forward_length"), list)
        else None,
        num_attention_heads=heads if isinstance(heads, int) else (max(heads) if heads else None),
        num_kv_heads=(max(kv_per_layer) if kv_per_layer else kv),
        head_dim=head_dim,
        vocab_size=key("vocab_size") or f.get("_n_tokens"),
        max_position_embeddings=key("context_length"),
        num_experts=key("expert_count") or None,
        num_experts_per_tok=key("expert_used_count") or None,
        num_shared_experts=key("expert_shared_count") or None,
        moe_intermediate_size=key("expert_feed_forward_length") or None,
        quantization=_quant_name(f.get("general.file_type")),
        torch_dtype=None,
    )
    names = {t[0] for t in tensors}
    spec.tie_word_embeddings = "output.weight" not in names
    spec.total_params = sum(t[2] for t in tensors)
    spec.embedding_params = sum(t[2] for t in tensors if t[0] in ("token_embd.weight", "output.weight"))
    spec.weights_bytes = sum(t[3] for t in tensors)
    by_type: dict[str, int] = {}
    for _, ttype, _, nbytes, _ in tensors:
        by_type[ttype.name] = by_type.get(ttype.name, 0) + nbytes
    spec.bytes_by_dtype = dict(sorted(by_type.items(), key=lambda kv_: -kv_[1]))
    if spec.num_experts and spec.moe_intermediate_size:
        idle = spec.num_experts - (spec.num_experts_per_tok or spec.num_experts)
        experts = [t for t in tensors if "_exps." in t[0]]
        spec.active_params = spec.total_params - sum(t[2] for t in experts) * idle // spec.num_experts
    else:
        spec.active_params = spec.total_params
    if layers:
        _layout(spec, arch, key, layers, kv_per_layer, records)
    spec.sources = {k: "gguf" for k, v in spec.facts().items() if v not in (None, [], {}, False, 0)}
    return spec


def _layout(
    spec: ModelSpec, arch: str, key: Any, layers: int, kv_per_layer: list[int] | None, records: Records
) -> None:
    """Full / sliding / recurrent layer counts, MLA latent and GDN state sizes from the GGUF keys."""
    interval = key("full_attention_interval")
    if kv_per_layer and len(kv_per_layer) == layers and 0 in kv_per_layer:
        attention_layers = sum(1 for n in kv_per_layer if n)
    elif interval:
        attention_layers = sum(1 for i in range(layers) if (i + 1) % int(interval) == 0)
    else:
        attention_layers = layers
    recurrent = layers - attention_layers
    if recurrent and key("ssm.state_size"):
        v_heads = key("ssm.time_step_rank") or 1
        inner = key("ssm.inner_size") or 0
        spec.linear_attention = records.linear_attention(
            num_layers=recurrent,
            num_key_heads=key("ssm.group_count") or 1,
            key_head_dim=key("ssm.state_size"),
            num_value_heads=v_heads,
            value_head_dim=inner // v_heads if v_heads else 0,
            conv_kernel=key("ssm.conv_kernel") or 4,
            state_dtype_bytes=4,
        )
    window = key("attention.sliding_window")
    pattern = key("attention.sliding_window_pattern")
    sliding = 0
    if window:
        if isinstance(pattern, list) and len(pattern) == attention_layers:
            sliding = sum(1 for p in pattern if p)
        elif arch in _SWA_PATTERNS:
            period = _SWA_PATTERNS[arch]
            sliding = attention_layers - attention_layers // period
        elif arch in ("mistral", "llama") and window < (spec.max_position_embeddings or 0):
            sliding = attention_layers
    spec.sliding_window_layers = sliding
    spec.sliding_window = int(window) if sliding else None
    spec.full_attention_layers = attention_layers - sliding
    kv_lora = key("attention.kv_lora_rank")
    rope = key("rope.dimension_count")
    if kv_lora and rope:
        spec.mla = records.mla(kv_lora_rank=int(kv_lora), qk_rope_head_dim=int(rope))
