"""A scripted OpenAI-compatible server for `brief`'s tests, in its own process on a free loopback port.

It answers each chat completion with the script planted for the company the user message names
(`公司：NAME（CODE）`, or `Company: NAME (CODE)` when English is asked for), as the JSON `{"text": …}`
the brief task asks for, and with a faithful copy of the template's points for any company it has no
plant for. `hold_after`: once that many completions were answered, every later one waits forever (a
stuck server), so a test can kill the client mid-run at a point it chose, without timing.

    python tests/brief_server.py PLANTS.json [HOLD_AFTER]
"""

from __future__ import annotations

import asyncio
import json
import re
import sys
from pathlib import Path

from chat_server import ChatServerProcess, serve

SERVED_MODEL = "brief-model"


def _faithful(user: str) -> str:
    """The points as given (numbers copied), with the disclaimer: what a careful model writes."""
    marker = "要点：\n" if "要点：\n" in user else "Points:\n"
    return user.split(marker, 1)[1].strip()


def _answerer(plants: dict[str, str], hold_after: int | None):
    answered = 0

    async def answer(request: dict) -> str:
        nonlocal answered
        if hold_after is not None and answered >= hold_after:
            await asyncio.Event().wait()  # stuck for good
        user = request["messages"][-1]["content"]
        name = re.search(r"公司：(.*?)（", user) or re.search(r"Company: (.*?) \(", user)
        text = plants.get(name.group(1) if name else "") or _faithful(user)
        answered += 1
        return json.dumps({"text": text}, ensure_ascii=False)

    return answer


class BriefServer(ChatServerProcess):
    """The scripted server as a context manager: `base_url` while inside."""

    def __init__(self, plants_file: Path, hold_after: int | None = None) -> None:
        extra = [] if hold_after is None else [str(hold_after)]
        super().__init__(Path(__file__).resolve(), str(plants_file), *extra)


if __name__ == "__main__":
    plants = json.loads(Path(sys.argv[1]).read_text(encoding="utf-8"))
    serve(_answerer(plants, int(sys.argv[2]) if len(sys.argv) > 2 else None), SERVED_MODEL, usage=(100, 50))
