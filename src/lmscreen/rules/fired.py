"""The audit trail of a verdict: which rules fired and the values that made them fire, as text and JSON.

Built for a million rows. Rows are grouped by which rules fired (a handful of combinations in practice);
within a group every row has the same entries, so each output is one `concat_str` over only the fired
rules' pieces, on only that group's rows, and a value is turned into text only where a rule shows it.
Groups are stitched back into row order with one gather. One flat concatenation over every rule's
pieces costs per piece per row whether or not the rule fired; on a 1M-row pool with the default rules
the grouped form took `evaluate` from about 1.0 to 0.6 CPU seconds. The flat form (`audit_trail`) still
builds the rows of rare combinations (a group's fixed cost would outweigh its saving) and everything
when rows fall into very many combinations.
What a fired rule can show is decided from the rule (a comparison shows a present value, an is_null rule
shows its raw cell or nothing), not per row.

Output formats, which `reference.evaluate_row` reproduces exactly:
- text: `id(column=value)` joined by `;`, e.g. `st(name=*ST天山);pe_missing(pe_ttm=亏损)`, "" when none;
  a missing value shows as nothing: `roe_missing(roe=)`.
- JSON: `[{"id":..,"field":..,"value":..}, ...]`, `[]` when none, byte for byte what
  `json.dumps(entries, ensure_ascii=False, separators=(",", ":"))` writes; `value` is the same text as in
  the text form, or null when missing.
"""

from __future__ import annotations

import functools
import json
import operator
from dataclasses import dataclass

import polars as pl

from lmscreen.rules.ruleset import Rule, RuleSet

TMP = "__lmscreen_"
"""Prefix of the temporary columns `evaluate` adds and drops."""

# json.dumps(ensure_ascii=False) escapes exactly these: quote, backslash and the C0 controls.
_JSON_SHORT = {"\\": "\\\\", '"': '\\"', "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"}
_JSON_ESCAPES = {chr(c): _JSON_SHORT.get(chr(c), f"\\u{c:04x}") for c in range(0x20)} | _JSON_SHORT


@dataclass(frozen=True)
class _Source:
    """Where a fired rule's shown value comes from: its text, and what that text can be."""

    key: str
    text: pl.Expr
    may_be_null: bool
    needs_escape: bool


def _is_text(frame: pl.DataFrame, column: str) -> bool:
    return frame.schema[column] == pl.String


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
        return _Source(f"raw:{raw}", pl.col(raw).cast(pl.String), True, _is_text(frame, raw))
    own = value[column].cast(pl.String)
    if column == rule.field:
        return _Source(f"value:{column}", own, False, _is_text(frame, column))
    if raw is None:
        return _Source(f"shown:{column}", own, True, _is_text(frame, column))
    text = pl.coalesce(own, pl.col(raw).cast(pl.String))
    return _Source(f"shown:{column}", text, True, _is_text(frame, column) or _is_text(frame, raw))


def _json_escape(text: pl.Expr) -> pl.Expr:
    return text.str.replace_many(list(_JSON_ESCAPES), list(_JSON_ESCAPES.values()))


@dataclass(frozen=True)
class AuditTrail:
    """Expressions that add the `rules_fired` text and JSON. Once the fired flags are columns, `first`
    and then `second` add temporary columns (each stage reads the one before), then `text` and `json`
    read them; drop `temporary` after."""

    first: list[pl.Expr]
    second: list[pl.Expr]
    text: pl.Expr
    json: pl.Expr

    @property
    def temporary(self) -> list[str]:
        return [expr.meta.output_name() for expr in self.first + self.second]


