"""Check every extracted figure against the report text, and keep only those the text really prints.

Why: a weak model invents numbers, converts units wrongly and copies a growth rate into a profit field
("同比增长18.04%" read as a net profit of 18.04). A figure is grounded only when the text prints a number
that
1. equals it once both are in base units (yuan / percent / times): within 0.5% relative, or equal after
   rounding one to the other's printed precision (then within 5%), with the same sign;
2. carries a unit compatible with the field: money (元/万元/亿元…, beside the number, in a `(万元)` header on
   its line or an earlier `单位：万元`) for revenue and net profit; `%` for gross margin and ROE; `倍`, or a
   bare number, for PE;
3. sits in a clause that names the field (营业收入/营收…, 净利润/亏损…, 毛利率, 净资产收益率/ROE,
   市盈率/PE), with no other field named closer to it, so one figure cannot be passed off as another
   (`毛利率91.9%，净资产收益率36.0%` does not ground a gross margin of 36.0%).
The reported base value is the one the text prints (the evidence), not the model's rewrite of it. Anything
else is dropped and flagged `ungrounded:<field>`, with the reason kept for the audit trail.
"""

from __future__ import annotations

import math
import re
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from lmscreen.task.schema import FIGURES, UNIT_FACTORS, Extraction, Figure
from lmscreen.task.units import Mention, ScannedText, UnitKind, clause_start, fold, scan

Verdict = Literal["grounded", "absent", "not_in_text", "unit_mismatch", "sign_mismatch", "field_not_named"]
"""Why a figure was kept or dropped: `absent` (the model wrote null), `not_in_text` (no such number),
`unit_mismatch` (printed only with an incompatible unit, e.g. `18.04%` for a profit), `sign_mismatch`
(a loss read as a profit), `field_not_named` (printed, but in a clause about another field)."""

RELATIVE_TOLERANCE = 0.005
ROUNDING_CAP = 0.05
"""Rounding to a printed precision may explain at most a 5% difference (`3亿` does not ground 2.6亿)."""
KEYWORD_WINDOW = 80
_ENUMERATION_RE = re.compile("分别|依次|各为")
CONTEXT_CHARS = 24
AFTER_WINDOW = 14


@dataclass(frozen=True)
class FieldSpec:
    name: str
    kind: Literal["money", "percent", "times"]
    base_unit: Literal["yuan", "percent", "times"]
    keywords: re.Pattern[str]


def _keywords(*words: str) -> re.Pattern[str]:
    """Chinese words match anywhere; ASCII words only as whole words (`pe` must not match `type`)."""
    parts = [re.escape(w) if not w.isascii() else rf"(?<![a-z]){re.escape(w)}(?![a-z])" for w in words]
    return re.compile("|".join(parts), re.IGNORECASE)


FIELD_SPECS: dict[str, FieldSpec] = {
    "revenue": FieldSpec(
        "revenue",
        "money",
        "yuan",
        _keywords("收入", "营收", "销售额", "revenue", "revenues", "sales", "turnover"),
    ),
    "net_profit": FieldSpec(
        "net_profit",
        "money",
        "yuan",
        _keywords(
            "利润",
            "净利",
            "归母",
            "归属于",
            "盈利",
            "亏损",
            "净亏",
            "net profit",
            "net income",
            "net loss",
            "profit attributable",
            "应占利润",
        ),
    ),
    "gross_margin": FieldSpec(
        "gross_margin",
        "percent",
        "percent",
        _keywords("毛利率", "毛利", "gross margin", "gross profit margin"),
    ),
    "roe": FieldSpec(
        "roe",
        "percent",
        "percent",
        _keywords(
            "净资产收益率",
            "净资产回报率",
            "权益收益率",
            "权益报酬率",
            "roe",
            "roae",
            "return on equity",
            "return on average equity",
        ),
    ),
    "pe_ttm": FieldSpec("pe_ttm", "times", "times", _keywords("市盈率", "pe", "p/e", "price-to-earnings")),
}


@dataclass(frozen=True)
class Evidence:
    """The span of the original report text that grounds a figure."""

    text: str
    start: int
    end: int
    context: str
    """A few characters either side, for the report (the span itself is `text[start:end]`)."""


@dataclass(frozen=True)
class GroundedField:
    field: str
    value: float | None
    """The value as the model stated it, in its own unit."""
    raw_value: str | None
    unit: str | None
    period: str | None
    value_base: float | None
    """The grounded value in base units (yuan, percent, times), as printed in the text; None if dropped."""
    base_unit: str
    grounded: bool
    verdict: Verdict
    evidence: Evidence | None = None

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data.pop("field")
        return data


@dataclass(frozen=True)
class GroundedExtraction:
    code: str
    reason: str
    fields: dict[str, GroundedField]
    flags: list[str] = field(default_factory=list)
    """`ungrounded:<field>` for each extracted figure that was dropped, in field order."""

    def base_value(self, name: str) -> float | None:
        return self.fields[name].value_base


def _compatible(spec: FieldSpec, kind: UnitKind) -> bool:
    if spec.kind == "times":
        return kind in ("times", "none")
    return kind == spec.kind


