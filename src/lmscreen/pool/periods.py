"""Which report period a row's ROE belongs to, and what annualising it means.

Why: a half-year ROE of 8% is a good full-year 16%, so comparing H1, Q1 or Q1-Q3 figures with full-year
thresholds puts most of a market into the wrong level (an akshare 业绩报表 of 2025-06-30 put 4,748 of 5,734
stocks in 高). The period comes, best first, from a report-period column (`报告期` 2025-06-30), a period in
the ROE header (`净资产收益率(201806)`, `roe[20210930]`), or a publication date (`最新公告日期`, or a
header date that is not a quarter end, read as "data as of"). Only a quarter-end date is read exactly; a
publication date maps to the period usually published then, and April (annual reports and Q1 reports
both come out) stays unknown rather than guessed.

Labels are lmscreen's one period vocabulary (`lmscreen.periods`): `2025Q1`, `2025H1`, `2025Q1-Q3` (nine
months, cumulative), `FY2025`. Annualising multiplies the cumulative ROE by 4, 2 and 4/3; a full year is
left as it is.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date

import polars as pl

from lmscreen.periods import (
    Period,
    annualizing_factor,
    annualizing_text,
    cumulative_period,
    latest_due,
    period_ending,
    published_period,
)

_DATE_FORMATS = ("%Y-%m-%d", "%Y%m%d", "%Y/%m/%d", "%Y.%m.%d", "%Y-%m-%d %H:%M:%S", "%Y年%m月%d日")


def parse_dates(raw: pl.Series) -> pl.Series:
    """Cells as dates, trying the spellings exports use; null where none fits."""
    text = raw.cast(pl.String).str.strip_chars()
    tries = [text.str.to_date(fmt, strict=False) for fmt in _DATE_FORMATS if "%H" not in fmt]
    tries.append(text.str.slice(0, 10).str.to_date("%Y-%m-%d", strict=False))
    return pl.select(pl.coalesce(tries)).to_series().alias(raw.name)


def _labels_by_date(dates: pl.Series, period_of: Callable[[date], Period | None]) -> pl.Series:
    """Each date's label through `period_of`, computed once per distinct date (a pool has a handful)."""
    mapping = {}
    for day in dates.drop_nulls().unique().to_list():
        found = period_of(day)
        mapping[day] = found.label() if found is not None else None
    if not mapping:
        return pl.Series("period", [None] * dates.len(), dtype=pl.String)
    return dates.replace_strict(mapping, default=None, return_dtype=pl.String).alias("period")


def labels_from_period_ends(dates: pl.Series) -> pl.Series:
    """2025-06-30 -> 2025H1, 2025-09-30 -> 2025Q1-Q3, 2024-12-31 -> FY2024; not a quarter end -> null."""
    return _labels_by_date(dates, period_ending)


def labels_from_publication(dates: pl.Series) -> pl.Series:
    """The period a report published on that date usually covers (`lmscreen.periods.published_period`):
    April is left unknown (annual or Q1)."""
    return _labels_by_date(dates, published_period)


