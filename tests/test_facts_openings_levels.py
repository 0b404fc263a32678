"""Figures the reader missed in blind rounds 46-47 though the text states them plainly: a profit owed to the
parent's shareholders after a cause's verb (`…毛利率20.34%，同比提升8.21pcts，推动归母净利润升至18.49亿元`),
a title that looks ahead to a part of the year (`关注下半年补贴进度`), an opening that names no period at all,
a level reached by a verb the reader did not know (`由上年同期的9.96%下行至9.62%`). Texts written here in
those shapes; the reader is the real one.
"""

from __future__ import annotations

import pytest

from lmscreen.task.facts import read_facts


def test_a_parents_profit_after_a_cause_verb_is_the_companys() -> None:
    text = (
        "事件：甲乙科技发布2021年半年报。2021年上半年，公司实现营业收入179.04亿元，同比下降7.83%。报告期内，"
        "公司风机整机销售毛利率20.34%，同比提升8.21pcts，推动归母净利润升至18.49亿元，同比上升45.00%。"
    )
    got = read_facts(text).screening()
    assert got["net_profit"].fact.value == pytest.approx(18.49e8)
    # the segment's margin before it stays the segment's
    assert got["gross_margin"].fact is None
    # a plain profit label after the same verb is still whoever the clause before is about
    plain = read_facts(text.replace("归母净利润", "净利润")).screening()["net_profit"]
    assert plain.fact is None


@pytest.mark.parametrize("verb", ["下行至", "回落到", "攀升至"])
def test_a_level_reached_by_any_moving_verb_is_the_figure(verb: str) -> None:
    text = (
        "公司发布2022年三季报，前三季度实现营业收入3970.4亿元，实现归母净利润67.1亿元。受地产业务毛利下行等影响，"
        f"公司的毛利率由上年同期的9.96%{verb}9.62%。"
    )
    got = read_facts(text).screening()
    assert got["gross_margin"].fact.value == pytest.approx(9.62)


def test_a_part_the_title_asks_to_watch_is_not_the_notes_own() -> None:
    text = (
        "疫情冲击显著，关注下半年补贴进度　　　　二季度经营趋于改善　　"
        "上半年，公司经营受到疫情的冲击，实现收入87.8亿元，"
        "同比下降7.5%；归母净利为4.8亿元，同比下降21.9%。分季度看，公司2Q20实现收入52.0亿元，同比+12.0%。"
    )
    sheet = read_facts(text)
    assert sheet.period is not None and sheet.period.sub == "H1"
    got = sheet.screening()
    assert got["revenue"].fact.value == pytest.approx(87.8e8)
    assert got["net_profit"].fact.value == pytest.approx(4.8e8)


def test_an_opening_with_no_period_keeps_the_nine_months_over_the_undated_third_quarter() -> None:
    text = (
        "近日，公司1.1类新药甲乙胶囊收到国家药品监督管理局核准签发的《药品注册证书》。"
        + "该药临床效果显著，试验组疗效优于安慰剂组，公司拥有该药独立完整的知识产权。" * 12
        + "公司预计心脑血管系列产品有望维持15-20%的销售增长。"
        "　　2021年前三季度公司实现营收81.12亿元，同比+25.81%；归母净利润为12.24亿元，同比+20.43%。"
        "公司单三季度实现营收22.16亿元，同比+13.01%；单季度归母净利润为2.60亿元，同比降低14.02%。"
    )
    got = read_facts(text).screening()
    assert got["revenue"].fact.value == pytest.approx(81.12e8)
    assert got["net_profit"].fact.value == pytest.approx(12.24e8)


def test_a_span_of_estimate_years_in_the_opening_is_not_the_notes_period() -> None:
    text = (
        "储能龙头，持续加大新品与产能布局　　公司在展会上发布多款新品，"
        "5月发布定增预案，募集资金不超过25.5亿元。"
        "我们维持23-25年净利润预测值4.04/6.86/9.40亿元，给予公司23年目标PE38倍，维持“买入”评级。"
        "　　公司Q1实现归母净利润0.37亿元，同增126.59%，环增1.0%。23Q1毛利率为19.14%，后续随销售放量。"
    )
    sheet = read_facts(text)
    assert sheet.period is not None and (sheet.period.year, sheet.period.sub) == (2023, "Q1")
    assert sheet.screening()["net_profit"].fact.value == pytest.approx(0.37e8)


def test_every_amount_of_a_list_of_losses_is_a_loss() -> None:
    text = (
        "招股书显示，2018年、2019年、2020年甲乙出行的营收分别为21.136亿元、48.233亿元、60.443亿元；"
        "亏损分别为22.075亿元、15.046亿元、11.335亿元，三年累计亏损近50亿元。"
    )
    losses = sorted(
        (f.period.year, f.value)
        for f in read_facts(text).facts
        if f.metric == "net_profit" and f.period is not None and f.period.year is not None
    )
    assert losses == [(2018, -22.075e8), (2019, -15.046e8), (2020, -11.335e8)]
    # a list after 扭亏 or 减亏 is no list of losses
    turned = read_facts(text.replace("亏损分别为", "扭亏后净利润分别为")).facts
    assert all(f.value > 0 for f in turned if f.metric == "net_profit" and f.period and f.period.year)
