"""`rules_fired` as nested data: per row, a list of {rule, field, threshold, value}, one per fired rule.

results.jsonl and results.parquet carry this form (results.csv the `;`-joined text of fired.py): a reader
gets the rule, the column it showed, the number it compares with and the value that made it fire without
parsing text. `value` is the very text the `;`-joined form shows (null where that is empty); `threshold`
is the rule's number (null for is_null / is_true, and for an `eq` on text or a boolean, whose value is the
one matched), always Float64 so the column's type does not depend on the rules file.

Built for a million rows without a Python loop per row and without polars' list builders, which are
slow for lists of structs (concat_list over struct columns: 6 s a million rows; gathering lists of
structs: 2.5 s). Instead every fired rule's entries are made flat, column-wise, each given its slot (its
row's first slot plus the entries before it in the row), put in slot order by one scatter, and grouped
into lists by one group-by on the already sorted row number.
"""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from lmscreen.rules.ruleset import Rule, RuleSet, is_number

FIRED_ENTRY = pl.Struct(
    {"rule": pl.Categorical(), "field": pl.Categorical(), "threshold": pl.Float64(), "value": pl.String()}
)
FIRED_LIST = pl.List(FIRED_ENTRY)
"""The dtype of the nested `rules_fired`. `rule` and `field` are categorical: a handful of names on
millions of entries, stored (and written to Parquet) as dictionary codes, which halved the cost of writing
the column against plain strings."""


def threshold(rule: Rule) -> float | None:
    """The number a rule compares with, as the nested entry records it."""
    return float(rule.value) if is_number(rule.value) else None  # type: ignore[arg-type]


def fired_lists(
    frame: pl.DataFrame,
    entries: Sequence[tuple[str, str, float | None]],
    flags: pl.DataFrame,
    values: Sequence[pl.Expr | None],
) -> pl.Series:
    """The nested `rules_fired` of every row of `frame`.

    `entries[i]` is (rule, field, threshold) of the i-th possible entry, in the order a row lists them;
    `flags` holds one boolean column per entry, true where it applies (never null); `values[i]` is the
    expression (on `frame`) of the entry's value text, or None when it never has one.
    """
    n = frame.height
    if n == 0:
        return pl.Series("rules_fired", [], dtype=FIRED_LIST)
    counts = flags.select(pl.sum_horizontal(pl.all().cast(pl.UInt32)).alias("n")).to_series()
    starts = _starts(counts)
    taken = pl.zeros(n, dtype=pl.UInt32, eager=True)
    at: list[pl.Series] = []
    position: list[pl.Series] = []
    texts: list[pl.Series] = []
    for index, (name, value) in enumerate(zip(flags.columns, values, strict=True)):
        flag = flags.get_column(name)
        rows = flag.arg_true()
        if rows.len():
            at.append((starts + taken).gather(rows))
            position.append(pl.repeat(index, rows.len(), dtype=pl.UInt32, eager=True))
            texts.append(_values_at(frame, value, rows))
        taken = taken + flag.cast(pl.UInt32)
    at, position, texts = _with_placeholders(counts, starts, at, position, texts, len(entries))
    order = _order(at)
    # Only the entry's position in `entries` and its value are put in order; the rule, field and threshold
    # come from the few entries by that position (categorical codes: a gather of integers).
    slot_position = pl.concat(position).gather(order)
    table = _lookup([*entries, ("", "", None)])
    flat = table.select(pl.all().gather(slot_position)).with_columns(
        pl.concat(texts).gather(order).alias("value")
    )
    return _lists(counts, flat)


def with_first_entry(
    lists: pl.Series, applies: pl.Series, entry: tuple[str, str, float | None], value: pl.Series
) -> pl.Series:
    """`lists` with `entry` (value text from `value`) put first where `applies` is true (never null), as
    `record_annualized` does with `roe_annualized`."""
    n = lists.len()
    if n == 0:
        return lists
    old = lists.list.len().cast(pl.UInt32)
    added = applies.cast(pl.UInt32)
    counts = old + added
    starts = _starts(counts)
    rows = applies.arg_true()
    at = [starts.gather(rows)]
    parts = [_lookup([entry]).select(pl.all().gather(pl.zeros(rows.len(), dtype=pl.UInt32, eager=True)))]
    parts[0] = parts[0].with_columns(value.gather(rows).cast(pl.String).alias("value"))
    flat = lists.explode().drop_nulls()  # an entry is never null; an empty list may explode to one
    if flat.len():
        owner = _owners(old)
        first_old = (old.cum_sum() - old).gather(owner)
        within = pl.int_range(0, flat.len(), dtype=pl.UInt32, eager=True) - first_old
        at.append((starts + added).gather(owner) + within)
        parts.append(flat.struct.unnest())
    empty = (counts == 0).arg_true()
    if empty.len():
        at.append(starts.gather(empty))
        parts.append(
            _lookup([("", "", None)]).select(
                pl.all().gather(pl.zeros(empty.len(), dtype=pl.UInt32, eager=True))
            )
        )
    order = _order(at)
    flat_entries = pl.concat(parts, how="vertical_relaxed", rechunk=True).select(pl.all().gather(order))
    return _lists(counts, flat_entries)


