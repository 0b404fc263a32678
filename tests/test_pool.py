"""Pool loading on real files: column aliases, code forms, names and ST marks, numbers, row errors."""

from __future__ import annotations

import sys
from pathlib import Path

import polars as pl
import pytest

from inproc import run_lmscreen
from lmscreen.errors import InputError
from lmscreen.pool import Pool, RowError, load_pool
from lmscreen.pool.columns import FIELD_ALIASES


def write_csv(
    tmp_path: Path, rows: list[list[str]], *, name: str = "pool.csv", encoding: str = "utf-8", sep: str = ","
) -> Path:
    """Write rows as a delimited text file in `encoding` (no quoting: the cells used here need none)."""
    path = tmp_path / name
    path.write_bytes(("\n".join(sep.join(r) for r in rows) + "\n").encode(encoding))
    return path


def load_rows(tmp_path: Path, rows: list[list[str]], **kw: str) -> Pool:
    return load_pool(write_csv(tmp_path, rows, **kw))


# --- column aliases ------------------------------------------------------------------------------------

NON_CODE_SAMPLES = {
    "name": "贵州茅台",
    "industry": "白酒",
    "pe_ttm": "20.5",
    "roe": "36.02",
    "eps": "68.64",
    "report_text": "营业收入1741.44亿元",
    "st_flag": "否",
    "report_period": "2024-12-31",
    "announce_date": "2025-03-28",
}
ALIAS_CASES = [(f, a) for f, aliases in FIELD_ALIASES.items() if f != "code" for a in aliases]


@pytest.mark.parametrize(("field", "alias"), ALIAS_CASES)
def test_every_field_alias_is_recognised(tmp_path: Path, field: str, alias: str) -> None:
    pool = load_rows(tmp_path, [["代码", alias], ["600519", NON_CODE_SAMPLES[field]]])
    assert pool.column_map[field] == alias
    if field in ("pe_ttm", "roe", "eps"):
        assert pool.frame[field][0] == float(NON_CODE_SAMPLES[field])
    elif field == "st_flag":
        assert pool.frame["is_st"][0] is False
    elif field in ("report_period", "announce_date"):
        assert pool.frame.columns.count("roe_period") == 0  # a period matters only beside an ROE
    else:
        assert pool.frame[field][0] == NON_CODE_SAMPLES[field]


@pytest.mark.parametrize("alias", FIELD_ALIASES["code"])
def test_every_code_alias_is_recognised(tmp_path: Path, alias: str) -> None:
    pool = load_rows(tmp_path, [[alias, "名称"], ["sh600519", "贵州茅台"]])
    assert pool.column_map["code"] == alias
    assert pool.frame["code"].to_list() == ["600519.SH"]


@pytest.mark.parametrize(
    ("header", "field"),
    [
        ("ＲＯＥ", "roe"),  # full width
        ("Roe(%)", "roe"),  # case
        ("市盈率（ＴＴＭ）", "pe_ttm"),  # full-width brackets
        ("PE(TTM)", "pe_ttm"),
        ("市盈率(TTM)(倍) 2026.05.08", "pe_ttm"),  # 东方财富 条件选股
        ("市盈率(TTM)[20260508]", "pe_ttm"),  # i问财
        ("净资产收益率(%) 截至2026.05.08最新", "roe"),
        (" 证券代码 ", "code"),
        ("TS_CODE", "code"),
        ("所属行业 ", "industry"),
    ],
)
def test_headers_match_after_width_case_and_date_folding(tmp_path: Path, header: str, field: str) -> None:
    other = "代码" if field != "code" else "名称"
    pool = load_rows(tmp_path, [[other, header], ["600519", "12.5"] if field != "code" else ["x", "600519"]])
    assert pool.column_map[field] == header.strip()


def test_header_dates_are_kept_per_field(tmp_path: Path) -> None:
    pool = load_rows(
        tmp_path, [["代码", "市盈率(TTM)(倍) 2026.05.08", "ROE[20260508]"], ["600519", "20", "30"]]
    )
    assert pool.header_dates == {"pe_ttm": "2026.05.08", "roe": "[20260508]"}
    assert pool.frame["pe_ttm"][0] == 20.0 and pool.frame["roe"][0] == 30.0


