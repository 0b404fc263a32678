"""The JSON schema a row's answer must satisfy, and the parser that checks an answer against it.

Why the schema looks the way it does: the default model (SmolLM2-135M) writes whatever the grammar lets it,
so the schema has to make garbage impossible to express rather than merely unlikely.

- Every string is either a constant, an enum or a `pattern` with bounded repetitions, so the language the
  grammar accepts is finite: no runaway digits, no endless whitespace, no unterminated prose (lessons A6/A9
  in research/screening-anchors.md). llama.cpp's schema converter ignores `minimum`/`maximum` and lets a
  JSON number run to 16 digits plus an exponent, so values are strings matching a decimal pattern instead.
- Patterns use only character classes (`[0-9]`, `[.]`): the converter copies `\\d` and `\\.` verbatim into
  GBNF, where they are not valid escapes.
- `code` is a constant: the model cannot answer for another stock.
- A figure is either `null` (absent from the text) or a complete object; units are per field, so a money
  field cannot carry `%` and a margin cannot carry `亿元`.
- `reason` excludes quotes, backslashes and control characters, so it cannot smuggle escapes or newlines,
  and is capped at 30 characters by the pattern itself (some engines drop `maxLength` next to a `pattern`).
  It also excludes digits: figures belong in the fields, where grounding checks them; a number in the
  prose would reach the report unchecked.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match
from pydantic import BaseModel, ConfigDict

FIGURES: tuple[str, ...] = ("revenue", "net_profit", "gross_margin", "roe", "pe_ttm")
"""Extracted figures, in the order the model writes them."""

MONEY_UNITS: tuple[str, ...] = ("亿元", "万元", "千元", "元")
FIELD_UNITS: dict[str, tuple[str, ...]] = {
    "revenue": MONEY_UNITS,
    "net_profit": MONEY_UNITS,
    "gross_margin": ("%",),
    "roe": ("%",),
    "pe_ttm": ("倍",),
}
UNIT_FACTORS: dict[str, float] = {"元": 1.0, "千元": 1e3, "万元": 1e4, "亿元": 1e8, "%": 1.0, "倍": 1.0}
"""Multiplier from a schema unit to the field's base unit (yuan, percent, ratio)."""

REASON_MAX_CHARS = 30
CHOICE_REASON_MAX_CHARS = 20
"""The candidate-id question's reason cap: one Chinese sentence (`高端白酒需求稳健，公司盈利持续增长` is 17)
in about 40 tokens instead of 60 (a CJK character is ~2 SmolLM2 tokens), and every decoded token costs."""
_INT = "(0|[1-9][0-9]{0,12})"
_FRAC = "([.][0-9]{1,4})?"
UNSIGNED_VALUE_PATTERN = f"^{_INT}{_FRAC}$"
SIGNED_VALUE_PATTERN = f"^-?{_INT}{_FRAC}$"
"""At most 13 integer digits (10 万亿 in yuan) and 4 decimals: every real figure fits, nothing runs away."""
PERIOD_PATTERN = "^(FY20[0-9]{2}|20[0-9]{2}(H1|Q1|Q2|Q3|Q4|Q1-Q3)|TTM)$"
_REASON_CHAR = '[^"\\\\\\x00-\\x1f0-9０-９]'
REASON_PATTERN = f"^{_REASON_CHAR}{{1,{REASON_MAX_CHARS}}}$"
CHOICE_REASON_PATTERN = f"^{_REASON_CHAR}{{1,{CHOICE_REASON_MAX_CHARS}}}$"
SIGNED_FIGURES = frozenset({"net_profit", "gross_margin", "roe", "pe_ttm"})
"""Revenue cannot be negative; a loss, a negative margin or ROE, and a loss-maker's PE can."""


def _figure_schema(field: str) -> dict[str, Any]:
    units = FIELD_UNITS[field]
    return {
        "anyOf": [
            {
                "type": "object",
                "properties": {
                    "value": {
                        "type": "string",
                        "pattern": SIGNED_VALUE_PATTERN
                        if field in SIGNED_FIGURES
                        else UNSIGNED_VALUE_PATTERN,
                    },
                    "unit": {"type": "string", "enum": list(units)},
                    "period": {"anyOf": [{"type": "string", "pattern": PERIOD_PATTERN}, {"type": "null"}]},
                },
                "required": ["value", "unit", "period"],
                "additionalProperties": False,
            },
            {"type": "null"},
        ]
    }


def row_schema(code: str) -> dict[str, Any]:
    """The schema for one row's answer, with the row's own code fixed as a constant.

    Property order is the order the grammar makes the model write them: code first (forced), the figures,
    then the reason, so the reason is written after the model has "looked at" the numbers.
    """
    properties: dict[str, Any] = {"code": {"type": "string", "const": code}}
    for field in FIGURES:
        properties[field] = _figure_schema(field)
    properties["reason"] = {"type": "string", "pattern": REASON_PATTERN, "maxLength": REASON_MAX_CHARS}
    return {
        "type": "object",
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
    }


