"""Miss classes the labelled real texts repeat, each fixed by one general rule: retained earnings
(`剩余未分配利润13.85亿元`) are their own figure, not the net profit a label before them named; a span of
years whose clause states a compound growth rate (`2018-2022年复合增速19.5%`) is that rate's, not the
period of the clauses after it.
Texts written here in those shapes (invented companies and numbers); the reader is the real one.
"""

from __future__ import annotations

import pytest

from lmscreen.task.facts import read_facts

NAMES = ("甲乙证券",)


def test_retained_earnings_are_not_the_net_profit_named_before_them() -> None:
    text = (
        "年报显示，2021年甲乙证券实现营业收入21.35亿元，同比增长12.4%；归属于上市公司股东的净利润4.82亿元，"
        "同比增长31.05%。公司拟每10股派发现金红利0.8元（含税），占当年归属于上市公司普通股股东净利润的41.2%，"
        "本次分配后剩余未分配利润9.66亿元转入以后年度。"
    )
    got = read_facts(text, names=NAMES).screening()["net_profit"]
    assert got.conflict == ()
    assert got.fact is not None and got.fact.value == pytest.approx(4.82e8)


@pytest.mark.parametrize("rate", ["复合增速19.5%", "营业收入CAGR高达19.5%", "年均复合增长率为19.5%"])
def test_a_compound_growth_span_is_not_the_period_of_the_next_clause(rate: str) -> None:
    text = (
        f"丙丁卫浴成立于2001年。2022年实现营业收入19.6亿元，2018-2022年{rate}，实现归母净利润2.1亿元，"
        "2018-2022年复合增速7%，净利率回升。"
    )
    got = read_facts(text).screening()
    assert got["revenue"].fact is not None and got["revenue"].fact.value == pytest.approx(1.96e9)
    assert got["net_profit"].fact is not None and got["net_profit"].fact.value == pytest.approx(2.1e8)
    # a span that states figures of its own is still a span: its clause's numbers are no year's
    listed = read_facts("2018-2022年归母净利润2.1亿元，净利率回升。").screening()
    assert listed["net_profit"].fact is None


@pytest.mark.parametrize(
    ("sentence", "metric", "value"),
    [
        ("23Q1毛/净利率为21.37%/6.12%，后续随销售放量，规模效应有望凸显。", "gross_margin", 21.37),
        ("23Q1毛/净利率为21.37%/6.12%，后续随销售放量，规模效应有望凸显。", "net_margin", 6.12),
        ("23Q1毛利率/经营利润率/净利率41.2%/16.8%/13.9%，同比+1.0/0.4/0.6pp。", "gross_margin", 41.2),
        ("23Q1毛利率/经营利润率/净利率41.2%/16.8%/13.9%，同比+1.0/0.4/0.6pp。", "net_margin", 13.9),
        ("公司23Q1净资产收益率与投入资本回报率分别为4.5%和3.9%，同比-0.5%/-0.6%。", "roe", 4.5),
    ],
)
def test_rates_in_shorthand_or_beside_an_unkept_rate_pair_one_by_one(
    sentence: str, metric: str, value: float
) -> None:
    text = "公司发布2023年一季报，实现营业收入12.4亿元，同比增长21.3%。" + sentence
    got = [f for f in read_facts(text).facts if f.metric == metric and f.basis == "actual"]
    assert [f.value for f in got] == [pytest.approx(value)]
    # the unkept rate between them takes its own number, not a kept field's
    assert not any(
        f.value == pytest.approx(16.8) or f.value == pytest.approx(3.9) for f in read_facts(text).facts
    )


@pytest.mark.parametrize("dash", ["―", "—", "-"])
def test_a_span_of_years_joined_by_a_bar_lists_its_years(dash: str) -> None:
    text = (
        f"公司发布2022年年报。数据显示，公司2019{dash}2022年综合毛利率分别为61.2%、59.8%、57.4%、55.1%，"
        "持续下降。"
    )
    got = read_facts(text)
    assert sorted((f.period.year, f.value) for f in got.facts if f.metric == "gross_margin") == [
        (2019, 61.2),
        (2020, 59.8),
        (2021, 57.4),
        (2022, 55.1),
    ]
    assert got.screening()["gross_margin"].fact.value == pytest.approx(55.1)


@pytest.mark.parametrize("words", ["同期对应的", "同期", "同期对应"])
def test_a_list_carried_on_by_tongqi_is_over_the_same_periods(words: str) -> None:
    text = (
        "招股书显示，公司2019年、2020年、2021年营收分别31.52亿元、28.40亿元、35.77亿元；"
        f"{words}净利润分别为2.41亿元、1.96亿元、3.08亿元。净利润有所波动。"
    )
    got = read_facts(text)
    assert sorted((f.period.year, f.basis, f.value) for f in got.facts if f.metric == "net_profit") == [
        (2019, "actual", 2.41e8),
        (2020, "actual", 1.96e8),
        (2021, "actual", 3.08e8),
    ]
    assert got.screening()["net_profit"].fact.value == pytest.approx(3.08e8)
    # the prior year's figures (`去年同期`) are still the prior ones
    prior = text.replace(f"{words}净利润", "去年同期净利润")
    assert not [f for f in read_facts(prior).facts if f.metric == "net_profit" and f.basis == "actual"]


def test_a_list_after_an_unread_list_of_its_sentence_keeps_its_own_label() -> None:
    text = (
        "从业绩方面，2018至2021年，甲乙证券的营业收入分别为9.85亿元、8.68亿元、7.33亿元12.71亿元、，"
        "净利润分别为3.15亿元、3.12亿元、2.13亿元、4.29亿元。2021年年报显示，公司管理的资产总额为3172亿元。"
    )
    got = read_facts(text, names=NAMES)
    assert sorted((f.period.year, f.value) for f in got.facts if f.metric == "net_profit") == [
        (2018, 3.15e8),
        (2019, 3.12e8),
        (2020, 2.13e8),
        (2021, 4.29e8),
    ]
    assert got.screening()["net_profit"].fact.value == pytest.approx(4.29e8)
    # the malformed revenue list stays unread
    assert got.screening()["revenue"].fact is None


def test_a_parts_margins_list_after_a_list_of_its_sentence_is_not_the_company_margin() -> None:
    text = (
        "公司发布2020年半年报。2020H1公司增加新业务卧具/餐桌椅，分别实现收入1.61/0.35亿元，"
        "毛利率分别为42.2%/40.6%。公司2020H1实现毛利率/净利率分别为38.5%/6.9%，分别同比+2.1/-2.9pct。"
    )
    got = read_facts(text).screening()["gross_margin"]
    assert got.conflict == ()
    assert got.fact is not None and got.fact.value == pytest.approx(38.5)
