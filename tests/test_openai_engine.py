"""The openai engine against a real llama-cpp-python server with the bundled model, and through a fault proxy.

Every request in these tests is answered by the real model; the proxy only breaks the transport (HTTP 500
bursts, answers slower than the timeout, broken bodies, dropped connections) or reshapes a real answer the
way a reasoning model would.
"""

from __future__ import annotations

import itertools
import json
import logging
import time
from collections.abc import Iterator

import jsonschema
import pytest

from faultproxy import FaultProxy
from fixed_server import FAKE_MODEL
from lmscreen.engines import plugin
from lmscreen.engines.openai_endpoint import ServerKind
from lmscreen.engines.openai_engine import OpenAIEngine, estimate_tokens, strip_think
from lmscreen.engines.protocol import Engine, LLMRequest, LLMResult
from lmscreen.engines.structured import Mechanism
from lmscreen.errors import InputError
from servers import (
    KEYED_API_KEY,
    LLAMA_ALIAS,
    FakeServerProcess,
    LlamaServer,
    bundled_gguf,
    free_port,
)

ALIAS = LLAMA_ALIAS
SENTINEL = KEYED_API_KEY
CODES = ["600519.SH", "000001.SZ", "920118.BJ", "300750.SZ", "601318.SH", "000858.SZ"]


def row_schema(code: str) -> dict[str, object]:
    return {
        "type": "object",
        "properties": {"code": {"const": code}, "reason": {"type": "string", "maxLength": 30}},
        "required": ["code", "reason"],
        "additionalProperties": False,
    }


def request(code: str, max_tokens: int = 64) -> LLMRequest:
    return LLMRequest(
        key=code,
        messages=[
            {"role": "system", "content": "You extract facts about stocks. Answer with JSON only."},
            {
                "role": "user",
                "content": f"Stock {code}: revenue rose 15% last year. Give the code and a reason.",
            },
        ],
        schema=row_schema(code),
        max_tokens=max_tokens,
    )


def assert_valid(result: LLMResult) -> None:
    assert result.error is None, result.error
    assert result.text is not None
    jsonschema.validate(json.loads(result.text), row_schema(result.key))


@pytest.fixture(scope="module")
def server(llama_server: LlamaServer) -> LlamaServer:
    return llama_server


@pytest.fixture()
def proxy(server: LlamaServer) -> Iterator[FaultProxy]:
    with FaultProxy(server.root) as prx:
        yield prx


def fast_engine(base_url: str, **kwargs: object) -> OpenAIEngine:
    """Short backoff so retry tests take seconds, not minutes."""
    options: dict[str, object] = {
        "model": ALIAS,
        "base_url": base_url,
        "backoff_base": 0.05,
        "backoff_max": 0.2,
    }
    options.update(kwargs)
    return OpenAIEngine(**options)  # type: ignore[arg-type]


def test_answers_validate_and_usage_is_recorded(server: LlamaServer) -> None:
    with fast_engine(server.base_url, concurrency=2) as engine:
        assert isinstance(engine, Engine)
        results = {r.key: r for r in engine.run(request(c) for c in CODES[:3])}
        assert sorted(results) == sorted(CODES[:3])
        for result in results.values():
            assert_valid(result)
            assert result.prompt_tokens > 20 and result.completion_tokens > 5
            assert result.finish_reason == "stop"
        # llama-cpp-python's server rejects json_schema; the engine knew to use json_object + schema.
        assert engine.server.kind is ServerKind.LLAMA_CPP_PYTHON
        assert engine.structured_output is Mechanism.JSON_OBJECT_SCHEMA


def test_model_none_uses_the_only_served_model(server: LlamaServer) -> None:
    with OpenAIEngine(base_url=server.base_url) as engine:
        assert engine.model == ALIAS


