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


@pytest.mark.parametrize(
    "run",
    [
        "收入、归母、扣非 9.87 亿、 0.56 亿、 0.48 亿",
        "收入、归母、扣非9.87亿、0.56亿、0.48亿",
        "收入/归母/扣非9.87/0.56/0.48亿元",
    ],
)
def test_a_bare_kou_fei_closing_a_run_of_labels_is_the_deducted_profit(run: str) -> None:
    """`收入、归母、扣非 14.14 亿、 0.34 亿、 0.32 亿` (two labelled texts print it so): the run's last label,
    扣非 alone, is the deducted profit, so the three numbers pair with three labels; before, the run had two
    labels for three numbers and nothing was read."""
    sheet = read_facts(f"甲乙科技发布2021年年报，{run}，同比分别+12%、+6%、+4%。")
    got = sheet.screening()
    assert got["revenue"].fact.value == pytest.approx(9.87e8)
    assert got["net_profit"].fact.value == pytest.approx(0.56e8)
    deducted = [f.value for f in sheet.facts if f.metric == "net_profit_deducted" and f.basis == "actual"]
    assert deducted == [pytest.approx(0.48e8)]


def test_kou_fei_before_a_number_outside_a_run_is_no_label() -> None:
    """Only a 扣非 that closes a run (after 、 or /) is a label; `扣非8.3%` on its own stays unread."""
    sheet = read_facts("甲乙科技2021年营业收入9.87亿元，扣非8.3%以上的项目占比提升。")
    assert not [f for f in sheet.facts if f.metric == "net_profit_deducted"]
