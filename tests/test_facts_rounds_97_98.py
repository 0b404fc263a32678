"""What held-out rounds 97 and 98 (real news articles) showed the reader keeping wrong: a listing note that
enumerates its periods one after another before the company's figures listed with 分别
(`2017年度、2018年度、2019年1-2月营业收入分别为…`) was read as about the first year of the list, so the
oldest figures were kept; and a forecast announced in the opening sentence lost the document's period to a
quarter named later without a year (`注：Q3净利0.16亿元，据此计算，Q4净利预计…`), so that quarter's actual
was kept. Their document periods showed two more shapes, no figure kept wrong by them there: `2020年前二季度`
(the first two quarters, the half) read as a year and a second quarter, and a forecast announced in the
opening sentence losing the document's period to an earlier report quoted for no figure (`2019年年报显示，…
的主营业务为…`). Texts written here in those shapes; the reader is the real one.
"""

from __future__ import annotations

from lmscreen.task.facts import read_facts
from lmscreen.task.periods import Period


def _kept(text: str, field: str, name: str = "") -> float | None:
    fact = read_facts(text, names=(name,)).screening()[field].fact
    return None if fact is None else fact.value


_LISTING = (
    "挖贝网5月8日，全国股转系统公告显示，甲乙测绘股份有限公司的挂牌申请获得批准，并于今日挂牌。\n"
    "公告显示，甲乙测绘{periods}营业收入分别为{revenue}；净利润分别为{profit}。\n"
    "资料显示，甲乙测绘主营业务为基础测绘。"
)


def test_enumerated_periods_with_a_stub_date_the_text_by_the_latest_whole_year() -> None:
    text = _LISTING.format(
        periods="2016年度、2017年度、2018年1-4月",
        revenue="702.15万元、1108.40万元、230.62万元",
        profit="88.3万元、150.72万元、21.05万元",
    )
    assert read_facts(text, names=("甲乙测绘",)).period == Period(2017, "FY")
    assert _kept(text, "revenue", "甲乙测绘") == 11_084_000.0
    assert _kept(text, "net_profit", "甲乙测绘") == 1_507_200.0


def test_enumerated_periods_ending_on_a_half_date_the_text_by_the_half() -> None:
    text = _LISTING.format(
        periods="2017年、2018年及2019年1-6月",
        revenue="702.15万元、1108.40万元、530.62万元",
        profit="88.3万元、150.72万元、61.05万元",
    )
    assert read_facts(text, names=("甲乙测绘",)).period == Period(2019, "H1")
    assert _kept(text, "revenue", "甲乙测绘") == 5_306_200.0


def test_enumerated_periods_before_rates_of_growth_are_no_list_of_figures() -> None:
    # rates of growth listed with 分别 say nothing of which period the text reports
    text = (
        "公司业绩增长迅速，2018年、2019H1营收增速分别为43.8%、53.5%，归母净利润增速为18.0%、35.7%。"
        "2018年公司实现营业收入12.5亿元。"
    )
    assert read_facts(text).period == Period(2018, "FY")


_FORECAST = "甲乙科技公告，预计2021年净利润2.4亿元-2.6亿元，同比增长438.42%-483.29%。"


def test_an_opening_forecast_dates_the_text_over_a_later_quarter_with_no_year() -> None:
    text = _FORECAST + "注：Q3净利0.16亿元，据此计算，Q4净利预计1.4亿元-1.6亿元，环比增长775%-900%。"
    assert read_facts(text, names=("甲乙科技",)).period == Period(2021, "FY")
    assert _kept(text, "net_profit", "甲乙科技") is None


def test_a_quarter_with_no_year_stays_the_period_without_an_opening_forecast() -> None:
    text = "甲乙科技发布公告称，Q3净利0.16亿元，环比增长15%，订单饱满。"
    assert read_facts(text, names=("甲乙科技",)).period == Period(None, "Q3")
    assert _kept(text, "net_profit", "甲乙科技") == 16_000_000.0


def test_the_first_two_quarters_are_the_half() -> None:
    text = "甲乙化工7月13日晚间发布公告称，公司2020年前二季度实现营业收入5.2亿元，归母净利润3100万元。"
    assert read_facts(text).period == Period(2020, "H1")
    assert _kept(text, "revenue") == 520_000_000.0


def test_an_opening_forecast_dates_the_text_over_an_earlier_report_it_quotes() -> None:
    # the business mix quoted from the last annual report is an earlier period's: the text is the forecast's
    text = (
        "每经AI快讯，甲乙化工7月13日晚间发布业绩预告，预计2020年前二季度归属于上市公司股东的净利润亏损1100万元，"
        "上年同期盈利3466.26万元。\n2019年年报显示，甲乙化工的主营业务为化工、酒店，占营收比例分别为：99.83%、0.17%。"
    )
    assert read_facts(text, names=("甲乙化工",)).period == Period(2020, "H1")
    assert _kept(text, "net_profit", "甲乙化工") is None


def test_a_later_actual_period_stays_beside_an_opening_forecast() -> None:
    # the forecast announced first is of the half; the nine months printed after it end later, and stay
    text = (
        "甲乙化工公告，预计2020年上半年净利润1.1亿元-1.3亿元。"
        "2020年前三季度，甲乙化工实现营业收入12.5亿元，归母净利润1.9亿元。"
    )
    assert read_facts(text, names=("甲乙化工",)).period == Period(2020, "Q1-Q3")


def test_a_length_of_years_after_yuewei_is_no_year() -> None:
    # `生命周期约为15年`: a span of about fifteen years, not 2015
    text = "大摩表示，由于铁路信号系统的生命周期约为15年，因此约于2008年投入服务的设备更换周期将至。"
    assert read_facts(text).period is None


def test_a_two_digit_year_after_wei_stays_a_year() -> None:
    # the only year the text names, after 为 but not 约为
    text = "公司收入最高的年份为19年，当年实现营业收入12.5亿元。"
    assert read_facts(text).period == Period(2019, "FY")
