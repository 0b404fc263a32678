"""Security names: fold width and inner spaces, find the ST marks, drop day-only trading prefixes.

Eastmoney writes `万  科Ａ`, JoinQuant `万 科A`, hand-made sheets `＊ＳＴ天山` or `S T 聆达`; after
NFKC and removing every whitespace character (U+3000 included) they equal the exchange's `万科A` / `*ST天山`.

ST marks, read from the folded name: ST, *ST, and the share-reform era's SST, S*ST (and *SST).

Day-only prefixes are dropped because they are not part of the name and change from day to day: XD / XR / DR
(ex-dividend / ex-rights days) in front of a Chinese character or an ST mark, and N / C (listing day, first
days on registration-based boards) only in front of a Chinese character, where no company name begins with
a bare Latin N or C. Suffix marks (-U, -W, -UW on the STAR market) are part of the displayed name and kept.
"""

from __future__ import annotations

import polars as pl

from lmscreen.pool.text import blank_to_null, clean_where_needed, fold_width

_ST = r"(?i)^\*?S?\*?ST"
_EX_DAY = r"^(?:XD|XR|DR)([\p{Han}*S])"
_LISTING_DAY = r"^[NC](\p{Han})"


def normalise_names(raw: pl.Series) -> pl.Series:
    """Fold width, remove all whitespace, drop day-only prefixes; blank names become null."""
    # Only names starting with X, D, N or C can carry a day-only prefix; the others are cleaned only
    # where they hold whitespace or characters outside ASCII/CJK.
    return clean_where_needed(raw, _clean_names, also="^[XDNC]").alias("name")


def _clean_names(raw: pl.Series) -> pl.Series:
    folded = fold_width(blank_to_null(raw)).str.replace_all(r"\s+", "")
    marked = folded.str.slice(0, 1).is_in(["X", "D", "N", "C"]).fill_null(False)
    if not marked.any():
        return folded
    fixed = folded.filter(marked).str.replace(_EX_DAY, "${1}").str.replace(_LISTING_DAY, "${1}")
    return folded.scatter(marked.arg_true(), fixed)


def st_flags(names: pl.Series) -> pl.Series:
    """True for names carrying an ST mark (expects names from `normalise_names`); null names are not ST."""
    return names.str.contains(_ST).fill_null(False).alias("is_st")
