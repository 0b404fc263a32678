"""The report's four charts, drawn by matplotlib on the server and inlined as SVG.

Why server-side SVG: the page must work offline under a Content-Security-Policy that forbids network
requests, and stay under 3 MB for 5,000 rows; a browser chart library would add 1-5 MB of script. Text is
kept as SVG text (`svg.fonttype: none`), so the browser draws the Chinese labels with the reader's own
system fonts and the file carries no glyph outlines. matplotlib's object API (no pyplot) keeps no global
state between reports.
"""

from __future__ import annotations

import io
import logging
import math
import re
import warnings
from collections import Counter
from dataclasses import dataclass
from typing import Any

from lmscreen.report.labels import level_name, text

LEVELS = ["高", "中", "低", "未知"]
COLORS = {"高": "#c62828", "中": "#ef8f00", "低": "#2e7d32", "未知": "#8a8a8a"}
_CJK_FONTS = [
    "Noto Sans CJK SC",
    "Noto Sans SC",
    "WenQuanYi Micro Hei",
    "Source Han Sans SC",
    "PingFang SC",
    "Microsoft YaHei",
    "SimHei",
    "DejaVu Sans",
]
MAX_INDUSTRIES = 12
_BEST_LEGEND_POINTS = 1_000


@dataclass(frozen=True)
class Threshold:
    field: str
    value: float
    rule_id: str


@dataclass(frozen=True)
class ChartRow:
    level: str | None
    score: float | None
    industry: str | None
    pe: float | None
    roe: float | None


def _rc() -> dict[str, Any]:
    return {
        "svg.fonttype": "none",
        "svg.hashsalt": "lmscreen",
        "font.family": "sans-serif",
        "font.sans-serif": _CJK_FONTS,
        "font.size": 10,
        "axes.spines.top": False,
        "axes.spines.right": False,
        "axes.unicode_minus": False,
        "svg.image_inline": True,
    }


def _svg(fig: Any) -> str:
    buf = io.StringIO()
    # The constrained layout already fits the labels: no second "tight" drawing pass needed.
    fig.savefig(buf, format="svg", metadata={"Date": None, "Creator": None})
    svg = buf.getvalue()
    svg = svg[svg.index("<svg") :]
    # Sized by the page's CSS (width 100%, height from the viewBox) so it shrinks on a phone.
    svg = re.sub(r'^<svg([^>]*?) width="[^"]*" height="[^"]*"', r"<svg\1", svg, count=1)
    return svg


def _figure(width: float, height: float) -> Any:
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), dpi=100, layout="constrained")


def _quiet():
    """No CJK font installed is fine (the browser draws the text), so the glyph warnings are noise."""
    logging.getLogger("matplotlib.font_manager").setLevel(logging.ERROR)
    ctx = warnings.catch_warnings()
    return ctx


def _whole_counts(axis: Any) -> None:
    from matplotlib.ticker import MaxNLocator

    axis.set_major_locator(MaxNLocator(integer=True))


def levels_chart(rows: list[ChartRow], lang: str) -> str:
    t = text(lang)
    counts = Counter(r.level for r in rows)
    levels = [lv for lv in LEVELS if counts.get(lv)] or LEVELS
    fig = _figure(4.2, 2.6)
    ax = fig.add_subplot()
    names = [level_name(lv, lang) for lv in levels]
    values = [counts.get(lv, 0) for lv in levels]
    bars = ax.bar(names, values, color=[COLORS[lv] for lv in levels])
    ax.bar_label(bars, padding=2)
    _whole_counts(ax.yaxis)
    ax.set_ylabel(t["count"])
    ax.set_title(t["chart_levels"])
    ax.margins(y=0.15)
    return _svg(fig)


def scores_chart(rows: list[ChartRow], lang: str) -> str:
    t = text(lang)
    fig = _figure(4.2, 2.6)
    ax = fig.add_subplot()
    bins = list(range(0, 101, 10))
    stacked = [[r.score for r in rows if r.level == lv and r.score is not None] for lv in LEVELS]
    present = [(lv, s) for lv, s in zip(LEVELS, stacked, strict=True) if s]
    if present:
        ax.hist(
            [s for _, s in present],
            bins=bins,
            stacked=True,
            color=[COLORS[lv] for lv, _ in present],
            label=[level_name(lv, lang) for lv, _ in present],
            edgecolor="white",
            linewidth=0.5,
        )
        ax.legend(frameon=False, fontsize=8)
    ax.set_xlim(0, 100)
    _whole_counts(ax.yaxis)
    ax.set_xlabel(t["score"])
    ax.set_ylabel(t["count"])
    ax.set_title(t["chart_scores"])
    return _svg(fig)


