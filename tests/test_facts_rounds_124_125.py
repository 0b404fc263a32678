"""What held-out round 124 showed the reader keeping: a thematic report on two companies side by side (its
cover's box of related securities, `相关标的`, lists both codes) gave one company's subsidiary hospital's
net profit as the text's own. Texts written here in that shape; the reader is the real one.
"""

from __future__ import annotations

from lmscreen.task.facts import read_facts


def _kept(text: str, field: str, name: str = "") -> float | None:
    fact = read_facts(text, names=(name,)).screening()[field].fact
    return None if fact is None else fact.value


_BODY = "2020年上半年公司实现营业收入7.43亿元，同比增长8%；净利润5730万元，同比增长51%。"


def _cover(box: str) -> str:
    head = "报告日期：2020年12月10日区域连锁龙头格局初现──终端机构专题评级增持"
    return head + box + "。投资要点：行业快速增长。" + _BODY


def test_a_report_relating_two_securities_has_no_company_of_its_own() -> None:
    text = _cover("相关标的元/股002612.SZ甲乙股份430335.OC丙丁整形相关报告")
    assert _kept(text, "net_profit") is None
    assert _kept(text, "revenue") is None


def test_a_report_relating_one_security_keeps_its_figures() -> None:
    text = _cover("相关标的元/股002612.SZ甲乙股份相关报告")
    assert _kept(text, "net_profit") == 57300000.0


def test_a_named_company_among_the_related_keeps_its_figures() -> None:
    text = _cover("相关标的元/股002612.SZ甲乙股份430335.OC丙丁整形相关报告")
    text = text.replace("公司实现", "甲乙股份实现")
    assert _kept(text, "net_profit", "甲乙股份") == 57300000.0
