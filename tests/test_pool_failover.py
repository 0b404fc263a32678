"""`pool fetch --source auto` on recorded vendor frames, replayed by patching the libraries' functions (no
network): the first source raising (throttled) or returning an empty frame, columns mixed per row, the
circuit breaker, and every source down (exit 2, one line; --allow-stale keeps yesterday's pool, says so)."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

akshare = pytest.importorskip("akshare")
efinance = pytest.importorskip("efinance")

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


@pytest.fixture
def vendors(monkeypatch: pytest.MonkeyPatch) -> dict[str, list[str]]:
    """Both libraries replay the frames above; `calls` records each call by vendor."""
    calls: dict[str, list[str]] = {"akshare": [], "efinance": []}

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
    monkeypatch.delenv("TUSHARE_TOKEN", raising=False)
    return calls


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


def test_every_source_down_is_one_line_and_exit_2(
    tmp_path: Path,
    vendors: dict[str, list[str]],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setattr(akshare, "stock_zh_a_spot_em", _throttled)
    monkeypatch.setattr(efinance.stock, "get_realtime_quotes", lambda: QUOTES.head(0))
    monkeypatch.setattr(efinance.stock, "get_all_company_performance", lambda **kw: PERFORMANCE.head(0))
    pool = tmp_path / "pool.csv"
    pool.write_text("代码,名称\n600519,贵州茅台\n", encoding="utf-8")  # yesterday's pool
    assert run_cli("pool", "fetch", "--out", str(pool), *ARGS) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    line = err[0]
    assert "every data source failed" in line
    assert "akshare:" in line and "RemoteDisconnected" in line
    assert "efinance: efinance returned no stocks" in line and "tushare: skipped (no token" in line
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