def industry_chart(rows: list[ChartRow], lang: str) -> str:
    t = text(lang)
    by_industry = Counter((r.industry or t["none"]) for r in rows)
    top = [name for name, _ in by_industry.most_common(MAX_INDUSTRIES)]
    rest = len(by_industry) > len(top)
    names = top + ([t["other"]] if rest else [])
    table = {name: Counter() for name in names}
    for r in rows:
        name = r.industry or t["none"]
        table[name if name in top else t["other"]][r.level] += 1
    names.reverse()  # largest on top in a horizontal bar chart
    fig = _figure(4.2, max(2.4, 0.28 * len(names) + 1.0))
    ax = fig.add_subplot()
    left = [0] * len(names)
    for lv in LEVELS:
        widths = [table[n].get(lv, 0) for n in names]
        if any(widths):
            ax.barh(names, widths, left=left, color=COLORS[lv], label=level_name(lv, lang))
            left = [a + b for a, b in zip(left, widths, strict=True)]
    _whole_counts(ax.xaxis)
    ax.set_xlabel(t["count"])
    ax.set_title(t["chart_industry"])
    ax.legend(frameon=False, fontsize=8, loc="lower right")
    return _svg(fig)


def _bounds(values: list[float], marks: list[float]) -> tuple[float, float]:
    """Axis range: the 2nd-98th percentile of the data widened to show every threshold line, so one
    PE of 3,000 does not squash everything else into a corner."""
    ordered = sorted(values)
    if ordered:
        lo = ordered[int(0.02 * (len(ordered) - 1))]
        hi = ordered[math.ceil(0.98 * (len(ordered) - 1))]
    else:
        lo = hi = 0.0
    lo, hi = min([lo, *marks]), max([hi, *marks])
    pad = (hi - lo) * 0.08 or 1.0
    return lo - pad, hi + pad


def scatter_chart(rows: list[ChartRow], thresholds: list[Threshold], lang: str) -> str:
    t = text(lang)
    points = [r for r in rows if r.pe is not None and r.roe is not None]
    pe_marks = [th.value for th in thresholds if th.field == "pe_ttm"]
    roe_marks = [th.value for th in thresholds if th.field == "roe"]
    xlo, xhi = _bounds([r.pe for r in points], pe_marks)  # type: ignore[misc]
    ylo, yhi = _bounds([r.roe for r in points], roe_marks)  # type: ignore[misc]
    fig = _figure(6.0, 4.0)
    ax = fig.add_subplot()
    outside = 0
    for lv in LEVELS:
        xs, ys = [], []
        for r in points:
            if r.level != lv:
                continue
            x, y = min(max(r.pe, xlo), xhi), min(max(r.roe, ylo), yhi)  # type: ignore[type-var]
            outside += (x, y) != (r.pe, r.roe)
            xs.append(x)
            ys.append(y)
        if xs:
            # Raster dots inside a vector chart: 5,000 SVG circles would cost ~0.5 MB.
            ax.scatter(
                xs,
                ys,
                s=12,
                color=COLORS[lv],
                alpha=0.75,
                label=level_name(lv, lang),
                rasterized=len(xs) > 400,
            )
    for th in thresholds:
        line = ax.axvline if th.field == "pe_ttm" else ax.axhline
        line(th.value, color="#555", linestyle="--", linewidth=0.8)
        if th.field == "pe_ttm":
            ax.annotate(
                f"PE {th.value:g}",
                (th.value, 1),
                xycoords=("data", "axes fraction"),
                fontsize=7,
                color="#444",
            )
        else:
            ax.annotate(
                f"ROE {th.value:g}",
                (1, th.value),
                xycoords=("axes fraction", "data"),
                fontsize=7,
                color="#444",
            )
    ax.set_xlim(xlo, xhi)
    ax.set_ylim(ylo, yhi)
    ax.set_xlabel(t["pe"])
    ax.set_ylabel(t["roe"])
    ax.set_title(t["chart_scatter"], fontsize=9)
    if len(points) > _BEST_LEGEND_POINTS:
        # loc="best" tests every dot against every spot (seconds for 10,000 dots): set it beside the axes.
        ax.legend(frameon=False, fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    elif points:
        ax.legend(frameon=False, fontsize=8, loc="best")
    if outside:
        ax.text(0, -0.2, t["outside"].format(n=outside), transform=ax.transAxes, fontsize=7, color="#444")
    return _svg(fig)


def all_charts(rows: list[ChartRow], thresholds: list[Threshold], lang: str) -> dict[str, str]:
    import matplotlib

    with _quiet():
        warnings.simplefilter("ignore")
        with matplotlib.rc_context(_rc()):
            return {
                "levels": levels_chart(rows, lang),
                "scores": scores_chart(rows, lang),
                "industry": industry_chart(rows, lang),
                "scatter": scatter_chart(rows, thresholds, lang),
            }
