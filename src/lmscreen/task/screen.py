"""The screening task on the durable runner: one item per pool row with a filing, one choice question each.

The runner (run/runner.py) asks `key`, `request` and `result` of it; everything screening-specific lives
here: the key parts (code, name, the filing's digest), the question (candidates numbered in the fitted
text: task/__init__.py `prepare_request`) and what an answer means for the row (labels first, the model's
ids, grounding, cross-check, the checked reason: `process_choice`), with each figure's page for a PDF.

Why `request` leaves state behind for `result`: the candidate scan and the filing's text are needed by both
the question and the answer's reading; the runner derives a sent item's result right after its answer is
committed, so the state lives only while the item is in flight and each text is read and scanned once.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from lmscreen.filings import Filing, annotate_pages
from lmscreen.task import choice_prompt_hash, prepare_request, process_choice
from lmscreen.task.candidates import CandidateSet, find_candidates
from lmscreen.task.choice import ChoiceRequest


class Answer(Protocol):
    """A stored answer as the runner hands it over (engines/protocol.py LLMResult): the task reads it and
    never imports an engine."""

    text: str | None
    error: str | None
    finish_reason: str | None
    prompt_tokens: int
    completion_tokens: int
    extra: dict[str, Any]


@dataclass
class ScreenItem:
    """A pool row that has a filing, with the pool fields the answer's checks need."""

    row: int
    code: str
    name: str
    roe: float | None
    pe: float | None
    source: Filing
    """The row's filing: inline text, .txt/.md or PDF."""
    rules_fired: str | None = None


@dataclass(frozen=True)
class ScreenAnswer:
    """One row's LLM columns (results.csv) and its nested detail (results.jsonl `llm`)."""

    row: int
    columns: dict[str, Any]
    detail: dict[str, Any]


@dataclass
class _InFlight:
    text: str
    cset: CandidateSet


class ScreenTask:
    """`screen`'s question, for the durable runner."""

    name = "screen"

    def __init__(self, *, report_token_budget: int, max_tokens: int) -> None:
        self.report_token_budget = report_token_budget
        self.max_tokens = max_tokens
        self._inflight: dict[int, _InFlight] = {}

    def signature(self) -> dict[str, Any]:
        return {
            "prompt": choice_prompt_hash(),
            "budget": self.report_token_budget,
            "max_tokens": self.max_tokens,
        }

    def key(self, item: ScreenItem) -> tuple[int, str, tuple[str, ...]]:
        return item.row, item.code, (item.code, item.name, item.source.digest())

    def size(self, item: ScreenItem) -> int:
        return item.source.size_bytes()

    def request(
        self, item: ScreenItem, count_tokens: Callable[[str], int]
    ) -> tuple[ChoiceRequest, dict[str, Any] | None]:
        text = item.source.read()
        cset = find_candidates(text)
        question, truncation = prepare_request(
            item.code, item.name, text, self.report_token_budget, count_tokens, cset=cset
        )
        self._inflight[id(item)] = _InFlight(text, cset)
        return question, ({"truncation": truncation} if truncation else None)

    def result(self, item: ScreenItem, answer: Answer) -> ScreenAnswer:
        kept = self._inflight.pop(id(item), None)
        text = kept.text if kept else item.source.read()
        truncation = (answer.extra or {}).get("truncation")
        engine_error = None if answer.error is None and answer.text is not None else str(answer.error)
        outcome = process_choice(
            answer.text, item.code, text, item.roe, item.pe, item.rules_fired,
            engine_error=engine_error, cset=kept.cset if kept else None,
        )  # fmt: skip
        flags = list(outcome.flags) + annotate_pages(item.source, outcome.detail)
        item.source.release()
        if truncation and "truncated" not in flags:
            flags.append("truncated")
        columns = {
            "prompt_tokens": answer.prompt_tokens,
            "completion_tokens": answer.completion_tokens,
            **outcome.columns,
            "flags": ";".join(flags),
            "status": outcome.status,
        }
        detail = {
            **outcome.detail,
            "finish_reason": answer.finish_reason,
            "truncation": truncation,
            "raw": answer.text,
        }
        return ScreenAnswer(item.row, columns, detail)
