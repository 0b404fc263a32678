"""Figures blind rounds 48-49 showed the reader getting wrong or missing though the text states them plainly:
a loss that grew (`2020年亏损加大，主要是计入近7亿…公允价值亏损`) is no level; a list that names its loss
after 分别 (`2019年、2020年分别亏损为1.67亿、8.19亿`) is a list of losses; rates joined like their
labels (`综合毛利率和净利润率为63.64%和35.40%`) pair without 分别; a list after `；` keeps the periods of
the list before it across a clause on that list (`…15.87亿元，年化复合增长率为19.66%；归母净利润分别为…`).
Texts written here in those shapes; the reader is the real one.
"""

from __future__ import annotations

import pytest

from lmscreen.task.facts import read_facts

NAMES = ("甲乙生物",)


def _yearly(text: str, metric: str) -> list[tuple[int, float]]:
    return sorted(
        (f.period.year, f.value)
        for f in read_facts(text, names=NAMES).facts
        if f.metric == metric and f.period is not None and f.period.year is not None and f.period.sub == "FY"
    )


@pytest.mark.parametrize("words", ["分别亏损为", "分别亏损", "分别净亏损"])
def test_a_list_naming_its_loss_after_fenbie_is_a_list_of_losses(words: str) -> None:
    text = (
        "招股书显示，甲乙生物收入比较少，2019年、2020年营收分别为1565万元、4119万元；"
        f"甲乙生物2019年、2020年{words}1.67亿元、8.19亿元。"
    )
    assert _yearly(text, "net_profit") == [(2019, -1.67e8), (2020, -8.19e8)]
    assert read_facts(text, names=NAMES).screening()["net_profit"].fact.value == pytest.approx(-8.19e8)


@pytest.mark.parametrize("change", ["加大", "加剧", "增大"])
def test_a_loss_that_grew_is_no_level(change: str) -> None:
    text = (
        "招股书显示，甲乙生物2020年营收为4119万元。"
        f"甲乙生物2020年亏损{change}，主要是计入近7亿可转换可赎回优先股公允价值亏损。"
    )
    # the 7亿 is the item that made the loss grow, not the year's profit (it was kept as +7亿)
    assert read_facts(text, names=NAMES).screening()["net_profit"].fact is None
    # the year's loss stated as a level after it is still read
    stated = text.replace("2020年亏损", "2020年亏损8.19亿元，亏损")
    assert read_facts(stated, names=NAMES).screening()["net_profit"].fact.value == pytest.approx(-8.19e8)


def test_rates_joined_like_their_labels_pair_without_fenbie() -> None:
    text = (
        "事件：公司发布2019年年报，2019年公司实现收入7.24亿，同比增长43.29%，归母净利润2.56亿，同比增长39.20%。"
        "其中，机器人收入7.04亿，占总收入的97%。综合毛利率和净利润率为63.64%和35.40%，同比+2.09pct和-0.97pct。"
    )
    got = read_facts(text).screening()
    assert got["gross_margin"].fact.value == pytest.approx(63.64)
    # changes joined the same way are no levels, and a rate beside an amount's label is left to the prose
    moved = read_facts(
        text.replace("为63.64%和35.40%，同比+2.09pct和-0.97pct", "同比提升2.09%和0.97%")
    ).screening()
    assert moved["gross_margin"].fact is None
    mixed = read_facts(
        text.replace("综合毛利率和净利润率为63.64%和35.40%", "营收和毛利率为7.24亿和63.64%")
    ).screening()
    assert mixed["gross_margin"].fact is None


def test_a_list_after_a_clause_on_the_list_before_keeps_its_periods() -> None:
    text = (
        "招股书显示，报告期（2020年、2021年、2022年）各期，甲乙生物的营业收入分别为11.09亿元、13.36亿元、15.87亿元，"
        "年化复合增长率为19.66%；归母净利润分别为7919.96万元、11578.24万元、13057.47万元，年化复合增长率为28.40%。"
    )
    assert _yearly(text, "net_profit") == [(2020, 79199600.0), (2021, 115782400.0), (2022, 130574700.0)]
    # a clause naming a period of its own in between starts over: the next list is no longer on those years
    dated = text.replace("年化复合增长率为19.66%；", "2019年为9.5亿元；")
    assert _yearly(dated, "net_profit") == []
