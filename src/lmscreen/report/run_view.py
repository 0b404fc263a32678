"""A finished run as the reports see it: run.json, the first rows of results.jsonl (walked from the file a
record at a time, never held; results.parquet's on a rules-only run, which writes no results.jsonl unless
asked), the first rejected rows, the rules in force and what changed since the previous run of the same
pool file.

Read from the OUT folder (plus the history database) only, so `lmscreen report OUT_DIR` can re-render
both reports at any time without the model.
"""

from __future__ import annotations

import csv
import io
import json
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl

from lmscreen.errors import InputError
from lmscreen.outputs import history
from lmscreen.outputs import levels as levels_mod
from lmscreen.outputs.columns import (
    CHART_COLUMNS,
    DIFF_COLUMNS,
    TEXT_VERDICT_COLUMNS,
    VERDICT_COLUMNS,
    WORST_ROW_FIELDS,
    dtype,
)
from lmscreen.outputs.levels import LevelScale
from lmscreen.outputs.results import fired_text
from lmscreen.report.chart_data import ChartData, chart_totals
from lmscreen.report.diff import RunDiff, diff_chunks
from lmscreen.rules.ruleset import RuleSet

MAX_ERRORS_SHOWN = 50
MAX_ROWS_SHOWN = 10_000
"""Rows the reports carry in full (table, details, charts). A whole-market pass (~5,500 stocks) fits; a
million-row run shows its first rows, while counts, charts, flags and changes still cover every row (from
run.json, the runner's chart totals and the history), and results.csv holds them all."""
SHOWN_FIELDS: tuple[str, ...] = tuple(
    dict.fromkeys(
        (
            *VERDICT_COLUMNS,
            *WORST_ROW_FIELDS,
            "reason_source",
            "rules_fired",
            "report_text",
        )
    )
)
"""What the reports read of each shown row (the table, the details, report.md's list): results.parquet's
other columns are not turned into Python values for them."""
MAX_HIGH_ROWS = 200
"""Rows at the run's worst level listed in report.md (the rest are counted)."""
HIGH_FIELDS = WORST_ROW_FIELDS
"""What report.md prints of each of them (outputs.columns.WORST_ROW_FIELDS)."""


@dataclass
class RowsDigest:
    """What report.md (and a run.json too old to count flags) takes from the shown rows: the first rows at
    the run's worst level (`worst`: the first level of its rules, 高 by default) with their few printed
    fields, how many rows are at that level and the flag counts; kept instead of the rows themselves."""

    high: list[list[Any]] = field(default_factory=list)
    high_count: int = 0
    flags: dict[str, int] = field(default_factory=dict)
    worst: str = levels_mod.DEFAULT.worst

    def add(self, rec: dict[str, Any]) -> None:
        if rec.get("risk_level") == self.worst:
            self.high_count += 1
            if len(self.high) < MAX_HIGH_ROWS:
                self.high.append([_shown(rec, c) for c in HIGH_FIELDS])
        for f in (rec.get("flags") or "").split(";"):
            if f:
                self.flags[f] = self.flags.get(f, 0) + 1


def _shown(rec: dict[str, Any], column: str) -> Any:
    """A record's field as report.md prints it: rules_fired as its text even where the file has it nested."""
    value = rec.get(column)
    return fired_text(value) if column == "rules_fired" and isinstance(value, list) else value


