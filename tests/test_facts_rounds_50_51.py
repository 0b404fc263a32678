"""Figures blind rounds 50-51 showed the reader getting wrong though the text states them plainly: a market
digest that quotes two companies' reports of two periods (`甲乙生物2020年三季报显示，实现营业收入…` beside
`丙丁啤酒2020年实现营业总收入…`) names no period of its own; its profits disagree across the two periods, so
its one revenue (the other printed as 营业总收入, ranked below) is no more the text's own than either profit.
Texts written here in that shape; the reader is the real one.
"""

from __future__ import annotations

import pytest

from lmscreen.task.facts import read_facts

DIGEST = (
    "2月9日，沪深股市走出了单边放量大涨行情，上证50再度刷新了2008年1月22日以来的新高。"
    "盘面看，两市上涨个股多达3372只，下跌股票则只有679家；涨幅大于10%的非ST股增至70只。"
    "板块方面，大消费概念继续走俏，医疗美容飙升7.66%，多晶硅板块猛涨5.51%，有色、石油暴涨4.5%以上。"
    "分析人士表示，前期高点暂时难以被有效突破，短期沪指有可能刷新前期高点，投资者短期最好快进快出，"
    "踏空者不必担心，有仓位者快进快出为宜；个股方面，继续关注行业龙头股的优势机会。"
    "另外，上述几个年份春节后不久，都多多少少出现过快速下跌的行情，今年能否打破这个魔咒，犹未可知。"
    "我们预计，节前最后一个交易日与节后首日，要防范红包行情做成的骗线；个股方面，关注行业龙头股的机会。"
    "当日，智能板块两只大牛股股价创历史新高，盘中价和收盘价均创历史新高，成为市场关注的焦点。"
    "酿酒板块逼近万点大关。　　甲乙生物累计上涨34%　　"
    "甲乙生物2020年三季报显示，实现营业收入110.50亿元，同比增长44.14%；归属于上市公司股东的净利润24.79亿元，"
    "同比增长40.59%，保持了业绩持续较快增长的势头。　　丙丁啤酒累计上涨29%　　"
    "丙丁啤酒2020年实现营业总收入109.46亿元，对比上年同期增加7.18%，归属于上市公司股东的净利润10.77亿元，"
    "对比上年同期增长3.30%。"
)


def test_a_digest_of_two_reports_of_two_periods_keeps_neither_revenue() -> None:
    sheet = read_facts(DIGEST)
    assert sheet.period is None
    got = sheet.screening()
    assert got["net_profit"].fact is None and len(got["net_profit"].conflict) == 2
    # the revenue of one of the two periods was kept as the text's own (110.50亿, 甲乙生物's nine months)
    assert got["revenue"].fact is None
    assert [f.value for f in got["revenue"].conflict] == [pytest.approx(110.5e8)]


def test_one_report_with_no_period_of_its_own_keeps_its_figures() -> None:
    # the same shape with one company's report: nothing disagrees, its figures stay
    one = DIGEST.split("　　丙丁啤酒累计上涨29%")[0]
    got = read_facts(one).screening()
    assert got["revenue"].fact.value == pytest.approx(110.5e8)
    assert got["net_profit"].fact.value == pytest.approx(24.79e8)
