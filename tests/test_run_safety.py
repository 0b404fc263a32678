"""What an unattended run must survive: a second run on the same OUT folder, a damaged / locked / foreign
checkpoint, a read-only or full disk, and a crash while an output file is being written.

The LLM side is a real loopback HTTP server (tests/servers.py's fixed-latency OpenAI server; through the
fault proxy where the test must count what was sent): these tests are about the run's files, not the model.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from faultproxy import FaultProxy
from fixed_server import FAKE_MODEL
from inproc import run_lmscreen, strip_lmscreen
from lmscreen.outputs.atomic import write_with
from lmscreen.run.outdir import LOCK_NAME
from servers import FakeServerProcess

ROOT = Path(__file__).resolve().parents[1]
POOL = ROOT / "examples" / "pool.csv"
REPORTS = ROOT / "examples" / "reports"


def clean_env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if not k.startswith("OPENAI_")}


def screen_argv(out: Path, base_url: str | None, *extra: str) -> list[str]:
    argv = [sys.executable, "-m", "lmscreen", "screen", str(POOL), "--reports", str(REPORTS)]
    argv += ["--out", str(out), "--limit", "3", "--quiet"]
    if base_url is None:
        return [*argv, "--no-llm", *extra]
    return [*argv, "--engine", "openai", "--base-url", base_url, "--model", FAKE_MODEL, *extra]


def screen(out: Path, base_url: str | None, *extra: str) -> subprocess.CompletedProcess[str]:
    """The run in this process (tests/inproc.py): these tests are about its files, exit code and message."""
    return run_lmscreen(strip_lmscreen(screen_argv(out, base_url, *extra)), env=clean_env())


def one_line(proc: subprocess.CompletedProcess[str]) -> str:
    lines = [x for x in proc.stderr.splitlines() if x.strip()]
    assert len(lines) == 1, proc.stderr
    return lines[0]


@pytest.fixture(scope="module")
def fake(fake_openai: FakeServerProcess) -> FakeServerProcess:
    return fake_openai


@pytest.fixture(scope="module")
def slow() -> Iterator[FakeServerProcess]:
    """Answers nothing for ten minutes: a run against it is a live run that holds its OUT folder."""
    with FakeServerProcess(latency=600.0) as srv:
        yield srv


# ------------------------------------------------------------------------------------------ the OUT lock


def _wait_for_holder(out: Path, proc: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + 300
    lock = out / LOCK_NAME
    while time.monotonic() < deadline:
        assert proc.poll() is None, proc.communicate()
        if lock.is_file() and lock.read_text().strip() == str(proc.pid):
            return
        time.sleep(0.1)
    raise AssertionError("the first run never took its lock")


def test_second_run_on_a_held_folder_exits_2_and_a_killed_holder_blocks_nothing(
    slow: FakeServerProcess, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    first = subprocess.Popen(
        screen_argv(out, slow.base_url),
        env=clean_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        _wait_for_holder(out, first)
        second = screen(out, None)
        assert second.returncode == 2, second.stderr
        line = one_line(second)
        assert f"pid {first.pid}" in line and str(out) in line and "--out" in line
        assert not (out / "results.csv").exists()  # the second run wrote nothing there
        elsewhere = screen(tmp_path / "other", None)  # the lock is per folder
        assert elsewhere.returncode == 0, elsewhere.stderr
        first.send_signal(signal.SIGKILL)
        first.wait(timeout=60)
    finally:
        if first.poll() is None:
            first.kill()
        first.communicate()
    assert list(out.glob(".lmscreen-spill-*"))  # the killed run's judged chunks, kept while it waited
    after = screen(out, None)  # the kernel dropped the dead run's lock: no stale-pid guessing
    assert after.returncode == 0, after.stderr
    assert (out / "results.csv").is_file()
    assert not list(out.glob(".lmscreen-spill-*"))  # the next run on the folder cleared them


# ------------------------------------------------------------------------------------------ checkpoints


@pytest.fixture()
def finished(fake: FakeServerProcess, tmp_path: Path) -> Path:
    out = tmp_path / "run"
    done = screen(out, fake.base_url)
    assert done.returncode == 0, done.stderr
    assert (out / "checkpoint.sqlite").stat().st_size > 0
    return out


def _assert_refused_with_fresh_hint(out: Path, base_url: str, words: str) -> None:
    before = (out / "results.csv").read_bytes()
    again = screen(out, base_url)
    assert again.returncode == 2, again.stderr
    line = one_line(again)
    assert "checkpoint.sqlite" in line and words in line and "--fresh" in line, line
    assert (out / "results.csv").read_bytes() == before  # nothing was rewritten from a bad store
    fresh = screen(out, base_url, "--fresh")
    assert fresh.returncode == 0, fresh.stderr


def test_truncated_checkpoint_is_refused_with_the_fresh_hint(fake: FakeServerProcess, finished: Path) -> None:
    db = finished / "checkpoint.sqlite"
    for side in ("-wal", "-shm"):
        Path(str(db) + side).unlink(missing_ok=True)
    data = db.read_bytes()
    db.write_bytes(data[: len(data) // 2])
    _assert_refused_with_fresh_hint(finished, fake.base_url, "damaged")


def test_garbage_checkpoint_is_refused(fake: FakeServerProcess, finished: Path) -> None:
    (finished / "checkpoint.sqlite").write_bytes(b"not a database " * 200)
    _assert_refused_with_fresh_hint(finished, fake.base_url, "damaged")


def test_checkpoint_from_another_version_is_refused(fake: FakeServerProcess, finished: Path) -> None:
    with sqlite3.connect(finished / "checkpoint.sqlite") as con:
        con.execute("UPDATE meta SET value = '0.0.1' WHERE key = 'lmscreen_version'")
    _assert_refused_with_fresh_hint(finished, fake.base_url, "lmscreen 0.0.1")


def test_checkpoint_locked_by_another_process_is_refused(
    fake: FakeServerProcess, finished: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from lmscreen.run import checkpoint

    monkeypatch.setattr(checkpoint, "LOCK_WAIT_S", 0.5)  # sqlite's busy wait: a lock held for good is
    # refused after it however long it lasts (10 s in a real run); the test need not sit through it
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sqlite3, sys, time\n"
            "con = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
            "con.execute('BEGIN EXCLUSIVE')\nprint('locked', flush=True)\ntime.sleep(600)\n",
            str(finished / "checkpoint.sqlite"),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        before = (finished / "results.csv").read_bytes()
        again = screen(finished, fake.base_url)
        assert again.returncode == 2, again.stderr
        line = one_line(again)
        assert "locked by another process" in line and "--fresh" in line
        assert (finished / "results.csv").read_bytes() == before
    finally:
        holder.kill()
        holder.wait()
    resumed = screen(finished, fake.base_url)  # once the other process is gone, the run resumes
    assert resumed.returncode == 0, resumed.stderr


# ------------------------------------------------------------------------------- read-only and full disks


def _unshare_available() -> bool:
    if shutil.which("unshare") is None:
        return False
    probe = subprocess.run(["unshare", "-rm", "true"], capture_output=True, timeout=30)
    return probe.returncode == 0


needs_unshare = pytest.mark.skipif(
    not _unshare_available(), reason="needs `unshare -rm` to mount a small or read-only tmpfs"
)


def _screen_on_tmpfs(tmp_path: Path, base_url: str, setup: str) -> subprocess.CompletedProcess[str]:
    """Run screen with OUT on a private 4 MiB tmpfs prepared by `setup` (shell, $M is the mount point)."""
    mount = tmp_path / "mnt"
    mount.mkdir()
    argv = " ".join(f"'{a}'" for a in screen_argv(mount / "out", base_url))
    script = f'set -e; M=\'{mount}\'; mount -t tmpfs -o size=4m tmpfs "$M"; mkdir "$M/out"; {setup}; {argv}'
    return subprocess.run(
        ["unshare", "-rm", "sh", "-c", script], capture_output=True, text=True, env=clean_env(), timeout=600
    )


@needs_unshare
@pytest.mark.parametrize(
    ("setup", "words"),
    [
        ('mount -o remount,ro "$M"', ("Read-only file system",)),
        ('dd if=/dev/zero of="$M/fill" bs=64k 2>/dev/null || true', ("No space left", "free on this disk")),
        ("true", ("KiB free on this disk",)),  # 4 MiB in all: less than a run may need for its outputs
    ],
    ids=["read-only", "full", "nearly-full"],
)
def test_unwritable_out_fails_before_any_llm_call(
    fake: FakeServerProcess, tmp_path: Path, setup: str, words: tuple[str, ...]
) -> None:
    with FaultProxy(f"http://127.0.0.1:{fake.port}") as proxy:
        done = _screen_on_tmpfs(tmp_path, proxy.base_url, setup)
        sent = proxy.requests_to("/v1/chat/completions")
    assert done.returncode == 2, done.stderr
    line = one_line(done)
    assert any(w in line for w in words), line
    assert sent == []


# ------------------------------------------------------------------------------------------ atomic files


def test_a_crash_mid_write_leaves_the_previous_file_whole(tmp_path: Path) -> None:
    final = tmp_path / "results.csv"
    final.write_text("row,code\n1,600519.SH\n", encoding="utf-8")

    def crash_halfway(tmp: Path) -> None:
        tmp.write_text("row,code\n1,600519.SH\n2,0000", encoding="utf-8")
        raise OSError(28, "No space left on device")

    with pytest.raises(OSError):
        write_with(final, crash_halfway)
    assert final.read_text(encoding="utf-8") == "row,code\n1,600519.SH\n"
    assert [p.name for p in tmp_path.iterdir()] == ["results.csv"]  # no temp file left behind
    write_with(final, lambda tmp: tmp.write_text("row,code\n", encoding="utf-8"))
    assert final.read_text(encoding="utf-8") == "row,code\n"


# ------------------------------------------------------------------------------------------ --threads


def test_threads_flag_is_recorded_and_kept_out_of_the_checkpoint_key(tmp_path: Path) -> None:
    out = tmp_path / "threads"
    base = [
        sys.executable,
        "-m",
        "lmscreen",
        "screen",
        str(POOL),
        "--reports",
        str(REPORTS),
        "--out",
        str(out),
    ]
    base += ["--limit", "1", "--quiet"]
    first = run_lmscreen(strip_lmscreen([*base, "--threads", "1"]), env=clean_env())
    assert first.returncode == 0, first.stderr
    run = json.loads((out / "run.json").read_text(encoding="utf-8"))
    assert run["llm"]["engine"]["n_threads"] == 1 and run["options"]["threads"] == 1
    # Read back from llama.cpp's context: prompt reading (n_threads_batch) obeys --threads too; it used to
    # take every core of the machine, so two runs with --threads 1 still spun against each other.
    assert run["llm"]["engine"]["n_threads_batch"] == 1
    assert run["llm"]["sent"] == 1
    again = run_lmscreen(strip_lmscreen([*base, "--threads", "2"]), env=clean_env())
    assert again.returncode == 0, again.stderr
    rerun = json.loads((out / "run.json").read_text(encoding="utf-8"))
    assert rerun["options"]["threads"] == 2
    assert rerun["llm"]["resumed"] == 1 and rerun["llm"]["sent"] == 0  # another thread count still resumes
    # and with nothing left to ask, the model was never loaded
    assert rerun["llm"]["engine_created"] is False