@pytest.mark.parametrize(
    "header", ["净利润_2023", "net_profit_2023", "净利润2023", "NET_PROFIT_2023", "2023年净利润"]
)
def test_net_profit_history_aliases(tmp_path: Path, header: str) -> None:
    pool = load_rows(tmp_path, [["代码", header], ["600519", "-1.5亿"]])
    assert pool.column_map["net_profit_2023"] == header
    assert pool.frame["net_profit_2023"][0] == -150_000_000.0


@pytest.mark.parametrize(
    ("header", "basis"),
    [
        ("市盈率(动)", "dynamic"),
        ("市盈率-动态", "dynamic"),
        ("动态市盈率", "dynamic"),
        ("市盈(动)", "dynamic"),
        ("市盈率(静)", "static"),
        ("静态市盈率", "static"),
        ("PE(静)", "static"),
        ("市盈率", "unstated"),
        ("pe", "unstated"),
    ],
)
def test_non_ttm_pe_is_used_and_said_not_to_be_pe_ttm(tmp_path: Path, header: str, basis: str) -> None:
    pool = load_rows(tmp_path, [["代码", header], ["600519", "25.3"]])
    assert pool.column_map["pe_ttm"] == header
    assert pool.frame["pe_ttm"].to_list() == [25.3]
    assert pool.pe_basis == basis
    assert pool.pe_note is not None and header in pool.pe_note and "not PE-TTM" in pool.pe_note


@pytest.mark.parametrize("header", ["市盈率(TTM)", "TTM市盈率", "市盈率TTM", "pe_ttm"])
def test_ttm_pe_aliases_are_pe_ttm(tmp_path: Path, header: str) -> None:
    pool = load_rows(tmp_path, [["代码", header], ["600519", "25.3"]])
    assert pool.column_map["pe_ttm"] == header
    assert pool.pe_basis == "ttm" and pool.pe_note is None


def test_ttm_column_wins_over_dynamic_pe(tmp_path: Path) -> None:
    pool = load_rows(tmp_path, [["代码", "市盈率(动)", "市盈率TTM"], ["600519", "99", "20.5"]])
    assert pool.column_map["pe_ttm"] == "市盈率TTM"
    assert pool.frame["pe_ttm"][0] == 20.5
    assert pool.pe_basis == "ttm" and pool.pe_note is None
    assert any("'市盈率(动)' not used" in w for w in pool.warnings)


def test_dynamic_pe_wins_over_static_and_unstated(tmp_path: Path) -> None:
    rows = [["代码", "pe", "市盈率(静)", "市盈率-动态"], ["600519", "1", "2", "3"]]
    pool = load_rows(tmp_path, rows)
    assert pool.column_map["pe_ttm"] == "市盈率-动态" and pool.pe_basis == "dynamic"
    assert pool.frame["pe_ttm"][0] == 3.0
    rows = [["代码", "pe", "静态市盈率"], ["600519", "1", "2"]]
    assert load_rows(tmp_path, rows).pe_basis == "static"


@pytest.mark.parametrize(
    "header", ["roe", "净资产收益率", "加权净资产收益率", "ROE(加权)", "净资产收益率(%)"]
)
def test_roe_aliases(tmp_path: Path, header: str) -> None:
    pool = load_rows(tmp_path, [["代码", header], ["600519", "12.5"]])
    assert pool.column_map["roe"] == header and pool.frame["roe"][0] == 12.5


def test_two_headers_for_one_field_warn_and_use_the_better_alias(tmp_path: Path) -> None:
    pool = load_rows(tmp_path, [["代码", "summary", "财报摘要"], ["600519", "a", "b"]])
    assert pool.column_map["report_text"] == "财报摘要"
    assert pool.frame["report_text"][0] == "b"
    assert any("'summary'" in w for w in pool.warnings)


# --- codes ---------------------------------------------------------------------------------------------

