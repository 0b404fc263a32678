"""Which report period a row's ROE belongs to, and what annualising it means.

Why: a half-year ROE of 8% is a good full-year 16%, so comparing H1, Q1 or Q1-Q3 figures with full-year
thresholds puts most of a market into the wrong level (an akshare 业绩报表 of 2025-06-30 put 4,748 of 5,734
stocks in 高). The period comes, best first, from a report-period column (`报告期` 2025-06-30), a period in
the ROE header (`净资产收益率(201806)`, `roe[20210930]`), or a publication date (`最新公告日期`, or a
header date that is not a quarter end, read as "data as of"). Only a quarter-end date is read exactly; a
publication date maps to the period usually published then, and April (annual reports and Q1 reports
both come out) stays unknown rather than guessed.

Labels: `2025Q1`, `2025H1`, `2025Q3` (Q1-Q3, cumulative), `2025FY`. Annualising multiplies the cumulative
ROE by 4, 2 and 4/3; a full year is left as it is.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import polars as pl

LABEL_SUFFIX = {1: "Q1", 2: "H1", 3: "Q3", 4: "FY"}
FACTOR = {1: 4.0, 2: 2.0, 3: 4.0 / 3.0, 4: 1.0}
FACTOR_TEXT = {1: "x4", 2: "x2", 3: "x4/3", 4: "x1"}
_DATE_FORMATS = ("%Y-%m-%d", "%Y%m%d", "%Y/%m/%d", "%Y.%m.%d", "%Y-%m-%d %H:%M:%S", "%Y年%m月%d日")


@dataclass(frozen=True)
class PeriodInfo:
    """Where the ROE period came from and, per row, the label (null when unknown)."""

    source: str  # "column '报告期'", "header '净资产收益率(201806)'", ...
    labels: pl.Series  # String per row: 2025H1 ..., null when unknown


def parse_dates(raw: pl.Series) -> pl.Series:
    """Cells as dates, trying the spellings exports use; null where none fits."""
    text = raw.cast(pl.String).str.strip_chars()
    tries = [text.str.to_date(fmt, strict=False) for fmt in _DATE_FORMATS if "%H" not in fmt]
    tries.append(text.str.slice(0, 10).str.to_date("%Y-%m-%d", strict=False))
    return pl.select(pl.coalesce(tries)).to_series().alias(raw.name)


def _label(year: pl.Expr, quarter: pl.Expr) -> pl.Expr:
    suffix = quarter.replace_strict(LABEL_SUFFIX, default=None, return_dtype=pl.String)
    return pl.when(quarter.is_not_null()).then(pl.concat_str([year.cast(pl.String), suffix]))


def labels_from_period_ends(dates: pl.Series) -> pl.Series:
    """2025-06-30 -> 2025H1; a date that is not a quarter end -> null."""
    d = pl.col("d")
    quarter_end = d.dt.month().is_in([3, 6, 9, 12]) & (d.dt.month_end() == d)
    quarter = pl.when(quarter_end).then((d.dt.month() // 3).cast(pl.Int8))
    return pl.DataFrame({"d": dates}).select(_label(d.dt.year(), quarter).alias("period")).to_series()


def labels_from_publication(dates: pl.Series) -> pl.Series:
    """The period a report published on that date usually covers (A-share deadlines: Q1 by Apr 30, H1 by
    Aug 31, Q3 by Oct 31, annual by Apr 30 of the next year). April is left unknown (annual or Q1)."""
    d = pl.col("d")
    month, year = d.dt.month(), d.dt.year()
    quarter = (
        pl.when(month <= 3)
        .then(pl.lit(4, pl.Int8))
        .when(month == 4)
        .then(None)
        .when(month <= 6)
        .then(pl.lit(1, pl.Int8))
        .when(month <= 9)
        .then(pl.lit(2, pl.Int8))
        .otherwise(pl.lit(3, pl.Int8))
    )
    period_year = pl.when(month <= 3).then(year - 1).otherwise(year)
    return pl.DataFrame({"d": dates}).select(_label(period_year, quarter).alias("period")).to_series()


def label_from_header_date(text: str) -> str | None:
    """`201806` / `20180630` / `2018-06-30` -> 2018H1; `20211119` (an as-of date) -> the latest period due
    by then (2021Q3); None when the text holds no date."""
    digits = re.sub(r"\D", "", text)
    if len(digits) == 6 and digits[4:6] in ("03", "06", "09", "12"):
        return f"{digits[:4]}{LABEL_SUFFIX[int(digits[4:6]) // 3]}"
    if len(digits) != 8:
        return None
    date = pl.Series("d", [digits]).str.to_date("%Y%m%d", strict=False)
    exact = labels_from_period_ends(date)[0]
    if exact is not None:
        return exact
    if date[0] is None:
        return None
    year, month = date[0].year, date[0].month
    if month >= 11:
        return f"{year}Q3"
    if month >= 9:
        return f"{year}H1"
    if month >= 5:
        return f"{year}Q1"
    return f"{year - 1}Q3"


def quarter_of(labels: pl.Expr) -> pl.Expr:
    """1..4 from a label (2025H1 -> 2); null for null."""
    inverse = {v: k for k, v in LABEL_SUFFIX.items()}
    return labels.str.slice(4).replace_strict(inverse, default=None, return_dtype=pl.Int8)


def roe_periods(frame: pl.DataFrame) -> dict[str, int]:
    """Rows per period label, unknown periods under "unknown"."""
    counts = frame.get_column("roe_period").fill_null("unknown").value_counts(sort=True)
    return {str(label): int(n) for label, n in counts.iter_rows()}


def partial_year_note(periods: dict[str, int], source: str | None) -> str | None:
    """The sentence a user must see when ROE is not a full-year figure (None when it all is)."""
    partial = {k: v for k, v in periods.items() if k != "unknown" and not k.endswith("FY")}
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
    quarter = quarter_of(pl.col("roe_period"))
    factor = quarter.replace_strict(FACTOR, default=1.0, return_dtype=pl.Float64).fill_null(1.0)
    return frame.with_columns(pl.col("roe").alias("roe_reported"), (pl.col("roe") * factor).alias("roe"))


ANNUALIZED_ENTRY = ("roe_annualized", "roe_reported", None)
"""The nested rules_fired entry (rule, field, threshold) `annualized_marks` asks for."""


def annualized_marks(frame: pl.DataFrame) -> pl.DataFrame | None:
    """Where ROE was scaled (`scaled`) and what `roe_annualized` shows there (`value`, e.g. `8.5 2025H1 x2`);
    None when the frame was not annualised."""
    if "roe_reported" not in frame.columns or "roe_period" not in frame.columns:
        return None
    quarter = quarter_of(pl.col("roe_period"))
    scaled = quarter.is_in([1, 2, 3]).fill_null(False) & pl.col("roe_reported").is_not_null()
    value = pl.concat_str(
        [
            pl.col("roe_reported").cast(pl.String),
            pl.lit(" "),
            pl.col("roe_period"),
            pl.lit(" "),
            quarter.replace_strict(FACTOR_TEXT, default="", return_dtype=pl.String),
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
