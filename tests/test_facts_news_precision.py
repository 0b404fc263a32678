"""Wrong figures a precision read of real news briefs (FinCUGE's finqa/finna/finnl/finese/finfe texts, 309
kept values read by hand) showed the reader keeping: an industry's or a province's total, a group of listed
brokers' sum, a contract's amount after a revenue share, a headline list's next item, a value said in
words, a share of a profit, a past time's figure, an acquisition target's, a US-dollar range, a single
month's revenue, a rumour; and two document periods misread. Texts written here in those shapes; the
reader is the real one.
"""

from __future__ import annotations

import pytest

from lmscreen.task.facts import read_facts


def _kept(text: str, field: str) -> float | None:
    fact = read_facts(text).screening()[field].fact
    return None if fact is None else fact.value


@pytest.mark.parametrize(
    ("text", "field"),
    [
        # an industry's total, larger than any company's year
        ("工信部发布2022年1-12月机械行业运行情况。累计实现营业收入27.61万亿元，同比增长9%。", "revenue"),
        # a province's total, named by 全省
        (
            "去年1—11月，全省规模以上工业企业实现利润总额3833.83亿元。1—11月，全省实现营业收入5820.08亿元。",
            "revenue",
        ),
        # a group of listed brokers, summed
        (
            "2022前三季度上市券商全体实现盈利，合计实现营业收入3698亿元，实现归母净利润1184亿元。",
            "net_profit",
        ),
        # another amount after a share of the revenue
        (
            "公司本月中标项目2个，首年服务费合计501.58万元（占公司2021年度经审计营业收入的0.01%），合同总金额为1483.15万元。",
            "revenue",
        ),
        # a headline list: the next item's number after a stock code
        ("营业收入或不达标 *ST某某(000999)存暂停上市风险 120亿出售海外资产100%股权", "revenue"),
        # the label's value said in words; the number after is another item's
        ("某某科技(002999)净利润不足百万 大股东套现3021万元", "net_profit"),
        # a share of the profit, hypothetical
        ("市场空间100亿，公司占50%就是50亿。30%的净利润就是15亿啊", "net_profit"),
        # a past time's figures, told as history
        ("我是1995年来的公司，当时公司的销售额是2亿，毛利率是12%。", "gross_margin"),
        # an acquisition target's figures
        (
            "公司公布收购标的学校。标的学校有12000名学生，2022年收入2.4亿人民币，2022年净利润亏损300万元。",
            "revenue",
        ),
        # a range whose currency is printed at its far end
        ("半导体公司某某Inc.宣布申请上市，其第四季度营收初步数据为3600万至3700万美元。", "revenue"),
        # one month's revenue, no report's
        (
            "【某某控股：12月合并营收45.48亿元 同比增长8.23%】公司2022年12月合并营业收入约45.48亿元。",
            "revenue",
        ),
        # a rumour
        ("内部消息，明天晚上出公告，年报净利润33亿左右，开启连板模式。", "net_profit"),
    ],
)
def test_a_figure_that_is_not_the_companys_is_not_kept(text: str, field: str) -> None:
    assert _kept(text, field) is None


def test_a_year_to_date_named_with_its_year_is_the_reports_period() -> None:
    text = (
        "某某联合（600999）发布2021年第三季度报告：2021年初至报告期末：营业收入为255,881,660.70元，"
        "比上年同期增长30.59%；归属于上市公司股东的净利润为-2,202,328.81元。"
    )
    sheet = read_facts(text)
    assert sheet.period is not None and sheet.period.sub == "Q1-Q3"
    assert sheet.screening()["revenue"].fact.period.sub == "Q1-Q3"


def test_a_half_years_financial_report_and_an_event_names_year() -> None:
    text = (
        "2021“某某基金杯”理财师大赛重磅来袭，报名即可领取666元好礼。\n"
        "28日晚间，某某股份发布2021年上半年财务报告。\n报告期内，某某股份实现营业收入8259.94万元，同比减少32.15%。"
    )
    sheet = read_facts(text)
    assert sheet.period is not None and (sheet.period.year, sheet.period.sub) == (2021, "H1")
    assert _kept(text, "revenue") == pytest.approx(82599400.0)


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        # one company's whole is still the company's
        (
            "公司整体业绩具备明显的后周期特点，2022Q1-3收入254亿，同比+42.5%，归母净利润56.9亿。",
            "revenue",
            254e8,
        ),
        # a share's denominator read as usual when no other amount follows
        ("2022年公司实现营业收入32.5亿元，同比增长12%，毛利率30.2%。", "revenue", 32.5e8),
        # a report's 业绩预告 announced beside the report: the report's actual figures stay actual
        (
            "公司发布2022业绩快报和2023Q1业绩预告，公司22年营收103亿元，同比增长11.21%，归母净利润4.2亿元。",
            "net_profit",
            4.2e8,
        ),
    ],
)
def test_the_companys_own_figures_stay(text: str, field: str, value: float) -> None:
    assert _kept(text, field) == pytest.approx(value)


def test_a_profit_owed_to_a_named_subsidiarys_shareholders_is_the_subsidiarys() -> None:
    """Round 70's `…披露间接全资附属公司上海世茂建设有限公司…的财务资料摘要。…归属于世茂建设股东的
    净亏损171.13亿`: the subsidiary's."""
    text = (
        "5月31日，某某集团控股有限公司发布公告，披露间接全资附属公司上海某某建设有限公司截至2022年12月31日止"
        "年度的财务资料摘要。根据公告，某某建设截至2022年12月31日止年度营业收入368.8亿，净亏损178.46亿，"
        "归属于某某建设股东的净亏损171.13亿。"
    )
    assert _kept(text, "net_profit") is None


def test_a_profit_owed_to_the_companys_own_shareholders_named_stays() -> None:
    # the company named as the owner (a news item's `归属于万科股东`) is the company's
    text = "万科公布2022年业绩，全年营业收入5038.4亿元，归属于万科股东的净利润226.2亿元。"
    assert _kept(text, "net_profit") == pytest.approx(226.2e8)
