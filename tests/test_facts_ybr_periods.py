"""Whole broker reports (issue #22's real-yanbao-reports): a forecast table's glued header that marks only
its estimates (`201820192020E2021E2022E`) dates the text by its last unmarked year; a sentence that dates
its half year once (`2020年上半年…，…上半年嗨体收入…，带动公司归母净利润…`) dates its later yearless halves;
a change's size followed by 达 leads to the level (`同比增长15%达1.5亿元`); a run of percents with nothing
between them is a table's row, not a sentence's figure. Texts written here in those shapes; the reader is
the real one.
"""

from __future__ import annotations

from lmscreen.task.facts import read_facts
from lmscreen.task.periods import Period


def _kept(text: str, field: str, name: str = "某公司") -> float | None:
    fact = read_facts(text, names=(name,)).screening()[field].fact
    return None if fact is None else fact.value


_FORECAST = (
    "公司点评报告。盈利预测与估值201820192020E2021E2022E营业收入(百万元)1558.451604.331332.431846.502222.92"
    "归母净利润(百万元)414.54370.78312.34483.60616.10资料来源：Wind。"
)


def test_the_last_year_before_the_estimates_dates_the_text() -> None:
    sheet = read_facts(_FORECAST, names=("某公司",))
    assert sheet.period == Period(2019, "FY")
    assert _kept(_FORECAST, "revenue") == 1_604_330_000.0
    assert _kept(_FORECAST, "net_profit") == 370_780_000.0


def test_a_header_of_years_only_dates_nothing() -> None:
    text = _FORECAST.replace("2020E2021E2022E", "202020212022")
    assert read_facts(text, names=("某公司",)).period != Period(2019, "FY")


_YEAR_FIRST = (
    "公司营业收入从2014年的0.8亿元提升至2019年的5.6亿元，归母净利润从2014年的0.3亿元提升至2019年的3.1亿元。"
)


def test_a_yearless_half_takes_the_year_its_sentence_named() -> None:
    text = (
        _FORECAST + _YEAR_FIRST + "2020年上半年疫情背景下，公司凭借嗨体的优势，上半年嗨体收入同比增长58%，"
        "带动公司归母净利润同比增长15%达1.5亿元。"
    )
    facts = read_facts(text, names=("某公司",)).facts
    level = [f for f in facts if f.metric == "net_profit" and f.value == 150_000_000.0]
    assert level and all(f.period == Period(2020, "H1") and f.basis == "actual" for f in level)


def test_a_yearless_half_alone_is_still_the_main_years() -> None:
    text = _FORECAST + "上半年公司归母净利润1.5亿元。"
    facts = read_facts(text, names=("某公司",)).facts
    assert [f.period for f in facts if f.value == 150_000_000.0] == [Period(2019, "H1")]


def test_the_level_a_change_reaches_after_da_is_read() -> None:
    text = "公司发布2020年半年报。2020年上半年，公司归母净利润同比增长15%达1.5亿元。"
    assert _kept(text, "net_profit") == 150_000_000.0


def test_a_change_that_reaches_a_size_is_no_level() -> None:
    text = "公司发布2020年半年报。2020年上半年，公司归母净利润同比增长达15%。"
    assert _kept(text, "net_profit") is None


def test_a_percent_row_run_together_is_no_sentences_figure() -> None:
    text = (
        "公司发布2020年年报。2020全年毛利率33.05%，同比提升1pct。"
        "归母净利润同比21.2%27.5%15.2%57.8%37.6%-28.6%毛利率31.7%29.1%27.8%27.3%34.8%31.6%"
    )
    assert _kept(text, "gross_margin") == 33.05


def test_a_percent_ending_a_sentence_before_a_year_is_still_read() -> None:
    text = "公司发布2020年年报。2020全年毛利率33.05%。2021年公司将继续扩产。"
    assert _kept(text, "gross_margin") == 33.05


def test_a_comparisons_base_lends_no_year_to_a_later_half() -> None:
    text = (
        "公司发布2021年半年度报告，上半年营业收入为12.12亿元，同比增长60.61%，较19H1增长37.42%，"
        "利润端方面，上半年亏损1.07亿元，业绩符合市场预期。"
    )
    assert _kept(text, "net_profit") == -107_000_000.0


_INITIATION = (
    "迈瑞医疗（300760）公司研究·医疗器械买入（首次）盈利预测与估值2018A2019E2020E2021E"
    "营业收入（百万元）13,75316,56319,92423,918同比（%）23.1%20.4%20.3%20.0%"
    "归母净利润（百万元）3,7194,6805,6136,651同比（%）43.6%25.8%19.9%18.5%投资要点迈瑞医疗：国内医疗器械企业领头羊。"
    + "国际医疗器械市场规模5%左右稳定增长，我国市场增速接近20%。"
    * 40
    + "财务状况：2019年上半年公司实现营业收入82.06亿元，同比增长20.52%，"
    "实现归母净利润23.69亿元，同比增长26.57%。"
    "2019Q1-Q3公司营业收入123.79亿元（+20.43%），归母净利润36.71亿元（+26.74%）。"
)
_ROE = "公司ROE由42.16%下降到22.33%，是由于2018年公司募集大量资金导致净资产成倍增长拉低了ROE。"


def test_undated_figures_follow_the_later_report_a_header_year_gave_way_to() -> None:
    sheet = read_facts(_INITIATION + _ROE, names=("迈瑞医疗",))
    assert sheet.period == Period(2019, "Q1-Q3")
    assert _kept(_INITIATION + _ROE, "roe", "迈瑞医疗") == 22.33


def test_undated_figures_of_the_header_year_stay_its_own() -> None:
    text = _INITIATION.split("财务状况")[0] + "2018年公司营业收入137.53亿元，归母净利润37.19亿元。" + _ROE
    sheet = read_facts(text, names=("迈瑞医疗",))
    assert sheet.period == Period(2018, "FY")
    assert _kept(text, "roe", "迈瑞医疗") == 22.33
