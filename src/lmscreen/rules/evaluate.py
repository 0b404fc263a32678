"""Vectorised rule evaluation: the rules file compiled into polars expressions, no Python per row.

A million-row pool must screen in seconds, so every rule becomes one boolean expression and the verdict,
score and audit trail are built from those columns inside polars. `reference.evaluate_row` is the same
logic written row by row; the two are held equal by a randomised test (and compared for speed by
`bench/rules_throughput.py`).
"""

from __future__ import annotations

import polars as pl

from lmscreen.errors import InputError
from lmscreen.rules.fired import TMP, audit_text, shown_values
from lmscreen.rules.fired_list import FIRED_LIST, fired_lists, rule_entries
from lmscreen.rules.ruleset import COMPARISON_OPS, Rule, RuleSet, is_number

RISK_LEVEL = "risk_level"
SCORE = "score"
RULES_FIRED = "rules_fired"
RULES_FIRED_LIST = "rules_fired_list"
OUTPUT_COLUMNS: tuple[str, ...] = (RISK_LEVEL, SCORE, RULES_FIRED, RULES_FIRED_LIST)
"""Columns `evaluate` adds (replacing any of the same name)."""
RULES_FIRED_LIST_DTYPE = FIRED_LIST
"""The nested `rules_fired`: List(Struct(rule, field, threshold, value)), see fired_list.py."""


def _check_dtype(rule: Rule, dtype: pl.DataType, source: str) -> None:
    """Refuse a rule that cannot apply to its column, before polars fails with a less useful message."""
    if dtype == pl.Null or rule.op == "is_null":
        return
    if rule.op in COMPARISON_OPS or (rule.op == "eq" and is_number(rule.value)):
        ok, wanted = dtype.is_numeric(), "a numeric"
    elif rule.op == "is_true" or isinstance(rule.value, bool):
        ok, wanted = dtype == pl.Boolean, "a boolean"
    else:
        ok, wanted = dtype == pl.String, "a text"
    if not ok:
        raise InputError(
            f"rule {rule.id!r}: op {rule.op!r} needs {wanted} column, but {rule.field!r} is {dtype}",
            file=source,
        )


def _check_columns(frame: pl.DataFrame, rules: RuleSet) -> None:
    missing = sorted(rules.columns() - set(frame.columns))
    if missing:
        raise InputError(
            f"the rules read column(s) {missing}, which the pool does not have", file=rules.source
        )
    for rule in rules.rules:
        _check_dtype(rule, frame.schema[rule.field], rules.source)


def _value(frame: pl.DataFrame, column: str) -> pl.Expr:
    """The column with NaN and +-inf made null (they count as missing, as in `display.is_missing`)."""
    col = pl.col(column)
    if frame.schema[column].is_float():
        return pl.when(col.is_finite()).then(col)
    return col


def _condition(frame: pl.DataFrame, rule: Rule) -> pl.Expr:
    """True where the rule fires; never null (a comparison with a missing value does not fire)."""
    value = _value(frame, rule.field)
    if frame.schema[rule.field] == pl.Null:
        value = value.cast(pl.String if isinstance(rule.value, str) else pl.Float64)
    if rule.op == "is_null":
        return value.is_null()
    if rule.op == "is_true":
        return value.cast(pl.Boolean).fill_null(False)
    ops = {
        "lt": value.__lt__,
        "le": value.__le__,
        "gt": value.__gt__,
        "ge": value.__ge__,
        "eq": value.__eq__,
    }
    return ops[rule.op](pl.lit(rule.value)).fill_null(False)


def _score(frame: pl.DataFrame, rules: RuleSet) -> pl.Expr:
    """clamp(floor(x + 0.5)) as DESIGN.md states; clamping first is the same for integer bounds and keeps
    an infinite x (from an absurd ROE) away from the integer cast. An x with no value at all (infinite PE
    and ROE terms cancelling: inf - inf is NaN, which no integer holds) gets no score rather than stopping
    the run; the pool's plausible ranges (pool/numbers.py) keep real rows far from either."""
    spec = rules.score
    pe = _value(frame, spec.pe.field).cast(pl.Float64)
    roe = _value(frame, spec.roe.field).cast(pl.Float64)
    pe_used = pl.when(pe > 0).then(pe).otherwise(pl.lit(float(spec.pe.fallback)))
    raw = (
        pl.lit(float(spec.base))
        - pe_used * spec.pe_factor()
        - (pl.lit(float(spec.roe.target)) - roe) * float(spec.roe.weight)
    )
    rounded = (raw.fill_nan(None).clip(float(spec.min), float(spec.max)) + 0.5).floor().cast(pl.Int64)
    return pl.when(roe.is_not_null()).then(rounded).otherwise(pl.lit(None, dtype=pl.Int64))


def _risk_level(rules: RuleSet, fired: dict[str, pl.Expr]) -> pl.Expr:
    names = rules.levels.names
    expr: pl.Expr | pl.When | pl.Then | None = None
    for level in rules.levels.order:
        members = [fired[rule.id] for rule in rules.rules if rule.level == level]
        if not members:
            continue
        condition = pl.any_horizontal(members)
        expr = pl.when(condition) if expr is None else expr.when(condition)  # type: ignore[union-attr]
        expr = expr.then(pl.lit(names[level]))  # type: ignore[union-attr]
    default = pl.lit(names[rules.levels.default], dtype=pl.String)
    return default if expr is None else expr.otherwise(default)  # type: ignore[union-attr]


def evaluate(frame: pl.DataFrame, rules: RuleSet) -> pl.DataFrame:
    """Return `frame` with `risk_level`, `score`, `rules_fired` and `rules_fired_list` added.

    - risk_level (String): the display name (高 / 未知 / 中 / 低) of the first level in `levels.order`
      with a fired rule, else of `levels.default`.
    - score (Int64, null when ROE is missing): see `default.yaml`; rounding is floor(x + 0.5).
    - rules_fired (String, "" when none): `id(column=value);...` in rules-file order, e.g.
      `st(name=*ST天山);pe_missing(pe_ttm=亏损)`; a missing value shows as nothing: `roe_missing(roe=)`.
    - rules_fired_list (RULES_FIRED_LIST_DTYPE): the same entries nested, `[]` when none, each
      `{rule, field, threshold, value}` (value: the text shown above, null where that is empty), which
      results.jsonl and results.parquet write as their `rules_fired`.
    See `fired.py` and `fired_list.py` for how the two are built.
    Raises InputError (naming the rules file) when a rule reads a column the frame lacks or cannot compare.
    """
    _check_columns(frame, rules)
    names = [f"{TMP}fired_{i}" for i in range(len(rules.rules))]
    fired = {rule.id: pl.col(name) for rule, name in zip(rules.rules, names, strict=True)}
    conditions = [_condition(frame, rule).alias(name) for rule, name in zip(rules.rules, names, strict=True)]
    values = {column: _value(frame, column) for column in {rule.shown_column for rule in rules.rules}}
    verdict = (
        frame.lazy()
        .select(*conditions, _score(frame, rules).alias(SCORE))
        .with_columns(_risk_level(rules, fired).alias(RISK_LEVEL))
        .collect()
    )
    flags = verdict.select(names)
    text = audit_text(frame, rules, values, flags)
    nested = fired_lists(frame, rule_entries(rules), flags, shown_values(frame, rules, values))
    return frame.with_columns(
        verdict.get_column(RISK_LEVEL),
        verdict.get_column(SCORE),
        text.alias(RULES_FIRED),
        nested.alias(RULES_FIRED_LIST),
    )