def label_from_header_date(text: str) -> str | None:
    """`201806` / `20180630` / `2018-06-30` -> 2018H1; `20211119` (an as-of date) -> the latest period due
    by then (2021Q1-Q3); None when the text holds no date."""
    digits = re.sub(r"\D", "", text)
    if len(digits) == 6 and digits[4:6] in ("03", "06", "09", "12"):
        return cumulative_period(int(digits[:4]), int(digits[4:6]) // 3).label()
    if len(digits) != 8:
        return None
    try:
        day = date(int(digits[:4]), int(digits[4:6]), int(digits[6:8]))
    except ValueError:
        return None
    return (period_ending(day) or latest_due(day)).label()


def _factors(labels: pl.Series) -> tuple[dict[str, float], dict[str, str]]:
    """Annualising factor and its text per distinct label of a partial (cumulative) period."""
    factors: dict[str, float] = {}
    texts: dict[str, str] = {}
    for label in labels.drop_nulls().unique().to_list():
        period = Period.parse(label)
        factor, text = annualizing_factor(period), annualizing_text(period)
        if factor is not None and text is not None and not period.is_full_year:
            factors[label], texts[label] = factor, text
    return factors, texts


def is_partial_label(label: str) -> bool:
    """Whether a roe_period label (or "unknown") names less than a full year."""
    return label != "unknown" and not Period.parse(label).is_full_year


def roe_periods(frame: pl.DataFrame) -> dict[str, int]:
    """Rows per period label, unknown periods under "unknown"."""
    counts = frame.get_column("roe_period").fill_null("unknown").value_counts(sort=True)
    return {str(label): int(n) for label, n in counts.iter_rows()}


def partial_year_note(periods: dict[str, int], source: str | None) -> str | None:
    """The sentence a user must see when ROE is not a full-year figure (None when it all is)."""
    partial = {k: v for k, v in periods.items() if is_partial_label(k)}
    if not partial:
        return None
    shown = ", ".join(f"{k}: {v:,} rows" for k, v in partial.items())
    return (
        f"ROE is a partial-year figure ({shown}; period from {source}): full-year thresholds do not fit it; "
        "--annualize-roe scales it (Q1 x4, H1 x2, Q1-Q3 x4/3)"
    )


def annualize_roe(frame: pl.DataFrame) -> pl.DataFrame:
    """`roe` scaled to a full year where `roe_period` is partial; the reported figure kept as roe_reported."""
    if "roe_period" not in frame.columns:
        return frame
    factors, _ = _factors(frame.get_column("roe_period"))
    factor = (
        pl.col("roe_period").replace_strict(factors, default=1.0, return_dtype=pl.Float64).fill_null(1.0)
        if factors
        else pl.lit(1.0)
    )
    return frame.with_columns(pl.col("roe").alias("roe_reported"), (pl.col("roe") * factor).alias("roe"))


ANNUALIZED_ENTRY = ("roe_annualized", "roe_reported", None)
"""The nested rules_fired entry (rule, field, threshold) `annualized_marks` asks for."""


def annualized_marks(frame: pl.DataFrame) -> pl.DataFrame | None:
    """Where ROE was scaled (`scaled`) and what `roe_annualized` shows there (`value`, e.g. `8.5 2025H1 x2`);
    None when the frame was not annualised."""
    if "roe_reported" not in frame.columns or "roe_period" not in frame.columns:
        return None
    _, texts = _factors(frame.get_column("roe_period"))
    if not texts:
        return None
    period = pl.col("roe_period")
    scaled = period.is_in(list(texts)).fill_null(False) & pl.col("roe_reported").is_not_null()
    value = pl.concat_str(
        [
            pl.col("roe_reported").cast(pl.String),
            pl.lit(" "),
            pl.col("roe_period"),
            pl.lit(" "),
            period.replace_strict(texts, default="", return_dtype=pl.String),
        ]
    )
    return frame.select(scaled.alias("scaled"), value.alias("value"))


def record_annualized(frame: pl.DataFrame) -> pl.DataFrame:
    """Put `roe_annualized(roe_reported=8.5 2025H1 x2)` first in the rules_fired text where ROE was scaled,
    so each verdict shows it was made on an annualised figure (the caller puts ANNUALIZED_ENTRY first in
    the nested list from the same `annualized_marks`)."""
    marks = annualized_marks(frame)
    if marks is None or "rules_fired" not in frame.columns:
        return frame
    text = pl.concat_str([pl.lit("roe_annualized(roe_reported="), marks.get_column("value"), pl.lit(")")])
    fired = pl.col("rules_fired")
    return frame.with_columns(
        pl.when(marks.get_column("scaled"))
        .then(pl.when(fired == "").then(text).otherwise(pl.concat_str([text, pl.lit(";"), fired])))
        .otherwise(fired)
        .alias("rules_fired")
    )
