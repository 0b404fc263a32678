"""What run.json and the console say about how the pool's PE and ROE were read.

Why a module of its own: the same sentences go to run.json (for the audit trail) and to the console (for
the person at the terminal), and a non-TTM PE or a half-year ROE changes what the verdicts mean.
"""

from __future__ import annotations

from typing import Any

from lmscreen.pool.model import Pool
from lmscreen.pool.periods import is_partial_label


def input_notes(pool: Pool, annualized: bool) -> dict[str, Any]:
    """run.json `input` keys: pe_basis, roe_period, skipped_header_rows and the notices to print."""
    notices: list[str] = []
    if pool.pe_note:
        notices.append(pool.pe_note)
    partial = {k: v for k, v in pool.roe_periods.items() if is_partial_label(k)}
    if pool.roe_note and not annualized:
        notices.append(pool.roe_note)
    if annualized and partial:
        shown = ", ".join(f"{k}: {v:,}" for k, v in partial.items())
        notices.append(
            f"ROE annualised on {sum(partial.values()):,} rows ({shown}; period from "
            f"{pool.roe_period_source}); the reported figure is kept as roe_reported and each row's "
            "rules_fired starts with roe_annualized"
        )
    elif annualized:
        notices.append("--annualize-roe: no partial-year ROE period found in the file; nothing scaled")
    if pool.skipped_header_rows:
        notices.append(f"{pool.skipped_header_rows} repeated header row(s) inside the data skipped")
    return {
        "pe_basis": {
            "basis": pool.pe_basis,
            "column": pool.column_map.get("pe_ttm"),
            "is_pe_ttm": pool.pe_basis == "ttm",
            "note": pool.pe_note,
        },
        "roe_period": {
            "source": pool.roe_period_source,
            "rows_per_period": pool.roe_periods,
            "partial_year": bool(partial),
            "annualized": annualized and bool(partial),
            "note": pool.roe_note,
        },
        "skipped_header_rows": pool.skipped_header_rows,
        "notices": notices,
    }
