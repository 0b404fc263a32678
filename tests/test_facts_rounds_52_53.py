"""Figures blind rounds 52-53 showed the reader keeping though the text gives them as a forecast: a text
whose opening sentence announces a 业绩预告
(`公司披露2021年前三季度业绩预告，预计…；其中，21Q3归母净利0.52亿元`,
`公司公布2021年年报业绩预告，…2021年全年，公司实现营业收入约76.6亿元`)
and names no report has only the forecast's figures for that period and its closing quarter, whatever a
later clause says (`实现`, `据财报`). Texts written here in that shape; the reader is the real one.
"""

from __future__ import annotations

import pytest

from lmscreen.task.facts import read_facts

NINE_MONTHS = (
    "公司披露2021年前三季度业绩预告，预计归母净利润有望达到3.10亿元，同比增长88.20%；"
    "其中，21Q3归母净利0.71亿元，同比增长12.40%。公司业绩变动主要系线下门店提质增效。"
)

YEAR = (
    "公司公布2021年年报业绩预告，2021Q4，公司预计实现营业收入约20.1亿元，同比增长约8.5%，"
    "预计归母净利润约2.10亿元，同比增长约60%。2021年全年，公司实现营业收入约80.2亿元，同比增长约7%，"
    "实现归母净利润约7.35亿，实现扣非归母净利润约7.01亿元。"
)

HALF_YEAR = (
    "7月12日，某某旅游股份有限公司发布2023年半年度业绩预告，报告期内，公司预计实现归属于上市公司股东的"
    "净利润1.2亿元-1.4亿元，同比增长300%-340%。据财报，2023年半年度，演出共计接待游客80.1万人次，"
    "实现营业收入7512.34万元，同比上升3800%，实现净利润 3210.55 万元，同比上升470%。"
)


@pytest.mark.parametrize("text", [NINE_MONTHS, YEAR, HALF_YEAR], ids=["nine_months", "year", "half_year"])
def test_a_forecast_announced_in_the_opening_keeps_no_figure_of_its_period(text: str) -> None:
    got = read_facts(text).screening()
    # each kept the closing quarter's profit or the period's `实现` figures as actuals
    assert got["revenue"].fact is None and not got["revenue"].conflict
    assert got["net_profit"].fact is None and not got["net_profit"].conflict


def test_a_report_beside_the_forecast_keeps_its_figures() -> None:
    # a report named beside the forecast: the report's figures are actuals
    text = (
        "公司发布2021年半年报，2021年上半年，公司实现营业收入12.40亿元，实现归母净利润2.39亿元。"
        "同时发布前三季度业绩预告，预计前三季度归母净利润3.10亿元。"
    )
    got = read_facts(text).screening()
    assert got["revenue"].fact.value == pytest.approx(12.40e8)
    assert got["net_profit"].fact.value == pytest.approx(2.39e8)


def test_a_forecast_leaves_another_periods_figures_actual() -> None:
    # the nine months reported before a year's 业绩预告 are actuals: only the year and its Q4 are forecast
    text = (
        "公司发布2021年业绩预告，预计全年归母净利润5.0-6.0亿元。"
        "2021年前三季度，公司实现营业收入30.10亿元，实现归母净利润4.12亿元。"
    )
    nine = [f for f in read_facts(text).facts if f.period is not None and f.period.sub == "Q1-Q3"]
    assert {(f.metric, f.basis) for f in nine} == {("revenue", "actual"), ("net_profit", "actual")}


def test_an_overall_margin_a_part_drives_is_the_companys() -> None:
    # round 53's miss: `带动` was read as the name of the part whose margin `整体毛利率` is
    text = (
        "公司2022年实现营业收入14.47亿元，同比+54.68%；实现归母净利润2.27亿元。"
        "2022年公司非晶合金薄带及其制品/纳米晶产品毛利率分别为30.52%/23.01%，其中非晶合金毛利率同比提升8.3pcts，"
        "带动整体毛利率同比提升3.4pcts达到26.81%，公司净利率达到15.66%。"
    )
    got = read_facts(text).screening()
    assert got["gross_margin"].fact.value == pytest.approx(26.81)
