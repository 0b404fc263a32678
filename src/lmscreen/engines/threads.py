"""How many threads llama.cpp may use: the cores this process may really run on, less what others use.

llama.cpp's worker threads busy-wait between steps. Two runs that each start one thread per core on a
2-core machine spin against each other and each keeps a few percent of its solo speed, where sharing
the cores fairly would keep half. So the default counts only the cores this process is allowed on
(affinity / cgroup quota) and leaves out the cores the 1-minute load average says are already busy.
"""

from __future__ import annotations

import os

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


def choose_threads(requested: int | None = None) -> int:
    """`requested` (from --threads) wins, then $LMSCREEN_THREADS, then idle usable cores (at least 1)."""
    if requested:
        return max(1, int(requested))
    env = os.environ.get(THREADS_ENV, "").strip()
    if env.isdigit() and int(env) > 0:
        return int(env)
    cores = usable_cores()
    try:
        busy = os.getloadavg()[0]
    except (AttributeError, OSError):
        busy = 0.0
    return max(1, min(cores, round(cores - busy)))
