"""Figures the reader kept wrongly on real notes nobody labelled, each shape rewritten here with invented
companies and numbers: a deducted ROE qualified after its label, a forecast range whose ends carry their own
growth asides, a profit the writer computes from a forecast's midpoint, the size of an effect on a margin or a
profit, a loss summed over several years, and a list of losses whose later amounts are losses too.
"""

from __future__ import annotations

import pytest

from lmscreen.task.facts import read_facts


def test_a_roe_qualified_as_deducted_after_its_label_is_no_roe() -> None:
    text = (
        "公司发布2021年三季报，21Q1~Q3营收、归母净利润为88.6亿、7.2亿。21Q1~Q3扣非净利率6.1%，同比提升1.2pct，"
        "ROE（扣非口径）9.4%，同比提升2.1pct。"
    )
    sheet = read_facts(text)
    assert sheet.screening()["roe"].fact is None
    (deducted,) = [f for f in sheet.facts if f.metric == "roe_deducted"]
    assert deducted.value == pytest.approx(9.4)


def test_a_forecast_range_whose_ends_carry_growth_asides_is_no_figure() -> None:
    text = (
        "甲乙材料7月8日晚间发布中报业绩预告，2022年上半年归属于上市公司股东净利润为6500万（+41.20%）至"
        "7300万（+58.60%），业绩高增长预期得到验证。"
    )
    sheet = read_facts(text)
    assert sheet.screening()["net_profit"].fact is None
    assert not [f for f in sheet.facts if f.metric == "net_profit" and f.basis == "actual"]


def test_a_profit_taken_at_a_forecasts_midpoint_is_an_estimate() -> None:
    text = (
        "4月10日，公司发布2021年一季度业绩预告，1-3月公司预计实现归母净利润3.10-3.50亿元。取业绩预告中值，"
        "2021年一季度公司实现归母净利润3.30亿元，同比增长15.2%。按中值计算，21Q1净利润约3.3亿元。"
    )
    assert read_facts(text).screening()["net_profit"].fact is None


def test_a_midpoint_a_reported_figure_fell_at_is_still_the_figure() -> None:
    text = (
        "公司公告三季报，业绩基本处于业绩预告中枢，公司2021年前三季度累计实现营业收入41.20亿元，"
        "实现归母净利润3.05亿元。"
    )
    got = read_facts(text).screening()
    assert got["net_profit"].fact.value == pytest.approx(3.05e8)
    assert got["revenue"].fact.value == pytest.approx(41.20e8)


def test_the_size_of_an_effect_on_a_margin_or_a_profit_is_no_level() -> None:
    text = (
        "2019年公司营业收入12.40亿元，归母净利润1.10亿元。2019年元器件大幅涨价，造成公司采购成本上涨明显，"
        "影响公司整体毛利率约3%。报告期内公司计提减值准备0.5亿元，影响归属于上市公司股东的净利润0.4亿元。"
    )
    got = read_facts(text).screening()
    assert got["gross_margin"].fact is None
    assert got["net_profit"].fact.value == pytest.approx(1.10e8)


def test_a_loss_over_several_years_is_no_periods_figure() -> None:
    text = "丙丁出行做起了新梦？4年亏损近60亿元的丙丁出行，上市受挫之后，反而获得了更充足的弹药。"
    assert read_facts(text).screening()["net_profit"].fact is None


def test_a_year_glued_to_a_quarter_is_no_count_of_years() -> None:
    text = "公司22Q1年实现收入31.50亿元，同比增长66%，归母净利润5.20亿元，同比增长120%。"
    got = read_facts(text).screening()
    assert got["revenue"].fact.value == pytest.approx(31.50e8)


def test_every_amount_of_a_loss_list_is_a_loss() -> None:
    text = (
        "招股书显示，2019年、2020年、2021年戊己的营收分别为12.10亿元、18.30亿元、25.60亿元；"
        "亏损分别为9.10亿元、7.40亿元、5.20亿元。"
    )
    losses = sorted(f.value for f in read_facts(text).facts if f.metric == "net_profit")
    assert losses == [pytest.approx(-9.10e8), pytest.approx(-7.40e8), pytest.approx(-5.20e8)]


