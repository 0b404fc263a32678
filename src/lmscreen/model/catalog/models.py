"""Built-in catalog of popular open models (data/models.yaml), each entry with the source of its facts.

Used when neither config.json nor a weights header is at hand: `model fit Qwen/Qwen3-8B --gpu "RTX 3090"` must
work offline. Each entry keeps the config.json fields as published, so one parser (arch.config) serves both
real files and the catalog. Lookup is forgiving (HF id, short name, Ollama tag, any case) because users type
names loosely.
"""

from __future__ import annotations

import difflib
import re
from functools import lru_cache
from importlib import resources
from typing import Any

from pydantic import BaseModel, Field

from lmscreen.errors import InputError
from lmscreen.model.spec import ModelSpec


class CatalogEntry(BaseModel):
    """One catalog model: identity, publisher counts, and its config.json facts."""

    id: str
    """Hugging Face id, e.g. Qwen/Qwen3-8B."""
    aliases: list[str] = Field(default_factory=list)
    """Other HF ids with the same architecture (re-releases, base/instruct twins)."""
    ollama: list[str] = Field(default_factory=list)
    org: str
    family: str
    version: str | None = None
    total_params_b: float
    active_params_b: float
    tasks: list[str] = Field(default_factory=lambda: ["text"])
    """text | vision | agent."""
    license: str | None = None
    release: str | None = None
    """Release tag of a re-release with its own facts (2507, 0528, v0.3); None for the first release."""
    thinking: str | None = None
    """always | never | hybrid, when the model card says (a release can change it)."""
    source: str
    config: dict[str, Any] = Field(default_factory=dict)
    """config.json fields (only those a memory plan needs), already merged with the `like:` entry."""

    @property
    def name(self) -> str:
        """Short name: the part after the organisation."""
        return self.id.split("/")[-1]

    @property
    def max_context(self) -> int | None:
        """Native context window (max_position_embeddings / seq_length)."""
        from lmscreen.model.arch.config import text_part

        cfg = text_part(self.config)
        return cfg.get("max_position_embeddings") or cfg.get("seq_length")


def _norm(text: str) -> str:
    """Lookup key: lower case, separators dropped (so 'Qwen3 8B', 'qwen3-8b' and 'Qwen3_8B' agree)."""
    return re.sub(r"[^a-z0-9.:]", "", text.lower().strip())


@lru_cache(maxsize=1)
def all_models() -> list[CatalogEntry]:
    """Every catalog entry, in file order, with `like:` references resolved."""
    import yaml

    text = resources.files("lmscreen.model").joinpath("data/models.yaml").read_text(encoding="utf-8")
    raw = yaml.safe_load(text)["models"]
    by_id: dict[str, dict[str, Any]] = {}
    entries = []
    for item in raw:
        item = dict(item)
        base = item.pop("like", None)
        config = dict(by_id[base]["config"]) if base else {}
        config.update(item.get("config") or {})
        item["config"] = {k: v for k, v in config.items() if v is not None}
        by_id[item["id"]] = item
        entries.append(CatalogEntry(**item))
    return entries


@lru_cache(maxsize=1)
def _index() -> dict[str, CatalogEntry]:
    index: dict[str, CatalogEntry] = {}
    for entry in all_models():
        keys = [
            entry.id,
            entry.name,
            *entry.aliases,
            *(a.split("/")[-1] for a in entry.aliases),
            *entry.ollama,
        ]
        for key in keys:
            index.setdefault(_norm(key), entry)
    return index


def _strip_decorations(name: str) -> str:
    """Drop what does not change the architecture: GGUF/quant suffixes, -Instruct/-Chat, Ollama quant tags."""
    text = re.sub(r"(?:-\d{5}-of-\d{5})?\.gguf$", "", name.strip(), flags=re.I)
    text = re.sub(
        r"[-_.](?:gguf|awq|gptq(?:-int[48])?|fp8(?:-dynamic)?|nvfp4|mxfp4|int[48]|bnb-4bit|"
        r"(?:ud-)?i?q\d[a-z0-9_]*|f16|bf16|[2-8]bit|w4a16|w8a8)$",
        "",
        text,
        flags=re.I,
    )
    return text


