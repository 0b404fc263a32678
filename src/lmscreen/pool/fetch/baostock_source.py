"""A pool from baostock (证券宝, its own servers, no account): the stock list, then PE-TTM and ROE per stock.

Why a third source: akshare and efinance both reach Eastmoney, so an Eastmoney ban or an overseas IP refused
takes both down at once; baostock answers from its own servers over its own socket protocol.

baostock has no whole-market quote or report frame, so after two whole-market calls it asks per stock:
- `query_stock_basic()`: every security (code `sh.600000`, code_name, type, status); kept: type 1 (stock),
  status 1 (listed).
- `query_stock_industry()`: every stock's 证监会 industry.
- per stock, `query_history_k_data_plus(code, "date,code,close,peTTM,isST", start_date, end_date,
  frequency="d", adjustflag="3")` over the 14 days up to the as-of date: the last bar's peTTM (滚动市盈率,
  a ratio) and isST (1/0). Its date is the PE's as-of date.
- per stock, `query_profit_data(code, year, quarter=4)` for the last full year (roeAvg, epsTTM, netProfit,
  statDate) and the year before (netProfit). roeAvg comes as a fraction (0.33 for 33%) and is written in
  percent; netProfit is in 元.
So a whole-market build makes about three calls per stock (some 15,000): `--source auto` asks baostock only
for the field groups the sources before it left missing (`wanted`), and every call goes through the Caller
(pacing, retries, the breaker, the day's cache, so a rerun the same day asks nothing again). The sidecar
lists the per-stock calls once per kind, with their count, not 5,000 times.

Login and logout: every query needs a session. It is opened on the first call that reaches the server (a
day's cached frames need none), opened again after a failed call (a dropped session answers 10001001),
and closed when the fetch ends, however it ends. baostock prints to stdout ("login success!"); that is
swallowed, since its error codes and messages say the same and are kept. Its socket gets a timeout
(SOCKET_TIMEOUT_S) so a silent network fails over instead of hanging.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import socket
from collections.abc import Collection, Iterator
from datetime import date, timedelta
from typing import Any

import polars as pl

from lmscreen.errors import InputError
from lmscreen.pool.fetch.calls import Caller
from lmscreen.pool.fetch.frames import numbers, to_polars, with_codes
from lmscreen.pool.fetch.periods import Periods
from lmscreen.pool.fetch.table import SourceTable

VENDOR = "baostock"
K_FIELDS = "date,code,close,peTTM,isST"
PE_WINDOW_DAYS = 14
"""How far back the last bar is looked for (a holiday week, a short suspension)."""
PE_FIELDS = frozenset({"pe_ttm", "pe_dynamic", "pe_static"})
NETWORK_ERRORS = "100020"
"""baostock's error codes 10002001-10002008: socket errors (connect, send, receive failed or timed out)."""
NO_DATA_ERRORS = frozenset({"10004011", "10004013", "10004015"})
"""Per-stock answers that mean "nothing for this stock" (an invalid code, a date beyond what baostock holds,
a market it does not serve, such as some Beijing listings): the stock's cells stay empty, the fetch goes on,
and a note counts them. Any other error code fails the call (retries, breaker)."""
SOCKET_TIMEOUT_S = 30.0
"""Seconds a baostock socket waits for the server (it sets none itself)."""
PER_STOCK_CALLS = ("query_history_k_data_plus", "query_profit_data")


def load_library() -> Any:
    try:
        return importlib.import_module("baostock")
    except ImportError as exc:
        raise InputError(
            "baostock is not installed: pip install 'lmscreen[data]' (or pip install baostock)"
        ) from exc


@contextlib.contextmanager
def _quiet() -> Iterator[None]:
    """baostock prints its progress to stdout; the results' error codes carry the same news."""
    with contextlib.redirect_stdout(io.StringIO()):
        yield


def _check(result: Any, what: str) -> None:
    code = str(getattr(result, "error_code", ""))
    if code != "0":
        message = " ".join(str(getattr(result, "error_msg", "")).split()) or "no message"
        if code.startswith(NETWORK_ERRORS):
            message += " (a network error)"  # calls.py then adds its no-network hint
        raise RuntimeError(f"baostock {what} answered error {code}: {message}")


def _with_timeout(login: Any) -> Any:
    """`login()` with a socket timeout: baostock opens its socket there without one, so a network that
    drops packets would hang a nightly job for good instead of failing over."""
    before = socket.getdefaulttimeout()
    socket.setdefaulttimeout(SOCKET_TIMEOUT_S)
    try:
        return login()
    finally:
        socket.setdefaulttimeout(before)


