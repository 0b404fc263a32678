"""Figures blind round 61 (and the sweep after it) showed the reader missing: a note whose own period reads
as a year it prints no revenue or profit for, beside the next first quarter's revenue and profit.
Texts written here in that shape; the reader is the real one.
"""

from __future__ import annotations

import pytest

from lmscreen.task.facts import read_facts
from lmscreen.task.periods import Period


def test_next_first_quarter_stands_when_the_year_prints_no_revenue_or_profit() -> None:
    """A note that reads as the year (a target's 2021 figures, a `2022年年度业绩说明会`) but prints the
    company's revenue and profit only for the next first quarter: those are its latest own figures."""
    text = (
        "甲乙科技召开2021年年度业绩说明会，回答投资者提问。"
        "此前公司拟收购丙丁生物100%股权，2021年丙丁生物营业收入约为6120万元，净利润约为3310万元。"
        "公司2022Q1季度实现营业收入3.42亿元，同比增长21.50%，归母净利润1.06亿元，同比增长18.20%。"
        "公司2022Q1季度毛利率为47.35%，同比提升0.42pct。"
    )
    sheet = read_facts(text)
    assert sheet.period == Period(2021, "FY")
    got = sheet.screening()
    assert got["revenue"].fact.value == pytest.approx(3.42e8)
    assert got["revenue"].fact.period == Period(2022, "Q1")
    assert got["net_profit"].fact.value == pytest.approx(1.06e8)
    assert got["gross_margin"].fact.value == pytest.approx(47.35)


def test_a_year_with_its_own_profit_keeps_the_quarter_out() -> None:
    """The year's profit printed: the quarter is quoted beside the year, not the note's own figure, even for
    a field whose year figure is not read."""
    text = (
        "甲乙科技召开2021年年度业绩说明会，回答投资者提问。"
        "2021年公司实现归母净利润4.18亿元，同比增长12.30%。"
        "公司2022Q1季度实现营业收入3.42亿元，同比增长21.50%，归母净利润1.06亿元，同比增长18.20%。"
    )
    got = read_facts(text).screening()
    assert got["net_profit"].fact.value == pytest.approx(4.18e8)
    assert got["revenue"].fact is None


def test_the_quarter_alone_needs_both_its_revenue_and_profit() -> None:
    text = (
        "甲乙科技召开2021年年度业绩说明会，回答投资者提问。"
        "公司2022Q1季度实现营业收入3.42亿元，同比增长21.50%。公司2022Q1季度毛利率为47.35%。"
    )
    got = read_facts(text).screening()
    assert got["revenue"].fact is None
    assert got["gross_margin"].fact is None


@pytest.mark.parametrize("cause", ["综合作用下", "在此作用下", "多重因素作用下"])
def test_a_cause_ending_in_zuo_yong_xia_names_no_segment(cause: str) -> None:
    """`综合作用下ROE同比+7.7pct至17.9%`: what moved the figure, as `综合影响下` is, not a part's name."""
    text = (
        "2021年公司实现营业收入52.1亿元，同比增长55.0%。"
        f"期间费用率同比-2.0pct至22.4%，{cause}ROE同比+7.7pct至17.9%。"
    )
    got = read_facts(text).screening()
    assert got["roe"].fact is not None
    assert got["roe"].fact.value == pytest.approx(17.9)
