"""Items, losses and levels the way research notes print them.

A list of labels joined by 、 and as many amounts (`分别实现营收、归属净利润、扣非归属净利润…`),
a numbered item that opens on one business (`：1）某某业务继续亏损，…实现净利润-0.21亿元`),
a bare loss that is the company's result (`；亏损4.9亿元`, `公司录得亏损30.36亿`), and a level
printed after its change (`收入增长60%至人民币38亿元`). Texts written here in those shapes; the
reader is the real one.
"""

from __future__ import annotations

import pytest

from lmscreen.task.facts import read_facts


def test_a_numbered_item_on_one_business_is_that_business_and_a_kou_fei_gui_shu_label_ends_a_list() -> None:
    text = (
        "事件描述　　公司2020H1分别实现营收、归属净利润、扣非归属净利润52.30亿、4.12亿、3.95亿元，分别同降"
        "3.1%、5.2%、6.0%。业绩增速不及营收主要受两方面因素影响：1）智能家居业务继续亏损，上半年实现净利润"
        "-0.21亿元，亏损额同比收窄0.05亿元；2）当期研发费用2.15亿元同增11.2%。"
    )
    sheet = read_facts(text)
    got = sheet.screening()
    assert got["revenue"].fact.value == pytest.approx(52.30e8)
    assert got["net_profit"].fact.value == pytest.approx(4.12e8)
    (segment,) = [f for f in sheet.facts if f.metric == "net_profit" and f.value < 0]
    assert segment.scope == "segment" and segment.segment == "智能家居业务"
    deducted = [f for f in sheet.facts if f.metric == "net_profit_deducted" and f.basis == "actual"]
    assert [f.value for f in deducted] == [pytest.approx(3.95e8)]


def test_a_bare_loss_after_the_revenue_is_the_companys_net_profit() -> None:
    text = (
        "公司披露2021年三季报，前三季度累计实现营业收入18.20亿元，同比下降6.1%；亏损2.3亿元，较去年同期亏损"
        "显著扩大。推算2021Q3单季度实现营业收入6.10亿元；亏损4200万元，上年同期亏损3100万元。汇兑亏损0.2亿元，"
        "酒店板块亏损1.1亿元。"
    )
    sheet = read_facts(text)
    assert sheet.period.label() == "2021Q1-Q3"
    assert sheet.screening()["net_profit"].fact.value == pytest.approx(-2.3e8)
    losses = {(f.period_label, f.basis, round(f.value)) for f in sheet.facts if f.metric == "net_profit"}
    assert ("2021Q3", "actual", -42_000_000) in losses
    # a part's loss and an exchange loss are not the company's result
    assert not [f for f in sheet.facts if f.metric == "net_profit" and f.value in (-0.2e8, -1.1e8)]


def test_a_bare_loss_gives_way_to_the_labelled_profit() -> None:
    text = "报告期内公司实现营业收入3.95亿元；净利润为亏损291.39万元。公司上半年亏损291万元。"
    got = read_facts(text).screening()["net_profit"].fact
    assert got.value == pytest.approx(-291.39e4) and got.label == "净利润"


def test_an_audited_profit_is_the_companys() -> None:
    text = "根据公司披露的《2019年年度报告》，公司2019年度经审计净利润为-3.1亿元，营业收入为2.2亿元。"
    got = read_facts(text).screening()
    assert got["net_profit"].fact.value == pytest.approx(-3.1e8)


def test_a_comparisons_year_whose_clause_has_ended_is_not_the_next_clauses_period() -> None:
    text = (
        "公司公告：1）22年营收同比下降22.9%至83.69亿元，较19年下滑43.5%，公司录得亏损30.36亿，主因疫情。"
        "2）23年Q1营收同比上升63.6%（较19年同期上涨6.1%），公司扭亏为盈，实现归母净利润3.56亿。"
    )
    sheet = read_facts(text)
    assert sheet.period.label() == "FY2022"
    profits = {(f.period_label, round(f.value)) for f in sheet.facts if f.metric == "net_profit"}
    assert profits == {("FY2022", -3_036_000_000), ("2023Q1", 356_000_000)}


