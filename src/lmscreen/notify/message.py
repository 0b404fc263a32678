"""The message a finished run sends: counts by level, the 高 rows, what changed since the previous run of
the same pool, the rows that failed and the stale fields, in a dozen lines.

Why short: it is read on a phone in a chat (企业微信 and 钉钉 bots cut long texts); report.html, attached
where the channel takes attachments, has the rest. Built from the run's own files (run.json, results.jsonl
or results.parquet) and the history, so `lmscreen notify OUT --test` sends exactly what the night sent.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

TOP_ROWS = 10
"""高 rows listed by name; the rest are counted."""
TOP_CHANGES = 5


@dataclass(frozen=True)
class Message:
    title: str
    body: str
    attachment: Path | None


_KEEP = ("code", "name", "risk_level", "score", "status")


def _rows(out_dir: Path) -> list[dict[str, Any]]:
    """The rows' code, name, level, score and status: from results.jsonl, or results.parquet where a
    rules-only run wrote no results.jsonl (it does only with --jsonl)."""
    path = out_dir / "results.jsonl"
    if not path.is_file():
        return _parquet_rows(out_dir / "results.parquet")
    keep = _KEEP
    rows = []
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                rec = json.loads(line)
                rows.append({k: rec.get(k) for k in keep})
    return rows


def _parquet_rows(path: Path) -> list[dict[str, Any]]:
    if not path.is_file():
        return []
    import polars as pl

    names = pl.read_parquet_schema(path)
    frame = pl.read_parquet(path, columns=[c for c in _KEEP if c in names])
    if "risk_level" in frame.columns:  # an Enum in the rules' order: the message wants its text
        frame = frame.with_columns(pl.col("risk_level").cast(pl.String))
    return [{k: rec.get(k) for k in _KEEP} for rec in frame.to_dicts()]


def _changes(run: dict[str, Any], rows: list[dict[str, Any]]) -> list[str] | None:
    """`600519 贵州茅台 中→高` for rows whose level moved since the previous run of the pool; None when there
    is no previous run (or no history)."""
    from lmscreen.outputs.history import previous_run, verdict_frame

    history = run.get("history") or {}
    try:
        prev = previous_run(history.get("run_id"), run["input"]["path"], run.get("finished_at"))
        if prev is None:
            return None
        before = verdict_frame(prev.id, columns=["code", "risk_level"])
    except Exception:  # noqa: BLE001 - a broken history must not stop the message
        return None
    was = dict(zip(before["code"].to_list(), before["risk_level"].to_list(), strict=True))
    moved = []
    for r in rows:
        old = was.get(r["code"])
        if old is None:
            moved.append(f"{r['code']} {r['name'] or ''} 新→{r['risk_level']}")
        elif old != r["risk_level"]:
            moved.append(f"{r['code']} {r['name'] or ''} {old}→{r['risk_level']}")
    return moved


def build(out_dir: Path, top_level: str = "高") -> Message:
    """The message for the finished run in `out_dir` (its run.json must exist)."""
    path = out_dir / "run.json"
    try:
        run = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        from lmscreen.errors import InputError

        raise InputError(f"{path}: no finished run here ({exc})") from exc
    counts = run.get("counts") or {}
    rows = _rows(out_dir)
    levels = counts.get("risk_levels") or {}
    pool = Path(str((run.get("input") or {}).get("path", "pool"))).name
    day = str(run.get("finished_at", ""))[:16].replace("T", " ")
    lines = [
        f"screened {counts.get('screened', len(rows))} rows: "
        + (" ".join(f"{k} {v}" for k, v in sorted(levels.items())) or "no levels")
    ]
    top = [r for r in rows if r.get("risk_level") == top_level]
    if top:
        shown = [f"{r['code']} {r['name'] or ''} ({r['score']})".strip() for r in top[:TOP_ROWS]]
        more = f" …+{len(top) - TOP_ROWS}" if len(top) > TOP_ROWS else ""
        lines.append(f"{top_level}: " + "; ".join(shown) + more)
    moved = _changes(run, rows)
    if moved is None:
        lines.append("changes: no previous run of this pool")
    elif not moved:
        lines.append("changes: none since the previous run")
    else:
        more = f" …+{len(moved) - TOP_CHANGES}" if len(moved) > TOP_CHANGES else ""
        lines.append(f"changes ({len(moved)}): " + "; ".join(moved[:TOP_CHANGES]) + more)
    failed = [r for r in rows if str(r.get("status") or "ok") != "ok"]
    errors = int(counts.get("errors") or 0)
    if failed or errors:
        lines.append(f"failed: {len(failed)} rows (LLM), {errors} rejected by the loader (errors.csv)")
    stale = counts.get("stale") or {}
    if stale:
        lines.append("stale: " + ", ".join(f"{k} {v} rows" for k, v in stale.items()))
    report = out_dir / "report.html"
    return Message(
        title=f"lmscreen {pool} {day}".strip(),
        body="\n".join(lines),
        attachment=report if report.is_file() else None,
    )
