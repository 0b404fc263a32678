"""Traditional-character filings fold to simplified one character for one (OpenCC's table), so the
reader's labels read them and every evidence span still cuts the printed text; a simplified filing keeps
its characters that are also simplified (a company named 乾照光电)."""

from __future__ import annotations

import pytest

from lmscreen.task.facts import read_facts
from lmscreen.task.units import fold

HK = (
    "截至2025年12月31日止年度，本集團收入為人民幣12.3億元，本公司擁有人應佔溢利為人民幣1.86億元"
    "（2024年：人民幣2.01億元），營運資金週轉天數縮短；毛利率為32.5%（2024年：30.1%）。"
)


def test_a_traditional_text_folds_whole_and_one_for_one() -> None:
    folded = fold(HK)
    assert len(folded.text) == len(HK)
    # characters the earlier hand list did not know (運, 週, 轉, 縮) fold too
    assert "营运资金周转天数缩短" in folded.text
    assert "拥有人应占溢利" in folded.text


def test_a_traditional_filings_figures_cut_from_the_printed_text() -> None:
    sheet = read_facts(HK)
    assert sheet.period.label() == "FY2025"
    got = sheet.screening()
    profit = got["net_profit"].fact
    assert profit.value == pytest.approx(1.86e8)
    assert HK[profit.start : profit.end] == "1.86億元"
    assert got["revenue"].fact.value == pytest.approx(12.3e8)
    assert got["gross_margin"].fact.value == pytest.approx(32.5)


def test_a_simplified_text_keeps_its_own_characters() -> None:
    text = "乾照光电2024年营业收入28.0亿元，於此前公告。"
    assert fold(text).text == text


def test_a_stray_traditional_character_in_a_simplified_text_folds() -> None:
    text = "公司2024年營收28.0亿元，应收帳款3.1亿元"
    assert fold(text).text == "公司2024年营收28.0亿元，应收账款3.1亿元"