def test_identity_before_connecting_is_the_engines(server: LlamaServer) -> None:
    """The plugin says the identity from its settings (one GET /v1/models when no model is named); the
    engine it creates says the same, and the settings never show the key."""
    openai = plugin("openai")
    for model in (None, ALIAS):
        options = {"base_url": server.root, "model": model, "concurrency": 2, "api_key": SENTINEL}
        settings = openai.settings(options)
        assert settings.base_url == server.base_url and SENTINEL not in repr(settings)
        before = openai.identity(settings)
        with openai.create(settings) as engine:
            assert engine.identity() == engine.describe()["identity"] == before
        assert before["model"] == ALIAS and "concurrency" not in before


def test_wrong_model_name_says_which_names_are_served(server: LlamaServer) -> None:
    with OpenAIEngine("other", base_url=server.base_url) as engine:
        with pytest.raises(InputError) as info:
            list(engine.run([request(CODES[0])]))
    message = str(info.value)
    assert "'other'" in message and ALIAS in message and f"--model {ALIAS}" in message
    assert "--served-model-name other" in message


def test_burst_of_http_500_is_retried(proxy: FaultProxy) -> None:
    proxy.inject("status", 3, status=500)
    with fast_engine(proxy.base_url, max_attempts=5) as engine:
        [result] = list(engine.run([request(CODES[0])]))
    assert_valid(result)
    assert result.extra["attempts"] == 4
    assert [s.fault for s in proxy.requests_to("/v1/chat/completions")] == ["status"] * 3 + [None]


def test_429_waits_for_retry_after(proxy: FaultProxy) -> None:
    proxy.inject("status", 1, status=429, headers={"Retry-After": "0.6"})
    with fast_engine(proxy.base_url) as engine:
        started = time.monotonic()
        [result] = list(engine.run([request(CODES[0])]))
    assert_valid(result)
    assert time.monotonic() - started >= 0.6


@pytest.fixture(scope="module")
def canned(fake_openai: FakeServerProcess) -> FakeServerProcess:
    """A loopback server that answers at once with a canned completion for 000001.SZ (CODES[1])."""
    return fake_openai


def test_answers_slower_than_timeout_are_retried_then_recorded(canned: FakeServerProcess) -> None:
    # The delayed answer (120 s) and the prompt one (a canned answer, milliseconds) sit far on either side of
    # the 5 s timeout, so no machine load can move either across it (the real model could take > 1 s).
    with FaultProxy(f"http://127.0.0.1:{canned.port}") as proxy:
        proxy.inject("delay", 2, seconds=120.0)
        with fast_engine(
            proxy.base_url, model=FAKE_MODEL, timeout=5.0, max_attempts=2, concurrency=1
        ) as engine:
            started = time.monotonic()
            results = {r.key: r for r in engine.run([request(CODES[0]), request(CODES[1])])}
            elapsed = time.monotonic() - started
        delayed = [s.fault for s in proxy.requests_to("/v1/chat/completions")]
    slow, fine = results[CODES[0]], results[CODES[1]]
    assert slow.text is None and slow.error is not None
    assert "timed out after 5 s" in slow.error and "2 attempts" in slow.error
    assert delayed == ["delay", "delay", None]
    assert_valid(fine)  # the run went on
    assert elapsed < 240  # it gave up on the delayed answers instead of waiting for them


def test_malformed_body_is_recorded_and_run_continues(proxy: FaultProxy) -> None:
    proxy.inject("malformed", 2)
    with fast_engine(proxy.base_url, max_attempts=2, concurrency=1) as engine:
        results = {r.key: r for r in engine.run([request(CODES[0]), request(CODES[1])])}
    broken = results[CODES[0]]
    assert broken.text is None and broken.error is not None and "malformed response body" in broken.error
    assert_valid(results[CODES[1]])


def test_dropped_connections_are_retried(proxy: FaultProxy) -> None:
    proxy.inject("drop", 2)
    with fast_engine(proxy.base_url) as engine:
        [result] = list(engine.run([request(CODES[0])]))
    assert_valid(result)
    assert result.extra["attempts"] == 3


