"""Which report periods a pool built on a given date should use (A-share disclosure deadlines).

The deadlines live in `lmscreen.periods.DISCLOSURES` (annual reports by 30 April of the next year, Q1 by
30 April, H1 by 31 August, Q1-Q3 by 31 October). So on 2026-11-30 the last full year is 2025 and the
latest period is 2026 Q1-Q3; on 2026-03-01 the last full year every company has published is 2024 (2025's
may be out for some, not for all).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from lmscreen.periods import full_year_due, latest_due


@dataclass(frozen=True)
class Periods:
    full_year: int
    """Last year whose annual reports are all due."""
    latest_end: date
    """End of the latest period whose reports are all due (may equal the full year's end)."""

    def year_end(self, year: int) -> str:
        return f"{year}1231"

    @property
    def latest(self) -> str:
        return self.latest_end.strftime("%Y%m%d")

    def same_period_year_before(self) -> str:
        return self.latest_end.replace(year=self.latest_end.year - 1).strftime("%Y%m%d")


def periods_due(as_of: date) -> Periods:
    """The last full year and the latest period whose reports are all due before `as_of` (the deadlines are
    `lmscreen.periods.DISCLOSURES`)."""
    full_year = full_year_due(as_of)
    latest = latest_due(as_of).end
    assert latest is not None  # a due period is always a cumulative one
    return Periods(full_year=full_year, latest_end=max(latest, date(full_year, 12, 31)))
