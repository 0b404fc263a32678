"""What held-out round 95 showed the reader missing: a small company's revenue printed in plain 元 to the fen
(营业收入88,495.57元) dropped as a 万 lost in print, in a text that prints no amount in 万 or 亿 at all.
Texts written here in those shapes; the reader is the real one.
"""

from __future__ import annotations

from lmscreen.task.facts import read_facts


def _kept(text: str, field: str, name: str = "") -> float | None:
    fact = read_facts(text, names=(name,)).screening()[field].fact
    return None if fact is None else fact.value


def test_a_small_revenue_in_a_text_of_plain_yuan_amounts_stands() -> None:
    text = (
        "某某科技近日发布2022年半年度报告，2022年上半年公司实现营业收入76,312.45元，同比下滑18.40%；"
        "实现归属于挂牌公司股东的净利润-412,806.33元，较上年同期亏损减少。报告期末公司总资产为"
        "2,305,118.72元，较上年期末下滑4.10%。"
    )
    assert _kept(text, "revenue", "某某科技") == 76312.45
    assert _kept(text, "net_profit", "某某科技") == -412806.33


def test_a_small_profit_in_yuan_beside_an_amount_in_wan_stays_a_dropped_wan() -> None:
    text = (
        "某某科技近日发布2022年半年度报告，2022年上半年公司实现营业收入3,812.45万元，同比下滑18.40%；"
        "实现归属于挂牌公司股东的净利润4128.33元，同比增长10.2%。"
    )
    assert _kept(text, "revenue", "某某科技") == 38124500.0
    assert _kept(text, "net_profit", "某某科技") is None


def test_a_share_count_in_wan_also_leaves_a_small_yuan_figure_out() -> None:
    text = (
        "某某科技发布2022年半年度报告，上半年实现营业收入76,312.45元，同比下滑18.40%。"
        "公司控股股东累计质押1,250万股。"
    )
    assert _kept(text, "revenue", "某某科技") is None
