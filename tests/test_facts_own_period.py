"""The document's own period is the period its figures are of, not the first year it prints.

Research notes open with a trend (`从17年到19Q3…`, `收入自2016年起提速`), a plan (`公司发布2021年限制性股票
激励计划`), or a comparison (`2021年该比例为40.1%`) before they state the company's figures. A span's ends
and a plan's or target's year name no period of the document; a dated period whose clause holds numbers but
none of the company's revenue or profit gives way to the period the text states them for. Texts written
here in those shapes; the reader is the real one.
"""

from __future__ import annotations

import pytest

from lmscreen.task.facts import read_facts


def test_the_ends_of_a_span_are_not_the_documents_period() -> None:
    text = (
        "　　息差优势扩大，规模增速领先　　从17年到19Q3，可比银行贷款增速均值从21.3%降到11.2%，而同期公司"
        "却从10.4%提至16.8%；19Q3同业存单发行大增85%。19年营收98.6亿，YoY+17.2%；归母净利润38.1亿，"
        "YoY+15.4%；ROE达15.2%，超出可比均值1.3pct。"
    )
    sheet = read_facts(text)
    assert (sheet.period.year, sheet.period.sub) == (2019, "FY")
    got = sheet.screening()
    assert got["revenue"].fact.value == pytest.approx(98.6e8)
    assert got["net_profit"].fact.value == pytest.approx(38.1e8)


def test_a_year_a_trend_starts_from_is_not_the_documents_period() -> None:
    text = (
        "　　包装龙头，业绩亮眼　　公司业务规模快速扩大，收入自2016年起增长提速，"
        "2011-2016年收入年复合增速5%，而2016-2020年收入年复合增速22%；利润端于2019年见底回升。2021年前三季度公司收入为41.07亿元，同比"
        "增长28.10%，归母净利润为1.92亿元，同比增长40.02%。"
    )
    sheet = read_facts(text)
    assert (sheet.period.year, sheet.period.sub) == (2021, "Q1-Q3")
    got = sheet.screening()
    assert got["revenue"].fact.value == pytest.approx(41.07e8)
    assert got["net_profit"].fact.value == pytest.approx(1.92e8)


def test_a_plans_year_is_not_the_documents_period() -> None:
    text = (
        "事项：公司发布2021年限制性股票激励计划（草案），拟授予限制性股票1200万股，考核条件为2021-2023年"
        "净利润较2020年增长不低于15%、30%、60%。公司2020年营收18.34亿，同增21%。"
    )
    sheet = read_facts(text)
    assert (sheet.period.year, sheet.period.sub) == (2020, "FY")
    assert sheet.screening()["revenue"].fact.value == pytest.approx(18.34e8)


def test_a_comparisons_year_gives_way_to_this_years_half() -> None:
    # the text never prints its own year: `今年上半年` keeps none, and a prior year's share is no period
    text = (
        "某某网 8 月 5 日消息，据报道，今年以来行业需求放缓。\n"
        "财报显示，今年上半年，某电池实现营收 821.35 亿元，同比增长 40.12%，净利润 95.20 亿元，同比增长"
        " 60.33%。数据显示，今年上半年该公司国内市占率为 41.2%，2022 年该数值为 46.8%，2021 年为 50.3%。"
    )
    sheet = read_facts(text, names=("某电池",))
    assert sheet.period.year is None and sheet.period.sub == "H1"
    got = sheet.screening()
    assert got["revenue"].fact.value == pytest.approx(821.35e8)
    assert got["net_profit"].fact.value == pytest.approx(95.20e8)


def test_a_dated_opening_with_its_own_figures_or_none_stays_the_period() -> None:
    # its own figures beside it, across a comma, and as a slash list
    own = read_facts("2020年上半年，公司实现营业收入31.4亿元，同比增长17.4%。2019年营收50.2亿元。")
    assert (own.period.year, own.period.sub) == (2020, "H1")
    listed = read_facts(
        "2018年公司营收和归母净利润139.8/4.32亿，分别同比+32%/10%。预计2021年归母净利润13.6亿元。"
    )
    assert (listed.period.year, listed.period.sub) == (2018, "FY")
    # a revised estimate later is no reported figure: the opening's quarter stands
    revised = read_facts(
        "2019Q3 业绩预告略低于预期。公司 2019Q3 业绩预告 1-9 月归母净利润 7100~8100 万。"
        "下调 2019 年营收 8.44 亿。"
    )
    assert revised.period.year == 2019 and revised.period.sub == "Q1-Q3"


