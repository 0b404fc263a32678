"""Figures blind round 60 showed the reader missing: a slash list whose labels each repeat the qualifier
they share (`单季度综合毛利率/综合净利率24.3%/11.8%`).
Texts written here in that shape; the reader is the real one.
"""

from __future__ import annotations

import pytest

from lmscreen.task.facts import read_facts


def test_a_slash_run_of_labels_sharing_their_qualifier_is_one_run() -> None:
    text = (
        "2021Q2单季度营业收入/归母净利润分别为8.40亿/1.12亿，同比+31.20%/25.60%。"
        "单季度综合毛利率/综合净利率31.7%/13.3%，同比-1.2pcts/+0.4pct。"
    )
    got = read_facts(text).screening()
    assert got["revenue"].fact.value == pytest.approx(8.4e8)
    assert got["gross_margin"].fact.value == pytest.approx(31.7)


def test_a_qualified_run_read_through_fenbie_still_reads() -> None:
    # the same run before 分别 reads as the bare run does
    text = "公司2021年实现营业收入8.40亿元，同比增长31.2%；综合毛利率/综合净利率分别为31.7%/13.3%。"
    got = read_facts(text).screening()
    assert got["gross_margin"].fact.value == pytest.approx(31.7)
