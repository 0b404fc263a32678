"""The loader's result types, kept apart so rules/, run/ and report/ can import them without polars I/O."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

import polars as pl


@dataclass(frozen=True)
class RowError:
    """One reason a row was rejected at load; written to errors.csv as-is.

    `row` is the row number a spreadsheet shows for that record (the header row is 1 in an ordinary
    file); `column` is the header text as the user wrote it, so they can find the cell.
    """

    row: int
    column: str
    reason: str


@dataclass
class Pool:
    """A loaded stock pool: the usable rows plus everything needed to audit how they were read.

    `error_frame` holds the rejected rows as columns `row` (Int64), `column`, `reason` (String), in row
    order; `errors` is the same as a list of RowError. Both exist because a million-row pool of repeated codes
    can reject most rows, and writers should stream the frame rather than build a million objects.
    `column_map` maps each canonical field (code, name, pe_ttm, net_profit_2024, ...) to the header it came
    from; `warnings` holds file-level notes (a non-TTM PE column left unused, a missing optional column);
    `header_dates` keeps dates that screeners append to headers (`市盈率(TTM)(倍) 2026.05.08`) per field.
    """

    frame: pl.DataFrame
    error_frame: pl.DataFrame
    path: Path
    encoding: str
    column_map: dict[str, str]
    warnings: list[str] = field(default_factory=list)
    header_dates: dict[str, str] = field(default_factory=dict)
    pe_basis: str | None = None
    """What the pe_ttm column holds: ttm, dynamic, static or unstated (pool.columns.PE_BASES); None: no PE."""
    pe_note: str | None = None
    """Said on the console and in run.json when the PE used is not PE-TTM."""
    roe_period_source: str | None = None
    roe_periods: dict[str, int] = field(default_factory=dict)
    """Rows per ROE report period (2025H1: 5734); `frame` then has a `roe_period` column."""
    roe_note: str | None = None
    """Said on the console and in run.json when some ROE covers only part of a year."""
    skipped_header_rows: int = 0

    @cached_property
    def errors(self) -> list[RowError]:
        """The rejected rows as RowError objects, in row order (built on first use)."""
        return [RowError(int(r), str(c), str(m)) for r, c, m in self.error_frame.iter_rows()]
