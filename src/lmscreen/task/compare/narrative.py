"""The written comparison: deterministic by default, a model's text kept only if every number is a cell.

The deterministic text says, per industry, where the median moved from its first to its last period with
companies (`光伏：毛利率由FY2021的24.3%降至FY2023的15.6%（−8.7个百分点，3家）`) and which fell (or rose)
more. A model's text is checked number by number (`numbers_ok`): each number, its unit normalised (`亿元`,
`万元`, `%`), must equal a cell of trends.csv (a median, mean, min, max, stated value, n, or a year of the
periods) to the digits it prints; a change it computed itself is not a cell, so such a text is refused
and the deterministic one stands.
"""

from __future__ import annotations

import re

from lmscreen.task.compare.aggregate import Comparison, TrendCell
from lmscreen.task.compare.metrics import MetricSpec

_NUM_RE = re.compile(
    r"(?<![0-9.QH])([0-9]+(?:,[0-9]{3})*(?:\.[0-9]+)?)\s*(亿元|万元|元|亿|万|%|个百分点|pp)?"
)
_SCALE = {"亿元": 1e8, "亿": 1e8, "万元": 1e4, "万": 1e4, "元": 1.0}


def _fmt(value: float, spec: MetricSpec) -> str:
    if spec.percent:
        return f"{value:.1f}%"
    return f"{value / 1e8:.2f}亿元"


def _ends(cells: list[TrendCell]) -> tuple[TrendCell, TrendCell] | None:
    had = [c for c in cells if c.median is not None and not c.forecast]
    if len(had) < 2:
        return None
    return had[0], had[-1]


def deterministic(comparison: Comparison, lang: str = "zh") -> str:
    """One sentence per industry and metric, then which moved more; numbers only from the table."""
    lines: list[str] = []
    for spec in comparison.specs:
        moves: list[tuple[str, float]] = []
        parts: list[str] = []
        short: list[str] = []
        for industry in comparison.industries:
            cells = [c for c in comparison.trends if c.industry == industry and c.metric == spec.name]
            ends = _ends(cells)
            if ends is None:
                short.append(industry)
                continue
            a, b = ends
            assert a.median is not None and b.median is not None
            delta = b.median - a.median
            moves.append((industry, delta))
            parts.append(_sentence(industry, spec, a, b, delta, lang))
        if short:
            parts.append(
                f"{'、'.join(short)}：{spec.zh}不足两个有数据的期间"
                if lang == "zh"
                else f"{', '.join(short)}: {spec.en} has fewer than two periods with data"
            )
        line = ("；" if lang == "zh" else "; ").join(parts)
        if len(moves) >= 2:
            line += ("；" if lang == "zh" else "; ") + _which(moves, lang)
        lines.append(line + ("。" if lang == "zh" else "."))
    return "\n".join(lines)


def _sentence(industry: str, spec: MetricSpec, a: TrendCell, b: TrendCell, delta: float, lang: str) -> str:
    assert a.median is not None and b.median is not None
    unit = "个百分点" if spec.percent else "亿元"
    size = abs(delta) if spec.percent else abs(delta) / 1e8
    sign = "−" if delta < 0 else "+"
    if lang == "zh":
        verb = "降至" if delta < 0 else ("升至" if delta > 0 else "持平于")
        return (
            f"{industry}：{spec.zh}由{a.period}的{_fmt(a.median, spec)}{verb}{b.period}的"
            f"{_fmt(b.median, spec)}（{sign}{size:.1f}{unit}，{b.n}家）"
        )
    verb = "fell" if delta < 0 else ("rose" if delta > 0 else "held")
    unit_en = "pp" if spec.percent else "亿元"
    return (
        f"{industry}: {spec.en} {verb} from {_fmt(a.median, spec)} in {a.period} to {_fmt(b.median, spec)} "
        f"in {b.period} ({sign}{size:.1f} {unit_en}, n={b.n})"
    )


def _which(moves: list[tuple[str, float]], lang: str) -> str:
    if all(d < 0 for _, d in moves):
        name = min(moves, key=lambda m: m[1])[0]
        return f"降幅更大的是{name}" if lang == "zh" else f"{name} fell more"
    if all(d > 0 for _, d in moves):
        name = max(moves, key=lambda m: m[1])[0]
        return f"升幅更大的是{name}" if lang == "zh" else f"{name} rose more"
    up = [n for n, d in moves if d > 0]
    down = [n for n, d in moves if d < 0]
    if lang == "zh":
        return f"{'、'.join(up) or '无'}上升，{'、'.join(down) or '无'}下降"
    return f"up: {', '.join(up) or 'none'}; down: {', '.join(down) or 'none'}"


def table_lines(comparison: Comparison) -> list[str]:
    """The table the model is shown: one line per cell that has data."""
    out = []
    for c in comparison.trends:
        row = c.row()
        if row["n"] == 0 and row["stated"] is None:
            continue
        out.append(
            f"{c.industry} {c.metric} {c.period}: median={row['median']} min={row['min']} max={row['max']} "
            f"n={row['n']} stated={row['stated']}"
        )
    return out


def _cells(comparison: Comparison) -> list[float]:
    values: list[float] = []
    for c in comparison.trends:
        row = c.row()
        values.extend(
            float(row[k]) for k in ("median", "mean", "min", "max", "stated", "n") if row[k] is not None
        )
    for period in comparison.periods:
        values.extend(float(y) for y in re.findall(r"\d{4}", period))
    return values


def numbers_ok(text: str, comparison: Comparison) -> list[str]:
    """The numbers of `text` that are no cell of the table (empty: every number is one)."""
    cells = _cells(comparison)
    bad: list[str] = []
    for m in _NUM_RE.finditer(text):
        digits, unit = m.group(1).replace(",", ""), m.group(2) or ""
        if unit in ("个百分点", "pp"):
            bad.append(m.group(0))  # a change is computed, not a cell
            continue
        decimals = len(digits.split(".")[1]) if "." in digits else 0
        scale = _SCALE.get(unit, 1.0)
        said = float(digits) * scale
        tol = 0.5 * 10 ** (-decimals) * scale + 1e-9
        if not any(abs(said - v) <= tol for v in cells):
            bad.append(m.group(0))
    return bad
