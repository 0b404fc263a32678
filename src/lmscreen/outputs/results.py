"""results.csv, results.parquet, results.jsonl, errors.csv and run.json: each written to a temp file, then
renamed.

A reader (or a killed run) therefore sees either the previous complete file or the new complete file,
never half of one. The CSVs carry a UTF-8 BOM so Excel on a Chinese Windows opens them correctly.
Which columns go where is decided by outputs.columns (CSV_COLUMNS, NESTED_COLUMNS, SPARSE_JSONL_COLUMNS,
parquet_dtype); this module only writes them.
"""

from __future__ import annotations

import io
import json
import math
from collections.abc import Sequence
from concurrent.futures import Future
from contextlib import ExitStack
from pathlib import Path
from types import TracebackType
from typing import Any

import polars as pl

from lmscreen.outputs.atomic import atomic_path, write_text, write_with
from lmscreen.outputs.columns import (
    CSV_COLUMNS,
    DETAIL_JSON,
    EMPTY_CSV_COLUMNS,
    NESTED_COLUMNS,
    SPARSE_JSONL_COLUMNS,
    parquet_dtype,
)
from lmscreen.outputs.parquet import ParquetStream

__all__ = [
    "CSV_COLUMNS",
    "DETAIL_JSON",
    "SPARSE_JSONL_COLUMNS",
    "ResultWriter",
    "detail_json",
    "fired_text",
    "neutralise_formulas",
    "parquet_frame",
    "write_errors",
    "write_json",
]


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


