"""The embedded engine's share of the cores: a registry of live runs that a killed run cannot block.

The load average lags a minute, so two runs started together both see idle cores and spin against each
other; the registry is what they see at once. These tests use real processes and real flocks.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

from lmscreen.engines.threads import (
    THREADS_ENV,
    RunRegistration,
    choose_threads,
    live_runs,
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


def test_registry_folder_is_usable_by_every_user() -> None:
    reg = RunRegistration()
    try:
        mode = reg.path.parent.stat().st_mode & 0o7777
        assert os.getuid() != 0 or mode == 0o1777 or mode & 0o002  # sticky world-writable, like /tmp
    finally:
        reg.close()
