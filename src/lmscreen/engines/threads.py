"""How many threads llama.cpp may use: the cores this process may really run on, less what others use.

llama.cpp's worker threads busy-wait between steps. Two runs that each start one thread per core on a
2-core machine spin against each other and each keeps a few percent of its solo speed, where sharing
the cores fairly would keep half. So the default counts only the cores this process is allowed on
(affinity / cgroup quota) and leaves out the cores the 1-minute load average says are already busy.

The load average lags by a minute, so two runs started together both see idle cores. Each embedded run
therefore also registers itself (a file it holds an flock on, in one folder per machine) and takes at most
its share of the cores among the runs registered now; it looks again before every row, so a run that
started alone gives back cores when another starts and takes them again when that one ends. A killed run's
lock goes with its process, so it never holds cores it does not use.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import tempfile
from pathlib import Path

THREADS_ENV = "LMSCREEN_THREADS"


def usable_cores() -> int:
    """Cores this process may run on: CPU affinity, capped by a cgroup v2 CPU quota when one is set."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    try:
        quota, period = open("/sys/fs/cgroup/cpu.max").read().split()[:2]
        if quota != "max":
            cores = min(cores, max(1, int(int(quota) // int(period))))
    except (OSError, ValueError):
        pass
    return max(1, cores)


def fixed_threads(requested: int | None = None) -> int | None:
    """The thread count the user fixed (--threads, then $LMSCREEN_THREADS), or None to choose one."""
    if requested:
        return max(1, int(requested))
    env = os.environ.get(THREADS_ENV, "").strip()
    if env.isdigit() and int(env) > 0:
        return int(env)
    return None


def choose_threads(requested: int | None = None, runs: int = 1) -> int:
    """`requested` (from --threads) wins, then $LMSCREEN_THREADS, then idle usable cores (at least 1),
    at most this run's share of the usable cores among `runs` registered runs."""
    fixed = fixed_threads(requested)
    if fixed:
        return fixed
    cores = usable_cores()
    try:
        busy = os.getloadavg()[0]
    except (AttributeError, OSError):
        busy = 0.0
    return max(1, min(cores, round(cores - busy), share_of_cores(runs)))


def share_of_cores(runs: int) -> int:
    """Usable cores divided among `runs` runs (at least 1 each)."""
    return max(1, usable_cores() // max(1, runs))


def registry_dir() -> Path:
    """One folder per machine where live embedded runs register (world-writable and sticky, like /tmp)."""
    return Path(tempfile.gettempdir()) / "lmscreen-embedded-runs"


class RunRegistration:
    """This run's entry in the registry: a file it holds an exclusive flock on until `close()` or death."""

    def __init__(self, folder: Path | None = None) -> None:
        folder = folder or registry_dir()
        if not folder.is_dir():
            folder.mkdir(parents=True, exist_ok=True)
            with contextlib.suppress(OSError):
                folder.chmod(0o1777)
        # Locked under a temporary name, then renamed: every *.lock a counter sees is already held, so
        # the counter can delete unheld ones as left behind by killed runs without racing a starting run.
        stem = f"{os.getpid()}-{id(self):x}"
        temp = folder / f".{stem}.tmp"
        self._fd: int | None = os.open(temp, os.O_CREAT | os.O_RDWR, 0o644)
        fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        self.path = folder / f"{stem}.lock"
        os.replace(temp, self.path)

    def close(self) -> None:
        if self._fd is None:
            return
        with contextlib.suppress(OSError):
            self.path.unlink()
        os.close(self._fd)
        self._fd = None


def live_runs(folder: Path | None = None) -> int:
    """Registered runs whose process still holds its lock (this one included); removes dead runs' files."""
    folder = folder or registry_dir()
    count = 0
    try:
        entries = list(folder.glob("*.lock"))
    except OSError:
        return 1
    for path in entries:
        try:
            fd = os.open(path, os.O_RDONLY)
        except OSError:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            count += 1  # held by a live run (a second open file of this process counts as another holder)
        except OSError:
            pass
        else:
            with contextlib.suppress(OSError):
                path.unlink()  # nobody holds it: a killed run's leftover
        finally:
            os.close(fd)
    return max(1, count)