class ShownRows:
    """The first MAX_ROWS_SHOWN rows of results.jsonl, read from the file each time they are walked, one
    parsed record at a time: a report keeps each row's compact form, never every row's whole record (10,000
    parsed records added ~30 MB to the peak of writing the reports; their compact forms ~2 MB)."""

    def __init__(
        self,
        path: Path,
        count: int,
        damaged: Callable[[Exception], InputError],
        worst: str = levels_mod.DEFAULT.worst,
    ) -> None:
        self.path = path
        self.count = count
        self.worst = worst
        self._damaged = damaged
        self._digest: RowsDigest | None = None
        self._frame: pl.DataFrame | None = None

    def __len__(self) -> int:
        return self.count

    def __iter__(self) -> Iterator[dict[str, Any]]:
        left = self.count
        if not left:
            return
        if self.path.suffix == ".parquet":
            try:
                names = pl.read_parquet_schema(self.path)
                wanted = [c for c in SHOWN_FIELDS if c in names]
                rows = pl.read_parquet(self.path, columns=wanted, n_rows=left)
            except (pl.exceptions.PolarsError, OSError) as exc:
                raise self._damaged(exc) from None
            yield from rows.iter_rows(named=True)
            return
        try:
            with self.path.open(encoding="utf-8") as fh:
                for line in fh:
                    if line.strip():
                        yield json.loads(line)
                        left -= 1
                        if not left:
                            return
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise self._damaged(exc) from None

    def digest(self) -> RowsDigest:
        """The rows' RowsDigest: from the pass that built the html payload, else from a pass of its own."""
        if self._digest is None:
            digest = RowsDigest(worst=self.worst)
            for rec in self:
                digest.add(rec)
            self._digest = digest
        return self._digest

    def remember(self, digest: RowsDigest) -> None:
        """Keep the digest that a full walk of the rows (the html payload's) built on the way."""
        self._digest = digest

    def frame(self) -> pl.DataFrame:
        """The verdict columns of the shown rows (built once; from results.parquet, read as columns)."""
        if self._frame is None:
            if self.path.suffix == ".parquet" and self.count:
                try:
                    typed = pl.read_parquet(self.path, columns=list(VERDICT_COLUMNS), n_rows=self.count)
                except (pl.exceptions.PolarsError, OSError) as exc:
                    raise self._damaged(exc) from None
                self._frame = typed.with_columns(pl.col("risk_level").cast(pl.String))
            else:
                self._frame = _rows_frame([verdict_of(rec) for rec in self])
        return self._frame


@dataclass
class RunView:
    out_dir: Path
    run: dict[str, Any]
    rows: ShownRows
    """The first MAX_ROWS_SHOWN rows of results.jsonl (walked from the file, one record at a time)."""
    errors: list[dict[str, str]]
    rules: RuleSet | None
    previous: history.RunInfo | None = None
    changes: RunDiff | None = None
    history_error: str | None = None
    charts: ChartData | None = None
    """The charts' aggregates: over every row (the runner's own totals, or the run's verdicts read back a
    chunk at a time from the history or results.csv), else over `rows` and then marked partial."""
    extra: dict[str, Any] = field(default_factory=dict)
    levels: LevelScale = levels_mod.DEFAULT
    """The run's levels (names, order, worst, colours), from the rules in force."""

    @property
    def total_rows(self) -> int:
        return int((self.run.get("counts") or {}).get("screened") or len(self.rows))

    @property
    def rows_cut(self) -> bool:
        return self.total_rows > len(self.rows)

    @property
    def run_id(self) -> int | None:
        return (self.run.get("history") or {}).get("run_id")


def _rules(run: dict[str, Any]) -> RuleSet | None:
    """The rules in force: as recorded in run.json, else re-read from the recorded path."""
    from lmscreen.rules import load_rules

    info = run.get("rules") or {}
    spec = info.get("spec")
    if isinstance(spec, dict):
        try:
            return RuleSet.model_validate(spec)
        except ValueError:
            pass
    path = info.get("path")
    try:
        return load_rules(None if path in (None, "default") else path)
    except InputError:
        return None


def _errors(out_dir: Path) -> list[dict[str, str]]:
    path = out_dir / "errors.csv"
    if not path.is_file():
        return []
    with path.open(encoding="utf-8-sig", newline="") as fh:
        out = []
        for rec in csv.DictReader(fh):
            out.append(rec)
            if len(out) >= MAX_ERRORS_SHOWN:
                break
        return out


