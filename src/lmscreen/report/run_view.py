"""A finished run as the reports see it: run.json, every results.jsonl row, the first rejected rows, the
rules in force and what changed since the previous run of the same pool file.

Read from the OUT folder (plus the history database) only, so `lmscreen report OUT_DIR` can re-render
both reports at any time without the model.
"""

from __future__ import annotations

import csv
import json
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl

from lmscreen.errors import InputError
from lmscreen.report import history
from lmscreen.report.chart_data import CHART_COLUMNS
from lmscreen.report.diff import DIFF_COLUMNS, RunDiff, diff_verdicts
from lmscreen.rules.ruleset import RuleSet

MAX_ERRORS_SHOWN = 50
MAX_ROWS_SHOWN = 10_000
"""Rows the reports carry in full (table, details, charts). A whole-market pass (~5,500 stocks) fits; a
million-row run shows its first rows, while counts, flags and changes still cover every row (from run.json
and the history), and results.csv holds them all."""


@dataclass
class RunView:
    out_dir: Path
    run: dict[str, Any]
    rows: list[dict[str, Any]]
    """The first MAX_ROWS_SHOWN rows of results.jsonl."""
    errors: list[dict[str, str]]
    rules: RuleSet | None
    previous: history.RunInfo | None = None
    changes: RunDiff | None = None
    history_error: str | None = None
    verdicts: pl.DataFrame | None = None
    """Every row's verdict columns (the runner's frame, the history's, or results.csv's); None when none of
    them could be read, and then the charts use `rows`."""
    extra: dict[str, Any] = field(default_factory=dict)

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
    return {c: rec.get(c) for c in history.VERDICT_COLUMNS}


def load_run(out_dir: Path, verdicts: pl.DataFrame | None = None) -> RunView:
    """The run in `out_dir`. `verdicts` is the finished run's own frame (VERDICT_COLUMNS) when the caller
    still holds it, so the comparison with the previous run does not read this run back from the history.
    """
    run_path, results_path = out_dir / "run.json", out_dir / "results.jsonl"
    if not run_path.is_file() or not results_path.is_file():
        raise InputError(f"{out_dir}: not a finished lmscreen run (run.json / results.jsonl missing)")
    try:
        run = json.loads(run_path.read_text(encoding="utf-8"))
        rows = []
        with results_path.open(encoding="utf-8") as fh:
            for line in fh:
                if line.strip():
                    rows.append(json.loads(line))
                    if len(rows) >= MAX_ROWS_SHOWN:
                        break
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise InputError(f"{out_dir}: run.json or results.jsonl is damaged ({exc})") from None
    view = RunView(out_dir=out_dir, run=run, rows=rows, errors=_errors(out_dir), rules=_rules(run))
    view.verdicts = verdicts if verdicts is not None else _whole_run(view)
    _attach_changes(view)
    return view


_WHOLE_RUN_COLUMNS = tuple(dict.fromkeys(("row", *DIFF_COLUMNS, *CHART_COLUMNS)))
"""What the charts and the diff read: a million rows' flags and reasons are left undecoded."""


def _whole_run(view: RunView) -> pl.DataFrame | None:
    """The run's verdict columns for every row, read back when the caller did not pass them: from the
    rows already read when they are all there, else the history's blob of this run, else results.csv."""
    if not view.rows_cut:
        return (
            pl.DataFrame([verdict_of(r) for r in view.rows], infer_schema_length=None, strict=False)
            if view.rows
            else None
        )
    if view.run_id is not None:
        try:
            frame = history.verdict_frame(view.run_id, columns=_WHOLE_RUN_COLUMNS)
            if frame.height == view.total_rows:
                return frame
        except (sqlite3.Error, OSError, InputError, ValueError):
            pass
    try:
        return _csv_verdicts(view.out_dir)
    except (OSError, pl.exceptions.PolarsError):
        return None


def _attach_changes(view: RunView) -> None:
    """Changes against the previous run of the same pool file, when the history has one."""
    pool = (view.run.get("input") or {}).get("path")
    if not pool:
        return
    try:
        prev = history.previous_run(view.run_id, pool, before=view.run.get("finished_at"))
        if prev is None:
            return
        before = history.verdict_frame(prev.id, columns=DIFF_COLUMNS)
    except (sqlite3.Error, OSError, InputError, ValueError) as exc:  # a broken history never stops a report
        view.history_error = f"{type(exc).__name__}: {exc}"
        return
    view.previous = prev
    now = view.verdicts if view.verdicts is not None else [verdict_of(r) for r in view.rows]
    view.changes = diff_verdicts(before, now, prev.id, view.run_id)


def _csv_verdicts(out_dir: Path) -> pl.DataFrame:
    """Every row's verdict columns from results.csv, for a run too big to hold in the view."""
    cols = list(_WHOLE_RUN_COLUMNS)
    return pl.read_csv(
        out_dir / "results.csv",
        columns=cols,
        infer_schema_length=10_000,
        schema_overrides={"code": pl.String, "name": pl.String, "industry": pl.String},
    )
