"""`lmscreen pool fetch` / `pool enrich` on recorded akshare and tushare frames (tests/data/vendors/*.json,
each noting where it was recorded), replayed by patching the libraries' own functions: no network."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pandas as pd
import polars as pl
import pytest

akshare = pytest.importorskip("akshare")
tushare_client = pytest.importorskip("tushare.pro.client")

from lmscreen.cli import main  # noqa: E402
from lmscreen.pool import load_pool  # noqa: E402
from lmscreen.pool.fetch.calls import Caller, CallPolicy, FetchError  # noqa: E402
from lmscreen.pool.fetch.periods import periods_due  # noqa: E402

VENDORS = Path(__file__).parent / "data" / "vendors"


def recorded(name: str) -> pd.DataFrame:
    data = json.loads((VENDORS / name).read_text(encoding="utf-8"))
    assert data["source"]  # every fixture says where it was recorded
    frame = pd.DataFrame(data["rows"], columns=data["columns"])
    if "最新公告日期" in frame.columns:  # akshare returns datetime.date objects here
        frame["最新公告日期"] = pd.to_datetime(frame["最新公告日期"]).dt.date
    return frame


def run_cli(*args: str) -> int:
    with pytest.raises(SystemExit) as stop:
        main(list(args))
    return int(stop.value.code or 0)


@pytest.fixture
def akshare_replay(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    calls: list[str] = []
    st_board = recorded("akshare_stock_zh_a_st_em.json")
    yjbb = {"20200630": recorded("akshare_stock_yjbb_em_20200630.json")}
    empty_yjbb = yjbb["20200630"].head(0)

    def spot() -> pd.DataFrame:
        calls.append("stock_zh_a_spot_em")
        return st_board.copy()  # the ST board rows are spot rows too

    def st() -> pd.DataFrame:
        calls.append("stock_zh_a_st_em")
        return st_board.copy()

    def report(date: str = "20200331") -> pd.DataFrame:
        calls.append(f"stock_yjbb_em({date})")
        return yjbb.get(date, empty_yjbb).copy()

    monkeypatch.setattr(akshare, "stock_zh_a_spot_em", spot)
    monkeypatch.setattr(akshare, "stock_zh_a_st_em", st)
    monkeypatch.setattr(akshare, "stock_yjbb_em", report)
    return calls


def test_periods_follow_disclosure_deadlines() -> None:
    p = periods_due(date(2020, 10, 15))
    assert (p.full_year, p.latest, p.same_period_year_before()) == (2019, "20200630", "20190630")
    assert periods_due(date(2026, 11, 30)).latest == "20260930"
    assert periods_due(date(2026, 3, 1)).full_year == 2024
    assert periods_due(date(2026, 5, 2)).latest == "20260331"


def test_akshare_fetch_builds_a_pool_that_screens_without_losing_pe_or_roe(
    tmp_path: Path, akshare_replay: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    pool = tmp_path / "pool.csv"
    args = ["pool", "fetch", "--out", str(pool), "--as-of", "2020-10-15", "--roe-period", "latest"]
    assert run_cli(*args, "--cache", str(tmp_path / "cache"), "--min-interval", "0") == 0
    assert akshare_replay == [
        "stock_zh_a_spot_em",
        "stock_zh_a_st_em",
        "stock_yjbb_em(20191231)",
        "stock_yjbb_em(20181231)",
        "stock_yjbb_em(20200630)",
        "stock_yjbb_em(20190630)",
    ]
    sidecar = json.loads((tmp_path / "pool.csv.sources.json").read_text(encoding="utf-8"))
    assert sidecar["vendor"] == "akshare" and sidecar["as_of"] == "2020-10-15"
    assert sidecar["columns"]["市盈率-动态"]["source"] == "akshare stock_zh_a_spot_em() 市盈率-动态"
    assert "stock_yjbb_em(date=20200630)" in sidecar["columns"]["净资产收益率(%)"]["source"]
    assert sidecar["columns"]["净资产收益率(%)"]["unit"] == "%"
    assert len(sidecar["calls"]) == 6 and all(c["fetched_at"] for c in sidecar["calls"])

    loaded = load_pool(pool)
    assert loaded.errors == []
    recorded_pe = {
        f"{c}.{'SH' if c.startswith('6') else 'SZ'}": pe
        for c, pe in recorded("akshare_stock_zh_a_st_em.json")[["代码", "市盈率-动态"]].itertuples(
            index=False
        )
    }
    got = dict(zip(loaded.frame["code"], loaded.frame["pe_ttm"], strict=True))
    assert {k: got[k] for k in recorded_pe} == recorded_pe
    assert loaded.pe_basis == "dynamic"  # said on the console: not PE-TTM
    assert loaded.frame.filter(pl.col("code") == "300344.SZ")["roe"].to_list() == [-6.55]
    assert loaded.roe_periods == {"unknown": 10, "2020H1": 1}
    assert loaded.frame.filter(pl.col("is_st"))["code"].len() == 10

    out = tmp_path / "out"
    assert run_cli("screen", str(pool), "--no-llm", "--out", str(out), "--quiet") == 0
    results = pl.read_csv(out / "results.csv", infer_schema_length=0)
    screened = dict(zip(results["code"], results["pe_ttm"], strict=True))
    assert {k: float(screened[k]) for k in recorded_pe} == recorded_pe
    assert results.filter(pl.col("code") == "300344.SZ")["roe"].to_list() == ["-6.55"]
    err = capsys.readouterr().err
    assert "not PE-TTM" in err and "2020H1" in err

    # the same build again comes from the cache: no vendor call
    akshare_replay.clear()
    assert run_cli(*args, "--cache", str(tmp_path / "cache"), "--min-interval", "0") == 0
    assert akshare_replay == []


def test_tushare_fetch_normalises_and_records_the_static_pe(tmp_path: Path, monkeypatch) -> None:
    daily = recorded("tushare_daily_basic_20180726.json")
    frames = {
        "stock_basic": recorded("tushare_stock_basic.json"),
        "fina_indicator_vip": recorded("tushare_fina_indicator_600000.json"),
    }
    asked: list[tuple[str, dict]] = []

    def query(self, api_name: str, fields: str = "", **kwargs) -> pd.DataFrame:
        asked.append((api_name, kwargs))
        if api_name == "daily_basic":
            return daily[daily["trade_date"] == kwargs["trade_date"]].reset_index(drop=True)
        frame = frames.get(api_name, pd.DataFrame(columns=fields.split(",")))
        if "period" in kwargs and "end_date" in frame.columns:
            frame = frame[frame["end_date"] == kwargs["period"]]
        return frame.reset_index(drop=True)

    monkeypatch.setattr(tushare_client.DataApi, "query", query)
    monkeypatch.setenv("TUSHARE_TOKEN", "recorded-replay")
    pool = tmp_path / "ts.csv"
    # 2018-07-28 is a Saturday: daily_basic is asked for the 28th, 27th, then the 26th, which has rows.
    assert (
        run_cli(
            "pool",
            "fetch",
            "--source",
            "tushare",
            "--out",
            str(pool),
            "--as-of",
            "2018-07-28",
            "--no-cache",
            "--min-interval",
            "0",
        )
        == 0
    )
    assert [kw.get("trade_date") for api, kw in asked if api == "daily_basic"] == [
        "20180728",
        "20180727",
        "20180726",
    ]
    loaded = load_pool(pool)
    assert loaded.pe_basis == "static" and "not PE-TTM" in (loaded.pe_note or "")
    pe = dict(zip(loaded.frame["code"], loaded.frame["pe_ttm"], strict=True))
    assert all(pe[code] == value for code, value in daily[["ts_code", "pe"]].itertuples(index=False))
    names = dict(zip(loaded.frame["code"], loaded.frame["name"], strict=True))
    assert names["000001.SZ"] == "平安银行" and names["000002.SZ"] == "万科A"
    eps = dict(zip(loaded.frame["code"], loaded.frame["eps"], strict=True))
    assert eps["600000.SH"] == 1.84  # the FY2017 row, once although the sample lists it twice
    sidecar = json.loads((tmp_path / "ts.csv.sources.json").read_text(encoding="utf-8"))
    assert sidecar["columns"]["市盈率(静)"]["source"] == "tushare daily_basic(trade_date=20180726) pe"
    assert "blank" in sidecar["columns"]["市盈率(静)"]["note"]


def test_tushare_without_a_token_is_one_line_exit_2(tmp_path: Path, monkeypatch, capsys) -> None:
    monkeypatch.delenv("TUSHARE_TOKEN", raising=False)
    assert run_cli("pool", "fetch", "--source", "tushare", "--out", str(tmp_path / "p.csv")) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "TUSHARE_TOKEN" in err


def test_no_network_is_one_line_exit_2(tmp_path: Path, monkeypatch, capsys) -> None:
    import requests

    tries: list[int] = []

    def down() -> pd.DataFrame:
        tries.append(1)
        raise requests.exceptions.ConnectionError("Max retries exceeded with url: /api/qt/clist/get")

    monkeypatch.setattr(akshare, "stock_zh_a_spot_em", down)
    code = run_cli(
        "pool",
        "fetch",
        "--source",  # one source: `auto` would go on to efinance and baostock, over the real network
        "akshare",
        "--out",
        str(tmp_path / "p.csv"),
        "--no-cache",
        "--retries",
        "2",
        "--backoff",
        "0",
        "--min-interval",
        "0",
    )
    err = capsys.readouterr().err.strip()
    assert code == 2 and len(tries) == 2
    assert err.count("\n") == 0
    assert "stock_zh_a_spot_em" in err and "failed after 2 tries" in err and "no network" in err
    assert not (tmp_path / "p.csv").exists()


def test_calls_are_paced_and_retried_with_backoff() -> None:
    now = [0.0]
    slept: list[float] = []

    def sleep(seconds: float) -> None:
        slept.append(round(seconds, 3))
        now[0] += seconds

    policy = CallPolicy(min_interval_s=1.5, retries=3, backoff_s=2.0, sleep=sleep, clock=lambda: now[0])
    caller = Caller("akshare", policy, None, "2026-01-05")
    attempts = iter([RuntimeError("Remote end closed connection"), RuntimeError("timed out"), None])

    def flaky() -> pl.DataFrame:
        error = next(attempts)
        if error:
            raise error
        return pl.DataFrame({"代码": ["600519"]})

    frame = caller.call("stock_zh_a_spot_em", flaky, lambda f: f)
    assert frame.height == 1
    # backoff 2 s, then 4 s; the 1.5 s pacing is already covered by those waits
    assert slept == [2.0, 4.0]
    caller.call("stock_zh_a_st_em", lambda: pl.DataFrame({"代码": ["000001"]}), lambda f: f)
    assert slept[-1] == 1.5  # the next call waits out the rate limit
    with pytest.raises(FetchError, match="failed after 3 tries"):
        caller.call("stock_yjbb_em", lambda: (_ for _ in ()).throw(ValueError("bad json")), lambda f: f)


def test_enrich_fills_what_the_pool_lacks_and_keeps_the_users_columns(
    tmp_path: Path, akshare_replay: list[str]
) -> None:
    mine = tmp_path / "mine.csv"
    mine.write_bytes(
        "代码\t名称\t我的备注\t净利润2019\n300313\t*ST天山\t观察\t-1\n300344\t太空智造\t\t\n600519\t贵州茅台\t核心\t4.12e10\n".encode(
            "gbk"
        )
    )
    args = [
        "pool",
        "enrich",
        str(mine),
        "--as-of",
        "2020-10-15",
        "--roe-period",
        "latest",
        "--no-cache",
        "--min-interval",
        "0",
    ]
    assert run_cli(*args) == 0
    enriched = tmp_path / "mine.enriched.csv"
    out = pl.read_csv(enriched, infer_schema_length=0)
    assert out.columns[:4] == ["代码", "名称", "我的备注", "净利润2019"]  # theirs first, as written
    assert out["我的备注"].to_list() == ["观察", None, "核心"]
    assert out["净利润2019"].to_list() == ["-1", None, "4.12e10"]  # not overwritten
    assert "市盈率-动态" in out.columns and "净资产收益率(%)" in out.columns
    loaded = load_pool(enriched)
    by_code = {r["code"]: r for r in loaded.frame.iter_rows(named=True)}
    assert by_code["300313.SZ"]["pe_ttm"] == -90.65
    assert by_code["300344.SZ"]["roe"] == -6.55
    assert by_code["600519.SH"]["pe_ttm"] is None  # not in the recorded frames: left empty, not made up
    sidecar = json.loads((tmp_path / "mine.enriched.csv.sources.json").read_text(encoding="utf-8"))
    assert sidecar["kept_user_columns"] == ["净利润2019"]
    assert sidecar["matched_rows"] == 2

    assert run_cli(*args, "--overwrite") == 0
    out = pl.read_csv(enriched, infer_schema_length=0)
    assert out["净利润2019"].to_list() == ["-1", None, "4.12e10"]  # the vendor has no 2019 profit: kept
