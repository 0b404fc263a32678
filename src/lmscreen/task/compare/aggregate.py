"""Companies' series and industries' trends from the documents' points, with every gap left visible.

- A company's value for a period is what its documents print for it: the period's own report (basis
  `actual`) or a later report's comparison column (`prior`); a derived value (毛利率 from 营业收入 and
  营业成本) only where none is printed. Values that disagree (a restatement, two readings) are a
  conflict: no value, both shown, the company left out of the median.
- An industry's cell (industry × metric × period) is the median, mean, min and max of its companies'
  values, with n and the codes; a cell with no company is `missing`, one with one company `n<2`. Nothing
  is interpolated.
- An industry report's industry-scope figure for a cell is `stated`, kept apart from the companies'.
- Forecasts (`2025E`) are cells of their own, marked `forecast`, only when asked for.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field
from typing import Any

from lmscreen.task.compare.metrics import MetricSpec
from lmscreen.task.compare.spans import Span
from lmscreen.task.facts import agree
from lmscreen.task.points import DocPoints, Point


@dataclass
class Placed:
    """A document and whose it is: a company's (code, name, industry) or an industry report's."""

    document: str
    points: DocPoints
    code: str | None = None
    name: str = ""
    industry: str | None = None
    report_industries: tuple[str, ...] = ()
    """An industry report: the known industries its title or name mentions."""


@dataclass(frozen=True)
class Evidence:
    document: str
    point: Point


@dataclass
class SeriesCell:
    code: str
    name: str
    industry: str
    metric: str
    period: str
    value: float | None
    evidence: list[Evidence]
    conflict: bool = False

    def row(self) -> dict[str, Any]:
        first = self.evidence[0]
        return {
            "code": self.code,
            "name": self.name,
            "industry": self.industry,
            "metric": self.metric,
            "period": self.period,
            "value": self.value,
            "status": "conflict" if self.conflict else "ok",
            "values": ";".join(_fmt(e.point.value) for e in self.evidence) if self.conflict else None,
            "basis": first.point.basis,
            "document": " | ".join(dict.fromkeys(e.document for e in self.evidence)),
            "page": first.point.page if not self.conflict else None,
            "evidence": " | ".join(e.point.evidence for e in self.evidence),
        }


@dataclass
class TrendCell:
    industry: str
    metric: str
    period: str
    values: list[tuple[str, float]] = field(default_factory=list)
    conflicts: list[str] = field(default_factory=list)
    stated: float | None = None
    stated_evidence: list[Evidence] = field(default_factory=list)
    stated_conflict: bool = False

    @property
    def n(self) -> int:
        return len(self.values)

    @property
    def median(self) -> float | None:
        return statistics.median(v for _, v in self.values) if self.values else None

    @property
    def forecast(self) -> bool:
        return self.period.endswith("E")

    def flags(self) -> list[str]:
        out = []
        if self.n == 0:
            out.append("missing")
        elif self.n < 2:
            out.append("n<2")
        out.extend(f"conflict:{c}" for c in self.conflicts)
        if self.stated_conflict:
            out.append("stated_conflict")
        if self.forecast:
            out.append("forecast")
        return out

    def row(self) -> dict[str, Any]:
        vals = [v for _, v in self.values]
        ev = self.stated_evidence[0] if self.stated_evidence and not self.stated_conflict else None
        return {
            "industry": self.industry,
            "metric": self.metric,
            "period": self.period,
            "median": _r(self.median),
            "mean": _r(statistics.fmean(vals)) if vals else None,
            "min": min(vals) if vals else None,
            "max": max(vals) if vals else None,
            "n": self.n,
            "codes": ";".join(c for c, _ in self.values) or None,
            "stated": self.stated,
            "stated_document": ev.document if ev else None,
            "stated_page": ev.point.page if ev else None,
            "flags": ";".join(self.flags()) or None,
        }


@dataclass
class Comparison:
    industries: list[str]
    specs: list[MetricSpec]
    periods: list[str]
    series: list[SeriesCell]
    trends: list[TrendCell]

    def cell(self, industry: str, metric: str, period: str) -> TrendCell | None:
        for c in self.trends:
            if (c.industry, c.metric, c.period) == (industry, metric, period):
                return c
        return None


def _r(value: float | None) -> float | None:
    return None if value is None else round(value, 6)


def _fmt(value: float) -> str:
    return f"{value:g}"


def _matches(p: Point, spec: MetricSpec, span: Span, scope: str) -> bool:
    if p.metric != spec.fact_metric or p.scope != scope or not span.wants(p.period):
        return False
    if spec.growth:
        return p.basis == "growth"
    forecast = p.period is not None and p.period.endswith("E")
    return p.basis == "forecast" if forecast else p.basis in ("actual", "prior")


def _best(points: list[Point]) -> list[Point]:
    """A document's best-ranked printed readings of one figure (a derived one only without them)."""
    printed = [p for p in points if p.source != "derived"] or points
    best = min((p.rank, p.tier) for p in printed)
    return sorted((p for p in printed if (p.rank, p.tier) == best), key=lambda p: p.start)


