"""Delivery of a finished run to real receivers on 127.0.0.1: a json:// webhook, an SMTP server with the
report attached, a webhook answering 500 twice then 200 (retries recorded), one that never answers (the run
still exits 0, the failure is in run.json), and `lmscreen notify OUT --test`."""

from __future__ import annotations

import base64
import email
import json
import os
import subprocess
from pathlib import Path

import pytest

pytest.importorskip("apprise")

from inproc import run_lmscreen  # noqa: E402
from lmscreen.notify.deliver import Policy, deliver  # noqa: E402
from lmscreen.notify.message import build  # noqa: E402
from receivers import smtp_server, webhook  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
POOL = ROOT / "examples" / "pool.csv"


def run_cli(args: list[str], home: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, LMSCREEN_HOME=str(home))
    return run_lmscreen(args, env=env)  # in this process, fd 1 and 2 captured (tests/inproc.py)


def _config(home: Path, *urls: str, retries: int = 3) -> None:
    home.mkdir(parents=True, exist_ok=True)
    listed = ", ".join(json.dumps(u) for u in urls)
    text = f"notify = [{listed}]\nnotify_retries = {retries}\nnotify_backoff_s = 0\n"
    (home / "config.toml").write_text(text, encoding="utf-8")


def _screen(tmp_path: Path, home: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    args = ["screen", str(POOL), "--no-llm", "--quiet", "--out", str(tmp_path / "out"), *extra]
    return run_cli(args, home)


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One finished rules-only run, notified nowhere."""
    base = tmp_path_factory.mktemp("run")
    done = run_cli(["screen", str(POOL), "--no-llm", "--quiet", "--out", str(base / "out")], base / "home")
    assert done.returncode == 0, done.stderr
    return base / "out"


def test_message_is_the_runs_summary(finished: Path) -> None:
    msg = build(finished)
    run = json.loads((finished / "run.json").read_text("utf-8"))
    levels = run["counts"]["risk_levels"]
    assert msg.body.splitlines()[0].startswith(f"screened {run['counts']['screened']} rows")
    assert all(f"{k} {v}" in msg.body for k, v in levels.items())
    if levels.get("高"):
        assert "\n高: " in msg.body
    assert "changes: no previous run of this pool" in msg.body
    assert msg.attachment == finished / "report.html" and len(msg.body.splitlines()) <= 8


def test_json_webhook_gets_the_message_from_screen(tmp_path: Path) -> None:
    home = tmp_path / "home"
    with webhook() as hook:
        done = _screen(tmp_path, home, "--notify", hook.url())
        assert done.returncode == 0, done.stderr
    assert len(hook.received) == 1
    got = hook.received[0]
    assert got["title"].startswith("lmscreen pool.csv") and got["message"].startswith("screened ")
    assert got["attachments"] and got["attachments"][0]["filename"] == "report.html"
    assert b"<html" in base64.b64decode(got["attachments"][0]["base64"])[:200].lower()
    run = json.loads((tmp_path / "out" / "run.json").read_text("utf-8"))
    assert run["notify"]["delivered"] == 1 and run["notify"]["targets"][0]["attempts"] == 1
    assert "notify: delivered to json://…#" in done.stderr
    with webhook() as hook:  # the next night: the message says what changed since this run
        assert _screen(tmp_path, home, "--notify", hook.url()).returncode == 0
    assert "changes: none since the previous run" in hook.received[0]["message"]


def test_email_is_received_with_the_report_attached(finished: Path) -> None:
    with smtp_server() as box:
        url = f"mailto://127.0.0.1:{box.port}?from=lmscreen@example.com&to=me@example.com&mode=insecure"
        results = deliver([url], build(finished), Policy(sleep=lambda s: None))
    assert [r.ok for r in results] == [True] and results[0].attached
    mail = email.message_from_bytes(box.messages[0])
    assert mail["Subject"].startswith("lmscreen pool.csv")
    names = [part.get_filename() for part in mail.walk() if part.get_filename()]
    assert names == ["report.html"]
    text = next(p for p in mail.walk() if p.get_content_type() == "text/plain").get_payload(decode=True)
    assert text.decode("utf-8").startswith("screened ")


def test_500_twice_then_200_is_delivered_with_the_retries_recorded(finished: Path) -> None:
    waits: list[float] = []
    with webhook(fail_first=2) as hook:
        results = deliver([hook.url()], build(finished), Policy(retries=3, backoff_s=2.0, sleep=waits.append))
    assert hook.answers == [500, 500, 200] and len(hook.received) == 1
    assert results[0].ok and results[0].attempts == 3
    assert waits == [2.0, 4.0]  # backoff doubled, on the fake clock


def test_a_receiver_that_never_answers_leaves_the_run_at_exit_0(tmp_path: Path) -> None:
    home = tmp_path / "home"
    with webhook(hang=True) as hook:
        _config(home, hook.url(), retries=2)
        done = _screen(tmp_path, home)
    assert done.returncode == 0, done.stderr
    assert len(hook.paths) == 2  # tried twice (config.toml's notify_retries)
    run = json.loads((tmp_path / "out" / "run.json").read_text("utf-8"))
    target = run["notify"]["targets"][0]
    assert run["notify"]["failed"] == 1 and target["ok"] is False and target["attempts"] == 2
    assert target["error"] and "warning: notify: json://…#" in done.stderr
    assert (tmp_path / "out" / "results.csv").is_file()


def test_notify_test_sends_the_last_runs_message_again(tmp_path: Path, finished: Path) -> None:
    home = tmp_path / "home"
    with webhook() as hook:
        done = run_cli(["notify", str(finished), "--test", "--notify", hook.url()], home)
        assert done.returncode == 0, done.stderr
    assert hook.received[0]["message"] == build(finished).body
    nothing = run_cli(["notify", str(finished), "--test"], tmp_path / "empty-home")
    assert nothing.returncode == 2 and "no notification URL" in nothing.stderr
