"""A disk cache of what is costly to derive from a filing (a PDF's extracted text), keyed by content.

Why on disk: extracting a 200-page annual report takes seconds to minutes, and a resumed or repeated run
reads the same files again; an in-memory cache is gone with the process. Why keyed by the file's SHA-256
(and the caller's version in the name): a file renamed, copied or touched is still the same entry, an edited
one a new entry, and a changed extractor (a new version constant) never reads an old entry.

The cache lives in `$LMSCREEN_HOME/cache/filings/` (default `$XDG_DATA_HOME/lmscreen`, else
`~/.local/share/lmscreen`, as the run history). Nothing here is ever fatal: an entry that cannot be read or
parsed counts as missing (and is rewritten by the caller), and a cache that cannot be written is skipped.
Writes go to a temp file in the same folder and are renamed into place, so a reader never sees half an
entry; no fsync: an entry lost or cut short by a power failure is only a miss. Entries are never pruned
(each is the text of one filing, a few hundred KB at most): deleting the folder is always safe.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

from lmscreen.home import home

_READ_BYTES = 1 << 20


def cache_dir() -> Path:
    """Where filing entries live (resolved on every call: tests and callers may change the home)."""
    return home() / "cache" / "filings"


def file_sha256(path: Path) -> str:
    """SHA-256 of the file's bytes, streamed (a large PDF is never held whole).

    One run asks for the same file's hash more than once (the PDF text cache, then the facts cache that
    `compare` reads), so a hash is kept for the process while the file's size, mtime and inode stay what
    they were, as git trusts its index: an edited file gets a new stat and is hashed again."""
    st = os.stat(path)
    return _sha256(str(Path(path).resolve()), st.st_size, st.st_mtime_ns, st.st_ino)


@functools.lru_cache(maxsize=4096)
def _sha256(path: str, size: int, mtime_ns: int, inode: int) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        while data := fh.read(_READ_BYTES):
            h.update(data)
    return h.hexdigest()


def entry_path(name: str) -> Path:
    return cache_dir() / f"{name}.json"


def load(name: str) -> Any | None:
    """The JSON value stored under `name`, or None when it is missing or cannot be read or parsed."""
    try:
        data = entry_path(name).read_bytes()
    except OSError:
        return None
    try:
        return json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None


def store(name: str, value: Any) -> bool:
    """Write `value` as JSON under `name`, atomically; False (and nothing left behind) where it cannot."""
    target = entry_path(name)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=target.parent)
    except OSError:
        return False
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))
        os.replace(tmp, target)
        return True
    except OSError:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        return False