def verdict_of(rec: dict[str, Any]) -> dict[str, Any]:
    return {c: rec.get(c) for c in VERDICT_COLUMNS}


Chunks = Callable[[Sequence[str]], Iterable[pl.DataFrame]]
"""The run's verdicts a chunk at a time, given the columns wanted; may raise when its store is damaged."""


def load_run(out_dir: Path, verdicts: pl.DataFrame | None = None, charts: ChartData | None = None) -> RunView:
    """The run in `out_dir`.

    `charts`: the runner's ChartTotals result, so nothing is read back for the charts. `verdicts`: the
    finished run's whole frame (VERDICT_COLUMNS) when a caller still holds one. Without them the run's
    verdicts are read back a chunk at a time (the history's parts of this run, else results.csv), never
    whole; the comparison with the previous run reads both runs that way too (diff_chunks).
    """
    run_path, results_path = out_dir / "run.json", out_dir / "results.jsonl"
    if not results_path.is_file():
        results_path = out_dir / "results.parquet"
    if not run_path.is_file() or not results_path.is_file():
        raise InputError(
            f"{out_dir}: not a finished lmscreen run (run.json / results.jsonl or results.parquet missing)"
        )

    def damaged(exc: Exception) -> InputError:
        return InputError(f"{out_dir}: run.json or {results_path.name} is damaged ({exc})")

    try:
        run = json.loads(run_path.read_text(encoding="utf-8"))
        count = _shown_count(results_path)
    except (json.JSONDecodeError, UnicodeDecodeError, pl.exceptions.PolarsError, OSError) as exc:
        raise damaged(exc) from None
    rules = _rules(run)
    scale = levels_mod.from_rules(rules)
    rows = ShownRows(results_path, count, damaged, worst=scale.worst)
    view = RunView(out_dir=out_dir, run=run, rows=rows, errors=_errors(out_dir), rules=rules, levels=scale)
    if verdicts is not None:
        sources: list[Chunks] = [lambda _cols: [verdicts]]
    elif not view.rows_cut:
        sources = [lambda _cols: [view.rows.frame()]]
    else:
        sources = _stored(view)
    view.charts = charts if charts is not None else _charts(view, sources)
    _attach_changes(view, sources)
    return view


