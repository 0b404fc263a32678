"""What held-out rounds 89 and 90 (real news articles) showed the reader keeping wrongly: a bare 市盈率
under an upper bound (市盈率不到7倍) taken as a PE-TTM, a Hong Kong company's loss in 万元 after its revenue
declared the currency for what follows (万港元(单位下同)) taken as yuan, and the prior year's actual profit
of a text opening on a forecast (公告，预计2021年…。2020年度，…) taken as the document's. Texts written here
in those shapes; the reader is the real one.
"""

from __future__ import annotations

from lmscreen.task.facts import read_facts
from lmscreen.task.periods import Period


def _kept(text: str, field: str, name: str = "") -> float | None:
    fact = read_facts(text, names=(name,)).screening()[field].fact
    return None if fact is None else fact.value


_YEAR = "公司2021年实现营业收入10.2亿元，同比增长7%。"


def test_a_pe_under_an_upper_bound_is_no_figure() -> None:
    text = _YEAR + "分析人士认为，公司目前的市净率仅不到1倍，市盈率不到9倍，估值处在历史底部。"
    assert _kept(text, "pe_ttm") is None


def test_a_printed_pe_ttm_is_still_kept() -> None:
    text = _YEAR + "分析人士认为，公司目前的市盈率(TTM)为8.6倍，估值处在历史底部。"
    assert _kept(text, "pe_ttm") == 8.6


_HK = "某某控股(01234)发布中期业绩，公司实现收益5230.4万港元{declared}，同比下滑30.2%；{loss}。"


def test_a_loss_after_a_foreign_currency_declared_for_what_follows_is_no_yuan() -> None:
    text = _HK.format(declared="(单位下同)", loss="亏损820万元，上年同期净利310万元")
    assert _kept(text, "net_profit") is None


def test_the_same_loss_without_the_declaration_is_yuan() -> None:
    text = _HK.format(declared="", loss="亏损820万元，上年同期净利310万元")
    assert _kept(text, "net_profit") == -8_200_000.0


def test_an_amount_marked_renminbi_after_the_declaration_stays_yuan() -> None:
    text = _HK.format(declared="(单位下同)", loss="股东应占亏损人民币820万元")
    assert _kept(text, "net_profit") == -8_200_000.0


def test_a_forecasts_prior_year_actual_is_not_the_documents() -> None:
    text = (
        "某某航空1月27日晚公告，预计2022年归属于上市公司股东的净利润为-80亿元至-95亿元。"
        "2021年度，公司归属于上市公司股东的净利润为-102.4亿元。"
    )
    sheet = read_facts(text)
    assert sheet.period == Period(2022, "FY")
    assert sheet.screening()["net_profit"].fact is None


def test_a_year_reported_before_a_forecast_stays_the_documents() -> None:
    text = (
        "某某航空1月27日晚公告，2021年度公司归属于上市公司股东的净利润为-102.4亿元。"
        "预计2022年一季度归属于上市公司股东的净利润为-8亿元至-9.5亿元。"
    )
    assert _kept(text, "net_profit") == -10_240_000_000.0


def test_a_year_beside_a_forecast_of_another_period_stays_the_documents() -> None:
    text = (
        "某某航空1月27日晚公告，预计2022年一季度归属于上市公司股东的净利润为-8亿元至-9.5亿元。"
        "2021年度，公司归属于上市公司股东的净利润为-102.4亿元。"
    )
    assert _kept(text, "net_profit") == -10_240_000_000.0
