"""Figures blind rounds 56-57 showed the reader keeping or missing: a project's feasibility study restated
a paragraph on without its forecast words (`达产后…净利润7.05亿元` then `净利润合计7.05亿元`), a half year
printed as its two quarters (`2020Q1-2实现收入24.16亿元`). Texts written
here in that shape; the reader is the real one.
"""

from __future__ import annotations

import pytest

from lmscreen.task.facts import read_facts
from lmscreen.task.periods import Period

PROJECT = (
    "事件：公司发布年产30万吨新型材料项目可行性研究报告，项目预计总投资20.5亿元，建设期预计为2年，"
    "达产后营业收入预计实现61.2亿元，净利润3.18亿元。　　可研测算盈利水平稳健。根据项目可研报告，"
    "以30万吨产销测算则单吨产品收入为2.04万元/吨。净利润合计3.18亿元，对应单吨净利1060元/吨。"
)


def test_a_forecast_restated_without_its_words_stays_a_forecast() -> None:
    got = read_facts(PROJECT).screening()
    assert got["net_profit"].fact is None
    assert got["revenue"].fact is None


def test_an_undated_result_that_no_forecast_printed_is_kept() -> None:
    # a restatement needs the same value: a different undated figure beside a forecast stays the company's
    text = "公司实现营业收入12.5亿元，净利润1.32亿元。我们预计公司明年净利润1.60亿元。"
    got = read_facts(text).screening()
    assert got["net_profit"].fact.value == pytest.approx(1.32e8)


def test_the_first_two_quarters_are_the_half_year() -> None:
    # `2020Q1-2`: the half year, its closing quarter printed beside it
    text = (
        "事件：2020Q1-2实现收入18.40亿元，同比+32.5%；归母净利润为1.21亿元，同比+4.1%。"
        "其中2020Q2实现收入10.02亿元，同比+41.3%；归母净利润为0.66亿元，同比-1.2%。"
    )
    sheet = read_facts(text)
    assert sheet.period == Period(2020, "H1")
    got = sheet.screening()
    assert got["revenue"].fact.value == pytest.approx(18.40e8)
    assert got["net_profit"].fact.value == pytest.approx(1.21e8)
