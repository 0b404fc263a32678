"""`pool fetch --source auto`: ask akshare, then efinance, then baostock, then tushare (with a token), per
field, until every field a screening needs has values; record which source gave each column (and each row,
where mixed).

Why per field and not per source: a night's outage is rarely total. Eastmoney's quote list may be throttled
while its report tables answer, or a source may answer with an empty frame; the pool is then built from
what each source did give, and the sidecar says so. A source is asked only while a needed field is still
missing, so on a good night this is exactly `--source akshare`. A source that asks per stock (baostock,
a `Targeted` fetcher) is told which fields are still missing, so it makes only the calls that give them.

Each source has its own Caller (pacing, retries, cache as before) sharing one Breaker: a source that failed
twice is skipped for the rest of the run. With every source down the build stops with one line naming
each source's error (FetchError, exit 2); nothing older is written in its place.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import polars as pl

from lmscreen.errors import InputError
from lmscreen.pool.fetch.calls import Breaker, FetchError
from lmscreen.pool.fetch.table import FIELDS, SourceTable

ORDER: tuple[str, ...] = ("akshare", "efinance", "baostock", "tushare")
"""The order sources are asked in (tushare only with a token)."""

PE_FIELDS = ("pe_ttm", "pe_dynamic", "pe_static")
NEEDED: tuple[tuple[str, ...], ...] = (("name",), PE_FIELDS, ("roe",))
"""Field groups a pool needs one value column of: a name, a PE of some basis, the ROE."""


@dataclass(frozen=True)
class Targeted:
    """A fetcher told the fields still missing (None: all of them), for a source whose calls are per stock
    and per field group, where asking for what is already there would cost thousands of calls."""

    fetch: Callable[[frozenset[str] | None], SourceTable]


Fetcher = Callable[[], SourceTable] | Targeted


@dataclass
class Attempt:
    vendor: str
    ok: bool
    error: str | None = None
    filled: list[str] = field(default_factory=list)


@dataclass
class Failover:
    """The merged table and what each source did (for the sidecar and the all-down line)."""

    table: SourceTable
    attempts: list[Attempt]
    vendors: list[str]
    by_row: dict[str, dict[str, str]]
    """Column -> {code: vendor} for the rows of a mixed column not from its first vendor."""


def _has_values(frame: pl.DataFrame, column: str) -> bool:
    return column in frame.columns and frame.get_column(column).null_count() < frame.height


def missing_fields(frame: pl.DataFrame | None) -> list[tuple[str, ...]]:
    """The NEEDED groups with no column holding a value."""
    if frame is None:
        return list(NEEDED)
    return [group for group in NEEDED if not any(_has_values(frame, c) for c in group)]


def fetch_auto(fetchers: dict[str, Fetcher], breaker: Breaker, skipped: dict[str, str]) -> Failover:
    """Ask `fetchers` in their order until no NEEDED field is missing; `skipped`: vendors not asked and why
    (tushare without a token). Raises FetchError naming every source's error when none gave a pool."""
    merged: pl.DataFrame | None = None
    sources: dict[str, dict[str, dict[str, Any]]] = {}
    attempts: list[Attempt] = []
    calls: list[dict[str, Any]] = []
    notes: list[str] = []
    for vendor, fetcher in fetchers.items():
        if merged is not None and not missing_fields(merged):
            break
        if not breaker.allows(vendor):
            attempts.append(Attempt(vendor, False, f"skipped: {breaker.why(vendor)}"))
            continue
        try:
            if isinstance(fetcher, Targeted):
                wanted = None if merged is None else frozenset(f for g in missing_fields(merged) for f in g)
                table = fetcher.fetch(wanted)
            else:
                table = fetcher()
        except InputError as exc:  # FetchError, a missing library, a bad token
            breaker.failed(vendor, str(exc))
            attempts.append(Attempt(vendor, False, str(exc)))
            continue
        calls.extend(table.calls)
        if table.frame.is_empty():
            why = f"{vendor} returned no stocks"
            breaker.failed(vendor, why)
            attempts.append(Attempt(vendor, False, why))
            continue
        notes.extend(f"{vendor}: {n}" for n in table.notes)
        merged, filled = _merge(merged, table, vendor)
        for column in filled:
            sources.setdefault(column, {})[vendor] = table.sources.get(column, {})
        attempts.append(Attempt(vendor, True, filled=filled))
    if merged is None:
        said = [f"{a.vendor}: {a.error}" for a in attempts] + [f"{v}: {why}" for v, why in skipped.items()]
        raise FetchError("every data source failed: " + "; ".join(" ".join(s.split()) for s in said))
    still = missing_fields(merged)
    if still:
        notes.append("no source gave " + ", ".join("/".join(g) for g in still))
    column_sources, by_row = _column_sources(merged, sources)
    vendors = [a.vendor for a in attempts if a.ok]
    frame = merged.drop([c for c in merged.columns if c.startswith("_src_")])
    table = SourceTable(frame=_ordered(frame), sources=column_sources, calls=calls, notes=notes)
    return Failover(table=table, attempts=attempts, vendors=vendors, by_row=by_row)


