"""Words that name no part: facts.jsonl printed segments called `最终`, `折合`, `基本`, `每股`, `创造`,
`销售`, `驱动` for the company's own figures (a sweep of CFBenchmark's 3,920 texts found 73 such facts).
A segment a user reads in facts.jsonl or `compare` must name a part. Texts written here in those shapes.
"""

from __future__ import annotations

import pytest

from lmscreen.task.facts import read_facts


def _scopes(text: str, metric: str) -> set[tuple[str, str | None]]:
    return {(f.scope, f.segment) for f in read_facts(text).facts if f.metric == metric}


@pytest.mark.parametrize(
    ("text", "metric"),
    [
        ("公司2022年三费费用率合计17.0%，同比上升1.7个百分点；最终实现净利率13.0%。", "net_margin"),
        ("公司2022年实现归母净利润18.0亿元，同比增长14.9%，折合每股收益0.57元。", "eps"),
        ("公司2022年实现营业收入120.5亿元；基本EPS为3.62元。", "eps"),
        ("2022年公司实现营业收入99.4亿元，公司二季度创造归母净利润10.34亿元。", "net_profit"),
        ("2022年公司实现营业收入53.2亿元，同比增长12.2%，销售净利润率12.60%。", "net_margin"),
        (
            "2022年三季度公司外贸航线单箱收入提升至2421美元/TEU，环比提升近600美元/TEU，驱动公司单季度毛利率提升至52.05%。",
            "gross_margin",
        ),
    ],
    ids=["final", "per-share", "basic-eps", "created", "sales-margin", "drives-company"],
)
def test_a_word_of_how_the_figure_came_names_no_part(text: str, metric: str) -> None:
    assert _scopes(text, metric) == {("company", None)}


def test_a_part_named_before_the_label_stays_that_part() -> None:
    text = "2022年公司实现营业收入120.5亿元，其中电池业务实现收入30.2亿元，电池业务毛利率21.5%。"
    assert ("segment", "电池业务") in _scopes(text, "gross_margin")


def test_a_deducted_profit_hands_no_part_to_the_margin_after_it() -> None:
    text = (
        "公司发布2019年半年报，实现营业收入56.79亿元，实现归母净利润3.81亿元，同比增长15.88%，"
        "扣除非经常性损益后归母净利润3.54亿元，同比增长5.19%；毛利率29.96%，较去年同期下降2.1个百分点。"
    )
    fact = read_facts(text).screening()["gross_margin"].fact
    assert fact is not None and fact.value == pytest.approx(29.96)


def test_a_clause_back_on_the_company_ends_the_part_before_it() -> None:
    text = (
        "公司发布2023年一季报。高端产品销售占比攀升至41.94%，拉动数字示波器业务毛利率达到56.73%，"
        "同比增长6.92ppt；公司盈利能力持续改善，整体毛利率为54.23%，同比增长0.36ppt。"
    )
    fact = read_facts(text).screening()["gross_margin"].fact
    assert fact is not None and fact.value == pytest.approx(54.23)


def test_the_overall_margin_of_a_part_stays_the_parts() -> None:
    text = "公司发布2023年一季报。公司数据中心业务实现收入28.18亿元，同比增长12.1%，整体毛利率为30.89%。"
    assert {scope for scope, _ in _scopes(text, "gross_margin")} == {"segment"}


def test_what_brought_the_company_its_margin_names_no_part() -> None:
    text = (
        "公司2019年前三季度实现营业收入21.3亿元，高毛利项目占比提高带来公司综合毛利率78.61%，"
        "同比提高0.95pct。"
    )
    assert _scopes(text, "gross_margin") == {("company", None)}


def test_a_closed_prior_aside_leaves_the_next_items_current() -> None:
    text = (
        "公司发布2021年三季报。1）毛利率：Q1为43.61%（去年同期35.82%）、Q2为46.11%（去年同期37.42%）、"
        "Q3为46.31%（去年同期39.49%），毛利率稳步提升。"
    )
    sheet = read_facts(text)
    facts = {
        (f.period_label, f.basis, f.value) for f in sheet.facts + sheet.readings if f.metric == "gross_margin"
    }
    assert {(p, b) for p, b, v in facts if v in (43.61, 46.11, 46.31)} == {
        ("2021Q1", "actual"),
        ("2021Q2", "actual"),
        ("2021Q3", "actual"),
    }
    assert {b for p, b, v in facts if v in (35.82, 37.42, 39.49)} == {"prior"}


@pytest.mark.parametrize(
    "text",
    [
        "公司发布2023年一季报，实现营业收入12.1亿元，同比增长8.2%。短期扰动仍在，仍看好中长期提升趋势毛利率达到35.79%。",
        "公司发布三季报。1)Q1-Q3营收增速-11.3/19.7/20.7%、扣非增速-13.5/5.6/24%；2)前三季度毛利率10.5%(+0.1pct)。",
    ],
    ids=["view", "growth-rates"],
)
def test_a_view_or_a_trend_before_the_label_names_no_part(text: str) -> None:
    assert {scope for scope, _ in _scopes(text, "gross_margin")} == {"company"}
