"""What held-out rounds 86 and 87 showed the reader keeping wrong or missing: one margin's changes against
two bases, then its level (毛利率同比/环比分别下滑11.5/0.66ppt至42.93%), a bare 收入 after 累计
(19Q1-Q3累计收入…), and a news item on a results forecast that quotes the year before's revenue.
Texts written here in those shapes; the reader is the real one.
"""

from __future__ import annotations

from lmscreen.task.facts import read_facts


def _kept(text: str, field: str, name: str = "") -> float | None:
    fact = read_facts(text, names=(name,)).screening()[field].fact
    return None if fact is None else fact.value


def test_one_margins_changes_against_two_bases_then_its_level() -> None:
    text = (
        "华星微发布2Q22业绩，实现营收2.35亿元，归母净利润1830万元。消费类产品价格较去年同期有所下降，"
        "导致2Q22毛利率同比/环比分别下滑8.2/1.05ppt至38.61%。"
    )
    assert _kept(text, "gross_margin") == 38.61


def test_bases_joined_by_a_comma_mark_read_alike() -> None:
    text = (
        "公司2022年实现营收2.35亿元，归母净利润1830万元。2022年毛利率同比、环比分别提升2.1、0.4pct至41.2%。"
    )
    assert _kept(text, "gross_margin") == 41.2


def test_two_rates_after_the_bases_are_no_single_level() -> None:
    # two numbers after 至 under one label and two bases: whose is which, nothing says
    text = (
        "公司2022年实现营收2.35亿元，归母净利润1830万元。"
        "2022年毛利率同比、环比分别提升2.1、0.4pct至41.2%和40.3%。"
    )
    assert _kept(text, "gross_margin") is None


def test_a_bare_income_after_cumulative_is_the_periods_revenue() -> None:
    text = "公司公布季报：19Q1-Q3累计收入同增 61.3%达到 28.17 亿元，归母净利润同增 45.2%至 7631 万元。"
    assert _kept(text, "revenue") == 2_817_000_000.0


def test_a_count_of_years_before_cumulative_income_is_no_period() -> None:
    text = "公司近5年累计收入28.17亿元，归母净利润7631万元。"
    assert _kept(text, "revenue") is None


def test_a_forecast_news_item_does_not_keep_the_year_befores_revenue() -> None:
    # nothing in the opening dates the text; the forecast it reports is its period
    text = (
        "7月18日，华菱精工公告称，公司收到客户的定点通知。本次项目定点生命周期5年，预计2024年量产。"
        "对于此次项目定点，公司表示，已成为主流车企的核心供应商，配套产品包括车身结构件、电池壳等。"
        "此次被选为该客户的供应商，是公司首次进入该客户电池壳产品领域，进一步拓展了公司的产品供货谱系，"
        "有利于进一步巩固公司在汽车配套领域的市场地位，增强行业内竞争力，未来有望获得新客户订单。"
        "业内人士在接受记者采访时称，主流品牌车企的定点有助于增强公司在行业内的竞争力，并通过示范效应获得更多"
        "项目定点，进一步扩大营收成长空间；公司在辊压、冲压制造技术方面有明显优势，电池系统配套产品有较大市场空间。"
        "公司下辖多家全资及控股子公司，分布于国内二十多个省市和地区，主导产品有高强度、轻量化汽车安全防撞系统和"
        "车身结构件系统，新能源汽车电池系统配套产品，低渗透、低排放汽车尼龙管路系统和橡胶管路系统等。"
        "在发布定点公告的几天前，华菱精工披露今年上半年业绩预告，公司预计2023年半年度实现归属于母公司所有者的"
        "净利润1.95亿元到2.25亿元，同比增加87%到115%。2022年华菱精工实现营业收入96.12亿元，完成年度计划的101.2%。"
    )
    assert _kept(text, "revenue", "华菱精工") is None


def test_a_text_with_its_own_year_keeps_it_beside_a_forecast() -> None:
    text = (
        "公司发布2022年年报，2022年实现营业收入96.12亿元，归母净利润5.12亿元。"
        "同时公司披露一季度业绩预告，预计2023年一季度实现归母净利润1.1亿元到1.3亿元。"
    )
    assert _kept(text, "revenue") == 9_612_000_000.0


def test_a_note_on_a_year_and_the_next_quarter_keeps_the_quarters_margin() -> None:
    text = (
        "公司2021年实现收入98.12亿元，同比增长18.2%，归母净利润31.05亿元，同比增长40.3%。"
        "公司2022Q1实现收入21.06亿元，同比下降12.5%，实现归母净利润6.12亿元，同比下降20.4%。"
        "公司2021Q4和2022Q1毛利率分别达到61.25%和58.12%。"
    )
    assert _kept(text, "gross_margin") == 58.12


def test_a_year_quoting_the_quarters_revenue_alone_keeps_no_quarter_margin() -> None:
    # the quarter's profit is not printed: the quarter is quoted beside the year, not reported
    text = (
        "公司2021年实现收入98.12亿元，同比增长18.2%，归母净利润31.05亿元，同比增长40.3%。"
        "公司2022Q1实现收入21.06亿元，同比下降12.5%。公司2021Q4和2022Q1毛利率分别达到61.25%和58.12%。"
    )
    assert _kept(text, "gross_margin") is None
