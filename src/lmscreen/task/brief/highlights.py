"""What is worth saying about one company, chosen by rules from its facts: `choose(sheet, ...) -> Highlights`.

Why rules and not a model: the presenter's numbers must be the document's, and which ones matter (growth
of revenue and 归母净利润, a margin's change in points, a swing to loss, 扣非 far from 归母, the screening
verdict) is a short, fixed list a person would check anyway. Every number carried here is a `Num`: the
value, its printed unit, its period and either the fact's evidence span or the derivation (inputs and
operation) that computed it, so the script's numbers can be traced and a model's checked. A company
with no filing gets its highlights from the pool's own fields (task/brief/pool_fields.py): there each
`Num` names the pool cell it is (file, row, column as the rules see it) instead of a span.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from lmscreen.task.fact import Fact
from lmscreen.task.facts import FactSheet, agree
from lmscreen.task.period_text import label as period_label


@dataclass(frozen=True)
class PoolField:
    """The pool cell a number is: the file, the row as the file numbers it, the column as the rules see it
    (`pe_ttm`, `roe`, `net_profit_2024`) and the header it was read from (`市盈率(TTM)`)."""

    file: str
    row: int
    column: str
    header: str | None
    value: float
    """The cell's value in base units; for `part="header"`, the year the header names."""
    part: str = "value"
    """`value` (the cell), or `header` (a year in the column's name: 净利润_2024)."""

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "file": self.file,
            "row": self.row,
            "column": self.column,
            "header": self.header,
            "value": self.value,
        }
        if self.part != "value":
            data["part"] = self.part
        return data


_FORMULAS = {
    "growth": "(current - prior) / abs(prior) * 100",
    "difference": "current - prior",
    "margin": "(revenue - operating_cost) / revenue * 100",
}


@dataclass(frozen=True)
class Num:
    """One number a script may say."""

    value: float
    """Base units: yuan, percent, percentage points, yuan per share, a year."""
    unit: str
    """How the script prints it: 亿元, 万元, %, 个百分点, 元, 年."""
    period: str | None
    metric: str
    fact: Fact | None = None
    """The fact it is (evidence), or None for a derived figure."""
    op: str | None = None
    """A derived figure's operation: `growth` ((current - prior) / |prior| * 100), `difference` (points)."""
    inputs: tuple[Fact, ...] = ()
    evidence: tuple[int, int] | None = None
    """A span of the filing that is not a fact (the period's year as printed)."""
    decimals: int = 2
    """Digits after the point a percent is said with: as the filing printed it (10.9%, not 10.90%)."""
    pool: PoolField | None = None
    """The pool cell it is, for a company with no filing."""
    pool_inputs: tuple[PoolField, ...] = ()
    """A figure derived from pool cells (a growth from two years' 净利润): its inputs."""

    def display(self) -> str:
        """The number as a presenter reads it (unsigned: the words around it carry the sign)."""
        v = abs(self.value)
        if self.unit == "亿元":
            return f"{v / 1e8:.2f}亿元"
        if self.unit == "万元":
            return f"{v / 1e4:.2f}万元"
        if self.unit == "年":
            return f"{int(v)}年"
        if self.unit == "元":
            return f"{v:.2f}元"
        return f"{v:.{self.decimals}f}{self.unit}"

    def to_json(self, text: str, page_at: Any = None) -> dict[str, Any]:
        data: dict[str, Any] = {
            "value": self.value,
            "unit": self.unit,
            "period": self.period,
            "metric": self.metric,
        }
        derived = self.fact is not None and self.fact.source == "derived" and bool(self.fact.inputs)
        if self.pool is not None:
            data["pool"] = self.pool.to_json()
        elif self.pool_inputs:
            data["derivation"] = {
                "op": self.op,
                "formula": _FORMULAS[self.op or ""],
                "inputs": [
                    {"metric": p.column, "value": p.value, "pool": p.to_json()} for p in self.pool_inputs
                ],
            }
        elif self.fact is not None and not derived:
            f = self.fact
            data["evidence"] = evidence(text, f.start, f.end, f.page)
        elif self.evidence is not None:
            s, e = self.evidence
            data["evidence"] = evidence(text, s, e, page_at(s) if page_at else None)
        else:
            # the reader's own derived fact (a gross margin from 营业收入 and 营业成本), or one derived here
            op, inputs = ("margin", self.fact.inputs) if self.fact is not None else (self.op, self.inputs)
            data["derivation"] = {
                "op": op,
                "formula": _FORMULAS[op or ""],
                "inputs": [
                    {
                        "metric": i.metric,
                        "period": i.period_label,
                        "basis": i.basis,
                        "value": i.value,
                        "evidence": evidence(text, i.start, i.end, i.page),
                    }
                    for i in inputs
                ],
            }
        return data


