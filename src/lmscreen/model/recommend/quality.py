"""Expected quality of a model for a task: a published benchmark score where recorded, else an estimate.

`model recommend` ranks the models that fit and finish the job in time by how well they are expected to
do it. The measure is a published benchmark score from the catalog (`scores:` in each entry, each with its
source). Which benchmark depends on the task: for screening Chinese financial filings C-Eval and CMMLU
(Chinese exam-style knowledge) are preferred, for the other tasks MMLU-Pro (ten-option knowledge and
reasoning), MMLU after either. A ranking needs one scale, so the first benchmark of the task's ladder that
is published for at least half of the models being ranked is used, else the one published for the most;
the output says which and why.

A model without that benchmark gets an estimate, always marked as one:

- converted: from another benchmark it does have, by a straight line fitted over every catalog model that
  has both (at least CONVERT_MIN_PAIRS of them);
- size: from its parameter count alone, by a straight line in log(dense-equivalent size) fitted over every
  catalog model with a published score on the benchmark. The dense-equivalent size of a mixture of experts
  is the geometric mean of its total and active parameters, a common rule of thumb.

Both fits use the whole catalog, not only the models being ranked, so an estimate does not change with the
card. They are coarse (a newer generation beats an older one of the same size; the fit cannot know), which is
why every estimated row says so.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from lmscreen.model.catalog.models import Score
    from lmscreen.model.spec import ModelSpec

BENCHMARKS = ("C-Eval", "CMMLU", "MMLU-Pro", "MMLU")
LADDERS: dict[str, tuple[str, ...]] = {
    "screen": ("C-Eval", "CMMLU", "MMLU-Pro", "MMLU"),
    "text": ("MMLU-Pro", "MMLU", "C-Eval", "CMMLU"),
    "agent": ("MMLU-Pro", "MMLU", "C-Eval", "CMMLU"),
    "vision": ("MMLU-Pro", "MMLU", "C-Eval", "CMMLU"),
}
MIN_COVERAGE = 0.5
"""A benchmark ranks the list when it is published for at least this share of the models in it."""
CONVERT_MIN_PAIRS = 5


@dataclass(frozen=True)
class Quality:
    value: float
    """Expected score on `benchmark` (percent)."""
    benchmark: str
    basis: Literal["published", "converted", "size", "unknown"]
    detail: str
    """One phrase for the row: 'MMLU-Pro 66.3 published' or 'MMLU-Pro ~58 estimated from MMLU 85.3'."""
    source: str | None = None


@dataclass(frozen=True)
class Line:
    """y = intercept + slope × x, fitted on `n` points."""

    intercept: float
    slope: float
    n: int

    def __call__(self, x: float) -> float:
        return self.intercept + self.slope * x


def fit_line(points: Sequence[tuple[float, float]]) -> Line | None:
    """Least-squares line through (x, y) points; None with fewer than two distinct x."""
    n = len(points)
    if n < 2:
        return None
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    sxx = sum((x - mx) ** 2 for x, _ in points)
    if sxx <= 0:
        return None
    slope = sum((x - mx) * (y - my) for x, y in points) / sxx
    return Line(my - slope * mx, slope, n)


def dense_equivalent_b(spec: ModelSpec) -> float:
    """Geometric mean of total and active parameters, in billions (a dense model: its size)."""
    total = (spec.total_params or 0) / 1e9
    active = (spec.active_params or spec.total_params or 0) / 1e9
    return math.sqrt(total * active) if total and active else 0.0


def published(scores: Iterable[Score]) -> dict[str, Score]:
    """Benchmark name → its first recorded score."""
    out: dict[str, Score] = {}
    for score in scores:
        out.setdefault(score.benchmark, score)
    return out


def choose_benchmark(task: str, models: Sequence[dict[str, Score]]) -> tuple[str, str]:
    """(benchmark that ranks `models` for `task`, why it was chosen).

    A model counts for a benchmark when it publishes it or publishes one that converts to it (a fitted line,
    `catalog_scale`); the first benchmark of the task's ladder that counts for at least MIN_COVERAGE of the
    models is used, else the one that counts for the most (ties: ladder order)."""
    ladder = LADDERS.get(task, LADDERS["text"])
    if not models:
        return ladder[0], f"{ladder[0]}, the first choice for {task}"

    def counts(bench: str) -> tuple[int, int]:
        convertible = set(catalog_scale(bench).conversions)
        direct = sum(1 for m in models if bench in m)
        return direct, sum(1 for m in models if bench in m or convertible & set(m))

    table = {b: counts(b) for b in ladder}
    n = len(models)
    chosen = next((b for b in ladder if table[b][1] >= MIN_COVERAGE * n), None)
    if chosen is None:
        chosen = max(ladder, key=lambda b: (table[b][1], -ladder.index(b)))
    direct, usable = table[chosen]
    why = f"{chosen}: published for {direct} of {n}, converted from another benchmark for {usable - direct}"
    skipped = ladder[: ladder.index(chosen)]
    if skipped:
        why += (
            "; preferred " + ", ".join(f"{b} (published for {table[b][0]})" for b in skipped) + " too sparse"
        )
    return chosen, why


@dataclass(frozen=True)
class Scale:
    """How quality is estimated on one benchmark: the fits over the catalog."""

    benchmark: str
    by_size: Line | None
    conversions: dict[str, Line]


@lru_cache(maxsize=8)
def catalog_scale(benchmark: str) -> Scale:
    """Fits for `benchmark` over every catalog model with published scores."""
    from lmscreen.model.catalog.models import all_models, spec_for

    rows = [(published(e.scores), e.id) for e in all_models() if e.scores]
    size_points = []
    for scores, model_id in rows:
        if benchmark in scores:
            size = dense_equivalent_b(spec_for(model_id))
            if size > 0:
                size_points.append((math.log(size), scores[benchmark].value))
    conversions = {}
    for other in BENCHMARKS:
        if other == benchmark:
            continue
        pairs = [(s[other].value, s[benchmark].value) for s, _ in rows if other in s and benchmark in s]
        line = fit_line(pairs) if len(pairs) >= CONVERT_MIN_PAIRS else None
        if line is not None:
            conversions[other] = line
    return Scale(benchmark, fit_line(size_points), conversions)


def expected_quality(scores: dict[str, Score], spec: ModelSpec, benchmark: str) -> Quality:
    """Published score on `benchmark`, else converted from another benchmark, else estimated from size."""
    if benchmark in scores:
        s = scores[benchmark]
        return Quality(s.value, benchmark, "published", f"{benchmark} {s.value:g} published", s.source)
    scale = catalog_scale(benchmark)
    for other in BENCHMARKS:
        if other in scores and other in scale.conversions:
            line = scale.conversions[other]
            value = _clamp(line(scores[other].value))
            return Quality(
                value,
                benchmark,
                "converted",
                f"{benchmark} ~{value:.0f} converted from {other} {scores[other].value:g} "
                f"(no {benchmark} published; line over {line.n} catalog models with both)",
                scores[other].source,
            )
    size = dense_equivalent_b(spec)
    if size > 0 and scale.by_size is not None:
        value = _clamp(scale.by_size(math.log(size)))
        moe = spec.active_params and spec.total_params and spec.active_params < spec.total_params
        what = f"{size:.1f}B dense-equivalent" if moe else f"{size:.1f}B parameters"
        return Quality(
            value,
            benchmark,
            "size",
            f"{benchmark} ~{value:.0f} estimated from size, {what} "
            f"(no score published; line over {scale.by_size.n} catalog models)",
        )
    return Quality(0.0, benchmark, "unknown", "no published score and no parameter count: quality unknown")


def _clamp(value: float) -> float:
    return round(min(max(value, 0.0), 100.0), 1)
