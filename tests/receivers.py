"""Real notification receivers on 127.0.0.1 for the delivery tests: an HTTP webhook (apprise's `json://`)
that can answer 500 a given number of times first, or never answer; and an SMTP server (aiosmtpd)."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from servers import free_port


@dataclass
class Webhook:
    port: int
    fail_first: int = 0
    hang: bool = False
    received: list[dict[str, Any]] = field(default_factory=list)
    answers: list[int] = field(default_factory=list)
    paths: list[str] = field(default_factory=list)
    release: threading.Event = field(default_factory=threading.Event)

    def url(self, path: str = "hook", query: str = "") -> str:
        """The apprise URL of this receiver (short timeouts: a receiver that hangs is waited for 1 s)."""
        extra = f"&{query}" if query else ""
        return f"json://127.0.0.1:{self.port}/{path}?rto=1&cto=1{extra}"


@contextmanager
def webhook(fail_first: int = 0, hang: bool = False) -> Iterator[Webhook]:
    state = Webhook(port=0, fail_first=fail_first, hang=hang)

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - http.server's name
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            state.paths.append(self.path)
            if state.hang:
                state.release.wait(30)
                return
            status = 500 if len(state.answers) < state.fail_first else 200
            state.answers.append(status)
            if status == 200:
                state.received.append(json.loads(body))
            self.send_response(status)
            self.send_header("Content-Length", "2")
            self.end_headers()
            self.wfile.write(b"{}")

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    state.port = server.server_address[1]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield state
    finally:
        state.release.set()
        server.shutdown()
        server.server_close()


@dataclass
class Mailbox:
    port: int
    messages: list[bytes] = field(default_factory=list)


@contextmanager
def smtp_server() -> Iterator[Mailbox]:
    from aiosmtpd.controller import Controller

    box = Mailbox(port=0)

    class Handler:
        async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802
            box.messages.append(envelope.content)
            return "250 OK"

    box.port = free_port()
    controller = Controller(Handler(), hostname="127.0.0.1", port=box.port)
    controller.start()
    try:
        yield box
    finally:
        controller.stop()
