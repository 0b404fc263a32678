"""A ModelSpec from a model's name alone, for a model with no config.json on disk and no catalog entry.

The name says the size (14B, A3B, E2B) and often the base family (DeepSeek-R1-Distill-**Qwen**-14B); the layer
layout it does not say. So the layout is borrowed from the catalog model of the same family nearest in size
and *scaled* to the size the name states: hidden size and depth by the cube root of the size ratio (rounded
the way the families round them), heads with the hidden size at the template's head size and GQA ratio, MLP
widths with the hidden size; vocabulary, tied embeddings, attention pattern and experts stay the template's.
The parameter count then comes from the scaled layout, embeddings included, so `Qwen2-7B` is planned as the
7.6 B model it is (14.2 GiB in bf16, as vLLM loads it) and not as 7 × 10⁹ × 2 bytes. A name whose size equals
the template's keeps the template's layout unchanged; one scaled far (Qwen3.5-0.8B from the 27B) is rescaled
until its count is the name's, with its embeddings tied or untied as the publisher's catalog models of that
size have them, because the embedding share grows as a model shrinks. Templates are publishers' own releases,
never another exporter's quantized copy. A llava name adds the CLIP tower. Every borrowed field is recorded as
an estimate (`sources[field] = "estimate: like <catalog id>"`), so that a plan or launch line built on it says
so. Nothing is downloaded.
"""

from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING, Any

from lmscreen.errors import InputError
from lmscreen.model.spec import ModelSpec

if TYPE_CHECKING:
    from lmscreen.model.catalog.models import CatalogEntry

ESTIMATE = "estimate"
"""Prefix of a `sources` value for a field guessed from a similar model."""


def is_estimated(spec: ModelSpec) -> bool:
    """True when any architecture fact of the spec is an estimate rather than read from a file."""
    return any(str(src).startswith(ESTIMATE) for src in spec.sources.values())


def estimated_fields(spec: ModelSpec) -> list[str]:
    return sorted(f for f, src in spec.sources.items() if str(src).startswith(ESTIMATE))


def _size_prefix(name: str) -> str:
    """The name up to its size token: `DeepSeek-R1-Distill-Qwen-14B` → `deepseek-r1-distill-qwen-`."""
    short = name.split("/")[-1]
    m = re.search(r"(?i)(?:^|[-_])(?:\d+x|e)?\d+(?:\.\d+)?[bm](?=$|[-_.])", short)
    return short[: m.start() + 1].lower() if m else ""


_PLAIN = ("llama", "qwen2", "qwen3", "mistral", "qwen3_moe", "mixtral")
"""model_types with a plain layout (full attention on every layer, GQA): default for unknown families."""


_VISION_NAME = re.compile(r"(?i)(?:^|[-_/])(?:vl|llava|vision)(?=$|[-_.\d])")
"""Names that carry a vision tower: `Qwen2-VL-7B`, `llava-v1.6-mistral-7b`, `Llama-3.2-11B-Vision`."""


_LLAVA_NAME = re.compile(r"(?i)(?:^|[-_/])llava(?:-v?1\.[56]|-next)?(?=$|[-_.])(?!.*onevision)")
"""LLaVA-1.5 / LLaVA-NeXT names (`llava-v1.6-mistral-7b-hf`, `llava-1.5-13b-hf`); OneVision uses SigLIP."""


def _family_key(family: str) -> str:
    """A catalog family without its version and a `-vl` suffix: `qwen2.5-vl` and `qwen2` are both `qwen`."""
    return re.sub(r"[-\d.]+$", "", re.sub(r"(?i)-vl$", "", family)).lower()


def _named_family(name: str, keys: set[str]) -> str | None:
    """A catalog family named inside a name whose own family the catalog lacks: a llava release names the
    language model it is built on (`llava-v1.6-mistral-7b-hf` → mistral, `llava-v1.6-vicuna-7b` → none)."""
    for token in re.split(r"[-_/.]", name.lower()):
        key = re.sub(r"[\d.]+$", "", token)
        if key in keys:
            return key
    return None


_EXPERT_KEYS = ("num_experts", "num_local_experts", "n_routed_experts", "moe_num_experts")


def _moe(entry: CatalogEntry) -> bool:
    """Whether a catalog model routes tokens to experts, read from its config where it says so.

    The ratio of active to total parameters alone misreads small dense models with a large vocabulary or a
    vision tower: Qwen3.5-0.8B counts 0.75 of its 0.85 B as active (embeddings and ViT are not), which made it
    "MoE" and sent a bare Qwen3.5-4B to the 27B's layout instead of its nearest dense sibling.
    """
    from lmscreen.model.arch.config import text_part

    cfg = text_part(entry.config or {})
    if cfg.get("num_hidden_layers") or cfg.get("hidden_size"):  # a config that describes the layers
        return any(int(cfg.get(key) or 0) > 1 for key in _EXPERT_KEYS)
    return entry.active_params_b < entry.total_params_b * 0.9