def _temporaries(
    sources: dict[str, _Source], users: dict[str, list[pl.Expr]]
) -> tuple[list[pl.Expr], list[pl.Expr], dict[str, str], dict[str, str]]:
    """Per source: a text column, and a JSON column (escaped; quoted or null if it may be missing) unless
    the text needs neither. Only rows where a rule using the source fired ever read it, so the others are
    left null: casting and escaping them would be wasted work."""
    first: list[pl.Expr] = []
    second: list[pl.Expr] = []
    text_col: dict[str, str] = {}
    json_col: dict[str, str] = {}
    for index, (key, source) in enumerate(sources.items()):
        text_col[key] = json_col[key] = f"{TMP}text_{index}"
        first.append(pl.when(pl.any_horizontal(users[key])).then(source.text).alias(text_col[key]))
        if not (source.needs_escape or source.may_be_null):
            continue
        as_json = pl.col(text_col[key])
        if source.needs_escape:
            as_json = _json_escape(as_json)
        if source.may_be_null:
            as_json = pl.concat_str([pl.lit('"'), as_json, pl.lit('"')]).fill_null(pl.lit("null"))
        json_col[key] = f"{TMP}json_{index}"
        second.append(as_json.alias(json_col[key]))
    return first, second, text_col, json_col


def audit_trail(
    frame: pl.DataFrame, rules: RuleSet, value: dict[str, pl.Expr], fired: dict[str, pl.Expr]
) -> AuditTrail:
    """Compile the rules into the two audit columns (formats in the module docstring).

    `value[column]` is the column with non-finite numbers made null; `fired[rule.id]` the rule's flag.
    Text entries are written as `);id(column=` + value, two pieces each: the leading `);` is cut and the
    last `)` added once at the end (an empty result stays empty). JSON entries end with `,`, cut once.
    """
    rule_source = {rule.id: _source(frame, rules, rule, value) for rule in rules.rules}
    sources: dict[str, _Source] = {}
    users: dict[str, list[pl.Expr]] = {}
    for rule in rules.rules:
        source = rule_source[rule.id]
        if source is not None:
            sources.setdefault(source.key, source)
            users.setdefault(source.key, []).append(fired[rule.id])
    first, second, text_col, json_col = _temporaries(sources, users)

    text_pieces: list[pl.Expr] = []
    json_pieces: list[pl.Expr] = []
    for rule in rules.rules:
        when = pl.when(fired[rule.id])
        column = rule.shown_column
        text_pieces.append(when.then(pl.lit(f");{rule.id}({column}=")))
        head = f'{{"id":{json.dumps(rule.id)},"field":{json.dumps(column, ensure_ascii=False)},"value":'
        source = rule_source[rule.id]
        if source is None:
            json_pieces.append(when.then(pl.lit(head + "null},")))
            continue
        text_pieces.append(when.then(pl.col(text_col[source.key])))
        as_json = when.then(pl.col(json_col[source.key]))
        if source.may_be_null:
            json_pieces += [when.then(pl.lit(head)), as_json, when.then(pl.lit("},"))]
        else:
            json_pieces += [when.then(pl.lit(head + '"')), as_json, when.then(pl.lit('"},'))]
    text = pl.concat_str([pl.concat_str(text_pieces, ignore_nulls=True), pl.lit(")")]).str.slice(2)
    body = pl.concat_str(json_pieces, ignore_nulls=True).str.strip_suffix(",")
    return AuditTrail(first, second, text, pl.concat_str([pl.lit("["), body, pl.lit("]")]))


MAX_GROUPS = 512
"""Above this many distinct fired-rule combinations, `audit_columns` uses the flat `audit_trail`."""
MIN_GROUP_ROWS = 1000
"""Combinations fired on fewer rows are built together by the flat `audit_trail`: a group has a fixed
cost of about a millisecond whatever its size, and saves under a microsecond per row over the flat form.
Between 500 and 2000 the total on 50k-row chunks of a 1M pool differed by less than the noise."""
GROUPED_FROM_ROWS = 40_000
"""Frames with fewer rows are built by the flat `audit_trail` alone: the grouped form's fixed cost per
call (grouping, a query per group, the gather back) is only repaid from about 35k rows (measured: 10% slower
at 30k rows, 23% faster at 50k, 40% at 1M)."""


def _json_value(source: _Source, text: pl.Expr) -> pl.Expr:
    """The JSON form of a fired rule's value: escaped, and quoted or `null` if the value may be missing
    (a value that is never missing is quoted by the literal pieces around it)."""
    as_json = _json_escape(text) if source.needs_escape else text
    if source.may_be_null:
        as_json = pl.concat_str([pl.lit('"'), as_json, pl.lit('"')]).fill_null(pl.lit("null"))
    return as_json