def test_http_4xx_is_not_retried(proxy: FaultProxy) -> None:
    proxy.inject("status", 1, status=400)
    with fast_engine(proxy.base_url) as engine:
        [result] = list(engine.run([request(CODES[0])]))
    assert result.text is None and result.error == "HTTP 400: injected fault"
    assert len(proxy.requests_to("/v1/chat/completions")) == 1


def test_length_is_retried_once_with_more_room(server: LlamaServer) -> None:
    with fast_engine(server.base_url) as engine:
        roomy = {r.key: r for r in engine.run([request(CODES[0], max_tokens=16)])}[CODES[0]]
        tight = {r.key: r for r in engine.run([request(CODES[1], max_tokens=3)])}[CODES[1]]
    assert_valid(roomy)  # 16 tokens cut it; 32 fit
    assert roomy.extra["max_tokens"] == 32
    assert tight.text is None and tight.error == "truncated" and tight.finish_reason == "length"
    assert tight.extra["max_tokens"] == 6
    assert tight.completion_tokens == 3 + 6  # both attempts are counted


def test_think_blocks_and_reasoning_content_are_dropped(proxy: FaultProxy) -> None:
    proxy.inject("think", 1)
    with fast_engine(proxy.base_url) as engine:
        [result] = list(engine.run([request(CODES[0])]))
    assert_valid(result)
    assert "think" not in result.text and "42" not in result.text  # type: ignore[operator]


def test_request_body_carries_template_kwargs_and_sampling(proxy: FaultProxy) -> None:
    with fast_engine(proxy.base_url, chat_template_kwargs={"enable_thinking": False}) as engine:
        [result] = list(engine.run([request(CODES[0])]))
    assert_valid(result)
    [sent] = proxy.requests_to("/v1/chat/completions")
    assert sent.body["chat_template_kwargs"] == {"enable_thinking": False}
    assert sent.body["temperature"] == 0.0 and sent.body["seed"] == 0 and sent.body["model"] == ALIAS
    assert sent.body["response_format"] == {"type": "json_object", "schema": row_schema(CODES[0])}


def test_structured_output_falls_back_and_is_remembered(proxy: FaultProxy) -> None:
    proxy.hide("/openapi.json")  # the engine cannot tell this is llama-cpp-python: it starts with json_schema
    with fast_engine(proxy.base_url) as engine:
        [result] = list(engine.run([request(CODES[0])]))
        assert engine.server.kind is ServerKind.UNKNOWN
    assert_valid(result)
    kinds = [s.body["response_format"]["type"] for s in proxy.requests_to("/v1/chat/completions")]
    assert kinds == ["json_schema", "json_object"]
    with fast_engine(proxy.base_url) as again:
        assert again.structured_output is Mechanism.JSON_OBJECT_SCHEMA
        [result] = list(again.run([request(CODES[1])]))
    assert_valid(result)
    assert len(proxy.requests_to("/v1/chat/completions")) == 3


def test_run_pulls_requests_lazily(server: LlamaServer) -> None:
    pulled = 0

    def endless() -> Iterator[LLMRequest]:
        nonlocal pulled
        for n in itertools.count():
            pulled += 1
            yield request(CODES[n % len(CODES)])

    with fast_engine(server.base_url, concurrency=2) as engine:
        results = engine.run(endless())
        first = list(itertools.islice(results, 3))
        results.close()  # type: ignore[attr-defined]
        assert engine.window == 4
    assert len(first) == 3
    assert pulled <= 3 + engine.window


