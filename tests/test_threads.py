"""The embedded engine's share of the cores: a registry of live runs that a killed run cannot block, and a
sample of what other processes keep busy now.

Two runs started together both see idle cores and would spin against each other; the registry is what they
see at once (real processes and real flocks here). The CPU sample is driven by a fake /proc: two
snapshots with the sleep between them, so no assertion depends on how busy the test machine is.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from lmscreen.engines.threads import (
    SAMPLE_S,
    THREADS_ENV,
    RunRegistration,
    _cpu_ticks,
    _process_ticks,
    _read_text,
    choose_threads,
    idle_cores_now,
    live_run_pids,
    live_runs,
    registry_dir,
    share_of_cores,
    usable_cores,
)

HOLDER = (
    "import sys, time\n"
    "from pathlib import Path\n"
    "from lmscreen.engines.threads import RunRegistration\n"
    "RunRegistration(Path(sys.argv[1]))\n"
    "print('registered', flush=True)\n"
    "time.sleep(600)\n"
)


def _holder(folder: Path) -> subprocess.Popen[str]:
    proc = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(folder)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert proc.stdout is not None and proc.stdout.readline().strip() == "registered", proc.communicate()
    return proc


def test_live_runs_counts_holders_and_forgets_a_killed_one(tmp_path: Path) -> None:
    folder = tmp_path / "runs"
    mine = RunRegistration(folder)
    try:
        assert live_runs(folder) == 1
        other = _holder(folder)
        try:
            assert live_runs(folder) == 2
            other.send_signal(signal.SIGKILL)
            other.wait(timeout=600)
        finally:
            if other.poll() is None:
                other.kill()
            other.communicate()
        # The kernel dropped the killed run's lock: it no longer counts, and its file is cleared away.
        assert live_runs(folder) == 1
        assert [p.name for p in folder.glob("*.lock")] == [mine.path.name]
    finally:
        mine.close()
    assert live_runs(folder) == 1 and list(folder.glob("*.lock")) == []


def test_two_registered_runs_each_take_at_most_half_the_cores(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.delenv(THREADS_ENV, raising=False)
    folder = tmp_path / "runs"
    mine = RunRegistration(folder)
    other = _holder(folder)
    try:
        runs = live_runs(folder)
        assert runs == 2
        assert choose_threads(None, runs) <= share_of_cores(2) == max(1, usable_cores() // 2)
        assert choose_threads(3, runs) == 3  # --threads still wins
        monkeypatch.setenv(THREADS_ENV, "5")
        assert choose_threads(None, runs) == 5
    finally:
        other.kill()
        other.communicate()
        mine.close()


def test_registry_folder_is_usable_by_every_user(tmp_path: Path, monkeypatch) -> None:
    """The default folder is made sticky and world-writable, like /tmp, so another user's run can register:
    a fresh temp dir makes this process its creator, so the mode is checked for any user, root or not."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    assert registry_dir() == tmp_path / "lmscreen-embedded-runs"
    reg = RunRegistration()
    try:
        assert reg.path.parent == registry_dir()
        assert reg.path.parent.stat().st_mode & 0o7777 == 0o1777
    finally:
        reg.close()


def test_live_run_pids_names_the_processes_holding_a_registration(tmp_path: Path) -> None:
    folder = tmp_path / "runs"
    mine = RunRegistration(folder)
    other = _holder(folder)
    try:
        assert live_run_pids(folder) == {os.getpid(), other.pid}
    finally:
        other.kill()
        other.communicate()
        mine.close()
    assert live_run_pids(folder) == set()


# --- what is busy now: a sample of /proc/stat, driven here by a fake /proc --------------------------------


def _stat(*cores: tuple[int, int]) -> str:
    """A /proc/stat with one `cpuN` line per (busy, idle) tick pair (busy split into user and system)."""
    lines = [f"cpu  {sum(b for b, _ in cores)} 0 0 {sum(i for _, i in cores)} 0 0 0 0 0 0"]
    for n, (busy, idle) in enumerate(cores):
        lines.append(f"cpu{n} {busy - busy // 3} 0 {busy // 3} {idle - 1} 1 0 0 0 0 0")
    return "\n".join([*lines, "intr 1 2 3", "ctxt 99"]) + "\n"


def _pid_stat(pid: int, ticks: int) -> str:
    # /proc/PID/stat: utime and stime are fields 14 and 15; a name with spaces and a ')' must not shift them
    return f"{pid} (python3 x) y) S 1 1 1 0 -1 4194560 100 0 0 0 {ticks - ticks // 2} {ticks // 2} 0 0 20 0 3"


class FakeProc:
    """Two snapshots of /proc (path -> text): `sleep` is the moment between them. No clock involved."""

    def __init__(self, before: dict[str, str], after: dict[str, str]) -> None:
        self.snapshots, self.now, self.slept = [before, after], 0, 0.0

    def read(self, path: str) -> str:
        try:
            return self.snapshots[self.now][path]
        except KeyError:
            raise FileNotFoundError(path) from None

    def sleep(self, seconds: float) -> None:
        self.now, self.slept = 1, seconds


