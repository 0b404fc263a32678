"""run.json's flag counts: `flag_tally` counts each distinct cell once, and must give what splitting every
cell and counting the pieces gives (the way it was counted before), on cells as the LLM step writes them."""

from __future__ import annotations

from collections import Counter

import polars as pl

from lmscreen.run.screen import flag_tally


def _split_then_count(flags: pl.Series) -> Counter[str]:
    pieces = flags.str.split(";").explode().drop_nulls()
    return Counter({str(k): int(n) for k, n in pieces.value_counts().iter_rows()})


def test_flag_tally_equals_splitting_every_cell() -> None:
    cells = [
        "no_llm",
        "no_report",
        "report_unreadable",
        "stale_roe;no_report",
        "no_report;stale_roe",
        "",
        None,
        "a;;b",
        "no_llm",
    ] * 37
    flags = pl.Series("flags", cells, dtype=pl.String)
    got = flag_tally(flags)
    assert got == _split_then_count(flags)
    assert got["no_report"] == 3 * 37 and got["stale_roe"] == 2 * 37 and got["no_llm"] == 2 * 37


def test_flag_tally_of_a_null_typed_or_empty_column() -> None:
    assert flag_tally(pl.Series("flags", [None, None], dtype=pl.String)) == Counter()
    assert flag_tally(pl.Series("flags", [], dtype=pl.String)) == Counter()
