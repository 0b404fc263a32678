"""Parameters a quantized checkpoint keeps in 16 bit: the modules its quantization_config leaves out.

Checkpoints name them in `modules_to_not_convert` (fbgemm_fp8, mxfp4, bitsandbytes, awq), `ignore`
(compressed-tensors: names or `re:` regexes) or `exclude_modules` (modelopt, globs). Meta's FP8 Llama-3.1-405B
leaves every attention block and the first and last MLP in bf16, so sizing it as "all linear layers FP8"
puts 17 % too few bytes on each GPU (vllm-project/vllm#6746 logs 57.75 GiB per GPU on 8 × H100). This module
lays out the per-layer linear modules a config implies, matches the patterns against them the way the
loaders do (a name, a dotted prefix, a glob or a regex) and counts what stays 16 bit. Embeddings and lm_head
are left out of the count: the weight model keeps them 16 bit already.

Hybrid checkpoints (Qwen3.5/3.6/3.8 gated delta net) name their recurrent layers `linear_attn.in_proj_qkv`,
`in_proj_z`, `in_proj_a`, `in_proj_b`, `conv1d` and `out_proj`, and often keep them 16 bit: the NVFP4 export
Inferact/Qwen3.8-27B-NVFP4 lists all 48 layers' `conv1d` and `in_proj_{a,b,qkv,z}` in `ignore`, which is why
it is 26.4 GB where a 4-bit-everywhere reading gives 20; so those layers get their own modules, and only
the full-attention layers get q/k/v/o. Multimodal exports prefix the text layers with `model.language_model.`
(Qwen3_5ForConditionalGeneration); a pattern is matched with and without that part.

Gemma 4's MoE layers hold a dense `mlp` beside `router` and `experts` (enable_moe_block): nvidia's
Gemma-4-26B-A4B-NVFP4 ignores `layers.N.mlp*`, `router*` and `self_attn*`, i.e. only the experts are 4 bit;
naming the experts `mlp.experts` there had the glob keep all 23.9 B parameters 16 bit (46.7 GiB planned).
"""

from __future__ import annotations

import fnmatch
import re
from typing import Any

from lmscreen.model.arch.params import mla_modules
from lmscreen.model.spec import ModelSpec

_EMBEDDINGS = re.compile(r"(^|\.)(lm_head|embed_tokens|wte|word_embeddings)($|\.)")


SKIP_KEYS = (
    "modules_to_not_convert",
    "ignore",
    "ignored_layers",
    "exclude_modules",
    "skip_modules",
    "llm_int8_skip_modules",
)
"""Keys whose list names modules left 16 bit: AWQ / fbgemm_fp8 / mxfp4 (`modules_to_not_convert`, e.g.
openai/gpt-oss-120b's `model.layers.*.self_attn`, `model.layers.*.mlp.router`), compressed-tensors (`ignore`:
names or `re:` regexes, e.g. llm-compressor's examples/quantization_w8a8_fp8/qwen3_5_moe.py), ModelOpt
(`exclude_modules`, globs) and bitsandbytes (`llm_int8_skip_modules`, e.g. PrunaAI/gemma-1.1-2b-it-bnb-4bit-
smashed's config.json: `["lm_head", "inv_freq", "rotary_emb", ...]`; unsloth's *-bnb-4bit releases list
their vision towers and sensitive projections there)."""


