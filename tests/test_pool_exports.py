"""Terminal exports as they really come: each quirk on a file written byte for byte, plus a property test
that no input makes the loader raise anything but its own one-line InputError."""

from __future__ import annotations

import string
from pathlib import Path

import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lmscreen.errors import InputError
from lmscreen.pool import load_pool

# A 同花顺 "导出数据" Table.xls: GBK, tab-separated, bare CR line ends, a tab after every row (header too),
# two columns headed ".", a padded "    名称", `--` and `-"` cells, a money column with a stuck 亿.
THS_TABLE = (
    "代码\t    名称\t涨幅%\t现价\t总金额\t.\t.\t市盈(动)\t所属行业\t\r"
    "SH600519\t贵州茅台\t+1.84%\t1710.00\t4656303亿\t\t\t25.30\t白酒\t\r"
    'SZ000001\t平安银行\t--\t10.50\t--\t\t\t-"\t银行\t\r'
    "SZ300313\t*ST天山\t停牌\t--\t--\t\t\t-90.65\t畜牧业\t\r"
)


def write(tmp_path: Path, data: bytes, name: str = "Table.xls") -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def test_tonghuashun_table_xls_loads(tmp_path: Path) -> None:
    pool = load_pool(write(tmp_path, THS_TABLE.encode("gbk")))
    assert pool.encoding == "gb18030"
    assert pool.errors == []
    assert pool.frame["code"].to_list() == ["600519.SH", "000001.SZ", "300313.SZ"]
    assert pool.frame["name"].to_list() == ["贵州茅台", "平安银行", "*ST天山"]
    assert pool.column_map["name"] == "名称"  # the padding is not part of the name
    assert pool.frame["pe_ttm"].to_list() == [25.3, None, -90.65]
    assert pool.pe_basis == "dynamic" and "市盈(动)" in (pool.pe_note or "")
    assert pool.frame["industry"].to_list() == ["白酒", "银行", "畜牧业"]


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"], ids=["lf", "crlf", "cr"])
def test_line_endings(tmp_path: Path, newline: str) -> None:
    lines = ["代码,名称,净资产收益率", "600519,贵州茅台,30.1", "000001,平安银行,10.2"]
    pool = load_pool(write(tmp_path, (newline.join(lines) + newline).encode("utf-8"), "pool.csv"))
    assert pool.frame["roe"].to_list() == [30.1, 10.2]
    assert pool.frame["row"].to_list() == [2, 3]


def test_mixed_line_endings(tmp_path: Path) -> None:
    data = "代码,名称,净资产收益率\r\n600519,贵州茅台,30.1\r000001,平安银行,10.2\n300750,宁德时代,22\r\n"
    pool = load_pool(write(tmp_path, data.encode("gbk"), "pool.csv"))
    assert pool.frame["code"].to_list() == ["600519.SH", "000001.SZ", "300750.SZ"]
    assert pool.frame["roe"].to_list() == [30.1, 10.2, 22.0]


def test_trailing_tabs_on_rows_but_not_on_the_header(tmp_path: Path) -> None:
    data = "代码\t名称\t净资产收益率\n600519\t贵州茅台\t30.1\t\n000001\t平安银行\t10.2\t\t\n"
    pool = load_pool(write(tmp_path, data.encode("utf-8")))
    assert pool.errors == []
    assert pool.frame["roe"].to_list() == [30.1, 10.2]


def test_repeated_header_rows_are_skipped_and_counted(tmp_path: Path) -> None:
    header = "代码\t名称\t市盈率(TTM)\t净资产收益率"
    lines = [
        header,
        "600519\t贵州茅台\t25\t30",
        header,
        "000001\t平安银行\t5\t10",
        header,
        "300750\t宁德时代\t20\t22",
    ]
    pool = load_pool(write(tmp_path, ("\r\n".join(lines) + "\r\n").encode("gbk")))
    assert pool.errors == []
    assert pool.frame["code"].to_list() == ["600519.SH", "000001.SZ", "300750.SZ"]
    assert pool.frame["row"].to_list() == [2, 4, 6]
    assert pool.skipped_header_rows == 2
    assert any("skipped 2 repeated header row(s)" in w and "row 3, 5" in w for w in pool.warnings)


