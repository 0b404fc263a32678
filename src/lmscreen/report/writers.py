"""Moved to `lmscreen.outputs.results` (the column names to `lmscreen.outputs.columns`); kept so existing
imports keep working."""

from lmscreen.outputs.results import (
    CSV_COLUMNS,
    DETAIL_JSON,
    SPARSE_JSONL_COLUMNS,
    ResultWriter,
    detail_json,
    neutralise_formulas,
    write_errors,
    write_json,
)

__all__ = [
    "CSV_COLUMNS",
    "DETAIL_JSON",
    "SPARSE_JSONL_COLUMNS",
    "ResultWriter",
    "detail_json",
    "neutralise_formulas",
    "write_errors",
    "write_json",
]
