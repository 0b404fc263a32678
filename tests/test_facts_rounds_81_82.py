"""What held-out rounds 81 and 82 showed the reader keeping wrong or missing: a line's figures after a
clause saying that line's income keeps growing (近年来公司综合服务收入保持稳步提升，2019年实现收入…；
毛利率…), a bullet mark after a heading (业绩简报◾公司20H1实现营收…), a margin's move from one level to
another with the move's size between (从2019年66.6%下降6.9ppt至2020年59.7%), 使得 before the overall margin,
and 毛利润率.
Texts written here in those shapes; the reader is the real one.
"""

from __future__ import annotations

from lmscreen.task.facts import read_facts


def _kept(text: str, field: str) -> float | None:
    fact = read_facts(text).screening()[field].fact
    return None if fact is None else fact.value


_OPENING = "公司2019年营业收入12.36亿元，同比增长31.20%；归母净利润1.21亿元，同比增长40.15%。"


def test_a_line_whose_income_keeps_growing_owns_the_figures_after_it() -> None:
    text = (
        _OPENING + "公司可为客户提供全生命周期服务，近年来公司维保服务收入保持稳步提升，"
        "2019年实现收入7216.57万元，增长21.51%；毛利率为47.17%，较上一年度提升3.89个百分点。"
    )
    assert _kept(text, "revenue") == 1_236_000_000.0
    assert _kept(text, "gross_margin") is None


def test_the_whole_income_growing_is_the_company() -> None:
    text = (
        "公司专注于起重设备。近年来公司营业收入保持稳步提升，2019年实现收入12.36亿元，增长21.51%；"
        "归母净利润1.21亿元；毛利率为37.17%。"
    )
    assert _kept(text, "revenue") == 1_236_000_000.0
    assert _kept(text, "gross_margin") == 37.17


def test_a_bullet_after_a_heading_names_no_part() -> None:
    text = (
        "    业绩简报◾公司20H1实现营收41.3亿元(YoY+12.2%)，归母净利6.8亿元(YoY+21.0%)；"
        "20Q2营收21.5亿元(YoY+10.0%)，归母净利3.9亿元(YoY+16.0%)。"
    )
    assert _kept(text, "revenue") == 4_130_000_000.0


def test_a_move_with_its_size_between_reads_the_level_it_reached() -> None:
    # the first number is where the margin came from, not this year's
    text = "公司2020年收入31.78亿元，归母净利润7.12亿元。整体毛利率从65.6%下降5.9ppt至59.7%。"
    assert _kept(text, "gross_margin") == 59.7


def test_a_move_between_two_years_reads_the_later_level() -> None:
    text = (
        "公司2020年收入31.78亿元，归母净利润7.12亿元。因疫情影响，主营业务成本同比增长30.8%，"
        "使得整体毛利率从2019年65.6%下降5.9ppt至2020年59.7%。"
    )
    assert _kept(text, "gross_margin") == 59.7


def test_a_cause_verb_before_the_overall_margin_is_no_part() -> None:
    text = (
        "公司2020年收入31.78亿元，归母净利润7.12亿元。因疫情影响，主营业务成本同比增长30.8%，"
        "使得整体毛利率下降5.9ppt至59.7%。"
    )
    assert _kept(text, "gross_margin") == 59.7


def test_gross_profit_rate_spelt_out_is_the_gross_margin() -> None:
    text = "公司2021年前三季度实现营业收入38.2亿元，归母净利润2.1亿元，毛利润率为21.5%，较上年下降3.6pcts。"
    assert _kept(text, "gross_margin") == 21.5
