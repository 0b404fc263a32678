"""`load_pool(path) -> Pool`: read, match columns, normalise every column at once, split off bad rows.

Everything after reading is column-wise polars work (no loop over rows), because `screen --no-llm` has to get
through a million rows in seconds. A row is rejected only for a problem in a column it needs (its code, or a
numeric cell that is not a number); each problem becomes one RowError, and the rest of the pool goes on.
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import polars as pl

from lmscreen.errors import InputError
from lmscreen.pool.codes import normalise_codes
from lmscreen.pool.columns import ColumnMatch, code_aliases_hint, is_code_header, resolve_columns
from lmscreen.pool.model import Pool
from lmscreen.pool.names import normalise_names, st_flags
from lmscreen.pool.numbers import NumberKind, parse_numbers
from lmscreen.pool.periods import (
    label_from_header_date,
    labels_from_period_ends,
    labels_from_publication,
    parse_dates,
    partial_year_note,
    roe_periods,
)
from lmscreen.pool.read import RawTable, read_table
from lmscreen.pool.text import blank_to_null, clean_where_needed, fold_width, full_null

_NUMERIC_FIELDS: tuple[tuple[str, NumberKind], ...] = (
    ("pe_ttm", NumberKind.PE),
    ("roe", NumberKind.PERCENT),
    ("eps", NumberKind.PER_SHARE),
)
_ST_YES = ("是", "true", "1", "yes", "y", "st")
# Threads building columns at once; polars' own pool is sized to the cores too, so more would only queue.
_WORKERS = max(1, min(4, os.cpu_count() or 1))


def load_pool(path: str | Path) -> Pool:
    """Load a stock pool file (CSV, TSV, XLSX, or tab text named .xls) into a `Pool`.

    Raises InputError (one line, naming the file) when the file is not a table, has no code column or
    has no data rows. Unusable rows are not raised: they are returned in `Pool.errors`.
    """
    path = Path(path)
    name = str(path)
    try:
        table = read_table(
            path, is_code_header, missing_header=lambda: f"no code column (looked for {code_aliases_hint()})"
        )
    except (InputError, MemoryError):
        raise
    except Exception as exc:  # noqa: BLE001 - a damaged file (broken zip, stray CR, …) is unusable input
        detail = (str(exc).strip().splitlines() or [""])[0][:200]
        raise InputError(
            f"cannot read this file as a table ({type(exc).__name__}: {detail})", file=name
        ) from exc
    match = resolve_columns(table.headers)
    if "code" not in match.fields:  # the reader found the header by its code column, so this is a safeguard
        raise InputError(f"no code column (looked for {code_aliases_hint()})", file=name)
    headers, encoding, read_errors = table.headers, table.encoding, table.errors
    raw = _with_row_numbers(table)
    del table  # the raw strings live on only where a column keeps them (code_raw, pe_raw)
    if read_errors.height:  # rows the reader could not split into cells: all-null placeholders
        raw = raw.filter(~pl.col("_row").is_in(read_errors.get_column("row").implode()))
    raw = _drop_blank_rows(raw, f"c{match.fields['code']}")
    raw, skipped, repeats = _drop_repeated_headers(raw, headers, match.fields["code"])
    if raw.height == 0 and read_errors.height == 0:
        raise InputError("no data rows under the header", file=name)

    columns, problems, notes = _normalise(raw, match, headers)
    period_source = _add_roe_period(columns, raw, match, headers)
    del raw
    usable, error_frame = _split_rejected(
        pl.DataFrame(columns), problems, headers[match.fields["code"]], read_errors
    )
    column_map = {field: headers[i] for field, i in match.fields.items()}
    column_map.update({f"net_profit_{y}": headers[i] for y, i in sorted(match.net_profit.items())})
    periods = roe_periods(usable) if "roe_period" in usable.columns else {}
    return Pool(
        frame=usable,
        error_frame=error_frame,
        path=path,
        encoding=encoding,
        column_map=column_map,
        warnings=match.warnings + repeats + notes + _content_warnings(usable, match),
        header_dates=match.header_dates,
        pe_basis=match.pe_basis,
        pe_note=match.pe_note,
        roe_period_source=period_source,
        roe_periods=periods,
        roe_note=partial_year_note(periods, period_source),
        skipped_header_rows=skipped,
    )


def _split_rejected(
    frame: pl.DataFrame, problems: list[tuple[str, pl.Series]], code_header: str, read_errors: pl.DataFrame
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """(usable rows, errors as row/column/reason): rows with any problem out, then later duplicates out.

    `read_errors` are rows the reader already rejected (not in `frame`); they join the list in row order.

    Duplicates are looked for among usable rows only, so a rejected first occurrence does not hide the
    next. The common cases (nothing bad, no duplicate) cost one null scan and one hash pass.
    """
    error_frames = [read_errors] if read_errors.height else []
    bad: pl.Series | None = None
    for header, reason in problems:
        if reason.null_count() == reason.len():
            continue
        flagged = reason.is_not_null()
        bad = flagged if bad is None else bad | flagged
        error_frames.append(
            pl.DataFrame(
                {
                    "row": frame.get_column("row").filter(flagged),
                    "column": header,
                    "reason": reason.filter(flagged),
                }
            )
        )
    usable = frame if bad is None else frame.filter(~bad)
    repeated = ~usable.get_column("code").is_first_distinct()
    if repeated.any():
        firsts = usable.filter(~repeated).select("code", pl.col("row").alias("_first"))
        duplicates = (
            usable.filter(repeated)
            .select("row", "code")
            .join(firsts, on="code", how="left")
            .select(
                "row",
                pl.lit(code_header).alias("column"),
                pl.concat_str([pl.lit("duplicate of row "), pl.col("_first").cast(pl.String)]).alias(
                    "reason"
                ),
            )
        )
        error_frames.append(duplicates)
        usable = usable.filter(~repeated)
    schema = {"row": pl.Int64, "column": pl.String, "reason": pl.String}
    if not error_frames:
        return usable, pl.DataFrame(schema=schema)
    errors = pl.concat([f.cast(schema) for f in error_frames]).sort("row", maintain_order=True)
    return usable, errors


def _with_row_numbers(table: RawTable) -> pl.DataFrame:
    return table.frame.with_columns(
        pl.int_range(table.first_row, table.first_row + table.frame.height, dtype=pl.Int64).alias("_row")
    )


def _drop_blank_rows(raw: pl.DataFrame, code_column: str) -> pl.DataFrame:
    """Rows with every cell blank are spacing (Excel, 通达信), not errors.

    Only rows with a blank code can be blank, so the all-columns check runs on those few rows alone.
    """
    code = raw.get_column(code_column)
    candidates = code.is_null() | code.str.contains(r"^\s*$")
    if not candidates.any():
        return raw
    cells = [c for c in raw.columns if c != "_row"]
    blank_rows = (
        raw.filter(candidates)
        .filter(pl.all_horizontal([pl.col(c).str.strip_chars().fill_null("") == "" for c in cells]))
        .get_column("_row")
    )
    return raw.filter(~pl.col("_row").is_in(blank_rows.implode()))


def _add_roe_period(
    columns: dict[str, pl.Series], raw: pl.DataFrame, match: ColumnMatch, headers: list[str]
) -> str | None:
    """Add `roe_period` (2025H1 ...) when the file says which period its ROE is for; return where from."""
    if "roe" not in match.fields:
        return None
    labels: pl.Series | None = None
    source: str | None = None
    if "report_period" in match.fields:
        index = match.fields["report_period"]
        labels = labels_from_period_ends(parse_dates(raw.get_column(f"c{index}")))
        source = f"column {headers[index]!r}"
    elif "roe" in match.header_dates and label_from_header_date(match.header_dates["roe"]):
        label = label_from_header_date(match.header_dates["roe"])
        labels = pl.repeat(label, raw.height, dtype=pl.String, eager=True)
        source = f"header {headers[match.fields['roe']]!r}"
    elif "announce_date" in match.fields:
        index = match.fields["announce_date"]
        labels = labels_from_publication(parse_dates(raw.get_column(f"c{index}")))
        source = f"publication dates in column {headers[index]!r}"
    if labels is None:
        return None
    columns["roe_period"] = labels.alias("roe_period")
    return source


def _drop_repeated_headers(
    raw: pl.DataFrame, headers: list[str], code_index: int
) -> tuple[pl.DataFrame, int, list[str]]:
    """Skip copies of the header line inside the data (pages of a terminal export pasted together).

    A row whose code cell reads like the header's is a header, not a stock: it is skipped and counted
    (one note for all of them), not reported as an error per copy.
    """
    code = raw.get_column(f"c{code_index}").str.strip_chars()
    mark = headers[code_index].strip()
    repeated = (code == mark).fill_null(False)
    if not repeated.any():
        return raw, 0, []
    rows = raw.get_column("_row").filter(repeated)
    shown = ", ".join(str(r) for r in rows.head(5).to_list()) + (", …" if rows.len() > 5 else "")
    note = f"skipped {rows.len()} repeated header row(s) inside the data (row {shown})"
    return raw.filter(~repeated), rows.len(), [note]


def _normalise(
    raw: pl.DataFrame, match: ColumnMatch, headers: list[str]
) -> tuple[dict[str, pl.Series], list[tuple[str, pl.Series]], list[str]]:
    """Build every frame column; return them, (header, reason-or-null) per checked column, and notes.

    The columns are independent, and a polars call on one column runs on one core with the GIL released,
    so they are built on a few threads at once: on two cores this nearly halves the wall time.
    """
    n = raw.height

    def cell(field: str) -> pl.Series | None:
        index = match.fields.get(field)
        return None if index is None else raw.get_column(f"c{index}")

    def nulls(name: str, dtype: pl.DataType) -> pl.Series:
        return full_null(name, n, dtype)

    def names_and_st() -> tuple[pl.Series, pl.Series]:
        name_raw = cell("name")
        names = normalise_names(name_raw) if name_raw is not None else nulls("name", pl.String)
        is_st = st_flags(names)
        flag_raw = cell("st_flag")
        if flag_raw is not None:
            flagged = (
                fold_width(flag_raw).str.strip_chars().str.to_lowercase().is_in(_ST_YES).fill_null(False)
            )
            is_st = (is_st | flagged).alias("is_st")
        return names, is_st

    code_raw = cell("code")
    assert code_raw is not None
    industry_raw = cell("industry")
    text_raw = cell("report_text")
    numeric = {field: (cell(field), kind) for field, kind in _NUMERIC_FIELDS}
    years = sorted(match.net_profit.items())
    with ThreadPoolExecutor(max_workers=_WORKERS) as pool:
        codes_job = pool.submit(normalise_codes, code_raw)
        names_job = pool.submit(names_and_st)
        industry_job = (
            pool.submit(clean_where_needed, industry_raw, _clean_industry)
            if industry_raw is not None
            else None
        )
        numeric_jobs = {
            field: pool.submit(parse_numbers, source, kind)
            for field, (source, kind) in numeric.items()
            if source is not None
        }
        history_jobs = [
            pool.submit(parse_numbers, raw.get_column(f"c{index}"), NumberKind.AMOUNT) for _, index in years
        ]

    problems: list[tuple[str, pl.Series]] = []
    codes = codes_job.result()
    problems.append((headers[match.fields["code"]], codes.get_column("code_error")))
    notes: list[str] = []
    tagged = codes.get_column("exchange_from_tag")
    if tagged.any():
        example = code_raw[tagged.arg_max()]
        notes.append(
            f"{tagged.sum()} code(s) outside the A-share stock prefixes kept with the exchange the file "
            f"gives (e.g. {example!r})"
        )
    names, is_st = names_job.result()
    columns: dict[str, pl.Series] = {
        "row": raw.get_column("_row").alias("row"),
        "code": codes.get_column("code"),
        "code_raw": code_raw.alias("code_raw"),
        "name": names,
        "industry": industry_job.result().alias("industry")
        if industry_job is not None
        else nulls("industry", pl.String),
        "is_st": is_st,
    }
    for field, (source, _kind) in numeric.items():
        if source is None:
            columns[field] = nulls(field, pl.Float64)
        else:
            parsed = numeric_jobs[field].result()
            columns[field] = parsed.get_column("value").alias(field)
            problems.append((headers[match.fields[field]], parsed.get_column("error")))
        if field == "pe_ttm":
            columns["pe_raw"] = source.alias("pe_raw") if source is not None else nulls("pe_raw", pl.String)
    columns["report_text"] = (
        blank_to_null(text_raw).alias("report_text")
        if text_raw is not None
        else nulls("report_text", pl.String)
    )

    history: dict[str, pl.Series] = {}
    for (year, index), job in zip(years, history_jobs, strict=True):
        parsed = job.result()
        history[f"net_profit_{year}"] = parsed.get_column("value").alias(f"net_profit_{year}")
        problems.append((headers[index], parsed.get_column("error")))
    columns["loss_two_years"] = _loss_two_years(history, n)
    columns.update(history)
    return columns, problems, notes


def _clean_industry(raw: pl.Series) -> pl.Series:
    return fold_width(blank_to_null(raw))


def _loss_two_years(history: dict[str, pl.Series], n: int) -> pl.Series:
    """True when the last two years with a value are both losses; null with fewer than two such years.

    Walks the years oldest to newest keeping (latest, previous) non-null values as expressions, which is
    plain column arithmetic instead of per-row lists.
    """
    if len(history) < 2:
        return full_null("loss_two_years", n, pl.Boolean)
    latest: pl.Expr = pl.lit(None, dtype=pl.Float64)
    previous: pl.Expr = pl.lit(None, dtype=pl.Float64)
    for column in history:  # already in year order
        value = pl.col(column)
        previous = pl.when(value.is_not_null()).then(latest).otherwise(previous)
        latest = pl.when(value.is_not_null()).then(value).otherwise(latest)
    return (
        pl.DataFrame(list(history.values()))
        .select(pl.when(previous.is_not_null()).then((latest < 0) & (previous < 0)).alias("loss_two_years"))
        .to_series()
    )


def _content_warnings(frame: pl.DataFrame, match: ColumnMatch) -> list[str]:
    """File-level notes a user should see: missing columns, ROE that looks like a fraction."""
    notes = [f"no {field} column" for field in ("name", "roe") if field not in match.fields]
    if "pe_ttm" not in match.fields and not any("pe_ttm left empty" in w for w in match.warnings):
        notes.append("no pe_ttm column")
    roe = frame.get_column("roe").drop_nulls()
    if roe.len() >= 5 and float(roe.abs().max()) <= 1.0:
        notes.append("every ROE value is within ±1: are they fractions (0.15 = 15%)? ROE is read as percent")
    return notes
