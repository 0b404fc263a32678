"""How many threads llama.cpp may use: the cores this process may really run on, less what others use now.

llama.cpp's worker threads busy-wait between steps. Two runs that each start one thread per core on a
2-core machine spin against each other and each keeps a few percent of its solo speed, where sharing
the cores fairly would keep half. So the default counts only the cores this process is allowed on
(affinity / cgroup quota) and leaves out the cores other processes keep busy *now*: a short sample of
/proc/stat (SAMPLE_S, ~150 ms) less the CPU time of lmscreen's own runs over the same span. It used to be
the 1-minute load average, which lags: seconds after another job ended, an idle 2-core machine still read
1.1 and a run took one thread at two thirds of its speed.

lmscreen's own runs are not "other processes": each embedded run registers itself (a file it holds an
flock on, in one folder per machine) and takes at most its share of the cores among the runs registered
now; it looks again before every row, so a run that started alone gives back cores when another starts and
takes them again when that one ends. Two runs started together both see idle cores in the sample; the
registry is what splits them. A killed run's lock goes with its process, so it never holds cores it does
not use.
"""

from __future__ import annotations

import contextlib
import fcntl
import math
import os
import tempfile
import time
from collections.abc import Callable, Iterable
from pathlib import Path

THREADS_ENV = "LMSCREEN_THREADS"
SAMPLE_S = 0.15
"""How long the CPU-use sample lasts: /proc/stat counts in 10 ms ticks, so 150 ms gives 15 ticks a core
(a resolution of a fifteenth of a core), and it is a small part of a model load."""


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


def choose_threads(requested: int | None = None, runs: int = 1, *, idle: float | None = None) -> int:
    """`requested` (from --threads) wins, then $LMSCREEN_THREADS, then the cores idle now (at least 1), at
    most the usable cores and this run's share of them among `runs` registered runs.

    `idle` is how many of this process's cores other processes leave free (default: `idle_cores_now()`),
    rounded half up: a core another process keeps half busy still counts."""
    fixed = fixed_threads(requested)
    if fixed:
        return fixed
    if idle is None:
        idle = idle_cores_now()
    return max(1, min(usable_cores(), math.floor(idle + 0.5), share_of_cores(runs)))


def _affinity() -> set[int]:
    try:
        return set(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return set(range(os.cpu_count() or 1))


def _read_text(path: str) -> str:
    with open(path, encoding="ascii", errors="replace") as f:
        return f.read()


def _cpu_ticks(stat: str, cores: set[int]) -> tuple[int, int, int]:
    """(busy ticks, all ticks, cores counted) over the `cpuN` lines of /proc/stat for N in `cores`.

    A line is `cpuN user nice system idle iowait irq softirq steal guest guest_nice`; guest time is
    already inside user, and idle plus iowait is what no process used."""
    busy = total = counted = 0
    for line in stat.splitlines():
        name, _, rest = line.partition(" ")
        if not name.startswith("cpu") or not name[3:].isdigit() or int(name[3:]) not in cores:
            continue
        fields = [int(x) for x in rest.split()[:8]]
        fields += [0] * (8 - len(fields))
        all_ticks = sum(fields)
        busy += all_ticks - fields[3] - fields[4]
        total += all_ticks
        counted += 1
    return busy, total, counted


def _process_ticks(read: Callable[[str], str], pid: int) -> int | None:
    """utime + stime of a process (all its threads) from /proc/PID/stat, in the same ticks; None if gone."""
    try:
        fields = read(f"/proc/{pid}/stat").rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])
    except (OSError, IndexError, ValueError):
        return None


def idle_cores_now(
    sample_s: float = SAMPLE_S,
    *,
    cores: Iterable[int] | None = None,
    pids: Iterable[int] | None = None,
    read: Callable[[str], str] = _read_text,
    sleep: Callable[[float], None] = time.sleep,
) -> float:
    """Cores of `cores` (default: this process's affinity) that processes other than `pids` (default: this
    one and every registered lmscreen run) left idle over a `sample_s` sample of /proc/stat.

    What lmscreen's own runs use is not subtracted: the registry shares the cores among them. Where
    /proc/stat cannot be read (not Linux), the 1-minute load average stands in for the busy cores.
    `read` and `sleep` are what a test replaces."""
    wanted = set(cores) if cores is not None else _affinity()
    ours = set(pids) if pids is not None else {os.getpid(), *live_run_pids()}
    try:
        before = _cpu_ticks(read("/proc/stat"), wanted)
        own_before = {pid: _process_ticks(read, pid) for pid in ours}
        sleep(sample_s)
        after = _cpu_ticks(read("/proc/stat"), wanted)
        own_after = {pid: _process_ticks(read, pid) for pid in ours}
    except OSError:
        return _idle_by_load_average(len(wanted))
    counted = after[2]
    per_core = (after[1] - before[1]) / counted if counted else 0.0
    if per_core <= 0:
        return float(counted or len(wanted))  # no tick went by: nothing says a core is busy
    busy = (after[0] - before[0]) / per_core
    own = sum(
        max(0, a - b)
        for pid, b in own_before.items()
        if b is not None and (a := own_after.get(pid)) is not None
    )
    others = min(float(counted), max(0.0, busy - own / per_core))
    return counted - others


def _idle_by_load_average(cores: int) -> float:
    try:
        return max(0.0, cores - os.getloadavg()[0])
    except (AttributeError, OSError):
        return float(cores)


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


def _held_locks(folder: Path | None = None) -> list[Path] | None:
    """Registry files whose process still holds the lock (None when the folder cannot be listed); removes
    dead runs' files on the way."""
    folder = folder or registry_dir()
    held: list[Path] = []
    try:
        entries = list(folder.glob("*.lock"))
    except OSError:
        return None
    for path in entries:
        try:
            fd = os.open(path, os.O_RDONLY)
        except OSError:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            held.append(path)  # held by a live run (a second open file of this process counts as another)
        except OSError:
            pass
        else:
            with contextlib.suppress(OSError):
                path.unlink()  # nobody holds it: a killed run's leftover
        finally:
            os.close(fd)
    return held


def live_runs(folder: Path | None = None) -> int:
    """Registered runs whose process still holds its lock (this one included); removes dead runs' files."""
    held = _held_locks(folder)
    return 1 if held is None else max(1, len(held))


def live_run_pids(folder: Path | None = None) -> set[int]:
    """Process ids of the live registered runs (a registry file is named `PID-….lock`)."""
    pids: set[int] = set()
    for path in _held_locks(folder) or []:
        head = path.name.split("-", 1)[0]
        if head.isdigit():
            pids.add(int(head))
    return pids
