"""`pool fetch --source auto` on recorded vendor frames, replayed by patching the libraries' functions (no
network): the first source raising (throttled) or returning an empty frame, columns mixed per row, the
circuit breaker, baostock (per stock, with its login) answering when both Eastmoney clients fail or filling
only the field they left missing, and every source down (exit 2, one line; --allow-stale keeps yesterday's
pool, says so)."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import polars as pl
import pytest

akshare = pytest.importorskip("akshare")
efinance = pytest.importorskip("efinance")
baostock = pytest.importorskip("baostock")

from lmscreen.cli import main  # noqa: E402
from lmscreen.pool import load_pool  # noqa: E402
from lmscreen.pool.fetch.calls import Breaker, Caller, CallPolicy, FetchError  # noqa: E402

AS_OF = "2020-10-15"  # full year 2019, latest period 2020H1
ARGS = ["--as-of", AS_OF, "--min-interval", "0", "--backoff", "0", "--no-cache"]


def run_cli(*args: str) -> int:
    with pytest.raises(SystemExit) as stop:
        main(list(args))
    return int(stop.value.code or 0)


def _yjbb(rows: list[tuple[str, str, float, float, float]]) -> pd.DataFrame:
    """akshare stock_yjbb_em columns (as recorded in tests/data/vendors)."""
    return pd.DataFrame(
        [(c, n, eps, roe, np, "白酒") for c, n, eps, roe, np in rows],
        columns=["股票代码", "股票简称", "每股收益", "净资产收益率", "净利润-净利润", "所处行业"],
    )


SPOT = pd.DataFrame(
    [("600519", "贵州茅台", 1700.0, 35.0), ("000001", "平安银行", 15.0, 9.0)],
    columns=["代码", "名称", "最新价", "市盈率-动态"],
)
ST = pd.DataFrame([], columns=["代码", "名称"])
YEAR = _yjbb([("600519", "贵州茅台", 32.8, 33.1, 4.1e10), ("000001", "平安银行", 1.5, 9.6, 2.8e10)])
QUOTES = pd.DataFrame(
    [
        ("600519", "贵州茅台", 1700.0, 36.0),
        ("000001", "平安银行", 15.0, 9.5),
        ("300750", "宁德时代", 200.0, 80.0),
    ],
    columns=["股票代码", "股票名称", "最新价", "动态市盈率"],
)
PERFORMANCE = pd.DataFrame(
    [("600519", "贵州茅台", 32.0, 30.0, 4.0e10), ("300750", "宁德时代", 2.1, 12.0, 4.6e9)],
    columns=["股票代码", "股票简称", "每股收益", "净资产收益率", "净利润"],
)


# baostock's answers as its ResultData carries them: every value a string, "" for none.
BS_BASIC = pd.DataFrame(
    [
        ("sh.000001", "上证综合指数", "1991-07-15", "", "2", "1"),  # an index: not a stock
        ("sh.600519", "贵州茅台", "2001-08-27", "", "1", "1"),
        ("sz.000001", "平安银行", "1991-04-03", "", "1", "1"),
        ("sz.000023", "*ST深天", "1993-04-29", "", "1", "1"),
        ("sz.000003", "PT金田A", "1991-07-03", "2002-06-14", "1", "0"),  # delisted
        ("bj.430047", "诺思兰德", "2020-07-27", "", "1", "1"),  # a market baostock serves no bars for
    ],
    columns=["code", "code_name", "ipoDate", "outDate", "type", "status"],
)
BS_INDUSTRY = pd.DataFrame(
    [
        ("2020-10-12", "sh.600519", "贵州茅台", "C15酒、饮料和精制茶制造业", "证监会行业分类"),
        ("2020-10-12", "sz.000001", "平安银行", "J66货币金融服务", "证监会行业分类"),
    ],
    columns=["updateDate", "code", "code_name", "industry", "industryClassification"],
)
BS_BARS = {
    "sh.600519": [
        ("2020-10-14", "sh.600519", "1710.0000", "50.312345", "0"),
        ("2020-10-15", "sh.600519", "1721.0000", "50.634567", "0"),
    ],
    "sz.000001": [("2020-10-15", "sz.000001", "17.5000", "12.104500", "0")],
    "sz.000023": [("2020-10-09", "sz.000023", "9.9000", "-40.250000", "1")],  # suspended since the 9th
}
BS_PROFIT = {
    ("sh.600519", 2019): ("2020-03-31", "2019-12-31", "0.330899", "46206440000.00", "32.800000"),
    ("sh.600519", 2018): ("2019-03-29", "2018-12-31", "0.345617", "37829617000.00", "28.020000"),
    ("sz.000001", 2019): ("2020-02-14", "2019-12-31", "0.096000", "28195000000.00", "1.450000"),
}


class ResultData:
    """What every baostock query returns: an error code and message, and the rows (`get_data`)."""

    def __init__(self, frame: pd.DataFrame | None = None, error_code: str = "0", error_msg: str = "success"):
        self.error_code, self.error_msg = error_code, error_msg
        self.frame = pd.DataFrame() if frame is None else frame

    def get_data(self) -> pd.DataFrame:
        return self.frame.copy()


def _bars(code: str, fields: str, start_date: str, end_date: str, **kwargs: object) -> ResultData:
    assert fields == "date,code,close,peTTM,isST" and kwargs == {"frequency": "d", "adjustflag": "3"}
    if code.startswith("bj."):
        return ResultData(error_code="10004015", error_msg="不支持的证券代码品种")
    rows = [r for r in BS_BARS.get(code, []) if start_date <= r[0] <= end_date]
    return ResultData(pd.DataFrame(rows, columns=fields.split(",")) if rows else None)


def _profit(code: str, year: int, quarter: int) -> ResultData:
    row = BS_PROFIT.get((code, int(year))) if quarter == 4 else None
    if row is None:
        return ResultData()  # baostock's answer for no report: no rows, error code 0
    pub, stat, roe, profit, eps = row
    columns = ["code", "pubDate", "statDate", "roeAvg", "npMargin", "gpMargin", "netProfit", "epsTTM"]
    columns += ["MBRevenue", "totalShare", "liqaShare"]
    return ResultData(
        pd.DataFrame([(code, pub, stat, roe, "", "", profit, eps, "", "", "")], columns=columns)
    )


@pytest.fixture
def vendors(monkeypatch: pytest.MonkeyPatch) -> dict[str, list[str]]:
    """The libraries replay the frames above; `calls` records each call by vendor."""
    calls: dict[str, list[str]] = {"akshare": [], "efinance": [], "baostock": []}

    def record(vendor: str, name: str, frame: pd.DataFrame):
        def call(*args: object, **kwargs: object) -> pd.DataFrame:
            calls[vendor].append(name)
            return frame.copy()

        return call

    monkeypatch.setattr(akshare, "stock_zh_a_spot_em", record("akshare", "spot", SPOT))
    monkeypatch.setattr(akshare, "stock_zh_a_st_em", record("akshare", "st", ST))
    monkeypatch.setattr(akshare, "stock_yjbb_em", record("akshare", "yjbb", YEAR))
    monkeypatch.setattr(efinance.stock, "get_realtime_quotes", record("efinance", "quotes", QUOTES))
    monkeypatch.setattr(
        efinance.stock, "get_all_company_performance", record("efinance", "performance", PERFORMANCE)
    )
    for name, answer in {
        "login": lambda **kw: ResultData(error_msg="success"),
        "logout": lambda **kw: ResultData(),
        "query_stock_basic": lambda **kw: ResultData(BS_BASIC),
        "query_stock_industry": lambda **kw: ResultData(BS_INDUSTRY),
        "query_history_k_data_plus": _bars,
        "query_profit_data": _profit,
    }.items():
        monkeypatch.setattr(baostock, name, record_baostock(calls["baostock"], name, answer))
    monkeypatch.delenv("TUSHARE_TOKEN", raising=False)
    return calls


def record_baostock(calls: list[str], name: str, answer):  # noqa: ANN001, ANN201 - a test double's plumbing
    def call(*args: object, **kwargs: object) -> ResultData:
        calls.append(name)
        return answer(*args, **kwargs)

    return call


def _throttled(*args: object, **kwargs: object) -> pd.DataFrame:
    raise ConnectionError("('Connection aborted.', RemoteDisconnected('Remote end closed connection'))")


def _sidecar(pool: Path) -> dict:
    return json.loads(pool.with_name(pool.name + ".sources.json").read_text(encoding="utf-8"))


def test_a_good_night_asks_akshare_only(tmp_path: Path, vendors: dict[str, list[str]]) -> None:
    pool = tmp_path / "pool.csv"
    assert run_cli("pool", "fetch", "--out", str(pool), *ARGS) == 0
    assert vendors["efinance"] == [] and vendors["akshare"]
    sidecar = _sidecar(pool)
    assert sidecar["vendor"] == "akshare" and sidecar["requested_source"] == "auto"
    assert sidecar["columns"]["净资产收益率(%)"]["vendor"] == "akshare"


def test_throttled_first_source_fails_over_and_the_breaker_cuts_its_retries(
    tmp_path: Path, vendors: dict[str, list[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    tries: list[int] = []

    def throttled() -> pd.DataFrame:
        tries.append(1)
        return _throttled()

    monkeypatch.setattr(akshare, "stock_zh_a_spot_em", throttled)
    pool = tmp_path / "pool.csv"
    assert run_cli("pool", "fetch", "--out", str(pool), *ARGS, "--retries", "5") == 0
    assert len(tries) == 2  # failed twice: skipped for the rest of the run, its other 3 retries too
    assert vendors["efinance"] == ["quotes", "performance", "performance"]
    sidecar = _sidecar(pool)
    assert sidecar["vendor"] == "efinance"
    tried = {t["vendor"]: t for t in sidecar["sources_tried"]}
    assert tried["akshare"]["ok"] is False and "RemoteDisconnected" in tried["akshare"]["error"]
    assert sidecar["columns"]["市盈率-动态"]["source"] == "efinance get_realtime_quotes() 动态市盈率"
    loaded = load_pool(pool)
    assert sorted(loaded.frame["code"].to_list()) == ["000001.SZ", "300750.SZ", "600519.SH"]


def test_empty_first_source_column_is_filled_per_row_and_recorded_as_mixed(
    tmp_path: Path, vendors: dict[str, list[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    # akshare's quote list answers with an empty frame (what a throttled Eastmoney list often gives):
    # akshare's report table still gives ROE, efinance gives the names and PE, and its extra stock's ROE.
    monkeypatch.setattr(akshare, "stock_zh_a_spot_em", lambda: SPOT.head(0))
    pool = tmp_path / "pool.csv"
    assert run_cli("pool", "fetch", "--out", str(pool), *ARGS) == 0
    sidecar = _sidecar(pool)
    assert sidecar["vendor"] == "akshare+efinance"
    roe = sidecar["columns"]["净资产收益率(%)"]
    assert roe["vendor"] == "mixed"
    assert roe["by_vendor"]["akshare"]["rows"] == 2 and roe["by_vendor"]["efinance"]["rows"] == 1
    assert sidecar["rows_by_vendor"]["roe"] == {"300750.SZ": "efinance"}
    assert sidecar["columns"]["市盈率-动态"]["vendor"] == "efinance"
    frame = load_pool(pool).frame
    by_code = dict(zip(frame["code"], frame["roe"], strict=True))
    assert by_code == {
        "600519.SH": 33.1,
        "000001.SZ": 9.6,
        "300750.SZ": 12.0,
    }  # akshare's kept where it had one


def _eastmoney_down(monkeypatch: pytest.MonkeyPatch) -> None:
    """Both Eastmoney clients refused (an IP ban, an overseas IP): their first call raises every time."""
    monkeypatch.setattr(akshare, "stock_zh_a_spot_em", _throttled)
    monkeypatch.setattr(efinance.stock, "get_realtime_quotes", _throttled)


def test_baostock_answers_when_akshare_and_efinance_fail(
    tmp_path: Path, vendors: dict[str, list[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    _eastmoney_down(monkeypatch)
    pool = tmp_path / "pool.csv"
    assert run_cli("pool", "fetch", "--out", str(pool), *ARGS) == 0
    sidecar = _sidecar(pool)
    assert sidecar["vendor"] == "baostock"
    assert [(t["vendor"], t["ok"]) for t in sidecar["sources_tried"]] == [
        ("akshare", False),
        ("efinance", False),
        ("baostock", True),
    ]
    columns = sidecar["columns"]
    pe = columns["市盈率TTM"]
    assert pe["vendor"] == "baostock" and pe["as_of"] == "2020-10-15" and pe["unit"] == "ratio"
    assert "query_history_k_data_plus" in pe["source"] and "peTTM" in pe["source"]
    roe = columns["净资产收益率(%)"]
    assert roe["vendor"] == "baostock" and roe["unit"] == "%"
    assert "query_profit_data(code, year=2019, quarter=4) roeAvg" in roe["source"]
    assert columns["ST股票"]["vendor"] == "baostock" and "isST" in columns["ST股票"]["source"]
    assert columns["行业"]["source"].startswith("baostock query_stock_industry()")
    # the per-stock calls are listed once per kind, with how many were made
    counts = {c["call"]: c.get("count") for c in sidecar["calls"] if c.get("count")}
    assert counts == {
        "baostock query_history_k_data_plus(code=<each stock>, fields=date,code,close,peTTM,isST, "
        "start_date=2020-10-01, end_date=2020-10-15, frequency=d, adjustflag=3)": 4,
        "baostock query_profit_data(code=<each stock>, year=2019, quarter=4)": 4,
        "baostock query_profit_data(code=<each stock>, year=2018, quarter=4)": 4,
    }
    # a stock baostock has no bars for stays in the pool with empty cells, and the notes say so
    assert any(
        n.startswith("baostock: no data for 1 stocks") and "bj.430047: 10004015" in n
        for n in sidecar["notes"]
    )
    assert any(
        "PE-TTM of an earlier day than 2020-10-15" in n and "for 1 stocks" in n for n in sidecar["notes"]
    )

    frame = load_pool(pool).frame
    assert sorted(frame["code"].to_list()) == ["000001.SZ", "000023.SZ", "430047.BJ", "600519.SH"]
    rows = {r["code"]: r for r in frame.iter_rows(named=True)}
    assert rows["600519.SH"]["pe_ttm"] == pytest.approx(50.634567)  # the last bar's
    assert rows["600519.SH"]["roe"] == pytest.approx(33.0899)  # roeAvg 0.330899, in percent
    assert rows["000023.SZ"]["pe_ttm"] == pytest.approx(-40.25) and rows["000023.SZ"]["roe"] is None
    assert rows["000023.SZ"]["is_st"] and not rows["600519.SH"]["is_st"]
    written = pl.read_csv(pool, infer_schema_length=0)
    assert dict(zip(written["代码"], written["ST股票"], strict=True)) == {
        "600519.SH": "否",
        "000001.SZ": "否",
        "000023.SZ": "是",  # isST 1 on its last bar
        "430047.BJ": None,
    }
    # one session: logged in before the first query, out after the last
    bs_calls = vendors["baostock"]
    assert bs_calls[0] == "login" and bs_calls[-1] == "logout"
    assert bs_calls.count("login") == 1 and bs_calls.count("logout") == 1


def test_baostock_is_asked_only_for_the_field_group_left_missing(
    tmp_path: Path, vendors: dict[str, list[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    # akshare's quote list answers empty (no price: no PE) but its report tables give names and ROE;
    # efinance is refused: baostock is asked for PE only, and makes no profit-table call.
    monkeypatch.setattr(akshare, "stock_zh_a_spot_em", lambda: SPOT.head(0))
    monkeypatch.setattr(efinance.stock, "get_realtime_quotes", _throttled)
    pool = tmp_path / "pool.csv"
    assert run_cli("pool", "fetch", "--out", str(pool), *ARGS) == 0
    assert "query_history_k_data_plus" in vendors["baostock"]
    assert "query_profit_data" not in vendors["baostock"]
    sidecar = _sidecar(pool)
    assert sidecar["vendor"] == "akshare+baostock"
    assert sidecar["columns"]["市盈率TTM"]["vendor"] == "baostock"
    assert sidecar["columns"]["净资产收益率(%)"]["vendor"] == "akshare"
    # the ST column is mixed: akshare's board for its rows, baostock's isST for the stock only it lists
    st = sidecar["columns"]["ST股票"]
    assert st["vendor"] == "mixed" and st["by_vendor"]["baostock"]["rows"] == 1
    assert sidecar["rows_by_vendor"]["st"] == {"000023.SZ": "baostock"}
    assert sidecar["rows_by_vendor"]["name"] == {"000023.SZ": "baostock", "430047.BJ": "baostock"}
    frame = load_pool(pool).frame
    rows = {r["code"]: r for r in frame.iter_rows(named=True)}
    assert rows["000001.SZ"]["roe"] == 9.6 and rows["000001.SZ"]["pe_ttm"] == pytest.approx(12.1045)


def test_baostock_raising_goes_on_to_the_next_source(
    tmp_path: Path, vendors: dict[str, list[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    tushare_client = pytest.importorskip("tushare.pro.client")
    _eastmoney_down(monkeypatch)

    def reset(*args: object, **kwargs: object) -> object:
        vendors["baostock"].append("query_history_k_data_plus")
        raise ConnectionResetError(104, "Connection reset by peer")

    monkeypatch.setattr(baostock, "query_history_k_data_plus", reset)
    frames = {  # tushare Pro's columns (fields=...), one stock
        "stock_basic": pd.DataFrame(
            [("600519.SH", "贵州茅台", "白酒")], columns=["ts_code", "name", "industry"]
        ),
        "daily_basic": pd.DataFrame(
            [("600519.SH", "20201015", 1721.0, 52.3, 50.6)],
            columns=["ts_code", "trade_date", "close", "pe", "pe_ttm"],
        ),
        "fina_indicator_vip": pd.DataFrame(
            [("600519.SH", "20191231", 32.8, 33.12)], columns=["ts_code", "end_date", "eps", "roe"]
        ),
        "income_vip": pd.DataFrame(
            [("600519.SH", "20191231", 4.12e10)], columns=["ts_code", "end_date", "n_income_attr_p"]
        ),
    }
    asked: list[str] = []

    def query(self: object, api_name: str, fields: str = "", **kwargs: object) -> pd.DataFrame:
        asked.append(api_name)
        return frames[api_name].copy()

    monkeypatch.setattr(tushare_client.DataApi, "query", query)
    monkeypatch.setenv("TUSHARE_TOKEN", "recorded-replay")
    pool = tmp_path / "pool.csv"
    assert run_cli("pool", "fetch", "--out", str(pool), *ARGS, "--retries", "5") == 0
    sidecar = _sidecar(pool)
    assert sidecar["vendor"] == "tushare" and "daily_basic" in asked
    tried = {t["vendor"]: t for t in sidecar["sources_tried"]}
    assert tried["baostock"]["ok"] is False and "ConnectionResetError" in tried["baostock"]["error"]
    assert sidecar["columns"]["市盈率TTM"]["vendor"] == "tushare"
    bs_calls = vendors["baostock"]
    assert bs_calls.count("query_history_k_data_plus") == 2  # the breaker cut its other 3 retries
    assert bs_calls.count("login") == bs_calls.count("logout") >= 1  # every session it opened was closed


def test_every_source_down_is_one_line_and_exit_2(
    tmp_path: Path,
    vendors: dict[str, list[str]],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setattr(akshare, "stock_zh_a_spot_em", _throttled)
    monkeypatch.setattr(efinance.stock, "get_realtime_quotes", lambda: QUOTES.head(0))
    monkeypatch.setattr(efinance.stock, "get_all_company_performance", lambda **kw: PERFORMANCE.head(0))
    # baostock's server unreachable: its login answers with an error code, as baostock does, not raising
    monkeypatch.setattr(
        baostock, "login", lambda **kw: ResultData(error_code="10002007", error_msg="网络接收错误。")
    )
    pool = tmp_path / "pool.csv"
    pool.write_text("代码,名称\n600519,贵州茅台\n", encoding="utf-8")  # yesterday's pool
    assert run_cli("pool", "fetch", "--out", str(pool), *ARGS) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    line = err[0]
    assert "every data source failed" in line
    assert "akshare:" in line and "RemoteDisconnected" in line
    assert "efinance: efinance returned no stocks" in line and "tushare: skipped (no token" in line
    assert "baostock: baostock query_stock_basic() failed after 2 tries" in line
    assert "login answered error 10002007: 网络接收错误。 (a network error) (no network" in line
    assert (
        pool.read_text(encoding="utf-8") == "代码,名称\n600519,贵州茅台\n"
    )  # untouched, not passed off as new

    assert run_cli("pool", "fetch", "--out", str(pool), *ARGS, "--allow-stale") == 0
    err_text = capsys.readouterr().err
    assert "--allow-stale: kept" in err_text and "NOT today's pool" in err_text


def test_breaker_skips_a_vendor_after_two_failures(tmp_path: Path) -> None:
    breaker = Breaker()
    slept: list[float] = []
    caller = Caller(
        "akshare", CallPolicy(0, retries=4, backoff_s=1, sleep=slept.append), None, AS_OF, breaker=breaker
    )
    with pytest.raises(FetchError, match="failed after 2 tries"):
        caller.call("spot", _throttled, lambda f: f)
    assert slept == [1]  # one backoff, then the circuit opened
    with pytest.raises(FetchError, match="skipped: akshare failed 2 times"):
        caller.call("other", lambda: pd.DataFrame(), lambda f: f)
