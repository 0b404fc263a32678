"""What changed between two runs: stocks whose risk level or score moved, and codes added or dropped.

Rows are matched by normalised code (the pool loader keeps one row per code), so a reordered pool shows no
change. Only the deterministic verdict is compared: the LLM's reason wording is not a change in risk.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import polars as pl

LEVEL_ORDER = "高中低未知"


@dataclass
class RunDiff:
    run_a: int | None
    run_b: int | None
    changed: list[dict[str, Any]] = field(default_factory=list)
    added: list[dict[str, Any]] = field(default_factory=list)
    dropped: list[dict[str, Any]] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        return not (self.changed or self.added or self.dropped)

    def to_json(self) -> dict[str, Any]:
        return {
            "run_a": self.run_a,
            "run_b": self.run_b,
            "changed": self.changed,
            "added": self.added,
            "dropped": self.dropped,
        }


DIFF_COLUMNS = ("code", "name", "risk_level", "score", "pe_ttm", "roe")


def _frame(verdicts: pl.DataFrame | list[dict[str, Any]]) -> pl.DataFrame:
    """Verdicts as a frame with the compared columns and no null codes (repeated codes still in)."""
    if isinstance(verdicts, pl.DataFrame):
        frame = verdicts
    else:
        frame = pl.DataFrame(verdicts, infer_schema_length=None)
    for col in DIFF_COLUMNS:
        if col not in frame.columns:
            frame = frame.with_columns(pl.lit(None).alias(col))
    frame = frame.select(
        pl.col("code").cast(pl.String),
        pl.col("name").cast(pl.String),
        pl.col("risk_level").cast(pl.String),
        pl.col("score").cast(pl.Int64, strict=False),
        pl.col("pe_ttm").cast(pl.Float64, strict=False),
        pl.col("roe").cast(pl.Float64, strict=False),
    ).filter(pl.col("code").is_not_null() & (pl.col("code") != ""))
    return frame


def _first_per_code(frame: pl.DataFrame) -> pl.Series:
    """True on the first row of each code. The loader already keeps one row per code, so this usually
    marks every row; it is one hash pass over the codes."""
    return frame.get_column("code").is_first_distinct()


def _severity(level: str | None) -> int:
    return LEVEL_ORDER.find(level) if level and level in LEVEL_ORDER else len(LEVEL_ORDER)


def diff_verdicts(
    a: pl.DataFrame | list[dict[str, Any]],
    b: pl.DataFrame | list[dict[str, Any]],
    run_a: int | None = None,
    run_b: int | None = None,
) -> RunDiff:
    """Compare run A (older) with run B (newer). `changed` lists both sides and the inputs that moved.

    Compared in polars (row by row when the codes line up, else joined on code), so two million-row runs
    compare in well under a second. A repeated code counts once, its first row kept."""
    fa, fb = _frame(a), _frame(b)
    out = RunDiff(run_a, run_b)
    level_moved = pl.col("risk_level").ne_missing(pl.col("risk_level_a"))
    moved_expr = level_moved | pl.col("score").ne_missing(pl.col("score_a"))
    if fa.height == fb.height and fa.get_column("code").equals(fb.get_column("code")):
        # The usual nightly rerun: the same codes in the same order. Rows line up, so no joins are needed,
        # and one hash pass finds any repeated code for both sides.
        both = pl.concat([fb, fa.drop("code").rename(lambda c: f"{c}_a")], how="horizontal")
        first = _first_per_code(fb)
        moved = both.filter(moved_expr if first.all() else first & moved_expr)
    else:
        fa, fb = fa.filter(_first_per_code(fa)), fb.filter(_first_per_code(fb))
        out.added = fb.join(fa.select("code"), on="code", how="anti").to_dicts()
        out.dropped = fa.join(fb.select("code"), on="code", how="anti").to_dicts()
        both = fb.join(fa, on="code", how="inner", suffix="_a")
        moved = both.filter(moved_expr)
    out.changed = [
        {
            "code": r["code"],
            "name": r["name"],
            "risk_level_a": r["risk_level_a"],
            "risk_level_b": r["risk_level"],
            "score_a": r["score_a"],
            "score_b": r["score"],
            "pe_ttm_a": r["pe_ttm_a"],
            "pe_ttm_b": r["pe_ttm"],
            "roe_a": r["roe_a"],
            "roe_b": r["roe"],
        }
        for r in moved.iter_rows(named=True)
    ]
    # Most severe new level first: a stock that became 高 is what a reader looks for.
    out.changed.sort(key=lambda e: (_severity(e["risk_level_b"]), e["code"]))
    return out
