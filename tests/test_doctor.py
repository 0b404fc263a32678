"""`lmscreen doctor` against a real llama-cpp-python server (bundled model) and through the fault proxy."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Iterator

import pytest

from faultproxy import FaultProxy
from inproc import run_lmscreen
from lmscreen.doctor import Status, run_doctor
from servers import KEYED_API_KEY, LLAMA_ALIAS, LlamaServer, free_port

ALIAS = LLAMA_ALIAS
SENTINEL = KEYED_API_KEY
SLOW_OK = 900.0
"""Per-request timeout where the real model must answer: far above its time even on a busy shared machine."""


def lmscreen(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """The real CLI entry point (in this process, fd 1 and 2 captured: tests/inproc.py): exit code, stdout
    and stderr as a user sees them."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith("OPENAI_")}
    clean.update(env or {})
    if args and args[0] == "doctor" and "--timeout" not in args:
        args = (*args, "--timeout", str(SLOW_OK))
    return run_lmscreen(args, env=clean)


@pytest.fixture(scope="module")
def server(llama_server: LlamaServer) -> LlamaServer:
    return llama_server


@pytest.fixture()
def proxy(server: LlamaServer) -> Iterator[FaultProxy]:
    with FaultProxy(server.root) as prx:
        yield prx


def statuses(report_dict: dict[str, object]) -> dict[str, str]:
    return {c["name"]: c["status"] for c in report_dict["checks"]}  # type: ignore[attr-defined, index]


def test_wrong_model_name_says_which_name_to_use(server: LlamaServer) -> None:
    done = lmscreen("doctor", "--base-url", server.base_url, "--model", "other")
    assert done.returncode == 1, done.stderr
    assert f"served: {ALIAS}" in done.stdout
    assert f"use --model {ALIAS}" in done.stdout
    assert "--served-model-name other" in done.stdout and "--model_alias other" in done.stdout


def test_json_is_one_object(server: LlamaServer) -> None:
    done = lmscreen("doctor", "--base-url", server.root, "--model", "other", "--json")
    assert done.returncode == 1
    report = json.loads(done.stdout)  # the whole of stdout is one JSON object
    assert isinstance(report, dict) and done.stdout.strip().count("\n") == 0
    assert (
        report["ok"] is False and report["served_models"] == [ALIAS] and report["requested_model"] == "other"
    )
    assert statuses(report)["model"] == "fail"
    # The other checks still ran, with the one served name.
    assert report["model"] == ALIAS and statuses(report)["chat"] == "pass"


def test_healthy_server_passes_every_check(server: LlamaServer) -> None:
    report = run_doctor(server.base_url, ALIAS, None, SLOW_OK)
    assert report.ok, report.render_text()
    assert [c.name for c in report.checks] == ["reachable", "model", "chat", "json_schema", "speed"]
    assert all(c.status is Status.PASS for c in report.checks)
    assert report.server == "llama-cpp-python"
    schema = report.checks[3]
    assert schema.summary.startswith("enforced with response_format json_object+schema")
    assert schema.details["tried"]["json_schema"].startswith("rejected (HTTP 500")
    speed = report.checks[4].details
    assert speed["ttft_s"] > 0 and speed["decode_tokens_per_s"] > 0 and speed["completion_tokens"] > 1


def test_schema_that_is_not_enforced_fails(proxy: FaultProxy) -> None:
    proxy.inject("unconstrain", None)  # the server now ignores every response_format
    report = run_doctor(proxy.base_url, ALIAS, None, SLOW_OK)
    check = {c.name: c for c in report.checks}["json_schema"]
    assert check.status is Status.FAIL and not report.ok
    assert check.summary.startswith("JSON-schema output is NOT enforced")
    assert all(v.startswith("not enforced") for v in check.details["tried"].values())


def test_connection_refused_is_said_plainly() -> None:
    port = free_port()
    done = lmscreen("doctor", "--base-url", f"http://127.0.0.1:{port}/v1", "--json")
    assert done.returncode == 1
    report = json.loads(done.stdout)
    reach = report["checks"][0]
    assert reach["status"] == "fail"
    assert reach["summary"] == f"connection refused: nothing is listening at 127.0.0.1:{port}"
    assert set(statuses(report).values()) == {"fail", "skip"}


def test_timeout_is_said_plainly(proxy: FaultProxy) -> None:
    proxy.inject("delay", 1, path="/v1/models", seconds=60.0)  # far past the 1 s timeout, whatever the load
    report = run_doctor(proxy.base_url, ALIAS, None, 1.0)
    assert report.checks[0].status is Status.FAIL
    assert report.checks[0].summary.startswith("timed out after 1 s")


def test_http_status_is_said_plainly(proxy: FaultProxy) -> None:
    proxy.inject("status", 1, path="/v1/models", status=503)
    report = run_doctor(proxy.base_url, ALIAS, None, SLOW_OK)
    assert report.checks[0].status is Status.FAIL
    assert "answered HTTP 503: injected fault" in report.checks[0].summary


def test_wrong_path_suggests_v1(server: LlamaServer) -> None:
    report = run_doctor(f"{server.root}/api", ALIAS, None, SLOW_OK)
    reach = report.checks[0]
    assert reach.status is Status.FAIL and "(HTTP 404)" in reach.summary
    assert reach.fix is not None and "/v1" in reach.fix


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--base-url", "not a url"], "not an http(s) URL"),
        (["--base-url", "http://127.0.0.1:1/v1", "--timeout", "0"], "--timeout must be positive"),
        ([], "no server URL"),
    ],
)
def test_bad_arguments_exit_2_with_one_line(args: list[str], words: str) -> None:
    done = lmscreen("doctor", *args)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1 and words in done.stderr


@pytest.fixture(scope="module")
def keyed_server(keyed_llama_server: LlamaServer) -> LlamaServer:
    return keyed_llama_server


def test_api_key_is_used_but_never_printed(keyed_server: LlamaServer) -> None:
    by_env = lmscreen(
        "doctor",
        "--base-url",
        keyed_server.base_url,
        "--json",
        env={"OPENAI_API_KEY": SENTINEL},
    )
    assert by_env.returncode == 0, by_env.stdout  # the server requires the key: it was sent
    assert json.loads(by_env.stdout)["api_key_set"] is True
    by_arg = lmscreen("doctor", "--base-url", keyed_server.base_url, "--api-key", SENTINEL)
    assert by_arg.returncode == 0, by_arg.stdout
    wrong = lmscreen("doctor", "--base-url", keyed_server.base_url, "--api-key", "sk-wrong")
    assert wrong.returncode == 1 and "rejected the API key (HTTP 401)" in wrong.stdout
    for done in (by_env, by_arg, wrong):
        assert SENTINEL not in done.stdout + done.stderr
