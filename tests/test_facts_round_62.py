"""Wrong figures blind round 62 showed the reader keeping: a margin in a sentence about an industry
(`起重机行业CR3占比95.9%+，…，毛利率恢复至27%左右`), and a city's tourism revenue in a news item that names no
company and no report. Texts written here in that shape; the reader is the real one.
"""

from __future__ import annotations

import pytest

from lmscreen.task.facts import read_facts


def test_a_margin_in_a_sentence_opening_on_an_industry_is_the_industrys() -> None:
    text = (
        "2021年前三季度甲乙重工实现营业收入254亿元，同比增长42.5%，归母净利润56.9亿元。"
        "挖掘机行业CR4占比70.2%，行业竞争充分，龙头份额持续提升，伴随规模效应，毛利率恢复至28%左右，"
        "向上仍有一定空间。"
    )
    sheet = read_facts(text)
    assert sheet.screening()["gross_margin"].fact is None
    margins = [f for f in sheet.facts if f.metric == "gross_margin"]
    assert margins and all(f.scope == "industry" for f in margins)


def test_the_companys_margin_after_an_industry_opening_stays_the_companys() -> None:
    text = (
        "2021年前三季度甲乙重工实现营业收入254亿元，同比增长42.5%。"
        "挖掘机行业需求回暖，公司毛利率提升至28.4%。"
    )
    got = read_facts(text).screening()
    assert got["gross_margin"].fact is not None
    assert got["gross_margin"].fact.value == pytest.approx(28.4)


def test_a_public_bodys_text_naming_no_company_and_no_report_has_no_company_figures() -> None:
    text = (
        "10月1日晚，杭州市文旅局发布假日首日数据：全市重点监测的120家旅游景区共接待游客88.1万人次，同比增长21.6%，比2019年增长1.1倍；"
        "营业收入0.8亿元，同比增长39%。10月1日，乡村游累计接待游客30.2万人次，同比增长94.5%；"
        "营业收入4105.3万元，同比增长1.7倍，比2019年增长34.8%。"
    )
    got = read_facts(text).screening()
    assert got["revenue"].fact is None
    assert not got["revenue"].conflict


@pytest.mark.parametrize(
    "opening",
    ["甲乙科技公布2020年年度报告，", "甲乙科技2020年业绩：", "甲乙科技（600123）"],
)
def test_a_company_or_report_named_keeps_the_figures(opening: str) -> None:
    text = f"{opening}实现营业收入21.55亿元，同比减少6.87%；净利润2.44亿元，同比减少34.73%。"
    got = read_facts(text).screening()
    assert got["revenue"].fact is not None
    assert got["revenue"].fact.value == pytest.approx(21.55e8)


def test_a_row_name_in_the_text_is_a_company_named() -> None:
    text = "甲乙科技2020年实现营收21.55亿元，同比减少6.87%。"
    assert read_facts(text, names=("甲乙科技",)).screening()["revenue"].fact is not None


def test_a_bare_excerpt_naming_no_one_keeps_its_figures() -> None:
    text = "2021年营业收入0.8亿元，同比增长39%；归母净利润0.12亿元，同比增长21%。"
    assert read_facts(text).screening()["revenue"].fact is not None


QUOTE_PAGE = (
    "财务数据最近的财报数据显示，该股于2023年07月14日每股收益 0.215元营业利润 0.31亿元"
    "市盈率 41.2203销售毛利率 33.417%净利润 21,305,118.52元2023年7月14日星期五"
)


def test_a_quote_pages_gai_gu_is_the_company() -> None:
    """`该股` (the stock) is the company the page is about, not a segment named 该股."""
    got = read_facts(QUOTE_PAGE).screening()
    assert got["gross_margin"].fact is not None
    assert got["gross_margin"].fact.value == pytest.approx(33.417)


def test_a_number_before_a_label_closes_the_words_before_it() -> None:
    """`销售毛利率 33.417%净利润 21,305,118.52元`: 毛利 before the margin's number is the margin's word, not a
    qualifier of the 净利润 after it (which excludes 毛利 profit)."""
    got = read_facts(QUOTE_PAGE.replace("该股于", "公司于")).screening()
    assert got["net_profit"].fact is not None
    assert got["net_profit"].fact.value == pytest.approx(21305118.52)


def test_a_qualifier_right_before_the_label_still_excludes() -> None:
    text = "2021年公司实现营业收入5.2亿元，同比增长12%，营业利润0.8亿元，利润总额0.9亿元。"
    assert read_facts(text).screening()["net_profit"].fact is None


@pytest.mark.parametrize(
    "sentence",
    [
        "受益于行业需求回暖，毛利率提升至31.2%。",
        "白酒行业景气度高，实现营收25.4亿元，毛利率提升至31.2%。",
    ],
)
def test_an_industry_as_cause_or_before_the_companys_doing_is_no_topic(sentence: str) -> None:
    text = "2021年甲乙酒业实现营业收入25.4亿元，同比增长20.3%。" + sentence
    got = read_facts(text).screening()
    assert got["gross_margin"].fact is not None
    assert got["gross_margin"].fact.value == pytest.approx(31.2)
