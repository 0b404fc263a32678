"""Any model a user names → ModelSpec, from the best source on this machine; never a download.

Best first: a config.json / folder / .gguf the user points at, the local Hugging Face cache, the built-in
catalog, and last an estimate from the name (every estimated field marked `estimate: like <catalog id>`).
Engines and CLI commands call `resolve` so that `model fit`, `launch`, `recommend` and the vLLM engine's
defaults agree on one spec.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from lmscreen.errors import InputError
from lmscreen.model.spec import ModelSpec


@dataclass
class Resolved:
    spec: ModelSpec
    model_ref: str
    """What the engine should load: the path, the HF id the user typed, or the catalog id."""
    ollama_tag: str | None
    how: str
    """path | config | hf-cache | catalog | name-estimate | name-only."""


def _name_quantization(model: str) -> tuple[str | None, int | None]:
    from lmscreen.model.names import decode

    try:
        decoded = decode(model)
    except InputError:
        return None, None
    return decoded.quantization, decoded.quantization_bits


def resolve(model: str, *, config: str | None = None, allow_name_only: bool = False) -> Resolved:
    """Spec for a path, HF id, catalog name or Ollama tag; `config` (a config.json or folder) overrides.

    allow_name_only: when nothing about the architecture can be found or estimated, return a spec that
    carries only the name (enough for a launch line without a GPU plan) instead of raising InputError.
    """
    from lmscreen.model import arch
    from lmscreen.model.catalog.models import lookup, spec_for

    model = model.strip()
    if not model:
        raise InputError("empty model name")
    ollama_tag = model if ":" in model and "/" not in model and not Path(model).exists() else None
    how = ""
    if config is not None:
        spec = arch.inspect(config)
        spec.name = model
        how = "config"
        model_ref = model
    else:
        path = Path(model).expanduser()
        if path.exists():
            return Resolved(arch.inspect(str(path)), str(path), None, "path")
        snapshot = arch.cached_snapshot(model) if "/" in model else None
        if snapshot is not None:
            spec, how = arch.spec_from_folder(snapshot, model), "hf-cache"
        elif lookup(model) is not None:
            spec, how = spec_for(model), "catalog"
        else:
            from lmscreen.model.arch.estimate import spec_from_name

            try:
                spec, how = spec_from_name(model), "name-estimate"
            except InputError:
                if not allow_name_only:
                    raise
                spec = ModelSpec(
                    name=model,
                    sources={"architecture": "estimate: nothing known beyond the name"},
                    notes=["no config.json, no catalog entry and no similar catalog model: name only"],
                )
                how = "name-only"
        model_ref = model if "/" in model else spec.name
    quant, bits = _name_quantization(model)
    if quant and quant != "gguf" and not spec.quantization:
        spec = spec.model_copy(
            update={
                "quantization": quant,
                "quantization_bits": spec.quantization_bits or bits,
                "sources": {**spec.sources, "quantization": "name"},
            }
        )
    return Resolved(spec, model_ref, ollama_tag, how)