def test_a_bare_first_quarter_in_an_annual_note_that_publishes_the_next_first_quarter() -> None:
    text = (
        "　　事件描述　　4月20日，公司发布2023年年度报告以及2024年一季度报告，"
        "2023年公司实现营业收入15.20亿元，同比增长30.11%，实现归母净利润5.02亿元，同比增长40.35%。"
        "2024年一季度公司实现营业收入3.61亿元，同比增长12.08%，实现归母净利润1.27亿元。"
        " 公司一季度毛利率维持在去年高位水平，毛利率为66.42%。"
    )
    sheet = read_facts(text)
    assert (sheet.period.year, sheet.period.sub) == (2023, "FY")
    margin = [f for f in sheet.facts if f.metric == "gross_margin"]
    assert [(f.value, f.period_label) for f in margin] == [(pytest.approx(66.42), "2024Q1")]
    got = sheet.screening()
    assert got["revenue"].fact.value == pytest.approx(15.20e8)
    assert got["gross_margin"].fact.value == pytest.approx(66.42)
    # the year's own quarters named together (`一季度、四季度`, `一季度…，四季度…`) keep the year
    listed = read_facts(
        "公司发布2023年年度报告以及2024年一季度报告。2024年一季度公司实现营业收入3.61亿元。"
        "公司一季度、四季度净利率分别为30.2%、31.0%。公司一季度毛利率为60.1%，四季度毛利率为62.3%。"
    )
    quarters = sorted((f.metric, f.period_label) for f in listed.facts if f.metric != "revenue")
    year_own = [("gross_margin", "2023Q1"), ("gross_margin", "2023Q4")]
    assert quarters == year_own + [("net_margin", "2023Q1"), ("net_margin", "2023Q4")]
    # without the next quarter's report published, a bare first quarter is the year's own
    plain = read_facts("公司发布2023年年度报告，2023年实现营业收入15.20亿元。公司一季度毛利率为60.1%。")
    assert [f.period_label for f in plain.facts if f.metric == "gross_margin"] == ["2023Q1"]


def test_a_report_named_without_a_year_takes_it_from_the_date_it_was_published() -> None:
    # the year after it is a comparison's (`较2023年全年下滑`), not the report's
    text = (
        "事件：2024年4月25日，公司发布一季报。一季度实现营业收入512.30亿元，同比增长20.12%；实现归母净利润"
        "10.05亿元，同比增长3.10%。一季度毛利率为15.2%，较2023年全年下滑4.1个百分点。"
    )
    sheet = read_facts(text)
    assert (sheet.period.year, sheet.period.sub) == (2024, "Q1")
    assert sheet.screening()["revenue"].fact.period_label == "2024Q1"
    # an annual report is published the year after the one it reports
    annual = read_facts("2024年3月28日，公司发布年报。全年实现营业总收入729.89亿元，同比增长16.72%。")
    assert (annual.period.year, annual.period.sub) == (2023, "FY")
    # a month no such report is published in says nothing of its year
    odd = read_facts("2024年9月2日，公司发布年报。全年实现营业总收入729.89亿元。2022年营收600.1亿元。")
    assert odd.period.year != 2023


def test_this_years_half_named_without_a_year_does_not_take_last_years() -> None:
    text = (
        "半年大赚85亿元，这家车企正在回归？8月28日晚间，某汽车集团发布了上半年财报。报告期内，某汽车集团实现"
        "营业总收入2860.12亿元，同比增长21.40%；归母净利润为85.33亿元，同比增长40.12%。"
        + "受芯片短缺影响，集团部分车型交付延后，但自主品牌与合资品牌的销量结构持续改善，海外市场表现亮眼。"
        * 10
        + "据该集团去年财报，"
        "2020年该集团归母净利润为120亿元。今年上半年，集团完成整车批售180.2万辆。"
    )
    sheet = read_facts(text, names=("某汽车集团",))
    assert sheet.period.year is None and sheet.period.sub == "H1"
    assert sheet.screening()["net_profit"].fact.value == pytest.approx(85.33e8)
    # nor does a year the sentence calls last year's, where it comes early in the text
    early = read_facts(text.replace("海外市场表现亮眼。" * 10, "海外市场表现亮眼。"), names=("某汽车集团",))
    assert early.period.year is None and early.period.sub == "H1"
    # without `今年`, the latest actual year the text names is the part's
    plain = read_facts("上半年公司实现营业收入31.4亿元，同比增长17.4%。2020年营收50.2亿元。")
    assert (plain.period.year, plain.period.sub) == (2020, "H1")


