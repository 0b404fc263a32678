"""Figures blind rounds 79 and 80 showed the reader keeping wrong or missing: a year's figures the company
预告s (`公司预告2022年实现…`, a preannouncement's point, kept as an actual); a document period taken from a
valuation's year (`目前市值对应2020年股息率7.5%`), a projection's horizon (`到2025年，…将达`) or a
comparison's base (`约是2021年的14倍`); `公司19年实现销售收入36.03亿` not read as the revenue; a 和-joined
pair of margins whose signed changes come right after 分别 (`分别-0.12/-0.92pcts至91.66%/48.61%`). Texts
written here in those shapes; the reader is the real one.
"""

from __future__ import annotations

import pytest

from lmscreen.task.facts import read_facts


def _kept(text: str, field: str) -> float | None:
    fact = read_facts(text).screening()[field].fact
    return None if fact is None else fact.value


PREANNOUNCED = (
    "维持买入评级。公司预告2022年实现营业总收入21.35亿元，同比下降7.10%；实现营业利润9.80亿元，"
    "同比下降5.20%；实现归母净利润7.64亿元，同比增加12.30%。"
)


@pytest.mark.parametrize("field", ["revenue", "net_profit"])
def test_a_years_figures_the_company_preannounces_are_no_actuals(field: str) -> None:
    assert _kept(PREANNOUNCED, field) is None


def test_the_same_figures_in_an_express_report_are_kept() -> None:
    text = PREANNOUNCED.replace("公司预告2022年实现", "公司发布2022年业绩快报，2022年实现")
    assert _kept(text, "revenue") == pytest.approx(21.35e8)
    assert _kept(text, "net_profit") == pytest.approx(7.64e8)


def test_a_report_near_its_preannouncement_is_still_kept() -> None:
    # the noun (`接近预告上限`) marks nothing: the report's own figures are actuals
    text = "一季报业绩接近预告上限。公司2021年一季度实现营业收入31.20亿元，同比增长40.10%。"
    assert _kept(text, "revenue") == pytest.approx(31.2e8)


QUARTER_NOTE = (
    "目前市值对应2020年股息率6.8%，高股息吸引力提升。2020Q3公司营业收入同比下降3.1%至186.4亿，"
    "净利润同比下降15.2%至31.7亿。2020年1-9月货运量同比下降7.9%。"
)


def test_a_valuations_year_is_not_the_documents_period() -> None:
    sheet = read_facts(QUARTER_NOTE)
    assert sheet.period is not None and (sheet.period.year, sheet.period.sub) == (2020, "Q3")
    assert sheet.screening()["revenue"].fact.value == pytest.approx(186.4e8)
    assert sheet.screening()["net_profit"].fact.value == pytest.approx(31.7e8)


def test_a_projections_horizon_and_a_comparisons_base_are_not_the_documents_period() -> None:
    text = (
        "行业长期景气，例如到2025年，我国该市场规模将达2994亿元，约是2021年的14倍。截止2020年，国内市场规模已达"
        "66.2亿元。营收方面，公司2020年实现3.8亿元营业收入，是国产龙头。"
    )
    sheet = read_facts(text)
    assert sheet.period is not None and (sheet.period.year, sheet.period.sub) == (2020, "FY")
    assert sheet.screening()["revenue"].fact.value == pytest.approx(3.8e8)


def test_an_as_of_year_before_a_projection_still_dates_the_document() -> None:
    # `截至2020年` is an as-of date, not a horizon: the document stays 2020's
    text = "截至2020年，公司实现营业收入12.5亿元，同比增长20.1%，预计未来市场将保持增长。"
    sheet = read_facts(text)
    assert sheet.period is not None and sheet.period.year == 2020
    assert sheet.screening()["revenue"].fact.value == pytest.approx(12.5e8)


def test_the_companys_sales_revenue_after_its_year_is_the_revenue() -> None:
    text = "年报点评。公司19年实现销售收入42.17亿，同比增长6.2%；实现归母净利润4.05亿，同比增长3.1%。"
    assert _kept(text, "revenue") == pytest.approx(42.17e8)


def test_a_businesss_sales_revenue_after_its_year_is_not() -> None:
    text = "年报点评。公司连杆板块2019年实现销售收入7.99亿元，较去年同期增长22.48%。"
    assert _kept(text, "revenue") is None


def test_signed_changes_right_after_fenbie_then_levels() -> None:
    text = "公司发布2021年半年报。21H1毛利率和净利率分别-0.15/-0.88pcts至90.12%/47.35%，毛利率维持稳定。"
    assert _kept(text, "gross_margin") == pytest.approx(90.12)


