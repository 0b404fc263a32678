"""A prior period's figure in brackets after the current one, the way annual reports (Hong Kong ones
above all) print it: `毛利率为32.5%（2024年：30.1%）`, `收入增速为38.29%（上年同期为45.78%）`. The
bracket's value is the earlier period's (basis prior), and its year sets no period for anything outside
it. Texts written here in those shapes; the reader is the real one.
"""

from __future__ import annotations

import pytest

from lmscreen.task.facts import read_facts


def _facts(text: str) -> set[tuple[str, str | None, str, float]]:
    return {(f.metric, f.period_label, f.basis, round(f.value, 2)) for f in read_facts(text).facts}


def test_a_bracketed_prior_year_is_that_years_figure_and_no_period_for_the_next_clause() -> None:
    text = "2025年，本集团毛利率为32.5%(2024年:30.1%)，营业收入为12.3亿元（2024年：11.0亿元）。"
    sheet = read_facts(text)
    got = sheet.screening()
    assert got["gross_margin"].fact.value == pytest.approx(32.5)
    assert got["revenue"].fact.value == pytest.approx(12.3e8)
    assert got["revenue"].fact.period_label == "FY2025"
    facts = _facts(text)
    assert ("gross_margin", "FY2024", "prior", 30.1) in facts
    assert ("revenue", "FY2024", "prior", 11.0e8) in facts
    assert ("revenue", "FY2024", "actual", 12.3e8) not in facts


def test_a_hong_kong_years_figures_keep_their_year_and_the_groups_income_is_its_revenue() -> None:
    text = (
        "截至2025年12月31日止年度，本集團收入為人民幣12.3億元，本公司擁有人應佔溢利為人民幣1.86億元（2024年："
        "人民幣2.01億元），營運資金週轉天數縮短；毛利率為32.5%（2024年：30.1%）。"
    )
    sheet = read_facts(text)
    assert sheet.period.label() == "FY2025"
    got = sheet.screening()
    assert got["revenue"].fact.value == pytest.approx(12.3e8)
    assert got["net_profit"].fact.value == pytest.approx(1.86e8)
    assert got["gross_margin"].fact.value == pytest.approx(32.5)
    assert got["gross_margin"].fact.period_label == "FY2025"
    facts = _facts(text)
    assert ("net_profit", "FY2024", "prior", 2.01e8) in facts
    assert ("gross_margin", "FY2024", "prior", 30.1) in facts
    # the prior figure's evidence is its own printed number
    (prior,) = [f for f in sheet.facts if f.metric == "net_profit" and f.basis == "prior"]
    assert text[prior.start : prior.end] == "2.01億元"


@pytest.mark.parametrize("word", ["收益", "营业额"])
def test_the_groups_turnover_is_its_revenue(word: str) -> None:
    text = (
        f"2025年，本集团{word}为人民币12.3亿元（上年同期：人民币11.0亿元），"
        "本公司拥有人应占溢利为人民币1.86亿元。"
    )
    got = read_facts(text).screening()
    assert got["revenue"].fact.value == pytest.approx(12.3e8)
    assert ("revenue", "FY2024", "prior", 11.0e8) in _facts(text)


def test_a_loss_in_words_carries_into_its_bracket_and_a_printed_sign_does_not() -> None:
    loss = "2020年，公司净亏损75亿元（2019年为71亿元），营业收入100亿元。"
    assert ("net_profit", "FY2019", "prior", -71e8) in _facts(loss)
    signed = "2020年，公司净利润-0.5亿元（2019年：0.3亿元），营业收入100亿元。"
    assert ("net_profit", "FY2019", "prior", 0.3e8) in _facts(signed)
    assert read_facts(signed).screening()["net_profit"].fact.value == pytest.approx(-0.5e8)


def test_a_quarters_growth_beside_a_bare_year_says_no_period_and_two_numbers_are_left_unread() -> None:
    # `1Q20…（2019年：…）`: the whole of 2019 or its first quarter? the bracket does not say
    text = (
        "招行发布2020年一季报，1Q20营业收入同比增长11.4%（2019年：8.5%），"
        "归母净利润277亿元（2019年：250亿元）。"
    )
    facts = _facts(text)
    assert not [f for f in facts if f[2] == "prior" or f[1] and f[1].startswith("2019")]
    two = "2025年，公司营业收入及归母净利润增速分别为11.4%和11.3%（2024年：8.5%和6.4%），毛利率为30%。"
    assert not [f for f in _facts(two) if f[1] == "FY2024"]
    assert read_facts(two).screening()["gross_margin"].fact.period_label == "FY2025"


def test_a_same_period_aside_is_the_quarter_a_year_before() -> None:
    text = "公司发布2019年三季报，三季度单季实现营业收入5.2亿元（上年同期为4.1亿元），归母净利润0.8亿元。"
    facts = _facts(text)
    assert ("revenue", "2018Q3", "prior", 4.1e8) in facts
    assert ("revenue", "2019Q3", "actual", 5.2e8) in facts