def _pieces(parts: list[str | pl.Expr]) -> list[pl.Expr]:
    """Adjacent literal strings merged, so a group's concatenation has as few pieces as possible."""
    merged: list[str | pl.Expr] = []
    for part in parts:
        if isinstance(part, str) and merged and isinstance(merged[-1], str):
            merged[-1] += part
        else:
            merged.append(part)
    return [pl.lit(part) if isinstance(part, str) else part for part in merged]


def _group_outputs(
    frame: pl.DataFrame, fired: list[Rule], sources: dict[str, _Source | None], index: pl.Series
) -> pl.LazyFrame:
    """Columns `text` and `json` for the rows at `index`, on all of which exactly the rules `fired` fired."""
    used = {rule.id: sources[rule.id] for rule in fired}
    columns = sorted({name for s in used.values() if s is not None for name in s.text.meta.root_names()})
    text_parts: list[str | pl.Expr] = []
    json_parts: list[str | pl.Expr] = ["["]
    keys: dict[str, int] = {}
    for position, rule in enumerate(fired):
        column = rule.shown_column
        text_parts.append(f"{';' if position else ''}{rule.id}({column}=")
        head = f'{{"id":{json.dumps(rule.id)},"field":{json.dumps(column, ensure_ascii=False)},"value":'
        json_parts.append(("," if position else "") + head)
        source = used[rule.id]
        if source is None:
            text_parts.append(")")
            json_parts.append("null}")
            continue
        slot = keys.setdefault(source.key, len(keys))
        text_parts += [pl.col(f"{TMP}text_{slot}"), ")"]
        quote = "" if source.may_be_null else '"'
        json_parts += [quote, pl.col(f"{TMP}json_{slot}"), quote + "}"]
    json_parts.append("]")
    if not keys:  # only rules that show nothing fired: the same text on every row of the group
        text, as_json = "".join(map(str, text_parts)), "".join(map(str, json_parts))
        return pl.DataFrame(
            [
                pl.repeat(text, index.len(), eager=True).alias("text"),
                pl.repeat(as_json, index.len(), eager=True).alias("json"),
            ]
        ).lazy()
    values: list[pl.Expr] = []
    for key, slot in keys.items():
        source = next(s for s in used.values() if s is not None and s.key == key)
        values += [
            source.text.alias(f"{TMP}text_{slot}"),
            _json_value(source, pl.col(f"{TMP}text_{slot}")).alias(f"{TMP}json_{slot}"),
        ]
    # Gathered eagerly: inside a lazy query the same gather costs several times more.
    rows = frame.select([pl.col(name).gather(index) for name in columns])
    return (
        rows.lazy()
        .with_columns(values[0::2])
        .with_columns(values[1::2])
        .select(
            pl.concat_str(_pieces(text_parts), ignore_nulls=True).alias("text"),
            pl.concat_str(_pieces(json_parts), ignore_nulls=True).alias("json"),
        )
    )


def audit_columns(
    frame: pl.DataFrame, rules: RuleSet, value: dict[str, pl.Expr], flags: pl.DataFrame
) -> tuple[pl.Series, pl.Series]:
    """The `rules_fired` text and JSON for every row of `frame` (formats in the module docstring).

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
        queries.append(_group_outputs(frame, fired, sources, index))
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
    return out.get_column("text").gather(back), out.get_column("json").gather(back)


def _flat_query(
    frame: pl.DataFrame, rules: RuleSet, value: dict[str, pl.Expr], flags: pl.DataFrame
) -> pl.LazyFrame:
    fired = {rule.id: pl.col(name) for rule, name in zip(rules.rules, flags.columns, strict=True)}
    trail = audit_trail(frame, rules, value, fired)
    return (
        pl.concat([frame, flags], how="horizontal")
        .lazy()
        .with_columns(trail.first)
        .with_columns(trail.second)
        .select(trail.text.alias("text"), trail.json.alias("json"))
    )


def _flat(
    frame: pl.DataFrame, rules: RuleSet, value: dict[str, pl.Expr], flags: pl.DataFrame
) -> tuple[pl.Series, pl.Series]:
    out = _flat_query(frame, rules, value, flags).collect()
    return out.get_column("text"), out.get_column("json")
