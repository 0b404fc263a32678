"""The OUT folder a run owns: one live run per folder, and proof that we can write there before any LLM call.

The lock is an OS lock (`flock`) on OUT/.lmscreen.lock, not a pid file: the kernel drops it when the holder
exits for any reason, SIGKILL included, so a killed run never blocks the next one and no stale-pid guessing
is needed. The file keeps the holder's pid only so the second run can say who holds the folder.
"""

from __future__ import annotations

import errno
import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from lmscreen.errors import InputError

LOCK_NAME = ".lmscreen.lock"
PROBE_BYTES = 1 << 20
"""Written and fsynced before the run starts: a full disk or read-only folder fails now, not in an hour."""
MIN_FREE_BYTES = 16 << 20


@contextmanager
def hold(out: Path) -> Iterator[None]:
    """Own `out` for the duration of the block; InputError (exit 2) naming the holder if another run does."""
    try:
        import fcntl
    except ImportError:  # not POSIX: no OS lock to take, the run proceeds unguarded
        yield
        return
    path = out / LOCK_NAME
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        raise InputError(f"{out}: cannot write in the output folder ({_why(exc)})") from exc
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            if exc.errno not in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                raise InputError(f"{out}: cannot lock the output folder ({_why(exc)})") from exc
            holder = os.pread(fd, 64, 0).decode("ascii", "replace").strip() or "unknown"
            raise InputError(
                f"{out}: another lmscreen run (pid {holder}) is writing to this folder; "
                "wait for it to finish or pass another --out"
            ) from None
        try:
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        except OSError as exc:
            raise InputError(f"{out}: cannot write in the output folder ({_why(exc)})") from exc
        _remove_stale_temps(out)
        yield
    finally:
        os.close(fd)  # closing releases the lock; the file stays (removing it would race a waiting run)


def probe_writable(out: Path) -> None:
    """Write, fsync and remove a probe file: InputError if the folder is read-only or the disk is full."""
    try:
        free = shutil.disk_usage(out).free
    except OSError:
        free = None
    if free is not None and free < MIN_FREE_BYTES:
        raise InputError(
            f"{out}: only {free // 1024} KiB free on this disk; free some space or pass another --out"
        )
    probe = out / f".lmscreen-probe-{os.getpid()}"
    try:
        with probe.open("wb") as fh:
            fh.write(b"\0" * PROBE_BYTES)
            fh.flush()
            os.fsync(fh.fileno())
    except OSError as exc:
        raise InputError(f"{out}: cannot write in the output folder ({_why(exc)})") from exc
    finally:
        try:
            probe.unlink()
        except OSError:
            pass


def _remove_stale_temps(out: Path) -> None:
    """Temp files (report/atomic.py) a killed run left: we hold the folder now, so none is being written."""
    for tmp in out.glob(".*.tmp"):
        try:
            tmp.unlink()
        except OSError:
            pass


def _why(exc: OSError) -> str:
    return exc.strerror or type(exc).__name__
