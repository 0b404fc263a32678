"""A pool from efinance: the real-time quote list and the 业绩报表 of the last full year.

Why a second Eastmoney client: akshare and efinance reach Eastmoney through different endpoints
(push2 quote lists, datacenter reports), and when one is throttled or changes shape the other often still
answers; `pool fetch --source auto` asks it when akshare fails.

Calls: `efinance.stock.get_realtime_quotes()` (股票代码, 股票名称, 最新价, 动态市盈率) and
`efinance.stock.get_all_company_performance(date)` for the last full year (股票代码, 股票简称, 每股收益,
净资产收益率, 净利润) and the year before (净利润). Column names as efinance documents them; the tests replay
frames with these columns by patching the two functions. Units: 净利润 in 元, 净资产收益率 in percent.
PE: 动态市盈率 only (no whole-market EPS-TTM here), written as 市盈率-动态 so the loader says it is not TTM.
"""

from __future__ import annotations

import importlib
from typing import Any

import polars as pl

from lmscreen.errors import InputError
from lmscreen.pool.fetch.calls import Caller
from lmscreen.pool.fetch.frames import numbers, to_polars, with_codes
from lmscreen.pool.fetch.periods import Periods
from lmscreen.pool.fetch.table import SourceTable

VENDOR = "efinance"


def load_library() -> Any:
    try:
        return importlib.import_module("efinance")
    except ImportError as exc:
        raise InputError(
            "efinance is not installed: pip install 'lmscreen[data]' (or pip install efinance)"
        ) from exc


def _text(frame: pl.DataFrame, column: str) -> pl.Expr:
    return pl.col(column).cast(pl.String) if column in frame.columns else pl.lit(None, pl.String)


def fetch(caller: Caller, periods: Periods) -> SourceTable:
    ef = load_library()
    as_of = caller.as_of
    quotes = with_codes(
        caller.call("get_realtime_quotes", lambda: ef.stock.get_realtime_quotes(), to_polars), "股票代码"
    )
    fy, prev = periods.full_year, periods.full_year - 1

    def performance(period: str) -> pl.DataFrame:
        frame = caller.call(
            "get_all_company_performance",
            lambda **kw: ef.stock.get_all_company_performance(**kw),
            to_polars,
            date=f"{period[:4]}-{period[4:6]}-{period[6:]}",
        )
        return with_codes(frame, "股票代码")

    year = performance(periods.year_end(fy))
    year_before = performance(periods.year_end(prev))
    codes = pl.concat([quotes.select("code"), year.select("code")]).unique(maintain_order=True)
    table = (
        codes.join(
            quotes.select(
                "code",
                _text(quotes, "股票名称").alias("name"),
                numbers(quotes, "动态市盈率").alias("pe_dynamic"),
            ),
            on="code",
            how="left",
        )
        .join(
            year.select(
                "code",
                _text(year, "股票简称").alias("_name2"),
                numbers(year, "净资产收益率").alias("roe"),
                numbers(year, "每股收益").alias("eps"),
                numbers(year, "净利润").alias(f"net_profit_{fy}"),
            ),
            on="code",
            how="left",
        )
        .join(
            year_before.select("code", numbers(year_before, "净利润").alias(f"net_profit_{prev}")),
            on="code",
            how="left",
        )
        .with_columns(
            pl.coalesce("name", "_name2").alias("name"),
            pl.when(pl.col("roe").is_not_null()).then(pl.lit(f"{fy}-12-31")).alias("report_period"),
        )
    )
    perf = f"{VENDOR} get_all_company_performance"
    quote_call = f"{VENDOR} get_realtime_quotes()"
    sources = {
        "name": {"source": quote_call, "as_of": as_of},
        "pe_dynamic": {"source": f"{quote_call} 动态市盈率", "as_of": as_of, "unit": "ratio"},
        "roe": {"source": f"{perf}(date={fy}-12-31) 净资产收益率", "as_of": as_of, "unit": "%"},
        "report_period": {"source": f"period of the ROE ({fy}1231)", "as_of": as_of},
        "eps": {"source": f"{perf}(date={fy}-12-31) 每股收益", "as_of": as_of, "unit": "元"},
        f"net_profit_{fy}": {"source": f"{perf}(date={fy}-12-31) 净利润", "as_of": as_of, "unit": "元"},
        f"net_profit_{prev}": {"source": f"{perf}(date={prev}-12-31) 净利润", "as_of": as_of, "unit": "元"},
    }
    columns = ["code", "name", "pe_dynamic", "roe", "report_period", "eps", f"net_profit_{prev}"]
    columns.append(f"net_profit_{fy}")
    return SourceTable(frame=table.select(columns), sources=sources, calls=caller.log)
