"""Figures blind round 66 showed the reader missing: a half-year note that prints the second quarter's
figures alone (`Q2单季度来看，公司实现收入4.38亿元…归母净利润1.27亿元…22Q2毛利率为49.25%`), a 综合 margin
among parts' plain margins read as the company's (`…毛利率…至43.5%；电子材料方面，…毛利率…至21.5%；…全年
综合毛利率…至40.4%`), and `公司毛净利率分别达到17.04%以及5.87%` (毛净利率 run together, 是 before 公司).
Texts written here in those shapes; the reader is the real one.
"""

from __future__ import annotations

import pytest

from lmscreen.task.facts import read_facts


def _kept(text: str) -> dict[str, float | None]:
    return {k: (v.fact.value if v.fact else None) for k, v in read_facts(text).screening().items()}


def test_a_half_year_note_printing_only_the_second_quarter_is_about_the_quarter() -> None:
    text = (
        "上半年消费市场总体表现不振。Q2单季度来看，公司实现收入5.12亿元，同比+12.40%，环比-3.59%，"
        "归母净利润1.46亿元，同比+39.00%。公司24Q2毛利率为47.15%，同比+3.22pcts。"
        "我们维持公司2024~26年EPS预测为1.62/2.03/2.52元。"
    )
    sheet = read_facts(text)
    assert sheet.period is not None and sheet.period.sub == "Q2"
    got = _kept(text)
    assert got["revenue"] == pytest.approx(5.12e8)
    assert got["net_profit"] == pytest.approx(1.46e8)
    assert got["gross_margin"] == pytest.approx(47.15)


def test_a_half_forecast_or_a_half_ratio_keeps_the_half() -> None:
    forecast = (
        "公司披露24年半年度业绩预增公告，预计24H1实现营收12.14亿元，归母净利润1.66亿元；其中24Q2实现营收"
        "5.85亿元，归母净利润0.66亿元。24Q2归母净利润0.66亿元，实现扭亏。"
    )
    assert _kept(forecast)["net_profit"] is None
    ratio = "2024H1公司ROE为2.1%，同比下降0.16pct。公司自2023Q3开始连续亏损，2024Q2实现净利润18.1亿。"
    sheet = read_facts(ratio)
    assert sheet.period is not None and sheet.period.sub == "H1"
    assert _kept(ratio)["roe"] == pytest.approx(2.1)


def test_a_label_separated_from_its_amount_by_a_bare_number_run_reads_nothing() -> None:
    # `收入、187.26、5.04亿元` (a list whose second label was lost): 5.04亿 is not the revenue
    text = "2024年上半年公司实现收入、187.26、5.04亿元，同比增长138.6%、55.5%。"
    assert _kept(text)["revenue"] != pytest.approx(5.04e8)


def test_the_whole_margin_among_parts_plain_margins_is_the_companys() -> None:
    text = (
        "公司发布2024年年报，全年营收7.03亿元。锂电涂覆领域客户持续拓展，全年勃姆石销量yoy+51%至2.7万吨，"
        "营收yoy+46%至5.8亿元，全年均价yoy-3.4%至1.94万元/吨，毛利率yoy-0.5pct至44.5%；电子材料方面，"
        "球形氧化铝在导热胶领域放量，营收yoy+39%至0.92亿元，因产品结构调整，毛利率yoy-14.6pct至22.5%。"
        "全年综合毛利率yoy-2.3pct至41.4%。"
    )
    assert _kept(text)["gross_margin"] == pytest.approx(41.4)


def test_mao_jing_li_lv_run_together_pairs_with_its_two_numbers() -> None:
    text = "2024年前三季度实现营收187.63亿。三季报中最为惊艳的乃是公司毛净利率分别达到18.04%以及6.87%。"
    got = {f.metric: (f.value, f.scope) for f in read_facts(text).facts if f.basis == "actual"}
    assert got["gross_margin"] == (pytest.approx(18.04), "company")
    assert got["net_margin"] == (pytest.approx(6.87), "company")


def test_a_bare_huan_yuan_hou_clause_restates_the_margin_after_it() -> None:
    # `…系会计准则调整所致。还原后，毛利率28.04%`: the writer's restated margin, not the report's
    text = (
        "公司发布2024年年报。报告期内，毛利率26.68%，同比-0.08pct；销售费用率9.25%，同比-3.04pcts，"
        "系会计准则调整所致。还原后，毛利率29.04%，同比+2.1pct。"
    )
    assert _kept(text)["gross_margin"] == pytest.approx(26.68)
