"""Decode what a model name says (family, size, active params, variant, quantization) and nothing more.

Names arrive as HF ids (`Qwen/Qwen3.6-35B-A3B`), Ollama tags (`llama3.1:70b-instruct-q4_K_M`), GGUF file
names (`Qwen3-8B-UD-Q4_K_XL.gguf`) or free text (`Llama 3-70B-Instruct`). Each field records whether the
name said it (`name`) or the built-in catalog filled it (`catalog`); what neither says stays null and is
listed in `unknown`, so nothing is ever guessed silently. `A3B` means about 3 B parameters active per token
(MoE), never "multimodal"; `8x7B` names the expert layout, not the total; `E2B` (Gemma 3n/4) names about 2 B
effective parameters, the per-layer embedding tables not counted.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import PurePath

from lmscreen.errors import InputError

_QUANT = re.compile(
    r"(?i)(?:^|[-_.:\s])("
    r"(?:ud-)?(?:i?q[1-8](?:_[0-9a-z]+)*|tq[12]_0)"
    r"|mxfp4(?:_moe)?|mxfp8|nvfp4|fp8(?:[-_]dynamic|[-_]block)?|awq|gptq(?:[-_]int[248])?|int[48]|w4a16|w8a8|w4a4"
    r"|bnb[-_]4bit|[2-8]bit|f16|bf16|fp16|f32|fp32)(?=$|[-_.:\s])"
)
_UNQUANTIZED = {"f16", "bf16", "fp16", "f32", "fp32"}
_SIZE = re.compile(r"(?i)^(\d+(?:\.\d+)?)([bmt])$")
_ACTIVE = re.compile(r"(?i)^a(\d+(?:\.\d+)?)b$")
_EFFECTIVE = re.compile(r"(?i)^e(\d+(?:\.\d+)?)b$")
_EXPERTS = re.compile(r"(?i)^(\d+)x(\d+(?:\.\d+)?)b$")
_CONTEXT = re.compile(r"(?i)^(\d+)([km])$")
_VARIANTS = {
    "instruct": "instruct",
    "it": "instruct",
    "inst": "instruct",
    "chat": "chat",
    "thinking": "thinking",
    "reasoning": "thinking",
    "think": "thinking",
    "coder": "coder",
    "code": "coder",
    "base": "base",
    "vl": "vl",
    "vision": "vl",
    "omni": "omni",
    "distill": "distill",
    "next": "next",
    "air": "air",
    "mini": "mini",
    "small": "small",
    "medium": "medium",
    "large": "large",
    "flash": "flash",
    "math": "math",
    "preview": "preview",
    "turbo": "turbo",
    "nano": "nano",
}
_LETTER_VERSIONS = {"deepseek": r"^[vr]\d+(?:\.\d+)?$", "kimi": r"^k\d+(?:\.\d+)?$"}


@dataclass(kw_only=True)
class DecodedName:
    """What a model name says. Sizes are in billions of parameters."""

    name: str
    org: str | None = None
    family: str | None = None
    version: str | None = None
    total_params_b: float | None = None
    active_params_b: float | None = None
    """Parameters used per token: `A3B` → 3; equal to the total for a dense model; null when unknown."""
    experts: int | None = None
    """Expert count stated by an `8x7B` form."""
    effective_params_b: float | None = None
    """`E2B` / `E4B` (Gemma 3n/4): about 2 / 4 B effective parameters, per-layer embeddings not counted; the
    total (with them) comes from the catalog or a config, never from this number."""
    variant: list[str] = field(default_factory=list)
    quantization: str | None = None
    """awq, gptq, fp8, nvfp4, mxfp4, int4, q4_k_m, iq4_xs, ud-q4_k_xl …; null when unquantized or not said."""
    quantization_bits: int | None = None
    dtype: str | None = None
    """bf16 / f16 / f32 when the name says the weights are unquantized."""
    modality: str | None = None
    """text | text+vision | omni."""
    context_hint: int | None = None
    """Context length in tokens: from a `128k`/`1M` tag in the name, else the catalog's native window."""
    form: str = "name"
    """How the name was written: hf_id | ollama | gguf | name."""
    catalog_id: str | None = None
    source: dict[str, str] = field(default_factory=dict)
    unknown: list[str] = field(default_factory=list)