def detail_json(detail: Any) -> str:
    """Compact JSON of one row's LLM detail, as polars writes nested values (no spaces, UTF-8 kept; a NaN
    or infinity, which JSON cannot hold, as null)."""
    try:
        return json.dumps(detail, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    except ValueError:
        return json.dumps(_finite(detail), ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def _finite(value: Any) -> Any:
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(v) for v in value]
    return value


class ResultWriter:
    """results.csv, results.parquet and (unless `jsonl` is off) results.jsonl written a chunk at a time, in
    row order, to temp names renamed only when the block ends without an error (so a failed run leaves the
    previous files, never half of one).

    results.csv: the flat CSV_COLUMNS, formula-neutralised, with a BOM and one header line.
    results.parquet: the same columns with the contract's types (parquet_dtype: `levels`, the rules' level
    names most severe first, make the level an Enum), rules_fired nested, zstd; values as they are (no
    formula guard: no spreadsheet runs them). results.jsonl: every column except `drop_from_jsonl` (sparse
    columns no row has a value in), rules_fired nested, the LLM detail as each line's last key. Without
    results.jsonl a stale one from an earlier run in the folder is removed with the same success, so the
    folder never pairs this run's results.csv with another run's results.jsonl.
    Each chunk goes to every file on threads of its own (polars releases the GIL while it serialises).
    """

    def __init__(
        self,
        out_dir: Path,
        drop_from_jsonl: list[str] | None = None,
        jsonl: bool = True,
        levels: Sequence[str] | None = None,
    ) -> None:
        self.out_dir = out_dir
        self.drop = list(drop_from_jsonl or [])
        self.jsonl = jsonl
        self.levels = list(levels) if levels else None
        self._stack = ExitStack()
        self._first = True
        self._pending: list[Future[None]] = []

    def __enter__(self) -> ResultWriter:
        from concurrent.futures import ThreadPoolExecutor

        stack = self._stack
        csv_tmp = stack.enter_context(atomic_path(self.out_dir / "results.csv"))
        self._csv = stack.enter_context(csv_tmp.open("wb"))
        if self.jsonl:
            jsonl_tmp = stack.enter_context(atomic_path(self.out_dir / "results.jsonl"))
            self._jsonl = stack.enter_context(jsonl_tmp.open("wb"))
        parquet_tmp = stack.enter_context(atomic_path(self.out_dir / "results.parquet"))
        self._parquet = stack.enter_context(ParquetStream(parquet_tmp))
        self._pool = stack.enter_context(ThreadPoolExecutor(max_workers=3 if self.jsonl else 2))
        return self

    def write(self, pieces: pl.DataFrame | list[pl.DataFrame]) -> None:
        """Queue the next rows (a frame, or consecutive pieces with the same column names) for the files
        and return once the previous ones are written: the caller reads and judges the next chunk while
        these are serialised (polars releases the GIL)."""
        self._wait()
        pieces = pieces if isinstance(pieces, list) else [pieces]
        first, self._first = self._first, False
        self._pending = [
            self._pool.submit(self._write_csv, pieces, first),
            self._pool.submit(self._write_parquet, pieces),
        ]
        if self.jsonl:
            self._pending.append(self._pool.submit(self._write_jsonl, pieces))

    def _write_csv(self, pieces: list[pl.DataFrame], first: bool) -> None:
        for frame in pieces:
            flat = [c for c in CSV_COLUMNS if c in frame.columns]
            csv = frame.lazy().select(flat).with_columns(_formula_guards(frame, flat)).collect()
            csv.write_csv(self._csv, include_header=first, include_bom=first)
            first = False

    def _write_parquet(self, pieces: list[pl.DataFrame]) -> None:
        # One frame a chunk, whatever its pieces: typed alike, they concatenate without a copy.
        frames = [parquet_frame(frame, self.levels) for frame in pieces]
        self._parquet.write(frames[0] if len(frames) == 1 else pl.concat(frames))

    def _write_jsonl(self, pieces: list[pl.DataFrame]) -> None:
        for frame in pieces:
            frame = _nested(frame.drop([c for c in self.drop if c in frame.columns]))
            if DETAIL_JSON not in frame.columns:
                frame.write_ndjson(self._jsonl)
                continue
            # polars writes the flat columns; each line then ends with the answer's detail as `llm`.
            buffer = io.BytesIO()
            frame.drop(DETAIL_JSON).write_ndjson(buffer)
            lines = buffer.getvalue().split(b"\n")
            details = frame.get_column(DETAIL_JSON).to_list()
            out = [
                line[:-1] + b',"llm":' + (d.encode("utf-8") if d is not None else b"null") + b"}\n"
                for line, d in zip(lines, details, strict=False)
            ]
            self._jsonl.write(b"".join(out))

    def _wait(self) -> None:
        pending, self._pending = self._pending, []
        errors = []
        for done in pending:
            try:
                done.result()
            except BaseException as error:  # noqa: BLE001 - the first is raised once all have ended
                errors.append(error)
        if errors:
            raise errors[0]

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> bool | None:
        try:
            self._wait()  # a failed write (disk full, …) surfaces here at the latest
            if self._first and exc_type is None:  # no row screened: a header still names the columns
                empty = pl.DataFrame(schema=dict.fromkeys(EMPTY_CSV_COLUMNS, pl.String))
                empty.write_csv(self._csv, include_bom=True)
                self._parquet.write(
                    pl.DataFrame(schema={c: parquet_dtype(c, self.levels) for c in EMPTY_CSV_COLUMNS})
                )
        except BaseException as error:
            if exc_type is None:  # the temp files go, the previous results stay
                self._stack.__exit__(type(error), error, error.__traceback__)
                raise
        result = self._stack.__exit__(exc_type, exc, tb)
        if exc_type is None and not self.jsonl:
            (self.out_dir / "results.jsonl").unlink(missing_ok=True)
        return result


def parquet_frame(frame: pl.DataFrame, levels: list[str] | None = None) -> pl.DataFrame:
    """A frame of the run as results.parquet holds it: CSV_COLUMNS it has, rules_fired nested where the
    frame has the nested form, each column cast to its contract type (the LLM step's columns of rows
    without an answer are Null-typed: they become typed nulls)."""
    out: list[pl.Expr] = []
    for name in CSV_COLUMNS:
        source = NESTED_COLUMNS.get(name)
        if source is not None and source in frame.columns:
            out.append(pl.col(source).alias(name))
        elif source is not None and name in frame.columns:  # a frame with the text form only
            out.append(pl.col(name))
        elif name in frame.columns:
            wanted = parquet_dtype(name, levels)
            out.append(pl.col(name) if frame.schema[name] == wanted else pl.col(name).cast(wanted))
    return frame.lazy().select(out).collect()


def _nested(frame: pl.DataFrame) -> pl.DataFrame:
    """results.jsonl's columns: each NESTED_COLUMNS entry in the place of its text form, under its name."""
    swap = {text: nested for text, nested in NESTED_COLUMNS.items() if nested in frame.columns}
    if not swap:
        return frame
    hidden = set(swap.values())
    return frame.select(
        pl.col(swap[c]).alias(c) if c in swap else pl.col(c) for c in frame.columns if c not in hidden
    )


def fired_text(entries: Sequence[dict[str, Any]] | None) -> str:
    """results.csv's `rules_fired` text of a nested list: `id(field=value)` joined by `;` (a missing value
    as nothing), so a reader of results.jsonl or results.parquet gets the very text results.csv has."""
    return ";".join(
        f"{e.get('rule')}({e.get('field')}={'' if e.get('value') is None else e.get('value')})"
        for e in entries or ()
    )


def write_errors(errors: pl.DataFrame, out_dir: Path, source: str) -> int:
    """errors.csv: one line per rejected input row (file, row, column, reason). Returns the count."""
    table = errors.select(pl.lit(source).alias("file"), "row", "column", "reason")
    write_with(
        out_dir / "errors.csv", lambda tmp: neutralise_formulas(table).write_csv(tmp, include_bom=True)
    )
    return errors.height


def write_json(data: dict[str, Any], path: Path) -> None:
    write_text(path, json.dumps(data, ensure_ascii=False, indent=2, default=str))
