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


BRIEF = ["code", "name", "risk_level", "score", "pe_ttm", "roe"]
"""The verdict columns a diff reads."""


def _severity(level: str | None) -> int:
    return LEVEL_ORDER.find(level) if level and level in LEVEL_ORDER else len(LEVEL_ORDER)


def _frame(rows: pl.DataFrame | list[dict[str, Any]]) -> pl.DataFrame:
    from lmscreen.report.history import VERDICT_TYPES

    if isinstance(rows, pl.DataFrame):
        frame = rows
    else:
        frame = pl.DataFrame([{c: r.get(c) for c in VERDICT_TYPES} for r in rows], schema=VERDICT_TYPES)
    types = {c: VERDICT_TYPES[c] for c in BRIEF}
    # Codes are unique already (the pool loader keeps the first of a duplicated code).
    return frame.select(
        (pl.col(c) if c in frame.columns else pl.lit(None)).cast(t, strict=False).alias(c)
        for c, t in types.items()
    ).filter(pl.col("code").is_not_null())


def diff_verdicts(
    a: pl.DataFrame | list[dict[str, Any]],
    b: pl.DataFrame | list[dict[str, Any]],
    run_a: int | None = None,
    run_b: int | None = None,
) -> RunDiff:
    """Compare run A (older) with run B (newer), matched by code, as polars joins (a million-row pool
    diffs in well under a second). `changed` lists both sides and the inputs that moved."""
    fa = _frame(a).with_columns(pl.lit(True).alias("in_a"))
    fb = _frame(b).with_columns(pl.lit(True).alias("in_b"))
    # One full join instead of three: in_a / in_b say which side a code is on.
    j = fa.join(fb, on="code", how="full", suffix="_b", coalesce=True)
    in_a, in_b = pl.col("in_a").fill_null(False), pl.col("in_b").fill_null(False)
    moved = j.filter(
        in_a
        & in_b
        & (
            pl.col("risk_level").ne_missing(pl.col("risk_level_b"))
            | pl.col("score").ne_missing(pl.col("score_b"))
        )
    ).select(
        "code",
        pl.col("name_b").alias("name"),
        pl.col("risk_level").alias("risk_level_a"),
        "risk_level_b",
        pl.col("score").alias("score_a"),
        "score_b",
        pl.col("pe_ttm").alias("pe_ttm_a"),
        "pe_ttm_b",
        pl.col("roe").alias("roe_a"),
        "roe_b",
    )
    side_b = [pl.col(f"{c}_b").alias(c) for c in BRIEF if c != "code"]
    out = RunDiff(run_a, run_b)
    out.changed = sorted(moved.to_dicts(), key=lambda e: (_severity(e["risk_level_b"]), e["code"]))
    out.added = j.filter(~in_a).select("code", *side_b).sort("code").to_dicts()
    out.dropped = j.filter(~in_b).select(BRIEF).sort("code").to_dicts()
    return out
