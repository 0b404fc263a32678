"""What the report's charts show, aggregated in polars over every screened row, a chunk at a time.

A million-row run is summed here as it streams past (ChartTotals: group-by counts, a bounded sample of the
PE/ROE points), so the drawing step only ever sees a few dozen bars and at most MAX_SCATTER_POINTS dots,
and neither the time to draw nor the memory held grows with the rows. Each aggregate records how many
rows it was computed from, so a chart can say what share of the run it describes.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import polars as pl

from lmscreen.outputs import levels as levels_mod
from lmscreen.outputs.columns import CHART_COLUMNS
from lmscreen.outputs.levels import LevelScale

if TYPE_CHECKING:
    from lmscreen.rules.ruleset import RuleSet

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
    scale: LevelScale = levels_mod.DEFAULT
    """The run's levels (from its rules): the order and colours the charts draw them in."""

    @property
    def partial(self) -> bool:
        return self.rows < self.total


def level_order(levels: object, scale: LevelScale = levels_mod.DEFAULT) -> list[str | None]:
    """The levels present, in the order the run's rules list them (LevelScale.ordered), then any other."""
    return scale.ordered(levels)  # type: ignore[arg-type]


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


class _Stride:
    """Every `stride`-th row of a stream, by the row's position in the stream (column `i`), the stride a power
    of two doubled whenever more than `cap` rows would be kept. What is kept depends only on the rows and
    their order, never on how the stream was cut into chunks: after `seen` rows the stride is the smallest
    power of two with ceil(seen / stride) <= cap, however the rows arrived."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.seen = 0
        self.stride = 1
        self.kept: pl.DataFrame | None = None

    def grow(self, n: int) -> int:
        """Take the next `n` rows into account: returns the stride their kept rows (`i` % stride == 0) are
        picked with, having dropped the kept rows that stride no longer keeps."""
        self.seen += n
        stride = self.stride
        while -(-self.seen // self.stride) > self.cap:
            self.stride *= 2
        if self.stride != stride and self.kept is not None:
            self.kept = self.kept.filter(pl.col("i") % self.stride == 0)
        return self.stride

    def extend(self, picked: pl.DataFrame) -> None:
        """Append the rows picked from the rows last counted by grow (with their `i`)."""
        self.kept = picked if self.kept is None else pl.concat([self.kept, picked])

    @property
    def complete(self) -> bool:
        """Every row of the stream is kept."""
        return self.stride == 1

    def frame(self, schema: dict[str, pl.DataType]) -> pl.DataFrame:
        return self.kept if self.kept is not None else pl.DataFrame(schema={"i": pl.Int64, **schema})


_GRID_PER_DECADE = 16
_GRID_EDGES: list[float] = sorted(
    {0.0} | {sign * 10 ** (k / _GRID_PER_DECADE) for sign in (-1, 1) for k in range(-2 * 16, 10 * 16 + 1)}
)
"""Where the PE/ROE axis range of a big run may end: 0 and ±10^(k/16) from 0.01 to 1e10 (steps of 15%).
A value's cell on an axis (_cell) is 2j strictly between edges j-1 and j, 2j+1 exactly on edge j, so
"x >= edge j" and "x <= edge j" are both cell bounds and a range ending on edges counts the rows outside it
exactly, boundary values included."""
_GRID = pl.Series("edges", _GRID_EDGES, dtype=pl.Float64)
SAMPLE_POINTS = 1 << 16
"""PE/ROE points kept (every k-th, evenly over the run) to place the axis range of a run with more rows
with both values than this; up to this many, every point is kept and the range is exact as before."""

_POINT_SCHEMA: dict[str, pl.DataType] = {"x": pl.Float64(), "y": pl.Float64()}
_CELL_SCHEMA: dict[str, pl.DataType] = {
    "industry": pl.String(),
    "risk_level": pl.String(),
    "bin": pl.Int32(),
    "both": pl.Boolean(),
    "len": pl.Int64(),
}
_GRID_SCHEMA: dict[str, pl.DataType] = {"k": pl.Int64(), "len": pl.Int64()}
"""Rows per grid cell, keyed x cell * _GRID_CELLS + y cell."""
_BATCH_ROWS = 8192
"""Chunks smaller than this are pooled before they are counted, so a caller feeding one row at a time does
not pay a group-by per row."""
_GRID_CELLS = 2 * len(_GRID_EDGES) + 1


def _cell(values: pl.Series) -> pl.Series:
    """Each value's cell on the grid: 2j between edges j-1 and j, 2j+1 exactly on edge j."""
    left = _GRID.search_sorted(values, side="left")
    on_edge = _GRID.gather(left.clip(0, len(_GRID) - 1)) == values
    return left.cast(pl.Int64) * 2 + on_edge.cast(pl.Int64)


