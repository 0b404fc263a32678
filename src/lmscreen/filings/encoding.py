"""How a filing's bytes become text: a BOM (UTF-8/UTF-16) first, then UTF-8, then GB18030.

Why this order: broker and vendor files come as UTF-8 (often with a BOM from Excel or Notepad), UTF-16 from
Windows tools, or GBK/GB18030 from older Chinese software; GB18030 is a superset of GBK and decodes almost
any byte sequence, so it is only tried after strict UTF-8 has failed. Bytes that no candidate reads are an
error naming the file, never silently replaced.
"""

from __future__ import annotations

import codecs
import hashlib
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TypeVar

from lmscreen.errors import InputError

READ_BYTES = 1 << 20
"""Bytes read (and characters cut) at a time when a text is streamed."""

T = TypeVar("T")


def candidate_encodings(head: bytes) -> tuple[str, ...]:
    """The encodings to try, in order, for a file that starts with `head`."""
    if head.startswith(b"\xef\xbb\xbf"):
        return ("utf-8-sig",)
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        return ("utf-16",)
    return ("utf-8", "gb18030")


def _not_valid(path: Path, encodings: tuple[str, ...]) -> InputError:
    return InputError(f"{path}: not valid {' or '.join(encodings)} text")


def decode_text(data: bytes, path: Path) -> str:
    """The whole of `data` decoded by the first candidate that reads all of it."""
    encodings = candidate_encodings(data[:4])
    for encoding in encodings:
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    raise _not_valid(path, encodings)


def _decoded(path: Path, encoding: str) -> Iterator[str]:
    decoder = codecs.getincrementaldecoder(encoding)(errors="strict")
    with path.open("rb") as fh:
        while data := fh.read(READ_BYTES):
            yield decoder.decode(data)
    yield decoder.decode(b"", final=True)


def read_streamed(path: Path, consume: Callable[[Iterator[str]], T]) -> T:
    """`consume(chunks)` over the decoded text of `path`, streamed a block at a time.

    Why optimistic: the file is decoded once, with the first candidate; only where that fails part-way
    (UnicodeDecodeError) is `consume` run again from the start with the next one. Checking the encoding
    first would decode every long file twice. `consume` must therefore be safe to rerun (it is given fresh
    chunks each time and its partial result is dropped)."""
    with path.open("rb") as fh:
        encodings = candidate_encodings(fh.read(4))
    for encoding in encodings:
        try:
            return consume(_decoded(path, encoding))
        except UnicodeDecodeError:
            continue
    raise _not_valid(path, encodings)


def text_chunks(text: str, size: int = READ_BYTES) -> Iterator[str]:
    """`text` in slices of `size` characters (so a long cell is hashed or encoded without a whole copy)."""
    for i in range(0, len(text), size):
        yield text[i : i + size]


def text_sha256(chunks: Iterable[str]) -> str:
    """SHA-256 of the UTF-8 form of the text: the same digest as hashing the whole text at once."""
    h = hashlib.sha256()
    for chunk in chunks:
        h.update(chunk.encode("utf-8"))
    return h.hexdigest()