def _template(
    name: str, family: str | None, total_b: float, moe: bool, exclude: frozenset[str] = frozenset()
) -> CatalogEntry | None:
    """The catalog model whose layout a nameless-config model most likely shares.

    Siblings (catalog ids that start like the name up to its size) give the architecture class
    (`model_type`: a Qwen-based distill is `qwen2`); among catalog models of that class, or else of the
    same family, or else of any family, the nearest in size (log scale, MoE with MoE) is the template.
    """
    from lmscreen.model.catalog.models import all_models

    def distance(entry: CatalogEntry) -> float:
        size = _name_size(entry.id) or entry.total_params_b
        gap = abs(math.log(size) - math.log(total_b))
        return gap + (10.0 if _moe(entry) != moe else 0.0)

    entries = [e for e in all_models() if e.id not in exclude]
    prefix = _size_prefix(name)
    siblings = [e for e in entries if prefix and e.name.lower().startswith(prefix)]
    pool: list[CatalogEntry] = []
    if siblings:
        model_type = min(siblings, key=distance).config.get("model_type")
        pool = [e for e in entries if model_type and e.config.get("model_type") == model_type]
        pool = pool or siblings
    elif family:
        keys = {_family_key(e.family) for e in entries}
        wanted = family.lower() if family.lower() in keys else _named_family(name, keys)
        pool = [e for e in entries if wanted and _family_key(e.family) == wanted]
    if not pool:  # a family the catalog lacks: the nearest-size plain (Llama-style) layout
        pool = [e for e in entries if e.config.get("model_type") in _PLAIN] or list(entries)
    if _VISION_NAME.search(name.split("/")[-1]):
        # a vision-language name takes its layout (and its vision tower) from a vision sibling
        pool = [e for e in pool if "vision_config" in e.config] or pool
    # a publisher's own release, not a re-export: which layers a quantized checkpoint keeps wide is the
    # exporter's, and the name's format is applied to the estimate anyway
    pool = [e for e in pool if not _quantized(e)] or pool
    return min(pool, key=distance) if pool else None


def _quantized(entry: CatalogEntry) -> bool:
    return bool(entry.config.get("quantization_config") or entry.quant_source)


def _tied_like_its_size(template: CatalogEntry, size_b: float) -> bool | None:
    """Whether models of `size_b` in the template's line tie their embeddings: the publisher's catalog model
    nearest that size says (Qwen ties up to 4 B and unties from 7 B; so does Llama 3.2 / 3.1). None when the
    publisher has no other model in the catalog."""
    from lmscreen.model.arch.config import text_part
    from lmscreen.model.catalog.models import all_models

    org = template.id.split("/")[0].lower()
    alike = [e for e in all_models() if e.id.split("/")[0].lower() == org and not _quantized(e)]
    if not alike:
        return None
    nearest = min(alike, key=lambda e: abs(math.log(e.total_params_b) - math.log(size_b)))
    tie = nearest.config.get("tie_word_embeddings", text_part(nearest.config).get("tie_word_embeddings"))
    return bool(tie) if tie is not None else None


def _release_sibling(name: str, total_b: float) -> CatalogEntry | None:
    """A catalog model of the same line and the same release (-2507 …), nearest in size: a release sets
    its own context, so Qwen3-30B-A3B-Thinking-2507 takes it from Qwen3-30B-A3B-Instruct-2507, not from
    the first Qwen3-30B-A3B."""
    from lmscreen.model.catalog.models import all_models, releases

    wanted = releases(name)
    if not wanted:
        return None
    line = re.split(r"[-_]", name.split("/")[-1].lower())[0]
    alike = [e for e in all_models() if wanted <= releases(e.id) and e.name.lower().split("-")[0] == line]
    return min(alike, key=lambda e: abs(math.log(e.total_params_b) - math.log(total_b)), default=None)


def _name_size(name: str) -> float | None:
    """The size a name states: total parameters (14B), else the effective size of an `E2B`-style name."""
    from lmscreen.model.names import decode

    d = decode(name)
    return d.total_params_b if d.source.get("total_params_b") == "name" else d.effective_params_b


