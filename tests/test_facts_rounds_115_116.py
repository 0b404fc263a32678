"""What held-out rounds 115 and 116 (broker reports extracted from PDFs) showed the reader getting wrong: an
industry strategy's chart axis kept as a PE(TTM), a `同期` clause after a named year read as the year before,
`今年上半年` dated by the note's older main year instead of the cover's date, and run-together tables whose
rows repeat per product or segment, whose title says they split the company, whose whole-number rows stopped
the reading, or whose half-year column was taken for a forecast. Texts written here in those shapes; the
reader is the real one.
"""

from __future__ import annotations

from lmscreen.task.facts import read_facts
from lmscreen.task.periods import Period


def _kept(text: str, field: str, name: str = "") -> float | None:
    fact = read_facts(text, names=(name,)).screening()[field].fact
    return None if fact is None else fact.value


_STRATEGY = "医美板块观点：从布局赛道到优选个股——{kind}——证券分析师：张某\n"
_BODY = "公司2020年实现营业收入10.50亿元，归母净利润2.10亿元。估值图PE(TTM)42全球视野本土智慧\n"


def test_an_industry_investment_strategy_holds_no_company_figures() -> None:
    assert _kept(_STRATEGY.format(kind="行业投资策略") + _BODY, "net_profit") is None


def test_a_cover_naming_a_company_report_keeps_its_figures() -> None:
    assert _kept(_STRATEGY.format(kind="公司深度报告") + _BODY, "net_profit") == 210_000_000.0


_SAME_PERIOD = (
    "2020年公司营收下滑37%至19.9亿元，主要系地产业务结转减少所致；同期公司归母净利润亏损1.35亿元，业绩疲软。"
)


def test_a_same_period_clause_after_a_named_year_is_that_years() -> None:
    assert _kept(_SAME_PERIOD, "net_profit") == -135_000_000.0


def test_a_same_period_clause_after_last_years_words_stays_as_it_was() -> None:
    text = "2020年公司营收19.9亿元，去年为31.5亿元；同期公司归母净利润亏损1.35亿元，业绩疲软。"
    assert _kept(text, "net_profit") is None


_COVER = "深度报告{date}\n"
_THIS_YEAR = (
    "公司2019年收入5.6亿元，归母净利润3.1亿元。"
    "公司今年上半年实现收入2.4亿元，同增0.8%，其中二季度实现收入1.6亿元；上半年实现归母净利润1.5亿元，同增14.5%。"
)


def test_this_years_half_is_the_cover_dates_year() -> None:
    text = _COVER.format(date="2020年10月19日") + _THIS_YEAR
    sheet = read_facts(text)
    assert sheet.period == Period(2020, "H1")
    assert _kept(text, "revenue") == 240_000_000.0
    assert _kept(text, "net_profit") == 150_000_000.0


def test_an_events_date_does_not_date_this_year() -> None:
    text = _COVER.format(date="：产品自2018年11月30日上线以来") + _THIS_YEAR
    assert _kept(text, "revenue") == 560_000_000.0


_PRODUCTS = (
    "2019年公司营业收入5.6亿元，归母净利润3.1亿元。表10：可比公司产品对比公司产品2016201720182019"
    "甲产品出厂价（元/支）931.76649.431009.85700.41毛利率87.80%92.87%95.91%96.07%"
    "营业收入（万元）2386.421116.56557.64208.02"
    "乙产品出厂价（元/支）2530.372451.312316.322547.49毛利率98.23%98.15%98.11%98.73%"
    "营业收入（万元）1348.681579.623363.766750.35资料来源：公司公告\n"
)


def test_a_run_together_tables_repeated_rows_are_its_groups() -> None:
    assert _kept(_PRODUCTS, "revenue") == 560_000_000.0
    assert _kept(_PRODUCTS, "gross_margin") is None


def test_a_run_together_tables_total_group_is_the_companys() -> None:
    text = (
        "2020年公司业绩稳健。2018A2019A2020A2021E"
        "血液制品营业收入30.1035.2039.5044.20毛利率60.1%61.2%62.3%63.0%"
        "疫苗营业收入3.104.208.5012.30毛利率80.1%85.0%89.5%89.8%"
        "收入合计33.2039.4048.0056.50毛利率65.1%65.2%72.8%73.0%资料来源：公司公告\n"
    )
    assert _kept(text, "gross_margin") == 72.8


_SEGMENT_TABLE = (
    "2020年公司整体毛利率为27%。表3：{title}单位：百万元2020A2021E2022E2023E"
    "地产开发与销售收入1402.651402.71402.71402.7增速-38.6%0.0%0.0%0.0%毛利率33.6%30.0%29.0%28.0%"
    "资料来源：公司公告\n"
)


def test_a_run_together_table_titled_by_segment_is_not_the_companys() -> None:
    assert _kept(_SEGMENT_TABLE.format(title="分业务收入及毛利率"), "gross_margin") == 27.0


def test_a_run_together_table_with_no_split_title_is_read() -> None:
    assert _kept(_SEGMENT_TABLE.format(title="收入及毛利率"), "gross_margin") == 33.6


def test_whole_number_rows_do_not_stop_a_run_together_table() -> None:
    text = (
        "公司2019年收入和归母净利各5.58和3.06亿元。主要财务数据及预测201820192020E2021E2022E"
        "营业收入(百万元)32155871410111386(+/-)YoY(%)44.3%73.7%28.1%41.6%37.0%"
        "毛利率(%)89.3%92.6%91.1%91.4%91.4%净资产收益率(%)30.8%46.4%8.8%11.5%14.0%资料来源：公司年报\n"
    )
    assert _kept(text, "gross_margin") == 92.6
    assert _kept(text, "roe") == 46.4


def test_a_run_together_half_year_column_is_the_next_halfs_results() -> None:
    text = (
        "公司19年收入5.6亿元，归母净利润3.1亿元。财务数据及盈利预测20192020H12020E2021E2022E"
        "营业总收入（百万元）5582427341,2171,884毛利率（%）92.690.292.292.292.3ROE（%）46.418.38.911.915.2"
        "注：市盈率是指目前股价除以各年每股收益\n"
    )
    assert read_facts(text).period == Period(2020, "H1")
    assert _kept(text, "gross_margin") == 90.2
    assert _kept(text, "roe") == 18.3
    assert _kept(text, "revenue") is None


def test_a_run_together_header_of_years_with_their_nian_holds_the_half_years_column() -> None:
    text = (
        _COVER.format(date="2020年10月19日")
        + _THIS_YEAR
        + "表4：公司2015-20H1净资产收益率变化及分拆2015年2016年2017年2018年2019年20年上半年"
        "净资产收益率（%）14.725.828.034.057.820.1销售净利率（%）15.837.734.536.253.459.5资料来源：万得\n"
    )
    assert _kept(text, "roe") == 20.1


def test_a_run_together_header_running_back_in_time_is_a_peer_table() -> None:
    text = (
        "2020H1公司营收为2.42亿，同比增长0.72%；归母净利润为1.48亿元，同比增长14.59%。"
        "表1：同行业可比公司财务数据2020H1201920182017营业收入（亿元）华熙生物9.4718.8612.638.18"
        "昊海生科4.969.928.447.11爱美客2.425.583.212.22资料来源：公司公告\n"
    )
    assert _kept(text, "revenue") == 242_000_000.0
