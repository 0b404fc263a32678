"""IPO-news period lists: a span then a part year, a relative word spelled out in brackets (issue 22)."""

from lmscreen.task.facts import read_facts


def test_bracketed_report_period_list_and_following_lists():
    text = (
        "某某科技创业板上市申请获受理。招股书显示，报告期内（2019年、2020年、2021年），某某科技分别实现营业收入"
        "1.10亿元、2.20亿元、3.30亿元；分别实现归属于母公司所有者的净利润1000.00万元、-200.00万元、3000.00万元；"
        "主营业务毛利率分别为30.10%、31.20%、32.30%。"
    )
    sheet = read_facts(text, names=("某某科技",))
    got = sheet.screening()
    assert got["revenue"].fact.value == 3.3e8
    assert got["net_profit"].fact.value == 3.0e7
    assert got["gross_margin"].fact.value == 32.3


def test_span_then_part_year_and_same_periods():
    text = (
        "某某股份拟在科创板上市。财务数据显示，2018年至2021年1-6月，某某股份营业收入分别为5.10亿元、6.20亿元、"
        "7.30亿元、4.40亿元，同期净利润分别为3000.00万元、4000.00万元、5000.00万元、2500.00万元。"
    )
    got = read_facts(text, names=("某某股份",)).screening()
    assert got["revenue"].fact.value == 4.4e8
    assert got["net_profit"].fact.value == 2.5e7
    assert got["net_profit"].fact.basis == "actual"