def _shown_count(results: Path) -> int:
    """How many rows the reports show: MAX_ROWS_SHOWN at most."""
    if results.suffix == ".parquet":
        return min(MAX_ROWS_SHOWN, pl.scan_parquet(results).select(pl.len()).collect().item())
    count = 0
    with results.open(encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                count += 1
                if count >= MAX_ROWS_SHOWN:
                    break
    return count


def _rows_frame(rows: list[dict[str, Any]]) -> pl.DataFrame:
    """A frame of rows' verdict columns (verdict_of)."""
    if not rows:
        return pl.DataFrame(schema={c: dtype(c) for c in VERDICT_COLUMNS})
    return pl.DataFrame(rows, infer_schema_length=None, strict=False)


_WHOLE_RUN_COLUMNS = tuple(dict.fromkeys(("row", *DIFF_COLUMNS, *CHART_COLUMNS)))
"""What the charts and the diff read: a million rows' flags and reasons are left undecoded."""
_READ_ERRORS = (sqlite3.Error, OSError, InputError, ValueError, pl.exceptions.PolarsError)
CSV_BLOCK_BYTES = 1 << 20
"""Bytes of results.csv parsed at a time when the run is read back from it: polars holds about ten times a
block while parsing it (1 MiB: ~6,000 rows; a million-row file re-read in ~30 MiB, as a 1,000-row one)."""


def _stored(view: RunView) -> list[Chunks]:
    """Where a run too big for the view is read back from, best first: the history's parts of this run
    (when it holds as many rows as run.json says), then results.csv."""
    out: list[Chunks] = []
    run_id = view.run_id
    if run_id is not None:
        try:
            if history.verdict_rows(run_id) == view.total_rows:
                out.append(lambda cols: history.verdict_chunks(run_id, columns=cols))
        except _READ_ERRORS:
            pass
    if (view.out_dir / "results.csv").is_file():
        out.append(lambda cols: _csv_chunks(view.out_dir, cols))
    return out


def _charts(view: RunView, sources: list[Chunks]) -> ChartData:
    """ChartTotals over the first source that reads to the end, else over the rows the view holds."""
    for source in sources:
        totals = chart_totals(view.rules)
        try:
            for chunk in source(_WHOLE_RUN_COLUMNS):
                totals.add(chunk)
        except _READ_ERRORS:
            continue
        return totals.result(view.total_rows)
    totals = chart_totals(view.rules)
    totals.add(view.rows.frame())
    return totals.result(view.total_rows)


def _attach_changes(view: RunView, sources: list[Chunks]) -> None:
    """Changes against the previous run of the same pool file, when the history has one: both runs read a
    chunk at a time (DIFF_COLUMNS only) and compared by diff_chunks, so a million-row pair is never whole
    in memory."""
    pool = (view.run.get("input") or {}).get("path")
    if not pool:
        return
    try:
        prev = history.previous_run(view.run_id, pool, before=view.run.get("finished_at"))
    except _READ_ERRORS as exc:  # a broken history never stops a report
        view.history_error = f"{type(exc).__name__}: {exc}"
        return
    if prev is None:
        return
    rows: Chunks = lambda _cols: [view.rows.frame()]  # noqa: E731
    for source in [*sources, rows]:
        try:
            view.changes = diff_chunks(
                lambda: history.verdict_chunks(prev.id, columns=DIFF_COLUMNS),
                lambda: source(DIFF_COLUMNS),  # noqa: B023 (called before the loop moves on)
                prev.id,
                view.run_id,
                spill_dir=view.out_dir,
                scale=view.levels,
            )
        except _READ_ERRORS as exc:
            view.history_error = f"{type(exc).__name__}: {exc}"
            continue
        view.previous, view.history_error = prev, None
        return


def _csv_chunks(out_dir: Path, columns: Sequence[str]) -> Iterator[pl.DataFrame]:
    """results.csv's columns of `columns` (and `row`), about CSV_BLOCK_BYTES of the file at a time.

    Polars has no batched CSV reader any more and its streaming batches run ahead of the consumer (a
    million-row file was held whole), so the file is cut into blocks at record ends (a newline outside
    quotes) and each block parsed by polars on its own."""
    with (out_dir / "results.csv").open("rb") as fh:
        header = fh.readline().removeprefix(b"\xef\xbb\xbf")
        names = next(csv.reader([header.decode("utf-8")]), [])
        wanted = [c for c in dict.fromkeys(("row", *columns)) if c in names]
        carry = b""
        while True:
            block = fh.read(CSV_BLOCK_BYTES)
            data = carry + block
            cut = _record_end(data) if block else len(data)
            if cut < 0:  # one record longer than a block: read on
                carry = data
                continue
            part, carry = data[:cut], data[cut:]
            if part.strip():
                frame = pl.read_csv(io.BytesIO(header + part), columns=wanted, infer_schema=False)
                yield frame.select(
                    pl.col(c) if c in TEXT_VERDICT_COLUMNS else pl.col(c).cast(pl.Float64, strict=False)
                    for c in wanted
                )
            if not block:
                return


def _record_end(data: bytes) -> int:
    """Just past the last newline that ends a CSV record (an even number of quotes before it), or -1."""
    odd = data.count(b'"') % 2
    end = len(data)
    at = data.rfind(b"\n")
    while at >= 0:
        odd ^= data.count(b'"', at, end) % 2
        end = at
        if not odd:
            return at + 1
        at = data.rfind(b"\n", 0, at)
    return -1
