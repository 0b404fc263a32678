"""Fill the PE / ROE / EPS / net-profit columns a user's pool lacks, leaving theirs as they wrote them.

The user's file is read with the pool reader (any encoding, delimiter, title lines), so the output keeps
every one of their columns and cells as text, in their order, with the fetched columns appended. A field
the user already has (under any alias, any PE basis) is left alone unless `overwrite`, which replaces the
cells the vendor has a value for and says so in the sidecar. Rows are matched on the normalised code.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from lmscreen.errors import InputError
from lmscreen.pool.codes import normalise_codes
from lmscreen.pool.columns import code_aliases_hint, is_code_header, resolve_columns
from lmscreen.pool.fetch.build import write_sidecar
from lmscreen.pool.fetch.table import SourceTable, header_for
from lmscreen.pool.read import read_table

_PE = ("pe_ttm", "pe_dynamic", "pe_static")


@dataclass
class EnrichResult:
    out: Path
    sidecar: Path
    added: list[str] = field(default_factory=list)
    overwritten: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)
    matched_rows: int = 0
    rows: int = 0


def _user_has(column: str, fields: set[str]) -> bool:
    if column in _PE:
        return "pe_ttm" in fields  # the loader maps every PE basis to pe_ttm
    if column == "report_period":
        return "report_period" in fields or "announce_date" in fields
    return column in fields


def enrich(
    pool: Path, table: SourceTable, out: Path, vendor: str, as_of: str, overwrite: bool
) -> EnrichResult:
    raw = read_table(
        pool, is_code_header, missing_header=lambda: f"no code column (looked for {code_aliases_hint()})"
    )
    match = resolve_columns(raw.headers)
    fields = set(match.fields) | {f"net_profit_{y}" for y in match.net_profit}
    user = raw.frame.rename({f"c{i}": _unique(raw.headers, i) for i in range(len(raw.headers))})
    code_header = _unique(raw.headers, match.fields["code"])
    user = user.with_columns(normalise_codes(user.get_column(code_header)).get_column("code").alias("__code"))
    fetched = table.frame.rename({"code": "__code"})
    joined = user.join(fetched, on="__code", how="left", maintain_order="left", suffix="__fetched")
    result = EnrichResult(out=out, sidecar=out, rows=user.height)
    result.matched_rows = int(user.get_column("__code").is_in(fetched.get_column("__code").implode()).sum())
    columns: dict[str, dict] = {}
    chosen_pe = next((c for c in _PE if c in fetched.columns), None)
    for column in table.value_columns():
        if column in ("name", "industry", "st") or (column in _PE and column != chosen_pe):
            continue  # enrich fills figures, not the user's identity columns
        header = header_for(column)
        value = pl.col(column).cast(pl.String)
        if not _user_has(column, fields):
            joined = joined.with_columns(value.alias(f"__add_{column}"))
            result.added.append(header)
            columns[header] = {"field": column, "action": "added", **table.sources.get(column, {})}
        elif overwrite:
            target = _target_header(column, match, raw.headers)
            if target is None:
                continue
            name = _unique(raw.headers, raw.headers.index(target))
            joined = joined.with_columns(pl.coalesce(value, pl.col(name)).alias(name))
            result.overwritten.append(target)
            columns[target] = {
                "field": column,
                "action": "overwritten where the vendor has a value",
                **table.sources.get(column, {}),
            }
        else:
            result.kept.append(header)
    keep = [_unique(raw.headers, i) for i in range(len(raw.headers))]
    added = [c for c in joined.columns if c.startswith("__add_")]
    names = _output_names([h or f"column {i + 1}" for i, h in enumerate(raw.headers)])
    output = joined.select(
        [pl.col(c).alias(names[i]) for i, c in enumerate(keep)]
        + [pl.col(c).alias(header_for(c.removeprefix("__add_"))) for c in added]
    )
    if len(set(output.columns)) != len(output.columns):
        raise InputError("the pool already has a column named like one to be added", file=str(pool))
    tmp = out.with_name(out.name + ".tmp")
    output.write_csv(tmp, include_bom=True)
    tmp.replace(out)
    result.sidecar = write_sidecar(
        out,
        vendor,
        table,
        columns,
        as_of=as_of,
        enriched_from=str(pool),
        kept_user_columns=result.kept,
        matched_rows=result.matched_rows,
        rows=result.rows,
    )
    return result


def _output_names(headers: list[str]) -> list[str]:
    """Headers as written, a repeated one numbered (`.`, `. (2)`), since a CSV writer needs distinct names."""
    seen: dict[str, int] = {}
    names = []
    for header in headers:
        seen[header] = seen.get(header, 0) + 1
        names.append(header if seen[header] == 1 else f"{header} ({seen[header]})")
    return names


def _unique(headers: list[str], index: int) -> str:
    """A frame-safe name for header `index` (headers may repeat or be blank)."""
    return f"{index}:{headers[index]}"


def _target_header(column: str, match, headers: list[str]) -> str | None:
    if column in _PE:
        column = "pe_ttm"
    if column.startswith("net_profit_"):
        index = match.net_profit.get(int(column.removeprefix("net_profit_")))
    else:
        index = match.fields.get(column)
    return None if index is None else headers[index]
