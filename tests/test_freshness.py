"""Freshness on every row: an ROE of an earlier period than the latest due one, or a PE older than the
tolerance by the pool's sidecar, is flagged `stale:<field>` with its date in results.jsonl, and counted in
run.json and report.html's summary."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import date, timedelta
from pathlib import Path

import polars as pl
import pytest

from inproc import run_lmscreen
from lmscreen.periods import full_year_due, latest_due
from lmscreen.pool.freshness import Freshness, freshness_for, mark_stale
from lmscreen.pool.trading import days_between, is_trading_day

TODAY = date.today()


def _iso(label_end: date) -> str:
    return label_end.isoformat()


def _pool(tmp_path: Path) -> Path:
    """Three rows: the latest due period, the full year due, and one period earlier than the latest due."""
    latest = latest_due(TODAY).end
    assert latest is not None
    earlier = latest_due(latest - timedelta(days=1)).end  # the period before the latest due one
    assert earlier is not None and earlier < latest
    fy = date(full_year_due(TODAY), 12, 31)
    text = (
        "代码,名称,净资产收益率(%),报告期,市盈率TTM\n"
        f"600519,贵州茅台,18.5,{_iso(latest)},20.1\n"
        f"000001,平安银行,10.1,{_iso(fy)},4.5\n"
        f"300750,宁德时代,9.0,{_iso(earlier)},25.0\n"
    )
    pool = tmp_path / "pool.csv"
    pool.write_text(text, encoding="utf-8")
    return pool


def _screen(pool: Path, out: Path, *extra: str) -> subprocess.CompletedProcess:
    # --jsonl: a rules-only run writes results.jsonl (which holds stale_as_of) only when asked.
    cmd = [sys.executable, "-m", "lmscreen", "screen", str(pool), "--no-llm", "--jsonl", "--out", str(out)]
    cmd += extra
    proc = run_lmscreen(cmd[3:])  # in this process, fd 1 and 2 captured (tests/inproc.py)
    assert proc.returncode == 0, proc.stderr
    return proc


def test_roe_of_an_earlier_period_is_flagged_and_counted(tmp_path: Path) -> None:
    out = tmp_path / "out"
    proc = _screen(_pool(tmp_path), out, "--max-age", "0")
    rows = [json.loads(x) for x in (out / "results.jsonl").read_text("utf-8").splitlines()]
    flags = [set((r["flags"] or "").split(";")) for r in rows]
    assert ["stale:roe" in f for f in flags] == [False, False, True]
    assert rows[2]["stale_as_of"].startswith("roe=") and rows[0]["stale_as_of"] is None
    assert "no_llm" in flags[2]  # the token is added beside the others, not in their place
    run = json.loads((out / "run.json").read_text("utf-8"))
    assert run["counts"]["stale"] == {"roe": 1}
    assert run["counts"]["flags"]["stale:roe"] == 1
    assert run["input"]["freshness"]["max_age_days"] == 0
    assert "stale fields (rows): roe 1" in proc.stderr
    page = (out / "report.html").read_text("utf-8")
    assert "stale:roe" in page and "数据过期" in page
    csv = pl.read_csv(out / "results.csv", infer_schema_length=0)
    assert "stale:roe" in csv["flags"][2] and "stale_as_of" not in csv.columns


def test_sidecar_pe_date_older_than_max_age_flags_every_row_with_a_pe(tmp_path: Path) -> None:
    pool = _pool(tmp_path)
    old = TODAY - timedelta(days=30)
    sidecar = {"columns": {"市盈率TTM": {"field": "pe_ttm", "as_of": old.isoformat()}}}
    pool.with_name(pool.name + ".sources.json").write_text(json.dumps(sidecar), encoding="utf-8")
    out = tmp_path / "out"
    _screen(pool, out, "--max-age", "0")
    rows = [json.loads(x) for x in (out / "results.jsonl").read_text("utf-8").splitlines()]
    assert all("stale:pe_ttm" in r["flags"] for r in rows)
    assert f"pe_ttm={old.isoformat()}" in rows[0]["stale_as_of"]
    run = json.loads((out / "run.json").read_text("utf-8"))
    assert run["counts"]["stale"] == {"pe_ttm": 3, "roe": 1}


def test_a_fresh_sidecar_and_a_wide_max_age_flag_nothing(tmp_path: Path) -> None:
    pool = _pool(tmp_path)
    sidecar = {"columns": {"市盈率TTM": {"as_of": TODAY.isoformat()}}}
    pool.with_name(pool.name + ".sources.json").write_text(json.dumps(sidecar), encoding="utf-8")
    fresh = freshness_for(pool, TODAY, max_age_days=400)
    frame = pl.DataFrame(
        {"roe": [1.0], "roe_period": [latest_due(TODAY - timedelta(days=200)).label()], "pe_ttm": [3.0]}
    )
    marked = mark_stale(frame.with_columns(pl.lit("no_llm").alias("flags")), fresh)
    assert marked["flags"].to_list() == ["no_llm"] and marked["stale_as_of"].to_list() == [None]


def test_full_year_is_held_to_the_last_full_year_due() -> None:
    fresh = Freshness(today=date(2026, 12, 2), max_age_days=0)
    assert not fresh.roe_label_is_stale("FY2025")
    assert not fresh.roe_label_is_stale("2026Q1-Q3")
    assert fresh.roe_label_is_stale("2026H1")
    assert fresh.roe_label_is_stale("FY2024")
    # with ten days' grace, on 2026-11-05 the Q1-Q3 reports (due 31 October) are not yet expected
    assert not Freshness(today=date(2026, 11, 5), max_age_days=10).roe_label_is_stale("2026H1")


def test_trading_days_come_from_the_exchange_calendar() -> None:
    pytest.importorskip("exchange_calendars")
    assert is_trading_day(date(2026, 10, 1)) is False  # National Day
    assert is_trading_day(date(2026, 12, 5)) is False  # a Saturday
    assert is_trading_day(date(2026, 12, 2)) is True
    # Friday 2026-11-27 to Monday 2026-11-30: one trading day, four calendar days
    assert days_between(date(2026, 11, 27), date(2026, 11, 30)) == 1


def test_trading_days_only_does_nothing_on_a_holiday(tmp_path: Path) -> None:
    pytest.importorskip("exchange_calendars")
    out = tmp_path / "out"
    cmd = [sys.executable, "-m", "lmscreen", "screen", str(_pool(tmp_path)), "--no-llm", "--out", str(out)]
    holiday = subprocess.run(
        [*cmd, "--trading-days-only", "--as-of", "2026-10-01"], capture_output=True, text=True, timeout=300
    )
    assert holiday.returncode == 0, holiday.stderr
    assert (
        holiday.stderr.strip() == "2026-10-01 is not a trading day (exchange_calendars XSHG): nothing to do"
    )
    assert not out.exists()
    fetch = subprocess.run(
        [sys.executable, "-m", "lmscreen", "pool", "fetch", "--out", str(tmp_path / "p.csv")]
        + ["--as-of", "2026-10-03", "--trading-days-only", "--no-cache"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert fetch.returncode == 0 and "2026-10-03 is not a trading day" in fetch.stderr
    assert not (tmp_path / "p.csv").exists()
    workday = subprocess.run(
        [*cmd, "--trading-days-only", "--as-of", "2026-12-02"], capture_output=True, text=True, timeout=300
    )
    assert workday.returncode == 0 and (out / "results.csv").is_file()
    run = json.loads((out / "run.json").read_text("utf-8"))
    assert run["input"]["freshness"]["today"] == "2026-12-02"


def _past_the_end() -> tuple[date, date, date]:
    """The calendar's last session, the first Saturday after it and the Monday after that: dates past the
    maintained range whatever release is installed (4.13.2 ends 2026-12-31)."""
    from lmscreen.pool.trading import last_day

    end = last_day()
    assert end is not None
    saturday = end + timedelta(days=(5 - end.weekday()) % 7 or 7)
    return end, saturday, saturday + timedelta(days=2)


def test_past_the_calendars_end_weekends_are_closed_weekdays_open_warned_once(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("exchange_calendars")
    from lmscreen.pool import trading

    monkeypatch.setattr(trading, "_warned", set())
    end, saturday, monday = _past_the_end()
    assert is_trading_day(saturday) is False and is_trading_day(saturday + timedelta(days=1)) is False
    assert is_trading_day(monday) is True
    # the calendar's sessions up to its end, then weekdays: the Monday is 1 weekday after the Friday
    assert days_between(monday - timedelta(days=3), monday) == 1
    last_week = end - timedelta(days=7)
    inside = days_between(last_week, end)
    assert 0 < inside <= 5 and days_between(last_week, monday) == inside + trading._weekdays(end, monday)
    err = capsys.readouterr().err
    assert err.count("warning:") == 1, err
    assert f"ends {end.isoformat()}" in err and "weekdays as open" in err
    assert trading.closed_day_line(saturday) == (
        f"{saturday.isoformat()} is not a trading day (a weekend; exchange_calendars XSHG ends "
        f"{end.isoformat()}): nothing to do"
    )
    assert trading.closed_day_line(monday) is None


def test_trading_days_only_past_the_calendars_end_does_not_exit_2(tmp_path: Path) -> None:
    pytest.importorskip("exchange_calendars")
    end, saturday, monday = _past_the_end()
    out = tmp_path / "out"
    cmd = [sys.executable, "-m", "lmscreen", "screen", str(_pool(tmp_path)), "--no-llm", "--out", str(out)]
    weekend = subprocess.run(
        [*cmd, "--trading-days-only", "--as-of", saturday.isoformat()],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert weekend.returncode == 0, weekend.stderr
    lines = weekend.stderr.strip().splitlines()
    assert lines[-1].startswith(f"{saturday.isoformat()} is not a trading day (a weekend;")
    assert [x for x in lines if x.startswith("warning:")] == lines[:1]
    assert not out.exists()
    fetch = subprocess.run(
        [sys.executable, "-m", "lmscreen", "pool", "fetch", "--out", str(tmp_path / "p.csv")]
        + ["--as-of", saturday.isoformat(), "--trading-days-only", "--no-cache"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert fetch.returncode == 0 and "is not a trading day (a weekend;" in fetch.stderr
    assert not (tmp_path / "p.csv").exists()
    # a PE of the calendar's last day: the freshness check counts trading days across the end
    sidecar = {"columns": {"市盈率TTM": {"field": "pe_ttm", "as_of": end.isoformat()}}}
    (tmp_path / "pool.csv.sources.json").write_text(json.dumps(sidecar), encoding="utf-8")
    workday = subprocess.run(
        [*cmd, "--trading-days-only", "--as-of", monday.isoformat()],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert workday.returncode == 0, workday.stderr
    assert (out / "results.csv").is_file()
    run = json.loads((out / "run.json").read_text("utf-8"))
    from lmscreen.pool.trading import _weekdays

    # counted as weekdays after the end (4.13.2: Friday 1 January and Monday, 2), held to --max-age 3
    assert ("pe_ttm" in run["counts"]["stale"]) is (_weekdays(end, monday) > 3)
    # the calendar is read by --trading-days-only and again by the freshness check: one warning
    assert workday.stderr.count(f"calendar ends {end.isoformat()}") == 1, workday.stderr
