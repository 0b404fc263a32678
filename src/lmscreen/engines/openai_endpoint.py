"""Where an OpenAI-compatible server lives, who it is, and how to say plainly why it cannot be reached.

Shared by the `openai` engine and `lmscreen doctor`, so both resolve `--base-url` / `OPENAI_BASE_URL` and
`--api-key` / `OPENAI_API_KEY` the same way, recognise the same server kinds and word connection failures
the same way. The API key lives only in `Endpoint.api_key` (excluded from repr) and in the Authorization
header; nothing here formats it into a message.
"""

from __future__ import annotations

import os
import ssl
from dataclasses import dataclass, field
from enum import Enum
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import httpx

from lmscreen.errors import InputError


class ServerKind(str, Enum):
    """Server families whose structured-output dialects differ."""

    LLAMA_CPP_PYTHON = "llama-cpp-python"
    LLAMA_CPP = "llama.cpp"
    OLLAMA = "ollama"
    VLLM = "vllm"
    SGLANG = "sglang"
    UNKNOWN = "unknown"


def safe_url(url: str) -> str:
    """`url` without user:password, query or fragment (where keys hide), for logs and run.json."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return "(unparsable URL)"
    host = parts.hostname or ""
    if ":" in host:
        host = f"[{host}]"
    netloc = f"{host}:{port}" if port else host
    return urlunsplit((parts.scheme, netloc, parts.path, "", ""))


@dataclass(frozen=True)
class ServerInfo:
    kind: ServerKind
    version: str | None = None


@dataclass(frozen=True)
class Endpoint:
    """A normalised OpenAI-compatible base URL (ending in `/v1` unless the user gave another path) and key."""

    base_url: str
    api_key: str | None = field(default=None, repr=False)

    @classmethod
    def resolve(cls, base_url: str | None, api_key: str | None = None) -> Endpoint:
        """Arguments first, then OPENAI_BASE_URL / OPENAI_API_KEY; a URL that cannot work is an InputError."""
        url = base_url or os.environ.get("OPENAI_BASE_URL")
        if not url:
            raise InputError("no server URL: pass --base-url URL or set OPENAI_BASE_URL")
        key = api_key if api_key is not None else os.environ.get("OPENAI_API_KEY")
        return cls(base_url=normalise_base_url(url), api_key=key or None)

    @property
    def root(self) -> str:
        """The server root (base URL without its trailing `/v1`): where /tokenize, /api/version live."""
        return self.base_url[: -len("/v1")] if self.base_url.endswith("/v1") else self.base_url

    @property
    def display_url(self) -> str:
        """The base URL with any user:password part removed, safe for logs and run.json."""
        return safe_url(self.base_url)

    def url(self, path: str) -> str:
        """`path` under the OpenAI base URL, e.g. url('chat/completions')."""
        return f"{self.base_url}/{path.lstrip('/')}"

    def root_url(self, path: str) -> str:
        """`path` under the server root, e.g. root_url('api/version')."""
        return f"{self.root}/{path.lstrip('/')}"

    def redact(self, text: str) -> str:
        """`text` with the API key blanked, for messages that quote a server's answer (some echo the key)."""
        return text.replace(self.api_key, "***") if self.api_key and len(self.api_key) >= 4 else text

    def headers(self) -> dict[str, str]:
        headers = {"Accept": "application/json"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        return headers


def normalise_base_url(url: str) -> str:
    """Accept `http://host:port`, `http://host:port/` and `http://host:port/v1`; keep any other path as given.

    Users copy either the server address or the OpenAI client's base URL; both mean the same server.
    """
    text = url.strip()
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise InputError(f"--base-url {text!r} is not an http(s) URL such as http://127.0.0.1:8000/v1")
    try:
        parts.port  # noqa: B018 - raises ValueError on a malformed port
    except ValueError as exc:
        raise InputError(f"--base-url {text!r} has an invalid port") from exc
    path = parts.path.rstrip("/")
    if path == "":
        path = "/v1"
    return urlunsplit((parts.scheme, parts.netloc, path, "", ""))


def list_models(client: httpx.Client, endpoint: Endpoint, timeout: float) -> list[str]:
    """Served model names from GET /v1/models (raises httpx errors; the caller words them)."""
    response = client.get(endpoint.url("models"), headers=endpoint.headers(), timeout=timeout)
    response.raise_for_status()
    data = response.json().get("data") or []
    return [str(item["id"]) for item in data if isinstance(item, dict) and "id" in item]


def _get_json(client: httpx.Client, url: str, headers: dict[str, str], timeout: float) -> Any:
    try:
        response = client.get(url, headers=headers, timeout=timeout)
    except httpx.HTTPError:
        return None
    server = response.headers.get("server", "").lower()
    if "ollama" in server:
        return {"__server__": "ollama"}
    if response.status_code != 200:
        return None
    try:
        return response.json()
    except ValueError:
        return None


def detect_server(client: httpx.Client, endpoint: Endpoint, timeout: float = 5.0) -> ServerInfo:
    """Identify the server family by endpoints only it has; UNKNOWN when nothing matches or it is down.

    Probes, cheapest and most specific first: Ollama's /api/version, the llama-cpp-python server's OpenAPI
    title, llama.cpp's /props, vLLM's /version, SGLang's /get_server_info.
    """
    headers = endpoint.headers()
    probe = _get_json(client, endpoint.root_url("api/version"), headers, timeout)
    if isinstance(probe, dict) and (probe.get("__server__") == "ollama" or "version" in probe):
        return ServerInfo(ServerKind.OLLAMA, probe.get("version"))
    spec = _get_json(client, endpoint.root_url("openapi.json"), headers, timeout)
    info = spec.get("info") if isinstance(spec, dict) else None
    if isinstance(info, dict) and "llama.cpp python" in str(info.get("title", "")).lower():
        return ServerInfo(ServerKind.LLAMA_CPP_PYTHON, info.get("version"))
    props = _get_json(client, endpoint.root_url("props"), headers, timeout)
    if isinstance(props, dict) and ("build_info" in props or "default_generation_settings" in props):
        return ServerInfo(ServerKind.LLAMA_CPP, props.get("build_info"))
    version = _get_json(client, endpoint.root_url("version"), headers, timeout)
    if isinstance(version, dict) and "version" in version:
        return ServerInfo(ServerKind.VLLM, str(version["version"]))
    sglang = _get_json(client, endpoint.root_url("get_server_info"), headers, timeout)
    if isinstance(sglang, dict):
        return ServerInfo(ServerKind.SGLANG, sglang.get("version"))
    return ServerInfo(ServerKind.UNKNOWN)


def _root_causes(exc: BaseException) -> list[BaseException]:
    chain: list[BaseException] = []
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        chain.append(current)
        current = current.__cause__ or current.__context__
    return chain


def describe_transport_error(exc: BaseException, url: str, timeout: float | None = None) -> str:
    """One plain sentence for a failed connection: refused, DNS, TLS, timeout or dropped connection."""
    parts = urlsplit(url)
    where = f"{parts.hostname}:{parts.port or (443 if parts.scheme == 'https' else 80)}"
    chain = _root_causes(exc)
    text = " ".join(str(e) for e in chain).lower()
    if isinstance(exc, httpx.TimeoutException) or any(isinstance(e, TimeoutError) for e in chain):
        after = f" after {timeout:g} s" if timeout else ""
        phase = "connecting to" if isinstance(exc, httpx.ConnectTimeout) else "waiting for"
        return f"timed out{after} {phase} {where}"
    if any(isinstance(e, ssl.SSLError) for e in chain) or "ssl" in text or "certificate" in text:
        return f"TLS handshake with {where} failed ({chain[-1]}); is it http rather than https?"
    if (
        "name or service not known" in text
        or "nodename nor servname" in text
        or "getaddrinfo" in text
        or "temporary failure in name resolution" in text
        or "no address associated" in text
    ):
        return f"cannot resolve host {parts.hostname!r} (DNS lookup failed)"
    if "refused" in text or any(isinstance(e, ConnectionRefusedError) for e in chain):
        return f"connection refused: nothing is listening at {where}"
    if isinstance(exc, (httpx.RemoteProtocolError, httpx.ReadError, httpx.WriteError)) or "reset" in text:
        return f"the connection to {where} was dropped before a complete answer"
    return f"cannot connect to {where}: {type(exc).__name__}: {exc}"


def error_message(body: str, limit: int = 200) -> str:
    """The server's own error message from an error body (OpenAI `{error: {message}}` or `{detail}`), cut."""
    import json

    message = body
    try:
        payload = json.loads(body)
    except ValueError:
        payload = None
    if isinstance(payload, dict):
        error = payload.get("error")
        if isinstance(error, dict) and error.get("message"):
            message = str(error["message"])
        elif isinstance(error, str):
            message = error
        elif payload.get("detail"):
            message = str(payload["detail"])
        elif payload.get("message"):
            message = str(payload["message"])
    message = " ".join(message.split())
    return message if len(message) <= limit else message[: limit - 1] + "…"


def model_not_served(requested: str, served: list[str], display_url: str) -> str:
    """The fix for the classic "model not found": which names are served, and the two ways to agree."""
    names = ", ".join(served) if served else "(none)"
    use = f"use --model {served[0]}" if served else "load a model into the server"
    return (
        f"model {requested!r} is not served at {display_url}; served: {names}. Fix: {use}, "
        f"or launch the server under the name you want (vLLM/SGLang: --served-model-name {requested}; "
        f"llama-cpp-python: --model_alias {requested}; llama-server: --alias {requested})"
    )
