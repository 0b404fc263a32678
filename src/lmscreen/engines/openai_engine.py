"""The `openai` engine: drives any OpenAI-compatible server (vLLM, SGLang, llama.cpp, Ollama) at full speed.

Why it is shaped this way:
- The runner is synchronous and streams rows; a 10,000-row pool must never become 10,000 pending requests.
  `run()` pulls requests from the caller's iterator in the caller's thread, keeps at most `window` of them in
  flight on an asyncio loop running in a background thread, and hands finished results back through a
  queue that can hold no more than `window` items. The server sees at most `concurrency` requests at
  once (one for llama-cpp-python's server, which answers one at a time anyway).
- A failed call must never stop the run: connection errors, timeouts, HTTP 429 and 5xx and garbled bodies are
  retried with exponential backoff and jitter a bounded number of times, then become
  `LLMResult(error=…)`. A 4xx other than 429 is the request's fault and is not retried.
- `finish_reason == "length"` is retried once with more room, then reported as `error="truncated"` with no
  text, so cut-off JSON is never handed on to be parsed.
- Structured output is asked for in the dialect the server understands (see `structured.py`); when a server
  rejects a form, the next one is tried and the one that worked is remembered for that server and model.
- The API key only ever goes into the Authorization header: not into logs, errors, repr() or describe().
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import math
import queue
import random
import threading
import time
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import httpx

from lmscreen.engines.openai_endpoint import (
    Endpoint,
    ServerInfo,
    ServerKind,
    describe_transport_error,
    detect_server,
    error_message,
    list_models,
    model_not_served,
)
from lmscreen.engines.options import opt_dict, opt_int, opt_str
from lmscreen.engines.protocol import LLMRequest, LLMResult
from lmscreen.engines.structured import (
    Mechanism,
    is_format_rejection,
    mechanism_order,
    next_mechanism,
    response_format_fields,
)
from lmscreen.errors import InputError

log = logging.getLogger("lmscreen.engines.openai")

SLOTS_PER_CLIENT = 8
"""Connections per httpx pool (see `_setup_async`)."""
RETRY_AFTER_CAP = 60.0
"""Longest Retry-After (seconds) honoured; a server asking for more gets this and then another try."""
TEMPERATURE = 0.0
DEFAULT_SEED: int | None = 0
LENGTH_RETRY_FACTOR = 2.0
"""A `finish_reason: length` answer is asked again once with this many times the token budget."""
DEFAULT_CONCURRENCY = 4

# What worked per (server root, model), shared by every engine in the process (doctor, reruns, tests).
_REMEMBERED: dict[tuple[str, str], Mechanism] = {}
_REMEMBERED_LOCK = threading.Lock()


# ---------------------------------------------------------------------------------------------- parsing


class MalformedResponse(ValueError):
    """A 200 answer whose body is not a chat completion."""


@dataclass(frozen=True)
class Completion:
    text: str
    finish_reason: str | None
    prompt_tokens: int
    completion_tokens: int
    cached_prompt_tokens: int


def strip_think(text: str) -> str:
    """Drop reasoning: `<think>…</think>` blocks, text before a lone `</think>` (templates that pre-open the
    block) and an unclosed trailing `<think>…` (reasoning that ran out of room)."""
    out = text
    while True:
        start = out.find("<think>")
        end = out.find("</think>", start + 1) if start != -1 else -1
        if start == -1 or end == -1:
            break
        out = out[:start] + out[end + len("</think>") :]
    if "</think>" in out:
        out = out.rsplit("</think>", 1)[1]
    if "<think>" in out:
        out = out.split("<think>", 1)[0]
    return out.strip()


def _int(value: Any) -> int:
    return int(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else 0


def parse_completion(payload: Any) -> Completion:
    """The answer text (reasoning removed; `reasoning_content` / `reasoning` ignored) and token counts."""
    if not isinstance(payload, dict):
        raise MalformedResponse("the body is not a JSON object")
    choices = payload.get("choices")
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        raise MalformedResponse("the body has no choices")
    message = choices[0].get("message")
    if not isinstance(message, dict):
        raise MalformedResponse("the first choice has no message")
    content = message.get("content")
    if isinstance(content, list):  # content parts
        content = "".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
    if content is not None and not isinstance(content, str):
        raise MalformedResponse("the message content is not text")
    usage = payload.get("usage") if isinstance(payload.get("usage"), dict) else {}
    details = usage.get("prompt_tokens_details")
    details = details if isinstance(details, dict) else {}
    cached = _int(details.get("cached_tokens"))
    timings = payload.get("timings")
    if not cached and isinstance(timings, dict):  # llama-server reports reused prompt tokens here
        cached = _int(timings.get("cache_n"))
    return Completion(
        text=strip_think(content or ""),
        finish_reason=choices[0].get("finish_reason"),
        prompt_tokens=_int(usage.get("prompt_tokens")),
        completion_tokens=_int(usage.get("completion_tokens")),
        cached_prompt_tokens=cached,
    )


# ---------------------------------------------------------------------------------------------- tokens


def _is_cjk(ch: str) -> bool:
    code = ord(ch)
    return (
        0x3400 <= code <= 0x9FFF
        or 0xF900 <= code <= 0xFAFF
        or 0x3000 <= code <= 0x303F
        or 0xFF00 <= code <= 0xFFEF
        or 0x20000 <= code <= 0x2FA1F
    )


CJK_TOKENS_PER_CHAR = 1.6
OTHER_CHARS_PER_TOKEN = 3.0


def estimate_tokens(text: str) -> int:
    """Token count when the server has no tokenizer endpoint (Ollama, hosted APIs): deliberately high.

    The count sizes the prompt budget, so erring high only trims report text, while erring low overflows the
    context. CJK characters count 1.6 tokens each: the bundled SmolLM2 tokenizer measured ~1.6-2 per Chinese
    character (DESIGN.md), while Qwen/GLM/DeepSeek tokenizers take ~0.6-0.8, so this bounds both; other
    text counts one token per 3 characters (English BPE averages ~4).
    """
    cjk = sum(1 for ch in text if _is_cjk(ch))
    return math.ceil(cjk * CJK_TOKENS_PER_CHAR + (len(text) - cjk) / OTHER_CHARS_PER_TOKEN)


@dataclass(frozen=True)
class _TokenizeRoute:
    path: str
    body_key: str
    with_model: bool
    label: str


_ROUTES: dict[ServerKind, tuple[_TokenizeRoute, ...]] = {
    ServerKind.LLAMA_CPP_PYTHON: (
        _TokenizeRoute("extras/tokenize/count", "input", True, "/extras/tokenize/count"),
    ),
    ServerKind.LLAMA_CPP: (_TokenizeRoute("tokenize", "content", False, "/tokenize"),),
    ServerKind.VLLM: (_TokenizeRoute("tokenize", "prompt", True, "/tokenize"),),
    ServerKind.SGLANG: (_TokenizeRoute("tokenize", "prompt", True, "/tokenize"),),
    ServerKind.OLLAMA: (),
}


def _tokens_from(payload: Any) -> int | None:
    if isinstance(payload, dict):
        if isinstance(payload.get("count"), int):
            return int(payload["count"])
        if isinstance(payload.get("tokens"), list):
            return len(payload["tokens"])
    return None


# ---------------------------------------------------------------------------------------------- engine


class OpenAIEngine:
    """Engine protocol over an OpenAI-compatible `/v1/chat/completions` endpoint."""

    name = "openai"

    def __init__(
        self,
        model: str | None = None,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        concurrency: int = 8,
        timeout: float = 300.0,
        max_attempts: int = 4,
        backoff_base: float = 0.5,
        backoff_max: float = 20.0,
        temperature: float = TEMPERATURE,
        seed: int | None = DEFAULT_SEED,
        chat_template_kwargs: dict[str, Any] | None = None,
        structured: Mechanism | str | None = None,
        length_retry_factor: float = LENGTH_RETRY_FACTOR,
        window: int | None = None,
        connect_timeout: float = 10.0,
        extra_body: dict[str, Any] | None = None,
    ) -> None:
        if concurrency < 1:
            raise InputError(f"--concurrency must be at least 1 (got {concurrency})")
        if timeout <= 0 or max_attempts < 1:
            raise InputError("timeout must be positive and max_attempts at least 1")
        self._endpoint = Endpoint.resolve(base_url, api_key)
        self.concurrency = concurrency
        self.timeout = float(timeout)
        self.max_attempts = max_attempts
        self.backoff_base = backoff_base
        self.backoff_max = backoff_max
        self.temperature = temperature
        self.seed = seed
        self.chat_template_kwargs = dict(chat_template_kwargs or {})
        self.length_retry_factor = length_retry_factor
        self.window = window or 2 * concurrency
        self._in_flight = concurrency
        self._connect_timeout = connect_timeout
        self._extra_body = dict(extra_body or {})
        self._forced = Mechanism(structured) if structured else None

        self._client: httpx.Client | None = None
        self._connect_lock = threading.Lock()
        self._connected = False
        self._info = ServerInfo(ServerKind.UNKNOWN)
        self._mechanism: Mechanism = self._forced or Mechanism.JSON_SCHEMA
        self._route: _TokenizeRoute | None = None
        self._route_checked = False
        self._token_cache: dict[str, int] = {}

        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._aclients: list[httpx.AsyncClient] = []
        self._slots: asyncio.Queue[int] | None = None

        self.model = model or self._only_served_model()

    def __repr__(self) -> str:
        return f"OpenAIEngine(model={self.model!r}, base_url={self._endpoint.display_url!r})"

    # -- setup -------------------------------------------------------------------------------------------

    def _sync_client(self) -> httpx.Client:
        if self._client is None:
            self._client = httpx.Client(timeout=self._connect_timeout)
        return self._client

    def _served_models(self) -> tuple[list[str] | None, str]:
        """GET /v1/models: (names, "") or (None, why not). A rejected API key is an InputError: nothing
        else can work."""
        try:
            return list_models(self._sync_client(), self._endpoint, self._connect_timeout), ""
        except httpx.HTTPStatusError as exc:
            status = exc.response.status_code
            if status in (401, 403):
                raise InputError(
                    f"{self._endpoint.display_url} rejected the API key (HTTP {status}); "
                    "set --api-key or OPENAI_API_KEY"
                ) from None
            return None, f"HTTP {status}"
        except httpx.TransportError as exc:
            return None, describe_transport_error(exc, self._endpoint.base_url, self._connect_timeout)
        except (httpx.HTTPError, ValueError, KeyError, TypeError, AttributeError) as exc:
            return None, f"no model list ({type(exc).__name__})"

    def _only_served_model(self) -> str:
        """No --model: use the server's only model; several or none is the user's choice to make."""
        served, why = self._served_models()
        where = self._endpoint.display_url
        if served is None:
            raise InputError(f"--model is required: cannot list the models at {where} ({why})")
        if len(served) != 1:
            raise InputError(f"--model is required: {where} serves {', '.join(served) or 'no models'}")
        return served[0]

    def _connect(self) -> None:
        """Check the model is served, identify the server, pick the structured-output form (once)."""
        with self._connect_lock:
            if self._connected:
                return
            served, why = self._served_models()
            if served is None:
                log.warning("cannot list the models at %s: %s", self._endpoint.display_url, why)
            if served and self.model not in served:
                raise InputError(model_not_served(self.model, served, self._endpoint.display_url))
            self._info = detect_server(
                self._sync_client(), self._endpoint, timeout=min(5.0, self._connect_timeout)
            )
            with _REMEMBERED_LOCK:
                remembered = _REMEMBERED.get(self._memory_key)
            self._mechanism = self._forced or remembered or mechanism_order(self._info.kind)[0]
            if self._info.kind is ServerKind.LLAMA_CPP_PYTHON and self.concurrency > 1:
                # Its server holds one lock around the model: requests beyond the first only queue there,
                # run into the timeout, are retried, and the server still finishes the abandoned ones.
                log.info("llama-cpp-python's server answers one request at a time: sending one at a time")
                self._in_flight = 1
            self._connected = True
            log.info(
                "openai engine: %s at %s, model %s, structured output %s",
                self._info.kind.value,
                self._endpoint.display_url,
                self.model,
                self._mechanism.value,
            )

    @property
    def _memory_key(self) -> tuple[str, str]:
        return (self._endpoint.root, self.model)

    @property
    def server(self) -> ServerInfo:
        self._connect()
        return self._info

    @property
    def structured_output(self) -> Mechanism:
        """The structured-output form in use now (after any fallback)."""
        self._connect()
        return self._mechanism

    # -- tokens ------------------------------------------------------------------------------------------

    def count_tokens(self, text: str) -> int:
        """Tokens of `text` by the server's tokenizer when it has an endpoint, else `estimate_tokens`."""
        cached = self._token_cache.get(text)
        if cached is not None:
            return cached
        self._connect()
        count = self._server_count(text)
        if count is None:
            count = estimate_tokens(text)
        if len(self._token_cache) > 4096:
            self._token_cache.clear()
        self._token_cache[text] = count
        return count

    def _server_count(self, text: str) -> int | None:
        if self._route_checked and self._route is None:
            return None
        routes = (self._route,) if self._route else _ROUTES.get(self._info.kind, ())
        client = self._sync_client()
        for route in routes:
            assert route is not None
            body: dict[str, Any] = {route.body_key: text}
            if route.with_model:
                body["model"] = self.model
            try:
                response = client.post(
                    self._endpoint.root_url(route.path),
                    json=body,
                    headers=self._endpoint.headers(),
                    timeout=self.timeout,
                )
            except httpx.HTTPError as exc:
                log.warning("tokenize at %s failed (%s); estimating", route.label, type(exc).__name__)
                return None  # transient: do not give up on the route
            if response.status_code == 429 or response.status_code >= 500:
                log.warning("tokenize at %s answered HTTP %d; estimating", route.label, response.status_code)
                return None  # transient, as above
            try:
                count = _tokens_from(response.json()) if response.status_code == 200 else None
            except ValueError:
                count = None
            if count is not None:
                self._route, self._route_checked = route, True
                return count
        self._route_checked = True
        self._route = None
        return None

    # -- run ---------------------------------------------------------------------------------------------

    def _ensure_loop(self) -> asyncio.AbstractEventLoop:
        if self._loop is None:
            loop = asyncio.new_event_loop()
            thread = threading.Thread(target=loop.run_forever, name="lmscreen-openai-engine", daemon=True)
            thread.start()
            self._loop, self._thread = loop, thread
            asyncio.run_coroutine_threadsafe(self._setup_async(), loop).result()
        return self._loop

    async def _setup_async(self) -> None:
        """Concurrency slots, and one small connection pool per SLOTS_PER_CLIENT of them.

        httpcore's pool rescans every connection for every waiting request on each event (quadratic in the
        pool size): one pool of 64 connections cost ~7 ms of CPU per request here, shards of 8 cost ~60x
        less. A slot always maps to the same shard, and a shard has exactly as many connections as slots,
        so no request ever queues inside a pool.
        """
        timeout = httpx.Timeout(self.timeout, connect=min(self._connect_timeout, self.timeout))
        tls = httpx.create_ssl_context()  # built once: loading the CA bundle costs ~15 ms per client
        for first in range(0, self._in_flight, SLOTS_PER_CLIENT):
            size = min(SLOTS_PER_CLIENT, self._in_flight - first)
            limits = httpx.Limits(max_connections=size, max_keepalive_connections=size)
            self._aclients.append(httpx.AsyncClient(limits=limits, timeout=timeout, verify=tls))
        self._slots = asyncio.Queue()
        for slot in range(self._in_flight):
            self._slots.put_nowait(slot)

    def run(self, requests: Iterable[LLMRequest]) -> Iterator[LLMResult]:
        """Answer every request, yielding each result as it finishes (any order).

        Requests are pulled lazily from `requests` in the caller's thread: no more than `window` are taken
        ahead of the results the caller has consumed.
        """
        self._connect()
        loop = self._ensure_loop()
        # Holds at most `window` items: each in-flight future is put once, and at most `window` are in flight.
        # (No maxsize: a full queue would block the loop thread that completes the futures.)
        finished: queue.Queue[concurrent.futures.Future[LLMResult]] = queue.Queue()
        pending: set[concurrent.futures.Future[LLMResult]] = set()
        source = iter(requests)
        exhausted = False
        try:
            while True:
                while not exhausted and len(pending) < self.window:
                    try:
                        request = next(source)
                    except StopIteration:
                        exhausted = True
                        break
                    future = asyncio.run_coroutine_threadsafe(self._answer_guarded(request), loop)
                    pending.add(future)
                    future.add_done_callback(finished.put)
                if not pending:
                    return
                future = finished.get()
                pending.discard(future)
                yield future.result()
        finally:
            for future in pending:
                future.cancel()

    async def _answer_guarded(self, request: LLMRequest) -> LLMResult:
        assert self._slots is not None
        slot = await self._slots.get()  # FIFO: requests start in the order they were taken
        started = time.monotonic()
        try:
            result = await self._answer(request, self._aclients[slot // SLOTS_PER_CLIENT])
        except Exception as exc:  # noqa: BLE001 - a bug here must cost one row, not the run
            log.exception("request %s failed unexpectedly", request.key)
            result = LLMResult(key=request.key, text=None, error=f"internal: {type(exc).__name__}: {exc}")
        finally:
            self._slots.put_nowait(slot)
        result.seconds = time.monotonic() - started
        return result

    def _body(self, request: LLMRequest, max_tokens: int, mechanism: Mechanism) -> dict[str, Any]:
        body: dict[str, Any] = {
            "model": self.model,
            "messages": request.messages,
            "max_tokens": max_tokens,
            "temperature": self.temperature,
            "stream": False,
        }
        if self.seed is not None:
            body["seed"] = self.seed
        if self.chat_template_kwargs:
            body["chat_template_kwargs"] = self.chat_template_kwargs
            thinking = self.chat_template_kwargs.get("enable_thinking")
            if self._info.kind is ServerKind.OLLAMA and thinking is False:
                body["reasoning_effort"] = "none"  # Ollama's /v1 way to turn thinking off
        if request.schema:
            body.update(response_format_fields(mechanism, request.schema))
        body.update(self._extra_body)
        return body

    def _fall_back(self, rejected: Mechanism) -> Mechanism | None:
        """Move past a rejected structured-output form (once per form, however many requests saw it)."""
        if self._mechanism is not rejected:
            return self._mechanism
        if self._forced is not None:
            return None
        following = next_mechanism(self._info.kind, rejected)
        if following is None:
            return None
        log.warning(
            "%s does not take response_format %s; using %s",
            self._endpoint.display_url,
            rejected.value,
            following.value,
        )
        self._mechanism = following
        with _REMEMBERED_LOCK:
            _REMEMBERED[self._memory_key] = following
        return following

    def _backoff(self, attempt: int, retry_after: float | None) -> float:
        ceiling = min(self.backoff_max, self.backoff_base * (2 ** (attempt - 1)))
        delay = random.uniform(ceiling / 2, ceiling)
        if retry_after is not None:
            delay = max(delay, min(retry_after, RETRY_AFTER_CAP))  # the server's word beats our guess
        return delay

    async def _answer(self, request: LLMRequest, client: httpx.AsyncClient) -> LLMResult:
        url = self._endpoint.url("chat/completions")
        headers = self._endpoint.headers()
        max_tokens = request.max_tokens
        length_retried = False
        attempts = 0
        format_switches = 0
        totals = {"prompt": 0, "completion": 0, "cached": 0}

        def result(text: str | None, error: str | None, finish: str | None) -> LLMResult:
            return LLMResult(
                key=request.key,
                text=text,
                error=error,
                finish_reason=finish,
                prompt_tokens=totals["prompt"],
                completion_tokens=totals["completion"],
                cached_prompt_tokens=totals["cached"],
                extra={"attempts": attempts, "structured_output": mechanism.value, "max_tokens": max_tokens},
            )

        while True:
            attempts += 1
            mechanism = self._mechanism
            body = self._body(request, max_tokens, mechanism)
            retry_after: float | None = None
            try:
                response = await asyncio.wait_for(
                    client.post(url, json=body, headers=headers), timeout=self.timeout
                )
            except (asyncio.TimeoutError, httpx.TimeoutException):
                problem = f"timed out after {self.timeout:g} s"
            except httpx.TransportError as exc:
                problem = describe_transport_error(exc, url)
            else:
                status = response.status_code
                if status == 200:
                    try:
                        completion = parse_completion(response.json())
                    except ValueError as exc:  # JSONDecodeError and MalformedResponse
                        problem = f"malformed response body: {exc}"
                    else:
                        totals["prompt"] += completion.prompt_tokens
                        totals["completion"] += completion.completion_tokens
                        totals["cached"] += completion.cached_prompt_tokens
                        if completion.finish_reason == "length":
                            if not length_retried and self.length_retry_factor > 1:
                                length_retried = True
                                attempts -= 1
                                max_tokens = max(max_tokens + 1, int(max_tokens * self.length_retry_factor))
                                continue
                            return result(None, "truncated", "length")
                        if not completion.text:
                            return result(None, "empty completion", completion.finish_reason)
                        return result(completion.text, None, completion.finish_reason)
                else:
                    detail = self._endpoint.redact(error_message(response.text))
                    if is_format_rejection(status, response.text) and format_switches < 3:
                        following = self._fall_back(mechanism)
                        if following is not None:
                            format_switches += 1
                            attempts -= 1
                            continue
                    problem = f"HTTP {status}: {detail}"
                    if status != 429 and status < 500:
                        return result(None, problem, None)
                    retry_after = _retry_after(response.headers.get("retry-after"))
            if attempts >= self.max_attempts:
                return result(None, f"{problem} (gave up after {attempts} attempts)", None)
            delay = self._backoff(attempts, retry_after)
            log.info(
                "request %s: %s; retrying in %.2f s (attempt %d of %d)",
                request.key,
                problem,
                delay,
                attempts + 1,
                self.max_attempts,
            )
            await asyncio.sleep(delay)

    # -- description and teardown ------------------------------------------------------------------------

    def identity(self) -> dict[str, Any]:
        """The settings an answer depends on (see `openai_identity`)."""
        return openai_identity(
            self.model,
            temperature=self.temperature,
            seed=self.seed,
            chat_template_kwargs=self.chat_template_kwargs,
            length_retry_factor=self.length_retry_factor,
            extra_body=self._extra_body,
        )

    def describe(self) -> dict[str, Any]:
        """What makes results reproducible, for run.json. Says whether a key is set, never the key."""
        self._connect()
        return {
            "identity": self.identity(),
            "engine": self.name,
            "model": self.model,
            "base_url": self._endpoint.display_url,
            "server": self._info.kind.value,
            "server_version": self._info.version,
            "structured_output": self._mechanism.value,
            "temperature": self.temperature,
            "seed": self.seed,
            "chat_template_kwargs": self.chat_template_kwargs,
            "length_retry_factor": self.length_retry_factor,
            "concurrency": self.concurrency,
            "in_flight": self._in_flight,
            "timeout_s": self.timeout,
            "max_attempts": self.max_attempts,
            "tokenizer": f"server {self._route.label}" if self._route else "estimate",
            "api_key_set": bool(self._endpoint.api_key),
        }

    async def _shutdown(self) -> None:
        """Cancel requests still in flight (a caller that stopped early) and close the connection pools."""
        tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for aclient in self._aclients:
            await aclient.aclose()
        self._aclients = []

    def close(self) -> None:
        if self._loop is not None:
            try:
                asyncio.run_coroutine_threadsafe(self._shutdown(), self._loop).result(timeout=10)
            except (concurrent.futures.TimeoutError, RuntimeError):
                pass
            self._loop.call_soon_threadsafe(self._loop.stop)
            if self._thread is not None:
                self._thread.join(timeout=5)
            self._loop.close()
            self._loop = self._thread = self._slots = None
        if self._client is not None:
            self._client.close()
            self._client = None

    def __enter__(self) -> OpenAIEngine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _retry_after(value: str | None) -> float | None:
    """Seconds from a Retry-After header given in seconds (HTTP dates are rare from LLM servers; ignored)."""
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        return None


# ---------------------------------------------------------------------------------------------- plugin


def openai_identity(
    model: str,
    *,
    temperature: float,
    seed: int | None,
    chat_template_kwargs: Mapping[str, Any] | None,
    length_retry_factor: float,
    extra_body: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """What an answer depends on: the runner keys its checkpoint on it, so a rerun with another
    --concurrency, timeout, port or a server that was down at the start still resumes."""
    return {
        "engine": "openai",
        "model": model,
        "temperature": temperature,
        "seed": seed,
        "chat_template_kwargs": dict(chat_template_kwargs or {}),
        "length_retry_factor": length_retry_factor,
        "extra_body": dict(extra_body or {}),
    }


@dataclass(frozen=True)
class OpenAISettings:
    """What `--engine openai` runs with; the URL and key are resolved (flags, then OPENAI_* variables)."""

    base_url: str
    model: str | None = None
    """None: the server's only model, asked for when the identity or the engine is needed."""
    api_key: str | None = field(default=None, repr=False)
    concurrency: int = DEFAULT_CONCURRENCY
    chat_template_kwargs: dict[str, Any] | None = None
    temperature: float = TEMPERATURE
    seed: int | None = DEFAULT_SEED
    length_retry_factor: float = LENGTH_RETRY_FACTOR


class OpenAIPlugin:
    """The `openai` entry point: any OpenAI-compatible server."""

    name = "openai"

    def settings(self, options: Mapping[str, Any]) -> OpenAISettings:
        endpoint = Endpoint.resolve(opt_str(options, "base_url"), options.get("api_key"))
        return OpenAISettings(
            base_url=endpoint.base_url,
            model=opt_str(options, "model"),
            api_key=endpoint.api_key,
            concurrency=opt_int(options, "concurrency", DEFAULT_CONCURRENCY) or DEFAULT_CONCURRENCY,
            chat_template_kwargs=opt_dict(options, "chat_template_kwargs"),
            temperature=TEMPERATURE,
            seed=DEFAULT_SEED,
            length_retry_factor=LENGTH_RETRY_FACTOR,
        )

    def identity(self, settings: OpenAISettings) -> dict[str, Any]:
        """No model named: one GET /v1/models says which the server serves (the only probe made here)."""
        model = settings.model
        if model is None:
            probe = OpenAIEngine(base_url=settings.base_url, api_key=settings.api_key)
            try:
                model = probe.model
            finally:
                probe.close()
        return openai_identity(
            model,
            temperature=settings.temperature,
            seed=settings.seed,
            chat_template_kwargs=settings.chat_template_kwargs,
            length_retry_factor=settings.length_retry_factor,
        )

    def create(self, settings: OpenAISettings) -> OpenAIEngine:
        return OpenAIEngine(
            settings.model,
            base_url=settings.base_url,
            api_key=settings.api_key,
            concurrency=settings.concurrency,
            temperature=settings.temperature,
            seed=settings.seed,
            chat_template_kwargs=settings.chat_template_kwargs,
            length_retry_factor=settings.length_retry_factor,
        )


plugin = OpenAIPlugin()
