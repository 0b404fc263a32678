"""Pool files as brokers and terminals write them: encodings, TSV, XLSX, tab text named .xls, 通达信."""

from __future__ import annotations

import codecs
import zipfile
from pathlib import Path

import pytest
from openpyxl import Workbook

from lmscreen.errors import InputError
from lmscreen.pool import RowError, load_pool

ROWS = [
    ["代码", "名称", "所属行业", "市盈率(TTM)", "净资产收益率(%)"],
    ["600519", "贵州茅台", "白酒", "20.50", "36.02"],
    ["000001", "平安银行", "银行", "4.80", "10.08%"],
    ["300313", "＊ＳＴ天山", "畜牧业", "亏损", "-35.40"],
]


def table_text(rows: list[list[str]], sep: str = ",", newline: str = "\n") -> str:
    return newline.join(sep.join(r) for r in rows) + newline


def check_rows(path: Path, encoding: str) -> None:
    pool = load_pool(path)
    assert pool.encoding == encoding
    assert pool.errors == []
    assert pool.frame["code"].to_list() == ["600519.SH", "000001.SZ", "300313.SZ"]
    assert pool.frame["name"].to_list() == ["贵州茅台", "平安银行", "*ST天山"]
    assert pool.frame["is_st"].to_list() == [False, False, True]
    assert pool.frame["pe_ttm"].to_list() == [20.5, 4.8, None]
    assert pool.frame["roe"].to_list() == [36.02, 10.08, -35.4]
    assert pool.frame["row"].to_list() == [2, 3, 4]


@pytest.mark.parametrize(
    ("encode", "label"),
    [
        (lambda t: t.encode("utf-8"), "utf-8"),
        (lambda t: codecs.BOM_UTF8 + t.encode("utf-8"), "utf-8-sig"),
        (lambda t: t.encode("gbk"), "gb18030"),
        (lambda t: t.encode("gb18030"), "gb18030"),
        (lambda t: t.encode("utf-16"), "utf-16"),  # Python writes the BOM
    ],
    ids=["utf-8", "utf-8-bom", "gbk", "gb18030", "utf-16-bom"],
)
def test_encodings(tmp_path: Path, encode, label: str) -> None:
    path = tmp_path / "pool.csv"
    path.write_bytes(encode(table_text(ROWS, newline="\r\n")))
    check_rows(path, label)


def test_gb18030_rare_characters_survive(tmp_path: Path) -> None:
    # 𠀀 (U+20000) and 鿰 (U+9FF0) are outside GBK: only GB18030 can carry them.
    rows = [["代码", "名称"], ["600519", "𠀀茅台"], ["000001", "鿰平安"]]
    path = tmp_path / "pool.csv"
    path.write_bytes(table_text(rows).encode("gb18030"))
    with pytest.raises(UnicodeEncodeError):
        table_text(rows).encode("gbk")
    pool = load_pool(path)
    assert pool.encoding == "gb18030"
    assert pool.frame["name"].to_list() == ["𠀀茅台", "鿰平安"]


def test_tsv(tmp_path: Path) -> None:
    path = tmp_path / "pool.tsv"
    path.write_text(table_text(ROWS, sep="\t"), encoding="utf-8")
    check_rows(path, "utf-8")


def test_semicolon_separated(tmp_path: Path) -> None:
    path = tmp_path / "pool.csv"
    path.write_text(table_text(ROWS, sep=";"), encoding="utf-8")
    check_rows(path, "utf-8")


def test_tab_text_saved_as_xls(tmp_path: Path) -> None:
    """同花顺 / 东方财富 "导出" writes GBK tab-separated text and names it .xls; names padded with spaces."""
    rows = [
        ["代码", "名称", "涨幅%", "现价", "市盈(TTM)", "所属行业"],
        ["SH605599", "  菜百股份  ", "1.2", "15.3", "18.4", "珠宝首饰"],
        ["SZ000002", "万  科Ａ", "-0.5", "7.1", "--", "房地产"],
    ]
    path = tmp_path / "Table.xls"
    path.write_bytes(table_text(rows, sep="\t", newline="\r\n").encode("gbk"))
    pool = load_pool(path)
    assert pool.encoding == "gb18030"
    assert pool.frame["code"].to_list() == ["605599.SH", "000002.SZ"]
    assert pool.frame["name"].to_list() == ["菜百股份", "万科A"]
    assert pool.frame["pe_ttm"].to_list() == [18.4, None]
    assert pool.column_map["pe_ttm"] == "市盈(TTM)"


