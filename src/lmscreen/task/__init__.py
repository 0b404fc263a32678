"""The LLM task: what the model is asked, what it may answer, and what of its answer is believed.

The runner needs three calls: `prepare_request` (candidates, marked and fitted text, messages, the row's
schema), `choice_prompt_hash` for the checkpoint signature, and `process_choice` to turn the raw answer into
the row's result columns. The model is asked to pick, per figure, one of the numbered numbers the text
prints (task/candidates.py, task/choice.py); a deterministic label reader settles what standard labels
and tables state, and wins over the model (task/resolve.py); every figure, however found, is grounded and
ROE / PE cross-checked against the pool file; a reason is shown only if it is a sentence (task/reasons.py).

The free-form question (`build_messages`, `row_schema`, `prompt_hash`, `process_completion`: the model
writes each value, unit and period) is kept for bench/extraction_accuracy.py, which measures both.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from lmscreen.task.candidates import CandidateSet, find_candidates, marked_text
from lmscreen.task.choice import (
    CHOICE_SYSTEM_PROMPT,
    CHOICE_USER_TEMPLATE,
    Choice,
    ChoiceRequest,
    build_choice,
    choice_prompt_hash,
    choice_schema,
    longest_choice_completion,
    open_field_ids,
    parse_choice,
)
from lmscreen.task.crosscheck import crosscheck, mismatches
from lmscreen.task.fact import TIER_TEXT, Fact
from lmscreen.task.facts import FactSheet, read_facts
from lmscreen.task.grounding import GroundedExtraction, GroundedField, ground
from lmscreen.task.period_text import label as period_label
from lmscreen.task.prompt import SYSTEM_PROMPT, build_messages, clean_report_text, prompt_hash
from lmscreen.task.reasons import longest_common_run, reason_problem, rules_summary
from lmscreen.task.resolve import Resolved, resolve
from lmscreen.task.schema import FIGURES, REASON_MAX_CHARS, Extraction, Figure, parse_completion, row_schema
from lmscreen.task.truncate import TruncationInfo, fit_text, head_text

__all__ = [
    "CHOICE_INSTRUCTIONS",
    "CHOICE_SYSTEM_PROMPT",
    "COLUMN_FOR_FIELD",
    "CandidateSet",
    "Choice",
    "ChoiceRequest",
    "Resolved",
    "build_choice",
    "choice_prompt_hash",
    "choice_schema",
    "find_candidates",
    "longest_choice_completion",
    "marked_text",
    "parse_choice",
    "prepare_request",
    "process_choice",
    "reason_problem",
    "resolve",
    "rules_summary",
    "SYSTEM_PROMPT",
    "Extraction",
    "Figure",
    "GroundedExtraction",
    "GroundedField",
    "RowOutcome",
    "Fact",
    "FactSheet",
    "read_facts",
    "TruncationInfo",
    "build_messages",
    "clean_report_text",
    "crosscheck",
    "fit_text",
    "ground",
    "mismatches",
    "parse_completion",
    "process_completion",
    "prompt_hash",
    "row_schema",
    "echoes_instructions",
    "sanitize_reason",
]

COLUMN_FOR_FIELD: dict[str, str] = {
    "revenue": "revenue_yuan",
    "net_profit": "net_profit_yuan",
    "gross_margin": "gross_margin_pct",
    "roe": "roe_extracted_pct",
    "pe_ttm": "pe_extracted",
}
"""results.csv column (base units) for each extracted figure."""

_INSTRUCTIONS = "".join((SYSTEM_PROMPT + build_messages("", "", "")[1]["content"]).split())
"""The fixed instruction text (system prompt + user-message frame), whitespace removed, for echo checks."""

_REASON_CONTROL_RE = re.compile(r"[\x00-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2060-\u2064\ufeff]")
_FORMULA_LEAD = "=+-@\t\r "


def sanitize_reason(text: str | None) -> str:
    """The model's reason made safe to show: one line, no control characters, at most 30 characters.

    It is prose from a model and is shown as such; no number in it is used anywhere. A leading `=`, `+`,
    `-` or `@` is removed so a spreadsheet opening results.csv does not run it as a formula.
    """
    if not text:
        return ""
    cleaned = " ".join(_REASON_CONTROL_RE.sub(" ", text).split())
    return cleaned.lstrip(_FORMULA_LEAD)[:REASON_MAX_CHARS]


def echoes_instructions(reason: str) -> bool:
    """True when the reason copies the instructions instead of summarising the report.

    A weak model often answers with a line of its own prompt ("用一句话概括这家公司的经营情况…"); shown as the
    reason it would look like a finding. A copied run of 10+ characters, or of most of a short reason, is
    the prompt, not a summary (generic words such as 营业收入 are far shorter than that).
    """
    text = "".join(reason.split())
    return longest_common_run(text, _INSTRUCTIONS) >= 8


@dataclass(frozen=True)
class RowOutcome:
    """What one row's answer contributes to results.csv (`columns`, `flags`, `status`) and results.jsonl
    (`detail`)."""

    status: str
    """`ok`, or `llm_error: …` saying why the answer was unusable."""
    reason: str | None
    flags: list[str] = field(default_factory=list)
    reason_source: str | None = None
    """`model` (the model's sentence passed every check) or `rules` (a summary of checked facts)."""
    diagnostics: list[str] = field(default_factory=list)
    """Notes about the model's answer and the reading, not about the stock (`reason_rejected:loop`,
    `llm_disagrees:revenue`, `candidates_capped:roe`): results.jsonl's `diagnostics` column."""
    revenue_yuan: float | None = None
    net_profit_yuan: float | None = None
    gross_margin_pct: float | None = None
    roe_extracted_pct: float | None = None
    pe_extracted: float | None = None
    detail: dict[str, Any] = field(default_factory=dict)
    """JSON-able: per field value, unit, period, value_base, grounded, verdict, evidence {text, start, end,
    context}; the cross-check mismatches; the sanitised reason; or the parse error."""
    facts: list[Fact] = field(default_factory=list)
    """Every fact the filing prints (task/facts.py), and the model's picks as facts of source `model`."""

    @property
    def columns(self) -> dict[str, Any]:
        """results.csv columns this outcome fills (flags and status are separate)."""
        cols: dict[str, Any] = {col: getattr(self, col) for col in COLUMN_FOR_FIELD.values()}
        cols["reason"] = self.reason
        cols["reason_source"] = self.reason_source
        cols["diagnostics"] = ";".join(self.diagnostics) or None
        return cols


def process_completion(
    text: str | None,
    code: str,
    report_text: str,
    provided_roe: float | None,
    provided_pe: float | None,
) -> RowOutcome:
    """Parse → ground → cross-check one row's completion. Never raises on model output.

    `report_text` is the full original text (not the truncated one sent to the model): evidence offsets
    refer to it. `provided_roe` is in percent, `provided_pe` a ratio, as the pool loader normalised them.
    """
    parsed = parse_completion(text, code)
    if isinstance(parsed, str):
        return RowOutcome(status=f"llm_error: {parsed}", reason=None, detail={"error": parsed})
    grounded = ground(parsed, report_text or "")
    found = mismatches(grounded, provided_roe, provided_pe)
    flags = list(grounded.flags) + crosscheck(grounded, provided_roe, provided_pe)
    reason = sanitize_reason(parsed.reason)
    diagnostics: list[str] = []
    if echoes_instructions(reason):
        diagnostics.append("reason_echoes_prompt")
        reason = ""
    values = {COLUMN_FOR_FIELD[name]: grounded.base_value(name) for name in FIGURES}
    detail = {
        "fields": {name: grounded.fields[name].to_json() for name in FIGURES},
        "crosscheck": [m.to_json() for m in found],
        "reason": reason,
    }
    return RowOutcome(
        status="ok", reason=reason, flags=flags, reason_source="model" if reason else None, detail=detail,
        diagnostics=diagnostics, **values,
    )  # fmt: skip


REASON_ONLY_BUDGET = 96
"""Report tokens shown when the model is asked only for the reason (no figure left open): the opening of
the report, about 50 Chinese characters, which is where it says what the company did in the period."""

CHOICE_INSTRUCTIONS = "".join(
    (
        CHOICE_SYSTEM_PROMPT
        + CHOICE_USER_TEMPLATE.format(code="", name="", begin="", text="", end="", ids="")
    ).split()
)


def prepare_request(
    code: str,
    name: str,
    report_text: str,
    budget_tokens: int,
    count_tokens: Callable[[str], int],
    cset: CandidateSet | None = None,
    *,
    model_picks: bool = True,
) -> tuple[ChoiceRequest, TruncationInfo | None]:
    """One row's question: candidates numbered in the text, the text fitted to the budget, the schema.

    Ids whose mark was cut by the fitting are not offered (the row is flagged `truncated` by the caller).
    When the labels leave no figure open, the model is asked only for the reason: it then sees the opening
    of the report within `REASON_ONLY_BUDGET` tokens (enough for one sentence about the company; on CPU
    every prompt token costs about as much to read as an answer token to write). That cut is not reported
    as truncation: every figure was read by the label reader from the whole text. `cset` is the text's
    candidate scan when the caller already has it (the scan is the costliest step of a long text).
    `model_picks=False` (the 135M default model, which cannot pick reliably) asks only for the reason:
    the facts carry every figure on their own.
    """
    cset = cset if cset is not None else find_candidates(report_text, names=(name,))
    open_ids = open_field_ids(cset) if model_picks else {}
    asked = {i for ids in open_ids.values() for i in ids}
    marked = marked_text(report_text, cset, asked)
    if not asked:
        opening = head_text(marked, min(budget_tokens, REASON_ONLY_BUDGET), count_tokens)
        return build_choice(code, name, report_text, cset, opening, ask=model_picks), None
    fitted, truncation = fit_text(marked, budget_tokens, count_tokens)
    return build_choice(code, name, report_text, cset, fitted, ask=model_picks), truncation


def process_choice(
    text: str | None,
    code: str,
    report_text: str,
    provided_roe: float | None,
    provided_pe: float | None,
    rules_fired: str | None = None,
    engine_error: str | None = None,
    cset: CandidateSet | None = None,
    *,
    name: str = "",
    model_picks: bool = True,
) -> RowOutcome:
    """Parse → resolve (facts first, then the model's ids) → ground → cross-check → reason check.

    Never raises on model output. The figures the facts settle are kept even when the model's answer is
    unusable (`engine_error`, or a parse error): they never depended on it. `report_text` is the full
    original text; evidence offsets refer to it. `model_picks` must be what `prepare_request` was given.
    """
    report_text = report_text or ""
    cset = cset if cset is not None else find_candidates(report_text, names=(name,))
    parsed: Choice | str
    if engine_error is not None:
        parsed = engine_error
    else:
        schema = choice_schema(open_field_ids(cset) if model_picks else {}, all_required=False)
        parsed = parse_choice(text, schema)
    choice = parsed if isinstance(parsed, Choice) else None
    resolved = resolve(cset, choice, report_text)
    grounded = GroundedExtraction(
        code=code,
        reason=choice.reason if choice else "",
        fields={name: resolved.fields[name].grounded for name in FIGURES},
        flags=list(resolved.flags),
    )
    found = mismatches(grounded, provided_roe, provided_pe)
    flags = list(resolved.flags) + crosscheck(grounded, provided_roe, provided_pe)
    values = {COLUMN_FOR_FIELD[name]: resolved.base_value(name) for name in FIGURES}
    reason = sanitize_reason(choice.reason) if choice else ""
    problem = reason_problem(reason, report_text, CHOICE_INSTRUCTIONS) if choice else None
    diagnostics = list(resolved.diagnostics)
    if choice is not None and problem is None:
        source = "model"
    else:
        if problem is not None:
            diagnostics.append(f"reason_rejected:{problem}")
        source = "rules"
        reason = rules_summary(provided_roe, provided_pe, rules_fired, {
            "revenue": values["revenue_yuan"],
            "net_profit": values["net_profit_yuan"],
            "gross_margin": values["gross_margin_pct"],
        })  # fmt: skip
    detail: dict[str, Any] = {
        "fields": {name: resolved.fields[name].to_json() for name in FIGURES},
        "crosscheck": [m.to_json() for m in found],
        "reason": reason,
        "reason_source": source,
        "model_reason": choice.reason if choice else None,
        "candidates": {field: cset.field_ids(field) for field in FIGURES},
        "asked": {field: ids for field, ids in open_field_ids(cset).items() if ids} if model_picks else {},
        "document_period": period_label(cset.doc_period),
    }
    if cset.conflicts:
        detail["conflicts"] = {
            field: [{"value": f.value, "unit": f.unit, "label": f.label, "source": f.source, "start": f.start,
                     "end": f.end} for f in disagreeing]
            for field, disagreeing in cset.conflicts.items()
        }  # fmt: skip
    if choice is not None:
        detail["choice"] = choice.ids
        status = "ok"
    else:
        detail["error"] = parsed
        status = f"llm_error: {parsed}"
    facts = list(cset.sheet.facts) if cset.sheet is not None else []
    facts.extend(_model_facts(cset, resolved))
    return RowOutcome(
        status=status, reason=reason, flags=flags, reason_source=source, detail=detail,
        diagnostics=diagnostics, facts=facts, **values,
    )  # fmt: skip


def _model_facts(cset: CandidateSet, resolved: Resolved) -> list[Fact]:
    """The figures the model picked (and grounding kept), as facts of source `model`."""
    out = []
    for name, got in resolved.fields.items():
        if got.source != "model" or not got.grounded.grounded or got.candidate_id is None:
            continue
        cand = cset.candidate(name, got.candidate_id)
        if cand is None or cand.fact is None:
            continue
        out.append(replace(cand.fact, source="model", tier=TIER_TEXT))
    return out
