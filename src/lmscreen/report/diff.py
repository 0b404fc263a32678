"""What changed between two runs: stocks whose risk level or score moved, and codes added or dropped.

Rows are matched by normalised code (the pool loader keeps one row per code), so a reordered pool shows no
change. Only the deterministic verdict is compared: the LLM's reason wording is not a change in risk.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

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


def _brief(v: dict[str, Any]) -> dict[str, Any]:
    return {
        "code": v.get("code"),
        "name": v.get("name"),
        "risk_level": v.get("risk_level"),
        "score": v.get("score"),
        "pe_ttm": v.get("pe_ttm"),
        "roe": v.get("roe"),
    }


def _severity(level: str | None) -> int:
    return LEVEL_ORDER.find(level) if level and level in LEVEL_ORDER else len(LEVEL_ORDER)


def diff_verdicts(
    a: list[dict[str, Any]], b: list[dict[str, Any]], run_a: int | None = None, run_b: int | None = None
) -> RunDiff:
    """Compare run A (older) with run B (newer). `changed` lists both sides and the inputs that moved."""
    by_a = {v["code"]: v for v in a if v.get("code")}
    by_b = {v["code"]: v for v in b if v.get("code")}
    out = RunDiff(run_a, run_b)
    for code, vb in by_b.items():
        va = by_a.get(code)
        if va is None:
            out.added.append(_brief(vb))
            continue
        if va.get("risk_level") == vb.get("risk_level") and va.get("score") == vb.get("score"):
            continue
        entry = {
            "code": code,
            "name": vb.get("name"),
            "risk_level_a": va.get("risk_level"),
            "risk_level_b": vb.get("risk_level"),
            "score_a": va.get("score"),
            "score_b": vb.get("score"),
            "pe_ttm_a": va.get("pe_ttm"),
            "pe_ttm_b": vb.get("pe_ttm"),
            "roe_a": va.get("roe"),
            "roe_b": vb.get("roe"),
        }
        out.changed.append(entry)
    out.dropped = [_brief(va) for code, va in by_a.items() if code not in by_b]
    # Most severe new level first: a stock that became 高 is what a reader looks for.
    out.changed.sort(key=lambda e: (_severity(e["risk_level_b"]), e["code"]))
    return out
