"""The checks `lmscreen doctor` runs against an OpenAI-compatible endpoint, in the order a user needs them.

1. reachable: GET /v1/models answers (else: refused / DNS / TLS / timeout / HTTP status, said plainly).
2. model: the requested name is among the served ones (else which are, and how to agree).
3. chat: a tiny chat request comes back with text (the chat template works).
4. json_schema: structured output is really enforced. The probe asks in words for plain prose but requires,
   by schema, an object with an enum field and a fixed const that only a constrained decoder will produce;
   each structured-output form this server family might take is tried until one validates.
5. speed: time to first token and decode tokens/s from one streamed answer.
A check that cannot run because an earlier one failed is reported as skipped.
"""

from __future__ import annotations

import json
import time
from typing import Any

import httpx
import jsonschema

from lmscreen.doctor.report import Check, DoctorReport, Status
from lmscreen.engines.openai_endpoint import (
    Endpoint,
    ServerInfo,
    ServerKind,
    describe_transport_error,
    detect_server,
    error_message,
    model_not_served,
)
from lmscreen.engines.openai_engine import MalformedResponse, parse_completion
from lmscreen.engines.structured import (
    Mechanism,
    is_format_rejection,
    mechanism_order,
    response_format_fields,
)
from lmscreen.errors import InputError

PROBE_MARKER = "lmscreen-probe-42"
PROBE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "verdict": {"type": "string", "enum": ["amber-7", "violet-3"]},
        "marker": {"type": "string", "const": PROBE_MARKER},
    },
    "required": ["verdict", "marker"],
    "additionalProperties": False,
}
PROBE_PROMPT = "Describe the colour of the sky in two plain sentences. Do not use JSON, braces or quotes."
ALL_MECHANISMS = (Mechanism.JSON_SCHEMA, Mechanism.JSON_OBJECT_SCHEMA, Mechanism.JSON_OBJECT)


def _snippet(text: str, limit: int = 80) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


class _Doctor:
    """State shared by the checks of one doctor run."""

    def __init__(self, endpoint: Endpoint, timeout: float) -> None:
        self.endpoint = endpoint
        self.timeout = timeout
        self.client = httpx.Client(timeout=timeout)

    def chat(
        self, model: str, messages: list[dict[str, str]], max_tokens: int, **fields: Any
    ) -> tuple[int, str, float]:
        """POST a chat completion; returns (status, body text, seconds). Raises httpx transport errors."""
        body = {"model": model, "messages": messages, "max_tokens": max_tokens, "temperature": 0.0, **fields}
        started = time.monotonic()
        response = self.client.post(
            self.endpoint.url("chat/completions"), json=body, headers=self.endpoint.headers()
        )
        return response.status_code, response.text, time.monotonic() - started

    def why(self, exc: httpx.HTTPError) -> str:
        return describe_transport_error(exc, self.endpoint.base_url, self.timeout)


def check_reachable(doc: _Doctor) -> tuple[Check, list[str] | None]:
    url = doc.endpoint.url("models")
    shown = f"{doc.endpoint.display_url}/models"
    started = time.monotonic()
    try:
        response = doc.client.get(url, headers=doc.endpoint.headers())
    except httpx.HTTPError as exc:
        return Check(
            "reachable",
            Status.FAIL,
            doc.why(exc),
            fix="start the server, or check --base-url (host, port, http vs https)",
        ), None
    ms = (time.monotonic() - started) * 1000
    status = response.status_code
    if status in (401, 403):
        return Check(
            "reachable",
            Status.FAIL,
            f"the server rejected the API key (HTTP {status})",
            fix="pass --api-key KEY or set OPENAI_API_KEY to the key the server expects",
        ), None
    if status == 404:
        return Check(
            "reachable",
            Status.FAIL,
            f"no model list at {shown} (HTTP 404)",
            fix="check --base-url: OpenAI-compatible servers answer under /v1, e.g. http://127.0.0.1:8000/v1",
        ), None
    if status != 200:
        detail = doc.endpoint.redact(error_message(response.text))
        return Check("reachable", Status.FAIL, f"GET {shown} answered HTTP {status}: {detail}"), None
    try:
        data = response.json().get("data")
        served = [str(m["id"]) for m in data if isinstance(m, dict) and "id" in m]
    except (ValueError, AttributeError, TypeError):
        return Check(
            "reachable",
            Status.FAIL,
            f"{shown} did not return an OpenAI model list",
            fix="point --base-url at an OpenAI-compatible server",
        ), None
    return Check("reachable", Status.PASS, f"GET {shown} answered HTTP 200 in {ms:.0f} ms"), served