def _names_field(spec: FieldSpec, scanned: ScannedText, mention: Mention) -> bool:
    """Whether the clause before the number names this field, and no other field closer to it.

    `毛利率91.9%，净资产收益率36.0%`: 36.0% belongs to ROE, not to the gross margin. An enumeration
    (`营业收入和净利润分别为150.56亿元和20.1亿元`) cannot be split that way, so there any mention of the field
    in the clause will do.
    """
    folded = scanned.folded.text
    pos = mention.folded_start
    lo = clause_start(folded, pos, limit=KEYWORD_WINDOW)
    own_end = _last_keyword_end(spec, folded, lo, pos)
    if own_end < 0:
        return _named_right_after(spec, folded, mention)
    if _ENUMERATION_RE.search(folded, lo, pos):
        return True
    return all(
        _last_keyword_end(other, folded, lo, pos) <= own_end
        for other in FIELD_SPECS.values()
        if other is not spec
    )


def _named_right_after(spec: FieldSpec, folded: str, mention: Mention) -> bool:
    """`13.8x trailing P/E`: an English note may print a ratio before its name; only a PE, only a few
    characters on, with no other field named first."""
    if spec.kind != "times":
        return False
    end = mention.folded_start + len(fold(mention.printed).text)
    after = folded[end : end + AFTER_WINDOW]
    own = spec.keywords.search(after)
    if own is None:
        return False
    return all(other.keywords.search(after, 0, own.start()) is None for other in FIELD_SPECS.values())


def _last_keyword_end(spec: FieldSpec, folded: str, lo: int, hi: int) -> int:
    end = -1
    for m in spec.keywords.finditer(folded, lo, hi):
        end = m.end()
    return end


def _decimals(raw: str) -> int:
    return len(raw.split(".", 1)[1]) if "." in raw else 0


def _close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)


def numbers_agree(figure: Figure, mention: Mention) -> bool:
    """Whether the model's figure and the printed number are the same amount (signs must match)."""
    x = figure.value_in_base
    target = mention.base
    if target == 0 or x == 0:
        return _close(x, target)
    if (x < 0) != (target < 0):
        return False
    rel = abs(x - target) / abs(target)
    if rel <= RELATIVE_TOLERANCE + 1e-12:
        return True
    if rel > ROUNDING_CAP:
        return False
    # the model rounded the text's number to its own precision: 150.56亿 written as 150.6亿
    text_in_model_unit = target / UNIT_FACTORS[figure.unit]
    if _close(round(text_in_model_unit, _decimals(figure.raw_value)), figure.value):
        return True
    # the text printed a rounded number and the model one more precise: `约3.5%` vs 3.46
    model_in_text_unit = x / mention.factor
    return _close(round(model_in_text_unit, mention.decimals), mention.value)


def _evidence(text: str, mention: Mention) -> Evidence:
    lo = max(0, mention.start - CONTEXT_CHARS)
    hi = min(len(text), mention.end + CONTEXT_CHARS)
    context = " ".join(text[lo:hi].split())
    return Evidence(
        text=text[mention.start : mention.end], start=mention.start, end=mention.end, context=context
    )


def _why_not(spec: FieldSpec, figure: Figure, scanned: ScannedText) -> Verdict:
    """The most specific reason no mention grounds the figure (for the audit trail)."""
    flipped = Figure(value=-figure.value, raw_value=figure.raw_value, unit=figure.unit, period=figure.period)
    same_number = [m for m in scanned.mentions if numbers_agree(figure, m)]
    if any(_compatible(spec, m.kind) for m in same_number):
        return "field_not_named"
    if same_number:
        return "unit_mismatch"
    if figure.value != 0 and any(
        _compatible(spec, m.kind) and numbers_agree(flipped, m) for m in scanned.mentions
    ):
        return "sign_mismatch"
    # the bare digits may be printed with another unit (`18.04%` for a net profit of 18.04亿)
    for m in scanned.mentions:
        if _close(m.magnitude, abs(figure.value)) and not _compatible(spec, m.kind):
            return "unit_mismatch"
    return "not_in_text"


def ground_field(spec: FieldSpec, figure: Figure | None, text: str, scanned: ScannedText) -> GroundedField:
    """Ground one figure against the scanned text."""
    if figure is None:
        return GroundedField(spec.name, None, None, None, None, None, spec.base_unit, False, "absent")
    best: Mention | None = None
    best_rel = math.inf
    x = figure.value_in_base
    for m in scanned.mentions:
        if not _compatible(spec, m.kind) or not numbers_agree(figure, m):
            continue
        if not _names_field(spec, scanned, m):
            continue
        rel = abs(x - m.base) / abs(m.base) if m.base else 0.0
        if rel < best_rel:
            best, best_rel = m, rel
    return GroundedField(
        spec.name,
        value=figure.value,
        raw_value=figure.raw_value,
        unit=figure.unit,
        period=figure.period,
        value_base=None if best is None else best.base,
        base_unit=spec.base_unit,
        grounded=best is not None,
        verdict=_why_not(spec, figure, scanned) if best is None else "grounded",
        evidence=None if best is None else _evidence(text, best),
    )


def ground(extraction: Extraction, text: str) -> GroundedExtraction:
    """Ground every figure of `extraction` against the full report `text` (not the truncated one)."""
    scanned = scan(text)
    fields = {
        name: ground_field(FIELD_SPECS[name], extraction.figure(name), text, scanned) for name in FIGURES
    }
    flags = [f"ungrounded:{name}" for name, g in fields.items() if g.verdict not in ("grounded", "absent")]
    return GroundedExtraction(code=extraction.code, reason=extraction.reason, fields=fields, flags=flags)