def _starts(counts: pl.Series) -> pl.Series:
    """Each row's first slot. A row without an entry holds one placeholder slot, cut at the end: then
    every row has a group, and the group-by gives the rows in order with nothing to fill in."""
    slots = counts.clip(lower_bound=1)
    return slots.cum_sum() - slots


def _with_placeholders(
    counts: pl.Series,
    starts: pl.Series,
    at: list[pl.Series],
    position: list[pl.Series],
    texts: list[pl.Series],
    placeholder: int,
) -> tuple[list[pl.Series], list[pl.Series], list[pl.Series]]:
    """The slots of the rows without an entry added, holding entry `placeholder`."""
    empty = (counts == 0).arg_true()
    if empty.len():
        at = [*at, starts.gather(empty)]
        position = [*position, pl.repeat(placeholder, empty.len(), dtype=pl.UInt32, eager=True)]
        texts = [*texts, pl.repeat(None, empty.len(), dtype=pl.String, eager=True)]
    return at, position, texts


def _order(at: list[pl.Series]) -> pl.Series:
    """Each entry's slot is its row's start plus the entries before it in that row, so the slots (with
    the placeholders') are a permutation of 0..total-1; one scatter inverts it into the order that reads
    the entries slot by slot."""
    slots = pl.concat(at)
    total = slots.len()
    return pl.zeros(total, dtype=pl.UInt32, eager=True).scatter(
        slots, pl.int_range(0, total, dtype=pl.UInt32, eager=True)
    )


def _owners(slots: pl.Series) -> pl.Series:
    """The row of each slot, in order: row i repeated slots[i] times."""
    rows = pl.int_range(0, slots.len(), dtype=pl.UInt32, eager=True)
    return pl.select(pl.lit(rows).repeat_by(pl.lit(slots)).explode()).to_series().drop_nulls()


def _lookup(entries: Sequence[tuple[str, str, float | None]]) -> pl.DataFrame:
    """(rule, field, threshold) of each entry, typed as FIRED_ENTRY's fields."""
    return pl.DataFrame(
        {
            "rule": pl.Series([e[0] for e in entries], dtype=pl.Categorical()),
            "field": pl.Series([e[1] for e in entries], dtype=pl.Categorical()),
            "threshold": pl.Series([e[2] for e in entries], dtype=pl.Float64()),
        }
    )


def _lists(counts: pl.Series, flat: pl.DataFrame) -> pl.Series:
    """The lists of entries given flat, in slot order (rule, field, threshold, value), each row's slots
    (one at least: a row without an entry has its placeholder) next to each other."""
    lists = (
        flat.select(
            _owners(counts.clip(lower_bound=1)).alias("row").set_sorted(),
            pl.struct("rule", "field", "threshold", "value").alias("entry"),
        )
        .group_by("row", maintain_order=True)
        .agg("entry")
        .get_column("entry")
    )
    return (
        pl.DataFrame({"lists": lists, "n": counts})
        .select(pl.col("lists").list.slice(0, pl.col("n")).alias("rules_fired"))
        .to_series()
    )


def _values_at(frame: pl.DataFrame, value: pl.Expr | None, rows: pl.Series) -> pl.Series:
    """The value text at `rows` only: casting a million floats to text for the few rows that show them
    would be most of the work."""
    if value is None:
        return pl.repeat(None, rows.len(), dtype=pl.String, eager=True)
    columns = sorted(set(value.meta.root_names()))
    picked = frame.select(pl.col(columns).gather(rows))
    return picked.select(value.cast(pl.String).alias("value")).to_series()


def rule_entries(rules: RuleSet) -> list[tuple[str, str, float | None]]:
    """(rule, field, threshold) of each rule, in the rules file's order."""
    return [(rule.id, rule.shown_column, threshold(rule)) for rule in rules.rules]