def _settle(evidence: list[Evidence]) -> tuple[float | None, list[Evidence], bool]:
    """One value when every reading agrees (the period's own report first), else the conflict."""
    evidence = sorted(evidence, key=lambda e: (e.point.basis != "actual", e.document, e.point.start))
    distinct: list[Evidence] = []
    for e in evidence:
        if not any(agree(e.point.value, d.point.value) for d in distinct):
            distinct.append(e)
    if len(distinct) == 1:
        return distinct[0].point.value, evidence, False
    return None, distinct, True


def compare(placed: list[Placed], industries: list[str], specs: list[MetricSpec], span: Span) -> Comparison:
    """Every company's series and the trends of each industry a document is about (`industries`: all the
    known ones, in order, for telling which one a report's figure is for)."""
    series: list[SeriesCell] = []
    found: set[str] = set()
    companies: dict[str, list[Placed]] = {}
    for doc in placed:
        if doc.code is not None and doc.industry is not None:
            companies.setdefault(doc.code, []).append(doc)
    for code in sorted(companies):
        docs = companies[code]
        for spec in specs:
            by_period: dict[str, list[Evidence]] = {}
            for doc in docs:
                mine: dict[str, list[Point]] = {}
                for p in doc.points.points:
                    if _matches(p, spec, span, "company") and p.period is not None:
                        mine.setdefault(p.period, []).append(p)
                for period, pts in mine.items():
                    by_period.setdefault(period, []).extend(Evidence(doc.document, p) for p in _best(pts))
            for period, evs in sorted(by_period.items()):
                value, kept, conflict = _settle(evs)
                found.add(period)
                series.append(
                    SeriesCell(
                        code, docs[0].name, docs[0].industry or "", spec.name, period, value, kept, conflict
                    )
                )
    stated: dict[tuple[str, str, str], list[Evidence]] = {}
    for doc in placed:
        if doc.code is not None:
            continue
        for spec in specs:
            for p in doc.points.points:
                if not _matches(p, spec, span, "industry") or p.period is None:
                    continue
                industry = _industry_of(p, doc, industries)
                if industry is not None:
                    found.add(p.period)
                    stated.setdefault((industry, spec.name, p.period), []).append(Evidence(doc.document, p))
    periods = span.labels(found)
    about = {doc.industry for doc in placed if doc.industry} | {key[0] for key in stated}
    compared = [i for i in industries if i in about]
    trends: list[TrendCell] = []
    for industry in compared:
        for spec in specs:
            for period in periods:
                cell = TrendCell(industry, spec.name, period)
                for s in series:
                    if (s.industry, s.metric, s.period) != (industry, spec.name, period):
                        continue
                    if s.conflict:
                        cell.conflicts.append(s.code)
                    elif s.value is not None:
                        cell.values.append((s.code, s.value))
                evs = stated.get((industry, spec.name, period))
                if evs:
                    value, kept, conflict = _settle(evs)
                    cell.stated, cell.stated_evidence, cell.stated_conflict = value, kept, conflict
                trends.append(cell)
    return Comparison(compared, specs, periods, series, trends)


def _industry_of(p: Point, doc: Placed, industries: list[str]) -> str | None:
    """The industry an industry-scope figure is for: the one its own words name (`光伏行业…`), else the
    one its report is about (its title or file name names exactly one)."""
    if p.segment:
        named = [i for i in industries if i in p.segment]
        if len(named) == 1:
            return named[0]
    if len(doc.report_industries) == 1:
        return doc.report_industries[0]
    return None