CONTEXT = 30
"""Characters of the filing shown either side of an evidence span: the sentence a reader checks it in."""


def evidence(text: str, start: int, end: int, page: int | None) -> dict[str, Any]:
    """A span of the filing as briefs.jsonl lists it: offsets, the printed text, its page, and the words
    around it (`context`, one line), so a reader sees what the figure is without opening the filing."""
    before = text[max(0, start - CONTEXT) : start].rsplit("\n", 1)[-1]
    after = text[end : end + CONTEXT].split("\n", 1)[0]
    return {
        "start": start,
        "end": end,
        "text": text[start:end],
        "page": page,
        "context": {"before": " ".join(before.split()), "after": " ".join(after.split())},
    }


def amount(value: float, metric: str, period: str | None, fact: Fact | None = None, **kw: Any) -> Num:
    """A money figure in 亿元 when it is at least one 亿, else 万元."""
    return Num(value, "亿元" if abs(value) >= 1e8 else "万元", period, metric, fact, **kw)


@dataclass
class Highlight:
    """One thing to say: its kind (for the template's wording) and its numbers, by role."""

    kind: str
    """revenue, net_profit, deducted, gross_margin, net_margin, roe."""
    nums: dict[str, Num]
    """`value` (the figure), `growth` (a rate, printed or derived), `change` (points), `prior` …"""
    notes: dict[str, Any] = field(default_factory=dict)
    """Words without numbers: `swing` (to_loss / to_profit), `gap` (扣非 far from 归母), `main_business`
    (the margin the filing states is the main business's, 主营业务毛利率)."""


@dataclass
class Highlights:
    """Everything the script may say about one company."""

    name: str
    period: str | None
    """The main period's label (FY2024)."""
    year: Num | None
    sub: str | None
    """FY, H1, Q1, Q3 … (for 全年 / 上半年 / 一季度)."""
    items: list[Highlight]
    risk_level: str | None
    rules_fired: list[str]
    """Rule ids that fired, in the rules' order."""
    basis: str = "filing"
    """`filing` (the document's facts) or `pool` (the pool row's own fields: no filing was found)."""

    def numbers(self) -> list[Num]:
        out = [self.year] if self.year is not None else []
        return out + [n for h in self.items for n in h.nums.values()]


def _company(sheet: FactSheet, metric: str, basis: str) -> list[Fact]:
    """Company facts of one metric and basis, best label and place first."""
    facts = [f for f in sheet.facts if f.metric == metric and f.scope == "company" and f.basis == basis]
    return sorted(facts, key=lambda f: (f.rank, f.tier, f.start))


def _current(sheet: FactSheet, metric: str) -> Fact | None:
    screened = sheet.screening().get(metric)
    if screened is not None:
        return screened.fact
    facts = [f for f in _company(sheet, metric, "actual") if sheet.main(f)]
    return facts[0] if facts else None


def _printed(sheet: FactSheet, fact: Fact) -> int:
    """Digits after the point as the fact is printed (two for a figure the reader derived)."""
    if fact.source == "derived":
        return 2
    shown = sheet.text[fact.start : fact.end]
    digits = "".join(c for c in shown.partition(".")[2] if c.isdigit())
    return len(digits) if "." in shown else 0


def _in_main(sheet: FactSheet, fact: Fact) -> bool:
    """Whether a fact is of the document's main period (its year and sub-period)."""
    if sheet.period is None:
        return fact.period is None or fact.period.sub != "E"
    p = fact.period
    return p is not None and p.sub == sheet.period.sub and (p.year is None or p.year == sheet.period.year)


def _growth(sheet: FactSheet, metric: str) -> Fact | None:
    facts = [f for f in _company(sheet, metric, "growth") if _in_main(sheet, f)]
    return facts[0] if facts else None