CODE_FORMS = [
    ("600519", "600519.SH"),
    ("sh600519", "600519.SH"),
    ("sh.600519", "600519.SH"),
    ("SH600519", "600519.SH"),
    ("600519.SS", "600519.SH"),
    ("600519.SH", "600519.SH"),
    ("600519.XSHG", "600519.SH"),
    ("000001.XSHE", "000001.SZ"),
    ("bj830799", "830799.BJ"),
    ("1.600519", "600519.SH"),
    ("0.000001", "000001.SZ"),
    ("0.830799", "830799.BJ"),
    ("1", "000001.SZ"),
    ("858", "000858.SZ"),
    ("600519.0", "600519.SH"),
    ('="000858"', "000858.SZ"),
    ("'000001", "000001.SZ"),
    ("６００５１９", "600519.SH"),
    ("sz000001", "000001.SZ"),
    ("SZ300750", "300750.SZ"),
    ("301236", "301236.SZ"),
    ("002594", "002594.SZ"),
    ("003816", "003816.SZ"),
    ("200596", "200596.SZ"),
    ("601318", "601318.SH"),
    ("603288", "603288.SH"),
    ("605499", "605499.SH"),
    ("688981", "688981.SH"),
    ("689009", "689009.SH"),
    ("900901", "900901.SH"),  # a 9 that is Shanghai B...
    ("920819", "920819.BJ"),  # ...and 92 that is Beijing
    ("430047", "430047.BJ"),
    ("835185.BJ", "835185.BJ"),
    ("871981", "871981.BJ"),
    ("889999", "889999.BJ"),
]


@pytest.mark.parametrize(("raw", "expected"), CODE_FORMS)
def test_every_code_form_normalises(tmp_path: Path, raw: str, expected: str) -> None:
    pool = load_rows(tmp_path, [["代码", "名称"], [raw, "某公司"]])
    assert pool.errors == []
    assert pool.frame["code"].to_list() == [expected]
    assert pool.frame["code_raw"].to_list() == [raw]


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        ("ABC123", "not a stock code: 'ABC123'"),
        (
            "123456",
            "unknown exchange for code '123456' (not an A-share stock prefix; "
            "tag it .SH/.SZ/.BJ if it is listed)",
        ),
        ("1234567", "not a stock code: '1234567'"),
        ("sz600519", "'sz600519' is marked SZ but 600519 is listed on SH"),
        ("600519.SZ", "'600519.SZ' is marked SZ but 600519 is listed on SH"),
        ("0.600519", "'0.600519' is marked SZ/BJ but 600519 is listed on SH"),
    ],
)
def test_bad_codes_are_row_errors(tmp_path: Path, raw: str, reason: str) -> None:
    pool = load_rows(tmp_path, [["代码", "名称"], ["600036", "招商银行"], [raw, "某公司"]])
    assert pool.frame["code"].to_list() == ["600036.SH"]
    assert pool.errors == [RowError(3, "代码", reason)]


def test_a_vendor_tag_is_kept_for_prefixes_outside_the_stock_table(tmp_path: Path) -> None:
    """510300 (an ETF) or 123xxx (a bond) are listed securities: with a tag the exchange is known."""
    pool = load_rows(tmp_path, [["代码"], ["510300.SH"], ["sz123456"], ["1.600519"], ["510300"]])
    assert pool.frame["code"].to_list() == ["510300.SH", "123456.SZ", "600519.SH"]
    assert [e.row for e in pool.errors] == [5]
    assert any(w.startswith("2 code(s) outside the A-share stock prefixes") for w in pool.warnings)


def test_empty_code_in_a_filled_row_is_an_error_but_a_blank_row_is_skipped(tmp_path: Path) -> None:
    pool = load_rows(
        tmp_path, [["代码", "名称"], ["600519", "贵州茅台"], ["", "无代码"], ["", ""], ["000001", "平安银行"]]
    )
    assert pool.frame["row"].to_list() == [2, 5]
    assert pool.errors == [RowError(3, "代码", "empty code")]


# --- names and ST --------------------------------------------------------------------------------------

NAME_CASES = [
    ("万  科Ａ", "万科A", False),
    ("万\u3000科Ａ", "万科A", False),
    ("ST聆达", "ST聆达", True),
    ("*ST天山", "*ST天山", True),
    ("＊ＳＴ天山", "*ST天山", True),
    ("S T 聆达", "ST聆达", True),
    ("* S T天山", "*ST天山", True),
    ("ＳＳＴ前锋", "SST前锋", True),
    ("S*ST光明", "S*ST光明", True),
    ("TCL科技", "TCL科技", False),
    ("寒武纪-U", "寒武纪-U", False),
    ("XD贵州茅", "贵州茅", False),
    ("XR*ST天山", "*ST天山", True),
    ("N中芯", "中芯", False),
    ("C阿为特", "阿为特", False),
    ("NIO", "NIO", False),
]