def test_blank_and_punctuation_headers_are_ignored(tmp_path: Path) -> None:
    data = "代码,,.,-,净资产收益率\n600519,x,y,z,30.1\n"
    pool = load_pool(write(tmp_path, data.encode("utf-8"), "pool.csv"))
    assert pool.errors == []
    assert set(pool.column_map) == {"code", "roe"}


@pytest.mark.parametrize("cell", ["--", '-"', "—", "停牌", "", "-"])
def test_missing_markers(tmp_path: Path, cell: str) -> None:
    data = f"代码\t市盈率TTM\t净资产收益率\n600519\t{cell}\t{cell}\n"
    pool = load_pool(write(tmp_path, data.encode("gbk")))
    assert pool.errors == []
    assert pool.frame["pe_ttm"].to_list() == [None]
    assert pool.frame["roe"].to_list() == [None]


def test_numbers_with_a_stuck_unit(tmp_path: Path) -> None:
    data = "代码,净资产收益率,每股收益,净利润2023,净利润2024\n600519,+1.84%,0.52元,46563亿,-3.2万\n"
    pool = load_pool(write(tmp_path, data.encode("utf-8"), "pool.csv"))
    assert pool.errors == []
    row = pool.frame.row(0, named=True)
    assert row["roe"] == 1.84
    assert row["eps"] == 0.52
    assert row["net_profit_2023"] == 46563e8
    assert row["net_profit_2024"] == -32000.0


# --- report periods ------------------------------------------------------------------------------------


def test_half_year_roe_from_a_report_period_column(tmp_path: Path) -> None:
    data = (
        "股票代码,股票简称,净资产收益率,报告期\n"
        "600519,贵州茅台,18.5,2025-06-30\n000001,平安银行,5.1,2025-06-30\n"
    )
    pool = load_pool(write(tmp_path, data.encode("utf-8"), "pool.csv"))
    assert pool.frame["roe_period"].to_list() == ["2025H1", "2025H1"]
    assert pool.roe_periods == {"2025H1": 2}
    assert pool.roe_note is not None and "2025H1" in pool.roe_note and "报告期" in pool.roe_note


@pytest.mark.parametrize(
    ("column", "cell", "label"),
    [
        ("报告日期", "20250331", "2025Q1"),
        ("截止日期", "2025/09/30", "2025Q1-Q3"),
        ("报告期", "2024-12-31", "FY2024"),
        ("最新公告日期", "2025-08-28", "2025H1"),
        ("最新公告日期", "2025-03-28", "FY2024"),
        ("最新公告日期", "2025-06-15", "2025Q1"),  # after the April deadline: the Q1 report is the latest
        ("最新公告日期", "2025-09-10", "2025H1"),
        ("最新公告日期", "2025-10-31", "2025Q1-Q3"),
        ("最新公告日期", "2025-12-20", "2025Q1-Q3"),
        ("最新公告日期", "2025-04-28", None),  # April: annual or Q1 reports; not guessed
    ],
)
def test_period_columns(tmp_path: Path, column: str, cell: str, label: str | None) -> None:
    data = f"代码,ROE,{column}\n600519,10,{cell}\n"
    pool = load_pool(write(tmp_path, data.encode("utf-8"), "pool.csv"))
    assert pool.frame["roe_period"].to_list() == [label]
    assert (pool.roe_note is not None) == (label is not None and not label.startswith("FY"))


@pytest.mark.parametrize(
    ("header", "label"),
    [
        ("净资产收益率(201806)", "2018H1"),
        ("roe[20210930]", "2021Q1-Q3"),
        ("ROE[20211119]", "2021Q1-Q3"),  # an as-of date: the latest period all due by then
        ("ROE[20210415]", "2020Q1-Q3"),  # annual reports may still be out until 30 April
        ("ROE(201812)", "FY2018"),
    ],
)
def test_period_in_the_roe_header(tmp_path: Path, header: str, label: str) -> None:
    pool = load_pool(write(tmp_path, f"代码,{header}\n600519,10\n".encode(), "pool.csv"))
    assert pool.column_map["roe"] == header
    assert pool.frame["roe_period"].to_list() == [label]