def test_a_bare_income_label_reaches_the_level_after_its_growth() -> None:
    text = "公司发布1Q19业绩：收入增长45%至人民币21亿元；归属净利润人民币2.6亿元。收入增长来自运价上涨。"
    sheet = read_facts(text)
    assert sheet.period.label() == "2019Q1"
    assert sheet.screening()["revenue"].fact.value == pytest.approx(21e8)
    revenue = sorted((f.basis, f.value) for f in sheet.facts if f.metric == "revenue")
    assert revenue == [("actual", pytest.approx(21e8)), ("growth", pytest.approx(45.0))]


def test_a_margin_after_the_main_business_and_a_closed_rate_aside_is_the_companys_half_year() -> None:
    text = (
        "公司19H1实现营收88.2亿、同增6.3%，归母净利润15.1亿、同增2.2%。19H1主营业务营收同增6.9%至85.4亿，"
        "其中Q2增速环比提升5.1pct至10.2%；毛利率提升0.8pct至41.6%，Q1/Q2分别+2.5pct/-1.4pct。"
    )
    sheet = read_facts(text)
    got = sheet.screening()
    assert got["revenue"].fact.value == pytest.approx(88.2e8)
    margin = got["gross_margin"].fact
    assert margin.value == pytest.approx(41.6) and margin.period_label == "2019H1"
    assert margin.segment == "主营业务" and margin.rank == 1
    # the main business's revenue stays a part's, below the company's own
    assert [f.scope for f in sheet.facts if f.metric == "revenue" and f.value == pytest.approx(85.4e8)] == [
        "segment"
    ]


def test_a_cause_verb_after_a_driver_clause_names_no_segment_and_net_interest_is_no_profit() -> None:
    text = (
        "某银行发布2018年年报。量价齐升之下，净利息收入强势回升，拉动18年营收98.4亿，YoY+15.2%；"
        "归母净利润31.6亿。"
    )
    sheet = read_facts(text)
    got = sheet.screening()
    assert got["revenue"].fact.value == pytest.approx(98.4e8)
    assert got["net_profit"].fact.value == pytest.approx(31.6e8)
    assert not [f for f in sheet.facts if f.label == "净利"]


def test_a_hong_kong_filings_traditional_words_and_year_ended() -> None:
    text = (
        "截至2025年12月31日止年度，本集團收入為人民幣12.3百萬元，本公司權益股東應佔虧損為人民幣186.4百萬元，"
        "而截至2024年12月31日止年度則為虧損人民幣201.5百萬元。"
    )
    sheet = read_facts(text)
    assert sheet.period.label() == "FY2025"
    got = sheet.screening()
    assert got["net_profit"].fact.value == pytest.approx(-186.4e6)
    assert got["net_profit"].fact.rank == 0
    # the year before, named the same way, is not this year's
    this_year = [f.value for f in sheet.facts if f.metric == "net_profit" and f.period_label == "FY2025"]
    assert this_year == [pytest.approx(-186.4e6)]


def test_an_owners_loss_is_the_net_profit() -> None:
    text = "2025年，公司歸屬於本公司權益股東的虧損人民幣208,362,000元（2024年：人民幣283,158,000元）。"
    got = read_facts(text).screening()["net_profit"].fact
    assert got.value == pytest.approx(-208_362_000) and got.period_label == "FY2025"


def test_an_express_reports_estimate_words_in_its_clause_are_its_actuals() -> None:
    text = (
        "事件描述：公司近期披露业绩快报：2022年H1预计实现营收50.10亿元，同增约20.1%，预计实现归母净利润9.80亿元，"
        "同增约30.2%；其中，公司Q2预计实现营收约21.3亿元。我们预计2022年公司归母净利润20.5亿元。"
    )
    sheet = read_facts(text)
    assert sheet.period.label() == "2022H1"
    got = sheet.screening()
    assert got["revenue"].fact.value == pytest.approx(50.10e8)
    assert got["net_profit"].fact.value == pytest.approx(9.80e8)
    assert [f.basis for f in sheet.facts if f.metric == "net_profit" and f.value == 20.5e8] == ["forecast"]


