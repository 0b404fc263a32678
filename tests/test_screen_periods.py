"""screen on an akshare-style half-year file: the console and run.json say what the ROE and PE are, and
--annualize-roe scales partial-year ROE with each row saying so in rules_fired."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import polars as pl

from inproc import run_lmscreen

# akshare stock_yjbb_em(date="20250630") columns, plus a 市盈率-动态 column as stock_zh_a_spot_em gives it.
HALF_YEAR = (
    "股票代码,股票简称,每股收益,净资产收益率,所处行业,报告期,市盈率-动态\n"
    "600519,贵州茅台,35.3,18.5,白酒,2025-06-30,20.1\n"
    "000001,平安银行,1.2,5.1,银行,2025-06-30,4.5\n"
    "300750,宁德时代,5.1,9.0,电池,2025-06-30,25.0\n"
)


def screen(pool: Path, out: Path, *extra: str) -> subprocess.CompletedProcess:
    cmd = [sys.executable, "-m", "lmscreen", "screen", str(pool), "--no-llm", "--out", str(out), *extra]
    proc = run_lmscreen(cmd[3:])  # in this process, fd 1 and 2 captured (tests/inproc.py)
    assert proc.returncode == 0, proc.stderr
    return proc


def test_partial_year_roe_and_dynamic_pe_are_announced(tmp_path: Path) -> None:
    pool = tmp_path / "yjbb.csv"
    pool.write_text(HALF_YEAR, encoding="utf-8")
    proc = screen(pool, tmp_path / "out")
    assert "ROE is a partial-year figure (2025H1: 3 rows" in proc.stderr
    assert "'市盈率-动态'" in proc.stderr and "not PE-TTM" in proc.stderr
    run = json.loads((tmp_path / "out" / "run.json").read_text(encoding="utf-8"))
    assert run["input"]["pe_basis"] == {
        "basis": "dynamic",
        "column": "市盈率-动态",
        "is_pe_ttm": False,
        "note": run["input"]["pe_basis"]["note"],
    }
    assert run["input"]["roe_period"]["partial_year"] is True
    assert run["input"]["roe_period"]["rows_per_period"] == {"2025H1": 3}
    assert run["input"]["roe_period"]["annualized"] is False
    results = pl.read_csv(tmp_path / "out" / "results.csv", infer_schema_length=0)
    assert results["roe"].to_list() == ["18.5", "5.1", "9.0"]
    assert results["pe_ttm"].to_list() == ["20.1", "4.5", "25.0"]  # no row loses its PE


def test_annualize_roe_scales_and_records_per_row(tmp_path: Path) -> None:
    pool = tmp_path / "yjbb.csv"
    pool.write_text(HALF_YEAR, encoding="utf-8")
    proc = screen(pool, tmp_path / "out", "--annualize-roe", "--jsonl")
    assert "ROE annualised on 3 rows (2025H1: 3" in proc.stderr
    rows = [json.loads(x) for x in (tmp_path / "out" / "results.jsonl").read_text("utf-8").splitlines()]
    assert [r["roe"] for r in rows] == [37.0, 10.2, 18.0]
    assert [r["roe_reported"] for r in rows] == [18.5, 5.1, 9.0]
    entry = {"rule": "roe_annualized", "field": "roe_reported", "threshold": None, "value": "18.5 2025H1 x2"}
    assert rows[0]["rules_fired"][0] == entry
    typed = pl.read_parquet(tmp_path / "out" / "results.parquet")
    assert typed["rules_fired"][0].to_list()[0] == entry
    text = pl.read_csv(tmp_path / "out" / "results.csv", infer_schema_length=0)["rules_fired"][0]
    assert text.startswith("roe_annualized(roe_reported=18.5 2025H1 x2)")
    # 5.1% half-year is 10.2% a year: no longer below the 5% "high" threshold.
    assert rows[1]["risk_level"] != "高"
    run = json.loads((tmp_path / "out" / "run.json").read_text(encoding="utf-8"))
    assert run["input"]["roe_period"]["annualized"] is True
    assert run["options"]["annualize_roe"] is True


# A third-quarter pool row (akshare 业绩报表 of 2024-09-30: ROE of the nine months) beside the report it
# came from, which prints the nine months' figures.
NINE_MONTHS_POOL = "股票代码,股票简称,净资产收益率,报告期,市盈率TTM\n600519,贵州茅台,26.1,2024-09-30,22.0\n"
NINE_MONTHS_REPORT = (
    "贵州茅台2024年前三季度报告（金额单位：人民币亿元）。公司前三季度实现营业收入1,231.23亿元，同比增长16.9%；"
    "归属于上市公司股东的净利润608.28亿元，同比增长15.0%。加权平均净资产收益率为26.10%，基本每股收益48.42元。\n"
)


def test_one_label_for_the_nine_months_in_run_json_and_results(tmp_path: Path) -> None:
    """run.json's `input.roe_period`, results' `roe_period` and results.jsonl's `document_period` (and
    each figure's period) spell the same period the same way: `2024Q1-Q3`, where `2024Q3` once meant the
    nine months in one file and the third quarter alone in the other. Uses the bundled model for one row."""
    pool = tmp_path / "yjbb.csv"
    pool.write_text(NINE_MONTHS_POOL, encoding="utf-8")
    reports = tmp_path / "reports"
    reports.mkdir()
    (reports / "600519.SH.txt").write_text(NINE_MONTHS_REPORT, encoding="utf-8")
    out = tmp_path / "out"
    cmd = [
        sys.executable,
        "-m",
        "lmscreen",
        "screen",
        str(pool),
        "--reports",
        str(reports),
        "--out",
        str(out),
    ]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=1800)
    assert proc.returncode == 0, proc.stderr
    run = json.loads((out / "run.json").read_text(encoding="utf-8"))
    assert run["input"]["roe_period"]["rows_per_period"] == {"2024Q1-Q3": 1}
    assert "2024Q1-Q3: 1 rows" in run["input"]["roe_period"]["note"]
    (row,) = [json.loads(x) for x in (out / "results.jsonl").read_text("utf-8").splitlines()]
    assert row["roe_period"] == "2024Q1-Q3"
    assert row["llm"]["document_period"] == "2024Q1-Q3"
    periods = {f["period"] for f in row["llm"]["fields"].values() if f["grounded"]}
    assert periods == {"2024Q1-Q3"}
    assert pl.read_csv(out / "results.csv", infer_schema_length=0)["roe_period"].to_list() == ["2024Q1-Q3"]
