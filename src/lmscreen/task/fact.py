"""One figure a filing prints as a fact: metric, period, scope, basis, value, and where it is printed.

Why facts and not five fields: the same note prints the half year and the second quarter alone, this year
and last, the group and a segment, an actual and a forecast. Reading every figure into a fact that says
which of these it is lets `screen` take the ones it needs (the main period, the company, actual) and lets
`compare` and `brief` read the rest, and it makes a disagreement visible instead of a guess.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from lmscreen.task.period_text import label as period_label
from lmscreen.task.periods import Period
from lmscreen.task.units import Mention

SCOPES = ("company", "segment", "industry", "parent")
"""`company` (the listed group), `segment` (a business, product, region or subsidiary), `industry` (a
market or sector), `parent` (the parent company's own statements, 母公司报表)."""
BASES = ("actual", "forecast", "prior", "growth")
"""`actual` (the period's reported figure), `forecast` (an estimate, a target, a guidance), `prior` (the
comparison period's figure printed beside it), `growth` (a change rate, in percent)."""
SOURCES = ("table", "label", "list", "derived", "model")
"""How it was found: a table's row and column, the label right before it, a `分别为` list, computed from
other facts (a gross margin from 营业收入 and 营业成本), or the model's pick among numbered candidates."""

TIER_MAIN_TABLE = 0
TIER_TABLE = 1
TIER_TEXT = 2
TIER_DERIVED = 3
TIER_CONTEXT = 4
"""Tiers rank facts of one metric, period and label strength: the report's own summary table first, then
other tables, then text, then a derived value; `context` readings are candidates for a model only."""


@dataclass(frozen=True)
class Fact:
    metric: str
    """revenue, net_profit, net_profit_deducted, gross_margin, net_margin, roe, roe_deducted, eps, pe_ttm,
    pe_dynamic, pe_static, pe_forward, operating_cash_flow (operating_cost only as a derivation's input)."""
    period: Period | None
    scope: str
    basis: str
    value: float
    """In base units: yuan, percent (a growth rate too), times, yuan per share."""
    unit: str
    """The unit as printed (`亿元`, `万元`, `元`, `%`, `倍`, `元/股`), or the one the table or list gave."""
    start: int
    """Evidence span in the text: [start, end) of the printed number."""
    end: int
    source: str
    label: str
    """The label as printed (`归母净利润`, a table row's label cell)."""
    rank: int = 0
    """Label strength, 0 best."""
    tier: int = TIER_TEXT
    segment: str | None = None
    """The segment, market or business named, for a scope other than `company`."""
    approx: bool = False
    """Printed as an approximation (`约831.42亿元`, `750亿元左右`)."""
    page: int | None = None
    inputs: tuple[Fact, ...] = ()
    """The facts a derived fact was computed from."""
    mention: Mention | None = field(default=None, compare=False, repr=False)

    @property
    def period_label(self) -> str | None:
        if self.period is not None and self.period.sub == "TTM":
            return "TTM"
        return period_label(self.period)

    def to_json(self, text: str | None = None) -> dict[str, Any]:
        """The fact as facts.jsonl writes it (`text`: the document, for the evidence's characters)."""
        data: dict[str, Any] = {
            "metric": self.metric,
            "period": self.period_label,
            "scope": self.scope,
            "segment": self.segment,
            "basis": self.basis,
            "value": self.value,
            "unit": self.unit,
            "label": self.label,
            "source": self.source,
            "approx": self.approx,
            "evidence": {
                "start": self.start,
                "end": self.end,
                "text": text[self.start : self.end] if text is not None else None,
                "page": self.page,
            },
        }
        if self.inputs:
            data["derivation"] = {
                "formula": "(revenue - operating_cost) / revenue * 100",
                "inputs": [
                    {
                        "metric": f.metric,
                        "value": f.value,
                        "start": f.start,
                        "end": f.end,
                        "page": f.page,
                    }
                    for f in self.inputs
                ],
            }
        return data
