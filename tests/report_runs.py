"""Finished runs for the report tests, made by the real runner with answers given in advance.

The report is what these tests check, so the run itself must be real (pool loading, rules, candidate
numbers, grounding, cross-check, reason checks, writers, history) but its LLM answers must be known in
advance: a hostile reason cannot be waited for from a 135M model. `ScriptedEngine` is an engine (the one
protocol); every answer still goes through the real schema check, grounding against the report text and
the checkpoint, exactly as a model's would.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from lmscreen.engines.protocol import LLMRequest, LLMResult
from lmscreen.run.options import ScreenOptions
from lmscreen.run.screen import RunSummary, screen


class ScriptedEngine:
    """Answers the row's question the way a careful model does: for each figure it is asked about, the
    first candidate number the schema offers (the label reader has already settled the plain cases), and
    the reason given for the row's code."""

    name = "scripted"
    model = "scripted-answers"

    def __init__(self, reasons: dict[str, str]) -> None:
        self.reasons = reasons

    def count_tokens(self, text: str) -> int:
        return len(text)

    def run(self, requests: Iterable[LLMRequest]) -> Iterator[LLMResult]:
        for req in requests:
            code = req.messages[-1]["content"].split("\n", 1)[0].split()[1]
            answer: dict[str, Any] = {}
            for name, spec in req.schema["properties"].items():
                if name != "reason":
                    answer[name] = spec["anyOf"][0]["enum"][0]
            answer["reason"] = self.reasons.get(code, "经营稳健，盈利保持增长")
            text = json.dumps(answer, ensure_ascii=False)
            yield LLMResult(
                key=req.key, text=text, finish_reason="stop", prompt_tokens=100, completion_tokens=20
            )

    def identity(self) -> dict[str, Any]:
        return {"engine": self.name, "model": self.model}

    def describe(self) -> dict[str, Any]:
        return self.identity()

    def close(self) -> None:
        pass


def scripted_run(
    pool: Path, out: Path, reasons: dict[str, str], reports: Path | None = None, lang: str = "zh"
) -> RunSummary:
    opts = ScreenOptions(pool=pool, out=out, reports=reports, progress=False, lang=lang, engine="scripted")
    return screen(opts, engine=ScriptedEngine(reasons))


EXAMPLE_REASONS = {"600519.SH": "高端白酒龙头，盈利能力强"}