def test_a_plain_pe_over_the_eps_its_sentence_prints_is_no_ttm_pe() -> None:
    text = (
        "庚辛股份股价大幅拉升5.12%，该股报18.40元/股。最新的第一季报显示，该股于2023年04月26日实现稀释每股收益"
        "0.031元，营业利润0.22亿元，基本每股收益0.031元，市盈率593.55。过去一年内该股涨停8次。"
    )
    assert read_facts(text).screening()["pe_ttm"].fact is None
    ttm = "截至8月19日，公司市盈率（TTM）为27.6，基本每股收益0.42元，估值处于同行最低。"
    assert read_facts(ttm).screening()["pe_ttm"].fact.value == pytest.approx(27.6)


def test_a_company_revenue_below_a_business_revenue_is_a_business_figure() -> None:
    text = (
        "公司发布2022年年报，公司主营收入58.40亿元，同比上升21.30%；归母净利润4.10亿元，同比上升8.20%。"
        "2022年公司新能源业务实现销售收入9.30亿，同比增长40.10%。公司出行产品主要应用领域为两轮车及轻型动力，"
        "22年实现收入2.70亿元（yoy+35.20%），储能业务面向户用储能及工商业储能，22年实现收入6.60亿元"
        "（yoy+42.70%）。"
    )
    assert read_facts(text).screening()["revenue"].fact.value == pytest.approx(58.40e8)


def test_an_item_after_a_semicolon_opening_on_a_business_is_that_business() -> None:
    text = (
        "2021年公司营业收入增速为21.4%。1）公司积极推进业务转型。21年经纪业务净收入同比增长60.2%，实现快速增长；"
        "代销基金产品业务实现爆发式增长，21年增速达142.5%，实现收入3.28亿元。2）公司提出投行发展理念。"
    )
    sheet = read_facts(text)
    assert sheet.screening()["revenue"].fact is None
    (part,) = [f for f in sheet.facts if f.metric == "revenue" and f.basis == "actual"]
    assert part.scope == "segment"


def test_a_margin_in_a_numbered_item_beside_parts_items_is_a_parts() -> None:
    text = (
        "事件：公司发布2021年半年报，上半年实现营收70.2亿元，实现归母净利润2.6亿元。"
        "　　1）电解铜产量大幅增长：公司上半年共生产电铜3.15万吨，同比增长38.5%；2）毛利持平，毛利率提升；"
        "生产钴产品1.12万吨，与上年基本持平，毛利率为16.2%，同比提升了2个百分点；3）前驱体产销大幅增长："
        "前驱体产销分别为1.1万吨/1.05万吨，毛利为1.02亿元，毛利率为12%，同比增长了5.1个百分点。"
    )
    got = read_facts(text).screening()
    assert got["gross_margin"].fact is None
    assert got["revenue"].fact.value == pytest.approx(70.2e8)
    own = "　　1）业绩：公司2021年实现营收70.2亿元，毛利率为18.5%；2）分业务：铜业务毛利率为16.2%。"
    assert read_facts(own).screening()["gross_margin"].fact.value == pytest.approx(18.5)


def test_a_figure_in_the_bracket_after_what_the_writer_removes_is_that_items() -> None:
    text = (
        "20H1壬癸出表，预计主业增长稳健。据公司20H1业绩预告，20H1公司实现归母净利5.10-5.90亿元，同比增长8%-25%。"
        "剔除壬癸出表影响（19H1净利润为1.42亿，20年5-6月已出表），测算主业净利润同比增速6%-28%，符合预期。"
    )
    sheet = read_facts(text)
    assert sheet.screening()["net_profit"].fact is None
    assert not [f for f in sheet.facts if f.metric == "net_profit" and f.basis == "actual"]
