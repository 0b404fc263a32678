"""How old each row's fields are, and which are older than a nightly screening should judge without saying so.

Why: an unattended run reads whatever pool the night left behind. A PE-TTM copied a week ago, or an ROE of
last year's half-year report when the nine-month reports are all out, is still a number, and the rules judge
it as if it were today's. So every row says which of its fields are stale (`stale:roe`, `stale:pe_ttm` in
`flags`) and of when they are (`stale_as_of` in results.jsonl), and run.json counts them.

What "expected" means:
- a report field (ROE, by the row's `roe_period`): the latest period of its kind whose reports were all due
  (`lmscreen.periods`, DISCLOSURES) `max_age_days` before today. A full-year ROE is held to the last full
  year due (`full_year_due`), a partial one to the latest period due (`latest_due`): on 2026-12-02 FY2025
  and 2026Q1-Q3 are both current, 2026H1 and FY2024 are stale.
- a market field (PE-TTM, PE, price): the as-of date its pool's sidecar (`POOL.sources.json`, written by
  `pool fetch`) records, at most `max_age_days` trading days before today (calendar days when no exchange
  calendar is installed, see pool/trading.py). A pool without a sidecar says nothing about its PE's date,
  so nothing is flagged for it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import polars as pl

from lmscreen.periods import Period, full_year_due, latest_due

DEFAULT_MAX_AGE_DAYS = 3
"""A Friday's prices are current on Monday night; a week-old PE is not."""

MARKET_FIELDS: dict[str, tuple[str, ...]] = {"pe_ttm": ("市盈率TTM", "市盈率-动态", "市盈率(静)")}
"""Output field -> the sidecar headers its value may come from (pool/fetch/table.py HEADERS)."""

STALE_COLUMN = "stale_as_of"


@dataclass(frozen=True)
class Freshness:
    """What a run holds its rows to: today, the tolerance, and the market fields' as-of dates."""

    today: date
    max_age_days: int = DEFAULT_MAX_AGE_DAYS
    market_as_of: dict[str, date] = field(default_factory=dict)
    """Output field -> the as-of date the pool's sidecar gives it (absent: unknown, never flagged)."""

    def stale_market_fields(self) -> dict[str, date]:
        """Market fields whose as-of date is older than `max_age_days` (trading) days."""
        from lmscreen.pool.trading import days_between

        return {
            name: day
            for name, day in self.market_as_of.items()
            if days_between(day, self.today) > self.max_age_days
        }

    def roe_label_is_stale(self, label: str) -> bool:
        """Whether an ROE of period `label` (FY2025, 2026H1) is older than the latest one due."""
        try:
            period = Period.parse(label)
        except ValueError:
            return False
        reference = self.today - timedelta(days=self.max_age_days)
        if period.is_full_year:
            return period.year is not None and period.year < full_year_due(reference)
        end, due = period.end, latest_due(reference).end
        return end is not None and due is not None and end < due

    def record(self) -> dict[str, Any]:
        """run.json `input.freshness`: what the rows were held to."""
        return {
            "today": self.today.isoformat(),
            "max_age_days": self.max_age_days,
            "market_as_of": {k: v.isoformat() for k, v in self.market_as_of.items()},
            "latest_period_due": latest_due(self.today - timedelta(days=self.max_age_days)).label(),
        }


def freshness_for(pool: Path, today: date, max_age_days: int = DEFAULT_MAX_AGE_DAYS) -> Freshness:
    """The Freshness of a pool file: its sidecar's as-of dates when `pool fetch` wrote one beside it."""
    return Freshness(today=today, max_age_days=max_age_days, market_as_of=_sidecar_dates(pool))


def _sidecar_dates(pool: Path) -> dict[str, date]:
    path = pool.with_name(pool.name + ".sources.json")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    columns = data.get("columns") if isinstance(data, dict) else None
    if not isinstance(columns, dict):
        return {}
    found: dict[str, date] = {}
    for name, headers in MARKET_FIELDS.items():
        for header in headers:
            entry = columns.get(header)
            day = _date(entry.get("as_of")) if isinstance(entry, dict) else None
            if day is not None:
                found[name] = day
                break
    return found


def _date(text: Any) -> date | None:
    if not isinstance(text, str):
        return None
    digits = text.replace("-", "")[:8]
    try:
        return date(int(digits[:4]), int(digits[4:6]), int(digits[6:8]))
    except ValueError:
        return None


def is_active(fresh: Freshness, columns: list[str]) -> bool:
    """Whether a run can flag anything: its pool says ROE periods, or its sidecar dates a market field.
    A pool that says neither gets no `stale_as_of` column (its outputs stay as before)."""
    return "roe_period" in columns or bool(fresh.market_as_of)


def mark_stale(frame: pl.DataFrame, fresh: Freshness) -> pl.DataFrame:
    """`frame` with `stale:<field>` tokens added to `flags` and `stale_as_of` (`roe=FY2024;pe_ttm=...`)."""
    tokens: list[pl.Expr] = []
    dates: list[pl.Expr] = []
    if "roe_period" in frame.columns and "roe" in frame.columns:
        labels = frame.get_column("roe_period").drop_nulls().unique().to_list()
        stale_labels = [label for label in labels if fresh.roe_label_is_stale(label)]
        hit = pl.col("roe").is_not_null() & pl.col("roe_period").is_in(stale_labels)
        tokens.append(pl.when(hit).then(pl.lit("stale:roe")))
        dates.append(pl.when(hit).then(pl.lit("roe=") + pl.col("roe_period")))
    for name, day in fresh.stale_market_fields().items():
        if name in frame.columns:
            hit = pl.col(name).is_not_null()
            tokens.append(pl.when(hit).then(pl.lit(f"stale:{name}")))
            dates.append(pl.when(hit).then(pl.lit(f"{name}={day.isoformat()}")))
    if not tokens:
        return frame.with_columns(pl.lit(None, pl.String).alias(STALE_COLUMN))
    flags = pl.col("flags").cast(pl.String) if "flags" in frame.columns else pl.lit(None, pl.String)
    stale = pl.concat_str(tokens, separator=";", ignore_nulls=True)
    stale = pl.when(stale == "").then(None).otherwise(stale)
    when = pl.concat_str(dates, separator=";", ignore_nulls=True)
    joined = pl.concat_str([flags, stale], separator=";", ignore_nulls=True)
    return frame.with_columns(
        pl.when(flags.is_null() & stale.is_null()).then(None).otherwise(joined).alias("flags"),
        pl.when(when == "").then(None).otherwise(when).alias(STALE_COLUMN),
    )


def stale_counts(flag_counts: dict[str, int]) -> dict[str, int]:
    """run.json `counts.stale` (field -> rows flagged) from the run's flag counts: the report's summary."""
    return {k.removeprefix("stale:"): n for k, n in flag_counts.items() if k.startswith("stale:")}
