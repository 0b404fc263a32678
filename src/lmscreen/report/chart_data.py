"""What the report's charts show, aggregated in polars over every screened row.

A million-row run is summed here (one group-by, four percentiles, a sample of the PE/ROE points), so the
drawing step only ever sees a few dozen bars and at most MAX_SCATTER_POINTS dots, and costs the same for 50
rows as for 1,000,000. Each aggregate records how many rows it was computed from, so a chart can say what
share of the run it describes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import polars as pl

LEVELS = ("高", "中", "低", "未知")
CHART_COLUMNS = ("risk_level", "score", "industry", "pe_ttm", "roe")
MAX_INDUSTRIES = 12
MAX_SCATTER_POINTS = 1_000
"""Dots in the PE/ROE chart: ~0.15 s of drawing and ~0.1 MB of SVG per 1,000. The rest of the run is in the
axis range, the outside count and the other three charts."""
SCORE_BINS = 10


@dataclass(frozen=True)
class Threshold:
    field: str
    value: float
    rule_id: str


@dataclass(frozen=True)
class Scatter:
    points: dict[str | None, list[tuple[float, float]]]
    """Drawn dots per risk level, clamped to the axis range."""
    x_range: tuple[float, float]
    y_range: tuple[float, float]
    with_values: int
    """Rows with both PE-TTM and ROE: the population the dots are drawn from."""
    shown: int
    outside: int
    """Rows (of `with_values`) outside the axis range, drawn at its edge when sampled."""


@dataclass(frozen=True)
class ChartData:
    total: int
    """Rows in the run (run.json's screened count)."""
    rows: int
    """Rows the charts were computed from: `total`, unless the run's whole verdicts were not available."""
    levels: dict[str | None, int]
    score_edges: list[float]
    scores: dict[str | None, list[int]]
    scored: int
    industries: list[str | None]
    """Largest industries first; None is rows without an industry."""
    by_industry: dict[str | None, dict[str | None, int]]
    other: dict[str | None, int]
    """Rows of the industries beyond the largest MAX_INDUSTRIES, by level."""
    other_industries: int
    scatter: Scatter

    @property
    def partial(self) -> bool:
        return self.rows < self.total


def level_order(levels: object) -> list[str | None]:
    """The four standard levels in report order, then any other level a custom rules file names."""
    present = list(levels)  # type: ignore[call-overload]
    extra = sorted((lv for lv in present if lv not in LEVELS), key=lambda lv: (lv is None, str(lv)))
    return [lv for lv in LEVELS if lv in present] + extra


def _cells(frame: pl.DataFrame, lo: float, width: float) -> pl.DataFrame:
    """Row counts by industry, risk level, score bin (null: no score) and whether the row has both PE
    and ROE: one group-by over the run, from which every count the charts show is summed."""
    finite = pl.col("pe_ttm").cast(pl.Float64).is_finite() & pl.col("roe").cast(pl.Float64).is_finite()
    score_bin = ((pl.col("score").cast(pl.Float64) - lo) / width).floor().clip(0, SCORE_BINS - 1)
    return (
        frame.lazy()
        .group_by(
            "industry",
            "risk_level",
            score_bin.cast(pl.Int32).alias("bin"),
            finite.fill_null(False).alias("both"),
        )
        .len()
        .collect()
    )


def _sum_by(cells: pl.DataFrame, *keys: str) -> pl.DataFrame:
    return cells.group_by(*keys).agg(pl.col("len").sum())


def _level_counts(cells: pl.DataFrame) -> dict[str | None, int]:
    return {lv: n for lv, n in _sum_by(cells, "risk_level").iter_rows()}


def _scores(cells: pl.DataFrame) -> tuple[dict[str | None, list[int]], int]:
    out: dict[str | None, list[int]] = {}
    scored = 0
    for lv, b, n in _sum_by(cells.filter(pl.col("bin").is_not_null()), "risk_level", "bin").iter_rows():
        out.setdefault(lv, [0] * SCORE_BINS)[b] += n
        scored += n
    return out, scored


def _industries(
    cells: pl.DataFrame,
) -> tuple[list[str | None], dict[str | None, dict[str | None, int]], dict[str | None, int], int]:
    grouped = _sum_by(cells, "industry", "risk_level")
    totals = _sum_by(grouped, "industry").sort(["len", "industry"], descending=[True, False], nulls_last=True)
    top = totals["industry"].head(MAX_INDUSTRIES).to_list()
    kept = set(top)
    table: dict[str | None, dict[str | None, int]] = {name: {} for name in top}
    other: dict[str | None, int] = {}
    for name, lv, n in grouped.iter_rows():
        counts = table[name] if name in kept else other
        counts[lv] = counts.get(lv, 0) + n
    return top, table, other, max(0, totals.height - len(top))


def _bounds(lo: float | None, hi: float | None, marks: list[float]) -> tuple[float, float]:
    """The 2nd-98th percentile of the data widened to show every threshold line, so one PE of 3,000 does
    not squash everything else into a corner."""
    values = [v for v in (lo, hi) if v is not None] + marks
    if not values:
        return -1.0, 1.0
    a, b = min(values), max(values)
    pad = (b - a) * 0.08 or 1.0
    return a - pad, b + pad


def _quotas(counts: dict[str | None, int], limit: int) -> dict[str | None, int]:
    """Dots per level: an equal share each, a small level's unused share going to the larger ones, so a
    rare level (a few 高 among thousands of 低) still shows."""
    quotas: dict[str | None, int] = {}
    left = limit
    ordered = sorted(counts.items(), key=lambda kv: (kv[1], str(kv[0])))
    for i, (lv, n) in enumerate(ordered):
        quotas[lv] = min(n, left // (len(ordered) - i))
        left -= quotas[lv]
    return quotas


def _percentiles(both: pl.DataFrame) -> dict[str, float | None]:
    """The 2nd and 98th percentiles of x and y, nearest rank outwards (as `quantile` with "lower" and
    "higher"), by partial selection: a quarter of the cost of four `quantile` sorts on a million rows."""
    n = both.height
    if not n:
        return {"xlo": None, "xhi": None, "ylo": None, "yhi": None}
    low, high = int(0.02 * (n - 1)) + 1, n - math.ceil(0.98 * (n - 1))
    return both.select(
        pl.col("x").bottom_k(low).max().alias("xlo"),
        pl.col("x").top_k(high).min().alias("xhi"),
        pl.col("y").bottom_k(low).max().alias("ylo"),
        pl.col("y").top_k(high).min().alias("yhi"),
    ).row(0, named=True)


def _scatter(
    frame: pl.DataFrame, counts: dict[str | None, int], thresholds: list[Threshold], limit: int
) -> Scatter:
    """`counts`: rows with both PE and ROE, by risk level."""
    pe, roe = pl.col("pe_ttm").cast(pl.Float64), pl.col("roe").cast(pl.Float64)
    both = (
        frame.lazy()
        .select("risk_level", pe.alias("x"), roe.alias("y"))
        .filter(pl.col("x").is_finite() & pl.col("y").is_finite())
        .collect()
    )
    q = _percentiles(both)
    x_range = _bounds(q["xlo"], q["xhi"], [t.value for t in thresholds if t.field == "pe_ttm"])
    y_range = _bounds(q["ylo"], q["yhi"], [t.value for t in thresholds if t.field == "roe"])
    inside = pl.col("x").is_between(*x_range) & pl.col("y").is_between(*y_range)
    outside = both.height - both.select(inside.sum()).item() if both.height else 0
    points: dict[str | None, list[tuple[float, float]]] = {}
    for lv, k in _quotas(counts, limit).items():
        if not k:
            continue
        part = both.filter(pl.col("risk_level").is_null() if lv is None else pl.col("risk_level") == lv)
        # Evenly spaced in pool order: the same rows on every rerun of the same pool, no random draw.
        n = part.height
        picked = part[[i * n // k for i in range(k)]]
        xs = picked["x"].clip(*x_range).to_list()
        ys = picked["y"].clip(*y_range).to_list()
        points[lv] = list(zip(xs, ys, strict=True))
    shown = sum(len(p) for p in points.values())
    return Scatter(points, x_range, y_range, both.height, shown, outside)


def chart_data(
    frame: pl.DataFrame,
    total: int,
    thresholds: list[Threshold],
    score_range: tuple[float, float] = (0.0, 100.0),
    max_points: int = MAX_SCATTER_POINTS,
) -> ChartData:
    """Aggregates of `frame` (CHART_COLUMNS; a missing column counts as all null) for the four charts."""
    present = [c for c in CHART_COLUMNS if c in frame.columns]
    frame = (
        frame.lazy()
        .select(present)
        .with_columns(
            pl.lit(None, dtype=pl.Float64 if c != "industry" and c != "risk_level" else pl.String).alias(c)
            for c in CHART_COLUMNS
            if c not in present
        )
    )
    frame = frame.collect()
    lo, hi = score_range
    width = (hi - lo) / SCORE_BINS or 1.0
    cells = _cells(frame, lo, width)
    scores, scored = _scores(cells)
    top, table, other, n_other = _industries(cells)
    with_values = _level_counts(cells.filter(pl.col("both")))
    return ChartData(
        total=max(total, frame.height),
        rows=frame.height,
        levels=_level_counts(cells),
        score_edges=[lo + i * width for i in range(SCORE_BINS + 1)],
        scores=scores,
        scored=scored,
        industries=top,
        by_industry=table,
        other=other,
        other_industries=n_other,
        scatter=_scatter(frame, with_values, thresholds, max_points),
    )