_RELEASE = re.compile(r"(?i)(?:^|[-_])(\d{4}|v\d+(?:\.\d+)+)(?=$|[-_.:])")
"""A release tag in a name: -2507, -0528, -2501, -v0.3 (a 4-digit date or a dotted version)."""


def releases(name: str) -> set[str]:
    """Release tags a name carries (lower case), e.g. {'2507'} for Qwen3-30B-A3B-Instruct-2507-AWQ."""
    return {m.group(1).lower() for m in _RELEASE.finditer(name.split("/")[-1])}


def _same_release(name: str, entry: CatalogEntry) -> bool:
    """A release in the name must be the entry's own: -2507 never resolves to the first release."""
    wanted = releases(name)
    if not wanted:
        return True
    have = set().union(*(releases(key) for key in (entry.id, *entry.aliases)))
    return wanted <= have


def lookup(name_or_id: str) -> CatalogEntry | None:
    """Find an entry by HF id, short name, alias or Ollama tag (case-insensitive); None when not found.

    Quantization suffixes (-AWQ, -FP8, -Q4_K_M.gguf, :8b-instruct-q4_K_M) and an `-Instruct` / `-it` /
    `-Chat` that the catalog id lacks are ignored, since they do not change the architecture.
    """
    index = _index()
    candidates = [name_or_id]
    text = name_or_id
    for _ in range(3):
        text = _strip_decorations(text)
        candidates.append(text)
    if ":" in name_or_id:  # ollama tag: family:size[-variant][-quant]
        family, tag = name_or_id.split(":", 1)
        size = re.match(r"[\d.x]+[bm]?", tag.lower())
        if size:
            candidates.append(f"{family}:{size.group(0)}")
    for cand in list(candidates):
        short = cand.split("/")[-1]
        candidates += [short, re.sub(r"[-_](instruct|it|chat)$", "", short, flags=re.I)]
        candidates += [f"{short}-Instruct", f"{short}-it", f"{short}-chat"]
    for cand in candidates:
        entry = index.get(_norm(cand))
        if entry and _same_release(name_or_id, entry):
            return entry
    return None


def close_matches(name: str, n: int = 4) -> list[str]:
    """Catalog ids that look like `name` (for error messages)."""
    ids = [e.id for e in all_models()]
    by_short = {e.name.lower(): e.id for e in all_models()}
    hits = difflib.get_close_matches(name.split("/")[-1].lower(), list(by_short), n=n, cutoff=0.5)
    return [by_short[h] for h in hits] or difflib.get_close_matches(name, ids, n=n, cutoff=0.4)


def spec_for(name_or_id: str) -> ModelSpec:
    """A full ModelSpec from the catalog (sources = 'catalog'); unknown → InputError with close matches.

    Architecture fields come from the entry's config.json facts; total/active parameters are the publisher's
    headline counts (the config-derived count is kept in notes when it differs by more than 3%).
    """
    from lmscreen.model.arch.config import spec_from_config

    entry = lookup(name_or_id)
    if entry is None:
        close = close_matches(name_or_id)
        hint = f"; close matches: {', '.join(close)}" if close else ""
        raise InputError(f"model {name_or_id!r} is not in the built-in catalog{hint}")
    spec = spec_from_config(entry.config, entry.id)
    derived = spec.total_params
    spec.total_params = round(entry.total_params_b * 1e9)
    spec.active_params = round(entry.active_params_b * 1e9)
    if derived and abs(derived - spec.total_params) > 0.03 * spec.total_params:
        spec.notes.append(
            f"config-derived parameter count {derived / 1e9:.2f} B vs published "
            f"{entry.total_params_b} B (text model only or rounding)"
        )
    spec.is_vision = spec.is_vision or "vision" in entry.tasks
    spec.sources = {k: "catalog" for k in spec.sources} | {
        "total_params": "catalog",
        "active_params": "catalog",
    }
    return spec