class Session:
    """One baostock login for a fetch: opened lazily, reopened after a failure, closed by `close`."""

    def __init__(self, bs: Any) -> None:
        self.bs = bs
        self.open = False
        self.no_data: dict[str, str] = {}
        """Stocks a per-stock query answered NO_DATA_ERRORS for: baostock code -> the error."""

    def query(self, function: str, per_stock: bool = False, **kwargs: Any) -> Any:
        """`bs.<function>(**kwargs)` as a pandas DataFrame (None: nothing for this stock); raises on a login
        or query error code."""
        try:
            with _quiet():
                if not self.open:
                    _check(_with_timeout(self.bs.login), "login")
                    self.open = True
                result = getattr(self.bs, function)(**kwargs)
                code = str(getattr(result, "error_code", ""))
                if per_stock and code in NO_DATA_ERRORS:
                    self.no_data[str(kwargs.get("code"))] = (
                        f"{code} {getattr(result, 'error_msg', '')}".strip()
                    )
                    return None
                _check(result, function)
                return result.get_data()
        except Exception:
            self.close()  # the next try logs in again
            raise

    def close(self) -> None:
        if not self.open:
            return
        self.open = False
        with _quiet(), contextlib.suppress(Exception):  # a failed logout loses nothing
            self.bs.logout()


def fetch(
    caller: Caller, periods: Periods, as_of: date, wanted: Collection[str] | None = None
) -> SourceTable:
    """The canonical table; `wanted` (field names) limits the per-stock calls to the groups still missing
    (PE fields: the daily bars; roe: the profit tables); None asks for everything."""
    bs = load_library()
    session = Session(bs)
    try:
        table = _fetch(caller, session, periods, as_of, wanted)
    finally:
        session.close()
        _condense(caller.log)
    table.calls = caller.log
    return table


def _call(caller: Caller, session: Session, name: str, **kwargs: Any) -> pl.DataFrame:
    per_stock = name in PER_STOCK_CALLS
    return caller.call(name, lambda **kw: session.query(name, per_stock, **kw), to_polars, **kwargs)


def _text(frame: pl.DataFrame, column: str) -> pl.Expr:
    return pl.col(column).cast(pl.String) if column in frame.columns else pl.lit(None, pl.String)


def _fetch(
    caller: Caller, session: Session, periods: Periods, as_of: date, wanted: Collection[str] | None
) -> SourceTable:
    want_pe = wanted is None or bool(PE_FIELDS & set(wanted))
    want_roe = wanted is None or "roe" in wanted
    basic = _call(caller, session, "query_stock_basic")
    if not basic.is_empty() and {"type", "status", "code"} <= set(basic.columns):
        basic = basic.filter(
            (pl.col("type").cast(pl.String) == "1") & (pl.col("status").cast(pl.String) == "1")
        )
    stocks = with_codes(basic.rename({"code": "bs_code"}) if "code" in basic.columns else basic, "bs_code")
    industry = with_codes(
        _call(caller, session, "query_stock_industry").rename({"code": "bs_code"}, strict=False), "bs_code"
    )
    if stocks.is_empty():  # `--source auto` goes on to the next source ("baostock returned no stocks")
        return SourceTable(frame=pl.DataFrame(schema={"code": pl.String}))
    table = stocks.select("code", "bs_code", _text(stocks, "code_name").alias("name")).join(
        industry.select("code", _text(industry, "industry").alias("industry")), on="code", how="left"
    )
    fy, prev = periods.full_year, periods.full_year - 1
    start, end = (as_of - timedelta(days=PE_WINDOW_DAYS)).isoformat(), as_of.isoformat()
    rows: list[dict[str, Any]] = []
    for code, bs_code in table.select("code", "bs_code").iter_rows():
        row: dict[str, Any] = {"code": code}
        if want_pe:
            bars = _call(
                caller,
                session,
                "query_history_k_data_plus",
                code=bs_code,
                fields=K_FIELDS,
                start_date=start,
                end_date=end,
                frequency="d",
                adjustflag="3",
            )
            row.update(_last_bar(bars))
        if want_roe:
            year = _call(caller, session, "query_profit_data", code=bs_code, year=fy, quarter=4)
            before = _call(caller, session, "query_profit_data", code=bs_code, year=prev, quarter=4)
            row.update(_profit(year, fy, with_roe=True))
            row.update(_profit(before, prev, with_roe=False))
        rows.append(row)
    schema: dict[str, Any] = {"code": pl.String}
    if want_pe:
        schema |= {"pe_ttm": pl.Float64, "_pe_date": pl.String, "st": pl.String}
    if want_roe:
        schema |= {"roe": pl.Float64, "report_period": pl.String, "eps": pl.Float64}
        schema |= {f"net_profit_{prev}": pl.Float64, f"net_profit_{fy}": pl.Float64}
    per_stock = pl.DataFrame(rows, schema=schema) if rows else pl.DataFrame(schema=schema)
    table = table.drop("bs_code").join(per_stock, on="code", how="left")
    result = _with_sources(table, caller.as_of, periods, want_pe, want_roe)
    if session.no_data:
        code, why = next(iter(session.no_data.items()))
        count = len(session.no_data)
        result.notes.append(f"no data for {count} stocks (their cells left empty), e.g. {code}: {why}")
    return result