def check_model(doc: _Doctor, requested: str | None, served: list[str]) -> tuple[Check, str | None]:
    """Which name the remaining checks use: the requested one if served, else the only served one."""
    listing = ", ".join(served)
    if not served:
        return Check(
            "model", Status.FAIL, "the server lists no models", fix="load a model into the server"
        ), requested
    if requested is None:
        if len(served) == 1:
            return Check("model", Status.PASS, f"serves {served[0]} (pass --model {served[0]})"), served[0]
        return Check(
            "model",
            Status.WARN,
            f"serves several models: {listing}; checking {served[0]}",
            fix=f"pass --model NAME, one of: {listing}",
        ), served[0]
    if requested in served:
        return Check("model", Status.PASS, f"{requested!r} is served (served: {listing})"), requested
    message = model_not_served(requested, served, doc.endpoint.display_url)
    summary, _, fix = message.partition(" Fix: ")
    summary = summary.rstrip(".")
    fallback = served[0] if len(served) == 1 else None
    if fallback:
        summary += f"; the checks below use {fallback!r}"
    return Check("model", Status.FAIL, summary, fix=fix or None, details={"served": served}), fallback


def check_chat(doc: _Doctor, model: str) -> Check:
    messages = [{"role": "user", "content": "Say hello in one short sentence."}]
    try:
        status, body, seconds = doc.chat(model, messages, max_tokens=256)
    except httpx.HTTPError as exc:
        return Check("chat", Status.FAIL, f"chat request failed: {doc.why(exc)}")
    if status != 200:
        detail = doc.endpoint.redact(error_message(body))
        return Check(
            "chat",
            Status.FAIL,
            f"chat request answered HTTP {status}: {detail}",
            fix="the model may have no chat template: pass one to the server "
            "(vLLM --chat-template, llama-server --chat-template NAME)",
        )
    try:
        completion = parse_completion(json.loads(body))
    except (ValueError, MalformedResponse) as exc:
        return Check("chat", Status.FAIL, f"the chat answer is not a chat completion: {exc}")
    if not completion.text:
        reasoned = '"reasoning' in body
        return Check(
            "chat",
            Status.WARN if reasoned else Status.FAIL,
            "the model only reasoned and gave no answer within 256 tokens"
            if reasoned
            else "the chat answer was empty",
            fix="turn thinking off for screening (chat_template_kwargs enable_thinking=false)"
            if reasoned
            else "check the server's chat template for this model",
        )
    return Check("chat", Status.PASS, f"answered in {seconds:.1f} s: {_snippet(completion.text)!r}")


def _validate_probe(body: str) -> str | None:
    """None when the probe answer satisfies PROBE_SCHEMA, else why not (with a snippet of the answer)."""
    try:
        text = parse_completion(json.loads(body)).text
    except (ValueError, MalformedResponse) as exc:
        return f"failed (not a chat completion: {exc})"
    try:
        jsonschema.validate(json.loads(text), PROBE_SCHEMA)
    except ValueError:
        return f"not enforced (not JSON): {_snippet(text)!r}"
    except jsonschema.ValidationError as exc:
        return f"not enforced ({exc.message}): {_snippet(text)!r}"
    return None


def check_json_schema(doc: _Doctor, model: str, info: ServerInfo) -> tuple[Check, Mechanism | None]:
    # The standard form first, so the report says when a server rejects it; then the fallbacks.
    order = ALL_MECHANISMS + tuple(m for m in mechanism_order(info.kind) if m not in ALL_MECHANISMS)
    tried: dict[str, str] = {}
    messages = [{"role": "user", "content": PROBE_PROMPT}]
    for mechanism in order:
        fields = response_format_fields(mechanism, PROBE_SCHEMA, name="lmscreen_probe")
        try:
            status, body, _ = doc.chat(model, messages, max_tokens=96, **fields)
        except httpx.HTTPError as exc:
            tried[mechanism.value] = f"failed: {doc.why(exc)}"
            continue
        if status != 200:
            verb = "rejected" if is_format_rejection(status, body) else "failed"
            tried[mechanism.value] = f"{verb} (HTTP {status}: {doc.endpoint.redact(error_message(body, 70))})"
            continue
        verdict = _validate_probe(body)
        if verdict is not None:
            tried[mechanism.value] = verdict
            continue
        tried[mechanism.value] = "enforced"
        others = "; ".join(f"{k} {v}" for k, v in tried.items() if k != mechanism.value)
        summary = f"enforced with response_format {mechanism.value}" + (f" ({others})" if others else "")
        return Check("json_schema", Status.PASS, summary, details={"tried": tried}), mechanism
    summary = "JSON-schema output is NOT enforced: " + "; ".join(f"{k} {v}" for k, v in tried.items())
    fix = (
        "use a server with grammar-constrained decoding (vLLM/SGLang structured outputs, llama-server "
        "json_schema, llama-cpp-python json_object+schema, Ollama format)"
    )
    return Check("json_schema", Status.FAIL, summary, fix=fix, details={"tried": tried}), None


