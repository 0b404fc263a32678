"""A news piece that names no report of its own but prints the company's revenue and profit for a year and
for the report right after it (`2022年实现营收7.92亿元…；2023年一季报显示，期内公司实现营收3.71亿元…`) is
about the latest; before, the two periods' figures stood as a conflict and nothing was kept. Texts written
here in that shape; the reader is the real one.
"""

from __future__ import annotations

import pytest

from lmscreen.task.facts import read_facts
from lmscreen.task.periods import Period

_LEAD = (
    "7月5日，某某润滑发布公告称，前高管举报内容均与事实不符，公司多年来一直依法经营。"
    "据了解，某某润滑是润滑油和汽车养护品生产商和服务商。"
    + "举报信称公司借信息技术服务费、咨询费、广告费等名义向大客户进行商业贿赂，公司予以否认。"
    * 12
)
"""A news piece's long opening on an event, no report named: the figures come far below it."""
_TWO_REPORTS = _LEAD + (
    "经营业绩上，2022年实现营收7.92亿元，同比下滑28.57%；归母净利润0.40亿元，同比下滑62.55%。"
    "2023年一季报显示，期内公司实现营收3.71亿元，同比增幅67.58%；实现归母净利润0.34亿元，同比增长12.33%。"
)


def test_a_year_and_the_next_report_give_the_latest() -> None:
    sheet = read_facts(_TWO_REPORTS, names=("某某润滑",))
    assert sheet.period == Period(2023, "Q1")
    assert sheet.screening()["revenue"].fact.value == pytest.approx(3.71e8)
    assert sheet.screening()["net_profit"].fact.value == pytest.approx(3.4e7)


def test_a_year_and_a_later_report_not_next_to_it_stay_a_conflict() -> None:
    text = _TWO_REPORTS.replace("2023年一季报显示，期内公司", "2023年上半年，公司")
    sheet = read_facts(text, names=("某某润滑",))
    assert sheet.period is None
    assert sheet.screening()["revenue"].fact is None


def test_one_measure_for_one_of_the_periods_is_not_enough() -> None:
    text = (
        "某某生物2020年三季报显示，实现营业收入110.50亿元，同比增长44.14%；"
        "归属于上市公司股东的净利润24.79亿元。　　另一家2020年实现营业总收入109.46亿元，"
        "对比上年同期增加7.18%，归属于上市公司股东的净利润10.77亿元。"
    )
    fact = read_facts(text, names=("某某生物",)).screening()["net_profit"].fact
    assert fact is None or fact.value != pytest.approx(1.077e9)