def test_a_china_prefixed_names_short_form_is_the_company() -> None:
    text = (
        "某石化公布2023年一季报。第一季度，中石化实现营业收入7913.31亿元，同比增长2.59%；实现归属于母公司股东"
        "净利润201.02亿元。"
    )
    got = read_facts(text.replace("某石化", "中国石化"), names=("中国石化",)).screening()
    assert got["revenue"].fact.value == pytest.approx(7913.31e8)


def test_a_sentence_on_one_business_after_the_company_and_its_year_is_that_business() -> None:
    text = (
        "公司2022年全年实现营收1665.52亿元，yoy+1.77%；归母净利润2.61亿元。公司2022年半导体显示业务，销售面积达"
        "4275万平米，同比增长8.25%，但全年随价格波动，年实现营收657.2亿元，同比下降25.5%。"
    )
    sheet = read_facts(text)
    assert sheet.screening()["revenue"].fact.value == pytest.approx(1665.52e8)
    (part,) = [f for f in sheet.facts if f.metric == "revenue" and f.value == pytest.approx(657.2e8)]
    assert part.scope == "segment" and part.segment == "半导体显示业务"


def test_a_conjunction_names_no_segment_and_a_figure_after_if_removed_is_adjusted() -> None:
    text = (
        "2019年上半年，公司实现营业收入85.19亿元，同比增长49.62%；实现归属母公司股东净利润2.66亿元。营收大幅增加的"
        "主要原因是贸易收入大幅增长，不过公司整体毛利率下降至11.26%，较2018年回落3.2个百分点。若将投资业务和汇率"
        "波动对利润的影响剔除，则公司上半年归母净利润为2.39亿元。"
    )
    got = read_facts(text).screening()
    assert got["gross_margin"].fact.value == pytest.approx(11.26)
    assert got["net_profit"].fact.value == pytest.approx(2.66e8)


def test_a_year_and_the_next_first_quarter_announced_together_give_the_quarters_margin() -> None:
    text = (
        "公司公布2022年、1Q23业绩：1）2022年收入150.20亿元，同比-1.1%；归母净利润12.72亿元。2）1Q23收入31.57亿元，"
        "同比-10.27%；归母净利润2.04亿元。盈利持续改善：4Q22/1Q23毛利率26.1%/28.4%，同比+1.3ppt/+2.7ppt。"
    )
    sheet = read_facts(text)
    assert sheet.period.label() == "FY2022"
    margin = sheet.screening()["gross_margin"].fact
    assert margin.value == pytest.approx(28.4) and margin.period_label == "2023Q1"


def test_a_rising_word_before_the_margin_names_no_segment() -> None:
    text = (
        "公司披露2020年报及2021一季报：1）2020全年：营收535.0亿（同比+10.1%），归母净利润113.9亿；2）21Q1单季："
        "营收119.9亿（同比+48.4%），归母净利润18.7亿。　　1）现金流创历史最佳：年度“经营性净现金流/"
        "归母净利润”比值达到1.2。　　2）上行的毛利率再次证明软化进展：21Q1毛利率达到45.8%，"
        "比过去5年同期均值高2.4pct。"
    )
    sheet = read_facts(text)
    assert sheet.period.label() == "FY2020"
    got = sheet.screening()
    assert got["gross_margin"].fact.value == pytest.approx(45.8)
    assert got["net_profit"].fact.value == pytest.approx(113.9e8)
    assert not [f for f in sheet.facts if f.metric == "net_profit" and f.value < 1e9]