def _every(
    part: pl.DataFrame,
    stride: _Stride,
    rows: Callable[[pl.DataFrame], pl.DataFrame] | None = None,
) -> pl.DataFrame:
    """The rows of `part` (the stream's next rows) that `stride` keeps, with their position `i` in the
    stream; `rows` turns the picked rows of `part` into the rows to keep (default: as they are)."""
    start = stride.seen
    step = stride.grow(part.height)
    offset = -start % step
    picked = part.gather_every(step, offset) if offset < part.height else part.clear()
    if rows is not None:
        picked = rows(picked)
    first = start + offset
    return picked.select(
        pl.int_range(first, first + step * picked.height, step, dtype=pl.Int64).alias("i"), pl.all()
    )


def _snap_low(a: float, least: float) -> tuple[float, int | None]:
    """The lower end of an axis drawn for a big run: `a` when no value lies below it, else the grid edge
    at or below `a`; with the smallest cell still inside (None: no bound)."""
    if a <= least:
        return a, None
    j = bisect.bisect_right(_GRID_EDGES, a) - 1
    if j < 0:  # below the grid, and a value below that: the range starts at the smallest value
        return least, None
    return _GRID_EDGES[j], 2 * j + 1


def _snap_high(b: float, most: float) -> tuple[float, int | None]:
    if b >= most:
        return b, None
    j = bisect.bisect_left(_GRID_EDGES, b)
    if j >= len(_GRID_EDGES):
        return most, None
    return _GRID_EDGES[j], 2 * j + 1


