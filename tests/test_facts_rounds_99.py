"""What held-out rounds 99 and 100 showed the reader getting wrong: a half-year 业绩预告 whose reasons tell
the first and second quarters without a year (read as a first-quarter document, its 一季度 revenue kept),
the first nine months said as 前9个月 (read as a part named 其前个月), and a small company's profit printed in
plain 元 under 10万 beside its revenue in plain 元 (dropped as a slipped 万), a company whose name holds a
digit (1药网, cut to a part's name when the numbers were blanked) and its non-GAAP loss (非美国通用会计准则下)
quoted ahead in the headline. Texts written here in those shapes; the reader is the real one.
"""

from __future__ import annotations

from lmscreen.task.facts import read_facts
from lmscreen.task.period_text import find_periods
from lmscreen.task.periods import Period


def _kept(text: str, field: str, name: str = "") -> float | None:
    fact = read_facts(text, names=(name,)).screening()[field].fact
    return None if fact is None else fact.value


_FORECAST = (
    "7月10日，华信科技发布业绩预告，公司预计2021年1-6月归属上市公司股东的净利润-900万至-600万，同比变动"
    "-120%至-80%。\n公司基于以下原因作出上述预测：1、报告期内，公司实现营业收入约2.10亿元。"
)


def test_a_forecasts_quarters_told_without_a_year_are_not_the_documents_period() -> None:
    text = _FORECAST + (
        "一季度实现营业收入4,120.50万元，同比下降40.12%。第二季度实现营业收入约1.69亿元，同比增长约20%。"
    )
    sheet = read_facts(text, names=("华信科技",))
    assert sheet.period == Period(2021, "H1")
    assert sheet.screening()["revenue"].fact is None


def test_a_quarter_told_without_a_year_still_dates_a_results_note() -> None:
    text = "华信科技一季度实现营业收入4,120.50万元，同比下降40.12%；归属于上市公司股东的净利润-320.15万元。"
    sheet = read_facts(text, names=("华信科技",))
    assert sheet.period is not None and sheet.period.sub == "Q1"
    assert _kept(text, "revenue", "华信科技") == 41_205_000.0


def test_the_first_nine_months_are_the_nine_months_period() -> None:
    text = (
        "财经网讯 华信酒业发布2019前三季度报告。其前9个月营收5.21亿元，同比增长30.2%；但归属净利依然亏损，"
        "前9月累计亏损1.105亿元。"
    )
    assert _kept(text, "revenue", "华信酒业") == 521_000_000.0
    assert _kept(text, "net_profit", "华信酒业") == -110_500_000.0


def test_the_first_six_months_in_words_are_the_half_year() -> None:
    text = "华信酒业发布2019年半年报。今年前六个月营收3.21亿元，同比增长30.2%。"
    assert _kept(text, "revenue", "华信酒业") == 321_000_000.0


def test_months_ahead_of_a_deadline_are_no_period() -> None:
    text = "华信酒业公司提前3个月完成产能建设，2019年实现营业收入8.21亿元，同比增长12.1%。"
    assert read_facts(text, names=("华信酒业",)).period == Period(2019, "FY")
    assert _kept(text, "revenue", "华信酒业") == 821_000_000.0
    for words in ("提前3个月", "上市前6个月", "限售期满前6个月", "到期前3个月", "此前9个月", "发行前6个月"):
        assert not [m for m in find_periods(f"公司{words}完成建设。") if m.period is not None], words
    assert [m.period for m in find_periods("今年前9个月营收5.21亿元")] == [Period(None, "Q1-Q3")]


_YUAN_HALF = (
    "挖贝网 8月6日，华信商务（837561）近日发布2020年半年度报告，2020年上半年营业总收入2,315,118.67元，"
    "同比减少37.13%；"
)


def test_a_small_profit_in_plain_yuan_beside_revenue_in_plain_yuan_is_kept() -> None:
    text = _YUAN_HALF + "归属于挂牌公司股东的净利润-15,167.41元，同比-98,629.72元，亏损减少。"
    assert _kept(text, "net_profit", "华信商务") == -15_167.41


def test_a_small_profit_in_plain_yuan_beside_revenue_in_wan_stays_a_slip() -> None:
    text = "华信商务2020年上半年营业收入38,919.32万元，同比减少7.13%；归属于挂牌公司股东的净利润9072.87元。"
    assert _kept(text, "net_profit", "华信商务") is None


_US_LISTED = (
    "原标题：3号健康Q2净亏损6120万元,子公司拟科创板上市\n美股上市公司3号健康(THH.US)公布2020年第二季度业绩。"
    "公开资料显示，333集团旗下拥有：B2C医药平台“3号健康”、互联网医院“3诊”。\n"
    "3号健康Q2录得净营收12.50亿元，同比增长50.1%;"
)


def test_a_company_name_holding_a_digit_is_the_companys_name() -> None:
    text = _US_LISTED + "归属股东净亏损为6120万元，去年同期为7010万元。"
    assert _kept(text, "revenue", "3号健康") == 1_250_000_000.0
    assert _kept(text, "net_profit", "3号健康") == -61_200_000.0


def test_a_non_gaap_profit_and_the_headline_quoting_it_are_not_the_reported_profit() -> None:
    text = _US_LISTED + "非美国通用会计准则下，归属股东净亏损为6120万元，去年同期为7010万元。"
    assert _kept(text, "revenue", "3号健康") == 1_250_000_000.0
    assert _kept(text, "net_profit", "3号健康") is None


def test_a_headline_figure_other_than_the_adjusted_one_stays() -> None:
    text = _US_LISTED + "归属股东净亏损为6120万元；非美国通用会计准则下，归属股东净亏损为5010万元。"
    assert _kept(text, "net_profit", "3号健康") == -61_200_000.0