@pytest.mark.parametrize(("raw", "name", "is_st"), NAME_CASES)
def test_names_fold_and_st_marks_are_found(tmp_path: Path, raw: str, name: str, is_st: bool) -> None:
    pool = load_rows(tmp_path, [["代码", "名称"], ["600519", raw]])
    assert pool.frame["name"].to_list() == [name]
    assert pool.frame["is_st"].to_list() == [is_st]


def test_st_flag_column_marks_st(tmp_path: Path) -> None:
    pool = load_rows(
        tmp_path, [["代码", "名称", "ST股票"], ["300313", "天山生物", "是"], ["600519", "贵州茅台", "否"]]
    )
    assert pool.frame["is_st"].to_list() == [True, False]


# --- numbers -------------------------------------------------------------------------------------------


def test_pe_forms(tmp_path: Path) -> None:
    pes = ["", "--", "亏损", "-90.65", "0", "N/A", "－", "12.5倍", "1,234.5"]
    rows = [["代码", "市盈率TTM"], *([f"60000{i}", pe] for i, pe in enumerate(pes))]
    pool = load_rows(tmp_path, rows, sep="\t", name="pool.tsv")
    assert pool.errors == []
    assert pool.frame["pe_ttm"].to_list() == [None, None, None, -90.65, 0.0, None, None, 12.5, 1234.5]
    assert pool.frame["pe_raw"].to_list() == [None, *pes[1:]]


def test_roe_with_and_without_percent_are_the_same(tmp_path: Path) -> None:
    roes = ["32.78%", "32.78", "３２．７８％", " 32.78 % ", "", "-5%"]
    pool = load_rows(tmp_path, [["代码", "净资产收益率(%)"], *([f"60000{i}", r] for i, r in enumerate(roes))])
    assert pool.errors == []
    assert pool.frame["roe"].to_list() == [32.78, 32.78, 32.78, 32.78, None, -5.0]


def test_amounts_with_units_and_separators(tmp_path: Path) -> None:
    values = ["1,234,567", "577.12万", "-1.96亿", "1.2万亿", "3元", "−8", "", "--"]
    pool = load_rows(
        tmp_path,
        [["代码", "净利润_2024"], *([f"60000{i}", v] for i, v in enumerate(values))],
        sep="\t",
        name="pool.tsv",
    )
    assert pool.errors == []
    assert pool.frame["net_profit_2024"].to_list() == [
        1_234_567.0,
        5_771_200.0,
        -196_000_000.0,
        1.2e12,
        3.0,
        -8.0,
        None,
        None,
    ]


@pytest.mark.parametrize(
    ("column", "value"),
    [
        ("市盈率TTM", "abc"),
        ("ROE", "高"),
        ("每股收益", "1.2.3"),
        ("ROE", "12倍"),
        ("市盈率TTM", "5%"),
        ("净利润_2024", "1,2"),
    ],
)
def test_garbage_in_a_numeric_column_is_a_row_error_naming_the_column(
    tmp_path: Path, column: str, value: str
) -> None:
    pool = load_rows(tmp_path, [["代码", column], ["600519", "1"], ["000001", value]], sep="\t", name="p.tsv")
    assert pool.frame["code"].to_list() == ["600519.SH"]
    assert pool.errors == [RowError(3, column, f"not a number: '{value}'")]


# --- hostile numbers: finite, but no figure of a listed company ---------------------------------------


