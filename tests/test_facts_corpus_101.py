"""Wrong figures a precision read of a new corpus of real news flashes (Ya-dongLi/CFSC, the Chinese
Financial Sentiment Corpus: 349 texts naming a screened figure, 103 kept values read by hand) showed the
reader keeping: a subsidiary's profit named after the announcement's opening (`X公告，子公司Y…`), a
subsidiary's revenue said to be a share of the company's total, the top company of a round-up's ranking,
last year's figure in a sentence that opens on 去年同期; and a virus's name read as a year. Texts written
here in those shapes; the reader is the real one.
"""

from __future__ import annotations

import pytest

from lmscreen.task.facts import read_facts


def _kept(text: str, field: str) -> float | None:
    fact = read_facts(text).screening()[field].fact
    return None if fact is None else fact.value


@pytest.mark.parametrize(
    ("text", "field"),
    [
        # a subsidiary's figures after the announcement's opening, even under an owners' label
        (
            "某某证券公告，子公司某某财富2023年1-6月实现营业收入18.03亿元，归属于某某财富所有者的净利润4.95亿元。",
            "net_profit",
        ),
        (
            "华远股份披露，全资子公司嘉禾新材上半年实现营业收入3.2亿元，归属于嘉禾新材股东的净利润5100万元。",
            "net_profit",
        ),
        # a figure said to be a share of the company's own total is a part's
        (
            "东岭能源：控股子公司新岭煤业停产；新岭煤业年核定产能200万吨，2022年生产煤炭144万吨，营业收入8.86亿元，"
            "占公司2022年度总收入的30%",
            "revenue",
        ),
        # the first of a round-up's ranking, named before the figure
        (
            "截至目前，已有18家上市公司披露了半年度业绩快报。上半年净利润同比增幅最大的是某某物流，实现净利润12.71亿元，"
            "同比增长164.24%；某某航运、某某化学净利润增幅也超过100%。",
            "net_profit",
        ),
        # a sentence opening on last year's same period states that period's figure
        (
            "某某股份公告，公司子公司某某置业今年上半年有新房交付，实现净利润6682.50万元。"
            "而去年同期只有存量房源在售，实现净利润1441.43万元。",
            "net_profit",
        ),
    ],
)
def test_a_figure_that_is_not_the_companys_is_not_kept(text: str, field: str) -> None:
    assert _kept(text, field) is None


def test_a_subsidiary_named_again_after_it_was_introduced_is_still_the_subsidiary() -> None:
    text = "东岭能源：控股子公司新岭煤业停产；新岭煤业核定产能200万吨，2022年产煤144万吨，营业收入8.86亿元。"
    assert read_facts(text, names=("东岭能源",)).screening()["revenue"].fact is None
    own = "东岭能源公告，全资子公司新岭煤业完成技改。东岭能源上半年实现营业收入8.86亿元，净利润1.2亿元。"
    assert read_facts(own, names=("东岭能源",)).screening()["revenue"].fact.value == pytest.approx(8.86e8)


def test_a_first_quarter_report_published_with_an_annual_report_is_the_next_years() -> None:
    text = (
        "某某堂披露一季度报告，实现营业收入2.91亿元，同比下降55.35%；净亏损2735.36万元，上年同期为亏损4918.54万元。"
        "同日披露2021年报，实现营业收入21.64亿元，同比下降26.79%；净亏损7.03亿元。"
    )
    sheet = read_facts(text)
    assert sheet.period is not None and (sheet.period.year, sheet.period.sub) == (2022, "Q1")
    revenue = sheet.screening()["revenue"].fact
    assert revenue is not None and revenue.value == pytest.approx(2.91e8)
    assert (revenue.period.year, revenue.period.sub) == (2022, "Q1")


def test_a_year_in_a_virus_name_is_no_period() -> None:
    text = (
        "某某基因业绩快报：上半年实现净利润25.57亿元，同比增长112.59%；市场对新型冠状病毒（2019-nCoV）"
        "核酸检测试剂盒的需求持续，对公司业绩产生了积极影响"
    )
    sheet = read_facts(text)
    assert sheet.period is None or sheet.period.year != 2019
    assert _kept(text, "net_profit") == pytest.approx(25.57e8)


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        # the announcing company's own figures, after an opening that names it
        (
            "某某股份公告，上半年公司实现营业收入9.35亿元，同比增长13.64%；实现归属于上市公司股东的净利润1.94亿元。",
            "net_profit",
            1.94e8,
        ),
        # a net profit said as a share of revenue is still the company's
        ("公司上半年实现营业收入20亿元，净利润2亿元，占营业收入的10%。", "net_profit", 2e8),
        # last year's figure first, then this period's, in one sentence
        (
            "某某酒业2024年年度报告摘要：上年同期归属于上市公司股东的净利润为94.38亿元，本期实现归属于上市公司股东的"
            "净利润112.43亿元。",
            "net_profit",
            112.43e8,
        ),
        # 去年同期 opening a sentence whose figure carries its change: this period's
        (
            "去年同期受疫情影响基数较低，公司上半年实现净利润3.2亿元，同比增长80%。",
            "net_profit",
            3.2e8,
        ),
    ],
)
def test_the_companys_own_figures_stay(text: str, field: str, value: float) -> None:
    assert _kept(text, field) == pytest.approx(value)


def test_the_companys_own_accounts_of_an_ended_period_are_actual() -> None:
    text = (
        "某某医药公告，财务部门测算，2022年度上半年公司取得了创纪录的业绩增长，实现营业收入127.56亿元，同比增长58.52%；"
        "归母净利润36.35亿元，同比增长63.29%。"
    )
    assert _kept(text, "revenue") == pytest.approx(127.56e8)


def test_the_accounts_of_a_preannouncement_stay_a_forecast() -> None:
    text = "某某股份发布半年度业绩预告。经公司财务部门初步测算，2022年上半年实现营业收入17.56亿元。"
    assert _kept(text, "revenue") is None
