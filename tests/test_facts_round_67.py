"""Figures blind round 67 showed the reader missing: a half-year note whose second quarter is named in
a heading sentence of its own (`其中2Q22主因低基数效应，环比提速。`) and whose quarter figures follow in the
next sentence with no period of their own, read as the half year's: a conflict with the half year's.
Texts written here in that shape; the reader is the real one.
"""

from __future__ import annotations

import pytest

from lmscreen.task.facts import read_facts

HALF = "公司1H23营收88.40亿元，同比+6.10%，归母净利润12.30亿元，同比+3.20%。"


def test_amounts_after_a_quarter_heading_sentence_are_the_quarters() -> None:
    text = (
        HALF
        + "其中2Q23受益于新品放量，环比提速。营收47.20亿元，同比+12.40%，归母净利润6.90亿元，同比+9.80%。"
    )
    sheet = read_facts(text)
    got = sheet.screening()
    assert got["revenue"].fact.value == pytest.approx(88.4e8)
    assert got["net_profit"].fact.value == pytest.approx(12.3e8)
    quarter = [
        f
        for f in sheet.facts
        if f.metric == "revenue" and f.basis == "actual" and f.value == pytest.approx(47.2e8)
    ]
    assert quarter and quarter[0].period is not None and quarter[0].period.sub == "Q2"


def test_a_quarter_sentence_with_figures_of_its_own_does_not_date_the_next() -> None:
    # the sentence before prints a figure, so it is no heading: the next sentence's undated amounts are not
    # taken for the quarter's, and two half-year revenues that disagree stay a conflict
    text = HALF + "其中2Q23毛利率31.2%，环比提速。营收47.20亿元，同比+12.40%。"
    got = read_facts(text).screening()
    assert got["revenue"].fact is None
    assert got["revenue"].conflict


def test_a_heading_sentence_across_a_paragraph_break_does_not_carry() -> None:
    text = HALF + "其中2Q23受益于新品放量，环比提速。\n营收47.20亿元，同比+12.40%。"
    got = read_facts(text).screening()
    assert got["revenue"].fact is None


def test_a_quote_pages_run_of_labels_and_values_reads_each_figure() -> None:
    """`该股于…每股收益 0.25元营业利润 1.16亿元市盈率 76.76销售毛利率 35.556%净利润 102,350,560.62元`: a quote
    page glues each label to the value before it. 该股 is the stock's company, and the 毛利 of the margin
    before 净利润 is that margin's word, not a qualifier of the profit (as in 毛利润)."""
    text = (
        "财务数据最近的财报数据显示，该股于2024年03月12日每股收益 0.41元营业利润 2.05亿元市盈率 33.20"
        "销售毛利率 27.315%净利润 168,402,115.37元"
    )
    got = read_facts(text).screening()
    assert got["net_profit"].fact.value == pytest.approx(168402115.37)
    assert got["gross_margin"].fact.value == pytest.approx(27.315)
    assert got["pe_ttm"].fact is None


def test_gross_profit_glued_after_a_spaced_value_is_still_no_net_profit() -> None:
    # a qualifier inside the label's own clause still excludes it: 毛利润 is no profit after tax
    got = read_facts("公司2023年营业收入 12.5亿元，毛利润 3.20亿元。").screening()
    assert got["net_profit"].fact is None


def test_a_semicolon_item_opening_on_a_period_is_not_the_opening_businesss() -> None:
    """Round 68's `随着子公司宜兴硅谷的产能释放、订单增加，…，因此，Q1业绩实现稳健增长；Q1实现毛利率29.67%`:
    the item after `；` starts on the quarter, afresh; the subsidiary the sentence opened on is not its
    subject."""
    text = (
        "公司2023年一季度实现营业收入8.10亿元。随着子公司华南工厂的产能释放、订单增加，海外业务稳定增长，"
        "因此，Q1业绩实现稳健增长；Q1实现毛利率27.45%，同比下滑1.20pp。"
    )
    got = read_facts(text).screening()
    assert got["gross_margin"].fact.value == pytest.approx(27.45)


def test_a_margin_in_the_opening_businesss_own_clause_run_stays_its() -> None:
    # without the `；` item the margin is still the business's, as before
    text = "公司2023年一季度实现营业收入8.10亿元。子公司华南工厂产能释放，订单增加，毛利率提升1pct至27.45%。"
    got = read_facts(text).screening()
    assert got["gross_margin"].fact is None


@pytest.mark.parametrize(
    "history",
    [
        "公司成立于2007年，2012年切入激光切割控制系统，目前已成长为行业龙头。",
        "公司于2016年3月25日挂牌新三板。",
    ],
)
def test_a_year_of_the_companys_history_is_not_the_documents_period(history: str) -> None:
    """Round 68's `公司成立于2007年，2012年切入激光切割控制系统…2020年销售毛利率和净利率分别为81%、65%`: the
    founding year was read as the document's, so the 2020 margin was no current figure."""
    sheet = read_facts(history + "得益于较强的议价能力，2020年销售毛利率和净利率分别为81%、65%。")
    assert sheet.period is not None and sheet.period.year == 2020
    assert sheet.screening()["gross_margin"].fact.value == pytest.approx(81.0)


