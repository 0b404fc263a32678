"""Figures blind rounds 54-55 showed the reader keeping or missing: a note about a year that goes on to the
next year's half or nine months (`2021年公司实现营收…；2022H1实现营收…`) was written after that interim
report, so the interim's figures are the document's, not the stale year's. Texts written here in that
shape; the reader is the real one.
"""

from __future__ import annotations

import pytest

from lmscreen.task.facts import read_facts
from lmscreen.task.periods import Period

HALF = (
    "某某科技成立于1998年，是国内干式变压器头部企业之一。2021年公司实现营收41.20亿元（YoY+25%），"
    "归母净利润3.10亿元（YoY+5%）；2022H1实现营收22.40亿元（YoY+30%），归母净利润1.05亿元（YoY-12%）。"
    "营收受益于需求提升维持稳定增长。"
)

NINE = (
    "公司以材料研发为基础，形成了以汽车零部件为主的业务布局。2019年公司实现营收7.15亿元，在武汉工厂受到疫情"
    "影响的情况下，公司业绩逐季度恢复，2020年前三季度实现营业总收入5.2亿，同比仅下降3.1%。"
)


@pytest.mark.parametrize(
    ("text", "period", "revenue", "profit"),
    [(HALF, Period(2022, "H1"), 22.40e8, 1.05e8), (NINE, Period(2020, "Q1-Q3"), 5.2e8, None)],
    ids=["half_year", "nine_months"],
)
def test_the_next_years_interim_is_the_document_period(
    text: str, period: Period, revenue: float, profit: float | None
) -> None:
    sheet = read_facts(text)
    assert sheet.period == period
    got = sheet.screening()
    # each kept the year's 营收 and 归母净利润 though the text had gone on to the later report
    assert got["revenue"].fact.value == pytest.approx(revenue)
    if profit is None:
        assert got["net_profit"].fact is None
    else:
        assert got["net_profit"].fact.value == pytest.approx(profit)


def test_the_next_years_first_quarter_leaves_the_year() -> None:
    # a FY note printing its next Q1 beside it keeps the year as its own
    text = (
        "公司发布2021年年报及2022年一季报，2021年实现收入21.9亿元，归属净利润3.65亿元。"
        "2022Q1公司收入8.6亿元，归属净利润1.29亿元。"
    )
    sheet = read_facts(text)
    assert sheet.period == Period(2021, "FY")
    assert sheet.screening()["revenue"].fact.value == pytest.approx(21.9e8)


MARGIN_ONLY = (
    "某某皮业为牛皮革优质生产商。2021年以来随着疫情好转业绩呈现复苏，前三季度收入yoy+40.10%、归母净利润"
    "yoy+250.30%。公司业绩预告2021年归母净利润1.60-1.90亿元、同增55.00-80.00%。"
    "2021年前三季度公司毛利率同比提升7.50pct至24.80%、主要受益于原皮价格上涨。"
)


def test_a_year_without_figures_gives_way_to_its_nine_months() -> None:
    # the year holds a 业绩预告 range and growth rates only: the nine months' margin is the text's own
    sheet = read_facts(MARGIN_ONLY)
    assert sheet.period == Period(2021, "Q1-Q3")
    assert sheet.screening()["gross_margin"].fact.value == pytest.approx(24.80)


def test_a_forecast_in_the_opening_keeps_the_year() -> None:
    # a text about the year's 业绩预告: the nine months' margin is an earlier report's
    text = (
        "事件：某某家居发布2018年业绩预告，2018年公司预计实现营业收入63.10-68.40亿元，同比增长20%-30%。"
        "2018前三季度公司实现毛利率42.70%（-1.20pct）。"
    )
    sheet = read_facts(text)
    assert sheet.period == Period(2018, "FY")
    assert sheet.screening()["gross_margin"].fact is None
