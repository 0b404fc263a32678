"""Miss classes the labelled real texts repeat, each fixed by one general rule: retained earnings
(`剩余未分配利润13.85亿元`) are their own figure, not the net profit a label before them named.
Texts written here in those shapes (invented companies and numbers); the reader is the real one.
"""

from __future__ import annotations

import pytest

from lmscreen.task.facts import read_facts

NAMES = ("甲乙证券",)


def test_retained_earnings_are_not_the_net_profit_named_before_them() -> None:
    text = (
        "年报显示，2021年甲乙证券实现营业收入21.35亿元，同比增长12.4%；归属于上市公司股东的净利润4.82亿元，"
        "同比增长31.05%。公司拟每10股派发现金红利0.8元（含税），占当年归属于上市公司普通股股东净利润的41.2%，"
        "本次分配后剩余未分配利润9.66亿元转入以后年度。"
    )
    got = read_facts(text, names=NAMES).screening()["net_profit"]
    assert got.conflict == ()
    assert got.fact is not None and got.fact.value == pytest.approx(4.82e8)
