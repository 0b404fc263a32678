"""Whole broker reports extracted from PDFs with nothing between a table's cells (issue #22's
real-yanbao-reports): forecast and statement tables whose cells are integers grouped by thousands
(`营业收入30,66335,446…`), whose rows interleave with a second statement's or are one year short,
whose unit is printed before the header (`会计年度(人民币百万)`), that break figures down by product, or
whose last column is a half year (`2014…20192020H1`). Texts written here in those shapes; the reader is
the real one.
"""

from __future__ import annotations

from lmscreen.task.facts import read_facts
from lmscreen.task.tables import growth_checked_cut, split_cells


def _kept(text: str, field: str, name: str = "某公司") -> float | None:
    fact = read_facts(text, names=(name,)).screening()[field].fact
    return None if fact is None else fact.value


_NOTE = "公司发布2019年年报，业绩符合预期。"


def test_cells_grouped_by_thousands_are_cut_at_their_commas() -> None:
    assert split_cells("30,66335,44636,153") == [(0, 6), (6, 12), (12, 18)]
    assert split_cells("1,393200.71200.71") == [(0, 5), (5, 11), (11, 17)]
    assert split_cells("7444,5735,049") is None  # 744 and 4,573, or 7,444? a bare integer beside: unread
    assert split_cells("785.171,0951,085") is None  # 785.17 and 1,095, or 785.1 and 71,095: unread


def test_a_grouped_row_gives_the_main_years_column() -> None:
    text = _NOTE + "盈利预测与估值2019A2020E2021E2022E营业收入（百万元）1,6041,2891,6952,196"
    text += "同比（%）2.9%-19.7%31.5%29.6%"
    assert _kept(text, "revenue") == 1_604_000_000.0


def test_rows_no_cut_fits_are_passed_over_and_the_unit_before_the_header_holds() -> None:
    text = (
        _NOTE + "盈利预测会计年度(人民币百万)201820192020E2021E2022E流动资产13,06413,73615,89618,74522,191"
        "营业收入30,66335,44636,15340,24646,009管理费用785.171,0951,0851,1871,426财务费用86.482.47(1.55)"
        "(24.19)(38.87)归属母公司净利润2,2672,8133,0283,2243,882资料来源：公司公告"
    )
    assert _kept(text, "revenue") == 35_446_000_000.0
    assert _kept(text, "net_profit") == 2_813_000_000.0


def test_a_row_without_a_unit_reads_nothing_when_none_is_printed() -> None:
    text = _NOTE + "盈利预测201820192020E2021E2022E营业收入30,66335,44636,15340,24646,009资料来源：公司公告"
    assert _kept(text, "revenue") is None


def test_a_growth_row_does_not_make_the_columns_changes() -> None:
    text = (
        _NOTE + "现金流量表（百万元）2019A2020E2021E2022E毛利率(%)77.3%73.0%75.0%75.0%"
        "经营活动现金流349452-64737"
        "净利润增长率(%)-10.6%-38.0%85.3%31.2%资料来源：公司公告"
    )
    assert _kept(text, "gross_margin") == 77.3


_RATIOS = (
    "主要财务比率2020A2021E2022E2023E营业收入(百万元)709.291005.851403.751922.32"
    "毛利率92.17%92.20%92.62%92.77%数据来源：公司公告。"
)


def test_a_breakdown_by_product_is_no_companys_margin() -> None:
    text = (
        "公司发布2020年年报。图表60：公司主要产品营收及毛利率预测（百万元，%）产品2018201920202021E2022E2023E"
        "嗨体74.97242.59447.38688.971023.111463.05毛利率90.30%92.99%92.85%93.50%93.80%93.80%"
        "爱芙莱190.23218.99183.00210.45242.02278.32毛利率87.09%90.22%88.04%88.32%88.52%88.71%数据来源：公司公告。"
    )
    assert _kept(text, "gross_margin") is None
    assert _kept(text + _RATIOS, "gross_margin") == 92.17


def test_a_single_margin_row_is_still_the_companys() -> None:
    assert _kept("公司发布2020年年报。" + _RATIOS, "gross_margin") == 92.17


_HISTORY = (
    "报告日期：2020年10月08日。投资要点：2019年收入/归母净利体量达到5.6/3.1亿元。"
    "表9：利润表摘要（单位：百万元）2014201520162017201820192020H1营业收入75.12111.82140.73222.49321.01557.72241.90"
    "YOY48.8%25.9%58.1%44.3%73.7%0.7%毛利率93.7%91.3%87.2%86.1%89.3%92.6%90.2%"
    "归属于母公司所有者的净利润28.4217.6553.3882.19122.85305.52147.29资料来源：公司公告"
)


def test_a_history_ending_on_the_next_half_dates_the_text_and_gives_its_figures() -> None:
    sheet = read_facts(_HISTORY, names=("某公司",))
    assert str(sheet.period) == str(read_facts("2020年上半年，公司营收2亿元。", names=("某公司",)).period)
    assert _kept(_HISTORY, "revenue") == 241_900_000.0
    assert _kept(_HISTORY, "net_profit") == 147_290_000.0
    assert _kept(_HISTORY, "gross_margin") == 90.2


def test_a_history_ending_on_a_full_year_leaves_the_period() -> None:
    text = _HISTORY.replace("2020H1营业收入", "2020营业收入").replace("2020年10月08日", "2021年3月08日")
    sheet = read_facts(text, names=("某公司",))
    assert sheet.period is not None and sheet.period.sub == "FY"


_SIDE_BY_SIDE = (
    "公司发布2019年年报。财务预测表资产负债表单位:百万元利润表单位:百万元"
    "会计年度201820192020E2021E2022E会计年度201820192020E2021E2022E"
    "流动资产2292.563945.384085.974582.705271.74营业收入1558.451604.331332.431846.502222.92"
    "现金1442.753222.513387.243627.974135.84营业成本334.39364.00311.88436.88550.39资料来源：公司公告"
)


def test_two_statements_side_by_side_share_the_unit_before_both_headers() -> None:
    assert _kept(_SIDE_BY_SIDE, "revenue") == 1_604_330_000.0
    assert _kept(_SIDE_BY_SIDE, "gross_margin") == 77.31  # (1604.33 - 364.00) / 1604.33


_BARE = "公司发布2019年年报。盈利预测与估值2019A2020E2021E2022E归母净利润（百万元）371230426559"


def test_bare_integers_are_cut_where_the_growth_row_under_them_agrees() -> None:
    assert growth_checked_cut("371230426559", "-10.6%-38.0%85.3%31.2%", 4) == [
        (0, 3),
        (3, 6),
        (6, 9),
        (9, 12),
    ]
    assert (
        _kept(_BARE + "同比（%）-10.6%-38.0%85.3%31.2%每股收益（元/股）2.091.302.403.15", "net_profit")
        == 371e6
    )


def test_bare_integers_no_growth_row_confirms_are_not_read() -> None:
    assert growth_checked_cut("371230426559", "-10.6%-38.0%85.3%99.2%", 4) is None  # 426 → 559 is no 99.2%
    assert _kept(_BARE + "每股收益（元/股）2.091.302.403.15", "net_profit") is None
    assert _kept(_BARE + "同比（%）-10.6%-38.0%85.3%99.2%", "net_profit") is None