def patterns(quantization_config: dict[str, Any] | None) -> list[str]:
    """The module patterns a quantization_config keeps unquantized (empty when it names none).

    Besides the skip lists (SKIP_KEYS) two per-module override maps are read: GPTQModel's `dynamic`, whose
    keys prefixed `-:` are regexes of modules left out of quantization (GPTQModel's README: `"-:.*mlp.gate"`
    skips the router), and Intel AutoRound's `extra_config`, where a module (a name or a regex) given
    `bits` ≥ 16 stays 16 bit. AutoRound writes one entry per kept module: Intel/Qwen3-Coder-Next-int4-
    AutoRound and Intel/Qwen3.5-397B-A17B-int4-AutoRound (quantization_config.json) give every layer's
    `mlp.shared_expert_gate` `{"bits": 16, "data_type": "fp"}`, Intel/Qwen2-57B-A14B-Instruct-int4-inc gives
    it `"bits": 32`, Intel/MiroThinker-1.7-mini-int4-AutoRound and INC4AI/Step-3.5-Flash-int4-AutoRound the
    router (`mlp.gate`, `moe.gate`), YCWTG/Qwen3-Coder-Next-int2-mixed-AutoRound the gated-delta projections
    (`linear_attn.in_proj_qkvz`, `in_proj_ba`, `out_proj`) too. Entries below 16 bits (Intel/GLM-4.7-int4-
    mixed-AutoRound's 8-bit attention) are not counted here: they stay sized at the checkpoint's width."""
    if not isinstance(quantization_config, dict):
        return []
    found: list[str] = []
    for key in SKIP_KEYS:
        value = quantization_config.get(key)
        if isinstance(value, list):
            found += [str(v) for v in value if v]
    dynamic = quantization_config.get("dynamic")
    if isinstance(dynamic, dict):
        found += [f"re:{k[2:]}" for k in dynamic if isinstance(k, str) and k.startswith("-:") and k[2:]]
    extra = quantization_config.get("extra_config")
    if isinstance(extra, dict):
        for name, override in extra.items():
            bits = override.get("bits") if isinstance(override, dict) else None
            if isinstance(bits, (int, float)) and bits >= 16 and name:
                found.append(f"re:{name}" if any(ch in name for ch in "*+?[(|\\") else str(name))
    return found


