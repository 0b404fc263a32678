"""What an answer is made of, and the parser that checks an answer against its schema.

The figure types (`Figure`, `Extraction`), each field's units and their factors to base units, and the
reason's character class shared by every question: no quotes, backslashes, control characters or digits
(figures belong in fields, where grounding checks them; a number in the prose would reach the report
unchecked), capped by the pattern itself (some engines drop `maxLength` next to a `pattern`).
`load_answer` turns whatever a model sent into checked JSON or a one-line error, never raising.
"""

from __future__ import annotations

import json
import re
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
_REASON_CHAR = '[^"\\\\\\x00-\\x1f0-9０-９]'
CHOICE_REASON_PATTERN = f"^{_REASON_CHAR}{{1,{CHOICE_REASON_MAX_CHARS}}}$"


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
