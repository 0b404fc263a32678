"""Width folding for polars string columns without a per-row Python loop on the common path.

Broker exports mix full-width forms (`６００５１９`, `＊ＳＴ`, `万　科Ａ`) into otherwise plain cells. NFKC is
the right fold, but polars has no NFKC, and calling Python per row would blow the 1M-rows budget. Cells made
only of ASCII and common CJK ideographs are already NFKC-stable, so only the few other cells are folded in
Python, once per distinct value.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable

import polars as pl

# Characters NFKC leaves alone and that fill almost every cell: ASCII, CJK Unified Ideographs (+ Ext. A).
_NEEDS_FOLD = r"[^\x00-\x7F\u3400-\u4DBF\u4E00-\u9FFF]"
# ... and of those, the ones no cleanup changes: no whitespace or control characters either.
_NEEDS_CLEANING = r"[^\x21-\x7E\u3400-\u4DBF\u4E00-\u9FFF]"


def nfkc(text: str) -> str:
    """NFKC-fold one string (used for headers and the rare cells that need it)."""
    return unicodedata.normalize("NFKC", text)


def fold_width(values: pl.Series) -> pl.Series:
    """Return `values` NFKC-folded, calling Python only for distinct cells outside ASCII/CJK."""
    mask = values.str.contains(_NEEDS_FOLD).fill_null(False)
    if not mask.any():
        return values
    distinct = values.filter(mask).unique().to_list()
    # U+2212 MINUS SIGN survives NFKC but means "-" in every number we read.
    mapping = {v: nfkc(v).replace("\u2212", "-") for v in distinct}
    return values.replace(mapping)


def clean_where_needed(
    values: pl.Series, clean: Callable[[pl.Series], pl.Series], *, also: str | None = None
) -> pl.Series:
    """`clean(values)`, calling `clean` only on cells with whitespace, control characters or characters
    outside ASCII/CJK (or matching the regex `also`); the other cells only have `""` turned into null.

    `clean` must work cell by cell and, like `blank_to_null` followed by `fold_width`, leave a non-empty
    cell of printable ASCII and CJK as it is and turn `""` into null. Names and industries are almost all
    such cells, so a million of them cost one regex pass instead of strip, fold and replace passes.
    """
    pattern = _NEEDS_CLEANING if also is None else f"{_NEEDS_CLEANING}|{also}"
    needs = values.str.contains(pattern).fill_null(False)
    out = values.to_frame("v").select(pl.when(pl.col("v") != "").then(pl.col("v"))).to_series()
    if needs.any():
        out = out.scatter(needs.arg_true(), clean(values.filter(needs)))
    return out.alias(values.name)


def blank_to_null(values: pl.Series) -> pl.Series:
    """Strip surrounding whitespace and turn empty cells into nulls."""
    stripped = values.str.strip_chars()
    return pl.select(pl.when(stripped == "").then(None).otherwise(stripped).alias(values.name)).to_series()


def full_null(name: str, length: int, dtype: pl.DataType) -> pl.Series:
    """An all-null column (built in Rust: a Python list of a million Nones costs more than the real work)."""
    return pl.repeat(None, length, dtype=dtype, eager=True).alias(name)
