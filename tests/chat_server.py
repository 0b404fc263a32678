"""A minimal OpenAI-compatible chat server on loopback, shared by the tests' scripted servers.

A test server is a script that calls `serve(answer, model)` with its own `answer(request) -> content`
(sync or async: an async one may wait, e.g. to play a stuck server); this module owns the HTTP/1.1
keep-alive loop, the completion and model-list bodies, and `ChatServerProcess`, which starts such a script
in its own process group on a free port (it prints `PORT n`) and takes it down on exit.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import os
import signal
import subprocess
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from types import TracebackType
from typing import Any

Answer = Callable[[dict[str, Any]], "str | Awaitable[str]"]


def _completion(content: str, model: str, usage: tuple[int, int]) -> bytes:
    payload = {
        "id": model,
        "object": "chat.completion",
        "model": model,
        "choices": [
            {"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": content}}
        ],
        "usage": {"prompt_tokens": usage[0], "completion_tokens": usage[1], "total_tokens": sum(usage)},
    }
    return json.dumps(payload, ensure_ascii=False).encode()


async def _connection(
    reader: asyncio.StreamReader,
    writer: asyncio.StreamWriter,
    answer: Answer,
    model: str,
    usage: tuple[int, int],
) -> None:
    try:
        while True:
            try:
                head = await reader.readuntil(b"\r\n\r\n")
            except (asyncio.IncompleteReadError, ConnectionError):
                return
            lines = head.decode("latin-1").split("\r\n")
            method, path, _ = lines[0].split(" ", 2)
            length = next(
                (int(x.split(":", 1)[1]) for x in lines[1:] if x.lower().startswith("content-length:")), 0
            )
            body = await reader.readexactly(length) if length else b""
            if method == "POST" and path.endswith("/chat/completions"):
                content = answer(json.loads(body or b"{}"))
                if inspect.isawaitable(content):
                    content = await content
                status, out = "200 OK", _completion(content, model, usage)
            elif method == "GET" and path.endswith("/models"):
                status = "200 OK"
                out = json.dumps({"object": "list", "data": [{"id": model, "object": "model"}]}).encode()
            else:
                status, out = "404 Not Found", b'{"error": {"message": "not found"}}'
            head = f"HTTP/1.1 {status}\r\ncontent-type: application/json\r\ncontent-length: {len(out)}"
            writer.write(f"{head}\r\n\r\n".encode() + out)
            await writer.drain()
    finally:
        writer.close()


def serve(answer: Answer, model: str, usage: tuple[int, int] = (100, 20), *, backlog: int = 100) -> None:
    """Serve on a free loopback port until killed; the first line on stdout is `PORT n`."""

    async def main() -> None:
        server = await asyncio.start_server(
            lambda r, w: _connection(r, w, answer, model, usage), "127.0.0.1", 0, backlog=backlog
        )
        print(f"PORT {server.sockets[0].getsockname()[1]}", flush=True)
        async with server:
            await server.serve_forever()

    asyncio.run(main())


def _die_with_parent() -> None:
    """Runs in the child before exec: a server started by a test session that is itself killed (a timeout,
    ^C, a SIGKILLed helper) gets SIGTERM instead of living on as an orphan eating the shared cores."""
    import ctypes

    ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def popen_kwargs() -> dict[str, Any]:
    """Own session (so a kill takes the whole server down like a crash) and death with the parent."""
    return {"start_new_session": True, "preexec_fn": _die_with_parent if sys.platform == "linux" else None}


class ChatServerProcess:
    """`python SCRIPT ARGS...` (a script that calls `serve`) as a context manager: `base_url` and `port`
    inside."""

    def __init__(self, script: Path, *args: str) -> None:
        self.command = [sys.executable, str(script), *args]
        self.port = 0

    def __enter__(self) -> ChatServerProcess:
        self.proc = subprocess.Popen(self.command, stdout=subprocess.PIPE, text=True, **popen_kwargs())
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line.startswith("PORT "):
            self.__exit__(None, None, None)
            raise RuntimeError(f"{self.command[1]} did not start: {line!r}")
        self.port = int(line.split()[1])
        self.base_url = f"http://127.0.0.1:{self.port}/v1"
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            self.proc.wait(timeout=10)
