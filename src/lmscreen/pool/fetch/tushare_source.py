"""A pool from tushare Pro: stock_basic, daily_basic of the as-of trading day, fina_indicator_vip and
income_vip of the last two full years.

Calls go through `pro.query(api_name, ...)` (what every `pro.<api>()` method calls), five or six per build.
daily_basic is asked for the as-of date and, if that was not a trading day, up to nine days before it.
Units (tushare docs doc_id 32, 79, 33): `pe` / `pe_ttm` are ratios and are EMPTY for loss-makers (a null PE
here means "loss-making or not available", never zero); `roe` is percent; `n_income_attr_p` is in 元.
When the frame has no `pe_ttm` (older data, fewer points), `pe` (总市值/净利润 of the last annual report)
is written as static PE, so the loader says it is not PE-TTM. fina_indicator_vip and income_vip need 5000
points; with fewer, tushare answers with an error message and the build stops with that line.
"""

from __future__ import annotations

import importlib
from datetime import date, timedelta
from typing import Any

import polars as pl

from lmscreen.errors import InputError
from lmscreen.pool.fetch.calls import Caller
from lmscreen.pool.fetch.frames import numbers, to_polars, with_codes
from lmscreen.pool.fetch.periods import Periods
from lmscreen.pool.fetch.table import SourceTable

VENDOR = "tushare"
TRADING_DAY_TRIES = 10


def load_api(token: str | None) -> Any:
    if not token:
        raise InputError("tushare needs a token: --token TOKEN or the TUSHARE_TOKEN environment variable")
    try:
        tushare = importlib.import_module("tushare")
    except ImportError as exc:
        raise InputError(
            "tushare is not installed: pip install 'lmscreen[data]' (or pip install tushare)"
        ) from exc
    return tushare.pro_api(token)


def fetch(caller: Caller, periods: Periods, as_of: date, token: str | None) -> SourceTable:
    pro = load_api(token)

    def query(api: str, **kwargs: Any) -> pl.DataFrame:
        return caller.call(api, lambda **kw: pro.query(api, **kw), to_polars, **kwargs)

    basic = with_codes(query("stock_basic", list_status="L", fields="ts_code,name,industry"), "ts_code")
    daily = pl.DataFrame()
    trade_date = as_of
    for back in range(TRADING_DAY_TRIES):
        trade_date = as_of - timedelta(days=back)
        daily = query(
            "daily_basic",
            trade_date=trade_date.strftime("%Y%m%d"),
            fields="ts_code,trade_date,close,pe,pe_ttm",
        )
        if not daily.is_empty():
            break
    daily = with_codes(daily, "ts_code")
    fy, prev = periods.full_year, periods.full_year - 1
    fina = with_codes(
        query("fina_indicator_vip", period=periods.year_end(fy), fields="ts_code,end_date,eps,roe"), "ts_code"
    )
    profits = {
        y: with_codes(
            query("income_vip", period=periods.year_end(y), fields="ts_code,end_date,n_income_attr_p"),
            "ts_code",
        )
        for y in (prev, fy)
    }
    codes = pl.concat([f.select("code") for f in (basic, daily, fina)]).unique(maintain_order=True)
    has_ttm = "pe_ttm" in daily.columns and daily.get_column("pe_ttm").is_not_null().any()
    pe_column = "pe_ttm" if has_ttm else "pe_static"
    name = pl.col("name").cast(pl.String) if "name" in basic.columns else pl.lit(None, pl.String)
    industry = pl.col("industry").cast(pl.String) if "industry" in basic.columns else pl.lit(None, pl.String)
    table = (
        codes.join(
            basic.select("code", name.alias("name"), industry.alias("industry")), on="code", how="left"
        )
        .join(
            daily.select("code", numbers(daily, "pe_ttm" if has_ttm else "pe").alias(pe_column)),
            on="code",
            how="left",
        )
        .join(
            fina.select("code", numbers(fina, "roe").alias("roe"), numbers(fina, "eps").alias("eps")),
            on="code",
            how="left",
        )
    )
    for y in (prev, fy):
        frame = profits[y]
        table = table.join(
            frame.select("code", numbers(frame, "n_income_attr_p").alias(f"net_profit_{y}")),
            on="code",
            how="left",
        )
    roe_end = periods.year_end(fy)
    table = table.with_columns(
        pl.when(pl.col("roe").is_not_null()).then(pl.lit(f"{roe_end[:4]}-12-31")).alias("report_period")
    )
    stamp = caller.as_of
    day = trade_date.strftime("%Y%m%d")
    sources = {
        "name": {"source": f"{VENDOR} stock_basic name", "as_of": stamp},
        "industry": {"source": f"{VENDOR} stock_basic industry", "as_of": stamp},
        pe_column: {
            "source": f"{VENDOR} daily_basic(trade_date={day}) {'pe_ttm' if has_ttm else 'pe'}",
            "as_of": day,
            "unit": "ratio",
            "note": "empty for loss-makers (tushare leaves a loss-maker's PE blank)",
        },
        "roe": {"source": f"{VENDOR} fina_indicator_vip(period={roe_end}) roe", "as_of": stamp, "unit": "%"},
        "report_period": {"source": f"period of the ROE ({roe_end})", "as_of": stamp},
        "eps": {"source": f"{VENDOR} fina_indicator_vip(period={roe_end}) eps", "as_of": stamp, "unit": "元"},
    }
    for y in (prev, fy):
        sources[f"net_profit_{y}"] = {
            "source": f"{VENDOR} income_vip(period={periods.year_end(y)}) n_income_attr_p",
            "as_of": stamp,
            "unit": "元",
        }
    columns = ["code", "name", "industry", pe_column, "roe", "report_period", "eps"]
    columns += [f"net_profit_{prev}", f"net_profit_{fy}"]
    notes = [] if has_ttm else [f"daily_basic({day}) has no pe_ttm: pe written as static PE (市盈率(静))"]
    return SourceTable(frame=table.select(columns), sources=sources, calls=caller.log, notes=notes)
