"""The rules applied to one row in plain Python: the oracle for `evaluate` and the benchmark baseline.

Written as directly as the rules read, with no polars, so a disagreement with the vectorised evaluator
points at a compilation bug rather than at a shared one. Its output keys are the columns `evaluate` adds.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Mapping
from typing import Any

from lmscreen.errors import InputError
from lmscreen.rules.display import format_value, is_missing
from lmscreen.rules.ruleset import Rule, RuleSet, is_number

_COMPARE: dict[str, Callable[[Any, Any], bool]] = {
    "lt": operator.lt,
    "le": operator.le,
    "gt": operator.gt,
    "ge": operator.ge,
    "eq": operator.eq,
}


def _get(row: Mapping[str, Any], column: str, rules: RuleSet) -> Any:
    try:
        value = row[column]
    except KeyError:
        raise InputError(
            f"the rules read column {column!r}, which the row does not have", file=rules.source
        ) from None
    return None if is_missing(value) else value


def fires(rule: Rule, row: Mapping[str, Any], rules: RuleSet) -> bool:
    """Whether the rule holds for the row; a missing value never satisfies a comparison."""
    value = _get(row, rule.field, rules)
    if rule.op == "is_null":
        return value is None
    if rule.op == "is_true":
        return value is True
    if value is None:
        return False
    return _COMPARE[rule.op](value, rule.value)


def shown_value(row: Mapping[str, Any], column: str, rules: RuleSet) -> str | None:
    """The shown column's value as text, or its raw cell when the value is missing."""
    text = format_value(_get(row, column, rules))
    raw = rules.raw_columns.get(column)
    if text is None and raw is not None and raw in row:
        text = format_value(row[raw])
    return text


def score_row(row: Mapping[str, Any], rules: RuleSet) -> int | None:
    """clamp(floor(x + 0.5), min, max), with the float operations in the same order as `evaluate`."""
    spec = rules.score
    roe = _get(row, spec.roe.field, rules)
    if roe is None:
        return None
    pe = _get(row, spec.pe.field, rules)
    pe_used = float(pe) if pe is not None and pe > 0 else float(spec.pe.fallback)
    raw = (
        float(spec.base)
        - pe_used * spec.pe_factor()
        - (float(spec.roe.target) - float(roe)) * float(spec.roe.weight)
    )
    clamped = min(max(raw, float(spec.min)), float(spec.max))
    return math.floor(clamped + 0.5)


def evaluate_row(row: Mapping[str, Any], rules: RuleSet) -> dict[str, Any]:
    """Verdict for one row: {risk_level, score, rules_fired, rules_fired_list}, as `evaluate` adds them."""
    fired = [rule for rule in rules.rules if fires(rule, row, rules)]
    fired_levels = {rule.level for rule in fired}
    level = next((lv for lv in rules.levels.order if lv in fired_levels), rules.levels.default)
    entries = [
        {
            "rule": rule.id,
            "field": rule.shown_column,
            "threshold": float(rule.value) if is_number(rule.value) else None,
            "value": shown_value(row, rule.shown_column, rules),
        }
        for rule in fired
    ]
    text = ";".join(f"{e['rule']}({e['field']}={e['value'] or ''})" for e in entries)
    return {
        "risk_level": rules.levels.names[level],
        "score": score_row(row, rules),
        "rules_fired": text,
        "rules_fired_list": entries,
    }