def test_listed_companies_after_a_year_is_no_history() -> None:
    # `2022年上市公司ESG最佳实践案例`: 上市公司 is no listing event; the year stays a candidate
    sheet = read_facts("中国上市公司协会发布2022年上市公司ESG最佳实践案例，公司2022年实现营业收入12.3亿元。")
    assert sheet.period is not None and sheet.period.year == 2022


def test_a_quote_page_turning_to_the_stock_is_not_the_boards() -> None:
    """Round 72's quote page: `关联行业/概念板块互联网服务 -0.06%、…等财务数据最近的财报数据显示，该股于…
    销售毛利率 -9.127%`: the board named earlier in the run-on sentence is not the margin's subject."""
    text = (
        "关联行业/概念板块互联网服务 -0.06%、人工智能 0.13%等财务数据最近的财报数据显示，该股于2024年03月06日"
        "每股收益 -0.03元营业利润 -0.19亿元市盈率 -140.67销售毛利率 -9.127%净利润 -18,585,243.84元"
    )
    got = read_facts(text).screening()
    assert got["gross_margin"].fact.value == pytest.approx(-9.127)
    assert got["net_profit"].fact.value == pytest.approx(-18585243.84)


def test_a_bare_guimu_before_its_amount_is_the_profit() -> None:
    """Round 73's `2020全年：收入45.30亿元（YOY+7.74%），归母13.69亿元（YOY+75%），扣非12.08亿元`: 归母 alone
    right before its amount is the parent's profit, and the run's 收入 the revenue with it."""
    text = (
        "公司发布2022年年报。2022全年：收入45.30亿元（YOY+7.74%），归母13.69亿元（YOY+75%），"
        "扣非12.08亿元（YOY+60%）。"
    )
    got = read_facts(text).screening()
    assert got["net_profit"].fact.value == pytest.approx(13.69e8)
    assert got["revenue"].fact.value == pytest.approx(45.30e8)


def test_a_bare_guimu_without_an_amount_reads_nothing() -> None:
    got = read_facts("公司2022年归母同比增长75%，表现亮眼。").screening()
    assert got["net_profit"].fact is None


def test_a_holding_groups_total_revenue_is_its_revenue() -> None:
    # round 73's `2023年第一季度，陆金所控股总收入为100.78亿元`: 控股/集团 before 总收入 name the whole
    text = (
        "5月23日，某某控股发布一季度财务业绩。数据显示，2023年第一季度，某某控股总收入为100.78亿元，"
        "同比下降41.8%；净利润为7.32亿元。"
    )
    assert read_facts(text).screening()["revenue"].fact.value == pytest.approx(100.78e8)


def test_a_rate_in_a_paragraph_about_the_quarter_is_the_quarters() -> None:
    """Round 74's `三季度，公司实现收入65.55亿元（+11.9%）…增速环比上半年提升7.3pct…。公司实现毛利5.03亿元
    （-36.6%），毛利率7.7%（-5.9pct）` in a nine-months note: the margin is the quarter's, not the nine
    months'."""
    text = (
        "前三季度，公司实现收入184.47亿元（+14.9%），归母净利1.11亿元（-75.7%）。\u3000\u3000"
        "三季度，公司实现收入65.55亿元（+11.9%），增速环比上半年提升7.3pct。公司收入大幅低于预期。"
        "公司实现毛利5.03亿元（-36.6%），毛利率7.7%（-5.9pct）。"
    )
    got = read_facts(text).screening()
    assert got["gross_margin"].fact is None
    assert got["revenue"].fact.value == pytest.approx(184.47e8)


def test_a_paragraph_under_a_business_heading_is_the_businesss() -> None:
    """Round 74's `电能质量设备是公司的基本盘，为公司提供高现金流：　　公司发展起步于电能质量设备，…
    2022年营收达到5.12亿元，毛利率为55.43%`: the paragraph under the heading is about that business."""
    text = (
        "某某股份成立于2007年。\u3000\u3000变频设备是公司的基本盘，为公司提供高现金流：\u3000\u3000"
        "公司发展起步于变频设备，逐步拓展至其他领域。2022年营收达到5.12亿元，毛利率为55.43%。\u3000\u3000"
        "检测设备稳步发展：\u3000\u3000检测设备需求旺盛，2022年收入2.58亿元，毛利率39.28%。"
    )
    got = read_facts(text).screening()
    assert got["revenue"].fact is None
    assert got["gross_margin"].fact is None


def test_a_heading_on_the_companys_results_keeps_the_figures_the_companys() -> None:
    text = (
        "业绩稳健增长，盈利能力提升：\u3000\u3000公司2022年实现营业收入50.14亿元，同比增长24.65%，"
        "毛利率为75.21%。"
    )
    got = read_facts(text).screening()
    assert got["revenue"].fact.value == pytest.approx(50.14e8)
    assert got["gross_margin"].fact.value == pytest.approx(75.21)
