"""The model package's YAML data (data/models.yaml, data/gpus.yaml), parsed once per content.

`lmscreen model fit` must answer in a fraction of a second, and parsing the 580 KB generated catalog took
most of that even with libyaml (about 0.1 s); the parsed value, stored with `marshal` (the .pyc format:
plain data only, nothing runs when it is read) in the user's cache folder under the text's hash, reads in
about 2 ms. A changed file has another hash, so a stale copy is never used; a cache that cannot be read
or written (read-only home, another Python's format) only costs the parse.
"""

from __future__ import annotations

import hashlib
import marshal
import os
import sys
import tempfile
from importlib import resources
from pathlib import Path
from typing import Any


def cache_dir() -> Path:
    """lmscreen's cache folder (lmscreen.home.cache()), `data/` in it."""
    from lmscreen.home import cache

    return cache() / "data"


def load(name: str) -> Any:
    """The parsed content of `lmscreen/model/data/<name>` (YAML, safe loader)."""
    raw = resources.files("lmscreen.model").joinpath("data", name).read_bytes()
    digest = hashlib.sha256(raw).hexdigest()[:20]
    version = f"{sys.implementation.cache_tag}-{marshal.version}"
    cached = cache_dir() / f"{Path(name).stem}-{digest}-{version}.marshal"
    try:
        return marshal.loads(cached.read_bytes())
    except (OSError, ValueError, EOFError, TypeError):
        pass
    import yaml

    data = yaml.load(raw.decode("utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    _store(cached, data)
    return data


def _store(path: Path, data: Any) -> None:
    try:
        blob = marshal.dumps(data)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
        with os.fdopen(fd, "wb") as fh:
            fh.write(blob)
        os.replace(tmp, path)
    except (OSError, ValueError):  # a value marshal cannot hold, or no writable cache: parse next time too
        return
