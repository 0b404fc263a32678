"""A scripted OpenAI-compatible server for `compare`'s tests: answers every chat completion with the
narrative it was given (as the JSON `{"text": …}` the task asks for) and appends one line per call to a
count file, so a test can tell how many model calls a run made.

    python tests/compare_server.py NARRATIVE_FILE COUNT_FILE
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from chat_server import ChatServerProcess, serve

SERVED_MODEL = "compare-model"


class CompareServer(ChatServerProcess):
    def __init__(self, narrative: Path, count: Path) -> None:
        super().__init__(Path(__file__).resolve(), str(narrative), str(count))


if __name__ == "__main__":
    text = Path(sys.argv[1]).read_text(encoding="utf-8")
    count = Path(sys.argv[2])

    def answer(request: dict) -> str:
        with count.open("a", encoding="utf-8") as fh:
            fh.write("call\n")
        return json.dumps({"text": text}, ensure_ascii=False)

    serve(answer, SERVED_MODEL)