def _prior(sheet: FactSheet, metric: str, current: Fact) -> Fact | None:
    """The comparison period's figure: printed as `prior`, or an actual of the year before. Not one the
    reader derived (a prior year's margin from that column's revenue and cost): a change of two derived
    margins would be a derivation of derivations, which the script's numbers do not trace."""
    facts = [f for f in _company(sheet, metric, "prior") if f.source != "derived"]
    if not facts and current.period is not None and current.period.year is not None:
        facts = [
            f
            for f in _company(sheet, metric, "actual")
            if f.period is not None
            and f.period.year == current.period.year - 1
            and f.period.sub == current.period.sub
        ]
    return facts[0] if facts else None


def choose(
    sheet: FactSheet,
    name: str,
    *,
    risk_level: str | None = None,
    rules_fired: list[str] | None = None,
    pool_prior_profit: float | None = None,
) -> Highlights:
    """The highlights of one company's filing, by fixed rules (see the module docstring).

    `pool_prior_profit`: the pool's own prior-year 净利润, for a swing to loss or back to profit the
    document does not state (only words come from it, never a number).
    """
    period = period_label(sheet.period)
    main_label = None
    items: list[Highlight] = []
    for metric, kind in (("revenue", "revenue"), ("net_profit", "net_profit")):
        cur = _current(sheet, metric)
        if cur is None:
            continue
        main_label = main_label or cur.period_label
        nums = {"value": amount(cur.value, metric, cur.period_label, cur)}
        notes: dict[str, Any] = {}
        growth = _growth(sheet, metric)
        prior = _prior(sheet, metric, cur)
        if growth is not None:
            nums["growth"] = Num(
                growth.value, "%", growth.period_label, metric, growth, decimals=_printed(sheet, growth)
            )
        elif prior is not None and prior.value != 0 and (cur.value > 0) == (prior.value > 0):
            rate = (cur.value - prior.value) / abs(prior.value) * 100
            nums["growth"] = Num(rate, "%", cur.period_label, metric, op="growth", inputs=(cur, prior))
        before = prior.value if prior is not None else pool_prior_profit if metric == "net_profit" else None
        if metric == "net_profit" and before is not None:
            if cur.value < 0 < before:
                notes["swing"] = "to_loss"
            elif before < 0 < cur.value:
                notes["swing"] = "to_profit"
            elif before < 0 and cur.value < 0:
                notes["swing"] = "still_loss"
        items.append(Highlight(kind, nums, notes))
    profit = _current(sheet, "net_profit")
    deducted = _current(sheet, "net_profit_deducted")
    if profit is not None and deducted is not None and not agree(profit.value, deducted.value):
        gap = abs(profit.value - deducted.value) / max(abs(profit.value), 1.0)
        if gap >= 0.2 or (profit.value > 0) != (deducted.value > 0):
            items.append(
                Highlight(
                    "deducted",
                    {"value": amount(deducted.value, "net_profit_deducted", deducted.period_label, deducted)},
                    {"higher": deducted.value > profit.value},
                )
            )
    for metric in ("gross_margin", "net_margin", "roe"):
        cur = _current(sheet, metric)
        if cur is None:
            continue
        nums = {"value": Num(cur.value, "%", cur.period_label, metric, cur, decimals=_printed(sheet, cur))}
        prior = _prior(sheet, metric, cur)
        if prior is not None and not agree(prior.value, cur.value):
            nums["change"] = Num(
                cur.value - prior.value,
                "个百分点",
                cur.period_label,
                metric,
                op="difference",
                inputs=(cur, prior),
            )
        # `主营业务毛利率` is the main business's margin: said by its own name, not as the company's 毛利率
        notes = {"main_business": True} if metric == "gross_margin" and cur.segment == "主营业务" else {}
        items.append(Highlight(metric, nums, notes))
    year = None
    if sheet.period is not None and sheet.period.year is not None:
        at = sheet.text.find(str(sheet.period.year))
        if at >= 0:
            year = Num(float(sheet.period.year), "年", main_label, "period", evidence=(at, at + 4))
    return Highlights(
        name=name,
        period=main_label or period,
        year=year,
        sub=sheet.period.sub if sheet.period is not None else None,
        items=items,
        risk_level=risk_level,
        rules_fired=list(rules_fired or []),
    )
