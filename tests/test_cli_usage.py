"""Usage mistakes exit 2 with a usage line or one error line, never `internal error` (exit 1).

The commands are discovered from the click group itself, so a command added later is walked too: each one is
called with nothing, with an empty required argument, with a non-number for every numeric option and with
an option that does not exist. Runs go through `lmscreen.cli.main` in-process (the same function the console
script calls), so no interpreter start per case on a shared machine.
"""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import click
import pytest

from lmscreen.cli import _register, app, main


def _commands() -> list[tuple[list[str], Any]]:
    """(argv path, click command) for every leaf command of the app."""
    _register()
    found: list[tuple[list[str], Any]] = []

    def walk(cmd: Any, path: list[str]) -> None:
        subs = getattr(cmd, "commands", None)
        if subs:
            for name, sub in subs.items():
                walk(sub, [*path, name])
        else:
            found.append((path, cmd))

    walk(app, [])
    return found


COMMANDS = _commands()
IDS = [" ".join(p) for p, _ in COMMANDS]


def _numeric(param: Any) -> bool:
    return isinstance(param.type, (click.types.IntParamType, click.types.FloatParamType))


def _filled(cmd: Any) -> list[str]:
    """Plausible values for every required parameter, so that only the mistake under test is left."""
    argv: list[str] = []
    for p in cmd.params:
        if not p.required:
            continue
        if p.param_type_name == "argument":
            argv.append("Qwen/Qwen3-8B")
        else:
            argv += [p.opts[0], "vllm"]
    return argv


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as info:
        main(argv)
    out, err = capsys.readouterr()
    code = info.value.code
    return (code if isinstance(code, int) else 1), out, err


def assert_usage_error(rc: int, err: str, argv: list[str]) -> None:
    assert rc == 2, f"{argv}: exit {rc}\n{err}"
    assert "internal error" not in err and "Traceback" not in err, err
    lines = [x for x in err.splitlines() if x.strip()]
    if lines and lines[0].startswith("lmscreen: error:"):
        assert len(lines) == 1, err  # our own errors: one line
    else:  # click's: the usage line, the --help hint, the error
        assert any(x.lstrip().startswith("Usage: lmscreen") for x in lines), err


@pytest.fixture(autouse=True)
def _no_server_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[None]:
    for name in ("OPENAI_BASE_URL", "OPENAI_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    # An empty history of its own: `lmscreen history` with no runs recorded is what these tests expect,
    # whichever tests ran before and recorded runs in the session's shared history.
    monkeypatch.setenv("LMSCREEN_HOME", str(tmp_path / "lmscreen-home"))
    yield


def test_every_command_is_discovered() -> None:
    assert {"screen", "report", "doctor", "model decode", "model inspect", "model fit"} <= set(IDS)
    assert {"model launch", "model recommend"} <= set(IDS)


def test_unknown_command_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, err = run(["scren", "x"], capsys)
    assert_usage_error(rc, err, ["scren"])
    assert "No such command 'scren'" in err and "screen" in err and "--help" in err


def test_no_arguments_prints_help_and_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, err = run([], capsys)
    assert rc == 2 and "Usage: lmscreen" in out + err and "internal error" not in err


@pytest.mark.parametrize(("path", "cmd"), COMMANDS, ids=IDS)
def test_missing_arguments(
    path: list[str], cmd: Any, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    if path == ["pool", "fetch"]:
        # No required argument, so it really calls the vendor, which this machine cannot reach: the vendor
        # is refused at once (a closed local port as the proxy, as on a blocked network) and the pacing and
        # backoff (ours and akshare's own) run on a fake clock; the retries and the one-line error are real.
        for name in ("HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy"):
            monkeypatch.setenv(name, "http://127.0.0.1:9")
        for name in ("NO_PROXY", "no_proxy"):
            monkeypatch.delenv(name, raising=False)
        try:  # baostock's own socket ignores the proxy: its server is the closed port too
            import baostock.common.contants as baostock_server

            monkeypatch.setattr(baostock_server, "BAOSTOCK_SERVER_IP", "127.0.0.1")
            monkeypatch.setattr(baostock_server, "BAOSTOCK_SERVER_PORT", 9)
        except ImportError:
            pass
        monkeypatch.setattr(time, "sleep", lambda _s: None)
    rc, _, err = run(path, capsys)
    assert_usage_error(rc, err, path)
    if any(p.required for p in cmd.params):
        assert f"Try 'lmscreen {' '.join(path)} --help' for help." in err
        assert "Missing" in err


@pytest.mark.parametrize(("path", "cmd"), COMMANDS, ids=IDS)
def test_bad_arguments(
    path: list[str], cmd: Any, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path
) -> None:
    monkeypatch.chdir(tmp_path)  # an empty folder: an empty path argument names nothing usable
    cases: list[list[str]] = [[*path, *_filled(cmd), "--no-such-option"]]
    required = [p for p in cmd.params if p.required and p.param_type_name == "argument"]
    if required:  # the first required argument empty, the rest plausible
        filled = _filled(cmd)
        cases.append([*path, "", *filled[1:]])
    numeric = [p for p in cmd.params if p.param_type_name == "option" and _numeric(p)]
    for p in numeric:
        cases.append([*path, *_filled(cmd), p.opts[0], "not-a-number"])
    for argv in cases:
        rc, _, err = run(argv, capsys)
        assert_usage_error(rc, err, argv)
    assert len(cases) >= 2 or not (required or numeric)


@pytest.mark.parametrize(
    "argv",
    [
        ["model", "launch", "Qwen/Qwen3-8B", "--engine", "vllm", "--port", "-1"],
        ["model", "launch", "Qwen/Qwen3-8B", "--engine", "vllm", "--gpus", "0"],
        ["model", "recommend", "--vram-gib", "24", "--limit", "0"],
        ["model", "fit", "Qwen/Qwen3-8B", "--vram-gib", "24", "--gpus", "0"],
        ["screen", "pool.csv", "--concurrency", "0"],
        ["screen", "pool.csv", "--threads", "0"],
        ["doctor", "--base-url", "http://127.0.0.1:9/v1", "--timeout", "-1"],
    ],
)
def test_out_of_range_values(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, err = run(argv, capsys)
    assert_usage_error(rc, err, argv)
    assert out == ""


def test_console_script_path_exits_2_not_1() -> None:
    """The real entry point (`python -m lmscreen`), as the issue reported it."""
    proc = subprocess.run(
        [sys.executable, "-m", "lmscreen", "screen"], capture_output=True, text=True, timeout=600
    )
    assert proc.returncode == 2, proc.stderr
    assert "Usage: lmscreen screen" in proc.stderr and "Missing argument" in proc.stderr
    assert "internal error" not in proc.stderr
