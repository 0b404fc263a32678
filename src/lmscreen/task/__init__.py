"""The LLM task: what the model is asked, what it may answer, and what of its answer is believed.

The runner needs five calls: `fit_text` and `build_messages` to make a request, `row_schema` to constrain
it, `prompt_hash` for the checkpoint signature, and `process_completion` to turn the raw answer into the
row's result columns. `process_completion` parses (schema), grounds (every number must be printed in the
report with a compatible unit) and cross-checks (ROE / PE against the pool file) in that order; nothing the
model writes reaches the results without passing all three.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from lmscreen.task.crosscheck import crosscheck, mismatches
from lmscreen.task.grounding import GroundedExtraction, GroundedField, ground
from lmscreen.task.prompt import SYSTEM_PROMPT, build_messages, clean_report_text, prompt_hash
from lmscreen.task.schema import FIGURES, REASON_MAX_CHARS, Extraction, Figure, parse_completion, row_schema
from lmscreen.task.truncate import TruncationInfo, fit_text

__all__ = [
    "COLUMN_FOR_FIELD",
    "SYSTEM_PROMPT",
    "Extraction",
    "Figure",
    "GroundedExtraction",
    "GroundedField",
    "RowOutcome",
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


def _longest_common_run(a: str, b: str) -> int:
    """Length of the longest substring `a` and `b` share (a is short: a reason of <= 30 characters)."""
    best = 0
    for i in range(len(a)):
        for j in range(i + best + 1, len(a) + 1):
            if a[i:j] in b:
                best = j - i
            else:
                break
    return best


def echoes_instructions(reason: str) -> bool:
    """True when the reason copies the instructions instead of summarising the report.

    A weak model often answers with a line of its own prompt ("用一句话概括这家公司的经营情况…"); shown as the
    reason it would look like a finding. A copied run of 10+ characters, or of most of a short reason, is
    the prompt, not a summary (generic words such as 营业收入 are far shorter than that).
    """
    text = "".join(reason.split())
    return _longest_common_run(text, _INSTRUCTIONS) >= 8


@dataclass(frozen=True)
class RowOutcome:
    """What one row's answer contributes to results.csv (`columns`, `flags`, `status`) and results.jsonl
    (`detail`)."""

    status: str
    """`ok`, or `llm_error: …` saying why the answer was unusable."""
    reason: str | None
    flags: list[str] = field(default_factory=list)
    revenue_yuan: float | None = None
    net_profit_yuan: float | None = None
    gross_margin_pct: float | None = None
    roe_extracted_pct: float | None = None
    pe_extracted: float | None = None
    detail: dict[str, Any] = field(default_factory=dict)
    """JSON-able: per field value, unit, period, value_base, grounded, verdict, evidence {text, start, end,
    context}; the cross-check mismatches; the sanitised reason; or the parse error."""

    @property
    def columns(self) -> dict[str, Any]:
        """results.csv columns this outcome fills (flags and status are separate)."""
        cols: dict[str, Any] = {col: getattr(self, col) for col in COLUMN_FOR_FIELD.values()}
        cols["reason"] = self.reason
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
    if echoes_instructions(reason):
        flags.append("reason_echoes_prompt")
        reason = ""
    values = {COLUMN_FOR_FIELD[name]: grounded.base_value(name) for name in FIGURES}
    detail = {
        "fields": {name: grounded.fields[name].to_json() for name in FIGURES},
        "crosscheck": [m.to_json() for m in found],
        "reason": reason,
    }
    return RowOutcome(status="ok", reason=reason, flags=flags, detail=detail, **values)
