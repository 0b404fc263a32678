"""What held-out rounds 112 and 113 (whole broker reports a PDF extractor printed without line breaks)
showed the reader doing wrong. Texts written here in those shapes; the reader is the real one.
"""

from __future__ import annotations

from lmscreen.task.facts import read_facts
from lmscreen.task.periods import Period


def _kept(text: str, field: str, name: str = "") -> float | None:
    fact = read_facts(text, names=(name,)).screening()[field].fact
    return None if fact is None else fact.value


# A sector report whose cover names no report type: its opening recommends listed companies by code, its
# body quotes their results.
_SECTOR = (
    "MiniLED系列报告：商业化进程加速，封装环节弹性突出■投资建议：我们认为封装将是产业链中弹性最大的环节。"
    "建议关注甲光电（002449.SZ）、乙智汇（300219.SZ）、丙股份（002429.SZ）。■风险提示：渗透不及预期。"
    "3.封装产业链重点公司介绍3.1.乙智汇疫情影响整体营收，随形势改善，业绩有望修复。2020年，公司前三季度"
    "实现营收21.07亿元，同比-21.48%；实现归母净利润0.63亿元，同比+108.74%。Q3毛利率达21.42%。"
)


def test_a_sector_report_naming_three_codes_keeps_no_companys_figure() -> None:
    assert _kept(_SECTOR, "revenue") is None
    assert _kept(_SECTOR, "gross_margin") is None


def test_a_sector_report_naming_the_company_keeps_its_figures() -> None:
    # the company is one of the covered names: its figures are still read as before
    assert _kept(_SECTOR, "revenue", "乙智汇") == 2_107_000_000.0


def test_a_company_note_opening_on_its_own_code_keeps_its_figures() -> None:
    text = (
        "甲医美（300896）三季报点评2020年10月28日。公司前三季度实现营收4.64亿元，同比+17.40%，"
        "取得归母净利润2.90亿元，同比+31.83%。"
    )
    assert _kept(text, "revenue") == 464_000_000.0


# A heading that says how a result did runs, with no stop, into the sentence that gives it.
def test_a_headings_verdict_on_a_result_names_no_part() -> None:
    text = (
        "甲医美（300896）三季报点评。营收稳健增长，利润表现强劲公司前三季度实现营收4.64亿元，同比+17.40%。"
        "盈利能力：费用率管控良好，净利率水平快速提升公司前三季度实现毛利率91.54%，同比-1.03pct。"
    )
    assert _kept(text, "revenue", "甲医美") == 464_000_000.0
    assert _kept(text, "gross_margin", "甲医美") == 91.54


def test_a_parts_showing_keeps_its_name() -> None:
    text = "甲医美（300896）三季报点评。医美业务表现强劲前三季度实现营收2.10亿元，同比+40%。"
    assert _kept(text, "revenue", "甲医美") is None


# A deep report opening on an industry's year, its forecast table marking the latest results `2020A`.
_DEEP = (
    "甲医美（300896）深度研究2021年02月10日投资要点：2018年中国医疗美容市场规模达到1216.7亿元，预计到2023年"
    "将达到3601.3亿元。盈利预测项目\\年度2020A2021E2022E2023E营业收入（百万元）709.291005.851403.751922.32"
    "资料来源：Choice。公司2019年营收5.58亿元。甲医美2020年全年实现营收7.09亿元（+27.1%）。"
)


def test_a_year_the_forecast_table_marks_actual_is_the_documents() -> None:
    sheet = read_facts(_DEEP, names=("甲医美",))
    assert sheet.period == Period(2020, "FY")
    assert _kept(_DEEP, "revenue", "甲医美") in (709_000_000.0, 709_290_000.0)  # prose's or the table's


def test_a_table_marking_an_earlier_year_actual_leaves_a_later_period() -> None:
    text = (
        "甲医美（300896）三季报点评。公司2020年前三季度实现营收4.64亿元，同比+17.40%。"
        "盈利预测项目\\年度2019A2020E2021E营业收入（百万元）557.72721.141091.14"
    )
    assert read_facts(text, names=("甲医美",)).period == Period(2020, "Q1-Q3")


# Round 113: a turn back to an earlier level, between the quarter's margin and the nine months'.
_TURN = (
    "甲医美（300896）跟踪点评。公司上半年受疫情影响毛利率略有1.9pp下滑至90.2%，但Q3单季度已经基本恢复去年"
    "同期毛利率水准，达到93.0%，由此前三季度毛利率降幅缩窄至1.1pp，毛利率达到91.5%；毛利率维持高位。"
)


def test_a_turn_back_to_an_earlier_level_names_no_part() -> None:
    text = "甲医美（300896）跟踪点评。公司2020年前三季度营收4.64亿元。" + _TURN
    assert _kept(text, "gross_margin", "甲医美") == 91.5


def test_a_parts_turn_back_keeps_its_name() -> None:
    text = (
        "甲医美（300896）跟踪点评。公司2020年前三季度营收4.64亿元。但医美业务已经基本恢复去年同期水准，"
        "毛利率达到91.5%。"
    )
    assert _kept(text, "gross_margin", "甲医美") is None
