"""`lmscreen screen --engine openai` end to end against a real llama-cpp-python server (bundled model).

The CLI contract (DESIGN.md): `lmscreen screen POOL --reports DIR --out OUT --engine openai --base-url URL
--model NAME` writes OUT/results.csv (UTF-8 BOM), results.jsonl and run.json; a rerun of the same command
resumes. The runs are limited to the first rows of the example pool (--limit) because the bundled model
needs tens of seconds per report on two CPU cores.
"""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from faultproxy import Answer, FaultProxy
from inproc import run_lmscreen, strip_lmscreen
from servers import LLAMA_ALIAS, LlamaServer

ROOT = Path(__file__).resolve().parents[1]
POOL = ROOT / "examples" / "pool.csv"
REPORTS = ROOT / "examples" / "reports"
ALIAS = LLAMA_ALIAS
LIMIT = "3"  # the pool's first three rows, each with a report text
VERDICT = ("code", "name", "risk_level", "score", "rules_fired", "is_st")


def screen_command(out: Path, *extra: str) -> list[str]:
    pool = [str(POOL), "--reports", str(REPORTS), "--out", str(out), "--limit", LIMIT, "--quiet"]
    return [sys.executable, "-m", "lmscreen", "screen", *pool, *extra]


def clean_env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if not k.startswith("OPENAI_")}


def screen(out: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    """The command in this process (tests/inproc.py); the kill test starts its first run as a child."""
    return run_lmscreen(strip_lmscreen(screen_command(out, *extra)), env=clean_env(), cwd=ROOT)


def results(out: Path) -> list[dict[str, str]]:
    with (out / "results.csv").open(encoding="utf-8-sig", newline="") as f:
        return list(csv.DictReader(f))


def jsonl(out: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in (out / "results.jsonl").read_text(encoding="utf-8").splitlines()]


def finished_answers(proxy: FaultProxy) -> list[Answer]:
    """Chat answers the proxy relayed in full that ended normally (not cut by max_tokens)."""
    return [
        a
        for a in proxy.answers
        if a.path.startswith("/v1/chat/completions")
        and a.status == 200
        and isinstance(a.body, dict)
        and a.body["choices"][0]["finish_reason"] == "stop"
    ]


@pytest.fixture(scope="module")
def server(llama_server: LlamaServer) -> LlamaServer:
    return llama_server


@pytest.fixture(scope="module")
def embedded_run(embedded_example_run: Path) -> Path:
    """The same rows on the embedded engine (conftest.py: one run for the session)."""
    return embedded_example_run


def test_openai_engine_matches_embedded_in_structure_and_verdicts(
    server: LlamaServer, embedded_run: Path, tmp_path: Path
) -> None:
    out = tmp_path / "openai"
    done = screen(out, "--engine", "openai", "--base-url", server.base_url, "--model", ALIAS)
    assert done.returncode == 0, done.stderr
    ours, theirs = results(out), results(embedded_run)
    assert list(ours[0].keys()) == list(theirs[0].keys())  # same columns, same order
    assert [tuple(r[k] for k in VERDICT) for r in ours] == [tuple(r[k] for k in VERDICT) for r in theirs]
    with_text = [r for r in ours if r["flags"] != "no_report"]
    assert len(with_text) >= 2 and all(r["status"] == "ok" for r in with_text)
    assert [sorted(r) for r in jsonl(out)] == [sorted(r) for r in jsonl(embedded_run)]
    run = json.loads((out / "run.json").read_text(encoding="utf-8"))
    assert run["llm"]["engine"]["engine"] == "openai" and run["llm"]["engine"]["model"] == ALIAS
    assert run["llm"]["usage"]["prompt_tokens"] > 0 and run["llm"]["usage"]["completion_tokens"] > 0


def test_server_killed_mid_run_then_rerun_resumes(
    server: LlamaServer, embedded_run: Path, tmp_path: Path
) -> None:
    out = tmp_path / "killed"
    with FaultProxy(server.root) as proxy:
        args = ("--engine", "openai", "--base-url", proxy.base_url, "--model", ALIAS, "--concurrency", "1")
        first = subprocess.Popen(
            screen_command(out, *args),
            env=clean_env(),
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            deadline = time.monotonic() + 3000
            # Kill the server as soon as one row's answer has been relayed in full (not merely a retry sent).
            while not finished_answers(proxy) and time.monotonic() < deadline:
                assert first.poll() is None, first.communicate()
                time.sleep(0.2)
            server.kill()
            _, stderr = first.communicate(timeout=3000)
        finally:
            if first.poll() is None:
                first.kill()
            server.restart()
        assert first.returncode == 0, stderr
        after_kill = results(out)
        failed = [r["code"] for r in after_kill if r["status"].startswith("llm_error")]
        kept = {r["code"]: r for r in after_kill if r["status"] == "ok" and r["flags"] != "no_report"}
        assert failed and kept, after_kill  # the kill really landed mid-run

        sent_before = len(proxy.requests_to("/v1/chat/completions"))
        second = screen(out, *args)
        assert second.returncode == 0, second.stderr
        resent = {
            code
            for sent in proxy.requests_to("/v1/chat/completions")[sent_before:]
            for code in failed + list(kept)
            if code in sent.body["messages"][-1]["content"]
        }
    final = results(out)
    assert [r["code"] for r in final] == [r["code"] for r in results(embedded_run)]  # none lost or duplicated
    assert len(jsonl(out)) == len(final)
    assert all(not r["status"].startswith("llm_error") for r in final)
    # only the failed rows were sent again (this once failed under heavy load: say what was seen)
    assert resent == set(failed), {"resent": sorted(resent), "failed": failed, "after_kill": after_kill}
    for code, row in kept.items():
        assert next(r for r in final if r["code"] == code) == row


def test_wrong_model_name_exits_2_naming_the_served_one(server: LlamaServer, tmp_path: Path) -> None:
    done = screen(tmp_path / "wrong", "--engine", "openai", "--base-url", server.base_url, "--model", "other")
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1
    assert f"served: {ALIAS}" in done.stderr and f"--model {ALIAS}" in done.stderr
