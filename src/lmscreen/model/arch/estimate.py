"""A ModelSpec from a model's name alone, for a model with no config.json on disk and no catalog entry.

The name says the size (14B, A3B, E2B) and often the base family (DeepSeek-R1-Distill-**Qwen**-14B); the layer
layout it does not say. So the layout is borrowed from a catalog model (`_template`: the name's own line
first, then its family at the nearest version, the family a derived one was built from, any version, a family
the name mentions, else a generic plain layout, said so in the estimate's source; within a level the model of
the name's kind nearest in size, and a nearer model of the same architecture past a ×1.5 scale) and *scaled*
to the size the name states: hidden size and depth by the cube root of the size ratio (rounded
the way the families round them), heads with the hidden size at the template's head size and GQA ratio, MLP
widths with the hidden size; vocabulary, tied embeddings, attention pattern and experts stay the template's.
The parameter count then comes from the scaled layout, embeddings included, so `Qwen2-7B` is planned as the
7.6 B model it is (14.2 GiB in bf16, as vLLM loads it) and not as 7 × 10⁹ × 2 bytes. A name whose size equals
the template's keeps the template's layout unchanged; one scaled far (Qwen3.5-0.8B from the 27B) is rescaled
until its count is the name's, with its embeddings tied or untied as the publisher's catalog models of that
size have them, because the embedding share grows as a model shrinks. Templates are publishers' own releases,
never another exporter's quantized copy. The vision tower follows the name, not the template (`_tower_for`): a
VL / Vision / -V / Omni name carries its line's tower, a plain name one only where its line's plain names do
(Gemma 3, Qwen3.5); a llava name adds the CLIP tower, and a vision name at its text sibling's size whose line
has no vision model in the catalog the SigLIP so400m one (`_add_default_tower`). Every borrowed field is
recorded as an estimate (`sources[field] = "estimate: like <catalog id>"`), so that a plan or launch line
built on it says so. Nothing is downloaded.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

from lmscreen.errors import InputError
from lmscreen.model.arch.vision import SIGLIP_SO400M_TOWER as SIGLIP
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


_SIZE_TOKEN = re.compile(r"(?i)(?:^|[-_])(?:\d+x|e)?\d+(?:\.\d+)?[bmt](?=$|[-_.])")


_PLAIN = ("llama", "qwen2", "qwen3", "mistral", "qwen3_moe", "mixtral")
"""model_types with a plain layout (full attention on every layer, GQA): default for unknown families."""


_VISION_NAME = re.compile(
    r"(?i)(?:^|[-_/])(?:vl|llava|vision|omni)(?=$|[-_.\d])|(?:^|[-_/])v(?=$|[-_])"
    r"|\dv(?=$|[-_])|[a-z]vl(?=\d|$|[-_])"
)
"""Names that carry a vision tower: `Qwen2-VL-7B`, `llava-v1.6-mistral-7b`, `Llama-3.2-11B-Vision`,
`MiniCPM-V-2_6`, `GLM-4.1V-9B`, `InternVL3-8B`, `Qwen2.5-Omni-7B`."""


_LLAVA_NAME = re.compile(r"(?i)(?:^|[-_/])llava(?:-v?1\.[56]|-next)?(?=$|[-_.])(?!.*onevision)")
"""LLaVA-1.5 / LLaVA-NeXT names (`llava-v1.6-mistral-7b-hf`, `llava-1.5-13b-hf`); OneVision uses SigLIP."""


_MODALITY_TOKENS = frozenset({"vl", "vision", "v", "omni"})


def _line(name: str) -> tuple[str, ...] | None:
    """A name's line: its words before the size, without a modality word or a leading `Meta`, lower case.
    `Qwen2.5-VL-72B-Instruct` and `Qwen2.5-72B` are both ('qwen2.5',) (a VL release's language model is its
    line's text model); `Ministral-8B-Instruct-2410` is ('ministral',), `Ministral-3-3B-Reasoning-2512`
    ('ministral', '3'): another line. None when the name states no size."""
    short = name.split("/")[-1]
    m = _SIZE_TOKEN.search(short)
    if not m:
        return None
    words = [w for w in re.split(r"[-_\s]+", short[: m.start()].lower()) if w and w not in _MODALITY_TOKENS]
    if words and words[0] == "meta" and len(words) > 1:
        words = words[1:]
    return tuple(words) or None


_LINEAGE: dict[str, tuple[str, str | None, str]] = {
    "vicuna": ("llama", "2", "Vicuna v1.5 is fine-tuned from Llama 2 (lmsys model cards)"),
    "codegemma": ("gemma", None, "CodeGemma is built on Gemma (Google's model card)"),
    "medgemma": ("gemma", "3", "MedGemma is built on Gemma 3 (Google's model card)"),
    "shieldgemma": ("gemma", "2", "ShieldGemma is built on Gemma 2 (Google's model card)"),
    "ministral": (
        "mistral",
        None,
        "Ministral 8B (2410) is a Mistral-style dense text model; Ministral 3 is "
        "another line (a vision model)",
    ),
    "codestral": ("mistral", None, "Codestral is a Mistral-architecture model"),
    "mathstral": ("mistral", None, "Mathstral is built on Mistral 7B"),
    "magistral": ("mistral", None, "Magistral Small is built on Mistral Small 3.1 (Mistral's model card)"),
    "devstral": (
        "mistral",
        None,
        "Devstral Small is fine-tuned from Mistral Small 3.1 (Mistral's model card)",
    ),
    "yi": ("llama", None, "Yi's config.json is LlamaForCausalLM"),
    "tinyllama": ("llama", None, "TinyLlama is a Llama-2-architecture model"),
}
"""Families the catalog has no model of, and the family whose layout they were built from (version None:
any version of it); what the note says of each."""


@cache
def _decoded_family(entry_id: str) -> tuple[str | None, str | None]:
    """(family, version) a catalog id's own name says, decoded the way a user's name is."""
    from lmscreen.model.names import decode

    d = decode(entry_id)
    return d.family, d.version


def _version_gap(wanted: str | None, have: str | None) -> float:
    """How far apart two versions are: 0 when equal (or both unstated), the numeric gap for dotted numbers,
    infinity when only one is stated or they are not comparable."""
    if wanted is None or have is None:
        return 0.0 if wanted is None and have is None else math.inf
    if wanted.lower() == have.lower():
        return 0.0
    try:
        return abs(float(wanted) - float(have))
    except ValueError:
        return math.inf


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


def _has_tower(entry: CatalogEntry) -> bool:
    return isinstance(entry.config.get("vision_config"), dict) and bool(entry.config["vision_config"])


def _derived(entry: CatalogEntry) -> bool:
    """A specialised or distilled release (CodeLlama, a Coder, an R1 distill): a generic layout is better
    taken from the base model of the same size."""
    return bool(re.search(r"(?i)code|coder|math|distill", entry.name))


@cache
def _hybrid(entry_id: str) -> bool:
    """Whether a catalog model has linear-attention (gated delta, Mamba, KDA) layers: a layout that holds a
    fraction of the KV of a plain one, never borrowed by a line that has none."""
    from lmscreen.model.arch.config import spec_from_config
    from lmscreen.model.catalog.models import lookup

    entry = lookup(entry_id)
    return bool(entry and spec_from_config(entry.config, entry.id).linear_attention is not None)


@cache
def _effective_sized(name: str) -> bool:
    """An `E2B`-style name (Gemma 3n / 4: per-layer embedding tables on top of the effective size)."""
    from lmscreen.model.names import decode

    d = decode(name)
    return d.effective_params_b is not None and d.source.get("total_params_b") != "name"


@dataclass
class _Choice:
    """The catalog model a name's layout is borrowed from, and why."""

    entry: CatalogEntry
    level: str
    """line | family | lineage | named | generic"""
    why: str | None = None
    """Said in the estimate's source (and so in the plan's warning) when the name's own family is not in
    the catalog."""


def _template(
    name: str, family: str | None, version: str | None, total_b: float, moe: bool, exclude: frozenset[str]
) -> _Choice | None:
    """The catalog model whose layout a nameless-config model most likely shares.

    Levels, narrowest first: the name's own line (same words before the size, e.g. every `Qwen2.5-…B`,
    vision releases included since their language model is the line's text model); the same family at the
    nearest version (granite-3.1 → granite-3.3); the family a derived family was built from (vicuna → Llama
    2, medgemma → Gemma 3); the same family at any version; a catalog family the name mentions (llava-…-
    mistral); else a generic plain (Llama-style) layout of the stated size. The first level with a model of
    the name's kind (MoE with MoE, dense with dense) gives the template: its model nearest in size (log
    scale), the publisher's own release before a quantized copy; so a model is never scaled from a farther
    size or another line when a nearer one of its own line exists, whatever towers the candidates carry
    (the tower follows the name, `_tower_for`).
    """
    from lmscreen.model.catalog.models import all_models

    entries = [e for e in all_models() if e.id not in exclude]

    def size_gap(entry: CatalogEntry) -> float:
        return _size_gap(entry, total_b)

    vision_name = bool(_VISION_NAME.search(name.split("/")[-1]))
    effective = _effective_sized(name)

    def best(pool: list[CatalogEntry]) -> CatalogEntry:
        # an E2B-style name with its kind first; then the size; on a tie the publisher's own release, the
        # modality the name implies (Qwen3-30B-A3B before Qwen3-VL-30B-A3B for a text name), a base model
        return min(
            pool,
            key=lambda e: (
                _effective_sized(e.id) != effective,
                size_gap(e),
                _quantized(e),
                _has_tower(e) != vision_name,
                _derived(e),
            ),
        )

    levels: list[tuple[str, list[CatalogEntry], str | None]] = []
    line = _line(name)
    if line:
        levels.append(("line", [e for e in entries if _line(e.id) == line], None))
    fam = (family or "").lower()
    if fam:
        same = [e for e in entries if (_decoded_family(e.id)[0] or "") == fam]
        gaps = {e.id: _version_gap(version, _decoded_family(e.id)[1]) for e in same}
        for kind in (moe, not moe):  # the nearest version that has a model of the name's kind
            finite = [gaps[e.id] for e in same if gaps[e.id] < math.inf and _moe(e) == kind]
            if finite:
                levels.append(("family", [e for e in same if gaps[e.id] == min(finite)], None))
                break
        if fam in _LINEAGE:
            base, base_version, why = _LINEAGE[fam]
            pool = [
                e
                for e in entries
                if (_decoded_family(e.id)[0] or "") == base
                and (base_version is None or _version_gap(base_version, _decoded_family(e.id)[1]) == 0)
            ]
            levels.append(("lineage", pool, f"the catalog has no {family} model of this line; {why}"))
        levels.append(("family", same, None))
        named = _named_family(name, fam)
        if named:
            levels.append(("named", [e for e in entries if _decoded_family(e.id)[0] == named], None))
    generic = [e for e in entries if e.config.get("model_type") in _PLAIN]
    kind_word = "MoE" if moe else "dense"
    known = fam and any((_decoded_family(e.id)[0] or "") == fam for e in entries)
    unknown = f"no {family} model of this kind" if known else f"no {family or 'such'} model"
    levels.append(
        (
            "generic",
            generic or list(entries),
            f"the catalog knows {unknown}: a generic {kind_word} layout of the stated size",
        )
    )
    if line and levels[0][0] == "line" and levels[0][1] and not any(_hybrid(e.id) for e in levels[0][1]):
        # a line with plain attention only never borrows linear-attention layers from elsewhere
        # (Qwen2-57B-A14B takes a Qwen3 MoE, not Qwen3-Next's gated-delta layout)
        levels = levels[:1] + [
            (lv, [e for e in pool if not _hybrid(e.id)], why) for lv, pool, why in levels[1:]
        ]
    levels = [(level, pool, why) for level, pool, why in levels if pool]
    if not levels:
        return None
    for i, (level, pool, why) in enumerate(levels):
        kind = [e for e in pool if _moe(e) == moe]
        if not kind:
            continue
        choice = _Choice(best(kind), level, why)
        if size_gap(choice.entry) <= math.log(MAX_SCALE):
            return choice
        # scaled far: a nearer model of the same architecture at a broader level is the better template
        # (Llama-3.1-8B without its entries: Llama-3-8B, not the 70B ×0.11; R1-Distill-Qwen-14B: Qwen2.5-14B)
        model_type = _layout_key(choice.entry.config)[0]
        alike = [
            (e, other)
            for other in levels[i + 1 :]
            for e in other[1]
            if _moe(e) == moe
            and _layout_key(e.config)[0] == model_type
            and size_gap(e) < size_gap(choice.entry)
        ]
        if not alike:
            return choice
        # within the bound, the nearest version first (Llama-3.2-11B: Llama-3.1-8B, not Llama-2-13b)
        near, other = min(
            alike,
            key=lambda pair: (
                size_gap(pair[0]) > math.log(MAX_SCALE),
                _version_gap(version, _decoded_family(pair[0].id)[1]),
                size_gap(pair[0]),
                _quantized(pair[0]),
                _derived(pair[0]),
            ),
        )
        # the level's own reason stands: a nearer model of the same architecture is no other family's
        return _Choice(near, choice.level, choice.why)
    level, pool, why = levels[0]
    return _Choice(best(pool), level, why)


MAX_SCALE = 1.5
"""A template scaled by more than this (either way) gives way to a model of the same architecture nearer the
name's size found at a broader level (the same family at another version, the family a name mentions)."""


def _named_family(name: str, own: str) -> str | None:
    """A catalog family named inside a name beside its own (`llava-v1.6-mistral-7b-hf` → mistral)."""
    known = {_decoded_family(e.id)[0] for e in _all()}
    for token in re.split(r"[-_/.]", name.lower().split("/")[-1])[1:]:
        key = re.sub(r"[\d.]+$", "", token)
        if key and key != own and key in known:
            return key
    return None


def _all() -> list[CatalogEntry]:
    from lmscreen.model.catalog.models import all_models

    return all_models()


def _size_gap(entry: CatalogEntry, total_b: float) -> float:
    """How far a catalog model's size is from `total_b`, on a log scale (its name's size, else its count)."""
    size = _name_size(entry.id) or entry.total_params_b
    return abs(math.log(size) - math.log(total_b))


def _quantized(entry: CatalogEntry) -> bool:
    return bool(entry.config.get("quantization_config") or entry.quant_source)


def _layout_key(config: dict[str, Any]) -> tuple[Any, ...]:
    from lmscreen.model.arch.config import text_part

    cfg = text_part(config)
    return (
        cfg.get("model_type"),
        cfg.get("num_hidden_layers"),
        cfg.get("hidden_size"),
        cfg.get("vocab_size"),
    )


def _publisher_layout(entry: CatalogEntry, exclude: frozenset[str]) -> tuple[CatalogEntry, dict[str, Any]]:
    """A quantized template's layout as its publisher's unquantized release has it: the catalog model with the
    same layer layout and no quantization (nvidia's or Inferact's NVFP4 copy of a 27B → Qwen's own 27B), else
    its own config without the quantization (which layers an exporter keeps wide is its own choice; the name's
    format is applied to the estimate anyway)."""
    if not _quantized(entry):
        return entry, entry.config
    key = _layout_key(entry.config)
    for other in _all():
        if other.id not in exclude and not _quantized(other) and _layout_key(other.config) == key:
            return other, other.config
    config = {k: v for k, v in entry.config.items() if k != "quantization_config"}
    for inner in ("text_config", "llm_config", "language_config"):
        if isinstance(config.get(inner), dict):
            config[inner] = {k: v for k, v in config[inner].items() if k != "quantization_config"}
    return entry, config


def _tower_for(
    name: str,
    template: CatalogEntry,
    family: str | None,
    version: str | None,
    total_b: float,
    exclude: frozenset[str],
) -> CatalogEntry | None:
    """The catalog model whose vision tower the named model carries, or None for a text model.

    The tower follows the name, not the template: a name that says VL / Vision / -V / Omni has one; a name
    that says none has one when the template's line is multimodal in its unmarked names (gemma-3-4b-it,
    Qwen3.5-9B), judged by the unmarked model of that line nearest in size, and none where the line marks its
    vision releases by name (Qwen2-7B beside Qwen2-VL-7B). The tower is that of the nearest-size vision
    model of the template's line, else (a vision name only) of the same family at the nearest version of the
    same major release (Qwen2-VL → Qwen2.5-VL's): a line's towers are one size (Qwen2.5-VL's is 0.68 B from
    3B to 72B)."""
    from lmscreen.model.catalog.models import all_models

    short = name.split("/")[-1]
    if _LLAVA_NAME.search(short):
        return None  # the CLIP tower (spec_from_name)
    entries = [e for e in all_models() if e.id not in exclude]
    line = _line(template.id)
    members = [e for e in entries if line and _line(e.id) == line] or [template]

    def by_size(entry: CatalogEntry) -> tuple[float, bool]:
        return _size_gap(entry, total_b), _quantized(entry)

    vision_name = bool(_VISION_NAME.search(short))
    if re.search(r"(?i)(?:^|[-_])text(?=$|[-_])", short):
        return None  # medgemma-27b-text-it: the text-only release of a multimodal line
    if not vision_name:
        unmarked = [e for e in members if not _VISION_NAME.search(e.name)]
        if not unmarked or not _has_tower(min(unmarked, key=by_size)):
            return None
    towers = [e for e in members if _has_tower(e)]
    if not towers and vision_name and family:
        fam = family.lower()

        def major(v: str | None) -> str | None:
            return v.split(".")[0] if v else None

        same = [
            e
            for e in entries
            if _has_tower(e)
            and _decoded_family(e.id)[0] == fam
            and major(_decoded_family(e.id)[1]) == major(version)
            and _version_gap(version, _decoded_family(e.id)[1]) < math.inf
        ]
        if same:
            gap = min(_version_gap(version, _decoded_family(e.id)[1]) for e in same)
            towers = [e for e in same if _version_gap(version, _decoded_family(e.id)[1]) == gap]
    return min(towers, key=by_size) if towers else None


def _with_tower(config: dict[str, Any], tower: CatalogEntry | None) -> dict[str, Any]:
    """`config` (flat or nested) with the vision tower of `tower` (its projector sized to this model's
    width), or with none."""
    from lmscreen.model.arch.config import text_part

    out = {k: v for k, v in config.items() if k != "vision_config"}
    if tower is None:
        return out
    vision = dict(tower.config["vision_config"])
    hidden = text_part(config).get("hidden_size")
    if hidden:
        for key in ("out_hidden_size", "text_hidden_size"):
            if key in vision:
                vision[key] = hidden
        if "embed_dim" in vision and "hidden_size" in vision:  # Qwen2-VL: hidden_size is the merger's output
            vision["hidden_size"] = hidden
    out["vision_config"] = vision
    return out


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


@cache
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
    out.update(cfg)
    out.pop("vision_config", None)  # a tower is not scaled with the language model (spec_from_name adds one)
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
parameter count can be read from them, so a name with only such a word takes the size of the catalog model of
its family with the same word (`_tier_sibling`), and is refused, saying so, where there is none."""


def _size_tier(name: str) -> str | None:
    words = re.findall(r"[a-z]+", name.lower().rsplit("/", 1)[-1])
    return next((w for w in words if w in SIZE_TIERS), None)


def _tier_sibling(
    name: str, family: str | None, version: str | None, tier: str, exclude: frozenset[str]
) -> CatalogEntry | None:
    """For a name sized by a tier word only: the catalog model of its family (or of the family it derives
    from) with the same word, the nearest version of the same major release first (Phi-3-mini → Phi-3.5-mini,
    Phi-4-mini-reasoning → Phi-4-mini-instruct, Magistral-Small → a Mistral Small). A tier is the publisher's
    size class, so no other family's tier, and no other major version's, is taken for it."""
    from lmscreen.model.catalog.models import all_models

    fam = (family or "").lower()
    families = {fam, *([_LINEAGE[fam][0]] if fam in _LINEAGE else [])}

    def gap(entry: CatalogEntry) -> float:
        have = _decoded_family(entry.id)[1]
        if version is None:
            return 0.0
        if have is None or version.split(".")[0] != have.split(".")[0]:
            return math.inf
        return _version_gap(version, have)

    same = [
        e
        for e in all_models()
        if e.id not in exclude
        and _decoded_family(e.id)[0] in families
        and tier in re.findall(r"[a-z]+", e.name.lower())
        and gap(e) < math.inf
    ]
    return min(same, key=lambda e: (gap(e), _quantized(e), _has_tower(e)), default=None)


_VARIANT_WORDS = frozenset({"base", "instruct", "it", "chat", "hf"})


def _release_words(model_id: str) -> tuple[str, ...]:
    """A model name's words, lower case, without the variant words (`Mistral-Nemo-Base-2407` and
    `Mistral-Nemo-Instruct-2407` are both ('mistral', 'nemo', '2407'))."""
    words = re.split(r"[-_\s]+", model_id.split("/")[-1].lower())
    return tuple(w for w in words if w and w not in _VARIANT_WORDS)


def _twin(name: str, exclude: frozenset[str]) -> CatalogEntry | None:
    """For a name that states no size: the catalog model it is a base / instruct twin of, same words but the
    variant (`Mistral-Nemo-Base-2407` → Mistral-Nemo-Instruct-2407): one architecture, one size."""

    wanted = _release_words(name)
    same = [e for e in _all() if e.id not in exclude and _release_words(e.id) == wanted]
    return min(same, key=_quantized, default=None)


def _org(model_id: str) -> str:
    return model_id.split("/")[0].lower() if "/" in model_id else ""


def _point_release(name: str, exclude: frozenset[str]) -> CatalogEntry | None:
    """For a name that states no size: another point release of the same line in the catalog, when every such
    release there has one layout (`MiniMax-M2`, `MiniMax-M2.1` → MiniMax-M2.5; M2.5 and M2.7 share it), the
    nearest point first. A vendor's point releases of a line keep its architecture: MiniMax-M2, M2.1 and M2.5
    are all the 230 B / 10 B-active MoE (transformers' minimax_m2 model doc; sglang's MiniMax M2.1/M2 guide:
    'only update the model name'); a line whose releases in the catalog differ in layout is left alone."""

    def line_point(word: str) -> tuple[str, int] | None:
        m = re.fullmatch(r"(.*?\d+)(?:\.(\d+))?", word)
        return (m.group(1), int(m.group(2) or 0)) if m else None

    from lmscreen.model.names import without_quantization

    # a re-quantized release (`mratsim/MiniMax-M2.1-FP8-INT4-AWQ`, `nvidia/MiniMax-M2.5-NVFP4`) is its base
    # release's line point: the format words are the exporter's, not the line's
    wanted = _release_words(without_quantization(name))
    own = line_point(wanted[-1]) if wanted else None
    if own is None:
        return None
    same = []
    for entry in _all():
        have = _release_words(without_quantization(entry.id))
        if entry.id in exclude or len(have) != len(wanted) or have[:-1] != wanted[:-1]:
            continue
        if (theirs := line_point(have[-1])) is not None and theirs[0] == own[0] and theirs[1] != own[1]:
            same.append((abs(theirs[1] - own[1]), entry))
    layouts = {_layout_key(_publisher_layout(e, exclude)[1]) for _, e in same}
    if len(layouts) != 1:
        return None
    return min(same, key=lambda t: (t[0], _quantized(t[1])))[1]


def _add_default_tower(spec: ModelSpec) -> None:
    """Give a vision-named model whose line the catalog holds no vision model of (granite-vision-3.3-2b beside
    the text-only granite-3.3-2b-instruct) the SigLIP so400m tower and a two-layer projector, on top of the
    language model its name sizes, as a llava name gets its CLIP tower: the name says it has a tower, and
    planning none (what the text template has) leaves ~0.8 GiB of bf16 weights out. Only for a name whose
    size is its text template's own: a size the layout was scaled to already counts the whole model."""
    from lmscreen.model.arch.vision import projected_tower_params

    tower = projected_tower_params(SIGLIP, spec.hidden_size)
    spec.vision_params = tower
    spec.total_params = (spec.total_params or 0) + tower
    spec.is_vision = True
    spec.sources["vision_params"] = (
        f"{ESTIMATE}: a vision name with no vision model of its line in the catalog: the SigLIP so400m/14 "
        "tower most open vision-language lines carry"
    )