class ChartTotals:
    """The charts' aggregates, summed a chunk at a time, so a streamed run never holds its rows for them.

    Chunks are fed in input order. Memory holds, whatever the number of rows: one row of counts per
    (industry, risk level, score bin, has PE and ROE), at most 2 x max_points dots per risk level,
    SAMPLE_POINTS PE/ROE points and one count per occupied cell of the PE/ROE grid (_GRID_EDGES): a few MB
    at most, however many rows (a million rows in 50,000-row chunks: about 7 MiB of peak RSS over 100 rows,
    with the allocator returning freed pages at once).

    Every count is exact and equal to what one pass over all the rows gives (levels, score histogram,
    industries and 其他, rows with values, dots shown). The dots are every 2^k-th row of each risk level
    (k fixed by how many rows that level has), then evenly picked among those: the same rows for the same
    input, however it was chunked. The axis range is the 2nd-98th percentile of the PE and ROE values:
    exact while a run has at most SAMPLE_POINTS rows with both; beyond that, the percentiles of an evenly
    spaced sample of them, the range then widened to the next edges of the PE/ROE grid so that the
    `outside` count, read from the grid, is exact for the range drawn.
    """

    def __init__(
        self,
        thresholds: Sequence[Threshold] = (),
        score_range: tuple[float, float] = (0.0, 100.0),
        max_points: int = MAX_SCATTER_POINTS,
        scale: LevelScale = levels_mod.DEFAULT,
    ) -> None:
        self.thresholds = list(thresholds)
        self.scale = scale
        self.lo, hi = score_range
        self.width = (hi - self.lo) / SCORE_BINS or 1.0
        self.max_points = max_points
        self.rows = 0
        self._pending: list[pl.DataFrame] = []
        self._pending_rows = 0
        self._cells = _Counts(_CELL_SCHEMA)
        self._grid = _Counts(_GRID_SCHEMA)
        self._sample = _Stride(SAMPLE_POINTS)
        self._dots: dict[str | None, _Stride] = {}
        self._extent: list[float] | None = None
        """Smallest and largest x, then y, of the rows with both."""

    def add(self, chunk: pl.DataFrame) -> None:
        """Count one chunk (CHART_COLUMNS; a missing column counts as all null; other columns ignored)."""
        present = [c for c in CHART_COLUMNS if c in chunk.columns]
        frame = chunk.select(
            *(pl.col(c) for c in present),
            *(pl.lit(None).alias(c) for c in CHART_COLUMNS if c not in present),
        ).select(
            pl.col("industry").cast(pl.String),
            pl.col("risk_level").cast(pl.String),
            pl.col("score").cast(pl.Float64, strict=False),
            pl.col("pe_ttm").cast(pl.Float64, strict=False),
            pl.col("roe").cast(pl.Float64, strict=False),
        )
        self.rows += frame.height
        self._pending.append(frame)
        self._pending_rows += frame.height
        if self._pending_rows >= _BATCH_ROWS:
            self._flush()

    def _flush(self) -> None:
        if not self._pending:
            return
        frame = pl.concat(self._pending, rechunk=True) if len(self._pending) > 1 else self._pending[0]
        self._pending, self._pending_rows = [], 0
        finite = pl.col("pe_ttm").is_finite() & pl.col("roe").is_finite()
        score_bin = ((pl.col("score") - self.lo) / self.width).floor().clip(0, SCORE_BINS - 1)
        cells = (
            frame.lazy()
            .group_by(
                "industry",
                "risk_level",
                score_bin.cast(pl.Int32).alias("bin"),
                finite.fill_null(False).alias("both"),
            )
            .agg(pl.len().cast(pl.Int64))
            .collect()
        )
        self._cells.add(cells)
        both = frame.filter(finite).select(
            "risk_level", pl.col("pe_ttm").alias("x"), pl.col("roe").alias("y")
        )
        if not both.height:
            return
        xs, ys = both.get_column("x"), both.get_column("y")
        ext = [float(v) for v in (xs.min(), xs.max(), ys.min(), ys.max())]  # type: ignore[arg-type]
        if self._extent is not None:
            e = self._extent
            ext = [min(e[0], ext[0]), max(e[1], ext[1]), min(e[2], ext[2]), max(e[3], ext[3])]
        self._extent = ext
        # Eager binary searches and group-by: a third of the time of the same inside one lazy select.
        k = _cell(xs) * _GRID_CELLS + _cell(ys)
        grid = pl.DataFrame({"k": k}).group_by("k").agg(pl.len().cast(pl.Int64))
        self._grid.add(grid)
        self._sample.extend(_every(both.select("x", "y"), self._sample))
        # Each level's row positions (cheaper than splitting the frame), of which the stride keeps a few.
        groups = (
            both.select("risk_level").with_row_index("p").group_by("risk_level", maintain_order=True).agg("p")
        )
        xy = both.select("x", "y")
        for lv, positions in zip(groups.get_column("risk_level"), groups.get_column("p"), strict=True):
            dots = self._dots.setdefault(lv, _Stride(2 * self.max_points))
            dots.extend(_every(positions.to_frame(), dots, lambda kept: xy[kept.to_series()]))

    def held(self) -> int:
        """Rows of counts, samples and pending input this accumulator holds: bounded, whatever was added."""
        frames = [*self._cells.parts, *self._grid.parts, *self._pending]
        frames += [s.kept for s in (self._sample, *self._dots.values()) if s.kept is not None]
        return sum(f.height for f in frames)

    def result(self, total: int) -> ChartData:
        """The aggregates of every row added so far; `total`: the run's screened rows (run.json)."""
        self._flush()
        cells = self._cells.frame()
        scores, scored = _scores(cells)
        top, table, other, n_other = _industries(cells)
        with_values = _level_counts(cells.filter(pl.col("both")))
        return ChartData(
            total=max(total, self.rows),
            rows=self.rows,
            levels=_level_counts(cells),
            score_edges=[self.lo + i * self.width for i in range(SCORE_BINS + 1)],
            scores=scores,
            scored=scored,
            industries=top,
            by_industry=table,
            other=other,
            other_industries=n_other,
            scatter=self._scatter(with_values),
            scale=self.scale,
        )

    def _scatter(self, counts: dict[str | None, int]) -> Scatter:
        """`counts`: rows with both PE and ROE, by risk level."""
        marks_x = [t.value for t in self.thresholds if t.field == "pe_ttm"]
        marks_y = [t.value for t in self.thresholds if t.field == "roe"]
        n = sum(counts.values())
        sample = self._sample.frame(_POINT_SCHEMA)
        q = _percentiles(sample)
        x_range = _bounds(q["xlo"], q["xhi"], marks_x)
        y_range = _bounds(q["ylo"], q["yhi"], marks_y)
        if self._sample.complete:  # every point is here: the range and the count are exact as they are
            inside = pl.col("x").is_between(*x_range) & pl.col("y").is_between(*y_range)
            outside = n - sample.select(inside.sum()).item() if n else 0
        else:
            x_range, y_range, outside = self._grid_range(x_range, y_range, n)
        points: dict[str | None, list[tuple[float, float]]] = {}
        for lv, k in _quotas(counts, self.max_points).items():
            if not k:
                continue
            kept = self._dots[lv].frame(_POINT_SCHEMA)
            # Evenly spaced in pool order: the same rows on every rerun of the same pool, no random draw.
            m = kept.height
            picked = kept[[i * m // k for i in range(k)]]
            xs = picked["x"].clip(*x_range).to_list()
            ys = picked["y"].clip(*y_range).to_list()
            points[lv] = list(zip(xs, ys, strict=True))
        shown = sum(len(p) for p in points.values())
        return Scatter(points, x_range, y_range, n, shown, outside)

    def _grid_range(
        self, x_range: tuple[float, float], y_range: tuple[float, float], n: int
    ) -> tuple[tuple[float, float], tuple[float, float], int]:
        """The range widened to grid edges, and the rows outside it counted from the grid."""
        assert self._extent is not None
        xmin, xmax, ymin, ymax = self._extent
        (xa, bx_lo), (xb, bx_hi) = _snap_low(x_range[0], xmin), _snap_high(x_range[1], xmax)
        (ya, by_lo), (yb, by_hi) = _snap_low(y_range[0], ymin), _snap_high(y_range[1], ymax)
        inside = pl.lit(True)
        cells = {"bx": pl.col("k") // _GRID_CELLS, "by": pl.col("k") % _GRID_CELLS}
        for col, bound, low in (
            ("bx", bx_lo, True),
            ("bx", bx_hi, False),
            ("by", by_lo, True),
            ("by", by_hi, False),
        ):
            if bound is not None:
                inside = inside & (cells[col] >= bound if low else cells[col] <= bound)
        kept = self._grid.frame().filter(inside).get_column("len").sum()
        return (xa, xb), (ya, yb), n - int(kept or 0)


class _Counts:
    """Row counts (`len`) by the other columns, summed over chunks: each chunk's counts are kept as they
    come and merged once they add up to more rows than the merged counts (and than _MERGE_ROWS), so at
    most about twice the merged counts are held and a merge is not paid on every chunk."""

    def __init__(self, schema: dict[str, pl.DataType]) -> None:
        self.keys = [c for c in schema if c != "len"]
        self.parts: list[pl.DataFrame] = [pl.DataFrame(schema=schema)]
        self.unmerged = 0

    def add(self, counts: pl.DataFrame) -> None:
        self.parts.append(counts)
        self.unmerged += counts.height
        if self.unmerged > max(_MERGE_ROWS, self.parts[0].height):
            self.frame()

    def frame(self) -> pl.DataFrame:
        if len(self.parts) > 1:
            self.parts = [pl.concat(self.parts).group_by(self.keys).agg(pl.col("len").sum())]
            self.unmerged = 0
        return self.parts[0]


_MERGE_ROWS = 16_384


def chart_data(
    frame: pl.DataFrame,
    total: int,
    thresholds: Sequence[Threshold],
    score_range: tuple[float, float] = (0.0, 100.0),
    max_points: int = MAX_SCATTER_POINTS,
) -> ChartData:
    """Aggregates of a whole frame (CHART_COLUMNS; a missing column counts as all null): ChartTotals fed
    with it as one chunk."""
    totals = ChartTotals(thresholds, score_range, max_points)
    totals.add(frame)
    return totals.result(total)


def thresholds_of(rules: RuleSet | None) -> list[Threshold]:
    """The PE and ROE thresholds of the rules in force, drawn as lines on the scatter."""
    from lmscreen.rules.ruleset import COMPARISON_OPS

    out: list[Threshold] = []
    for rule in rules.rules if rules else []:
        if (
            rule.field in ("pe_ttm", "roe")
            and rule.op in COMPARISON_OPS
            and isinstance(rule.value, (int, float))
        ):
            if not any(t.field == rule.field and t.value == rule.value for t in out):
                out.append(Threshold(rule.field, float(rule.value), rule.id))
    return out


def chart_totals(rules: RuleSet | None) -> ChartTotals:
    """A ChartTotals for a run under `rules`: their PE/ROE thresholds, score range and levels."""
    score = rules.score if rules else None
    return ChartTotals(
        thresholds_of(rules),
        (score.min, score.max) if score else (0.0, 100.0),
        scale=levels_mod.from_rules(rules),
    )