def linear_modules(spec: ModelSpec, dense_layers: set[int] | None = None) -> list[tuple[str, int]]:
    """(module name, parameters) of every quantizable linear module, in HF naming (`model.layers.N.…`).

    `dense_layers` are the layers of a mixture-of-experts model that hold a plain MLP instead of experts
    (DeepSeek/Kimi `first_k_dense_replace`, Qwen `mlp_only_layers`: arch.params.moe_layer_flags); without it
    every layer of a MoE model holds experts."""
    h, layers = spec.hidden_size, spec.num_layers
    if not h or not layers:
        return []
    heads = spec.num_attention_heads or 0
    kv = spec.num_kv_heads or heads
    hd = spec.head_dim or (h // heads if heads else 0)
    out: list[tuple[str, int]] = []
    linear = linear_layer_indices(spec)
    dense = dense_layers or set()
    for i in range(layers):
        p = f"model.layers.{i}"
        if i in linear:
            out += _linear_attention_modules(spec, p)
        elif spec.mla is not None and heads:
            out += mla_modules(spec, p)
        elif heads:
            out += [
                (f"{p}.self_attn.q_proj", h * heads * hd * (2 if spec.attention_output_gate else 1)),
                (f"{p}.self_attn.k_proj", h * kv * hd),
                (f"{p}.self_attn.v_proj", h * kv * hd),
                (f"{p}.self_attn.o_proj", heads * hd * h),
            ]
        if i in dense and spec.intermediate_size:
            inter = spec.intermediate_size
            out += [
                (f"{p}.mlp.gate_proj", h * inter),
                (f"{p}.mlp.up_proj", h * inter),
                (f"{p}.mlp.down_proj", inter * h),
            ]
        elif spec.num_experts and spec.moe_intermediate_size and spec.dense_mlp_with_experts:
            # Gemma 4 (enable_moe_block): `mlp` is the dense MLP, the router and experts sit beside it
            e, w, inter = spec.num_experts, spec.moe_intermediate_size, spec.intermediate_size or 0
            out += [
                (f"{p}.mlp.gate_proj", h * inter),
                (f"{p}.mlp.up_proj", h * inter),
                (f"{p}.mlp.down_proj", inter * h),
                (f"{p}.router.proj", h * e),
                (f"{p}.experts", e * 3 * h * w),
            ]
        elif spec.num_experts and spec.moe_intermediate_size:
            e, w = spec.num_experts, spec.moe_intermediate_size
            out.append((f"{p}.mlp.gate", h * e))
            out.append((f"{p}.mlp.experts", e * 3 * h * w))
            if spec.num_shared_experts:
                out.append((f"{p}.mlp.shared_experts", spec.num_shared_experts * 3 * h * w))
        elif spec.intermediate_size:
            inter = spec.intermediate_size
            out += [
                (f"{p}.mlp.gate_proj", h * inter),
                (f"{p}.mlp.up_proj", h * inter),
                (f"{p}.mlp.down_proj", inter * h),
            ]
    return out


def linear_layer_indices(spec: ModelSpec) -> set[int]:
    """Indices of the recurrent (linear-attention) layers: every `interval`-th layer is full attention when
    the full layers divide the stack evenly (`full_attention_interval: 4` in Qwen3.5), else the last ones."""
    la, layers = spec.linear_attention, spec.num_layers or 0
    if la is None or not layers or la.num_layers <= 0:
        return set()
    full = layers - la.num_layers
    if full > 0 and layers % full == 0:
        interval = layers // full
        return {i for i in range(layers) if (i + 1) % interval}
    return set(range(min(la.num_layers, layers)))


def _linear_attention_modules(spec: ModelSpec, prefix: str) -> list[tuple[str, int]]:
    """A gated-delta-net layer's linear modules (Qwen3-Next / Qwen3.5 naming) and their parameters."""
    la, h = spec.linear_attention, spec.hidden_size or 0
    assert la is not None
    qk = la.num_key_heads * la.key_head_dim
    v = la.num_value_heads * la.value_head_dim
    a = f"{prefix}.linear_attn"
    return [
        (f"{a}.in_proj_qkv", h * (2 * qk + v)),
        (f"{a}.in_proj_z", h * v),
        (f"{a}.in_proj_b", h * la.num_value_heads),
        (f"{a}.in_proj_a", h * la.num_value_heads),
        (f"{a}.conv1d", (2 * qk + v) * la.conv_kernel),
        (f"{a}.out_proj", v * h),
    ]


def _matcher(module_patterns: list[str]):
    """One test for all patterns: plain names go in a set looked up by every dotted sub-path of a module
    name (FP8 checkpoints list thousands of names; matching each against each module was quadratic and
    took minutes), globs and regexes are compiled once."""
    plain: set[str] = set()
    regexes: list[re.Pattern[str]] = []
    globs: list[re.Pattern[str]] = []
    for pattern in module_patterns:
        if pattern.startswith("re:"):
            regexes.append(re.compile(pattern[3:]))
        elif any(ch in pattern for ch in "*?["):
            globs += [re.compile(fnmatch.translate(pattern)), re.compile(fnmatch.translate(f"*{pattern}"))]
        else:
            plain.add(pattern)

    def matches(name: str) -> bool:
        # a plain name matches the module itself or any module below it, on whole dotted parts
        parts = name.split(".")
        if plain and any(
            ".".join(parts[i:j]) in plain for i in range(len(parts)) for j in range(i + 1, len(parts) + 1)
        ):
            return True
        return any(r.search(name) for r in regexes) or any(g.match(name) for g in globs)

    return matches


def unquantized_params(
    spec: ModelSpec, module_patterns: list[str], dense_layers: set[int] | None = None
) -> int:
    """Parameters of the linear modules the patterns keep 16 bit (embeddings and lm_head not counted)."""
    return sum(params for _, params in kept_modules(spec, module_patterns, dense_layers))


def kept_modules(
    spec: ModelSpec, module_patterns: list[str], dense_layers: set[int] | None = None
) -> list[tuple[str, int]]:
    """(name, parameters) of the linear modules the patterns keep 16 bit (embeddings and lm_head excluded)."""
    wanted = [p for p in module_patterns if not _EMBEDDINGS.search(p.removeprefix("re:"))]
    wanted += [p.replace("language_model.", "") for p in wanted if "language_model." in p]
    if not wanted:
        return []
    matches = _matcher(wanted)
    return [(name, params) for name, params in linear_modules(spec, dense_layers) if matches(name)]
