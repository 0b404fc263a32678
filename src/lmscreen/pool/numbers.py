"""Numeric cells as broker exports write them, parsed column-wise into Float64 plus a per-row error.

What counts as "no value" (null, not an error): blank, `-`, `--`, `—`, `N/A`, `nan`, `亏损` (how UIs show a
loss-making PE), `停牌` (suspended: 同花顺 shows it in price-derived cells), and `-"` (同花顺 Table.xls).
Accepted spellings of a value: full-width digits, thousands separators (`1,234.5`), a
leading `+`/`-` (negative PE is kept: it is how Eastmoney reports losses), scientific notation, and a unit the
column allows: `%` for percents, `倍` for PE, `元` for per-share values, `万` / `亿` / `万亿` (and `元`) for
amounts, which are scaled to yuan. Anything else is garbage and becomes a row error naming the column.

A value that reads as a number but is far outside what the figure can be (`1e308` as a PE: see
PLAUSIBLE_LIMITS) is a row error too: it is a broken export or a unit mix-up, not data, and carried on it
would overflow the score's arithmetic and the report's chart axes.
"""

from __future__ import annotations

from enum import Enum

import polars as pl

from lmscreen.pool.text import fold_width, full_null

NULL_TOKENS: tuple[str, ...] = (
    "",
    "-",
    "--",
    "---",
    "—",
    "——",
    "n/a",
    "na",
    "#n/a",
    "nan",
    "none",
    "null",
    "亏损",
    "不适用",
    "停牌",
    "暂无",
    "暂无数据",
    '-"',
    '--"',
    "-%",
    "--%",
)

_NULL_SET = pl.Series(NULL_TOKENS, dtype=pl.String).implode()

_NUMBER = r"[+-]?(?:\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?"


class NumberKind(Enum):
    """Which unit suffix a column may carry (regex) and what it means."""

    PE = r"倍"
    PERCENT = r"%"
    PER_SHARE = r"元"
    AMOUNT = r"万亿元|万亿|亿元|亿|万元|万|元"


PLAUSIBLE_LIMITS: dict[NumberKind, float] = {
    NumberKind.PE: 1e6,
    NumberKind.PERCENT: 1e4,
    NumberKind.PER_SHARE: 1e6,
    NumberKind.AMOUNT: 1e14,
}
"""The largest magnitude a cell of each kind may hold (a value above it is a row error).

- PE 1e6: a company whose profit is a millionth of its market value; PE-TTM near a break-even year reaches
  the thousands, never a million (a loss is a negative PE, or `亏损`).
- ROE 1e4 percent: profit a hundred times equity; a tiny or near-zero equity gives ROE of a few hundred
  or thousand percent, a hundredfold is not a figure of any listed company.
- per-share values (EPS) 1e6 yuan: A-share EPS stays below 100 yuan; other listings kept in a pool (a
  share class priced in the hundreds of thousands) stay far below a million.
- amounts (net profit, in yuan after 万/亿 scaling) 1e14 yuan, 100 万亿: about China's yearly GDP; the
  largest listed company's profit is a few 千亿.

Each is generous by orders of magnitude, so a real figure never trips it, and tight enough that the rules'
products and sums (PE x weight, (target - ROE) x weight) stay finite in double precision."""

_LIMIT_TEXT = {
    NumberKind.PE: "a PE beyond ±1e6",
    NumberKind.PERCENT: "a percent beyond ±1e4",
    NumberKind.PER_SHARE: "a per-share value beyond ±1e6 yuan",
    NumberKind.AMOUNT: "an amount beyond ±1e14 yuan",
}

_MULTIPLIERS = {"万亿": 1e12, "万亿元": 1e12, "亿": 1e8, "亿元": 1e8, "万": 1e4, "万元": 1e4, "元": 1.0}


def parse_numbers(raw: pl.Series, kind: NumberKind) -> pl.DataFrame:
    """Return columns `value` (Float64, null for no value) and `error` (reason, or null) per input row.

    Plain numbers take a direct cast; only the cells that fail it (units, separators, `--`, garbage) go
    through folding and the regex, so a clean column costs one cast.
    """
    # `32.78%` is the common percent spelling: cut it before the cast so it takes the fast path too.
    direct = (raw.str.strip_suffix("%") if kind is NumberKind.PERCENT else raw).cast(pl.Float64, strict=False)
    pending = (direct.is_null() | ~direct.is_finite()) & raw.is_not_null()
    errors = full_null("error", raw.len(), pl.String)
    if not pending.any():
        return _out_of_range(raw, direct.alias("value"), errors, kind)
    values = pl.select(pl.when(pending).then(None).otherwise(direct)).to_series().alias("value")
    # A cell that is exactly a no-value token (`亏损`, `--`, ``) is null already and needs no parsing.
    unread = raw.filter(pending)
    token = unread.is_in(_NULL_SET)
    if not token.all():
        index = pending.arg_true().filter(~token)
        slow = _parse_slow(unread.filter(~token), kind)
        values = values.scatter(index, slow.get_column("value"))
        errors = errors.scatter(index, slow.get_column("error"))
    return _out_of_range(raw, values, errors, kind)


def _out_of_range(raw: pl.Series, values: pl.Series, errors: pl.Series, kind: NumberKind) -> pl.DataFrame:
    """Values beyond PLAUSIBLE_LIMITS (an overflow of a unit's scaling included) made null with a row
    error quoting the cell; one comparison per cell when none is."""
    limit = PLAUSIBLE_LIMITS[kind]
    beyond = (values.abs() > limit).fill_null(False)
    if not beyond.any():
        return pl.DataFrame([values, errors])
    reason = pl.concat_str(
        [pl.lit("implausible value: '"), raw.str.slice(0, 40), pl.lit(f"' ({_LIMIT_TEXT[kind]})")]
    )
    frame = pl.DataFrame([values, errors, raw.alias("raw"), beyond.alias("beyond")])
    return frame.select(
        pl.when(pl.col("beyond")).then(None).otherwise(pl.col("value")).alias("value"),
        pl.when(pl.col("beyond")).then(reason).otherwise(pl.col("error")).alias("error"),
    )


def _parse_slow(raw: pl.Series, kind: NumberKind) -> pl.DataFrame:
    """Units, separators, full-width digits, null tokens and garbage, for the cells a cast could not read."""
    frame = pl.DataFrame({"raw": raw, "s": fold_width(raw).str.strip_chars()})
    parts = pl.col("s").str.extract_groups(rf"^({_NUMBER})\s*({kind.value})?$")
    frame = frame.with_columns(
        parts.struct.field("1")
        .str.replace_all(",", "", literal=True)
        .cast(pl.Float64, strict=False)
        .alias("num"),
        parts.struct.field("2").alias("unit"),
        (pl.col("s").is_null() | pl.col("s").str.to_lowercase().is_in(NULL_TOKENS)).alias("empty"),
    )
    scale = pl.col("unit").replace_strict(_MULTIPLIERS, default=1.0, return_dtype=pl.Float64)
    valid = pl.col("num").is_not_null() & pl.col("num").is_finite()
    return frame.select(
        # Scaled amounts are rounded to 1e-4 yuan so 747.34亿 reads as 74734000000, not ...0.00002.
        pl.when(valid & (scale != 1.0))
        .then((pl.col("num") * scale).round(4))
        .when(valid)
        .then(pl.col("num"))
        .alias("value"),
        pl.when(~pl.col("empty") & ~valid)
        .then(pl.concat_str([pl.lit("not a number: '"), pl.col("raw").str.slice(0, 40), pl.lit("'")]))
        .alias("error"),
    )