def _last_bar(bars: pl.DataFrame) -> dict[str, Any]:
    """The last bar's PE-TTM, its date and the ST flag (nulls when the window has no bar)."""
    if bars.is_empty() or "date" not in bars.columns:
        return {"pe_ttm": None, "_pe_date": None, "st": None}
    last = (
        bars.sort("date")
        .tail(1)
        .select(
            numbers(bars, "peTTM").alias("pe_ttm"),
            _text(bars, "date").alias("_pe_date"),
            _text(bars, "isST").alias("_st"),
        )
    )
    values = last.row(0, named=True)
    st = {"1": "是", "0": "否"}.get(str(values.pop("_st")))
    return {**values, "st": st}


def _profit(frame: pl.DataFrame, year: int, with_roe: bool) -> dict[str, Any]:
    """One year's profit row: net profit (元), and for the last full year ROE (%), EPS and the period."""
    out: dict[str, Any] = {f"net_profit_{year}": None}
    if with_roe:
        out |= {"roe": None, "report_period": None, "eps": None}
    if frame.is_empty():
        return out
    values = frame.head(1).select(
        numbers(frame, "netProfit").alias("net_profit"),
        (numbers(frame, "roeAvg") * 100).round(6).alias("roe"),
        numbers(frame, "epsTTM").alias("eps"),
        _text(frame, "statDate").alias("period"),
    )
    got = values.row(0, named=True)
    out[f"net_profit_{year}"] = got["net_profit"]
    if with_roe:
        out["roe"] = got["roe"]
        out["eps"] = got["eps"]
        out["report_period"] = (got["period"] or f"{year}-12-31") if got["roe"] is not None else None
    return out


def _with_sources(
    table: pl.DataFrame, stamp: str, periods: Periods, want_pe: bool, want_roe: bool
) -> SourceTable:
    fy, prev = periods.full_year, periods.full_year - 1
    sources: dict[str, dict[str, Any]] = {
        "name": {"source": f"{VENDOR} query_stock_basic() code_name (type 1, status 1)", "as_of": stamp},
        "industry": {"source": f"{VENDOR} query_stock_industry() industry (证监会行业)", "as_of": stamp},
    }
    columns = ["code", "name", "industry"]
    notes: list[str] = []
    if want_pe:
        dates = table.get_column("_pe_date").drop_nulls()
        latest = str(dates.max()) if not dates.is_empty() else stamp
        older = int((dates != latest).sum())
        kline = f"{VENDOR} query_history_k_data_plus(code, {K_FIELDS}, frequency=d, adjustflag=3)"
        sources["pe_ttm"] = {
            "source": f"{kline} peTTM of the last bar up to {stamp}",
            "as_of": latest,
            "unit": "ratio",
        }
        sources["st"] = {"source": f"{kline} isST of the last bar", "as_of": latest}
        columns += ["pe_ttm", "st"]
        if older:
            notes.append(
                f"PE-TTM of an earlier day than {latest} (no later bar: suspended) for {older} stocks"
            )
    if want_roe:
        profit = f"{VENDOR} query_profit_data(code, year={fy}, quarter=4)"
        sources |= {
            "roe": {"source": f"{profit} roeAvg x 100 (平均净资产收益率)", "as_of": stamp, "unit": "%"},
            "report_period": {"source": f"{profit} statDate (the period of the ROE)", "as_of": stamp},
            "eps": {"source": f"{profit} epsTTM (归母净利润TTM / 最新总股本)", "as_of": stamp, "unit": "元"},
            f"net_profit_{fy}": {"source": f"{profit} netProfit", "as_of": stamp, "unit": "元"},
            f"net_profit_{prev}": {
                "source": f"{VENDOR} query_profit_data(code, year={prev}, quarter=4) netProfit",
                "as_of": stamp,
                "unit": "元",
            },
        }
        columns += ["roe", "report_period", "eps", f"net_profit_{prev}", f"net_profit_{fy}"]
    return SourceTable(frame=table.select(columns), sources=sources, calls=[], notes=notes)


def _condense(log: list[dict[str, Any]]) -> None:
    """The per-stock calls of `log` as one entry per call kind (count, first and last fetch time), in place:
    the sidecar keeps the audit trail without 15,000 lines."""
    kept: list[dict[str, Any]] = []
    grouped: dict[str, dict[str, Any]] = {}
    for entry in log:
        call = str(entry.get("call", ""))
        kind = next((k for k in PER_STOCK_CALLS if call.startswith(f"{VENDOR} {k}(")), None)
        if kind is None:
            kept.append(entry)
            continue
        args = call[len(f"{VENDOR} {kind}(") : -1].split(", ")
        shared = ", ".join(a for a in args if not a.startswith("code="))
        key = f"{VENDOR} {kind}(code=<each stock>, {shared})"
        group = grouped.setdefault(key, {"call": key, "count": 0})
        group["count"] += 1
        stamp = str(entry.get("fetched_at", ""))
        group["fetched_at"] = min(group.get("fetched_at", stamp), stamp)
        group["last_fetched_at"] = max(group.get("last_fetched_at", stamp), stamp)
    log[:] = kept + list(grouped.values())
