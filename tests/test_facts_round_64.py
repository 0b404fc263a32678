"""Figures blind round 64 showed the reader missing: a 其中 aside giving a quarter's level with no label of
its own (`营收4.26亿元，…，其中Q2单季度实现2.5亿元，…；实现归母净利润0.96亿元`), which carried the quarter
past its `；` onto the next item's profit.
Texts written here in that shape; the reader is the real one.
"""

from __future__ import annotations

import pytest

from lmscreen.task.facts import read_facts


def _actual(text: str, metric: str) -> dict[float, str | None]:
    return {
        round(f.value / 1e8, 2): f.period_label
        for f in read_facts(text).facts
        if f.metric == metric and f.basis == "actual"
    }


def test_a_quarters_unlabelled_level_aside_ends_at_its_semicolon() -> None:
    text = (
        "2024年上半年，公司实现营收7.35亿元，同比下降3%，其中Q2单季度实现3.9亿元，同比增长8.1%；"
        "实现归母净利润1.27亿元，同比下降6.2%，其中Q2单季度实现0.81亿元，同比增长12.5%。"
    )
    assert _actual(text, "net_profit") == {1.27: "2024H1"}
    got = read_facts(text).screening()
    assert got["revenue"].fact.value == pytest.approx(7.35e8)
    assert got["net_profit"].fact.value == pytest.approx(1.27e8)


def test_an_aside_with_its_own_label_still_governs_the_next_item() -> None:
    # `其中，2024年第二季度实现营收…；实现归母净利…`: an aside that names its own figure opens the quarter's
    # figures, and the item after it goes on with them
    text = (
        "公司发布2024年半年报，上半年实现营业收入7.35亿元，同比下降3%。其中，2024年第二季度实现营收3.9亿元，"
        "同比增长8.1%；实现归母净利润0.81亿元，同比增长12.5%。"
    )
    assert _actual(text, "net_profit") == {0.81: "2024Q2"}


def test_an_aside_opening_an_item_without_an_amount_before_it_still_governs() -> None:
    # the 其中 opens its item (no amount before it there): no figure is broken down, the quarter governs
    text = "2024年上半年公司经营稳健；其中Q2单季度实现3.9亿元，同比增长8.1%；实现归母净利润0.81亿元。"
    assert _actual(text, "net_profit") == {0.81: "2024Q2"}


def test_last_year_after_the_years_annual_report_is_that_year() -> None:
    # `…发布2020年报中，我们可以看到东方生物去年全年实现营业收入32.65亿元`: published the year after, the
    # report's year is 去年; `我们可以看到` names no part
    text = (
        "从华康科技4月26日晚发布2024年报中，我们可以看到华康科技去年全年实现营业收入41.37亿元，同比增长68.2%；"
        "实现归母净利9.15亿元，同比增长72.4%。"
    )
    sheet = read_facts(text, names=("华康科技",))
    got = {(f.period_label, f.basis) for f in sheet.facts if f.metric == "revenue" and f.unit != "%"}
    assert got == {("FY2024", "actual")}
    assert sheet.screening()["revenue"].fact.value == pytest.approx(41.37e8)


def test_last_years_same_period_stays_prior_after_an_annual_report() -> None:
    text = "公司发布2024年报，2024年公司营收40亿元，去年同期营收30亿元。"
    got = {f.value: f.basis for f in read_facts(text).facts if f.metric == "revenue"}
    assert got == {40e8: "actual", 30e8: "prior"}
