"""A loopback HTTP proxy that the tests put between a client and a real server to make it misbehave.

Faults are queued per path prefix and consumed in order, one per matching request:
- `status`: answer `status` (500 by default) without asking the upstream;
- `delay`: wait `seconds` before forwarding (longer than the client's timeout → the client gives up);
- `malformed`: forward, then send back only the first half of the upstream's body (broken JSON);
- `drop`: read the request and close the connection without a word;
- `unconstrain`: forward without the request's `response_format` (a server that ignores the schema);
- `think`: forward, then wrap the answer as a reasoning model would (`<think>…</think>` before the content
  and a `reasoning_content` field), so the client's stripping is tested on a real completion.
`hide(path)` makes a path answer 404 for good (a server without that endpoint). Every request is recorded
(method, path, headers, JSON body) so tests can check what the client really sent.
"""

from __future__ import annotations

import asyncio
import json
import threading
from dataclasses import dataclass, field
from typing import Any

import httpx

# Not relayed either way; accept-encoding is dropped so the upstream never compresses what we relay raw.
_HOP_BY_HOP = {
    "connection",
    "keep-alive",
    "transfer-encoding",
    "content-length",
    "host",
    "content-encoding",
    "accept-encoding",
}


@dataclass
class Fault:
    kind: str
    path: str
    remaining: int | None
    status: int = 500
    seconds: float = 0.0
    headers: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Seen:
    method: str
    path: str
    headers: dict[str, str]
    body: Any
    fault: str | None


@dataclass(frozen=True)
class Answer:
    """A response the proxy relayed in full from the upstream (recorded after its last byte was sent)."""

    path: str
    status: int
    body: Any


