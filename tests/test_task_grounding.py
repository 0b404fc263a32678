"""Grounding: an extracted figure survives only if the report prints it, with a compatible unit."""

from __future__ import annotations

import pytest

from lmscreen.task.grounding import GroundedExtraction, ground
from lmscreen.task.schema import Extraction, Figure
from lmscreen.task.units import find_mentions

CODE = "600519.SH"


def fig(value: str, unit: str, period: str | None = "FY2024") -> Figure:
    return Figure(value=float(value), raw_value=value, unit=unit, period=period)


def extraction(**figures: Figure | None) -> Extraction:
    base: dict[str, Figure | None] = dict.fromkeys(("revenue", "net_profit", "gross_margin", "roe", "pe_ttm"))
    base.update(figures)
    return Extraction(code=CODE, reason="测试", **base)


def grounded(text: str, **figures: Figure | None) -> GroundedExtraction:
    return ground(extraction(**figures), text)


# -- units -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text,base",
    [
        ("营业收入150.56亿元", 150.56e8),
        ("营业收入１５０．５６亿元", 150.56e8),  # full-width digits and point
        ("营业收入1,505,600万元", 150.56e8),
        ("营业收入15,056,000,000元", 150.56e8),
        ("营业收入1505600万", 150.56e8),  # a bare 万/亿 in a report means yuan
        ("营收1.5万亿元", 1.5e12),
        ("收入5,000千元", 5e6),
        ("净利润为-3.2亿元", -3.2e8),
        ("净利润为−3.2亿元", -3.2e8),  # U+2212 minus
        ("净亏损3.2亿元", -3.2e8),
        ("归母净利润亏损约3.2亿元", -3.2e8),
        ("净利润为负3.2亿元", -3.2e8),
        ("净利润下降至3亿元", 3e8),  # 至: the new level, not the change
        ("扭亏为盈，净利润3亿元", 3e8),
        ("负债总额3.2亿元", 3.2e8),  # 负 signs only the number right after it
    ],
)
def test_money_mentions_are_read_in_yuan(text: str, base: float) -> None:
    (mention,) = find_mentions(text)
    assert mention.kind == "money"
    assert mention.base == pytest.approx(base)
    assert text[mention.start : mention.end] == mention.printed


@pytest.mark.parametrize(
    "text,kind",
    [
        ("同比增长18.04%", "percent"),
        ("同比增长１８．０４％", "percent"),
        ("毛利率下降2个百分点", "points"),
        ("市盈率35.2倍", "times"),
        ("总股本12.56亿股", "other"),
        ("每股收益3.2元/股", "other"),
        ("US$3.2亿", "other"),
        ("营收3.2亿美元", "other"),
        ("2024年", "other"),
        ("编号600519", "none"),
    ],
)
def test_units_beside_numbers_are_classified(text: str, kind: str) -> None:
    (mention,) = find_mentions(text)
    assert mention.kind == kind


def test_full_width_comma_is_a_clause_break_not_a_thousands_separator() -> None:
    mentions = find_mentions("营收100，300家门店")
    assert [m.magnitude for m in mentions] == [100, 300]


def test_units_stated_in_a_table_header_or_declaration_apply() -> None:
    header = find_mentions("营业收入（亿元） 150.56")
    assert header[0].kind == "money" and header[0].base == pytest.approx(150.56e8)
    assert header[0].unit_source == "header"
    declared = find_mentions("单位：万元\n营业收入 | 1,505,600 | 1,200,000")
    assert [m.base for m in declared] == pytest.approx([150.56e8, 120e8])
    assert {m.unit_source for m in declared} == {"declared"}


# -- grounding ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "营业收入150.56亿元",
        "营业收入1505600万元",
        "营业收入1,505,600万元",
        "营业收入15,056,000,000元",
        "营业收入１５０．５６亿",
    ],
)
@pytest.mark.parametrize(
    "value,unit", [("150.56", "亿元"), ("1505600", "万元"), ("15056000000", "元"), ("15056000", "千元")]
)
def test_the_same_amount_grounds_in_any_printed_form(text: str, value: str, unit: str) -> None:
    g = grounded(text, revenue=fig(value, unit)).fields["revenue"]
    assert g.grounded, (text, value, unit, g.verdict)
    assert g.value_base == pytest.approx(150.56e8)
    assert g.evidence is not None
    assert text[g.evidence.start : g.evidence.end] == g.evidence.text
    assert g.evidence.text.startswith(("1", "１"))


def test_growth_rate_never_grounds_a_net_profit() -> None:
    """The weak model's classic: "同比增长18.04%" read as a net profit of 18.04 (元 or 亿)."""
    text = "贵州茅台2024年归母净利润同比增长18.04%，经营稳健。"
    for unit in ("元", "亿元"):
        result = grounded(text, net_profit=fig("18.04", unit))
        field = result.fields["net_profit"]
        assert not field.grounded and field.value_base is None
        assert field.verdict == "unit_mismatch"
        assert result.flags == ["ungrounded:net_profit"]


def test_percent_is_incompatible_with_money_and_money_with_margin() -> None:
    text = "营业收入35.2亿元，毛利率35.2%"
    ok = grounded(text, revenue=fig("35.2", "亿元"), gross_margin=fig("35.2", "%"))
    assert ok.fields["revenue"].evidence is not None and ok.fields["revenue"].evidence.text == "35.2亿元"
    assert (
        ok.fields["gross_margin"].evidence is not None and ok.fields["gross_margin"].evidence.text == "35.2%"
    )
    only_percent = grounded("毛利率35.2%", revenue=fig("35.2", "亿元"))
    assert only_percent.fields["revenue"].verdict == "unit_mismatch"
    only_money = grounded("毛利35.2亿元", gross_margin=fig("35.2", "%"))
    assert only_money.fields["gross_margin"].verdict == "unit_mismatch"