def _split_form(raw: str) -> tuple[str, str | None, str]:
    """(base name, org, form) with paths, .gguf, shard suffixes and HF/Ollama prefixes taken apart."""
    text = raw.strip()
    if text.lower().endswith(".gguf"):
        text = PurePath(text).name[: -len(".gguf")]
        text = re.sub(r"(?i)-\d{5}-of-\d{5}$", "", text)
        return text, None, "gguf"
    text = re.sub(r"(?i)^(?:https?://)?(?:huggingface\.co|hf\.co)/", "", text)
    if ":" in text:
        return text, None, "ollama"
    if re.fullmatch(r"[\w.\-]+/[\w.\-]+", text):
        org, _, base = text.partition("/")
        return base, org, "hf_id"
    return text, None, "name"


def without_quantization(name: str) -> str:
    """`name` with its quantization and dtype tags taken out (`MiniMax-M2.1-FP8-INT4-AWQ` → `MiniMax-M2.1`):
    the release a re-quantized checkpoint was made from."""
    rest = _quantization(name)[0]
    return re.sub(r"[-_.\s]+(?=$|[-_.\s])", "", rest).strip("-_. ")


def _quantization(text: str) -> tuple[str, str | None, int | None, str | None]:
    """Strip the quantization tag(s) from text: (rest, quantization, bits, dtype)."""
    quant, bits, dtype = None, None, None
    for match in reversed(list(_QUANT.finditer(text))):
        tag = match.group(1).lower().replace("_moe", "")
        if tag in _UNQUANTIZED:
            dtype = dtype or {"fp16": "f16", "fp32": "f32"}.get(tag, tag)
        elif quant is None:
            if tag.startswith("gptq"):
                quant, bits = "gptq", int(tag[-1]) if tag[-1].isdigit() else None
            elif tag.startswith("fp8"):
                quant, bits = "fp8", 8
            elif tag in ("int4", "int8", "w4a16", "w8a8", "w4a4"):
                quant, bits = tag, 8 if "8" in tag[:2] or tag == "int8" else 4
            elif tag.endswith("bit"):
                quant, bits = tag.replace("_", "-"), int(re.sub(r"\D", "", tag) or 0) or None
            else:
                quant = tag
                bits = {"mxfp4": 4, "mxfp8": 8, "nvfp4": 4, "awq": 4}.get(tag)
        text = text[: match.start(1)] + text[match.end(1) :]
    return text, quant, bits, dtype


def _family_version(tokens: list[str]) -> tuple[str | None, str | None, int]:
    """Family and version from the leading tokens; returns how many tokens they used."""
    i = 1 if tokens and tokens[0].lower() == "meta" else 0
    if i >= len(tokens):
        return None, None, i
    head = tokens[i]
    if head.lower() == "gpt" and i + 1 < len(tokens) and tokens[i + 1].lower() == "oss":
        return "gpt-oss", None, i + 2
    m = re.fullmatch(r"([A-Za-z]+?)(\d+(?:\.\d+)*)?", head)
    if not m:
        return head.lower(), None, i + 1
    family, version = m.group(1).lower(), m.group(2)
    used = i + 1
    if version is None and used < len(tokens):
        nxt = tokens[used]
        letter = _LETTER_VERSIONS.get(family)
        if re.fullmatch(r"\d+(?:\.\d+)*", nxt) and not _SIZE.match(nxt):
            version, used = nxt, used + 1
        elif letter and re.fullmatch(letter, nxt, flags=re.I):
            version, used = nxt.upper(), used + 1
    return family, version, used


def _size(value: str, unit: str) -> float:
    factor = {"b": 1.0, "m": 1e-3, "t": 1e3}[unit.lower()]
    return round(float(value) * factor, 6)


