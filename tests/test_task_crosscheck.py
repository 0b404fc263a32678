"""The 5% cross-check against the pool's ROE / PE, and the facade the runner calls per row."""

from __future__ import annotations

import json
from typing import Any

import pytest

from lmscreen.task import RowOutcome, crosscheck, ground, mismatches, parse_completion, process_completion
from lmscreen.task.schema import Extraction

CODE = "600519.SH"
REPORT = (
    "贵州茅台2024年实现营业收入1,505,600万元，同比增长15.7%；归母净利润862.3亿元。"
    "毛利率91.9%，加权平均净资产收益率21.002%。市盈率(TTM)为20.0倍。"
)


def answer(**overrides: Any) -> str:
    data: dict[str, Any] = {
        "code": CODE,
        "revenue": {"value": "150.56", "unit": "亿元", "period": "FY2024"},
        "net_profit": {"value": "862.3", "unit": "亿元", "period": "FY2024"},
        "gross_margin": {"value": "91.9", "unit": "%", "period": "FY2024"},
        "roe": {"value": "21.002", "unit": "%", "period": "FY2024"},
        "pe_ttm": {"value": "20", "unit": "倍", "period": "TTM"},
        "reason": "高端白酒龙头，盈利能力强",
    }
    data.update(overrides)
    return json.dumps(data, ensure_ascii=False)


def grounded_for(**overrides: Any) -> Any:
    parsed = parse_completion(answer(**overrides), CODE)
    assert isinstance(parsed, Extraction), parsed
    return ground(parsed, REPORT)


@pytest.mark.parametrize(
    "provided_roe,provided_pe,flags",
    [
        (21.002, 20.0, []),
        (20.002, 20.0, []),  # ROE 21.002 vs 20.002: 4.9995%
        (21.0, 19.05, []),  # PE 20 vs 19.05: 4.99%
        (None, None, []),
        (0.0, 0.0, []),  # zero cannot be compared relatively: no flag
        (float("nan"), None, []),
    ],
)
def test_no_flag_when_within_5_percent_or_nothing_to_compare(
    provided_roe: float | None, provided_pe: float | None, flags: list[str]
) -> None:
    assert crosscheck(grounded_for(), provided_roe, provided_pe) == flags


def test_exactly_5_percent_is_not_flagged_and_5_01_percent_is() -> None:
    text = "净资产收益率21%，市盈率(TTM)为20.0倍。"
    parsed = parse_completion(answer(roe={"value": "21", "unit": "%", "period": None}), CODE)
    assert isinstance(parsed, Extraction)
    g = ground(parsed, text)
    assert g.base_value("roe") == 21
    assert crosscheck(g, 20.0, None) == []  # |21 - 20| / 20 = 5.00%
    assert crosscheck(g, 19.999, None) == ["数据存疑"]  # 5.005%
    assert crosscheck(g, 21 / 1.0501, None) == ["数据存疑"]  # 5.01%
    assert crosscheck(g, 22.0, None) == []  # 4.5%
    # PE boundary: 20 extracted, 21.0526 provided = 5.0% below / 19 provided = 5.26% above
    assert crosscheck(g, None, 20 / 0.95) == []
    assert crosscheck(g, None, 19.0) == ["数据存疑"]


def test_the_detail_names_the_field_at_fault() -> None:
    g = grounded_for()
    found = mismatches(g, 21.002, 30.0)
    assert [m.field for m in found] == ["pe_ttm"]
    assert found[0].extracted == 20.0 and found[0].provided == 30.0
    assert found[0].relative_diff == pytest.approx(1 / 3)


def test_ungrounded_figures_are_not_cross_checked() -> None:
    g = grounded_for(pe_ttm={"value": "35", "unit": "倍", "period": "TTM"})  # 35 is not in the text
    assert g.base_value("pe_ttm") is None
    assert crosscheck(g, None, 20.0) == []
    assert "ungrounded:pe_ttm" in g.flags


# -- the facade --------------------------------------------------------------------------------------------


def test_process_completion_fills_the_result_columns() -> None:
    out = process_completion(answer(), CODE, REPORT, 21.002, 20.0)
    assert isinstance(out, RowOutcome)
    assert out.status == "ok" and out.flags == []
    assert out.columns == {
        "revenue_yuan": pytest.approx(150.56e8),
        "net_profit_yuan": pytest.approx(862.3e8),
        "gross_margin_pct": pytest.approx(91.9),
        "roe_extracted_pct": pytest.approx(21.002),
        "pe_extracted": pytest.approx(20.0),
        "reason": "高端白酒龙头，盈利能力强",
        "reason_source": "model",
        "diagnostics": None,
    }
    revenue = out.detail["fields"]["revenue"]
    assert revenue["grounded"] is True and revenue["unit"] == "亿元" and revenue["period"] == "FY2024"
    assert REPORT[revenue["evidence"]["start"] : revenue["evidence"]["end"]] == "1,505,600万元"
    json.dumps(out.detail, ensure_ascii=False)  # results.jsonl must be able to hold it


def test_process_completion_flags_ungrounded_and_suspicious_rows() -> None:
    out = process_completion(
        answer(net_profit={"value": "15.7", "unit": "亿元", "period": "FY2024"}), CODE, REPORT, 21.002, 30.0
    )
    assert out.status == "ok"
    assert out.flags == ["ungrounded:net_profit", "数据存疑"]
    assert out.net_profit_yuan is None
    assert out.detail["fields"]["net_profit"]["verdict"] == "unit_mismatch"
    assert out.detail["crosscheck"][0]["field"] == "pe_ttm"


@pytest.mark.parametrize("garbage", [None, "", "{", "我不知道", answer(code="000001.SZ")])
def test_process_completion_turns_garbage_into_an_llm_error_status(garbage: str | None) -> None:
    out = process_completion(garbage, CODE, REPORT, 21.0, 20.0)
    assert out.status.startswith("llm_error: ")
    assert out.reason is None and out.flags == []
    assert all(v is None for v in out.columns.values())


def test_reason_is_sanitised_for_display() -> None:
    out = process_completion(answer(reason="=HYPERLINK(A)　盈利\u200b强"), CODE, REPORT, None, None)
    assert out.reason is not None and not out.reason.startswith("=")
    assert "\u200b" not in out.reason and len(out.reason) <= 30


def test_a_reason_copied_from_the_prompt_is_dropped_and_flagged() -> None:
    from lmscreen.task import echoes_instructions, process_completion

    # What SmolLM2 really answered for 600036.SH: a line of its own instructions.
    assert echoes_instructions("用一句话概括这家公司的经营情况（最多")
    assert not echoes_instructions("营收稳健增长，盈利能力较强")
    assert not echoes_instructions("营业收入增长")
    text = (
        '{"code": "600036.SH", "revenue": null, "net_profit": null, "gross_margin": null, "roe": null, '
        '"pe_ttm": null, "reason": "用一句话概括这家公司的经营情况（最多"}'
    )
    out = process_completion(text, "600036.SH", "招商银行营业收入3374.88亿元。", 14.49, 7.1)
    assert out.status == "ok"
    assert out.reason == "" and "reason_echoes_prompt" in out.diagnostics and out.flags == []
    good = text.replace("用一句话概括这家公司的经营情况（最多", "零售银行业务稳健")
    out = process_completion(good, "600036.SH", "招商银行营业收入3374.88亿元。", 14.49, 7.1)
    assert out.reason == "零售银行业务稳健" and "reason_echoes_prompt" not in out.diagnostics
