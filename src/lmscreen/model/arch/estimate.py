"""A ModelSpec from a model's name alone, for a model with no config.json on disk and no catalog entry.

The name says the size (14B, A3B) and often the base family (DeepSeek-R1-Distill-**Qwen**-14B); the layer
layout it does not say. So the layout is borrowed from the catalog model of the same family nearest in size,
and every field borrowed is recorded as an estimate (`sources[field] = "estimate: like <catalog id>"`), so
that a plan or launch line built on it says so. Nothing is downloaded.
"""

from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING

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
    m = re.search(r"(?i)(?:^|[-_])(?:\d+x)?\d+(?:\.\d+)?[bm](?=$|[-_.])", short)
    return short[: m.start() + 1].lower() if m else ""


_PLAIN = ("llama", "qwen2", "qwen3", "mistral", "qwen3_moe", "mixtral")
"""model_types with a plain layout (full attention on every layer, GQA): default for unknown families."""


def _moe(entry: CatalogEntry) -> bool:
    return entry.active_params_b < entry.total_params_b * 0.9


def _template(name: str, family: str | None, total_b: float, moe: bool) -> CatalogEntry | None:
    """The catalog model whose layout a nameless-config model most likely shares.

    Siblings (catalog ids that start like the name up to its size) give the architecture class
    (`model_type`: a Qwen-based distill is `qwen2`); among catalog models of that class, or else of the
    same family, or else of any family, the nearest in size (log scale, MoE with MoE) is the template.
    """
    from lmscreen.model.catalog.models import all_models

    def distance(entry: CatalogEntry) -> float:
        gap = abs(math.log(entry.total_params_b) - math.log(total_b))
        return gap + (10.0 if _moe(entry) != moe else 0.0)

    entries = all_models()
    prefix = _size_prefix(name)
    siblings = [e for e in entries if prefix and e.name.lower().startswith(prefix)]
    pool: list[CatalogEntry] = []
    if siblings:
        model_type = min(siblings, key=distance).config.get("model_type")
        pool = [e for e in entries if model_type and e.config.get("model_type") == model_type]
        pool = pool or siblings
    elif family:
        pool = [e for e in entries if re.sub(r"[-\d.]+$", "", e.family.lower()) == family.lower()]
    if not pool:  # a family the catalog lacks: the nearest-size plain (Llama-style) layout
        pool = [e for e in entries if e.config.get("model_type") in _PLAIN] or list(entries)
    return min(pool, key=distance) if pool else None


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


def spec_from_name(name: str) -> ModelSpec:
    """Estimate the architecture of `name` from the catalog model it most resembles; InputError if none.

    total/active parameters and quantization come from the name (source `name`); everything else is an
    estimate borrowed from the template and marked so.
    """
    from lmscreen.model.arch.config import spec_from_config
    from lmscreen.model.names import decode

    decoded = decode(name)
    if decoded.total_params_b is None:
        raise InputError(
            f"{name!r}: no config.json on disk, no catalog entry, and the name states no size; "
            "pass the model folder or its config.json"
        )
    total_b = decoded.total_params_b
    active_b = decoded.active_params_b if decoded.active_params_b is not None else total_b
    moe = active_b < total_b * 0.9 or decoded.experts is not None
    template = _template(name, decoded.family, total_b, moe)
    if template is None:
        raise InputError(
            f"{name!r}: no config.json on disk, not in the catalog, and no catalog model of family "
            f"{decoded.family or '?'!r} to estimate its layout from; pass the model folder or its config.json"
        )
    spec = spec_from_config(template.config, name)
    like = f"{ESTIMATE}: like {template.id}"
    spec.sources = {field: like for field in spec.sources}
    spec.total_params = round(total_b * 1e9)
    spec.active_params = round(active_b * 1e9)
    spec.sources["total_params"] = spec.sources["active_params"] = "name"
    if decoded.quantization and decoded.quantization != "gguf":
        spec.quantization = decoded.quantization
        spec.quantization_bits = decoded.quantization_bits
        spec.sources["quantization"] = "name"
    else:
        spec.quantization = None
        spec.quantization_bits = None
    same_release = _release_sibling(name, total_b)
    if same_release is not None and same_release.max_context:
        spec.max_position_embeddings = same_release.max_context
        spec.sources["max_position_embeddings"] = f"{ESTIMATE}: like {same_release.id} (same release)"
    if decoded.context_hint and decoded.source.get("context_hint") == "name":
        spec.max_position_embeddings = decoded.context_hint
        spec.sources["max_position_embeddings"] = "name"
    scale = total_b / template.total_params_b
    spec.notes.append(
        f"no config.json found: layers, heads and context estimated from {template.id} "
        f"({template.total_params_b:g} B, {scale:.2f}× the size); pass the model folder or config.json "
        "for exact numbers"
    )
    return spec