def _sample(before: dict[str, str], after: dict[str, str], pids: set[int], cores: set[int] | None = None):
    fake = FakeProc(before, after)
    idle = idle_cores_now(
        cores={0, 1} if cores is None else cores, pids=pids, read=fake.read, sleep=fake.sleep
    )
    assert fake.slept == SAMPLE_S
    return idle


def test_an_idle_machine_right_after_a_job_counts_as_idle(monkeypatch) -> None:
    """The case the load average got wrong: a job ended a second ago (load average 1.1), nothing runs
    now; 15 ticks a core went by with one tick of work in all: both cores are free."""
    monkeypatch.delenv(THREADS_ENV, raising=False)
    monkeypatch.setattr(os, "getloadavg", lambda: (1.1, 0.8, 0.4))  # what the old default read
    before = {"/proc/stat": _stat((5000, 9000), (7000, 8000))}
    after = {"/proc/stat": _stat((5001, 9014), (7000, 8015))}
    idle = _sample(before, after, pids=set())
    assert idle == pytest.approx(2 - 1 / 15)
    assert choose_threads(None, 1, idle=idle) == min(2, usable_cores())


def test_another_process_busy_now_takes_its_core_and_ours_does_not() -> None:
    before = {"/proc/stat": _stat((100, 100), (100, 100)), "/proc/4242/stat": _pid_stat(4242, 50)}
    # both cores fully busy for 15 ticks; this process used 15 of those 30 ticks: one core is someone else's
    after = {"/proc/stat": _stat((115, 100), (115, 100)), "/proc/4242/stat": _pid_stat(4242, 65)}
    assert _sample(before, after, pids={4242}) == pytest.approx(1.0)
    # the same machine counted as if nothing of it were ours: no core idle
    assert _sample(before, after, pids=set()) == pytest.approx(0.0)


def test_registered_runs_are_ours_and_a_vanished_pid_is_skipped() -> None:
    before = {
        "/proc/stat": _stat((0, 0), (0, 0)),
        "/proc/10/stat": _pid_stat(10, 0),
        "/proc/11/stat": _pid_stat(11, 0),
        "/proc/12/stat": _pid_stat(12, 0),
    }
    # 20 busy ticks of 30: 10 by this process, 6 by another registered run, pid 12 exited in between
    after = {
        "/proc/stat": _stat((12, 3), (8, 7)),
        "/proc/10/stat": _pid_stat(10, 10),
        "/proc/11/stat": _pid_stat(11, 6),
    }
    assert _sample(before, after, pids={10, 11, 12}) == pytest.approx(2 - 4 / 15)


def test_only_the_cores_this_process_may_use_are_sampled() -> None:
    before = {"/proc/stat": _stat((0, 0), (0, 0), (0, 0))}
    after = {"/proc/stat": _stat((0, 15), (15, 0), (15, 0))}  # cpu1 and cpu2 busy with others' work
    assert _sample(before, after, pids=set(), cores={0, 2}) == pytest.approx(1.0)
    assert _sample(before, after, pids=set(), cores={0}) == pytest.approx(1.0)
    assert _sample(before, after, pids=set(), cores={1, 2}) == pytest.approx(0.0)


def test_without_proc_stat_the_load_average_stands_in(monkeypatch) -> None:
    monkeypatch.setattr(os, "getloadavg", lambda: (1.25, 0.0, 0.0))
    fake = FakeProc({}, {})
    assert idle_cores_now(cores={0, 1}, pids=set(), read=fake.read, sleep=fake.sleep) == pytest.approx(0.75)


def test_the_thread_count_rounds_idle_cores_half_up_and_keeps_one(monkeypatch) -> None:
    monkeypatch.delenv(THREADS_ENV, raising=False)
    cores = usable_cores()
    assert choose_threads(None, 1, idle=0.0) == 1
    assert choose_threads(None, 1, idle=0.5) == 1
    assert choose_threads(None, 1, idle=cores - 0.5) == cores
    assert choose_threads(None, 1, idle=cores - 0.6) == max(1, cores - 1)
    assert choose_threads(None, 1, idle=cores + 4.0) == cores
    assert choose_threads(None, 2, idle=float(cores)) == max(1, cores // 2)
    assert choose_threads(1, 1, idle=float(cores)) == 1


def test_the_real_proc_is_read() -> None:
    """The real /proc/stat and /proc/PID/stat parse (a format change would give 0 cores or a crash)."""
    ticks = _process_ticks(_read_text, os.getpid())
    assert ticks is not None and ticks >= 0
    affinity = os.sched_getaffinity(0)
    busy, total, counted = _cpu_ticks(_read_text("/proc/stat"), set(affinity))
    assert counted == len(affinity) and 0 <= busy <= total and total > 0
    assert 0.0 <= idle_cores_now() <= len(affinity)