def longest_completion(code: str) -> str:
    """A schema-valid answer for `code` at least as long as any the grammar admits (an upper bound).

    Every optional space taken (and one more after constants), every figure present with 13 integer
    digits, 4 decimals and the longest unit and period, and a reason of 30 four-byte characters (at most
    4 tokens each in a byte-level tokenizer). An engine can count its tokens to set `max_tokens` so that a
    schema-valid answer is never cut off (an answer cut at `max_tokens` is invalid JSON).
    """

    def string(value: str) -> str:
        return json.dumps(value, ensure_ascii=False) + " "

    def kv(key: str, value: str) -> str:
        return f"{string(key)}: {value}"

    parts = [kv("code", string(code))]
    for field in FIGURES:
        sign = "-" if field in SIGNED_FIGURES else ""
        unit = max(FIELD_UNITS[field], key=lambda u: len(u.encode("utf-8")))
        figure = ", ".join(
            [
                kv("value", string(f"{sign}{'9' * 13}.9999")),
                kv("unit", string(unit)),
                kv("period", string("2024Q1-Q3")),
            ]
        )
        parts.append(kv(field, "{ " + figure + "} "))
    parts.append(kv("reason", string("\U00020000" * REASON_MAX_CHARS)))
    return "{ " + ", ".join(parts) + "} "


class Figure(BaseModel):
    """One extracted figure as the model stated it (not yet checked against the text)."""

    model_config = ConfigDict(frozen=True)

    value: float
    raw_value: str
    """The value exactly as the model wrote it (its printed precision matters for grounding)."""
    unit: str
    period: str | None

    @property
    def value_in_base(self) -> float:
        """The value in the field's base unit: yuan for money, percent for ratios, times for PE."""
        return self.value * UNIT_FACTORS[self.unit]


class Extraction(BaseModel):
    """A schema-valid answer for one row."""

    model_config = ConfigDict(frozen=True)

    code: str
    revenue: Figure | None
    net_profit: Figure | None
    gross_margin: Figure | None
    roe: Figure | None
    pe_ttm: Figure | None
    reason: str

    def figure(self, field: str) -> Figure | None:
        return getattr(self, field)


@lru_cache(maxsize=256)
def _validator(code: str) -> Draft202012Validator:
    return Draft202012Validator(row_schema(code))


_FENCE_RE = re.compile(r"^```[a-zA-Z]*\s*\n?(.*?)\n?```$", re.DOTALL)
_ERROR_CHARS = 160


def _clip(text: str, limit: int = _ERROR_CHARS) -> str:
    one_line = " ".join(text.split())
    return one_line if len(one_line) <= limit else one_line[: limit - 1] + "…"


def load_answer(text: str | None, validator: Draft202012Validator) -> Any | str:
    """A model's answer as checked JSON, or a one-line error for the row's `status`. Never raises.

    Whatever the model (or a server without grammar support) sent, the caller gets data that satisfies the
    schema or a message. A Markdown code fence around the JSON (common from chat servers) is tolerated;
    nothing else is repaired. Both questions (free-form and candidate ids) are parsed here.
    """
    if text is None or not text.strip():
        return "invalid JSON: empty completion"
    body = text.strip()
    fenced = _FENCE_RE.match(body)
    if fenced:
        body = fenced.group(1).strip()
    try:
        data = json.loads(body)
    except json.JSONDecodeError as exc:
        truncated = exc.msg.startswith("Unterminated string") or body.count("{") > body.count("}")
        hint = " (truncated?)" if truncated else ""
        return f"invalid JSON{hint}: {exc.msg} (char {exc.pos}): {_clip(body, 80)}"
    except RecursionError:
        return "invalid JSON: nested too deeply"
    error = best_match(validator.iter_errors(data))
    if error is not None:
        where = "/".join(str(p) for p in error.absolute_path) or "(root)"
        return f"schema violation at {where}: {_clip(error.message)}"
    return data


def parse_completion(text: str | None, code: str) -> Extraction | str:
    """Validate a completion for row `code`; return the Extraction, or a one-line error string."""
    data = load_answer(text, _validator(code))
    if isinstance(data, str):
        return data
    figures: dict[str, Figure | None] = {}
    for field in FIGURES:
        raw = data[field]
        figures[field] = (
            None
            if raw is None
            else Figure(
                value=float(raw["value"]), raw_value=raw["value"], unit=raw["unit"], period=raw["period"]
            )
        )
    return Extraction(code=data["code"], reason=data["reason"], **figures)
