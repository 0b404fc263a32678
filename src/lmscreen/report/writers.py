"""results.csv, results.jsonl, errors.csv and run.json — each written whole to a temp file, then renamed.

A reader (or a killed run) therefore sees either the previous complete file or the new complete file,
never half of one. The CSVs carry a UTF-8 BOM so Excel on a Chinese Windows opens them correctly.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import polars as pl

from lmscreen.report.atomic import atomic_path, write_text, write_with

CSV_COLUMNS = [
    "row",
    "code",
    "name",
    "industry",
    "pe_ttm",
    "roe",
    "roe_reported",
    "roe_period",
    "eps",
    "is_st",
    "risk_level",
    "score",
    "reason",
    "reason_source",
    "rules_fired",
    "flags",
    "status",
    "revenue_yuan",
    "net_profit_yuan",
    "gross_margin_pct",
    "roe_extracted_pct",
    "pe_extracted",
    "code_raw",
    "prompt_tokens",
    "completion_tokens",
]


SPARSE_JSONL_COLUMNS = (
    "report_text",
    "reason",
    "reason_source",
    "revenue_yuan",
    "net_profit_yuan",
    "gross_margin_pct",
    "roe_extracted_pct",
    "pe_extracted",
    "prompt_tokens",
    "completion_tokens",
)
"""Columns results.jsonl leaves out when no row has a value (a rules-only run): a million rows of a dozen
nulls each were a third of the file and of the time spent writing it. results.csv keeps every column."""


def _all_null_sparse(frame: pl.DataFrame) -> list[str]:
    """The SPARSE_JSONL_COLUMNS that are null on every row of `frame`."""
    sparse = [c for c in SPARSE_JSONL_COLUMNS if c in frame.columns]
    if not sparse or frame.is_empty():
        return []
    nulls = frame.lazy().select(pl.col(c).null_count() for c in sparse).collect().row(0)
    return [c for c, n in zip(sparse, nulls, strict=True) if n == frame.height]


def _formula_guards(frame: pl.DataFrame, columns: list[str] | None = None) -> list[pl.Expr]:
    """The expressions `neutralise_formulas` applies to `columns` (default all): one per text column that
    has a candidate cell.

    One anchored scan per column first: columns with no candidate cell (nearly all of them) are left as
    they are, neither rebuilt nor copied, which is most of the cost on a million rows."""
    risky = r"^([=+\-@].|[\t\r])"
    names = frame.columns if columns is None else columns
    text = [c for c in names if frame.schema[c] == pl.String]
    if not text or frame.is_empty():
        return []
    hits = frame.lazy().select(pl.col(c).str.contains(risky).any() for c in text).collect().row(0)
    return [
        pl.when(
            pl.col(c).str.contains(risky)
            & pl.col(c).str.strip_chars().str.replace_all(",", "").cast(pl.Float64, strict=False).is_null()
        )
        .then(pl.lit("'") + pl.col(c))
        .otherwise(pl.col(c))
        .alias(c)
        for c, hit in zip(text, hits, strict=True)
        if hit
    ]


def neutralise_formulas(frame: pl.DataFrame) -> pl.DataFrame:
    """Text cells a spreadsheet would run as a formula (`=`, `+`, `-`, `@` then something that is not a
    number, or a leading tab / carriage return) get a leading `'`, so `=HYPERLINK(...)` in a stock name or
    a model's reason shows as text in Excel. `-12.5` and `+3` stay numbers."""
    guards = _formula_guards(frame)
    # Lazily, so the untouched columns are not rechunked (copied).
    return frame.lazy().with_columns(guards).collect() if guards else frame


def write_results(frame: pl.DataFrame, out_dir: Path) -> None:
    """results.csv (flat columns, formula-neutralised) and results.jsonl (every column with a value on some
    row, nested details kept).

    Both go through polars' streaming sinks, at the same time on two threads (polars releases the GIL):
    `write_csv` / `write_ndjson` on the many-chunk frame that `evaluate` returns cost a copy of the frame
    each (~150 MiB per million rows); the sinks write it batch by batch.
    """
    from concurrent.futures import ThreadPoolExecutor

    # Every step stays lazy: an eager select or drop on a many-chunk frame copies it into one chunk.
    flat = [c for c in CSV_COLUMNS if c in frame.columns]
    csv = frame.lazy().select(flat).with_columns(_formula_guards(frame, flat))
    jsonl = frame.lazy().drop(_all_null_sparse(frame))
    with atomic_path(out_dir / "results.csv") as csv_tmp, atomic_path(out_dir / "results.jsonl") as jsonl_tmp:
        with ThreadPoolExecutor(max_workers=2) as pool:
            csv_done = pool.submit(csv.sink_csv, csv_tmp, include_bom=True)
            jsonl_done = pool.submit(jsonl.sink_ndjson, jsonl_tmp)
            csv_done.result()
            jsonl_done.result()


def write_errors(errors: pl.DataFrame, out_dir: Path, source: str) -> int:
    """errors.csv: one line per rejected input row (file, row, column, reason). Returns the count."""
    table = errors.select(pl.lit(source).alias("file"), "row", "column", "reason")
    write_with(
        out_dir / "errors.csv", lambda tmp: neutralise_formulas(table).write_csv(tmp, include_bom=True)
    )
    return errors.height


def write_json(data: dict[str, Any], path: Path) -> None:
    write_text(path, json.dumps(data, ensure_ascii=False, indent=2, default=str))