def check_speed(doc: _Doctor, model: str) -> Check:
    body = {
        "model": model,
        "temperature": 0.0,
        "max_tokens": 64,
        "stream": True,
        "stream_options": {"include_usage": True},
        "messages": [{"role": "user", "content": "Write a short story about a lighthouse keeper."}],
    }
    first = last = None
    chunks = 0
    usage_tokens = 0
    started = time.monotonic()
    try:
        with doc.client.stream(
            "POST", doc.endpoint.url("chat/completions"), json=body, headers=doc.endpoint.headers()
        ) as response:
            if response.status_code != 200:
                detail = doc.endpoint.redact(error_message(response.read().decode(errors="replace")))
                return Check(
                    "speed", Status.WARN, f"streaming answered HTTP {response.status_code}: {detail}"
                )
            for line in response.iter_lines():
                if not line.startswith("data:"):
                    continue
                data = line[5:].strip()
                if data == "[DONE]":
                    break
                try:
                    event = json.loads(data)
                except ValueError:
                    continue
                usage = event.get("usage") if isinstance(event, dict) else None
                if isinstance(usage, dict) and isinstance(usage.get("completion_tokens"), int):
                    usage_tokens = usage["completion_tokens"]
                for choice in event.get("choices") or []:
                    delta = choice.get("delta") or {}
                    if any(delta.get(k) for k in ("content", "reasoning_content", "reasoning")):
                        now = time.monotonic()
                        first = first if first is not None else now
                        last = now
                        chunks += 1
    except httpx.HTTPError as exc:
        return Check("speed", Status.WARN, f"streaming failed: {doc.why(exc)}")
    if first is None or last is None:
        return Check("speed", Status.WARN, "the streamed answer carried no tokens")
    ttft = first - started
    tokens = usage_tokens or chunks
    details: dict[str, Any] = {"ttft_s": round(ttft, 4), "completion_tokens": tokens}
    if tokens > 1 and last > first:
        rate = (tokens - 1) / (last - first)
        details["decode_tokens_per_s"] = round(rate, 2)
        summary = f"time to first token {ttft * 1000:.0f} ms; decode {rate:.1f} tokens/s ({tokens} tokens)"
    else:
        summary = f"time to first token {ttft * 1000:.0f} ms; too few tokens to time decoding"
    return Check("speed", Status.PASS, summary, details=details)


def run_doctor(
    base_url: str | None, model: str | None = None, api_key: str | None = None, timeout: float = 60.0
) -> DoctorReport:
    """Run every check against the endpoint; bad arguments raise InputError (exit 2), findings never raise."""
    if timeout <= 0:
        raise InputError(f"--timeout must be positive (got {timeout:g})")
    endpoint = Endpoint.resolve(base_url, api_key)
    doc = _Doctor(endpoint, timeout)
    report = DoctorReport(
        base_url=endpoint.display_url,
        requested_model=model,
        model=None,
        served_models=[],
        server=ServerKind.UNKNOWN.value,
        server_version=None,
        api_key_set=bool(endpoint.api_key),
    )
    remaining = ["model", "chat", "json_schema", "speed"]
    try:
        reach, served = check_reachable(doc)
        report.checks.append(reach)
        if served is None:
            report.checks += [
                Check(n, Status.SKIP, "skipped: the server is not reachable") for n in remaining
            ]
            return report
        report.served_models = served
        info = detect_server(doc.client, endpoint, timeout=min(5.0, timeout))
        report.server, report.server_version = info.kind.value, info.version
        model_check, used = check_model(doc, model, served)
        report.checks.append(model_check)
        report.model = used
        if used is None:
            report.checks += [
                Check(n, Status.SKIP, "skipped: no model name to check with") for n in remaining[1:]
            ]
            return report
        report.checks.append(check_chat(doc, used))
        report.checks.append(check_json_schema(doc, used, info)[0])
        report.checks.append(check_speed(doc, used))
        return report
    finally:
        doc.client.close()
        for check in report.checks:  # belt and braces: a server could echo the key back in an error
            check.summary = endpoint.redact(check.summary)
            check.fix = endpoint.redact(check.fix) if check.fix else None
