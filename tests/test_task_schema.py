"""The row schema: what a model may answer, and how its answer is parsed (never raising on garbage)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from freeform_question import longest_completion, parse_completion, row_schema  # the bench's old question
from lmscreen.task.schema import FIGURES, REASON_MAX_CHARS, Extraction

CODE = "600519.SH"


def answer(**overrides: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "code": CODE,
        "revenue": {"value": "1505.6", "unit": "亿元", "period": "FY2024"},
        "net_profit": {"value": "-3.2", "unit": "亿元", "period": "2024Q1-Q3"},
        "gross_margin": {"value": "91.9", "unit": "%", "period": None},
        "roe": None,
        "pe_ttm": {"value": "22.5", "unit": "倍", "period": "TTM"},
        "reason": "高端白酒龙头，盈利稳定",
    }
    data.update(overrides)
    return data


def parse(data: Any) -> Extraction | str:
    return parse_completion(json.dumps(data, ensure_ascii=False), CODE)


def test_valid_answer_is_parsed_into_figures() -> None:
    got = parse(answer())
    assert isinstance(got, Extraction), got
    assert got.code == CODE
    assert got.revenue is not None and got.revenue.value == 1505.6 and got.revenue.unit == "亿元"
    assert got.revenue.value_in_base == pytest.approx(1505.6e8)
    assert got.net_profit is not None and got.net_profit.value == -3.2
    assert got.net_profit.period == "2024Q1-Q3"
    assert got.gross_margin is not None and got.gross_margin.period is None
    assert got.roe is None
    assert got.reason == "高端白酒龙头，盈利稳定"


def test_code_of_another_row_is_rejected() -> None:
    got = parse(answer(code="000001.SZ"))
    assert isinstance(got, str) and "code" in got


def test_reason_longer_than_30_characters_is_rejected() -> None:
    assert isinstance(parse(answer(reason="好" * REASON_MAX_CHARS)), Extraction)
    got = parse(answer(reason="好" * (REASON_MAX_CHARS + 1)))
    assert isinstance(got, str) and "reason" in got


@pytest.mark.parametrize(
    "field,figure",
    [
        ("revenue", {"value": "18.04", "unit": "%", "period": None}),  # money cannot be a percent
        ("roe", {"value": "15.2", "unit": "亿元", "period": None}),  # a ratio cannot be money
        ("pe_ttm", {"value": "22.5", "unit": "%", "period": None}),
        ("revenue", {"value": "1", "unit": "美元", "period": None}),
        ("revenue", {"value": "-5", "unit": "亿元", "period": None}),  # revenue is never negative
        ("revenue", {"value": "1" * 14, "unit": "元", "period": None}),  # runaway digits
        ("revenue", {"value": "1.23456", "unit": "元", "period": None}),  # runaway decimals
        ("revenue", {"value": "1,505", "unit": "元", "period": None}),
        ("revenue", {"value": 1505.6, "unit": "亿元", "period": None}),  # a JSON number, not the string
        ("revenue", {"value": "1505.6", "unit": "亿元", "period": "last year"}),
        ("revenue", {"value": "1505.6", "unit": "亿元"}),  # every key required
        ("revenue", {"value": "1505.6", "unit": "亿元", "period": None, "note": "x"}),
        ("revenue", {"value": None, "unit": None, "period": None}),  # absent is `null`, not an empty shell
    ],
)
def test_malformed_figures_are_rejected(field: str, figure: dict[str, Any]) -> None:
    got = parse(answer(**{field: figure}))
    assert isinstance(got, str), f"accepted {figure!r}"
    assert got.startswith("schema violation at ")


def test_extra_or_missing_top_level_keys_are_rejected() -> None:
    assert isinstance(parse({**answer(), "risk_level": "低"}), str)
    missing = answer()
    del missing["pe_ttm"]
    assert isinstance(parse(missing), str)


@pytest.mark.parametrize("reason", ['带"引号', "换\n行", "反\\斜杠", "净利润增长50%", "增长５０％", ""])
def test_reason_cannot_carry_quotes_escapes_newlines_or_digits(reason: str) -> None:
    """Digits are refused too: a number in the prose would reach the report without being grounded."""
    assert isinstance(parse(answer(reason=reason)), str)


@pytest.mark.parametrize(
    "garbage",
    [
        None,
        "",
        "   ",
        "not json",
        '{"code": "600519.SH", "revenue": {"val',
        "[]",
        "null",
        "1e999",
        "[" * 5000,
    ],
)
def test_garbage_gives_an_error_string_never_an_exception(garbage: str | None) -> None:
    got = parse_completion(garbage, CODE)
    assert isinstance(got, str)
    assert "\n" not in got and len(got) < 300


def test_truncated_json_says_so() -> None:
    text = json.dumps(answer(), ensure_ascii=False)[:-10]
    got = parse_completion(text, CODE)
    assert isinstance(got, str) and got.startswith("invalid JSON (truncated?)")


def test_markdown_fence_from_a_chat_server_is_tolerated() -> None:
    text = "```json\n" + json.dumps(answer(), ensure_ascii=False) + "\n```"
    assert isinstance(parse_completion(text, CODE), Extraction)


def _string_leaves(node: Any) -> list[dict[str, Any]]:
    leaves: list[dict[str, Any]] = []
    if isinstance(node, dict):
        if node.get("type") == "string":
            leaves.append(node)
        for value in node.values():
            leaves.extend(_string_leaves(value))
    elif isinstance(node, list):
        for value in node:
            leaves.extend(_string_leaves(value))
    return leaves


def test_every_string_in_the_schema_is_bounded() -> None:
    """No `*`, `+` or open `{n,}` anywhere: the grammar's language is finite, so nothing can run away."""
    schema = row_schema(CODE)
    assert schema["additionalProperties"] is False
    assert schema["required"] == ["code", *FIGURES, "reason"]
    assert '"number"' not in json.dumps(schema)  # JSON numbers are unbounded in llama.cpp's converter
    leaves = _string_leaves(schema)
    assert len(leaves) == 1 + 3 * len(FIGURES) + 1  # code, value+unit+period per figure, reason
    for leaf in leaves:
        if "const" in leaf or "enum" in leaf:
            continue
        pattern = leaf["pattern"]
        assert pattern.startswith("^") and pattern.endswith("$")
        assert not re.search(r"(?<!\\)[*+]|\{\d+,\}", pattern), pattern
        assert "\\d" not in pattern and "\\." not in pattern  # not valid GBNF escapes


def test_longest_completion_is_a_valid_answer_longer_than_any_other() -> None:
    longest = longest_completion(CODE)
    assert isinstance(parse_completion(longest, CODE), Extraction)
    assert len(longest.encode("utf-8")) > len(json.dumps(answer(), ensure_ascii=False).encode("utf-8"))