@pytest.mark.parametrize(
    ("column", "value", "what"),
    [
        ("市盈率TTM", "1e308", "a PE beyond ±1e6"),
        ("市盈率TTM", "-2000000", "a PE beyond ±1e6"),
        ("ROE", "1e308", "a percent beyond ±1e4"),
        ("ROE", "-12000%", "a percent beyond ±1e4"),
        ("每股收益", "1e300元", "a per-share value beyond ±1e6 yuan"),
        ("净利润_2024", "1e308", "an amount beyond ±1e14 yuan"),
        ("净利润_2024", "1e301亿", "an amount beyond ±1e14 yuan"),  # finite, infinite once scaled to yuan
        ("净利润_2024", "200万亿", "an amount beyond ±1e14 yuan"),
    ],
)
def test_an_implausible_value_is_a_row_error_naming_row_and_column(
    tmp_path: Path, column: str, value: str, what: str
) -> None:
    pool = load_rows(tmp_path, [["代码", column], ["600519", "1"], ["000001", value]], sep="\t", name="p.tsv")
    assert pool.frame["code"].to_list() == ["600519.SH"]
    assert pool.errors == [RowError(3, column, f"implausible value: '{value}' ({what})")]


def test_values_at_the_plausible_limits_are_kept(tmp_path: Path) -> None:
    header = ["代码", "市盈率TTM", "ROE", "每股收益", "净利润_2024"]
    rows = [
        ["600519", "1e6", "-1e4", "1000000", "100万亿"],
        ["000001", "-999999.5", "9999%", "-1e6", "-1e14"],
    ]
    pool = load_rows(tmp_path, [header, *rows])
    assert pool.errors == []
    assert pool.frame.select("pe_ttm", "roe", "eps", "net_profit_2024").rows() == [
        (1e6, -1e4, 1e6, 1e14),
        (-999999.5, 9999.0, -1e6, -1e14),
    ]


def test_a_1e308_row_is_a_row_error_and_the_run_goes_on(tmp_path: Path) -> None:
    """The hostile file that stopped `screen` with `internal error: OverflowError` (the score's arithmetic
    and the report's chart axes overflowed): now errors.csv names the row and both cells, the rest screens."""
    pool = write_csv(
        tmp_path,
        [
            ["代码", "名称", "市盈率TTM", "净资产收益率", "每股收益"],
            ["600519", "贵州茅台", "1e308", "1e308", "1"],
            ["000001", "平安银行", "10", "12", "1"],
        ],
    )
    out = tmp_path / "out"
    cmd = [sys.executable, "-m", "lmscreen", "screen", str(pool), "--no-llm", "--out", str(out)]
    proc = run_lmscreen(cmd[3:])  # in this process, fd 1 and 2 captured (tests/inproc.py)
    assert proc.returncode == 0, proc.stderr
    assert "internal error" not in proc.stderr
    errors = pl.read_csv(out / "errors.csv", infer_schema_length=0)
    assert errors.select("row", "column", "reason").rows() == [
        ("2", "市盈率TTM", "implausible value: '1e308' (a PE beyond ±1e6)"),
        ("2", "净资产收益率", "implausible value: '1e308' (a percent beyond ±1e4)"),
    ]
    results = pl.read_csv(out / "results.csv", infer_schema_length=0)
    assert results["code"].to_list() == ["000001.SZ"]
    assert (out / "report.html").is_file()


def test_loss_two_years_uses_the_last_two_available_years(tmp_path: Path) -> None:
    header = ["代码", "净利润_2022", "净利润_2023", "净利润_2024"]
    rows = [
        ["600001", "5", "-1", "-2"],  # both last years lost
        ["600002", "-5", "-1", "2"],  # recovered
        ["600003", "-5", "-1", ""],  # 2024 missing: 2022 and 2023 are the last two
        ["600004", "", "", "-3"],  # one year only
        ["600005", "", "", ""],
    ]
    pool = load_rows(tmp_path, [header, *rows])
    assert pool.frame["loss_two_years"].to_list() == [True, False, True, None, None]


def test_without_history_loss_two_years_is_null(tmp_path: Path) -> None:
    pool = load_rows(tmp_path, [["代码"], ["600519"]])
    assert pool.frame["loss_two_years"].to_list() == [None]
    assert pool.frame.schema["loss_two_years"] == pl.Boolean


# --- duplicates and errors -----------------------------------------------------------------------------


def test_duplicated_codes_keep_the_first(tmp_path: Path) -> None:
    rows = [
        ["代码", "名称"],
        ["600519", "贵州茅台"],
        ["000001", "平安银行"],
        ["sh600519", "茅台2"],
        ["600519.SS", "茅台3"],
    ]
    pool = load_rows(tmp_path, rows)
    assert pool.frame["name"].to_list() == ["贵州茅台", "平安银行"]
    assert pool.errors == [
        RowError(4, "代码", "duplicate of row 2"),
        RowError(5, "代码", "duplicate of row 2"),
    ]