def test_net_profit_header_with_a_full_year_period(tmp_path: Path) -> None:
    data = "代码,净利润(201612),净利润(201712),净利润(201806)\n600519,-1,-2,5\n"
    pool = load_pool(write(tmp_path, data.encode("utf-8"), "pool.csv"))
    assert pool.column_map["net_profit_2016"] == "净利润(201612)"
    assert pool.column_map["net_profit_2017"] == "净利润(201712)"
    assert "net_profit_2018" not in pool.column_map  # a half year is not a year of history
    assert pool.frame["loss_two_years"].to_list() == [True]


# --- the loader raises nothing but InputError -------------------------------------------------------------

_HEADERS = [
    "代码",
    "名称",
    "市盈率TTM",
    "市盈率-动态",
    "净资产收益率",
    "报告期",
    "净利润2024",
    ".",
    "",
    "    名称",
]
_CELLS = st.one_of(
    st.sampled_from(
        ["600519", "SH600519", "000001.SZ", "--", '-"', "停牌", "亏损", "4656303亿", "+1.84%", ""]
    ),
    st.sampled_from(["2025-06-30", "20250331", "代码", '"', '""', "\x00", "1,234.5", "ＳＴ", "nan", "1e309"]),
    st.text(alphabet=string.printable + "市盈率代码名称亿万元%—\u3000", max_size=12),
)
_TABLES = st.tuples(
    st.lists(st.sampled_from(_HEADERS), min_size=1, max_size=6),
    st.lists(st.lists(_CELLS, min_size=0, max_size=8), max_size=6),
    st.sampled_from(["\t", ",", ";", "|"]),
    st.sampled_from(["\n", "\r\n", "\r"]),
    st.sampled_from(["utf-8", "utf-8-sig", "gbk", "gb18030", "utf-16"]),
)


def _check(path: Path) -> None:
    try:
        pool = load_pool(path)
    except InputError as exc:
        message = str(exc)
        assert message and "\n" not in message and str(path) in message
        return
    kept = pool.frame.get_column("row")
    assert pool.frame.height == kept.n_unique()  # a row appears once
    assert pool.frame.get_column("code").null_count() == 0  # a kept row has a code
    assert pool.error_frame.schema == {"row": pl.Int64, "column": pl.String, "reason": pl.String}
    rejected = set(pool.error_frame.get_column("row").to_list())
    assert rejected.isdisjoint(kept.to_list())  # a row is kept or rejected, never both
    assert kept.is_sorted() and pool.error_frame.get_column("row").is_sorted()  # file order
    for row in pool.errors:
        assert row.row >= 1 and row.column and row.reason


@settings(max_examples=150, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(table=_TABLES)
def test_any_table_loads_or_fails_in_one_line(tmp_path_factory: pytest.TempPathFactory, table) -> None:
    headers, rows, sep, newline, encoding = table
    text = newline.join(sep.join(cells) for cells in [headers, *rows]) + newline
    try:
        data = text.encode(encoding)
    except UnicodeEncodeError:
        data = text.encode("utf-8")
    _check(write(tmp_path_factory.mktemp("t"), data))


@settings(max_examples=150, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(
    data=st.binary(max_size=300), prefix=st.sampled_from([b"", b"\xef\xbb\xbf", b"\xff\xfe", b"PK\x03\x04"])
)
def test_random_bytes_load_or_fail_in_one_line(
    tmp_path_factory: pytest.TempPathFactory, data: bytes, prefix: bytes
) -> None:
    _check(write(tmp_path_factory.mktemp("b"), prefix + data))


@settings(max_examples=100, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(data=st.binary(max_size=200))
def test_random_bytes_under_a_header_load_or_fail_in_one_line(
    tmp_path_factory: pytest.TempPathFactory, data: bytes
) -> None:
    _check(write(tmp_path_factory.mktemp("h"), "代码\t名称\t净资产收益率\r".encode("gbk") + data))
