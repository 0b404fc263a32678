"""What held-out round 85 showed the reader missing: a sentence opening on a bare verb right after a
quarter's sentence (四季度实现营收3.94亿…。实现归母净利润1.35亿…), which was read as the document's year and
stood against the year's own profit, and a bare 收入 after the company and then its year
(公司2021年收入43.24亿元) with the profit in the next sentence.
Texts written here in those shapes; the reader is the real one.
"""

from __future__ import annotations

from lmscreen.task.facts import read_facts


def _kept(text: str, field: str) -> float | None:
    fact = read_facts(text).screening()[field].fact
    return None if fact is None else fact.value


def test_a_bare_verb_sentence_goes_on_with_the_quarter_before() -> None:
    text = (
        "公司发布2021年报及2022年一季报。2021年，公司实现营收15.09亿，同比增长12.43%；归母净利润6.2亿，"
        "同比增17.23%。四季度实现营收4.14亿，同比增21.94%，季度营收逐步增长。实现归母净利润1.55亿，"
        "同比增10.72%。"
    )
    assert _kept(text, "net_profit") == 620_000_000.0


def test_a_bare_verb_sentence_after_the_nine_months_is_theirs() -> None:
    text = (
        "公司发布2021年三季报。2021年前三季度公司实现营收61.41亿元，同比+32.4%。实现归母净利润为5.18亿元，"
        "同比+12.8%。Q3单季营收18.71亿元，同比-3.1%。实现归母净利润为1.66亿元，同比-10.1%。"
    )
    assert _kept(text, "net_profit") == 518_000_000.0


def test_a_bare_verb_sentence_after_an_aside_is_back_on_the_period() -> None:
    # the sentence before opens on 其中: the writer breaks a figure down, then goes back
    text = (
        "公司发布2021年三季度季报，21Q1-3实现营收310.89亿元，同比增长107.46%。其中Q3实现营收124.45亿元，"
        "同比增长131.84%。实现归母净利润29.61亿元，同比增长216.29%。其中Q3实现归母净利润13.82亿元。"
    )
    assert _kept(text, "net_profit") == 2_961_000_000.0


def test_the_company_then_its_year_before_a_bare_income_is_the_revenue() -> None:
    text = (
        "事件：公司发布2021业绩。公司2021年收入45.24亿元，同比增长27.48%，其中线上收入15.30亿元。"
        "2021年归母净利润2.44亿元，同比增长125.91%。"
    )
    assert _kept(text, "revenue") == 4_524_000_000.0


def test_a_part_before_a_bare_income_is_still_a_part() -> None:
    text = "事件：公司发布2021业绩。公司线上2021年收入15.30亿元，同比增长71.00%。2021年归母净利润2.44亿元。"
    assert _kept(text, "revenue") is None
