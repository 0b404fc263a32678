"""What held-out round 96 showed the reader keeping wrongly: a revenue said to be a share of a named group's
(营业收入11.51亿元，占某某集团比例的3.21%) read as the company's whole, where it is one member's part of the
group. Texts written here in those shapes; the reader is the real one.
"""

from __future__ import annotations

from lmscreen.task.facts import read_facts


def _kept(text: str, field: str, name: str = "") -> float | None:
    fact = read_facts(text, names=(name,)).screening()[field].fact
    return None if fact is None else fact.value


_GROUP = (
    "据披露，某某控股集团有限公司关于三级子公司某某化工破产清算。某某化工主营化工产品生产。截至2020年底，"
    "公司总资产20.15亿元，占某某控股集团比例的4.12%，营业收入{rev}，占某某控股集团{share}的2.35%。"
)


def test_a_revenue_said_to_be_a_share_of_a_named_group_is_a_part() -> None:
    text = _GROUP.format(rev="8.62亿元", share="比例")
    assert _kept(text, "revenue", "某某控股集团") is None
    assert _kept(text, "revenue") is None


def test_a_share_of_a_named_group_by_weight_is_a_part_too() -> None:
    text = _GROUP.format(rev="8.62亿元", share="比重")
    assert _kept(text, "revenue", "某某控股集团") is None


def test_a_revenue_with_a_share_of_something_else_stays_the_companys() -> None:
    # a share of a market, not of a group's total: the figure stays the company's own
    text = "某某化工发布2020年年报，全年实现营业收入8.62亿元，占国内市场份额的2.35%，归母净利润1.02亿元。"
    assert _kept(text, "revenue", "某某化工") == 862_000_000.0
