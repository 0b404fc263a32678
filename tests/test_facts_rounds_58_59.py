"""Figures blind rounds 58-59 showed the reader keeping or missing: a margin opening its own sentence
right after a sentence about one named product line's sales
(`公司紫外固化材料实现销售收入3.95亿元，…。毛利率36.25%`).
Texts written here in that shape; the reader is the real one.
"""

from __future__ import annotations

import pytest

from lmscreen.task.facts import read_facts


def test_a_bare_margin_after_a_named_lines_sales_is_that_lines() -> None:
    text = (
        "公司发布年报，2021年实现营业收入20.40亿元，同比增长6.1%。分业务来看，2021年公司涂层材料实现销售收入"
        "12.10亿元，毛利率41.20%。另一方面，受需求下滑影响，公司光刻胶实现销售收入5.30亿元，同比下降8.2%。"
        "毛利率33.15%，与上年基本持平。"
    )
    got = read_facts(text).screening()
    assert got["revenue"].fact.value == pytest.approx(2.04e9)
    assert got["gross_margin"].fact is None


def test_a_bare_margin_after_the_companys_own_sales_stays_the_companys() -> None:
    # the company's sales read by a label of its own: the margin after it is the company's
    text = "公司2021年实现营业收入20.40亿元，同比增长6.1%。毛利率33.15%，同比提升1.2个百分点。"
    got = read_facts(text).screening()
    assert got["gross_margin"].fact.value == pytest.approx(33.15)


def test_a_margin_after_what_squeezed_it_is_the_companys() -> None:
    # `上游原材料成本压力较大压缩毛利率，2021年毛利率…至17.6%`: a cause squeezing it names no segment
    text = (
        "公司2021全年营收52.30亿元，同比+24.45%。上游原材料成本压力较大压缩毛利率，"
        "2021年毛利率同比-2.7pct至21.4%，但规模效应释放，费用率下降明显。"
    )
    got = read_facts(text).screening()
    assert got["gross_margin"].fact.value == pytest.approx(21.4)


def test_the_parent_companys_profit_spelt_归母公司利润_is_the_net_profit() -> None:
    # `2022年归母公司利润约为3.98亿元`: 归母 with 公司 and 净 left out
    text = (
        "快报符合预期，净利率维持高水平。2022年归母公司利润约为2.76亿元，同比增长30.16%，"
        "对应单Q4利润约为0.81亿元。"
    )
    got = read_facts(text).screening()
    assert got["net_profit"].fact.value == pytest.approx(2.76e8)