def _period(kinds: list[Any]) -> list[Any]:
    """The shortest repeating unit of a per-layer list (layer_types), for tiling it to another depth."""
    for n in range(1, len(kinds) + 1):
        if all(kinds[i] == kinds[i % n] for i in range(len(kinds))):
            return kinds[:n]
    return kinds


def _round(value: float, step: int) -> int:
    return max(step, int(round(value / step)) * step)


def scaled_config(config: dict[str, Any], factor: float) -> dict[str, Any]:
    """`config` (a template's config.json) scaled to `factor` × its size: the module docstring's rules."""
    from lmscreen.model.arch.config import text_part

    if abs(factor - 1) < 0.05:
        return dict(config)
    cfg = dict(text_part(config))
    s = factor ** (1 / 3)
    h = int(cfg.get("hidden_size") or 0)
    layers = int(cfg.get("num_hidden_layers") or 0)
    heads = int(cfg.get("num_attention_heads") or 0)
    if not (h and layers and heads):
        return dict(config)
    head = int(cfg.get("head_dim") or h // heads)
    kv = int(cfg.get("num_key_value_heads") or heads)
    new_h = _round(h * s, 128)
    new_layers = max(1, round(layers * s))
    new_heads = max(1, round(heads * new_h / h))
    group = max(1, heads // kv)
    new_heads = max(group, new_heads // group * group)
    cfg.update(
        hidden_size=new_h,
        num_hidden_layers=new_layers,
        num_attention_heads=new_heads,
        num_key_value_heads=max(1, new_heads // group),
        head_dim=head if cfg.get("head_dim") else None,
    )
    for key in ("intermediate_size", "moe_intermediate_size", "shared_expert_intermediate_size"):
        if isinstance(cfg.get(key), int) and cfg[key]:
            cfg[key] = _round(cfg[key] * new_h / h, 128)
    if isinstance(cfg.get("layer_types"), list) and cfg["layer_types"]:
        unit = _period(cfg["layer_types"])
        cfg["layer_types"] = [unit[i % len(unit)] for i in range(new_layers)]
    for key in ("num_kv_shared_layers", "first_k_dense_replace", "max_window_layers"):
        if isinstance(cfg.get(key), int) and cfg[key]:
            cfg[key] = max(0, round(cfg[key] * new_layers / layers))
    if cfg.get("head_dim") is None:
        cfg.pop("head_dim")
    out = {k: v for k, v in config.items() if k not in ("text_config", "llm_config", "language_config")}
    out.pop("vision_config", None)  # a tower is not scaled with the language model; none is assumed
    out.update(cfg)
    return out


def _with_tie(config: dict[str, Any], tie: bool | None) -> dict[str, Any]:
    """`config` with its embeddings tied or untied (top level and text part) when `tie` says."""
    if tie is None or bool(config.get("tie_word_embeddings")) == tie:
        return config
    config = {**config, "tie_word_embeddings": tie}
    for key in ("text_config", "llm_config", "language_config"):
        if isinstance(config.get(key), dict):
            config[key] = {**config[key], "tie_word_embeddings": tie}
    return config


FIT_TOLERANCE = 0.15
"""A scaled layout whose parameter count misses the name's size by more than this is rescaled: the cube-root
rule is exact for depth and width but not for the embedding share, which grows as a model shrinks (a 27 B
layout scaled ×0.03 kept 1.43 B parameters for Qwen3.5-0.8B)."""


def _fitted_config(
    template: dict[str, Any], factor: float, size_b: float, tie: bool | None, name: str, *, fit: bool = True
) -> dict[str, Any]:
    """The template scaled by `factor`, then, when its parameter count is more than FIT_TOLERANCE away from
    the size the name states, by the factor (found by bisection) whose layout has that many parameters. An
    `E2B`-style size is effective, not total (the per-layer tables come on top), so it is not fitted."""
    from lmscreen.model.arch.config import spec_from_config

    config = _with_tie(scaled_config(template, factor), tie)
    if abs(factor - 1) < 0.05 or not fit:
        return config

    def count(cfg: dict[str, Any]) -> float:
        return (spec_from_config(cfg, name).total_params or 0) / 1e9

    if abs(count(config) / size_b - 1) <= FIT_TOLERANCE:
        return config
    lo, hi = factor / 64, factor * 64
    for _ in range(40):
        mid = math.sqrt(lo * hi)
        candidate = _with_tie(scaled_config(template, mid), tie)
        if count(candidate) > size_b:
            hi = mid
        else:
            lo = mid
        if hi / lo < 1.01:
            break
    return _with_tie(scaled_config(template, math.sqrt(lo * hi)), tie)


SIZE_TIERS = ("nano", "micro", "tiny", "mini", "small", "medium", "large")
"""Words releases use for a size class (granite-4.0-h-tiny is 7 B, -small 32 B; Phi-3-mini 3.8 B): no
parameter count can be read from them, so a name with only such a word is refused, saying so."""


def _size_tier(name: str) -> str | None:
    words = re.findall(r"[a-z]+", name.lower().rsplit("/", 1)[-1])
    return next((w for w in words if w in SIZE_TIERS), None)


def spec_from_name(name: str, *, exclude: frozenset[str] = frozenset()) -> ModelSpec:
    """Estimate the architecture of `name` from the catalog model it most resembles; InputError if none.

    The size and quantization come from the name (source `name`); the layout is the template's scaled to that
    size, every field marked as an estimate. `exclude` leaves catalog ids out of the template choice (tests
    check the scaling against a model the catalog holds).
    """
    from lmscreen.model.arch.config import spec_from_config
    from lmscreen.model.names import decode

    decoded = decode(name)
    size_b = _name_size(name)
    if size_b is None:
        tier = _size_tier(name)
        said = f"'{tier}' is a tier name, not a parameter count" if tier else "the name states no size"
        raise InputError(
            f"{name!r}: no config.json on disk, no catalog entry, and {said}, so its size is unknown; "
            "pass the model folder or its config.json"
        )
    effective = decoded.source.get("total_params_b") != "name"
    active_b = decoded.active_params_b if decoded.active_params_b is not None else size_b
    moe = active_b < size_b * 0.9 or decoded.experts is not None
    template = _template(name, decoded.family, size_b, moe, exclude)
    if template is None:
        raise InputError(
            f"{name!r}: no config.json on disk, not in the catalog, and no catalog model of family "
            f"{decoded.family or '?'!r} to estimate its layout from; pass the model folder or its config.json"
        )
    template_size = _name_size(template.id) or template.total_params_b
    factor = size_b / template_size
    tie = _tied_like_its_size(template, size_b) if abs(factor - 1) >= 0.05 else None
    config = _fitted_config(template.config, factor, size_b, tie, name, fit=not effective)
    spec = spec_from_config(config, name)
    like = f"{ESTIMATE}: like {template.id}" + (f" scaled ×{factor:.2f}" if abs(factor - 1) >= 0.05 else "")
    spec.sources = {field: like for field in spec.sources}
    if not spec.total_params:
        spec.total_params = round(size_b * 1e9)
    if abs(factor - 1) < 0.05 and template.total_params_b:
        # the template itself at the size the name states: its published counts
        spec.total_params = round(template.total_params_b * 1e9)
        spec.active_params = round(template.active_params_b * 1e9)
    if moe and decoded.active_params_b is not None and spec.total_params:
        spec.active_params = min(spec.total_params, round(decoded.active_params_b * 1e9))
    elif not moe:
        spec.active_params = spec.total_params
    spec.sources["total_params"] = spec.sources["active_params"] = f"{like} (the name says {size_b:g} B"
    spec.sources["total_params"] += " effective)" if effective else ")"
    spec.sources["active_params"] += ")"
    if decoded.quantization and decoded.quantization != "gguf":
        spec.quantization = decoded.quantization
        spec.quantization_bits = decoded.quantization_bits
        spec.sources["quantization"] = "name"
    else:
        spec.quantization = None
        spec.quantization_bits = None
    if _LLAVA_NAME.search(name.split("/")[-1]) and not spec.vision_params:
        # a llava release is its language model plus the CLIP ViT-L/14-336 tower (arch.vision)
        from lmscreen.model.arch.vision import llava_tower_params

        tower = llava_tower_params(spec.hidden_size)
        spec.vision_params = tower
        spec.total_params = (spec.total_params or 0) + tower
        spec.is_vision = True
        spec.sources["vision_params"] = "estimate: the CLIP ViT-L/14-336 tower of every LLaVA-1.5/1.6 release"
    same_release = _release_sibling(name, size_b)
    if same_release is not None and same_release.max_context:
        spec.max_position_embeddings = same_release.max_context
        spec.sources["max_position_embeddings"] = f"{ESTIMATE}: like {same_release.id} (same release)"
    if decoded.context_hint and decoded.source.get("context_hint") == "name":
        spec.max_position_embeddings = decoded.context_hint
        spec.sources["max_position_embeddings"] = "name"
    spec.notes.append(
        f"no config.json found: layout estimated from {template.id} ({template_size:g} B) scaled to the "
        f"name's {size_b:g} B ({(spec.total_params or 0) / 1e9:.2f} B parameters with embeddings); pass the "
        "model folder or config.json for exact numbers"
    )
    return spec