def test_tongdaxin_title_and_footer_lines(tmp_path: Path) -> None:
    """通达信 export: a title line above the header and a source line below the data."""
    text = (
        "沪深A股 自选股 2026-05-08\r\n" + table_text(ROWS, sep="\t", newline="\r\n") + "数据来源:通达信\r\n"
    )
    path = tmp_path / "export.txt"
    path.write_bytes(text.encode("gbk"))
    pool = load_pool(path)
    assert pool.errors == []
    assert pool.frame["code"].to_list() == ["600519.SH", "000001.SZ", "300313.SZ"]
    assert pool.frame["row"].to_list() == [3, 4, 5]  # the title is row 1, the header row 2


def test_a_data_row_with_empty_trailing_cells_is_not_taken_for_a_footer(tmp_path: Path) -> None:
    path = tmp_path / "pool.txt"
    path.write_text("代码\t名称\t市盈率TTM\n600519\t贵州茅台\t20\n000001\t\t\n", encoding="utf-8")
    pool = load_pool(path)
    assert pool.frame["code"].to_list() == ["600519.SH", "000001.SZ"]


def test_quoted_cells_and_ragged_rows(tmp_path: Path) -> None:
    path = tmp_path / "pool.csv"
    path.write_text(
        '代码,名称,财报摘要,ROE\n="000001","平安银行","营收1,466.95亿元, 同比下降",10\n600519,贵州茅台\n',
        encoding="utf-8",
    )
    pool = load_pool(path)
    assert pool.frame["code"].to_list() == ["000001.SZ", "600519.SH"]
    assert pool.frame["report_text"].to_list() == ["营收1,466.95亿元, 同比下降", None]
    assert pool.frame["roe"].to_list() == [10.0, None]


def test_xlsx(tmp_path: Path) -> None:
    """A workbook as Excel keeps it: codes as numbers (zeros lost), ROE as a percent-formatted fraction."""
    book = Workbook()
    sheet = book.active
    sheet.append(["证券代码", "证券简称", "市盈率TTM", "ROE", "净利润_2023", "净利润_2024"])
    sheet.append([600519, "贵州茅台", 20.5, 0.3602, 74734000000, 86228000000])
    sheet.append([1, "平安银行", "--", 0.1008, 46455000000.0, 44508000000.0])
    sheet.append([None, None, None, None, None, None])
    sheet.append(["ABC123", "坏行", 1, 0.1, 1, 1])
    sheet.append([300313, "*ST天山", -90.65, -0.354, -132000000, -185000000])
    for row in range(2, 7):
        sheet.cell(row=row, column=4).number_format = "0.00%"
    path = tmp_path / "pool.xlsx"
    book.save(path)

    pool = load_pool(path)
    assert pool.encoding == "xlsx"
    assert pool.frame["code"].to_list() == ["600519.SH", "000001.SZ", "300313.SZ"]
    assert pool.frame["roe"].to_list() == [36.02, 10.08, -35.4]
    assert pool.frame["pe_ttm"].to_list() == [20.5, None, -90.65]
    assert pool.frame["loss_two_years"].to_list() == [False, False, True]
    assert pool.frame["row"].to_list() == [2, 3, 6]
    assert pool.errors == [RowError(5, "证券代码", "not a stock code: 'ABC123'")]


def test_xlsx_header_below_a_title_on_a_later_sheet(tmp_path: Path) -> None:
    book = Workbook()
    book.active.append(["说明", "本工作簿由脚本生成"])
    data = book.create_sheet("数据")
    data.append(["自选股导出"])
    data.append(["代码", "名称"])
    data.append(["sz000858", "五粮液"])
    path = tmp_path / "pool.xlsx"
    book.save(path)
    pool = load_pool(path)
    assert pool.frame["code"].to_list() == ["000858.SZ"]
    assert pool.frame["row"].to_list() == [3]


def test_xlsx_without_code_column(tmp_path: Path) -> None:
    book = Workbook()
    book.active.append(["名称", "市盈率TTM"])
    book.active.append(["贵州茅台", 20])
    path = tmp_path / "pool.xlsx"
    book.save(path)
    with pytest.raises(InputError, match=r"pool\.xlsx: no code column"):
        load_pool(path)


def test_title_line_without_footer_in_utf8(tmp_path: Path) -> None:
    """The UTF-8 path hands the file to polars directly; title lines must still be skipped and counted."""
    path = tmp_path / "pool.csv"
    path.write_text("自选股 2026-05-08\n\n" + table_text(ROWS), encoding="utf-8")
    pool = load_pool(path)
    assert pool.frame["code"].to_list() == ["600519.SH", "000001.SZ", "300313.SZ"]
    assert pool.frame["row"].to_list() == [4, 5, 6]


def test_zip_that_is_not_a_workbook(tmp_path: Path) -> None:
    path = tmp_path / "pool.xlsx"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("hello.txt", "hi")
    with pytest.raises(
        InputError, match=r"pool\.xlsx: not a table \(a zip file that is not an \.xlsx workbook\)"
    ):
        load_pool(path)
