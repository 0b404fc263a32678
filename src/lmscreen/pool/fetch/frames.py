"""Library DataFrames (pandas) to polars, and the code column every source is joined on.

Why by hand: `pl.from_pandas` needs pyarrow for object columns, which neither library requires; the frames
are a few thousand rows, so a column-by-column copy costs nothing. Dates become ISO text, NaN becomes null,
so a frame reads the same from the cache as from the vendor.
"""

from __future__ import annotations

import math
from datetime import date, datetime
from typing import Any

import polars as pl

from lmscreen.pool.codes import normalise_codes


def _plain(value: Any) -> Any:
    if value is None:
        return None
    if hasattr(value, "item") and not isinstance(value, (str, bytes)):  # numpy scalars
        value = value.item()
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, (datetime, date)):
        return (
            value.isoformat()[:10]
            if isinstance(value, datetime) and value.time() == datetime.min.time()
            else value.isoformat()
        )
    if hasattr(value, "isoformat"):  # pandas Timestamp
        return value.isoformat()
    return value


def to_polars(frame: Any) -> pl.DataFrame:
    """A pandas DataFrame (or None) as polars, values made plain; None/empty gives an empty frame."""
    if frame is None:
        return pl.DataFrame()
    columns = [str(c) for c in frame.columns]
    data = {
        name: [_plain(v) for v in frame[col].tolist()]
        for name, col in zip(columns, frame.columns, strict=True)
    }
    return pl.DataFrame(data, strict=False, infer_schema_length=None)


def with_codes(frame: pl.DataFrame, column: str) -> pl.DataFrame:
    """Add `code` (600519.SH) from `column`; rows whose code is not an A-share stock are dropped."""
    if frame.is_empty() or column not in frame.columns:
        return frame.with_columns(pl.lit(None, dtype=pl.String).alias("code")).head(0)
    raw = frame.get_column(column).cast(pl.String)
    codes = normalise_codes(raw)
    return (
        frame.with_columns(
            codes.get_column("code").alias("code"), codes.get_column("code_error").alias("_bad")
        )
        .filter(pl.col("_bad").is_null() & pl.col("code").is_not_null())
        .drop("_bad")
        .unique("code", keep="first", maintain_order=True)
    )


def numbers(frame: pl.DataFrame, column: str, scale: float = 1.0) -> pl.Expr:
    """`column` as Float64 times `scale` (a unit conversion), null when absent or not a number."""
    if column not in frame.columns:
        return pl.lit(None, dtype=pl.Float64)
    value = pl.col(column).cast(pl.Float64, strict=False)
    return value * scale if scale != 1.0 else value
