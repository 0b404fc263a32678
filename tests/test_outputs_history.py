"""The history's schema grown by numbered migrations, each run once, in order, recorded in `_migrations`.

tests/data/history/before_migrations.sqlite was written by lmscreen before migrations existed (commit
285fbf7, `screen --no-llm` of examples/pool.csv): run 1 with the default rules, run 2 with the levels
renamed 危险/关注/安全/未知, and run 3 stored as that code's older one-blob row (`run_verdicts`, a copy of
run 1's verdicts), which it still read. Opening it with today's code must migrate it and keep every run.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import polars as pl
import pytest

from lmscreen.cli import main
from lmscreen.errors import InputError
from lmscreen.outputs import history, migrations
from lmscreen.outputs.columns import VERDICT_COLUMNS

DATA = Path(__file__).resolve().parent / "data" / "history"
BEFORE = DATA / "before_migrations.sqlite"


def _tables(db: Path) -> set[str]:
    con = sqlite3.connect(db)
    try:
        return {n for (n,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    finally:
        con.close()


def _migrated(db: Path) -> list[tuple[int, str]]:
    con = sqlite3.connect(db)
    try:
        return [(n, name) for n, name in con.execute("SELECT number, name FROM _migrations ORDER BY number")]
    finally:
        con.close()


@pytest.fixture
def old_db(tmp_path: Path) -> Path:
    if not BEFORE.is_file():
        pytest.skip(f"{BEFORE} is not in this checkout")
    db = tmp_path / "history.sqlite"
    shutil.copyfile(BEFORE, db)
    assert _tables(db) == {"runs", "run_verdicts", "verdict_parts", "sqlite_sequence"}, "the fixture as made"
    return db


def test_a_history_from_before_migrations_is_migrated_and_every_run_still_read(old_db: Path) -> None:
    runs = history.list_runs(path=old_db)
    assert [r.id for r in runs] == [3, 2, 1]
    assert _migrated(old_db) == [(1, "m001_initial"), (2, "m002_verdicts_in_parts"), (3, "m003_runs_rules")]
    assert "run_verdicts" not in _tables(old_db), "the one-blob table's runs moved into verdict_parts"
    first = history.verdict_frame(1, old_db)
    assert first.height == 35 and tuple(first.columns) == VERDICT_COLUMNS
    assert history.verdict_frame(3, old_db).equals(first), "the one-blob run reads as before"
    assert history.verdict_rows(3, old_db) == 35
    # Each run's levels come from the rules recorded in its run.json (filled in by migration 3).
    assert [r.level_order for r in runs] == [
        ["高", "中", "低", "未知"],
        ["危险", "关注", "安全", "未知"],
        ["高", "中", "低", "未知"],
    ]
    assert runs[1].levels == {"危险": 9, "关注": 12, "安全": 13, "未知": 1}
    second = history.verdict_frame(2, old_db)
    assert set(second.get_column("risk_level")) == {"危险", "关注", "安全", "未知"}
    # A run recorded now goes on after them, and its previous run is the old file's last one.
    run = json.loads(_run_json(old_db, 1))
    new = history.record_run(run, first, old_db)
    assert new == 4
    assert history.previous_run(new, run["input"]["path"], path=old_db).id == 3  # type: ignore[union-attr]
    con = sqlite3.connect(old_db)
    try:
        assert migrations.migrate(con) == [], "a migrated file runs nothing again"
    finally:
        con.close()


def _run_json(db: Path, run_id: int) -> str:
    con = sqlite3.connect(db)
    try:
        return con.execute("SELECT run_json FROM runs WHERE id = ?", (run_id,)).fetchone()[0]
    finally:
        con.close()


def test_lmscreen_history_lists_an_old_file_with_each_runs_levels(
    old_db: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("LMSCREEN_HOME", str(old_db.parent))
    with pytest.raises(SystemExit) as done:
        main(["history"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    header = next(line for line in out.splitlines() if line.startswith("┃"))
    assert [c.strip() for c in header.strip("┃").split("┃")][3:12] == [
        *("rows", "高", "中", "低", "未知", "危险", "关注", "安全"),
        "rejected",
    ]
    assert len([line for line in out.splitlines() if line.startswith("│")]) == 3


def test_a_new_history_is_built_by_the_migrations(tmp_path: Path) -> None:
    db = tmp_path / "history.sqlite"
    with history.connect(db) as con:
        columns = [r["name"] for r in con.execute("PRAGMA table_info(runs)")]
    assert _tables(db) == {"runs", "verdict_parts", "_migrations", "sqlite_sequence"}
    assert columns[-1] == "rules_json"
    assert [n for n, _ in _migrated(db)] == list(range(1, len(migrations.MIGRATIONS) + 1))


def test_each_migration_runs_once_and_in_order(tmp_path: Path) -> None:
    ran: list[str] = []

    def m1(con: sqlite3.Connection) -> None:
        ran.append("m1")
        con.execute("CREATE TABLE t (x INTEGER)")

    def m2(con: sqlite3.Connection) -> None:
        ran.append("m2")
        con.execute("INSERT INTO t VALUES (2)")

    def m3(con: sqlite3.Connection) -> None:
        ran.append("m3")
        con.execute("ALTER TABLE t ADD COLUMN y TEXT")

    con = sqlite3.connect(tmp_path / "x.sqlite")
    try:
        assert migrations.migrate(con, (m1, m2)) == [1, 2]
        assert migrations.migrate(con, (m1, m2)) == []
        assert migrations.migrate(con, (m1, m2, m3)) == [3], "a later release adds a step"
        assert ran == ["m1", "m2", "m3"]
        assert con.execute("SELECT * FROM t").fetchall() == [(2, None)]
        assert migrations.pending(con, (m1, m2, m3)) == []
    finally:
        con.close()


def test_a_failing_migration_leaves_the_file_as_it_was(tmp_path: Path) -> None:
    def m1(con: sqlite3.Connection) -> None:
        con.execute("CREATE TABLE t (x INTEGER)")

    def m2_broken(con: sqlite3.Connection) -> None:
        con.execute("INSERT INTO t VALUES (1)")
        raise sqlite3.OperationalError("disk I/O error (simulated)")

    def m2(con: sqlite3.Connection) -> None:
        con.execute("INSERT INTO t VALUES (2)")

    db = tmp_path / "x.sqlite"
    con = sqlite3.connect(db)
    try:
        assert migrations.migrate(con, (m1,)) == [1]
        with pytest.raises(sqlite3.OperationalError, match="simulated"):
            migrations.migrate(con, (m1, m2_broken))
        assert con.execute("SELECT * FROM t").fetchall() == [], "the failed step's write was rolled back"
        assert migrations.pending(con, (m1, m2)) == [2]
        assert migrations.migrate(con, (m1, m2)) == [2]
        assert con.execute("SELECT * FROM t").fetchall() == [(2,)]
    finally:
        con.close()


def test_a_history_from_a_newer_lmscreen_is_refused_and_never_loses_the_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "history.sqlite"
    with history.connect(db):
        pass
    con = sqlite3.connect(db)
    con.execute("INSERT INTO _migrations VALUES (99, 'm099_from_the_future', '2031-01-01')")
    con.commit()
    con.close()
    with pytest.raises(InputError, match="newer lmscreen"):
        history.list_runs(path=db)
    monkeypatch.setenv("LMSCREEN_HOME", str(tmp_path))
    verdicts = pl.DataFrame({"row": [2], "code": ["600519.SH"], "risk_level": ["低"]})
    outcome = history.record_run_safely({"input": {"path": "p.csv"}, "options": {}}, verdicts)
    assert "newer lmscreen" in outcome["error"], "noted in run.json, not raised"
