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
from dataclasses import dataclass, field
from typing import Any, Protocol

from lmscreen.filings import Filing, annotate_pages
from lmscreen.task import choice_prompt_hash, prepare_request, process_choice
from lmscreen.task.candidates import CandidateSet, find_candidates
from lmscreen.task.choice import ChoiceRequest
from lmscreen.task.fact import Fact
from lmscreen.task.points import remember_sheet


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
    """One row's LLM columns (results.csv), its nested detail (results.jsonl `llm`) and its facts
    (facts.jsonl: every figure the filing prints, each with its evidence in the filing's own text)."""

    row: int
    columns: dict[str, Any]
    detail: dict[str, Any]
    facts: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class _InFlight:
    text: str
    cset: CandidateSet


class ScreenTask:
    """`screen`'s question, for the durable runner."""

    name = "screen"

    def __init__(self, *, report_token_budget: int, max_tokens: int, model_picks: bool = True) -> None:
        self.report_token_budget = report_token_budget
        self.max_tokens = max_tokens
        self.model_picks = model_picks
        """Whether the model chooses among the candidates the facts leave open (a served model), or only
        writes the reason (the 135M embedded default: the facts carry the figures on their own)."""
        self._inflight: dict[int, _InFlight] = {}

    def signature(self) -> dict[str, Any]:
        return {
            "prompt": choice_prompt_hash(),
            "budget": self.report_token_budget,
            "max_tokens": self.max_tokens,
            "model_picks": self.model_picks,
        }

    def key(self, item: ScreenItem) -> tuple[int, str, tuple[str, ...]]:
        return item.row, item.code, (item.code, item.name, item.source.digest())

    def size(self, item: ScreenItem) -> int:
        return item.source.size_bytes()

    def request(
        self, item: ScreenItem, count_tokens: Callable[[str], int]
    ) -> tuple[ChoiceRequest, dict[str, Any] | None]:
        text = item.source.read()
        cset = _scan(item, text)
        question, truncation = prepare_request(
            item.code, item.name, text, self.report_token_budget, count_tokens, cset=cset,
            model_picks=self.model_picks,
        )  # fmt: skip
        self._inflight[id(item)] = _InFlight(text, cset)
        return question, ({"truncation": truncation} if truncation else None)

    def result(self, item: ScreenItem, answer: Answer) -> ScreenAnswer:
        kept = self._inflight.pop(id(item), None)
        text = kept.text if kept else item.source.read()
        truncation = (answer.extra or {}).get("truncation")
        engine_error = None if answer.error is None and answer.text is not None else str(answer.error)
        outcome = process_choice(
            answer.text, item.code, text, item.roe, item.pe, item.rules_fired,
            engine_error=engine_error, cset=kept.cset if kept else _scan(item, text), name=item.name,
            model_picks=self.model_picks,
        )  # fmt: skip
        flags = list(outcome.flags) + annotate_pages(item.source, outcome.detail)
        facts = _facts_json(item, text, outcome.facts)
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
        return ScreenAnswer(item.row, columns, detail, facts)


def _scan(item: ScreenItem, text: str) -> CandidateSet:
    """The filing's facts and candidates, with a PDF's pages and the row's name for the subject."""
    pdf = item.source.pdf()
    cset = find_candidates(text, names=(item.name,), page_at=pdf.page_at if pdf is not None else None)
    if item.source.path is not None and cset.sheet is not None:
        remember_sheet(item.source.path, (item.name,), cset.sheet)  # `compare` need not read it again
    return cset


def document_name(item: ScreenItem) -> str:
    """The filing as facts.jsonl names it: its file name, or `inline` for the pool's own cell."""
    return item.source.path.name if item.source.path is not None else "inline"


def _facts_json(item: ScreenItem, text: str, facts: list[Fact]) -> list[dict[str, Any]]:
    """facts.jsonl's lines for a row: each fact with the row's code and document; a long text's offsets
    point into the whole file (the read text is its kept parts)."""
    long = item.source.long()
    out = []
    for fact in facts:
        data = {"code": item.code, "document": document_name(item), **fact.to_json(text)}
        if long is not None:
            ev = data["evidence"]
            start, end = fact.start, fact.end
            ev["start"] = long.original_offset(start)
            ev["end"] = long.original_offset(end - 1) + 1 if end > start else ev["start"]
        out.append(data)
    return out
