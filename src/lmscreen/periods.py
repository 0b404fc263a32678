"""The one spelling of a reporting period, and the A-share disclosure deadlines, for every file lmscreen
reads or writes.

Why one module: the pool's ROE period (run.json `input.roe_period`, results' `roe_period`), the period a
report names for itself (results.jsonl `document_period`) and the period beside every figure used to be
spelled by three pieces of code, and `2024Q3` meant the nine months Q1-Q3 in one file and the third quarter
alone in another. Here a label means one thing everywhere:

- `FY2024`: the full year 2024
- `2024H1`: the first half (cumulative, as half-year reports state it); `2024H2` the second half alone
- `2024Q1-Q3`: the nine months Q1 to Q3, cumulative (what a third-quarter report's year-to-date column holds)
- `2024Q1` ... `2024Q4`: one quarter alone (`2024Q1` is also the cumulative first quarter: they coincide)
- `2025E`: a forecast for the full year 2025
- `TTM`: the trailing twelve months (no calendar year)

The deadlines (Q1 by 30 April, H1 by 31 August, Q1-Q3 by 31 October, the annual report by 30 April of the
next year) are written once, in DISCLOSURES, and answer both questions the pool asks of a date: which
periods' reports are all out by then (`latest_due`, `full_year_due`), and which period a report published
on that day is usually for (`published_period`).

A leaf module: it imports nothing from lmscreen.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

FULL_YEAR = "FY"
NINE_MONTHS = "Q1-Q3"
FORECAST = "E"
TTM = "TTM"
YEAR_ONLY = ""
"""`sub` of a period whose year is known and whose part is not (`2024年…`): read as the full year."""
SOME_QUARTER = "Q"
"""`sub` of `单季度` (one quarter, number not said): it has no label of its own."""
SOME_MONTHS = "M"
"""`sub` of a span of months that is no reporting period (`2022年1至2月`, `1-11月`): no label of its own."""

_LABEL_RE = re.compile(r"^(?:FY(?P<fy>\d{4})|(?P<year>\d{4})(?P<sub>H[12]|Q[1-4]|Q1-Q3|E))$")

_CUMULATIVE_QUARTERS = {"Q1": 1, "H1": 2, NINE_MONTHS: 3, FULL_YEAR: 4, YEAR_ONLY: 4}
"""Quarters from 1 January that a cumulative period spans (the periods a report-period end date names)."""


@dataclass(frozen=True)
class Period:
    """A reporting period: `year` (None when the text does not say it) and `sub`, one of `FY`, `H1`,
    `H2`, `Q1`…`Q4` (a quarter alone), `Q1-Q3` (nine months cumulative), `E` (a full-year forecast),
    `TTM`, `` (only a year known, read as the full year) or `Q` (a quarter whose number is not said)."""

    year: int | None
    sub: str

    def label(self, fallback_year: int | None = None) -> str | None:
        """The label (`FY2024`, `2024H1`, `2024Q1-Q3`, `2024Q3`, `2025E`, `TTM`), or None when no year is
        known or the quarter is not named."""
        if self.sub == TTM:
            return TTM
        year = self.year or fallback_year
        if year is None or self.sub in (SOME_QUARTER, SOME_MONTHS):
            return None
        if self.sub in (YEAR_ONLY, FULL_YEAR):
            return f"{FULL_YEAR}{year}"
        return f"{year}{self.sub}"

    @classmethod
    def parse(cls, label: str) -> Period:
        """The Period a label spells; ValueError (quoting it) for anything that is not a label."""
        text = label.strip()
        if text == TTM:
            return cls(None, TTM)
        found = _LABEL_RE.match(text)
        if found is None:
            raise ValueError(
                f"not a period label: {label!r} (expected FY2024, 2024H1, 2024Q1-Q3, 2024Q3, 2025E or TTM)"
            )
        if found.group("fy"):
            return cls(int(found.group("fy")), FULL_YEAR)
        return cls(int(found.group("year")), found.group("sub"))

    @property
    def is_full_year(self) -> bool:
        """A year's actual figure (not a part of it, not a forecast)."""
        return self.sub in (FULL_YEAR, YEAR_ONLY)

    @property
    def cumulative_quarters(self) -> int | None:
        """Quarters from 1 January this period spans when it is cumulative (Q1 1, H1 2, Q1-Q3 3, FY 4);
        None for a quarter or half alone after the first, a forecast or TTM."""
        return _CUMULATIVE_QUARTERS.get(self.sub)

    @property
    def end(self) -> date | None:
        """The last day of a cumulative period (2024Q1-Q3 -> 2024-09-30); None when not cumulative or
        without a year."""
        quarters = self.cumulative_quarters
        if quarters is None or self.year is None:
            return None
        month = 3 * quarters
        return date(self.year, month, 31 if month in (3, 12) else 30)


