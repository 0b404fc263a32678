"""Read the real architecture of a model: config.json, safetensors headers or a GGUF header → ModelSpec.

Sources of truth, best first (DESIGN.md): GGUF / safetensors headers (exact tensor bytes), config.json, the
built-in catalog. Only headers are read, never weights, so a multi-GB checkpoint costs kilobytes of I/O.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from lmscreen.errors import InputError
from lmscreen.model.arch.config import spec_from_config
from lmscreen.model.spec import ModelSpec

__all__ = [
    "cached_snapshot",
    "hf_cache_dirs",
    "inspect",
    "read_local",
    "spec_from_config",
    "spec_from_folder",
]

_PACKED_DTYPES = {"I32", "U32", "I8", "U8", "F8_E4M3", "F8_E5M2", "F8_E8M0", "I4", "U4"}
"""Dtypes of packed / quantized storage: element counts from these shapes are not parameter counts."""


def read_config(path: Path) -> dict:
    """Parse a config.json; malformed → InputError naming the file (one line, no traceback)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise InputError(f"cannot read config: {exc.strerror or exc}", file=str(path)) from None
    except UnicodeDecodeError:
        raise InputError("config is not UTF-8 text", file=str(path)) from None
    except json.JSONDecodeError as exc:
        raise InputError(
            f"malformed JSON at line {exc.lineno} column {exc.colno}: {exc.msg}", file=str(path)
        ) from None
    if not isinstance(data, dict):
        raise InputError("config.json is not a JSON object", file=str(path))
    return data


def hf_cache_dirs() -> list[Path]:
    """HF hub cache folders in lookup order: $HF_HUB_CACHE, $HF_HOME/hub, ~/.cache/huggingface/hub."""
    dirs = []
    if os.environ.get("HF_HUB_CACHE"):
        dirs.append(Path(os.environ["HF_HUB_CACHE"]))
    if os.environ.get("HF_HOME"):
        dirs.append(Path(os.environ["HF_HOME"]) / "hub")
    dirs.append(Path.home() / ".cache" / "huggingface" / "hub")
    return dirs


def cached_snapshot(model_id: str) -> Path | None:
    """The snapshot folder of a cached HF model (refs/main first, else the newest snapshot)."""
    folder_name = "models--" + model_id.replace("/", "--")
    for cache in hf_cache_dirs():
        repo = cache / folder_name
        snapshots = repo / "snapshots"
        if not snapshots.is_dir():
            continue
        ref = repo / "refs" / "main"
        if ref.is_file():
            candidate = snapshots / ref.read_text(encoding="utf-8").strip()
            if candidate.is_dir():
                return candidate
        found = sorted((p for p in snapshots.iterdir() if p.is_dir()), key=lambda p: p.stat().st_mtime)
        if found:
            return found[-1]
    return None


def spec_from_folder(folder: Path, name: str | None = None) -> ModelSpec:
    """config.json (+ safetensors headers when present) of a model folder; a lone .gguf also works.

    A folder on disk (the user's, or a Hugging Face cache snapshot) is untrusted: its config and headers
    fill model.validate's checked spec (pydantic), handed back as the plain ModelSpec."""
    from lmscreen.model import validate

    config_path = folder / "config.json"
    if not config_path.is_file():
        if any(folder.glob("*.safetensors")):
            spec = validate.ModelSpec(
                name=name or folder.name, notes=["no config.json: weights from safetensors headers only"]
            )
            _add_safetensors(spec, folder)
            return validate.plain(spec)
        ggufs = sorted(folder.glob("*.gguf"))
        if len(ggufs) == 1:
            from lmscreen.model.arch.gguf import read_gguf

            return read_gguf(ggufs[0])
        what = f"{len(ggufs)} .gguf files, pass one of them" if ggufs else "no config.json or .gguf file"
        raise InputError(what, file=str(folder))
    spec = spec_from_config(read_config(config_path), name or folder.name, validate.CHECKED)
    _add_safetensors(spec, folder)
    return validate.plain(spec)


def _add_safetensors(spec: ModelSpec, folder: Path) -> None:
    """Overlay exact bytes (and, for unpacked dtypes, exact parameter counts) from the shard headers."""
    from lmscreen.model.arch.safetensors import shard_files, summarize

    files = shard_files(folder)
    if not files:
        return
    summary = summarize(files)
    spec.weights_bytes = summary.weights_bytes
    spec.bytes_by_dtype = dict(sorted(summary.bytes_by_dtype.items(), key=lambda kv: -kv[1]))
    spec.sources["weights_bytes"] = spec.sources["bytes_by_dtype"] = "safetensors"
    if not (set(summary.bytes_by_dtype) & _PACKED_DTYPES) and spec.quantization is None:
        if spec.total_params and spec.active_params is not None:
            spec.active_params = spec.active_params + (summary.elements - spec.total_params)
        spec.total_params = summary.elements
        spec.sources["total_params"] = "safetensors"
        if summary.embedding_elements:
            spec.embedding_params = summary.embedding_elements
            spec.sources["embedding_params"] = "safetensors"
    else:
        spec.notes.append("packed/quantized tensors: parameter count from config.json, bytes from headers")
    spec.notes.append(f"read {len(files)} safetensors header(s), {summary.tensors} tensors")


def inspect(path_or_id: str) -> ModelSpec:
    """config.json file, model folder, .gguf file, HF cache id or catalog name → ModelSpec; bad input →
    InputError. The lookup order is lmscreen.model.resolve's (the one resolver), without its estimate
    from the name: `model inspect` reports facts only."""
    from lmscreen.model.resolve import resolve

    return resolve(path_or_id, estimate=False).spec


def read_local(path: Path) -> ModelSpec:
    """A config.json, model folder, .gguf or .safetensors file on disk → ModelSpec (headers only)."""
    try:
        return _inspect_local(path)
    except InputError:
        raise
    except _HEADER_ERRORS as exc:  # a header or config with the wrong shape: the file's fault, not ours
        raise InputError(f"unusable model metadata ({_one_line(exc)})", file=str(path)) from exc


_HEADER_ERRORS = (AttributeError, TypeError, ValueError, KeyError, IndexError, OverflowError, EOFError)
"""What malformed metadata raises deep in the readers (model.validate's pydantic ValidationError is a
ValueError)."""


def _one_line(exc: BaseException) -> str:
    errors = getattr(exc, "errors", None)
    if callable(errors):  # pydantic: the first failing field says most
        try:
            first = errors()[0]
            return f"{'.'.join(str(p) for p in first['loc'])}: {first['msg']}"
        except Exception:  # noqa: BLE001
            pass
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0] if text else ''}"[:300]


def _inspect_local(path: Path) -> ModelSpec:
    if path.is_dir():
        return spec_from_folder(path)
    if path.suffix == ".gguf":
        from lmscreen.model.arch.gguf import read_gguf

        return read_gguf(path)
    if path.suffix == ".safetensors":
        return spec_from_folder(path.parent)
    from lmscreen.model import validate

    spec = spec_from_config(read_config(path), path.parent.name or path.stem, validate.CHECKED)
    if path.name == "config.json":
        _add_safetensors(spec, path.parent)
    return validate.plain(spec)