def test_net_loss_grounds_a_negative_net_profit_only() -> None:
    text = "公司2024年净亏损3.2亿元，营业收入下滑。"
    loss = grounded(text, net_profit=fig("-3.2", "亿元")).fields["net_profit"]
    assert loss.grounded and loss.value_base == pytest.approx(-3.2e8)
    assert loss.evidence is not None and loss.evidence.text == "3.2亿元"
    wrong_sign = grounded(text, net_profit=fig("3.2", "亿元"))
    assert wrong_sign.fields["net_profit"].verdict == "sign_mismatch"
    assert wrong_sign.flags == ["ungrounded:net_profit"]


def test_a_number_absent_from_the_text_is_dropped_and_flagged() -> None:
    text = "营业收入150.56亿元，净利润20.1亿元。"
    result = grounded(text, revenue=fig("150.56", "亿元"), net_profit=fig("25", "亿元"), roe=None)
    assert result.fields["revenue"].grounded
    np = result.fields["net_profit"]
    assert not np.grounded and np.value_base is None and np.evidence is None and np.verdict == "not_in_text"
    assert np.value == 25 and np.unit == "亿元"  # kept for the audit trail
    assert result.fields["roe"].verdict == "absent"  # a null figure is not "ungrounded"
    assert result.flags == ["ungrounded:net_profit"]


def test_a_figure_must_be_named_in_its_clause() -> None:
    """A revenue number passed off as the net profit (another sentence) is not grounded."""
    text = "营业收入150.56亿元。公司员工持续增加。"
    result = grounded(text, net_profit=fig("150.56", "亿元"))
    assert result.fields["net_profit"].verdict == "field_not_named"
    both = grounded("营业收入和净利润分别为150.56亿元和20.1亿元。", net_profit=fig("20.1", "亿元"))
    assert both.fields["net_profit"].grounded


def test_a_figure_named_for_another_field_in_the_same_sentence_is_not_grounded() -> None:
    """What SmolLM2 really did: it put the ROE (36.0%) into the gross margin."""
    text = "毛利率91.9%，净资产收益率36.0%。"
    swapped = grounded(text, gross_margin=fig("36.0", "%"), roe=fig("36.0", "%"))
    assert swapped.fields["gross_margin"].verdict == "field_not_named"
    assert swapped.fields["roe"].grounded
    assert swapped.flags == ["ungrounded:gross_margin"]


@pytest.mark.parametrize(
    "text,value,unit,ok",
    [
        ("营业收入150.56亿元", "150.6", "亿元", True),  # the model rounded the text
        ("营业收入150.56亿元", "150.5", "亿元", True),  # within 0.5%
        ("营业收入150.56亿元", "149", "亿元", False),  # 1% off
        ("净资产收益率3.46%", "3.5", "%", True),  # rounded to the model's precision
        ("净资产收益率约3.5%", "3.46", "%", True),  # the text printed the rounded one
        ("净利润约3亿元", "2.6", "亿元", False),  # a coarse text number does not vouch for anything near it
        ("净资产收益率0%", "0", "%", True),
    ],
)
def test_tolerance(text: str, value: str, unit: str, ok: bool) -> None:
    field = "revenue" if "收入" in text else "net_profit" if "利润" in text else "roe"
    assert grounded(text, **{field: fig(value, unit)}).fields[field].grounded is ok


def test_pe_grounds_on_times_or_a_bare_number_after_its_keyword() -> None:
    assert grounded("市盈率(TTM)为22.5倍", pe_ttm=fig("22.5", "倍")).fields["pe_ttm"].grounded
    assert grounded("PE-TTM 22.5", pe_ttm=fig("22.5", "倍")).fields["pe_ttm"].grounded
    assert grounded("市盈率-12.5倍（亏损）", pe_ttm=fig("-12.5", "倍")).fields["pe_ttm"].grounded
    growth = grounded("订单量增长22.5倍", pe_ttm=fig("22.5", "倍")).fields["pe_ttm"]
    assert growth.verdict == "field_not_named"
    assert not grounded("员工22.5万人，市盈率未披露", pe_ttm=fig("22.5", "倍")).fields["pe_ttm"].grounded


def test_per_share_earnings_do_not_ground_a_net_profit() -> None:
    result = grounded("每股收益3.2元/股，归母净利润未披露", net_profit=fig("3.2", "元"))
    assert not result.fields["net_profit"].grounded


def test_evidence_offsets_point_into_the_original_text_with_full_width_characters() -> None:
    text = "ＡＢ公司：全年营业收入为１，５０５，６００万元；毛利率为９１．９％。"
    result = grounded(text, revenue=fig("150.56", "亿元"), gross_margin=fig("91.9", "%"))
    for name in ("revenue", "gross_margin"):
        ev = result.fields[name].evidence
        assert ev is not None, name
        assert text[ev.start : ev.end] == ev.text
    assert result.fields["gross_margin"].evidence.text == "９１．９％"  # type: ignore[union-attr]


def test_to_json_is_plain_data() -> None:
    result = grounded("营业收入150.56亿元", revenue=fig("150.56", "亿元"))
    data = result.fields["revenue"].to_json()
    assert data["grounded"] is True and data["value_base"] == pytest.approx(150.56e8)
    assert data["evidence"]["text"] == "150.56亿元" and data["evidence"]["start"] == 4
    assert set(data) >= {"value", "unit", "period", "grounded", "evidence", "verdict"}
