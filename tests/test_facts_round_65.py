"""Figures blind round 65 showed the reader missing: a quote page's run of figures with no separators
(`该股于…每股收益 0.14元营业利润 0.84亿元市盈率 131.79销售毛利率 19.029%净利润 67,885,287.52元`: 该股 is
the company, and the words before a number printed ahead of a label are that number's), the
`归上净利润` shortening, and `扣非前/后归母净利润5.3/5.0亿元`.
Texts written here in those shapes; the reader is the real one.
"""

from __future__ import annotations

import pytest

from lmscreen.task.facts import read_facts


def _kept(text: str) -> dict[str, float | None]:
    return {k: (v.fact.value if v.fact else None) for k, v in read_facts(text).screening().items()}


def test_a_quote_pages_run_reads_its_margin_and_profit() -> None:
    text = (
        "财务数据最近的财报数据显示，该股于2024年05月06日每股收益 0.27元营业利润 1.32亿元市盈率 48.20"
        "销售毛利率 27.314%净利润 91,204,118.36元 "
    )
    got = _kept(text)
    assert got["gross_margin"] == pytest.approx(27.314)
    assert got["net_profit"] == pytest.approx(91204118.36)


def test_gai_gu_is_the_company() -> None:
    got = _kept("最近的财报显示，该股毛利率31.2%，净利润5230万元。")
    assert got["gross_margin"] == pytest.approx(31.2)
    assert got["net_profit"] == pytest.approx(5230e4)


def test_words_of_an_earlier_number_do_not_qualify_the_label_after_it() -> None:
    # `营业利润 1.32亿元净利润…`: 营业利润 names the number before; the profit after it is the net profit
    assert _kept("公司2024年营业利润 1.32亿元净利润 9120万元")["net_profit"] == pytest.approx(9120e4)
    # with no number between them, the words still qualify the label
    assert _kept("公司2024年扣除非经常性损益后的净利润9120万元")["net_profit"] is None


def test_gui_shang_net_profit_is_the_parents_profit() -> None:
    text = "2024年上半年公司实现营业收入、归上净利润、扣非归上净利润分别为23.18、3.07、2.86亿元。"
    sheet = read_facts(text)
    got = {f.metric: f.value for f in sheet.facts if f.basis == "actual"}
    assert got["net_profit"] == pytest.approx(3.07e8)
    assert got["net_profit_deducted"] == pytest.approx(2.86e8)


def test_kou_fei_before_and_after_pair_with_a_slash_pair() -> None:
    text = "公司2024年前三季度实现营收187.6亿元，同比+41.2%，扣非前/后归母净利润6.4/5.9亿元，同比扭亏。"
    sheet = read_facts(text)
    got = {f.metric: f.value for f in sheet.facts if f.basis == "actual"}
    assert got["net_profit"] == pytest.approx(6.4e8)
    assert got["net_profit_deducted"] == pytest.approx(5.9e8)
