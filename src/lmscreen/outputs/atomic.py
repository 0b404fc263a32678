"""Write an output file whole or not at all: a temp name in the same folder, fsync, then os.replace.

A killed or crashed run therefore leaves either the previous complete file or the new complete one, never
half of a results.csv beside a complete checkpoint. Every writer of outputs/ and report/ goes through here.

The folder's own fsync (which makes a rename survive a power cut) costs ~5 ms a call on the dev machines,
paid once per file: inside `folder_sync_once()` the renames of a block are synced together at its end, so a
run writing six files into one OUT folder pays it once. Each file's data is still fsynced before its rename,
so a file is never seen half written, with or without the block.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path


class _Deferred(threading.local):
    """Per thread: the folders whose fsync waits for the end of the innermost `folder_sync_once` block
    (no block: each is synced at once). Per thread, so another thread's writes are never held back."""

    def __init__(self) -> None:
        self.blocks: list[set[Path]] = []


_DEFERRED = _Deferred()


@contextmanager
def folder_sync_once() -> Iterator[None]:
    """Within the block, each folder an atomic write renamed into is fsynced once, when the block ends
    (normally or not: what was renamed is made durable either way). For a burst of outputs written one
    after another (screen's results, run.json, reports), never for a long run's checkpoints."""
    folders: set[Path] = set()
    blocks = _DEFERRED.blocks
    blocks.append(folders)
    try:
        yield
    finally:
        blocks.pop()  # blocks nest, so this one is the innermost
        for folder in sorted(folders):
            _fsync_dir(folder)


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
    if _DEFERRED.blocks:
        _DEFERRED.blocks[-1].add(final.parent)
    else:
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
