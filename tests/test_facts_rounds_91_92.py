"""What held-out rounds 91 and 92 (real news articles) showed the reader missing: last year's same period
fronted as a clause of its own in the middle of a sentence (`…同比由盈转亏，上一年同期，X实现归属净利润…`)
was not read as that figure's period, so last year's profit stood against this year's. Texts written here
in that shape; the reader is the real one.
"""

from __future__ import annotations

from lmscreen.task.facts import read_facts


def _kept(text: str, field: str, name: str = "") -> float | None:
    fact = read_facts(text, names=(name,)).screening()[field].fact
    return None if fact is None else fact.value


_LEAD = "甲乙化工8月20日晚间发布的2020年半年报显示，公司上半年实现营业收入约为32.15亿元，同比增长6.1%。"


def test_last_years_same_period_as_a_clause_dates_the_clause_after_it() -> None:
    text = (
        _LEAD
        + "同期实现的归属净利润约为-0.36亿元，同比由盈转亏，上一年同期，甲乙化工实现归属净利润约为2.08亿元。"
    )
    assert _kept(text, "net_profit", "甲乙化工") == -36_000_000.0


def test_the_same_with_qunian_tongqi_and_a_contrast_word() -> None:
    text = _LEAD + "归母净利润为1.12亿元，同比下降40%，而去年同期，公司实现归母净利润1.87亿元。"
    assert _kept(text, "net_profit") == 112_000_000.0


def test_a_clause_that_compares_with_last_year_is_no_such_time() -> None:
    # `与上年同期相比，` says more than the time: the figure after it is this period's, its only profit
    text = _LEAD + "与上年同期相比，公司实现归母净利润1.87亿元，增长较快。"
    assert _kept(text, "net_profit") == 187_000_000.0


def test_a_sentence_opening_on_the_longer_name_of_last_years_period() -> None:
    text = _LEAD + "归母净利润为1.12亿元，同比下降40%。上一年同期只有一条产线投产，实现归母净利润1.87亿元。"
    assert _kept(text, "net_profit") == 112_000_000.0
