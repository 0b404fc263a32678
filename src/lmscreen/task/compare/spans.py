"""The periods a comparison asks for: `--periods 2021:2024` of `--period-kind FY|H1|Q`, in the shared
vocabulary (lmscreen/periods.py: FY2021, 2021H1, 2021Q3 the quarter alone), forecasts (`2025E`) apart.

Why every period of the range is listed even when no filing states it: a missing period must show as
missing in trends.csv, never be skipped or interpolated over.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from lmscreen.errors import InputError
from lmscreen.periods import Period

KINDS = ("FY", "H1", "Q")
_RANGE_RE = re.compile(r"^\s*(\d{4})\s*(?::\s*(\d{4}))?\s*$")


@dataclass(frozen=True)
class Span:
    first: int | None
    last: int | None
    kind: str
    include_forecasts: bool = False

    def wants(self, label: str | None) -> bool:
        """Whether a fact's period label belongs in the comparison."""
        if label is None or label == "TTM":
            return False
        period = Period.parse(label)
        if period.sub == "E":
            if not self.include_forecasts:
                return False
        elif not _of_kind(period, self.kind):
            return False
        year = period.year or 0
        return (self.first is None or year >= self.first) and (self.last is None or year <= self.last)

    def labels(self, found: set[str]) -> list[str]:
        """Every period of the range (all found ones when no range was given), actuals in time order, then
        forecasts."""
        years = sorted({Period.parse(p).year or 0 for p in found})
        first = self.first if self.first is not None else (years[0] if years else None)
        last = self.last if self.last is not None else (years[-1] if years else None)
        out: list[str] = []
        if first is None or last is None:
            return out
        for year in range(first, last + 1):
            out.extend(_kind_labels(year, self.kind))
        out.extend(sorted(p for p in found if p.endswith("E") and self.wants(p)))
        return out


def _of_kind(period: Period, kind: str) -> bool:
    if kind == "FY":
        return period.is_full_year
    if kind == "H1":
        return period.sub == "H1"
    return period.sub in ("Q1", "Q2", "Q3", "Q4")


def _kind_labels(year: int, kind: str) -> list[str]:
    if kind == "FY":
        return [f"FY{year}"]
    if kind == "H1":
        return [f"{year}H1"]
    return [f"{year}Q{q}" for q in range(1, 5)]


def parse_span(periods: str | None, kind: str, include_forecasts: bool = False) -> Span:
    """`2021:2024` (or one year, or None for every period found) of a kind; InputError otherwise."""
    if kind not in KINDS:
        raise InputError(f"--period-kind: {kind!r} is not one of {', '.join(KINDS)}")
    if periods is None or not periods.strip():
        return Span(None, None, kind, include_forecasts)
    found = _RANGE_RE.match(periods)
    if found is None:
        raise InputError(f"--periods: {periods!r} is not a year range like 2021:2024")
    first = int(found.group(1))
    last = int(found.group(2) or first)
    if last < first:
        raise InputError(f"--periods: {periods!r} ends before it starts")
    return Span(first, last, kind, include_forecasts)