def test_server_killed_mid_run_and_restarted_loses_nothing(server: LlamaServer) -> None:
    """The session's server (conftest.py) is killed like a crash and started again on its port."""
    srv = server
    try:
        keys = [f"{code}#{n}" for n in range(2) for code in CODES[:4]]
        requests = [
            LLMRequest(k, request(k.split("#")[0]).messages, row_schema(k.split("#")[0]), 64) for k in keys
        ]
        engine = OpenAIEngine(
            ALIAS, base_url=srv.base_url, concurrency=2, max_attempts=8, backoff_base=0.5, backoff_max=4.0
        )
        with engine:
            results = []
            for result in engine.run(requests):
                results.append(result)
                if len(results) == 1:
                    srv.kill()
                    srv.restart()
    finally:
        if srv.proc is None or srv.proc.poll() is not None:
            srv.restart()  # the next test finds the shared server up
    assert sorted(r.key for r in results) == sorted(keys)
    for result in results:
        assert result.error is None, result.error
        jsonschema.validate(json.loads(result.text or ""), row_schema(result.key.split("#")[0]))


def test_connection_refused_becomes_a_result(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", f"http://127.0.0.1:{free_port()}")
    with OpenAIEngine(ALIAS, max_attempts=2, backoff_base=0.05) as engine:
        [result] = list(engine.run([request(CODES[0])]))
        assert engine.describe()["base_url"].endswith("/v1")
    assert result.text is None and result.error is not None
    assert "connection refused" in result.error


def test_count_tokens_uses_the_server_tokenizer(server: LlamaServer, proxy: FaultProxy) -> None:
    from llama_cpp import Llama

    text = "贵州茅台2024年营业收入1,505.6亿元，同比增长15.7%。"
    vocab = Llama(model_path=str(bundled_gguf()), vocab_only=True, verbose=False)
    with fast_engine(server.base_url) as engine:
        assert engine.count_tokens(text) == len(vocab.tokenize(text.encode(), special=True))
        assert engine.describe()["tokenizer"] == "server /extras/tokenize/count"
    proxy.hide("/extras/")
    with fast_engine(proxy.base_url) as engine:
        assert engine.count_tokens(text) == estimate_tokens(text)
        assert engine.describe()["tokenizer"] == "estimate"


def test_estimate_errs_high_for_chinese() -> None:
    assert estimate_tokens("营业收入") == 7  # 4 CJK characters x 1.6, rounded up
    assert estimate_tokens("revenue up") == 4  # 10 characters / 3, rounded up
    assert estimate_tokens("") == 0


@pytest.mark.parametrize(
    ("raw", "answer"),
    [
        ('<think>a</think>{"x": 1}', '{"x": 1}'),
        ('<think>a</think> <think>b</think>\n{"x": 1}', '{"x": 1}'),
        ('pre-opened reasoning</think>{"x": 1}', '{"x": 1}'),
        ("<think>ran out of room", ""),
        ('{"x": 1}', '{"x": 1}'),
    ],
)
def test_strip_think(raw: str, answer: str) -> None:
    assert strip_think(raw) == answer


@pytest.fixture(scope="module")
def keyed_server(keyed_llama_server: LlamaServer) -> LlamaServer:
    return keyed_llama_server


def test_api_key_is_used_but_never_shown(
    keyed_server: LlamaServer, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    caplog.set_level(logging.DEBUG)
    monkeypatch.setenv("OPENAI_API_KEY", SENTINEL)
    with OpenAIEngine(ALIAS, base_url=keyed_server.base_url, backoff_base=0.05) as engine:
        [result] = list(engine.run([request(CODES[0])]))
        shown = [repr(engine), json.dumps(engine.describe()), repr(result), caplog.text]
        assert engine.describe()["api_key_set"] is True
    assert_valid(result)  # the server requires the key, so it was sent
    monkeypatch.setenv("OPENAI_API_KEY", "sk-wrong")
    with OpenAIEngine(ALIAS, base_url=keyed_server.base_url) as engine:
        with pytest.raises(InputError, match="rejected the API key") as info:
            list(engine.run([request(CODES[0])]))
    shown += [str(info.value), caplog.text]
    for text in shown:
        assert SENTINEL not in text