def decode(name: str) -> DecodedName:
    """Parse an HF id, Ollama tag, GGUF file name or free-form name; the catalog fills only what it lacks."""
    if not name or not name.strip():
        raise InputError("empty model name")
    base, org, form = _split_form(name)
    out = DecodedName(name=name.strip(), form=form)
    src = out.source
    if org:
        out.org, src["org"] = org, "name"
    rest, out.quantization, out.quantization_bits, out.dtype = _quantization(base)
    if form == "gguf" and out.quantization is None and out.dtype is None:
        out.quantization = "gguf"
    family_part, _, tag = rest.partition(":") if form == "ollama" else (rest, "", "")
    tokens = [t for t in re.split(r"[-_\s:/]+", family_part) if t]
    family, version, used = _family_version(tokens)
    if family:
        out.family, src["family"] = family, "name"
    if version:
        out.version, src["version"] = version, "name"
    for token in tokens[used:] + [t for t in re.split(r"[-_\s]+", tag) if t]:
        _read_token(out, token)
    if out.quantization:
        src["quantization"] = "name"
    if out.variant:
        src["variant"] = "name"
    if "vl" in out.variant:
        out.modality, src["modality"] = "text+vision", "name"
    elif "omni" in out.variant:
        out.modality, src["modality"] = "omni", "name"
    if out.effective_params_b is not None and out.total_params_b is None and out.active_params_b is None:
        # a dense model: every parameter is used per token, embeddings included
        pass
    if out.total_params_b is not None and out.active_params_b is None and out.experts is None:
        if not _moe_hint(out):
            out.active_params_b, src["active_params_b"] = out.total_params_b, "name"
    _fill_from_catalog(out, name, rest)
    out.unknown = [
        f
        for f in ("org", "family", "version", "total_params_b", "active_params_b", "modality", "context_hint")
        if getattr(out, f) is None
    ]
    if out.quantization is None and out.dtype is None:
        out.unknown.append("quantization")
    return out


def _moe_hint(out: DecodedName) -> bool:
    """True when the family is known to ship MoE models under plain size names (gpt-oss-20b, DeepSeek)."""
    return out.family in ("gpt-oss", "deepseek", "kimi", "mixtral") and "distill" not in out.variant


def _read_token(out: DecodedName, token: str) -> None:
    src, low = out.source, token.lower()
    if m := _EXPERTS.match(token):
        out.experts, src["experts"] = int(m.group(1)), "name"
    elif m := _ACTIVE.match(token):
        out.active_params_b, src["active_params_b"] = float(m.group(1)), "name"
    elif (m := _EFFECTIVE.match(token)) and out.effective_params_b is None:
        out.effective_params_b, src["effective_params_b"] = float(m.group(1)), "name"
    elif (m := _SIZE.match(token)) and out.total_params_b is None:
        out.total_params_b, src["total_params_b"] = _size(m.group(1), m.group(2)), "name"
    elif (m := _CONTEXT.match(token)) and out.context_hint is None:
        out.context_hint = int(m.group(1)) * (1024 if m.group(2).lower() == "k" else 1024 * 1024)
        src["context_hint"] = "name"
    elif low in _VARIANTS and _VARIANTS[low] not in out.variant:
        out.variant.append(_VARIANTS[low])
    elif re.fullmatch(r"v\d+\.\d+", low) and out.version is None:
        out.version, src["version"] = low[1:], "name"


def _fill_from_catalog(out: DecodedName, name: str, stripped: str) -> None:
    """Fill the fields the name leaves out from the matching catalog entry (source = 'catalog')."""
    from lmscreen.model.catalog.models import lookup

    entry = lookup(name) or lookup(re.sub(r"[-_.\s]+$", "", stripped))
    if entry is None:
        return
    out.catalog_id = entry.id
    src = out.source
    fills = {
        "org": entry.org,
        "family": entry.family,
        "version": entry.version,
        "total_params_b": entry.total_params_b,
        "active_params_b": entry.active_params_b,
        "modality": "text+vision" if "vision" in entry.tasks else "text",
        "context_hint": entry.max_context,
    }
    for key, value in fills.items():
        if getattr(out, key) is None and value is not None:
            setattr(out, key, value)
            src[key] = "catalog"
    if out.quantization is None and out.dtype is None:
        quant = (entry.config.get("quantization_config") or {}).get("quant_method")
        if quant and out.form != "gguf":
            out.quantization, src["quantization"] = str(quant), "catalog"