class FaultProxy:
    """Forwards loopback HTTP/1.1 to `upstream` (e.g. http://127.0.0.1:8000) with injected faults."""

    def __init__(self, upstream: str) -> None:
        self.upstream = upstream.rstrip("/")
        self.port = 0
        self.seen: list[Seen] = []
        self.answers: list[Answer] = []
        self._faults: list[Fault] = []
        self._hidden: set[str] = set()
        self._lock = threading.Lock()
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="faultproxy", daemon=True)
        self._server: asyncio.base_events.Server | None = None
        self._client: httpx.AsyncClient | None = None
        self._writers: set[asyncio.StreamWriter] = set()

    # -- control (test thread) ---------------------------------------------------------------------------

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    @property
    def root(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def inject(
        self,
        kind: str,
        count: int | None = 1,
        *,
        path: str = "/v1/chat/completions",
        status: int = 500,
        seconds: float = 0.0,
        headers: dict[str, str] | None = None,
    ) -> None:
        """Queue `count` faults (None: every matching request from now on) for requests under `path`."""
        if kind not in {"status", "delay", "malformed", "drop", "think", "unconstrain"}:
            raise ValueError(f"unknown fault {kind!r}")
        with self._lock:
            self._faults.append(Fault(kind, path, count, status, seconds, dict(headers or {})))

    def hide(self, path: str) -> None:
        with self._lock:
            self._hidden.add(path)

    def clear(self) -> None:
        with self._lock:
            self._faults.clear()
            self._hidden.clear()
            self.seen.clear()
            self.answers.clear()

    def requests_to(self, path: str) -> list[Seen]:
        with self._lock:
            return [s for s in self.seen if s.path.startswith(path)]

    def start(self) -> FaultProxy:
        self._thread.start()
        asyncio.run_coroutine_threadsafe(self._start(), self._loop).result(timeout=10)
        return self

    def stop(self) -> None:
        if self._thread.is_alive():
            asyncio.run_coroutine_threadsafe(self._stop(), self._loop).result(timeout=10)
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(timeout=10)
        self._loop.close()

    def __enter__(self) -> FaultProxy:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- serving (proxy thread) --------------------------------------------------------------------------

    async def _start(self) -> None:
        self._client = httpx.AsyncClient(timeout=httpx.Timeout(600.0))
        self._server = await asyncio.start_server(self._connection, "127.0.0.1", 0)
        self.port = int(self._server.sockets[0].getsockname()[1])

    async def _stop(self) -> None:
        assert self._server is not None and self._client is not None
        self._server.close()
        for writer in list(self._writers):
            writer.close()
        # Requests still held by a `delay` fault: cancel them so the loop closes without orphans.
        pending = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
        await self._client.aclose()

    def _take_fault(self, path: str) -> Fault | None:
        with self._lock:
            for fault in self._faults:
                if path.startswith(fault.path) and (fault.remaining is None or fault.remaining > 0):
                    if fault.remaining is not None:
                        fault.remaining -= 1
                    return fault
        return None

    async def _connection(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._writers.add(writer)
        try:
            while await self._one_request(reader, writer):
                pass
        except (ConnectionError, asyncio.IncompleteReadError, asyncio.LimitOverrunError):
            pass
        finally:
            self._writers.discard(writer)
            writer.close()

    async def _one_request(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> bool:
        try:
            head = await reader.readuntil(b"\r\n\r\n")
        except asyncio.IncompleteReadError:
            return False
        lines = head.decode("latin-1").split("\r\n")
        method, path, _ = lines[0].split(" ", 2)
        headers: dict[str, str] = {}
        for line in lines[1:]:
            if ":" in line:
                name, value = line.split(":", 1)
                headers[name.strip().lower()] = value.strip()
        body = await reader.readexactly(int(headers.get("content-length", "0") or 0))
        try:
            parsed: Any = json.loads(body) if body else None
        except ValueError:
            parsed = body
        fault = None if any(path.startswith(p) for p in self._hidden) else self._take_fault(path)
        with self._lock:
            self.seen.append(Seen(method, path, headers, parsed, fault.kind if fault else None))

        if any(path.startswith(p) for p in self._hidden):
            await self._write(writer, 404, {}, b'{"detail": "Not Found"}')
            return True
        if fault is not None and fault.kind == "drop":
            return False
        if fault is not None and fault.kind == "status":
            message = json.dumps({"error": {"message": "injected fault", "type": "server_error"}}).encode()
            await self._write(writer, fault.status, fault.headers, message)
            return True
        if fault is not None and fault.kind == "delay":
            await asyncio.sleep(fault.seconds)

        if fault is not None and fault.kind == "unconstrain" and isinstance(parsed, dict):
            body = json.dumps({k: v for k, v in parsed.items() if k != "response_format"}).encode()
        assert self._client is not None
        forward = {k: v for k, v in headers.items() if k not in _HOP_BY_HOP}
        request = self._client.build_request(method, self.upstream + path, headers=forward, content=body)
        try:
            upstream = await self._client.send(request, stream=True)
        except httpx.HTTPError:
            await self._write(writer, 502, {}, b'{"error": {"message": "upstream unreachable"}}')
            return True
        out_headers = {k: v for k, v in upstream.headers.items() if k.lower() not in _HOP_BY_HOP}
        try:
            if fault is not None and fault.kind in ("malformed", "think"):
                data = await upstream.aread()
                data = data[: len(data) // 2] if fault.kind == "malformed" else _as_reasoning_model(data)
                await self._write(writer, upstream.status_code, out_headers, data)
                return True
            data = await self._write_chunked(writer, upstream, out_headers)
            try:
                relayed: Any = json.loads(data)
            except ValueError:
                relayed = data
            with self._lock:
                self.answers.append(Answer(path, upstream.status_code, relayed))
        finally:
            await upstream.aclose()
        return True

    @staticmethod
    async def _write(writer: asyncio.StreamWriter, status: int, headers: dict[str, str], body: bytes) -> None:
        head = [f"HTTP/1.1 {status} X"]
        head += [f"{k}: {v}" for k, v in headers.items()]
        head += (
            ["content-type: application/json"]
            if not any(k.lower() == "content-type" for k in headers)
            else []
        )
        head += [f"content-length: {len(body)}", "", ""]
        writer.write("\r\n".join(head).encode("latin-1") + body)
        await writer.drain()

    @staticmethod
    async def _write_chunked(
        writer: asyncio.StreamWriter, upstream: httpx.Response, headers: dict[str, str]
    ) -> bytes:
        """Relay the upstream body as it arrives (chunked, so streams stay streams); returns it whole."""
        head = [
            f"HTTP/1.1 {upstream.status_code} X",
            *[f"{k}: {v}" for k, v in headers.items()],
            "transfer-encoding: chunked",
            "",
            "",
        ]
        writer.write("\r\n".join(head).encode("latin-1"))
        body = bytearray()
        async for chunk in upstream.aiter_raw():
            if chunk:
                body += chunk
                writer.write(f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n")
                await writer.drain()
        writer.write(b"0\r\n\r\n")
        await writer.drain()
        return bytes(body)


def _as_reasoning_model(data: bytes) -> bytes:
    """Rewrite a chat completion as a reasoning model without a reasoning parser would send it."""
    payload = json.loads(data)
    message = payload["choices"][0]["message"]
    message["reasoning_content"] = "The user wants JSON. I must not answer 42."
    message["content"] = "<think>\nLet me think: the answer is 42.\n</think>\n" + (
        message.get("content") or ""
    )
    return json.dumps(payload).encode()
