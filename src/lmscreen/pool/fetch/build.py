"""Write a fetched table as a pool file plus a sidecar saying, per column, where it came from and when.

Why a sidecar (`POOL.sources.json`) rather than header decorations: the headers stay the plain ones every
tool (and this loader) recognises, while the audit trail keeps the exact call, as-of date and unit of each
column, and every vendor call made with when it was fetched (or read back from the cache).
"""

from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import polars as pl

from lmscreen.pool.fetch.table import SourceTable, header_for


def sidecar_path(pool: Path) -> Path:
    return pool.with_name(pool.name + ".sources.json")


def write_sidecar(
    pool: Path, vendor: str, table: SourceTable, columns: dict[str, dict[str, Any]], **extra: Any
) -> Path:
    path = sidecar_path(pool)
    data = {
        "pool": pool.name,
        "vendor": vendor,
        "written_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "columns": columns,
        "calls": table.calls,
        "notes": table.notes,
        **extra,
    }
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data, ensure_ascii=False, indent=2), encoding="utf-8")
    tmp.replace(path)
    return path


def write_pool(table: SourceTable, out: Path, vendor: str, as_of: str, **extra: Any) -> Path:
    """The pool CSV (UTF-8 with BOM, headers the loader knows) and its sidecar; returns the sidecar path."""
    frame = table.frame.rename({c: header_for(c) for c in table.frame.columns})
    tmp = out.with_name(out.name + ".tmp")
    frame.write_csv(tmp, include_bom=True)
    tmp.replace(out)
    columns = {
        header_for(c): {"field": c, **table.sources.get(c, {"source": "code list of the calls below"})}
        for c in table.frame.columns
    }
    return write_sidecar(
        out, vendor, table, columns, as_of=as_of, rows=frame.height, counts=_counts(table.frame), **extra
    )


def _counts(frame: pl.DataFrame) -> dict[str, int]:
    """Rows with a value, per column: how complete the pool is."""
    return {header_for(c): int(frame.height - frame.get_column(c).null_count()) for c in frame.columns}
