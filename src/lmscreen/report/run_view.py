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

from lmscreen.errors import InputError
from lmscreen.report import history
from lmscreen.report.diff import BRIEF, RunDiff, diff_verdicts
from lmscreen.rules.ruleset import RuleSet

MAX_ERRORS_SHOWN = 50
MAX_TABLE_ROWS = 10_000
"""Rows carried into the reports. A 5,000-row pool is shown whole; a million-row pool gets its summary,
changes and counts in full but a table of its first rows (results.csv has all), so writing the report
never costs more than the screening itself."""


@dataclass
class RunView:
    out_dir: Path
    run: dict[str, Any]
    rows: list[dict[str, Any]]
    total_rows: int
    errors: list[dict[str, str]]
    rules: RuleSet | None
    previous: history.RunInfo | None = None
    changes: RunDiff | None = None
    history_error: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)

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


def load_run(out_dir: Path) -> RunView:
    run_path, results_path = out_dir / "run.json", out_dir / "results.jsonl"
    if not run_path.is_file() or not results_path.is_file():
        raise InputError(f"{out_dir}: not a finished lmscreen run (run.json / results.jsonl missing)")
    try:
        run = json.loads(run_path.read_text(encoding="utf-8"))
        rows = []
        with results_path.open(encoding="utf-8") as fh:
            for line in fh:
                if len(rows) >= MAX_TABLE_ROWS:
                    break
                if line.strip():
                    rows.append(json.loads(line))
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise InputError(f"{out_dir}: run.json or results.jsonl is damaged ({exc})") from None
    total = (run.get("counts") or {}).get("screened")
    total = int(total) if isinstance(total, int) else len(rows)
    view = RunView(
        out_dir=out_dir, run=run, rows=rows, total_rows=total, errors=_errors(out_dir), rules=_rules(run)
    )
    _attach_changes(view)
    return view


def _attach_changes(view: RunView) -> None:
    """Changes against the previous run of the same pool file, when the history has one."""
    pool = (view.run.get("input") or {}).get("path")
    if not pool:
        return
    try:
        prev = history.previous_run(view.run_id, pool, before=view.run.get("finished_at"))
        if prev is None:
            return
        before = history.verdicts(prev.id, columns=BRIEF)
        # This run's own recorded verdicts cover every row, also beyond the report's table.
        now = history.verdicts(view.run_id, columns=BRIEF) if view.run_id is not None else view.rows
    except (sqlite3.Error, OSError, InputError, ValueError) as exc:  # a broken history never stops a report
        view.history_error = f"{type(exc).__name__}: {exc}"
        return
    view.previous = prev
    view.changes = diff_verdicts(before, now, prev.id, view.run_id)
