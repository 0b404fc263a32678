"""Any model a user names → ModelSpec, from the best source on this machine; never a download.

The one lookup order, best first: a config.json / folder / .gguf the user points at (`--config`, or the
name itself when it is a path), the local Hugging Face cache, the built-in catalog, and last an estimate
from the name (every estimated field marked `estimate: like <catalog id>`). A name written like a path
that is not on disk is an error, never a catalog guess. The quantization a name states (`-AWQ`, `-FP8`)
is kept when the source does not say: a catalog entry holds the unquantized release.

`model fit`, `launch`, `recommend`, `model inspect` (arch.inspect, estimate=False) and the vLLM engine's
defaults all call `resolve`, so one name plans one spec everywhere.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from pathlib import Path

from lmscreen.errors import InputError
from lmscreen.model.spec import ModelSpec

CATALOG_NOTE = "not found on disk or in the Hugging Face cache: facts from the built-in catalog"


@dataclass
class Resolved:
    spec: ModelSpec
    model_ref: str
    """What the engine should load: the path, the HF id the user typed, or the catalog id."""
    ollama_tag: str | None
    how: str
    """path | config | hf-cache | catalog | name-estimate | name-only."""


def looks_like_path(text: str) -> bool:
    """Written as a file or folder (./x, /x, ~/x, x.json, a/b/c), not as an `Org/Name` id or a tag."""
    return (
        text.startswith((".", "/", "~"))
        or text.endswith((".json", ".gguf", ".safetensors"))
        or text.count("/") > 1
        or (os.sep != "/" and os.sep in text)
    )


def _name_quantization(model: str) -> tuple[str | None, int | None]:
    from lmscreen.model.names import decode

    try:
        decoded = decode(model)
    except InputError:
        return None, None
    return decoded.quantization, decoded.quantization_bits


def _not_found(model: str) -> InputError:
    from lmscreen.model.catalog.models import close_matches

    close = close_matches(model)
    hint = f"; catalog has: {', '.join(close)}" if close else ""
    return InputError(
        f"{model!r} is not a file, a folder, a cached Hugging Face model or a catalog model{hint}"
    )


def _lookup(model: str, *, estimate: bool, allow_name_only: bool) -> tuple[ModelSpec, str]:
    """(spec, how) by the lookup order above; a local path is read as it is."""
    from lmscreen.model.arch.read import cached_snapshot, read_local, spec_from_folder
    from lmscreen.model.catalog.models import lookup, spec_for

    path = Path(model).expanduser()
    if path.is_dir() or path.is_file():
        return read_local(path), "path"
    if looks_like_path(model):
        raise InputError("no such file or folder", file=model)
    snapshot = cached_snapshot(model) if "/" in model else None
    if snapshot is not None:
        return spec_from_folder(snapshot, model), "hf-cache"
    if lookup(model) is not None:
        spec = spec_for(model)
        spec.notes.append(CATALOG_NOTE)
        return spec, "catalog"
    if not estimate:
        raise _not_found(model)
    from lmscreen.model.arch.estimate import spec_from_name

    try:
        return spec_from_name(model), "name-estimate"
    except InputError:
        if not allow_name_only:
            raise
    spec = ModelSpec(
        name=model,
        sources={"architecture": "estimate: nothing known beyond the name"},
        notes=["no config.json, no catalog entry and no similar catalog model: name only"],
    )
    return spec, "name-only"


def resolve(
    model: str, *, config: str | None = None, allow_name_only: bool = False, estimate: bool = True
) -> Resolved:
    """Spec for a path, HF id, catalog name or Ollama tag; `config` (a config.json or folder) overrides.

    estimate: False raises InputError where the order above would estimate from the name (`model inspect`
    reports facts only). allow_name_only: when nothing about the architecture can be found or estimated,
    return a spec that carries only the name (enough for a launch line without a GPU plan) instead of
    raising InputError.
    """
    model = model.strip()
    if not model:
        raise InputError("empty model name")
    ollama_tag = model if ":" in model and "/" not in model and not Path(model).exists() else None
    if config is not None:
        spec, _ = _lookup(config.strip(), estimate=False, allow_name_only=False)
        spec.name = model
        how, model_ref = "config", model
    else:
        spec, how = _lookup(model, estimate=estimate, allow_name_only=allow_name_only)
        if how == "path":
            return Resolved(spec, str(Path(model).expanduser()), None, "path")
        model_ref = model if "/" in model else spec.name
    quant, bits = _name_quantization(model)
    if quant and quant != "gguf" and not spec.quantization:
        spec = replace(
            spec,
            **{
                "quantization": quant,
                "quantization_bits": spec.quantization_bits or bits,
                "sources": {**spec.sources, "quantization": "name"},
            },
        )
    return Resolved(spec, model_ref, ollama_tag, how)
