"""An API key given by flag, by environment or inside the base URL never lands in anything a run leaves.

Every file under OUT (whatever writers exist by then: results, run.json, report.html, report.md, the
checkpoint and its WAL, …) and under LMSCREEN_HOME (the run history), plus everything the command printed,
is searched byte for byte for the key. The fault proxy in front of a real loopback server shows the key
really went out in the Authorization header, so a run that silently dropped it could not pass.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from faultproxy import FaultProxy
from fixed_server import FAKE_MODEL
from inproc import run_lmscreen
from servers import FakeServerProcess

ROOT = Path(__file__).resolve().parents[1]
POOL = ROOT / "examples" / "pool.csv"
REPORTS = ROOT / "examples" / "reports"
KEY = "sk-lmscreen-SECRET-5b1e0c7d9a"
NEEDLES = [KEY.encode(), KEY[3:].encode(), KEY.encode("utf-16-le")]


@pytest.fixture(scope="module")
def upstream(fake_openai: FakeServerProcess) -> FakeServerProcess:
    return fake_openai


@pytest.fixture()
def proxy(upstream: FakeServerProcess) -> Iterator[FaultProxy]:
    with FaultProxy(f"http://127.0.0.1:{upstream.port}") as prx:
        yield prx


def run_cli(args: list[str], home: Path, env_key: bool) -> subprocess.CompletedProcess[bytes]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("OPENAI_")}
    env["LMSCREEN_HOME"] = str(home)
    if env_key:
        env["OPENAI_API_KEY"] = KEY
    return run_lmscreen(args, env=env, text=False)  # in this process, fd 1 and 2 captured (tests/inproc.py)


def leaks(root: Path) -> list[str]:
    found = []
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        data = path.read_bytes()
        if any(n in data for n in NEEDLES):
            found.append(str(path))
    return found


def screen_args(out: Path, base_url: str, *extra: str) -> list[str]:
    return [
        "screen",
        str(POOL),
        "--reports",
        str(REPORTS),
        "--out",
        str(out),
        "--limit",
        "4",
        "--engine",
        "openai",
        "--base-url",
        base_url,
        "--model",
        FAKE_MODEL,
        *extra,
    ]


@pytest.mark.parametrize("how", ["flag", "env", "url"])
def test_api_key_never_reaches_files_or_output(proxy: FaultProxy, tmp_path: Path, how: str) -> None:
    out, home = tmp_path / "out", tmp_path / "home"
    base_url = proxy.base_url
    extra: list[str] = []
    if how == "flag":
        extra = ["--api-key", KEY]
    elif how == "url":
        base_url = base_url.replace("http://", f"http://user:{KEY}@")
    proxy.inject("status", 2, status=500)  # failed attempts: their error texts get recorded and logged too
    done = run_cli(screen_args(out, base_url, *extra), home, env_key=how == "env")
    assert done.returncode == 0, done.stderr.decode(errors="replace")
    sent = proxy.requests_to("/v1/")
    if how != "url":  # the key was really used (httpx sends URL credentials as Basic auth instead)
        assert any(s.headers.get("authorization") == f"Bearer {KEY}" for s in sent)
    printed = done.stdout + done.stderr
    assert not any(n in printed for n in NEEDLES), printed.decode(errors="replace")
    assert (
        (out / "results.csv").is_file() and (out / "run.json").is_file() and (out / "report.html").is_file()
    )
    rerun = run_cli(screen_args(out, base_url, *extra), home, env_key=how == "env")  # the resume path
    assert rerun.returncode == 0 and not any(n in rerun.stdout + rerun.stderr for n in NEEDLES)
    report = run_cli(["report", str(out)], home, env_key=how == "env")
    assert not any(n in report.stdout + report.stderr for n in NEEDLES)
    assert leaks(out) == [] and leaks(home) == []


def test_api_key_not_in_error_messages(proxy: FaultProxy, tmp_path: Path) -> None:
    """Runs that stop with exit 2 (wrong model name, rejected key) say why without the key."""
    home = tmp_path / "home"
    wrong = screen_args(tmp_path / "wrong", proxy.base_url, "--api-key", KEY)
    wrong[wrong.index(FAKE_MODEL)] = "no-such-model"
    done = run_cli(wrong, home, env_key=False)
    assert done.returncode == 2, done.stderr
    # The server rejects the key on every request, as a real one does: the run stops before any row with
    # exit 2 (unusable input) and says so, instead of sending every row to fail.
    proxy.inject("status", None, status=401, path="/v1/")
    rejected = run_cli(screen_args(tmp_path / "rejected", proxy.base_url, "--api-key", KEY), home, False)
    assert rejected.returncode == 2, rejected.stderr
    assert b"rejected the API key (HTTP 401)" in rejected.stderr
    assert proxy.requests_to("/v1/chat/completions") == []
    proxy.clear()
    proxy.inject("status", None, status=401, path="/v1/models")
    doctor_args = ["doctor", "--base-url", proxy.base_url, "--api-key", KEY, "--json"]
    doctor = run_cli(doctor_args, home, env_key=False)
    assert b'"status"' in doctor.stdout  # doctor ran its checks (exit 1 there means a check failed)
    for proc in (done, rejected, doctor):
        assert b"internal error" not in proc.stderr and b"Traceback" not in proc.stderr, proc.stderr
        assert not any(n in proc.stdout + proc.stderr for n in NEEDLES)
    assert leaks(tmp_path) == []


NOTIFY_TOKEN = "wecom-SECRET-TOKEN-8c2f1e"
NOTIFY_NEEDLES = [NOTIFY_TOKEN.encode(), NOTIFY_TOKEN[6:].encode()]


def notify_leaks(root: Path) -> list[str]:
    """Files holding the token, except config.toml: that is where the user keeps it."""
    return [
        str(p)
        for p in sorted(root.rglob("*"))
        if p.is_file() and p.name != "config.toml" and any(n in p.read_bytes() for n in NOTIFY_NEEDLES)
    ]


@pytest.mark.parametrize("how", ["flag", "config"])
def test_notification_url_tokens_never_reach_files_or_output(tmp_path: Path, how: str) -> None:
    pytest.importorskip("apprise")
    from receivers import webhook

    out, home = tmp_path / "out", tmp_path / "home"
    home.mkdir()
    with webhook() as good, webhook(fail_first=99) as bad:
        urls = [
            f"json://bot:{NOTIFY_TOKEN}@127.0.0.1:{good.port}/{NOTIFY_TOKEN}?rto=1&cto=1",
            f"json://127.0.0.1:{bad.port}/{NOTIFY_TOKEN}?rto=1&cto=1",  # answers 500: its error is kept
        ]
        extra: list[str] = []
        if how == "flag":
            extra = [a for u in urls for a in ("--notify", u)]
            (home / "config.toml").write_text("notify_backoff_s = 0\n", encoding="utf-8")
        else:
            listed = ", ".join(f'"{u}"' for u in urls)
            (home / "config.toml").write_text(
                f"notify = [{listed}]\nnotify_backoff_s = 0\n", encoding="utf-8"
            )
        args = ["screen", str(POOL), "--no-llm", "--quiet", "--out", str(out), *extra]
        done = run_cli(args, home, env_key=False)
        again = run_cli(["notify", str(out), "--test", *extra], home, env_key=False)
    assert done.returncode == 0, done.stderr.decode(errors="replace")
    assert again.returncode == 1  # one target failed: `notify --test` says so by its exit code
    assert good.paths and all(NOTIFY_TOKEN in p for p in good.paths + bad.paths)  # the token went out
    assert bad.answers and set(bad.answers) == {500}
    for proc in (done, again):
        printed = proc.stdout + proc.stderr
        assert b"not delivered" in printed and b"Traceback" not in printed
        assert not any(n in printed for n in NOTIFY_NEEDLES), printed.decode(errors="replace")
    run = (out / "run.json").read_text("utf-8")
    assert '"failed": 1' in run and '"delivered": 1' in run
    assert notify_leaks(out) == [] and notify_leaks(home) == []
