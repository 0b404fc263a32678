"""Figures blind round 63 showed the reader missing: one cumulative period before one label and one number
per quarter of it (`2021年前三季度毛利率为21.9%/27.6%/30.8%`), each number its quarter's.
Texts written here in that shape; the reader is the real one.
"""

from __future__ import annotations

import pytest

from lmscreen.task.facts import read_facts
from lmscreen.task.periods import Period

Q3_NOTE = (
    "2021年Q3公司实现营收3.15亿，同比-21.40%，归母净利润0.27亿，同比-35.10%。"
    "Q3毛利率改善超预期。2021年前三季度毛利率为22.4%/26.1%/29.7%，Q3毛利率上升来自产品结构改善。"
)


def test_a_cumulative_periods_slashed_numbers_are_its_quarters() -> None:
    sheet = read_facts(Q3_NOTE)
    margins = sorted((f.period.sub, f.value) for f in sheet.facts if f.metric == "gross_margin")
    assert margins == [("Q1", 22.4), ("Q2", 26.1), ("Q3", 29.7)]
    got = sheet.screening()["gross_margin"].fact
    assert got is not None and got.value == pytest.approx(29.7) and got.period == Period(2021, "Q3")


def test_a_nine_month_note_keeps_no_quarter_margin_from_the_list() -> None:
    text = (
        "2021年前三季度公司实现营收9.15亿，同比+21.40%，归母净利润1.27亿。"
        "2021年前三季度毛利率为22.4%/26.1%/29.7%，盈利能力逐季改善。"
    )
    assert read_facts(text).screening()["gross_margin"].fact is None


def test_a_level_and_its_change_are_not_quarters() -> None:
    text = (
        "20H1公司营收1391亿/-9.6%，归母净利润139亿/-8.3%。"
        "20H1公司综合毛利率25.6%/-3.9pct，暖通空调毛利率24.2%。"
    )
    sheet = read_facts(text)
    assert not [f for f in sheet.facts if f.metric == "gross_margin" and f.period.sub in ("Q1", "Q2")]


def test_a_forecast_sentence_gives_no_quarters() -> None:
    text = "公司发布2021年三季报。预计公司2021年前三季度毛利率为22.4%/26.1%/29.7%。"
    sheet = read_facts(text)
    assert not [f for f in sheet.facts if f.metric == "gross_margin" and f.basis == "actual"]


def test_a_fenbie_list_of_a_half_years_quarters() -> None:
    text = "公司发布2021年半年报。2021年上半年营收分别为2.15、3.29亿元，归母净利润合计0.41亿元。"
    revenue = sorted((f.period.sub, f.value) for f in read_facts(text).facts if f.metric == "revenue")
    assert revenue == [("Q1", pytest.approx(2.15e8)), ("Q2", pytest.approx(3.29e8))]


def test_a_bracketed_item_number_opens_a_parts_heading() -> None:
    """`（1）印染业务：实现收入35.58亿元`: a heading numbered in brackets names the part, as
    `1）印染业务：` does, so its revenue is no rival of the company's."""
    text = (
        "2021年公司实现营收82.40亿元，同比增长31.2%，归母净利润6.15亿元。"
        "（1）印染业务：实现收入30.12亿元（YOY+12.5%），毛利率21.3%。"
        "（2）饰品业务：实现收入44.08亿元（YOY+85.1%），毛利率3.2%。"
    )
    got = read_facts(text).screening()
    assert got["revenue"].fact is not None
    assert got["revenue"].fact.value == pytest.approx(82.40e8)


def test_a_label_opening_a_breakdown_gives_the_next_number_to_a_part() -> None:
    """`营收分业务看，工程安装服务收入9.18亿元`: the label opens the breakdown; the number after
    it is a part's."""
    text = (
        "1）前三季度营收15亿元（+28%），电力工程建设增长及省外业务拓展。"
        "2）营收分业务看，工程安装服务收入11.25亿元占比75.0%，设备销售收入2.10亿元占比14.0%。"
    )
    got = read_facts(text).screening()
    assert got["revenue"].fact is not None
    assert got["revenue"].fact.value == pytest.approx(15e8)


def test_di_san_ji_without_du_before_the_company_is_the_third_quarter() -> None:
    """`第三季公司收入同比增长33%至21亿元`: 度 left out, as `前三季` leaves it out; the quarter's
    figures are no rivals of the nine months'."""
    text = (
        "公司披露2021年三季报，前三季公司收入同比增长21%至48亿元，归母净利润同比增长6%至12.2亿元。"
        "第三季公司收入同比增长30%至17亿元，归母净利润同比增长12%至4.4亿元。"
    )
    sheet = read_facts(text)
    quarter = [
        f.value
        for f in sheet.facts
        if f.metric == "net_profit" and f.basis == "actual" and f.period == Period(2021, "Q3")
    ]
    assert quarter == [pytest.approx(4.4e8)]
    assert sheet.screening()["net_profit"].fact.value == pytest.approx(12.2e8)


def test_a_shows_third_season_is_no_quarter() -> None:
    text = "公司发布2021年半年报，上半年实现营业收入20.1亿元。《极限挑战》第三季热播，带动广告收入增长。"
    sheet = read_facts(text)
    assert not [f for f in sheet.facts if f.period is not None and f.period.sub == "Q3"]


def test_a_half_year_note_printing_only_its_second_quarter_is_about_the_quarter() -> None:
    text = (
        "事件：公司公告2020年半年报，单二季度实现收入12.37亿元，同比、环比分别增长4.10%、22.50%；"
        "实现归母净利润1.52亿元，同比、环比分别增长61.20%、55.80%。"
    )
    sheet = read_facts(text)
    assert sheet.period == Period(2020, "Q2")
    got = sheet.screening()
    assert got["revenue"].fact.value == pytest.approx(12.37e8)
    assert got["net_profit"].fact.value == pytest.approx(1.52e8)


def test_a_half_year_forecast_quoting_its_second_quarter_stays_on_the_half_year() -> None:
    text = (
        "公司披露22年半年度业绩预增公告，预计22H1实现营收10.12亿元，归母净利润1.36亿元；"
        "其中22Q2实现营收4.85亿元，归母净利润0.56亿元，业绩符合预期。22Q2归母净利润0.56亿元，实现扭亏。"
    )
    sheet = read_facts(text)
    assert sheet.period != Period(2022, "Q2")
    assert sheet.screening()["net_profit"].fact is None
