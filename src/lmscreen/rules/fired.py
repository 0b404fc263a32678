"""The audit trail of a verdict as text: which rules fired and the values that made them fire.

Built for a million rows. Rows are grouped by which rules fired (a handful of combinations in practice);
within a group every row has the same entries, so the text is one `concat_str` over only the fired
rules' pieces, on only that group's rows, and a value is turned into text only where a rule shows it.
Groups are stitched back into row order with one gather. One flat concatenation over every rule's
pieces costs per piece per row whether or not the rule fired; on a 1M-row pool with the default rules
the grouped form took `evaluate` from about 1.0 to 0.6 CPU seconds. The flat form (`audit_trail`) still
builds the rows of rare combinations (a group's fixed cost would outweigh its saving) and everything
when rows fall into very many combinations.
What a fired rule can show is decided from the rule (a comparison shows a present value, an is_null rule
shows its raw cell or nothing), not per row. The nested form (results.jsonl, results.parquet) is built
from the same sources by fired_list.py.

Format, which `reference.evaluate_row` reproduces exactly: `id(column=value)` joined by `;`, e.g.
`st(name=*ST天山);pe_missing(pe_ttm=亏损)`, "" when none; a missing value shows as nothing:
`roe_missing(roe=)`.
"""

from __future__ import annotations

import functools
import operator
from dataclasses import dataclass

import polars as pl

from lmscreen.rules.ruleset import Rule, RuleSet

TMP = "__lmscreen_"
"""Prefix of the temporary columns `evaluate` adds and drops."""


@dataclass(frozen=True)
class _Source:
    """Where a fired rule's shown value comes from: its text, and whether that text can be missing."""

    key: str
    text: pl.Expr
    may_be_null: bool


def _source(frame: pl.DataFrame, rules: RuleSet, rule: Rule, value: dict[str, pl.Expr]) -> _Source | None:
    """The value a fired rule shows; None when it is always missing (`roe_missing(roe=)`).

    Decided from the rule, which is what keeps the per-row work small: a comparison or is_true fires only
    on a present value, so it shows that value; an is_null rule fires only on a missing one, so it shows
    the raw cell (pe_raw) if the pool has one. A rule showing another column (st shows the name) shows
    that column's value, else its raw cell. `reference.shown_value` gives the same text in every case.
    """
    column = rule.shown_column
    raw = rules.raw_columns.get(column)
    raw = raw if raw is not None and raw in frame.columns else None
    if column == rule.field and rule.op == "is_null":
        if raw is None:
            return None
        return _Source(f"raw:{raw}", pl.col(raw).cast(pl.String), True)
    own = value[column].cast(pl.String)
    if column == rule.field:
        return _Source(f"value:{column}", own, False)
    if raw is None:
        return _Source(f"shown:{column}", own, True)
    return _Source(f"shown:{column}", pl.coalesce(own, pl.col(raw).cast(pl.String)), True)


def shown_values(frame: pl.DataFrame, rules: RuleSet, value: dict[str, pl.Expr]) -> list[pl.Expr | None]:
    """Per rule, the expression of the text it shows when it fires (None: it never shows one)."""
    out: list[pl.Expr | None] = []
    for rule in rules.rules:
        source = _source(frame, rules, rule, value)
        out.append(None if source is None else source.text)
    return out


def audit_trail(
    frame: pl.DataFrame, rules: RuleSet, value: dict[str, pl.Expr], fired: dict[str, pl.Expr]
) -> tuple[list[pl.Expr], pl.Expr]:
    """Compile the rules into the `rules_fired` text (format in the module docstring): the temporary
    columns to add first (one text per source, only where a rule using it fired: casting the other rows
    would be wasted work), then the text expression reading them.

    `value[column]` is the column with non-finite numbers made null; `fired[rule.id]` the rule's flag.
    Entries are written as `);id(column=` + value, two pieces each: the leading `);` is cut and the last
    `)` added once at the end (an empty result stays empty).
    """
    rule_source = {rule.id: _source(frame, rules, rule, value) for rule in rules.rules}
    sources: dict[str, _Source] = {}
    users: dict[str, list[pl.Expr]] = {}
    for rule in rules.rules:
        source = rule_source[rule.id]
        if source is not None:
            sources.setdefault(source.key, source)
            users.setdefault(source.key, []).append(fired[rule.id])
    temporary: list[pl.Expr] = []
    text_col: dict[str, str] = {}
    for index, (key, source) in enumerate(sources.items()):
        text_col[key] = f"{TMP}text_{index}"
        temporary.append(pl.when(pl.any_horizontal(users[key])).then(source.text).alias(text_col[key]))
    pieces: list[pl.Expr] = []
    for rule in rules.rules:
        when = pl.when(fired[rule.id])
        pieces.append(when.then(pl.lit(f");{rule.id}({rule.shown_column}=")))
        source = rule_source[rule.id]
        if source is not None:
            pieces.append(when.then(pl.col(text_col[source.key])))
    text = pl.concat_str([pl.concat_str(pieces, ignore_nulls=True), pl.lit(")")]).str.slice(2)
    return temporary, text


MAX_GROUPS = 512
"""Above this many distinct fired-rule combinations, `audit_text` uses the flat `audit_trail`."""
MIN_GROUP_ROWS = 1000
"""Combinations fired on fewer rows are built together by the flat `audit_trail`: a group has a fixed
cost of about a millisecond whatever its size, and saves under a microsecond per row over the flat form.
Between 500 and 2000 the total on 50k-row chunks of a 1M pool differed by less than the noise."""
GROUPED_FROM_ROWS = 40_000
"""Frames with fewer rows are built by the flat `audit_trail` alone: the grouped form's fixed cost per
call (grouping, a query per group, the gather back) is only repaid from about 35k rows (measured: 10% slower
at 30k rows, 23% faster at 50k, 40% at 1M)."""


