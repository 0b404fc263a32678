"""A scripted OpenAI-compatible server for `brief`'s tests, in its own process on a free loopback port.

It answers each chat completion with the script planted for the company the user message names
(`公司：NAME（CODE）`), as the JSON `{"text": …}` the brief task asks for, and with a faithful copy of the
template's points for any company it has no plant for. `hold_after`: once that many completions were
answered, every later one waits forever (a stuck server), so a test can kill the client mid-run at a point
it chose, without timing.

    python tests/brief_server.py PLANTS.json [HOLD_AFTER]
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path
from types import TracebackType

SERVED_MODEL = "brief-model"


def _faithful(user: str) -> str:
    """The points as given (numbers copied), with the disclaimer: what a careful model writes."""
    points = user.split("要点：\n", 1)[1]
    return points.strip()


async def _main(plants: dict[str, str], hold_after: int | None) -> None:
    answered = 0

    async def connection(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        nonlocal answered
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
                    if hold_after is not None and answered >= hold_after:
                        await asyncio.Event().wait()  # stuck for good
                    request = json.loads(body or b"{}")
                    user = request["messages"][-1]["content"]
                    name = re.search(r"公司：(.*?)（", user)
                    text = plants.get(name.group(1) if name else "") or _faithful(user)
                    answered += 1
                    content = json.dumps({"text": text}, ensure_ascii=False)
                    payload = {
                        "id": "brief",
                        "object": "chat.completion",
                        "model": SERVED_MODEL,
                        "choices": [
                            {
                                "index": 0,
                                "finish_reason": "stop",
                                "message": {"role": "assistant", "content": content},
                            }
                        ],
                        "usage": {"prompt_tokens": 100, "completion_tokens": 50, "total_tokens": 150},
                    }
                    status, out = "200 OK", json.dumps(payload, ensure_ascii=False).encode()
                elif method == "GET" and path.endswith("/models"):
                    status = "200 OK"
                    out = json.dumps(
                        {"object": "list", "data": [{"id": SERVED_MODEL, "object": "model"}]}
                    ).encode()
                else:
                    status, out = "404 Not Found", b'{"error": {"message": "not found"}}'
                head = f"HTTP/1.1 {status}\r\ncontent-type: application/json\r\ncontent-length: {len(out)}"
                writer.write(f"{head}\r\n\r\n".encode() + out)
                await writer.drain()
        finally:
            writer.close()

    server = await asyncio.start_server(connection, "127.0.0.1", 0)
    print(f"PORT {server.sockets[0].getsockname()[1]}", flush=True)
    async with server:
        await server.serve_forever()


class BriefServer:
    """The scripted server as a context manager: `base_url` while inside."""

    def __init__(self, plants_file: Path, hold_after: int | None = None) -> None:
        self.plants_file, self.hold_after = plants_file, hold_after

    def __enter__(self) -> BriefServer:
        args = [sys.executable, str(Path(__file__).resolve()), str(self.plants_file)]
        if self.hold_after is not None:
            args.append(str(self.hold_after))
        self.proc = subprocess.Popen(args, stdout=subprocess.PIPE, text=True, start_new_session=True)
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line.startswith("PORT "):
            self.__exit__(None, None, None)
            raise RuntimeError(f"brief server did not start: {line!r}")
        self.base_url = f"http://127.0.0.1:{int(line.split()[1])}/v1"
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            self.proc.wait(timeout=10)


if __name__ == "__main__":
    plants = json.loads(Path(sys.argv[1]).read_text(encoding="utf-8"))
    asyncio.run(_main(plants, int(sys.argv[2]) if len(sys.argv) > 2 else None))