def test_unsigned_numbers_after_fenbie_are_not_taken_for_changes() -> None:
    # no sign and no change word: `分别为` a range's ends, not changes then levels
    text = "公司发布2021年半年报。21H1毛利率和净利率分别为90.12%/47.35%。"
    assert _kept(text, "gross_margin") == pytest.approx(90.12)


FEATURE = (
    "于是乎，某某网络2023年连续五个月上涨，涨幅高达155.78%。究其根本，某某网络的业绩不振。2017年至2021年，"
    "某某网络的营业收入分别为29.07亿元，37.80亿元、25.71亿元、22.17亿元、21.24亿元，同比分别增长25.10%、"
    "30.03%、-31.96%、-13.77%、-4.20%；净利润分别为12.90亿元、10.78亿元、8.20亿元、10.29亿元、9.95亿元。"
    "早在2020年该IP的累计收入就超过200亿元。"
)


def test_a_comma_between_a_lists_first_amounts_keeps_the_list() -> None:
    sheet = read_facts(FEATURE, names=("某某网络",))
    revenues = sorted(
        (f.period.year, f.value)
        for f in sheet.facts
        if f.metric == "revenue" and f.source == "list" and f.basis == "actual" and f.period
    )
    assert revenues[0] == (2017, pytest.approx(29.07e8))
    assert len(revenues) == 5


def test_a_span_of_years_listing_the_companys_figures_dates_the_document_by_its_last_year() -> None:
    sheet = read_facts(FEATURE, names=("某某网络",))
    assert sheet.period is not None and (sheet.period.year, sheet.period.sub) == (2021, "FY")
    got = sheet.screening()
    assert got["revenue"].fact.value == pytest.approx(21.24e8)
    assert got["net_profit"].fact.value == pytest.approx(9.95e8)


def test_a_subsidiarys_listed_years_do_not_date_the_document() -> None:
    text = FEATURE.replace("某某网络的营业收入分别为", "子公司某某电子收入分别为")
    sheet = read_facts(text, names=("某某网络",))
    assert sheet.period is None or sheet.period.year != 2021


def test_an_estimates_listed_years_do_not_date_the_document() -> None:
    text = FEATURE.replace("2017年至2021年，某某网络", "我们继续维持2017年至2021年某某网络")
    sheet = read_facts(text, names=("某某网络",))
    assert sheet.period is None or sheet.period.year != 2021


NINE_MONTHS = (
    "公司发布2021年三季报：前三季度公司实现营收8.15亿元，同比增长121.76%。2021年前三季度，公司整体毛利率为"
)


def test_a_margin_printed_without_its_percent_but_changed_in_points_is_kept() -> None:
    text = NINE_MONTHS + "76.48，同比增加5.01pct，其中Q3毛利率80.12%，同比增加8.16pct。"
    assert _kept(text, "gross_margin") == pytest.approx(76.48)


@pytest.mark.parametrize("tail", ["76，同比增加5pct。", "76.48，主要系产品结构优化。"])
def test_a_bare_whole_number_or_one_with_no_change_in_points_is_no_margin(tail: str) -> None:
    assert _kept(NINE_MONTHS + tail, "gross_margin") is None


@pytest.mark.parametrize("verb", ["升至", "增长至", "上涨至"])
def test_an_amount_a_figure_rose_from_is_the_prior_one(verb: str) -> None:
    # `由2.6亿元升至351.3亿元`: the first amount is where it came from, the second the year's
    text = f"年报点评。公司2020年归母净利润由2.6亿元{verb}351.3亿元，盈利能力显著提升。"
    assert _kept(text, "net_profit") == pytest.approx(351.3e8)


BANK_NOTE = (
    "公司近况　　近期我们前往某银消金公司调研某某银行消费金融业务，当前0.6倍2022年市净率具备重估空间。　　"
    "某银消金公司成立于2021年3月，专营互联网个人消费信贷业务。在负债能力上，公司作为银行系持牌消金公司，具备"
    "融资成本优势。公司2021年末净利润0.21亿元，开业首年实现盈利；1H22末，公司净利润0.64亿元，贷款余额182亿元。"
)


def test_a_paragraph_introducing_another_company_holds_that_companys_figures() -> None:
    assert _kept(BANK_NOTE, "net_profit") is None


def test_a_paragraph_introducing_the_company_itself_keeps_its_figures() -> None:
    text = BANK_NOTE.replace("某银消金公司成立于", "某某银行股份有限公司成立于")
    assert _kept(text, "net_profit") == pytest.approx(0.64e8)
