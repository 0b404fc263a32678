"""What held-out rounds 108 and 109 (whole broker reports a PDF extractor printed without line breaks)
showed the reader doing wrong. Texts written here in those shapes; the reader is the real one.
"""

from __future__ import annotations

from lmscreen.task.facts import read_facts
from lmscreen.task.periods import Period
from lmscreen.task.units import find_mentions


def _kept(text: str, field: str, name: str = "") -> float | None:
    fact = read_facts(text, names=(name,)).screening()[field].fact
    return None if fact is None else fact.value


# A forecast table flattened onto the text's one line, its last header `ROE(%)`, then the prose.
_TABLE = (
    "财务摘要和估值指标指标2018A2019A2020E2021E营业收入(百万元)321558705 1093毛利率(%)89.392.691.992.6"
    "ROE(%)43.745.038.236.8EPS(摊薄/元)1.022.543.485.31"
)
_PROSE = (
    "公司业绩保持快速增长。2019年公司营收5.58亿元，归母净利润3.06亿元。2020年前三季度营收和归母净利润"
    "分别达到4.64/2.90亿元，同比增长17.40%/31.83%。"
)


def test_a_headers_unit_stops_at_the_end_of_its_sentence() -> None:
    mention = next(m for m in find_mentions(_TABLE + _PROSE) if m.printed.startswith("4.64"))
    assert mention.kind != "percent"


def test_a_slash_pair_after_a_flattened_table_is_the_periods_figures() -> None:
    text = _TABLE + _PROSE
    assert _kept(text, "revenue") == 464_000_000.0
    assert _kept(text, "net_profit") == 290_000_000.0


def test_a_headers_unit_still_holds_for_its_rows_numbers() -> None:
    mentions = find_mentions("营业收入（亿元） 12.5 13.8 15.2\n")
    assert [m.kind for m in mentions] == ["money", "money", "money"]
    assert mentions[0].base == 1_250_000_000.0


_DIGEST = (
    "重点公司最新观点。甲电子(002138CH)营收创新高：2月26日甲电子发布年报，2020年公司实现营收34.77亿元"
    "(YoY29.09%)，归母净利润5.88亿元(YoY46.50%)。维持买入评级。乙股份(002841CH)业绩逆势增长：公司发布"
    "业绩快报，20年实现收入171.44亿元，同比增长0.54%，归母净利润19.04亿元，同比增长18.22%。维持买入评级。"
)


def test_two_companies_announced_results_in_a_digest_are_no_headline() -> None:
    assert _kept(_DIGEST, "revenue") is None
    assert _kept(_DIGEST, "net_profit") is None


def test_a_second_report_announced_beside_the_first_leaves_its_headline() -> None:
    text = (
        "事件：公司发布2019年年报，报告期内实现营收2.98亿元，同比增长47.71%；归母净利润0.34亿元，同比增长"
        "330.28%。同时公司发布2020年一季报，报告期内实现营收0.73亿元，同比增长21.75%；归母净利润0.16亿元。"
    )
    assert _kept(text, "net_profit") == 34_000_000.0


_INITIATION = (
    "公司盈利能力持续体现。2019年公司营收5.58亿元，同比增长73.7%，归母净利润3.06亿元，整体毛利率从86.1%"
    "上升至92.6%。"
)


def test_a_later_halfs_margin_dates_a_note_after_that_half() -> None:
    text = _INITIATION + "即使在疫情影响下的20H1，净利率仍然同比提升7.5pp至59.5%，展现强劲盈利能力。"
    assert _kept(text, "gross_margin") is None
    assert _kept(text, "revenue") is None


def test_a_note_with_no_later_figure_keeps_its_year() -> None:
    assert _kept(_INITIATION, "gross_margin") == 92.6
    assert _kept(_INITIATION, "revenue") == 558_000_000.0


_GROWTH_ONLY_HALF = (
    "近年来业绩快速增长，至19年营收与净利分别为5.58亿元、3.06亿元；20H1受到国内疫情影响，营收与净利增速"
    "分别为0.72%、15%。"
)


