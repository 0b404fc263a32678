"""Run history and diff through the real CLI: two runs of one pool that differ in two codes and one ROE."""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest

from inproc import run_lmscreen

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "pool.csv"


def lmscreen(
    *args: str, env: dict[str, str], check: bool = True, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    if args == ("--help",):  # the group's help names the database as the process found it at start
        cmd = [sys.executable, "-m", "lmscreen", *args]
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600, env=env, cwd=cwd)
    else:
        proc = run_lmscreen(args, env=env, cwd=cwd)  # in this process, fd 1 and 2 captured (tests/inproc.py)
    if check and proc.returncode != 0:
        raise AssertionError(f"exit {proc.returncode}\nstdout:{proc.stdout}\nstderr:{proc.stderr}")
    return proc


def _write(path: Path, rows: list[list[str]]) -> None:
    with path.open("w", encoding="utf-8", newline="") as fh:
        csv.writer(fh).writerows(rows)


@pytest.fixture(scope="module")
def two_runs(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, str], Path, Path]:
    """Night 1 and night 2 of the same pool file: 000001 dropped, 600036 added, 000858's ROE 24.95 -> 9.5."""
    tmp_path = tmp_path_factory.mktemp("nights")
    env = {**os.environ, "LMSCREEN_HOME": str(tmp_path / "home")}
    head = ["代码", "名称", "行业", "市盈率TTM", "净资产收益率"]
    common = [
        ["600519", "贵州茅台", "白酒", "20.5", "36.02"],
        ["300750", "宁德时代", "电池", "22.6", "24.68"],
        ["688981", "中芯国际", "半导体", "180.4", "2.49"],
    ]
    pool = tmp_path / "pool.csv"
    _write(
        pool,
        [
            head,
            *common,
            ["000858", "五粮液", "白酒", "14.2", "24.95"],
            ["000001", "平安银行", "银行", "4.8", "10.08"],
        ],
    )
    # Run from the pool's folder with a relative path, as a cron job would; reports are re-rendered elsewhere.
    lmscreen("screen", "pool.csv", "--out", "night1", "--no-llm", "--quiet", env=env, cwd=tmp_path)
    _write(
        pool,
        [
            head,
            *common,
            ["000858", "五粮液", "白酒", "14.2", "9.5"],
            ["600036", "招商银行", "银行", "7.1", "14.49"],
        ],
    )
    lmscreen("screen", "pool.csv", "--out", "night2", "--no-llm", "--quiet", env=env, cwd=tmp_path)
    return env, pool, tmp_path


def test_diff_reports_exactly_the_changes(two_runs: tuple[dict[str, str], Path, Path]) -> None:
    env, pool, tmp = two_runs
    data = json.loads(lmscreen("diff", "1", "2", "--json", env=env).stdout)
    assert [c["code"] for c in data["changed"]] == ["000858.SZ"]
    change = data["changed"][0]
    assert (change["risk_level_a"], change["risk_level_b"]) == ("低", "中")
    assert (change["roe_a"], change["roe_b"]) == (24.95, 9.5)
    assert change["score_a"] > change["score_b"]
    assert [c["code"] for c in data["added"]] == ["600036.SH"]
    assert [c["code"] for c in data["dropped"]] == ["000001.SZ"]
    assert data["run_a"]["id"] == 1 and data["run_b"]["id"] == 2

    table = lmscreen("diff", "1", "2", env=env).stdout
    for code in ("000858.SZ", "600036.SH", "000001.SZ"):
        assert code in table
    for same in ("600519.SH", "300750.SZ", "688981.SH"):
        assert same not in table, "an unchanged stock is not listed"
    # An OUT folder names its latest run.
    assert (
        json.loads(lmscreen("diff", str(tmp / "night1"), str(tmp / "night2"), "--json", env=env).stdout)
        == data
    )


