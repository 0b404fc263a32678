"""Write an output file whole or not at all: a temp name in the same folder, fsync, then os.replace.

A killed or crashed run therefore leaves either the previous complete file or the new complete one, never
half of a results.csv beside a complete checkpoint. Every writer of outputs/ and report/ goes through here.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def atomic_path(final: Path) -> Iterator[Path]:
    """Yield a temp path beside `final`; when the block ends normally it becomes `final` (fsynced)."""
    tmp = final.with_name(f".{final.name}.{os.getpid()}.tmp")
    try:
        yield tmp
        with tmp.open("rb") as fh:
            os.fsync(fh.fileno())
        os.replace(tmp, final)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    _fsync_dir(final.parent)


def write_with(final: Path, write: Callable[[Path], object]) -> None:
    """`write(tmp_path)` then rename: for writers that take a path (polars write_csv, …)."""
    with atomic_path(final) as tmp:
        write(tmp)


def write_text(final: Path, text: str, encoding: str = "utf-8") -> None:
    with atomic_path(final) as tmp:
        tmp.write_text(text, encoding=encoding)


def write_pieces(final: Path, pieces: Iterable[str], encoding: str = "utf-8") -> None:
    """write_text of "".join(pieces), written as they come rather than joined first."""
    with atomic_path(final) as tmp, tmp.open("w", encoding=encoding) as fh:
        for piece in pieces:
            fh.write(piece)


def write_bytes(final: Path, data: bytes) -> None:
    with atomic_path(final) as tmp:
        tmp.write_bytes(data)


def _fsync_dir(folder: Path) -> None:
    """Make the rename itself durable (POSIX); a no-op where folders cannot be opened."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
