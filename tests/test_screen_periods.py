"""screen on an akshare-style half-year file: the console and run.json say what the ROE and PE are, and
--annualize-roe scales partial-year ROE with each row saying so in rules_fired."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import polars as pl

# akshare stock_yjbb_em(date="20250630") columns, plus a 市盈率-动态 column as stock_zh_a_spot_em gives it.
HALF_YEAR = (
    "股票代码,股票简称,每股收益,净资产收益率,所处行业,报告期,市盈率-动态\n"
    "600519,贵州茅台,35.3,18.5,白酒,2025-06-30,20.1\n"
    "000001,平安银行,1.2,5.1,银行,2025-06-30,4.5\n"
    "300750,宁德时代,5.1,9.0,电池,2025-06-30,25.0\n"
)


def screen(pool: Path, out: Path, *extra: str) -> subprocess.CompletedProcess:
    cmd = [sys.executable, "-m", "lmscreen", "screen", str(pool), "--no-llm", "--out", str(out), *extra]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
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
