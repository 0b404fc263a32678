"""history.sqlite's schema as numbered migrations, each run once, in order, recorded in `_migrations`.

As Simon Willison's `llm` keeps its logs database: the schema is never described as "what it is now" but
as the steps that built it, so a history file written by any earlier lmscreen is brought forward by the
steps it has not had, and a step that changes a table (moving data, dropping a column) is ordinary code
instead of compatibility branches kept in every reader forever.

Rules for adding one: append a function `mNNN_what_it_does(con)` to MIGRATIONS with the next number;
never edit or renumber one that has shipped (a user's file has already run it). Each runs inside the
same write transaction as its `_migrations` row, so a failed step leaves the file as it was, and a second
process opening the file at the same moment waits for the first and then finds the step done.
"""

from __future__ import annotations

import io
import json
import sqlite3
from collections.abc import Callable
from datetime import datetime, timezone

from lmscreen.errors import InputError

Migration = Callable[[sqlite3.Connection], None]

MIGRATIONS_TABLE = "_migrations"


def m001_initial(con: sqlite3.Connection) -> None:
    """The tables as lmscreen wrote them before migrations existed, exactly, so such a file is already at
    migration 1 (every statement is IF NOT EXISTS)."""
    for statement in (
        """CREATE TABLE IF NOT EXISTS runs (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            recorded_at TEXT NOT NULL,
            started_at TEXT,
            finished_at TEXT,
            pool_path TEXT NOT NULL,
            pool_sha256 TEXT,
            out_dir TEXT,
            rows INTEGER,
            rejected INTEGER,
            levels_json TEXT,
            model TEXT,
            engine TEXT,
            run_json TEXT
        )""",
        "CREATE INDEX IF NOT EXISTS runs_by_pool ON runs (pool_path, id)",
        """CREATE TABLE IF NOT EXISTS run_verdicts (
            run_id INTEGER PRIMARY KEY REFERENCES runs (id),
            parquet BLOB NOT NULL
        )""",
        """CREATE TABLE IF NOT EXISTS verdict_parts (
            run_id INTEGER NOT NULL REFERENCES runs (id),
            part INTEGER NOT NULL,
            rows INTEGER NOT NULL,
            parquet BLOB NOT NULL,
            PRIMARY KEY (run_id, part)
        )""",
    ):
        con.execute(statement)


def m002_verdicts_in_parts(con: sqlite3.Connection) -> None:
    """Runs recorded as one blob (run_verdicts, before verdicts were stored in parts) become part 0 of
    verdict_parts, and run_verdicts goes: every reader then reads parts only."""
    import polars as pl  # only a file that has such runs pays for it

    for run_id, blob in con.execute("SELECT run_id, parquet FROM run_verdicts").fetchall():
        has_parts = con.execute("SELECT 1 FROM verdict_parts WHERE run_id = ? LIMIT 1", (run_id,)).fetchone()
        if has_parts:
            continue
        rows = int(pl.scan_parquet(io.BytesIO(blob)).select(pl.len()).collect().item())
        con.execute(
            "INSERT INTO verdict_parts (run_id, part, rows, parquet) VALUES (?, 0, ?, ?)",
            (run_id, rows, blob),
        )
    con.execute("DROP TABLE run_verdicts")


def m003_runs_rules(con: sqlite3.Connection) -> None:
    """runs.rules_json: the run's rules as recorded in its run.json (`rules.spec`), so a listing of runs
    shows each run's own level names and order without parsing every run's whole run.json. Filled in for
    the runs already there from their run_json."""
    con.execute("ALTER TABLE runs ADD COLUMN rules_json TEXT")
    for run_id, run_json in con.execute("SELECT id, run_json FROM runs").fetchall():
        con.execute("UPDATE runs SET rules_json = ? WHERE id = ?", (rules_json(run_json), run_id))


def rules_json(run: str | dict[str, object] | None) -> str | None:
    """The rules spec of a run (its run.json, as text or parsed) as compact JSON; None without one."""
    if isinstance(run, str):
        try:
            run = json.loads(run)
        except json.JSONDecodeError:
            return None
    if not isinstance(run, dict):
        return None
    spec = (run.get("rules") or {}).get("spec") if isinstance(run.get("rules"), dict) else None
    if not isinstance(spec, dict):
        return None
    return json.dumps(spec, ensure_ascii=False, separators=(",", ":"))


MIGRATIONS: tuple[Migration, ...] = (m001_initial, m002_verdicts_in_parts, m003_runs_rules)
"""In order; the N-th (from 1) is recorded in `_migrations` as number N."""


def _done(con: sqlite3.Connection) -> set[int]:
    exists = con.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (MIGRATIONS_TABLE,)
    ).fetchone()
    if not exists:
        return set()
    return {int(n) for (n,) in con.execute(f"SELECT number FROM {MIGRATIONS_TABLE}")}


def pending(con: sqlite3.Connection, migrations: tuple[Migration, ...] = MIGRATIONS) -> list[int]:
    """Numbers of the migrations this file has not had yet."""
    done = _done(con)
    return [n for n in range(1, len(migrations) + 1) if n not in done]


def migrate(con: sqlite3.Connection, migrations: tuple[Migration, ...] = MIGRATIONS) -> list[int]:
    """Run every migration the file has not had, in order, each once; returns the numbers run.

    A file already up to date costs two small reads. Otherwise one write transaction (BEGIN IMMEDIATE)
    holds all the pending steps and their `_migrations` rows: another process migrating the same file
    waits for it and then finds nothing left to do. A file with a migration this code does not know was
    written by a newer lmscreen: refused rather than written to under the wrong schema."""
    done = _done(con)
    newer = sorted(n for n in done if n > len(migrations))
    if newer:
        raise InputError(
            f"the run history was written by a newer lmscreen (migration {newer[-1]}; this one knows "
            f"{len(migrations)}): upgrade lmscreen to read it"
        )
    if len(done) == len(migrations):
        return []
    level = con.isolation_level
    con.isolation_level = None  # our own BEGIN / COMMIT: DDL and DML in one transaction
    ran: list[int] = []
    try:
        con.execute("BEGIN IMMEDIATE")
        try:
            con.execute(
                f"CREATE TABLE IF NOT EXISTS {MIGRATIONS_TABLE} ("
                "number INTEGER PRIMARY KEY, name TEXT NOT NULL, migrated_at TEXT NOT NULL)"
            )
            done = _done(con)  # again, under the write lock: another process may have just migrated
            for number, step in enumerate(migrations, start=1):
                if number in done:
                    continue
                step(con)
                con.execute(
                    f"INSERT INTO {MIGRATIONS_TABLE} (number, name, migrated_at) VALUES (?, ?, ?)",
                    (number, step.__name__, datetime.now(timezone.utc).isoformat()),
                )
                ran.append(number)
            con.execute("COMMIT")
        except BaseException:
            con.execute("ROLLBACK")
            raise
    finally:
        con.isolation_level = level
    return ran
