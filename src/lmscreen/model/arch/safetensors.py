"""Safetensors headers → exact weight bytes per dtype, without reading a single weight.

A safetensors file starts with an 8-byte little-endian header length and a JSON header that lists every
tensor's dtype, shape and byte range; that is all a memory plan needs. Sharded checkpoints are summed over
the shards named in model.safetensors.index.json (or every *.safetensors in the folder).
"""

from __future__ import annotations

import json
import struct
from dataclasses import dataclass, field
from pathlib import Path

from lmscreen.errors import InputError

MAX_HEADER_BYTES = 100 * 1024 * 1024
"""The safetensors format caps the header at 100 MB; a larger length means a corrupt or foreign file."""

_EMBEDDING_NAMES = (
    "embed_tokens.weight",
    "lm_head.weight",
    "wte.weight",
    "word_embeddings.weight",
    "embedding.weight",
    "output.weight",
)


@dataclass
class SafetensorsSummary:
    """What the headers say: exact bytes, per dtype, element counts and embedding elements."""

    files: list[Path] = field(default_factory=list)
    weights_bytes: int = 0
    bytes_by_dtype: dict[str, int] = field(default_factory=dict)
    elements: int = 0
    embedding_elements: int = 0
    tensors: int = 0


def read_header(path: Path) -> dict:
    """The JSON header of one .safetensors file; truncated or malformed → InputError naming the file."""
    try:
        size = path.stat().st_size
        with path.open("rb") as fh:
            raw_len = fh.read(8)
            if len(raw_len) < 8:
                raise InputError("truncated safetensors file: no 8-byte header length", file=str(path))
            (length,) = struct.unpack("<Q", raw_len)
            if length == 0 or length > MAX_HEADER_BYTES or 8 + length > size:
                raise InputError(
                    f"truncated or corrupt safetensors header (length {length}, file {size} bytes)",
                    file=str(path),
                )
            blob = fh.read(length)
    except OSError as exc:
        raise InputError(f"cannot read safetensors file: {exc.strerror or exc}", file=str(path)) from None
    try:
        header = json.loads(blob.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InputError(f"safetensors header is not valid JSON ({exc})", file=str(path)) from None
    if not isinstance(header, dict):
        raise InputError("safetensors header is not a JSON object", file=str(path))
    return header


def summarize(files: list[Path]) -> SafetensorsSummary:
    """Sum exact tensor bytes (data_offsets) per dtype and element counts over all shards."""
    summary = SafetensorsSummary(files=list(files))
    for path in files:
        header = read_header(path)
        for name, info in header.items():
            if name == "__metadata__":
                continue
            try:
                dtype = str(info["dtype"])
                start, end = info["data_offsets"]
                shape = info["shape"]
            except (KeyError, TypeError, ValueError):
                raise InputError(
                    f"safetensors header entry {name!r} lacks dtype/shape/data_offsets", file=str(path)
                ) from None
            nbytes = int(end) - int(start)
            count = 1
            for dim in shape:
                count *= int(dim)
            summary.weights_bytes += nbytes
            summary.bytes_by_dtype[dtype] = summary.bytes_by_dtype.get(dtype, 0) + nbytes
            summary.elements += count
            summary.tensors += 1
            if name.endswith(_EMBEDDING_NAMES):
                summary.embedding_elements += count
    return summary


def shard_files(folder: Path) -> list[Path]:
    """The weight shards of a model folder: from the index when present, else every *.safetensors."""
    index = folder / "model.safetensors.index.json"
    if index.is_file():
        try:
            weight_map = json.loads(index.read_text(encoding="utf-8"))["weight_map"]
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise InputError(f"malformed safetensors index ({exc})", file=str(index)) from None
        names = sorted(set(weight_map.values()))
        missing = [n for n in names if not (folder / n).is_file()]
        if missing:
            raise InputError(
                f"index names shards that are not there: {', '.join(missing[:3])}", file=str(index)
            )
        return [folder / n for n in names]
    return sorted(folder.glob("*.safetensors"))
