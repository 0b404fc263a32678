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
