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


_BRIEF = ["code", "name", "risk_level", "score", "pe_ttm", "roe"]


def _severity(level: str | None) -> int:
    return LEVEL_ORDER.find(level) if level and level in LEVEL_ORDER else len(LEVEL_ORDER)


def _frame(rows: pl.DataFrame | list[dict[str, Any]]) -> pl.DataFrame:
    from lmscreen.report.history import VERDICT_TYPES, verdict_frame

    if isinstance(rows, pl.DataFrame):
        frame = rows
    else:
        frame = pl.DataFrame([{c: r.get(c) for c in VERDICT_TYPES} for r in rows], schema=VERDICT_TYPES)
    return (
        verdict_frame(frame)
        .filter(pl.col("code").is_not_null())
        .unique("code", keep="first", maintain_order=True)
    )


def diff_verdicts(
    a: pl.DataFrame | list[dict[str, Any]],
    b: pl.DataFrame | list[dict[str, Any]],
    run_a: int | None = None,
    run_b: int | None = None,
) -> RunDiff:
    """Compare run A (older) with run B (newer), matched by code, as polars joins (a million-row pool
    diffs in well under a second). `changed` lists both sides and the inputs that moved."""
    fa, fb = _frame(a), _frame(b)
    both = fa.select(_BRIEF).join(fb.select(_BRIEF), on="code", how="inner", suffix="_b")
    moved = both.filter(
        pl.col("risk_level").ne_missing(pl.col("risk_level_b"))
        | pl.col("score").ne_missing(pl.col("score_b"))
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
    out = RunDiff(run_a, run_b)
    out.changed = sorted(moved.to_dicts(), key=lambda e: (_severity(e["risk_level_b"]), e["code"]))
    out.added = fb.join(fa, on="code", how="anti").select(_BRIEF).to_dicts()
    out.dropped = fa.join(fb, on="code", how="anti").select(_BRIEF).to_dicts()
    return out