def test_reports_show_changes_since_the_previous_run(two_runs: tuple[dict[str, str], Path, Path]) -> None:
    env, pool, tmp = two_runs
    md = (tmp / "night2" / "report.md").read_text(encoding="utf-8")
    changes = md.split("## 与上次运行相比", 1)[1]
    assert "000858.SZ" in changes and "低 → 中" in changes and "24.95 → 9.5" in changes
    assert "600036.SH" in changes and "000001.SZ" in changes and "600519.SH" not in changes
    first = (tmp / "night1" / "report.md").read_text(encoding="utf-8")
    assert "该股票池没有更早的运行记录" in first
    html = (tmp / "night2" / "report.html").read_text(encoding="utf-8")
    assert "000858.SZ" in html.split('id="changes"', 1)[1].split("</section>", 1)[0]
    # `report OUT_DIR` re-renders the same changes (from the history), in English on request.
    lmscreen("report", str(tmp / "night2"), "--lang", "en", env=env)
    md_en = (tmp / "night2" / "report.md").read_text(encoding="utf-8")
    assert "Changes since the previous run" in md_en and "Low → Medium" in md_en


def test_history_lists_runs_and_help_names_the_database(two_runs: tuple[dict[str, str], Path, Path]) -> None:
    env, pool, tmp = two_runs
    data = json.loads(lmscreen("history", "--json", env=env).stdout)
    assert [r["id"] for r in data["runs"]] == [2, 1]
    assert data["runs"][0]["pool_path"] == str(pool.resolve())
    assert data["runs"][0]["levels"] == {"低": 2, "中": 2, "高": 1}
    assert data["runs"][0]["engine"] == "none (--no-llm)"
    assert data["db"] == str(tmp / "home" / "history.sqlite")
    table = lmscreen("history", env=env).stdout
    assert "pool.csv" in table
    assert str(tmp / "home" / "history.sqlite") in lmscreen("--help", env=env).stdout
    run = json.loads((tmp / "night2" / "run.json").read_text(encoding="utf-8"))
    assert run["history"]["run_id"] == 2


def test_unknown_run_and_missing_history_exit_2(tmp_path: Path) -> None:
    env = {**os.environ, "LMSCREEN_HOME": str(tmp_path / "empty")}
    proc = lmscreen("diff", "1", "2", env=env, check=False)
    assert proc.returncode == 2 and "no run history" in proc.stderr
    proc = lmscreen("history", env=env, check=False)
    assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1


def test_a_broken_history_never_loses_the_run(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / "history.sqlite").write_bytes(b"this is not a database" * 100)
    env = {**os.environ, "LMSCREEN_HOME": str(home)}
    proc = lmscreen("screen", str(EXAMPLE), "--out", str(tmp_path / "o"), "--no-llm", "--quiet", env=env)
    assert "not recorded in the history" in proc.stderr
    run = json.loads((tmp_path / "o" / "run.json").read_text(encoding="utf-8"))
    assert "error" in run["history"] and (tmp_path / "o" / "report.html").is_file()


def test_results_csv_neutralises_formulas(tmp_path: Path) -> None:
    env = {**os.environ, "LMSCREEN_HOME": str(tmp_path / "home")}
    pool = tmp_path / "pool.csv"
    _write(
        pool,
        [
            ["代码", "名称", "行业", "市盈率TTM", "净资产收益率"],
            ["600519", '=HYPERLINK("http://x","贵州茅台")', "+cmd|' /C calc'!A0", "-12.5", "36"],
            ["000858", "@SUM(A1:A2)", "-银行", "14.2", "-3"],
            ["300750", "宁德时代", "电池", "22.6", "24.68"],
        ],
    )
    lmscreen("screen", str(pool), "--out", str(tmp_path / "o"), "--no-llm", "--quiet", env=env)
    with (tmp_path / "o" / "results.csv").open(encoding="utf-8-sig", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert rows[0]["name"] == '\'=HYPERLINK("http://x","贵州茅台")'
    assert rows[0]["industry"] == "'+cmd|' /C calc'!A0"
    assert rows[0]["pe_ttm"] == "-12.5", "a negative number stays a number"
    assert rows[1]["name"] == "'@SUM(A1:A2)" and rows[1]["industry"] == "'-银行" and rows[1]["roe"] == "-3.0"
    assert rows[2]["name"] == "宁德时代"
    for row in rows:
        for value in row.values():
            assert not (value[:1] in "=+-@" and value[:1] and not _is_number(value)), value
    # results.parquet keeps the values as given (no spreadsheet runs it).
    first = pl.read_parquet(tmp_path / "o" / "results.parquet").row(0, named=True)
    assert first["name"].startswith("=HYPERLINK")


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True