def cumulative_period(year: int, quarters: int) -> Period:
    """The period from 1 January to the end of quarter `quarters` (1..4): Q1, H1, Q1-Q3, FY."""
    sub = {1: "Q1", 2: "H1", 3: NINE_MONTHS, 4: FULL_YEAR}[quarters]
    return Period(year, sub)


def period_ending(day: date) -> Period | None:
    """The cumulative period a report-period end date names (2025-06-30 -> 2025H1); None when the day is
    not a quarter end."""
    quarter_end = {(3, 31): 1, (6, 30): 2, (9, 30): 3, (12, 31): 4}.get((day.month, day.day))
    return None if quarter_end is None else cumulative_period(day.year, quarter_end)


def annualizing_factor(period: Period) -> float | None:
    """What turns a cumulative figure into a year's (Q1 x4, H1 x2, Q1-Q3 x4/3, FY x1); None otherwise."""
    quarters = period.cumulative_quarters
    return None if quarters is None else 4.0 / quarters


def annualizing_text(period: Period) -> str | None:
    """The factor as a person writes it: `x4`, `x2`, `x4/3`, `x1`."""
    quarters = period.cumulative_quarters
    if quarters is None:
        return None
    return "x4/3" if quarters == 3 else f"x{4 // quarters}"


# --- disclosure deadlines -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Disclosure:
    """When reports of one kind of period are due: `quarters` of cumulative period, due `due_month` /
    `due_day` of the period's year plus `years_after`."""

    quarters: int
    years_after: int
    due_month: int
    due_day: int

    def period(self, year: int) -> Period:
        return cumulative_period(year, self.quarters)

    def due(self, year: int) -> date:
        return date(year + self.years_after, self.due_month, self.due_day)


DISCLOSURES: tuple[Disclosure, ...] = (
    Disclosure(quarters=1, years_after=0, due_month=4, due_day=30),
    Disclosure(quarters=2, years_after=0, due_month=8, due_day=31),
    Disclosure(quarters=3, years_after=0, due_month=10, due_day=31),
    Disclosure(quarters=4, years_after=1, due_month=4, due_day=30),
)
"""A-share deadlines (CSRC): Q1 by 30 April, H1 by 31 August, Q1-Q3 by 31 October, annual by 30 April of
the next year. The only place they are written."""


def _around(day: date) -> list[tuple[Period, date]]:
    """(period, due date) of every disclosure for the years around `day`, latest period end first."""
    found = [(d.period(y), d.due(y)) for y in (day.year - 2, day.year - 1, day.year) for d in DISCLOSURES]
    return sorted(found, key=lambda pd: pd[0].end or date.min, reverse=True)


def latest_due(as_of: date) -> Period:
    """The latest period whose reports were all due before `as_of` (on 2026-11-30: 2026Q1-Q3; on
    2026-03-01: 2025Q1-Q3, since annual reports may still be out until 30 April)."""
    return next(p for p, due in _around(as_of) if due < as_of)


def full_year_due(as_of: date) -> int:
    """The last year whose annual reports were all due before `as_of`."""
    return next(p.year for p, due in _around(as_of) if p.is_full_year and due < as_of and p.year)


def published_period(on: date) -> Period | None:
    """The period a report published on `on` is usually for: the one that has ended and is due by then;
    when two are (April: annual reports and Q1 reports), None rather than a guess; when none is (a month
    after a deadline), the latest period already due."""
    open_now = [p for p, due in _around(on) if p.end is not None and p.end < on <= due]
    if len(open_now) > 1:
        return None
    return open_now[0] if open_now else latest_due(on)
