"""`lmscreen ARGS...` run inside the test process, answered as `subprocess.run` answers.

Why: a `python -m lmscreen` child costs an interpreter start and the imports of the data stack on every
call (about half a second on two idle cores, far more under load), and most CLI tests are about what the
command writes and which exit code and stderr line it gives, not about being a separate process. This runs
the console script's own entry point (`lmscreen.cli.main`, which maps errors onto exit codes) with the
given environment and working folder, and captures stdout and stderr at the file-descriptor level (as a
pipe to a child would), so anything written by C code or by `os.write` is caught too.

Tests about process behaviour (SIGKILL, locks held by another process, the console script's exit status,
imports a fresh interpreter makes, a child's memory) keep their subprocesses.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path


@contextlib.contextmanager
def _environment(env: Mapping[str, str] | None, cwd: str | Path | None) -> Iterator[None]:
    saved_env = dict(os.environ)
    saved_cwd = os.getcwd()
    try:
        if env is not None:
            os.environ.clear()
            os.environ.update(env)
        if cwd is not None:
            os.chdir(cwd)
        yield
    finally:
        os.chdir(saved_cwd)
        os.environ.clear()
        os.environ.update(saved_env)


@contextlib.contextmanager
def _captured_fds() -> Iterator[tuple[object, object]]:
    """fd 1 and 2 (and sys.stdout / sys.stderr on them) go to two temporary files while the block runs."""
    sys.stdout.flush()
    sys.stderr.flush()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        saved = os.dup(1), os.dup(2)
        saved_streams = sys.stdout, sys.stderr
        os.dup2(out.fileno(), 1)
        os.dup2(err.fileno(), 2)
        sys.stdout = open(1, "w", encoding="utf-8", errors="replace", closefd=False)  # noqa: SIM115
        sys.stderr = open(2, "w", encoding="utf-8", errors="replace", closefd=False)  # noqa: SIM115
        try:
            yield out, err
        finally:
            for stream in (sys.stdout, sys.stderr):
                with contextlib.suppress(Exception):
                    stream.flush()
                    stream.close()
            sys.stdout, sys.stderr = saved_streams
            os.dup2(saved[0], 1)
            os.dup2(saved[1], 2)
            os.close(saved[0])
            os.close(saved[1])


def run_lmscreen(
    args: Sequence[str],
    *,
    env: Mapping[str, str] | None = None,
    cwd: str | Path | None = None,
    text: bool = True,
) -> subprocess.CompletedProcess:
    """`lmscreen *args` in this process: returncode, stdout and stderr as `subprocess.run(...,
    capture_output=True, text=text)` gives them for `[sys.executable, "-m", "lmscreen", *args]`."""
    from lmscreen.cli import main

    code: int = 0
    argv = [str(a) for a in args]
    with _environment(env, cwd), _captured_fds() as (out, err):
        try:
            main(argv)
        except SystemExit as stop:
            if stop.code is None:
                code = 0
            elif isinstance(stop.code, int):
                code = stop.code
            else:
                print(stop.code, file=sys.stderr)
                code = 1
        sys.stdout.flush()
        sys.stderr.flush()
        out.seek(0)  # type: ignore[attr-defined]
        err.seek(0)  # type: ignore[attr-defined]
        stdout: bytes | str = out.read()  # type: ignore[attr-defined]
        stderr: bytes | str = err.read()  # type: ignore[attr-defined]
    if text:
        stdout = stdout.decode("utf-8", errors="replace")  # type: ignore[union-attr]
        stderr = stderr.decode("utf-8", errors="replace")  # type: ignore[union-attr]
    return subprocess.CompletedProcess(["lmscreen", *argv], code, stdout, stderr)


def strip_lmscreen(cmd: Sequence[str]) -> list[str] | None:
    """The lmscreen arguments of a `[python, "-m", "lmscreen", ...]` command, or None for another one."""
    if len(cmd) >= 3 and cmd[0] == sys.executable and cmd[1] == "-m" and cmd[2] == "lmscreen":
        return [str(a) for a in cmd[3:]]
    return None
