"""A fixed-answer OpenAI-compatible server: every chat completion is the same row after `--latency` seconds,
any number at once (the client benchmark, timeouts and the runner's safety tests use it).

    python tests/fixed_server.py [--latency S]
"""

from __future__ import annotations

import argparse
import asyncio
from typing import Any

from chat_server import serve

FAKE_MODEL = "fake-model"
ANSWER = '{"code": "000001.SZ", "reason": "ok"}'


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--latency", type=float, default=0.1)
    latency = parser.parse_args().latency

    async def answer(request: dict[str, Any]) -> str:
        await asyncio.sleep(latency)
        return ANSWER

    try:
        serve(answer, FAKE_MODEL, usage=(50, 12), backlog=1024)
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