def test_a_rejected_first_occurrence_does_not_hide_the_next(tmp_path: Path) -> None:
    rows = [["代码", "ROE"], ["600519", "abc"], ["600519.SH", "30"]]
    pool = load_rows(tmp_path, rows)
    assert pool.frame["row"].to_list() == [3]
    assert pool.errors == [RowError(2, "ROE", "not a number: 'abc'")]


def test_one_malformed_row_among_100(tmp_path: Path) -> None:
    header = ["代码", "名称", "市盈率TTM", "净资产收益率"]
    rows = [[f"{600000 + i}", f"公司{i}", "15.5", "12.1%"] for i in range(100)]
    rows[41][3] = "十二"  # spreadsheet row 43
    pool = load_rows(tmp_path, [header, *rows])
    assert pool.frame.height == 99
    assert pool.errors == [RowError(43, "净资产收益率", "not a number: '十二'")]
    assert 43 not in pool.frame["row"].to_list()
    assert pool.frame["row"].to_list() == [r for r in range(2, 102) if r != 43]


def test_every_problem_of_a_row_is_listed(tmp_path: Path) -> None:
    pool = load_rows(tmp_path, [["代码", "PE-TTM", "ROE"], ["XYZ", "x", "y"]])
    assert [(e.row, e.column) for e in pool.errors] == [(2, "代码"), (2, "PE-TTM"), (2, "ROE")]
    assert pool.frame.height == 0
    assert pool.error_frame.columns == ["row", "column", "reason"]


def test_frame_follows_the_contract(tmp_path: Path) -> None:
    pool = load_rows(
        tmp_path, [["代码", "名称", "净利润_2023", "净利润_2024"], ["600519", "贵州茅台", "1", "2"]]
    )
    assert pool.frame.schema == pl.Schema(
        {
            "row": pl.Int64,
            "code": pl.String,
            "code_raw": pl.String,
            "name": pl.String,
            "industry": pl.String,
            "is_st": pl.Boolean,
            "pe_ttm": pl.Float64,
            "pe_raw": pl.String,
            "roe": pl.Float64,
            "eps": pl.Float64,
            "report_text": pl.String,
            "loss_two_years": pl.Boolean,
            "net_profit_2023": pl.Float64,
            "net_profit_2024": pl.Float64,
        }
    )
    assert pool.warnings == ["no roe column", "no pe_ttm column"]


def test_roe_given_as_fractions_is_flagged(tmp_path: Path) -> None:
    rows = [[f"60000{i}", f"0.{i + 1}"] for i in range(6)]
    pool = load_rows(tmp_path, [["代码", "ROE"], *rows])
    assert any("fractions" in w for w in pool.warnings)


# --- files that are not usable pools -------------------------------------------------------------------


def test_no_code_column_raises_naming_the_file(tmp_path: Path) -> None:
    path = write_csv(tmp_path, [["名称", "市盈率TTM"], ["贵州茅台", "20"]])
    with pytest.raises(InputError) as info:
        load_pool(path)
    message = str(info.value)
    assert message.startswith(f"{path}: no code column (looked for 代码, 证券代码")
    assert "\n" not in message


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (b"", "empty file"),
        (b"   \n\n", "empty file"),
        ("这是一段说明文字，不是表格。\n第二行。\n".encode(), "not a table"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "not a table (binary data)"),
        (b"PK\x03\x04not really a zip", "not a table"),
        (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 64, "binary Excel 97-2003"),
        ("代码,名称\n".encode(), "no data rows"),
    ],
)
def test_unusable_files_raise_one_line_naming_the_file(tmp_path: Path, content: bytes, expected: str) -> None:
    path = tmp_path / "bad.xls"
    path.write_bytes(content)
    with pytest.raises(InputError) as info:
        load_pool(path)
    assert str(info.value).startswith(f"{path}: ")
    assert expected in str(info.value)
    assert "\n" not in str(info.value)


def test_missing_file_raises_input_error(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="cannot read"):
        load_pool(tmp_path / "nope.csv")