def _growth(text: str, metric: str) -> list[float]:
    return [f.value for f in read_facts(text).facts if f.metric == metric and f.basis == "growth"]


def test_a_growth_rate_named_before_a_list_makes_its_percents_changes() -> None:
    assert _growth(_GROWTH_ONLY_HALF, "revenue") == [0.72]
    assert _growth(_GROWTH_ONLY_HALF, "net_profit") == [15.0]


def test_a_compound_rate_before_a_list_is_no_periods_growth() -> None:
    assert _growth("14~19年营收、净利复合增速分别为49%、61%。", "revenue") == []


def test_a_later_halfs_growth_dates_a_note_after_that_half() -> None:
    sheet = read_facts(_GROWTH_ONLY_HALF)
    assert sheet.period == Period(2020, "H1")
    assert _kept(_GROWTH_ONLY_HALF, "revenue") is None
    assert _kept(_GROWTH_ONLY_HALF, "net_profit") is None


def test_columns_run_together_give_no_number() -> None:
    printed = [m.printed for m in find_mentions("归母净利122.85305.52360.59593.86887.24，毛利率33.05%")]
    assert not any(p.startswith("122.85") for p in printed)
    assert printed[-1] == "33.05%"


_SUBSIDIARY = (
    "公司公布2020年年报，2020年实现营业收入336.83亿元，同比下降4.97%。疫情下公司医药工业板块依旧保持"
    "增长态势，中美华东实现收入110.40亿元（+5.07%），净利润23.32亿元。"
)


def test_a_short_name_ending_a_longer_name_is_another_company() -> None:
    facts = read_facts(_SUBSIDIARY, names=("华东医药",)).facts
    sub = next(f for f in facts if f.metric == "revenue" and f.value == 11_040_000_000.0)
    assert sub.scope == "segment"
    assert _kept(_SUBSIDIARY, "revenue", "华东医药") == 33_683_000_000.0


def test_a_short_name_after_a_filler_is_the_company() -> None:
    text = "报告期内华东实现营业收入336.83亿元，同比下降4.97%。"
    fact = next(f for f in read_facts(text, names=("华东医药",)).facts if f.metric == "revenue")
    assert fact.scope == "company"


_NINE_MONTHS = "公司前三季度实现营收4.64亿元，归母净利润2.90亿元。"


def test_a_heading_saying_how_a_figure_moved_names_no_part() -> None:
    text = _NINE_MONTHS + "费用控制有效，净利率提升明显前三季度销售毛利率达69.41%（+5.73pct），费用控制出色。"
    assert _kept(text, "gross_margin") == 69.41


def test_a_named_business_before_the_margin_stays_a_part() -> None:
    text = _NINE_MONTHS + "费用控制有效，嗨体业务前三季度销售毛利率达69.41%（+5.73pct），费用控制出色。"
    assert _kept(text, "gross_margin") is None


_FLAT_TABLE_THEN_EVENT = (
    "公司盈利预测及估值指标2019A2020A2021E营业收入（百万元）35445.7033683.0635739.66每股现金流量1.141.951.98"
    "净资产收益率22.85%19.29%16.50%投资要点事件：公司公布2020年年报，2020年实现营业收入336.83亿元，同比"
    "下降4.97%；实现归母净利润28.20亿元，同比增长0.24%。"
)


def test_a_flattened_table_rows_label_gives_the_prose_after_it_no_subject() -> None:
    # the table's 2020A cell gives the same figure to more places; the prose's own reading is checked here
    facts = read_facts(_FLAT_TABLE_THEN_EVENT, names=("华东医药",)).facts
    prose = [f for f in facts if f.metric == "revenue" and f.source != "table" and f.basis == "actual"]
    assert [f.value for f in prose] == [33_683_000_000.0]


def test_a_business_named_in_prose_still_carries_to_its_revenue() -> None:
    text = "公司公布2020年年报。其中医药工业板块毛利率75.2%，同比提升1pct，实现营业收入110.40亿元。"
    assert _kept(text, "revenue", "华东医药") is None