def test_an_estimate_after_a_quarter_and_two_summed_quarters_set_no_period() -> None:
    """`发布2021年度主要财务数据及2022年第一季度主要经营情况公告…22Q1公司预计实现营收105亿元左右…加总21Q4与
    22Q1数据一起来看，期间实现营收132亿`: the year's report is the document's; the quarter's figure is an
    estimate, and a figure over two quarters added together is neither quarter's."""
    text = (
        "公司发布2021年度主要财务数据及2022年第一季度主要经营情况公告，2021年公司收入近两百亿。22Q1公司预计实现"
        "营收105亿元左右，同比+43%左右。2021年公司实现营业总收入199.7亿，同比+42.8%。加总21Q4与22Q1数据一起"
        "来看，期间实现营收132亿，同比+21%。"
    )
    sheet = read_facts(text)
    assert sheet.period.label() == "FY2021"
    assert sheet.screening()["revenue"].fact.value == 199.7e8
    assert not [f for f in sheet.facts if f.metric == "revenue" and f.value == 132e8]


def test_an_earlier_report_the_text_recalls_is_not_the_documents() -> None:
    """`此前2019年报摘要中公司预计2020Q1净利润…`: the report the note recalls is not the one it is about."""
    text = (
        "事件描述　　2020Q1公司实现营收2.35亿元，同比下降21.4%；归母净利润-0.82亿元，较去年同期的-0.21亿元"
        "亏损扩大。此前2019年报摘要中公司预计2020Q1净利润-0.9亿元至-0.6亿元。2019年净利率9.6%，摊薄ROE10.20%。"
    )
    sheet = read_facts(text)
    assert sheet.period.label() == "2020Q1"
    got = sheet.screening()
    assert got["revenue"].fact.value == pytest.approx(2.35e8)
    assert got["net_profit"].fact.value == pytest.approx(-0.82e8)
    assert got["roe"].fact is None


def test_an_opening_half_year_with_only_parts_gives_way_to_the_later_nine_months() -> None:
    text = (
        "2021年半年报显示，公司白酒业务实现营业收入为65.36亿元，同比仅增加1.09%。2016-2020年，公司销售毛利率"
        "持续下降。10月27日，公司发布2021年前三季度数据显示，实现营业收入116.11亿元，同比下降6.51%；归母净利润"
        "3.72亿元，同比下降14.23%。"
    )
    sheet = read_facts(text)
    assert sheet.period.label() == "2021Q1-Q3"
    got = sheet.screening()
    assert got["revenue"].fact.value == pytest.approx(116.11e8)
    assert got["net_profit"].fact.value == pytest.approx(3.72e8)


def test_the_companys_business_going_steadily_is_the_whole_company() -> None:
    text = "渝三峡2021年半年报：报告期内，公司业务开展稳步有序,实现营业收入2.35亿元，同比增长23.57%。"
    assert read_facts(text).screening()["revenue"].fact.value == pytest.approx(2.35e8)


def test_a_forecasts_title_range_names_the_documents_period() -> None:
    # a half-year 业绩预告 note titled with its range: the first quarter it quotes is a part, not the document
    text = (
        "　　20H1净利1.2亿-1.35亿，同比增长40%-55%　　7月8日，公司公告，预计20H1净利1.2亿-1.35亿，同比增长"
        "40%-55%；其中20Q1归母净利0.31亿元，同比增长62%，20Q2归母净利0.89亿-1.04亿，同比增长30%-50%。"
    )
    sheet = read_facts(text)
    assert (sheet.period.year, sheet.period.sub) == (2020, "H1")
    assert sheet.screening()["net_profit"].fact is None


def test_a_quarter_without_a_year_takes_the_year_of_the_nine_months_it_ends() -> None:
    # the opening's `Q3` names no year; a valuation's `2022年` is no year of the figures
    text = (
        "Q3部分地区疫情反复，同时集采预期下经销商观望对装机产生一定影响，整体业绩符合预期，维持增持评级。下调"
        "2021~2023年EPS预测至1.74/2.26/2.94元（原为2.02/2.60/3.37元），参考可比公司估值，给予2022年PE30X，"
        "下调目标价至67.80元。业绩符合预期。公司2021年Q1-3实现收入26.95亿元（+31.64%），归母净利润7.17亿元"
        "（+39.33%），其中Q3实现收入10.18亿元（+20.92%），归母净利润3.04亿元（+26.45%）。"
    )
    sheet = read_facts(text)
    assert (sheet.period.year, sheet.period.sub) == (2021, "Q1-Q3")
    got = sheet.screening()
    assert got["revenue"].fact.value == pytest.approx(26.95e8)
    assert got["net_profit"].fact.value == pytest.approx(7.17e8)


def test_a_span_of_months_that_is_no_report_period_keeps_no_figure() -> None:
    # a January-February flash: its figures are no report period's, whatever the document's period is
    text = (
        "根据公告，2023年春节期间，公司产品销售增长较好。经公司初步核算，2023年1至2月，公司实现营业总收入"
        "31.2亿元左右，同比增长21%左右；实现归属于上市公司股东的净利润11.6亿元左右，同比增长24%左右。"
    )
    sheet = read_facts(text)
    months = [f for f in sheet.facts if f.metric in ("revenue", "net_profit") and f.basis == "actual"]
    assert months and all(f.period.sub == "M" and f.period_label is None for f in months)
    got = sheet.screening()
    assert got["revenue"].fact is None and got["net_profit"].fact is None


