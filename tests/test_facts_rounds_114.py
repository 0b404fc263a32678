"""What held-out round 114 (long broker reports) showed the reader keeping wrong: a chart caption's number
(`…PE-Bands图表5：…`) read as the PE of the label just before it, and an acquired group's subsidiaries
introduced one sentence each (`EndyMed为以色列上市公司（ENDY.TA），2019年度营收1.13亿元`) kept as the buyer's
figures. Texts written here in those shapes; the reader is the real one.
"""

from __future__ import annotations

from lmscreen.task.facts import read_facts


def _kept(text: str, field: str, name: str = "") -> float | None:
    fact = read_facts(text, names=(name,)).screening()[field].fact
    return None if fact is None else fact.value


_CAPTIONS = "请务必一起阅读。3华东医药(000963CH)图表4：华东医药PE-Bands图表5：华东医药PB-Bands资料来源：Wind"


def test_an_exhibits_number_is_no_pe() -> None:
    assert _kept(_CAPTIONS, "pe_ttm", "华东医药") is None


def test_a_numbered_figure_caption_is_no_pe() -> None:
    assert _kept("图表3：公司PE图5：公司PB走势", "pe_ttm") is None


def test_a_pe_printed_after_its_label_is_still_kept() -> None:
    assert _kept("截至4月13日，公司PE(TTM)为21.5倍。", "pe_ttm") == 21.5


_DEAL = "昊海生科（688366.SH）公告以2.05亿元收购欧华美科63.64%的股权。"


def test_a_sentence_introducing_someone_holds_that_ones_revenue() -> None:
    text = _DEAL + "\uf0d8EndyMed为以色列上市公司（ENDY.TA），2019年度营收1.13亿元，净利润1203万元。"
    assert _kept(text, "revenue", "昊海生科") is None
    assert _kept(text, "net_profit", "昊海生科") is None


def test_an_introduced_chinese_company_holds_its_own_figures() -> None:
    text = _DEAL + "镭科光电是一家激光芯片企业，2019年营收4488万元，净利润737万元。"
    assert _kept(text, "revenue", "昊海生科") is None


def test_the_company_introduced_by_its_own_name_keeps_its_figures() -> None:
    text = "昊海生科为国内领先的生物医用材料公司，2019年营业收入16.04亿元，归母净利润3.71亿元。"
    assert _kept(text, "revenue", "昊海生科") == 1_604_000_000.0


def test_a_bare_company_introduced_keeps_its_figures() -> None:
    text = "公司为国内领先的生物医用材料公司，2019年营业收入16.04亿元，归母净利润3.71亿元。"
    assert _kept(text, "revenue", "昊海生科") == 1_604_000_000.0