def _ordered(frame: pl.DataFrame) -> pl.DataFrame:
    """Columns in the pool's usual order (table.HEADERS), net profits last."""
    known = [c for c in FIELDS if c in frame.columns]
    rest = sorted(c for c in frame.columns if c not in known)
    return frame.select(known + rest)


def _merge(merged: pl.DataFrame | None, table: SourceTable, vendor: str) -> tuple[pl.DataFrame, list[str]]:
    """`merged` with `table`'s rows and values added where `merged` has none; beside each value column
    `_src_<column>` names the vendor of each cell. Returns the columns this vendor filled any cell of."""
    frame = table.frame
    values = [c for c in frame.columns if c != "code"]
    if merged is None:
        origin = [pl.when(pl.col(c).is_not_null()).then(pl.lit(vendor)).alias(f"_src_{c}") for c in values]
        return frame.with_columns(origin), [c for c in values if _has_values(frame, c)]
    renamed = frame.rename({c: f"_new_{c}" for c in values})
    joined = merged.join(renamed, on="code", how="full", coalesce=True)
    filled: list[str] = []
    updates: list[pl.Expr] = []
    for column in values:
        new = pl.col(f"_new_{column}")
        has_old = column in merged.columns
        old = pl.col(column) if has_old else pl.lit(None, frame.schema[column])
        src = pl.col(f"_src_{column}") if has_old else pl.lit(None, pl.String)
        takes = old.is_null() & new.is_not_null()
        if joined.select(takes.any()).item():
            filled.append(column)
        updates.append(pl.when(takes).then(new).otherwise(old).alias(column))
        updates.append(pl.when(takes).then(pl.lit(vendor)).otherwise(src).alias(f"_src_{column}"))
    out = joined.with_columns(updates).drop([c for c in joined.columns if c.startswith("_new_")])
    return out, filled


def _column_sources(
    frame: pl.DataFrame, sources: dict[str, dict[str, dict[str, Any]]]
) -> tuple[dict[str, dict[str, Any]], dict[str, dict[str, str]]]:
    """Per column: its one source's entry, or for a mixed column `vendor: mixed` with each vendor's entry
    and row count; and per mixed column the codes not from its first vendor."""
    out: dict[str, dict[str, Any]] = {}
    by_row: dict[str, dict[str, str]] = {}
    for column in frame.columns:
        if column == "code" or column.startswith("_src_"):
            continue
        per_vendor = sources.get(column, {})
        if len(per_vendor) <= 1:
            vendor = next(iter(per_vendor), None)
            out[column] = {"vendor": vendor, **per_vendor[vendor]} if vendor else {}
            continue
        who = frame.get_column(f"_src_{column}")
        counts = {str(v): int(n) for v, n in who.drop_nulls().value_counts().iter_rows()}
        units = [e["unit"] for e in per_vendor.values() if e.get("unit")]
        first = next(iter(per_vendor))
        out[column] = {
            "vendor": "mixed",
            "source": "; ".join(f"{v}: {e.get('source')}" for v, e in per_vendor.items()),
            "as_of": min(str(e.get("as_of")) for e in per_vendor.values()),
            "by_vendor": {v: {**e, "rows": counts.get(v, 0)} for v, e in per_vendor.items()},
            **({"unit": units[0]} if units else {}),
        }
        mixed = frame.select("code", who.alias("vendor")).filter(
            pl.col("vendor").is_not_null() & (pl.col("vendor") != first)
        )
        by_row[column] = dict(mixed.iter_rows())
    return out, by_row