def test_a_span_of_months_that_is_a_quarter_is_that_quarter() -> None:
    text = (
        "一、经营概述:2021年1-9月营业收入64.73亿元,同比增长93.3%;净利润10.06亿元,同比增长41.2%。"
        "2021年7-9月营业收入36.84亿元,同比增长119.9%;净利润3.96亿元,同比增长3.68%。"
    )
    sheet = read_facts(text)
    quarter = [f for f in sheet.facts if f.metric == "revenue" and f.value == pytest.approx(36.84e8)]
    assert quarter and (quarter[0].period.year, quarter[0].period.sub) == (2021, "Q3")
    assert sheet.screening()["revenue"].fact.value == pytest.approx(64.73e8)


def test_a_list_over_years_past_the_documents_own_is_of_estimates() -> None:
    # no forecast word in the list's clause: its years running past the 2022 half year say they are estimates
    text = (
        "公司2022年上半年实现营业总收入150.21亿元，同比增长12.3%。考虑到原材料成本变化等不确定性因素，我们继续"
        "维持2022-2024年公司营业总收入分别为339.41/399.52/462.82亿元。"
    )
    sheet = read_facts(text)
    listed = [f for f in sheet.facts if f.metric == "revenue" and f.value > 300e8]
    assert len(listed) == 3 and all(f.basis == "forecast" and f.period.sub == "E" for f in listed)
    assert sheet.screening()["revenue"].fact.value == pytest.approx(150.21e8)


def test_an_older_years_figures_in_a_text_looking_ahead_two_years_later_are_not_its_own() -> None:
    # a company profile: the only figures printed are 2018's, and it looks ahead to 2021
    text = (
        "公司成立于2011年，受益于下游产品热销，15-18年公司营收/归母净利润CAGR分别为45%/52%，2018年公司实现"
        "营收/归母净利润分别为18.35/3.21亿元。2019-2020年受客户去库存影响，公司收入承压；展望2021年，新品放量"
        "可期。"
    )
    sheet = read_facts(text)
    assert (sheet.period.year, sheet.period.sub) == (2020, "FY")
    got = sheet.screening()
    assert got["revenue"].fact is None and got["net_profit"].fact is None
    # the same figures in a review written the year after them stay the document's
    recent = read_facts(text.replace("展望2021年", "展望2019年").replace("2019-2020年", "2018年"))
    assert recent.screening()["revenue"].fact.value == pytest.approx(18.35e8)


def test_a_report_named_without_a_year_takes_the_year_its_own_figures_are_printed_for() -> None:
    # a forecast's years come first after `中报`; the half year's own figures, dated, say which half it is
    text = (
        "公司披露中报，Q2在高基数等因素下增速回落，不改全年业绩预期。维持19-21年EPS预测34.5/41.8/47.8元，维持"
        "目标价1100元，对应20年27倍PE。　　Q2收入利润增速回落。公司19H1营业总收入411.7亿元，"
        "归母净利润199.5亿元，同比增长16.8%和26.6%。"
    )
    sheet = read_facts(text)
    assert (sheet.period.year, sheet.period.sub) == (2019, "H1")
    got = sheet.screening()
    assert got["revenue"].fact.value == pytest.approx(411.7e8)
    assert got["net_profit"].fact.value == pytest.approx(199.5e8)


def test_a_bare_income_after_a_part_of_the_year_written_short_is_the_revenue() -> None:
    text = "伊利公告2022前三季收入935亿元，同比+10.4%；归母净利80.6亿元，同比+1.5%。"
    got = read_facts(text, names=("伊利",)).screening()
    assert got["revenue"].fact.value == pytest.approx(935e8)
    assert got["net_profit"].fact.value == pytest.approx(80.6e8)


def test_one_months_figures_are_no_reporting_periods() -> None:
    # a year's review that quotes March alone: March's revenue is no rival of the year's
    text = (
        "公司发布2021年财报，期内实现营收676.75亿元（+28.67%），归母净利润96.53亿元（+57.23%）。受疫情影响，"
        "3月经营情况明显承压，3月营收约36.82亿元，同比约下滑50%，归母净利润约1.63亿元，同比下滑约80%。"
    )
    sheet = read_facts(text)
    march = [f for f in sheet.facts if f.metric == "revenue" and f.value == pytest.approx(36.82e8)]
    assert march and march[0].period.sub == "M"
    got = sheet.screening()
    assert got["revenue"].fact.value == pytest.approx(676.75e8)
    assert got["net_profit"].fact.value == pytest.approx(96.53e8)