_OMNI_NAME = re.compile(r"(?i)(?:^|[-_/])omni(?=$|[-_.\d])")
"""Omni names (`Qwen2.5-Omni-7B`): a thinker that hears as well as sees."""


def _add_omni_audio(spec: ModelSpec) -> None:
    """Give an Omni-named model whose template has no audio tower (Qwen2.5-Omni-7B estimated like
    Qwen2.5-VL-7B) the Whisper-style encoder of Qwen2.5-Omni's thinker, projected to its width: vLLM loads the
    thinker's audio tower with its vision tower (16.74 GiB logged for Qwen2.5-Omni-7B at 0.10.2, where the VL
    sibling's layout holds 15.56). Only where the name's size is its template's own (`_add_default_tower`)."""
    from lmscreen.model.arch.audio import QWEN_OMNI_AUDIO, audio_params

    audio = audio_params(QWEN_OMNI_AUDIO, spec.hidden_size)
    spec.audio_params = audio
    spec.total_params = (spec.total_params or 0) + audio
    spec.sources["audio_params"] = (
        f"{ESTIMATE}: an Omni name: the Whisper-style audio encoder of Qwen2.5-Omni's thinker (32 x 1280)"
    )


def spec_from_name(name: str, *, exclude: frozenset[str] = frozenset()) -> ModelSpec:
    """Estimate the architecture of `name` from the catalog model it most resembles; InputError if none.

    The size and quantization come from the name (source `name`); the layout is the template's scaled to that
    size, every field marked as an estimate. `exclude` leaves catalog ids out of the template choice (tests
    check the scaling against a model the catalog holds).
    """
    from lmscreen.model.arch.config import spec_from_config
    from lmscreen.model.names import decode

    decoded = decode(name)
    if decoded.catalog_id in exclude:  # an excluded entry is absent: none of its fields fill the name's
        for key in [k for k, v in decoded.source.items() if v == "catalog"]:
            setattr(decoded, key, None)
            del decoded.source[key]
        decoded.catalog_id = None
    size_b = _name_size(name)
    twin = _twin(name, exclude) if size_b is None else None
    tier = _size_tier(name) if size_b is None and twin is None else None
    why = f"the name states no size; its twin {twin.name}" if twin is not None else ""
    release = _point_release(name, exclude) if size_b is None and twin is None else None
    if release is not None:
        twin = release
        why = f"the name states no size; sized as its line's point release {release.name} (one layout)"
    if tier and (sibling := _tier_sibling(name, decoded.family, decoded.version, tier, exclude)):
        twin = sibling
        why = f"'{tier}' is a tier name: sized as the catalog's {sibling.name}"
    if size_b is None and twin is None:
        said = f"'{tier}' is a tier name, not a parameter count" if tier else "the name states no size"
        raise InputError(
            f"{name!r}: no config.json on disk, no catalog entry, and {said}, so its size is unknown; "
            "pass the model folder or its config.json"
        )
    effective = decoded.source.get("total_params_b") != "name"
    if twin is not None:
        size_b = _name_size(twin.id) or twin.total_params_b
        moe = _moe(twin)
        choice: _Choice | None = _Choice(twin, "twin", why)
        effective = False
    else:
        assert size_b is not None
        active_b = decoded.active_params_b if decoded.active_params_b is not None else size_b
        moe = active_b < size_b * 0.9 or decoded.experts is not None
        choice = _template(name, decoded.family, decoded.version, size_b, moe, exclude)
    if choice is None:
        raise InputError(
            f"{name!r}: no config.json on disk, not in the catalog, and no catalog model of family "
            f"{decoded.family or '?'!r} to estimate its layout from; pass the model folder or its config.json"
        )
    template, base_config = _publisher_layout(choice.entry, exclude)
    template_size = _name_size(template.id) or template.total_params_b
    factor = size_b / template_size
    same_size = abs(factor - 1) < 0.05
    tie = _tied_like_its_size(template, size_b) if not same_size else None
    tower = _tower_for(name, choice.entry, decoded.family, decoded.version, size_b, exclude)
    if (
        tower is not None
        and _has_tower(template)
        and _layout_key(tower.config) == _layout_key(template.config)
    ):
        tower = template  # a quantized copy's tower is its publisher's model's
    config = _with_tower(_fitted_config(base_config, factor, size_b, tie, name, fit=not effective), tower)
    spec = spec_from_config(config, name)
    like = f"{ESTIMATE}: like {template.id}" + (f" scaled ×{factor:.2f}" if not same_size else "")
    if tower is not None and (tower.id != template.id or not same_size):
        like += f", the vision tower of {tower.id}"
    elif _has_tower(template) and tower is None and not _LLAVA_NAME.search(name.split("/")[-1]):
        like += ", without its vision tower"
    if choice.why:
        like += f" ({choice.why})"
    spec.sources = {field: like for field in spec.sources}
    if not spec.total_params:
        spec.total_params = round(size_b * 1e9)
    if same_size and template.total_params_b:
        # the template itself at the size the name states: its published counts, with the tower the name has
        own = spec_from_config(template.config, template.id).vision_params or 0 if _has_tower(template) else 0
        change = (spec.vision_params or 0) - own
        spec.total_params = round(template.total_params_b * 1e9) + change
        spec.active_params = round(template.active_params_b * 1e9) + change
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
    elif release is not None and _quantized(release) and _org(release.id) == _org(name):
        # the publisher ships the line in its own format (MiniMax's M2 releases are block FP8 only)
        own = spec_from_config(release.config, release.id)
        spec.quantization, spec.quantization_bits = own.quantization, own.quantization_bits
        spec.sources["quantization"] = f"{ESTIMATE}: as {release.id} (the publisher's format for the line)"
    else:
        spec.quantization = None
        spec.quantization_bits = None
    if _LLAVA_NAME.search(name.split("/")[-1]) and not spec.vision_params:
        # a llava release is its language model plus the CLIP ViT-L/14-336 tower (arch.vision)
        from lmscreen.model.arch.vision import llava_tower_params

        clip = llava_tower_params(spec.hidden_size)
        spec.vision_params = clip
        spec.total_params = (spec.total_params or 0) + clip
        spec.is_vision = True
        spec.sources["vision_params"] = "estimate: the CLIP ViT-L/14-336 tower of every LLaVA-1.5/1.6 release"
    elif same_size and tower is None and not spec.vision_params and _VISION_NAME.search(name.split("/")[-1]):
        # the name states its text sibling's size (granite-vision-3.3-2b beside granite-3.3-2b): the size of
        # the language model it is built on, as a llava name's is; a size the layout is scaled to (Llama-3.2-
        # 11B-Vision from the 8B) already holds the whole model, tower included
        _add_default_tower(spec)
    if same_size and not spec.audio_params and _OMNI_NAME.search(name.split("/")[-1]):
        _add_omni_audio(spec)
    same_release = _release_sibling(name, size_b)
    if same_release is not None and same_release.max_context:
        spec.max_position_embeddings = same_release.max_context
        spec.sources["max_position_embeddings"] = f"{ESTIMATE}: like {same_release.id} (same release)"
    if decoded.context_hint and decoded.source.get("context_hint") == "name":
        spec.max_position_embeddings = decoded.context_hint
        spec.sources["max_position_embeddings"] = "name"
    spec.notes.append(
        f"no config.json found: layout estimated from {template.id} ({template_size:g} B) scaled to the "
        f"name's {size_b:g} B ({(spec.total_params or 0) / 1e9:.2f} B parameters with embeddings"
        + (f", vision tower of {tower.id}" if tower is not None else "")
        + ")"
        + (f"; {choice.why}" if choice.why else "")
        + "; pass the model folder or config.json for exact numbers"
    )
    return spec
