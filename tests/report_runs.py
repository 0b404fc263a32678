"""Finished runs for the report tests, made by the real runner with answers given in advance.

The report is what these tests check, so the run itself must be real (pool loading, rules, grounding,
cross-check, writers, history) but its LLM answers must be known in advance: a hostile reason or a
grounded figure cannot be waited for from a 135M model. `ScriptedEngine` is an engine (the one protocol)
that answers each row with the JSON given for its code; every answer still goes through the real schema
check, grounding against the report text and the checkpoint, exactly as a model's would.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from lmscreen.engines.protocol import LLMRequest, LLMResult
from lmscreen.run.options import ScreenOptions
from lmscreen.run.runner import RunSummary, screen

FIGURES = ("revenue", "net_profit", "gross_margin", "roe", "pe_ttm")


def answer(code: str, reason: str = "经营稳健", **figures: tuple[str, str, str | None]) -> str:
    """A schema-valid answer: figures as (value, unit, period); the rest null."""
    data: dict[str, Any] = {"code": code}
    for name in FIGURES:
        fig = figures.get(name)
        data[name] = None if fig is None else {"value": fig[0], "unit": fig[1], "period": fig[2]}
    data["reason"] = reason
    return json.dumps(data, ensure_ascii=False)


class ScriptedEngine:
    name = "scripted"
    model = "scripted-answers"

    def __init__(self, answers: dict[str, str]) -> None:
        self.answers = answers

    def count_tokens(self, text: str) -> int:
        return len(text)

    def run(self, requests: Iterable[LLMRequest]) -> Iterator[LLMResult]:
        for req in requests:
            code = req.schema["properties"]["code"]["const"]
            text = self.answers.get(code) or answer(code, "无可用数据")
            yield LLMResult(
                key=req.key, text=text, finish_reason="stop", prompt_tokens=100, completion_tokens=40
            )

    def describe(self) -> dict[str, Any]:
        return {"engine": self.name, "model": self.model}

    def close(self) -> None:
        pass


def scripted_run(
    pool: Path, out: Path, answers: dict[str, str], reports: Path | None = None, lang: str = "zh"
) -> RunSummary:
    opts = ScreenOptions(pool=pool, out=out, reports=reports, progress=False, lang=lang, engine="scripted")
    return screen(opts, engine=ScriptedEngine(answers))


EXAMPLE_ANSWERS = {
    "600519.SH": answer(
        "600519.SH",
        "高端白酒龙头，盈利能力强",
        revenue=("1741.44", "亿元", "FY2024"),
        net_profit=("862.28", "亿元", "FY2024"),
        gross_margin=("91.93", "%", "FY2024"),
        roe=("36.02", "%", "FY2024"),
    ),
}