def _pieces(parts: list[str | pl.Expr]) -> list[pl.Expr]:
    """Adjacent literal strings merged, so a group's concatenation has as few pieces as possible."""
    merged: list[str | pl.Expr] = []
    for part in parts:
        if isinstance(part, str) and merged and isinstance(merged[-1], str):
            merged[-1] += part
        else:
            merged.append(part)
    return [pl.lit(part) if isinstance(part, str) else part for part in merged]


def _group_text(
    frame: pl.DataFrame, fired: list[Rule], sources: dict[str, _Source | None], index: pl.Series
) -> pl.LazyFrame:
    """Column `text` for the rows at `index`, on all of which exactly the rules `fired` fired."""
    used = {rule.id: sources[rule.id] for rule in fired}
    columns = sorted({name for s in used.values() if s is not None for name in s.text.meta.root_names()})
    parts: list[str | pl.Expr] = []
    keys: dict[str, int] = {}
    for position, rule in enumerate(fired):
        parts.append(f"{';' if position else ''}{rule.id}({rule.shown_column}=")
        source = used[rule.id]
        if source is None:
            parts.append(")")
            continue
        slot = keys.setdefault(source.key, len(keys))
        parts += [pl.col(f"{TMP}text_{slot}"), ")"]
    if not keys:  # only rules that show nothing fired: the same text on every row of the group
        text = "".join(map(str, parts))
        return pl.DataFrame([pl.repeat(text, index.len(), eager=True).alias("text")]).lazy()
    values: list[pl.Expr] = []
    for key, slot in keys.items():
        source = next(s for s in used.values() if s is not None and s.key == key)
        values.append(source.text.alias(f"{TMP}text_{slot}"))
    # Gathered eagerly: inside a lazy query the same gather costs several times more.
    rows = frame.select([pl.col(name).gather(index) for name in columns])
    return (
        rows.lazy()
        .with_columns(values)
        .select(pl.concat_str(_pieces(parts), ignore_nulls=True).alias("text"))
    )


def audit_text(
    frame: pl.DataFrame, rules: RuleSet, value: dict[str, pl.Expr], flags: pl.DataFrame
) -> pl.Series:
    """The `rules_fired` text of every row of `frame` (format in the module docstring).

    `flags` holds one boolean column per rule, in rule order, true where it fired (never null);
    `value[column]` is the column with non-finite numbers made null.
    """
    n = frame.height
    names = flags.columns
    if n < max(GROUPED_FROM_ROWS, MIN_GROUP_ROWS) or len(names) > 63:
        return _flat(frame, rules, value, flags)
    bits = [
        pl.when(pl.col(name)).then(pl.lit(1 << i, dtype=pl.UInt64)).otherwise(pl.lit(0, dtype=pl.UInt64))
        for i, name in enumerate(names)
    ]
    groups = (
        flags.select(functools.reduce(operator.add, bits).alias("mask"))
        .with_row_index("index")
        .group_by("mask")
        .agg("index")
    )
    large = groups.get_column("index").list.len() >= MIN_GROUP_ROWS
    if not large.any() or groups.height > MAX_GROUPS:
        return _flat(frame, rules, value, flags)
    sources = {rule.id: _source(frame, rules, rule, value) for rule in rules.rules}
    queries: list[pl.LazyFrame] = []
    for combination, index in zip(
        groups.get_column("mask").filter(large).to_list(),
        groups.get_column("index").filter(large),
        strict=True,
    ):
        fired = [rule for i, rule in enumerate(rules.rules) if combination >> i & 1]
        queries.append(_group_text(frame, fired, sources, index))
    order = groups.get_column("index").filter(large).explode()
    if not large.all():
        rest = groups.get_column("index").filter(~large).explode()
        columns = sorted(
            rules.columns() | {raw for raw in rules.raw_columns.values() if raw in frame.columns}
        )
        queries.append(_flat_query(frame.select(columns)[rest], rules, value, flags[rest]))
        order = pl.concat([order, rest])
    # One chunk before the gather: across many chunks of strings it costs 30x more than the rechunk.
    out = pl.concat(pl.collect_all(queries), rechunk=True)  # the groups run in parallel
    # The rows in group order are a permutation of 0..n-1; its inverse puts each row back in place.
    back = pl.zeros(n, dtype=order.dtype, eager=True).scatter(
        order, pl.int_range(0, n, dtype=order.dtype, eager=True)
    )
    return out.get_column("text").gather(back)


def _flat_query(
    frame: pl.DataFrame, rules: RuleSet, value: dict[str, pl.Expr], flags: pl.DataFrame
) -> pl.LazyFrame:
    fired = {rule.id: pl.col(name) for rule, name in zip(rules.rules, flags.columns, strict=True)}
    temporary, text = audit_trail(frame, rules, value, fired)
    return (
        pl.concat([frame, flags], how="horizontal").lazy().with_columns(temporary).select(text.alias("text"))
    )


def _flat(frame: pl.DataFrame, rules: RuleSet, value: dict[str, pl.Expr], flags: pl.DataFrame) -> pl.Series:
    return _flat_query(frame, rules, value, flags).collect().get_column("text")