def test_nine_months_written_9m_and_the_year_to_date_after_the_quarter_alone() -> None:
    nine = read_facts(
        "事件：公司公告2020年三季报。9M20公司收入59.66亿元，同比-11.43%，3Q20收入23.65亿元，同比-1.82%；"
        "9M20归母净利润4.73亿元，同比+2.72%，3Q20归母净利润2.70亿元，同比+31.78%。"
    )
    assert nine.period.label() == "2020Q1-Q3"
    assert nine.screening()["net_profit"].fact.value == pytest.approx(4.73e8)
    to_date = read_facts(
        "公司于2022年10月17日发布《2022年三季度报告》。公司2022年三季度单季实现营业收入4.82亿元，同比增长18.78%；"
        "归母净利润7584.1万元。年初至本报告期末，公司一共实现营业收入15.62亿元，同比增长10.82%；归母净利润2.10亿元。"
    )
    assert to_date.period.label() == "2022Q1-Q3"
    got = to_date.screening()
    assert got["revenue"].fact.value == pytest.approx(15.62e8)
    assert got["net_profit"].fact.value == pytest.approx(2.10e8)


def test_a_margins_base_and_a_many_years_approximate_margin_are_no_figures() -> None:
    text = (
        "公司发布公告，2019年实现营业收入18.14亿元，同比增长38%；实现归母净利润3.06亿元。公司将进一步提高特种光纤"
        "的自制比例，毛利率将在目前30%基础上逐步提升。长期以来，公司毛利率40%左右，净利率20%左右。"
    )
    sheet = read_facts(text)
    assert sheet.screening()["gross_margin"].fact is None
    assert not [f for f in sheet.facts if f.metric == "gross_margin"]


def test_a_forecast_announced_after_the_opening_sentence_is_not_the_documents_period() -> None:
    text = (
        "公司公告：2020年实现营业收入97.73亿（YoY-0.1%），归母净利润为14.61亿（YoY+30.5%）；其中四季度实现营业"
        "收入30.21亿。此外，公司发布2021年一季度业绩预告，预计一季度实现归母净利润6.5-8亿元。"
    )
    sheet = read_facts(text)
    assert sheet.period.label() == "FY2020"
    got = sheet.screening()
    assert got["revenue"].fact.value == pytest.approx(97.73e8)
    assert got["net_profit"].fact.value == pytest.approx(14.61e8)


def test_a_product_line_named_after_the_company_and_growing_is_that_lines() -> None:
    text = (
        "2022年公司实现营收26.72亿元、同比43.33%，归母净利润9.99亿元。公司津逮服务器保持稳健增长，实现营收"
        "7.37亿元、同比+10.80%。公司业绩保持稳健增长，实现营收26.72亿元。"
    )
    sheet = read_facts(text)
    assert sheet.screening()["revenue"].fact.value == pytest.approx(26.72e8)
    (line,) = [f for f in sheet.facts if f.metric == "revenue" and f.value == pytest.approx(7.37e8)]
    assert line.scope == "segment" and line.segment == "津逮服务器"


def test_a_pe_glued_to_a_year_and_a_direct_store_income_are_no_screening_figures() -> None:
    text = (
        "当前市值 88 亿元，对应 19PE13X，估值不高。19H1 公司收入同比增长 14.42%至 11.11 亿元，"
        "归母净利润同比增长 1.09%至 3.39 亿元。19H1 直营收入同比增 16%至 5.16 亿，直营平均店效增长接近 19%。"
    )
    got = read_facts(text).screening()
    assert got["pe_ttm"].fact is None
    assert got["revenue"].fact.value == pytest.approx(11.11e8)


def test_a_sales_heading_of_the_next_quarter_gives_way_to_the_years_results() -> None:
    text = (
        "2023年一季度销售进入行业前十。根据克而瑞数据，公司2023年一季度实现全口径销售金额491亿元，同比+112%。"
        "2022年营收逆势增长。2022年公司实现营业收入591.9亿，同比+15.5%，归母净利润25.8亿，同比-19.3%。"
    )
    sheet = read_facts(text)
    assert sheet.period.label() == "FY2022"
    assert sheet.screening()["revenue"].fact.value == pytest.approx(591.9e8)
