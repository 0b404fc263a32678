"""A pool from akshare (Eastmoney): spot list, risk-warning board, 业绩报表 of the periods a date calls for.

Calls (all whole-market, five or six per build): `stock_zh_a_spot_em` (name, price, 市盈率-动态),
`stock_zh_a_st_em` (the ST / *ST board), `stock_yjbb_em(date)` for the last full year and the year before
(ROE, EPS, industry, net profit) and, when a later period is out, for it and the same period a year
earlier (EPS-TTM).

PE-TTM is not in any whole-market akshare frame, so it is computed, and the sidecar says how:
price / EPS-TTM, where EPS-TTM = EPS(latest period, cumulative) + EPS(last full year) - EPS(the same period
a year earlier); with no later period out, EPS-TTM is the full year's EPS. A loss-maker's PE-TTM is
negative, as Eastmoney prints it. The vendor's own 市盈率-动态 is kept beside it.
Units: 业绩报表 net profit is in 元 and ROE in percent, as the pool wants them.
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

VENDOR = "akshare"


def load_library() -> Any:
    try:
        return importlib.import_module("akshare")
    except ImportError as exc:
        raise InputError(
            "akshare is not installed: pip install 'lmscreen[data]' (or pip install akshare)"
        ) from exc


def _yjbb(caller: Caller, ak: Any, period: str) -> pl.DataFrame:
    frame = caller.call("stock_yjbb_em", lambda **kw: ak.stock_yjbb_em(**kw), to_polars, date=period)
    return with_codes(frame, "股票代码")


def fetch(caller: Caller, periods: Periods, roe_period: str = "full_year") -> SourceTable:
    """Build the canonical table; `roe_period` "latest" takes ROE from the latest period instead."""
    ak = load_library()
    as_of = caller.as_of
    spot = with_codes(caller.call("stock_zh_a_spot_em", lambda: ak.stock_zh_a_spot_em(), to_polars), "代码")
    st_board = with_codes(caller.call("stock_zh_a_st_em", lambda: ak.stock_zh_a_st_em(), to_polars), "代码")
    fy, prev = periods.full_year, periods.full_year - 1
    year = _yjbb(caller, ak, periods.year_end(fy))
    year_before = _yjbb(caller, ak, periods.year_end(prev))
    later = periods.latest != periods.year_end(fy)
    latest = _yjbb(caller, ak, periods.latest) if later else year
    latest_before = _yjbb(caller, ak, periods.same_period_year_before()) if later else None

    codes = pl.concat([spot.select("code"), year.select("code"), latest.select("code")]).unique(
        maintain_order=True
    )
    table = codes.join(
        spot.select(
            "code",
            pl.col("名称").cast(pl.String).alias("name")
            if "名称" in spot.columns
            else pl.lit(None).alias("name"),
            numbers(spot, "最新价").alias("_price"),
            numbers(spot, "市盈率-动态").alias("pe_dynamic"),
        ),
        on="code",
        how="left",
    )
    roe_source = latest if roe_period == "latest" else year
    roe_end = periods.latest if roe_period == "latest" else periods.year_end(fy)
    table = table.join(
        roe_source.select(
            "code",
            numbers(roe_source, "净资产收益率").alias("roe"),
            pl.col("所处行业").cast(pl.String).alias("industry")
            if "所处行业" in roe_source.columns
            else pl.lit(None, pl.String).alias("industry"),
            pl.col("股票简称").cast(pl.String).alias("_name2")
            if "股票简称" in roe_source.columns
            else pl.lit(None, pl.String).alias("_name2"),
        ),
        on="code",
        how="left",
    )
    table = table.join(year.select("code", numbers(year, "每股收益").alias("eps")), on="code", how="left")
    for y, frame in ((prev, year_before), (fy, year)):
        table = table.join(
            frame.select("code", numbers(frame, "净利润-净利润").alias(f"net_profit_{y}")),
            on="code",
            how="left",
        )
    eps_ttm = pl.col("eps")
    if later and latest_before is not None:
        table = table.join(
            latest.select("code", numbers(latest, "每股收益").alias("_eps_latest")), on="code", how="left"
        ).join(
            latest_before.select("code", numbers(latest_before, "每股收益").alias("_eps_before")),
            on="code",
            how="left",
        )
        eps_ttm = pl.col("_eps_latest") + pl.col("eps") - pl.col("_eps_before")
    st_codes = (
        st_board.get_column("code").implode() if not st_board.is_empty() else pl.lit([], pl.List(pl.String))
    )
    table = table.with_columns(
        pl.coalesce("name", "_name2").alias("name"),
        pl.when(eps_ttm.is_not_null() & (eps_ttm != 0))
        .then(pl.col("_price") / eps_ttm)
        .round(2)
        .alias("pe_ttm"),
        pl.when(pl.col("code").is_in(st_codes)).then(pl.lit("是")).otherwise(pl.lit("否")).alias("st"),
        pl.when(pl.col("roe").is_not_null()).then(pl.lit(_iso(roe_end))).alias("report_period"),
    )
    columns = ["code", "name", "industry", "pe_ttm", "pe_dynamic", "roe", "report_period", "eps", "st"]
    columns += [f"net_profit_{prev}", f"net_profit_{fy}"]
    spot_call = f"{VENDOR} stock_zh_a_spot_em()"
    ttm_how = (
        f"最新价 ({spot_call}) / EPS-TTM; EPS-TTM = EPS {periods.latest} + EPS {periods.year_end(fy)} "
        f"- EPS {periods.same_period_year_before()} ({VENDOR} stock_yjbb_em)"
        if later
        else f"最新价 ({spot_call}) / EPS {periods.year_end(fy)} ({VENDOR} stock_yjbb_em)"
    )
    yj = f"{VENDOR} stock_yjbb_em"
    sources = {
        "name": {"source": spot_call, "as_of": as_of},
        "industry": {"source": f"{yj}(date={roe_end}) 所处行业", "as_of": as_of},
        "pe_ttm": {"source": f"computed: {ttm_how}", "as_of": as_of, "unit": "ratio"},
        "pe_dynamic": {"source": f"{spot_call} 市盈率-动态", "as_of": as_of, "unit": "ratio"},
        "roe": {"source": f"{yj}(date={roe_end}) 净资产收益率", "as_of": as_of, "unit": "%"},
        "report_period": {"source": f"period of the ROE ({roe_end})", "as_of": as_of},
        "eps": {"source": f"{yj}(date={periods.year_end(fy)}) 每股收益", "as_of": as_of, "unit": "元"},
        "st": {"source": f"{VENDOR} stock_zh_a_st_em() membership", "as_of": as_of},
        f"net_profit_{fy}": {
            "source": f"{yj}(date={periods.year_end(fy)}) 净利润-净利润",
            "as_of": as_of,
            "unit": "元",
        },
        f"net_profit_{prev}": {
            "source": f"{yj}(date={periods.year_end(prev)}) 净利润-净利润",
            "as_of": as_of,
            "unit": "元",
        },
    }
    notes: list[str] = []
    if table.get_column("pe_ttm").is_null().all():
        columns.remove("pe_ttm")
        notes.append(
            "no PE-TTM could be computed (no EPS for the periods it needs); 市盈率-动态 written instead"
        )
    return SourceTable(frame=table.select(columns), sources=sources, calls=caller.log, notes=notes)


def _iso(period: str) -> str:
    return f"{period[:4]}-{period[4:6]}-{period[6:]}"
