"""The report's four charts, written as SVG on the server and inlined in the page, each with a caption
saying what share of the run it shows.

Why server-side SVG: the page must work offline under a Content-Security-Policy that forbids network
requests, and stay under 3 MB for 5,000 rows; a browser chart library would add 1-5 MB of script. Text is
SVG text, so the browser draws the Chinese labels with the reader's own fonts.

Why written here and not by a chart library: the charts are drawn from a handful of aggregates
(chart_data.py), so the cost is the library itself. matplotlib's import alone took 0.75-1.04 s of CPU on a
loaded 2-core machine; pygal imported in 0.05-0.15 s but took ~0.3 s for the scatter's 1,000 dots (its
per-attribute configuration lookups), about the time the whole 5,500-stock market takes to screen. These
few bars, dots and axes are written in milliseconds. The shapes are the ones pygal drew (a `series
serie-N color-N` group per series; a `bar` group per bar with its value and label as `desc`; `circle.dot`s),
and the output is the same bytes for the same run. Nothing here is a script: the page's CSP allows only its
own.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from lmscreen.outputs.levels import LevelScale
from lmscreen.report.chart_data import ChartData, Threshold, level_order
from lmscreen.report.labels import level_name, text

LINE_COLOR = "#555555"
WIDTH, HEIGHT = 380, 280
LABEL_CHARS = 12
"""Industry names longer than this are cut with an ellipsis on the axis, so one long (or hostile) name
cannot squeeze the bars off a phone screen."""
GUIDE = 'stroke="#e3e3e3" stroke-width="1"'
AXIS = 'stroke="#333" stroke-width="1"'


@dataclass(frozen=True)
class Chart:
    svg: str
    note: str
    """What share of the run the chart shows, in words (the figure's caption)."""


def _n(value: int) -> str:
    return f"{value:,}"


def _colors(scale: LevelScale, levels: list[str | None]) -> list[str]:
    """Each level's colour: the run's rules name the levels, outputs.levels gives their colours."""
    return [scale.color(lv) for lv in levels]


def _name(level: str | None, lang: str) -> str:
    return level_name(level, lang) if level else text(lang)["none"]


def _count_ticks(largest: int) -> list[int]:
    """Whole-number ticks for a count axis, about six at most (no 0.5 between 0 and 1 on a small pool)."""
    step = 1
    while largest > 6 * step:
        step = _next_step(step)
    return list(range(0, max(-(-largest // step) * step, step) + 1, step))


def _next_step(step: int) -> int:
    """1, 2, 5, 10, 20, 50, ..."""
    return step * 5 // 2 if str(step)[0] == "2" else step * 2


def _join(lang: str, *parts: str) -> str:
    return ("; " if lang == "en" else "；").join(p for p in parts if p)


def _share(data: ChartData, t: dict[str, str]) -> str:
    if data.partial:
        return t["chart_part"].format(rows=_n(data.rows), total=_n(data.total))
    return t["chart_all"].format(total=_n(data.total))


def _esc(value: str) -> str:
    return value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def _cut(label: str, chars: int | None) -> str:
    return label if chars is None or len(label) <= chars else label[: chars - 1] + "…"


@dataclass(frozen=True)
class Series:
    title: str
    color: str
    values: list[int]
    colors: list[str] | None = None
    """A colour per bar (the level chart: one series, each bar its level's colour)."""


def bar_svg(
    chart_id: str,
    title: str,
    labels: list[str],
    series: list[Series],
    lang: str,
    *,
    horizontal: bool = False,
    count_title: str | None = None,
    values_on_top: bool = False,
    legend: bool = True,
    rotate: int = 0,
    label_chars: int | None = None,
    height: int = HEIGHT,
) -> str:
    """Bars (stacked when there are several series), one per label, on a count axis from 0."""
    width = WIDTH
    totals = [sum(s.values[i] for s in series) for i in range(len(labels))]
    largest = max(totals, default=0)
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" id="chart-{chart_id}" class="lm-chart" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="13">'
        f'<text class="title" x="{width / 2:g}" y="22" text-anchor="middle" font-size="16">'
        f"{_esc(title)}</text>"
    )
    if largest <= 0:
        return head + _no_data(width, height, lang) + "</svg>"
    shown = [_esc(_cut(label, label_chars)) for label in labels]
    longest = max((len(label) for label in shown), default=0)
    legend_h = 28 * math.ceil(len(series) / 4) if legend else 0
    if horizontal:
        left = 14 + 13 * min(longest, label_chars or longest) + (18 if count_title else 0)
        plot = (float(left), 38.0, float(width - 18), float(height - 28 - legend_h))
    else:
        below = 22 + (int(7.5 * longest * math.sin(math.radians(rotate))) if rotate else 0)
        left = 52 + (18 if count_title else 0)
        right = 12 + (int(7.5 * longest * math.cos(math.radians(rotate))) // 2 if rotate else 0)
        plot = (float(left), 40.0, float(width - right), float(height - below - legend_h))
    x0, y0, x1, y1 = plot
    ticks = _count_ticks(largest)
    top = ticks[-1] or 1
    out = [head]
    out.append(_count_axis(plot, ticks, horizontal, count_title))
    band = ((y1 - y0) if horizontal else (x1 - x0)) / max(len(labels), 1)
    thick = band * 0.8
    for i, label in enumerate(shown):
        centre = (y1 - band * (i + 0.5)) if horizontal else (x0 + band * (i + 0.5))
        if horizontal:
            out.append(
                f'<text class="label" x="{x0 - 6:.1f}" y="{centre + 4:.1f}" text-anchor="end">{label}</text>'
            )
        elif rotate:
            out.append(
                f'<text class="label" x="{centre:.1f}" y="{y1 + 16:.1f}" '
                f'transform="rotate({rotate} {centre:.1f} {y1 + 16:.1f})">{label}</text>'
            )
        else:
            out.append(
                f'<text class="label" x="{centre:.1f}" y="{y1 + 17:.1f}" text-anchor="middle">{label}</text>'
            )
    base = [0] * len(labels)
    for k, s in enumerate(series):
        out.append(f'<g class="series serie-{k} color-{k}" fill="{s.color}" fill-opacity="0.75">')
        for i, (label, value) in enumerate(zip(labels, s.values, strict=True)):
            lo, hi = base[i] / top, (base[i] + value) / top
            base[i] += value
            fill = f' fill="{s.colors[i]}"' if s.colors else ""
            if horizontal:
                y = y1 - band * (i + 0.5) - thick / 2
                rect = (
                    f'<rect x="{x0 + lo * (x1 - x0):.1f}" y="{y:.1f}" width="{(hi - lo) * (x1 - x0):.1f}" '
                    f'height="{thick:.1f}"{fill}/>'
                )
            else:
                x = x0 + band * (i + 0.5) - thick / 2
                rect = (
                    f'<rect x="{x:.1f}" y="{y1 - hi * (y1 - y0):.1f}" width="{thick:.1f}" '
                    f'height="{(hi - lo) * (y1 - y0):.1f}"{fill}/>'
                )
            out.append(
                f'<g class="bar">{rect}<desc class="value">{value:,}</desc>'
                f'<desc class="x_label">{_esc(label)}</desc></g>'
            )
        out.append("</g>")
    if values_on_top and not horizontal:
        for i, total in enumerate(totals):
            x = x0 + band * (i + 0.5)
            y = y1 - total / top * (y1 - y0) - 5
            out.append(f'<text class="value" x="{x:.1f}" y="{y:.1f}" text-anchor="middle">{total:,}</text>')
    if legend:
        out.append(_legend([(s.title, s.color) for s in series], width, height - legend_h + 8))
    out.append("</svg>")
    return "".join(out)


def _count_axis(
    plot: tuple[float, float, float, float], ticks: list[int], horizontal: bool, title: str | None
) -> str:
    x0, y0, x1, y1 = plot
    top = ticks[-1] or 1
    out = []
    for tick in ticks:
        if horizontal:
            x = x0 + tick / top * (x1 - x0)
            out.append(
                f'<line class="guide line" x1="{x:.1f}" y1="{y0:g}" x2="{x:.1f}" y2="{y1:g}" {GUIDE}/>'
                f'<text x="{x:.1f}" y="{y1 + 17:g}" text-anchor="middle">{tick:,}</text>'
            )
        else:
            y = y1 - tick / top * (y1 - y0)
            out.append(
                f'<line class="guide line" x1="{x0:g}" y1="{y:.1f}" x2="{x1:g}" y2="{y:.1f}" {GUIDE}/>'
                f'<text x="{x0 - 6:g}" y="{y + 4:.1f}" text-anchor="end">{tick:,}</text>'
            )
    if horizontal:
        out.append(f'<line class="axis line" x1="{x0:g}" y1="{y0:g}" x2="{x0:g}" y2="{y1:g}" {AXIS}/>')
    else:
        out.append(f'<line class="axis line" x1="{x0:g}" y1="{y1:g}" x2="{x1:g}" y2="{y1:g}" {AXIS}/>')
    if title and not horizontal:
        mid = (y0 + y1) / 2
        out.append(
            f'<text class="title" x="14" y="{mid:g}" text-anchor="middle" '
            f'transform="rotate(-90 14 {mid:g})">{_esc(title)}</text>'
        )
    return '<g class="axis">' + "".join(out) + "</g>"


def _legend(items: list[tuple[str, str]], width: int, y: float) -> str:
    """Coloured squares and names, four to a line, left to right."""
    out = ['<g class="legends">']
    step = (width - 24) / 4
    for i, (title, color) in enumerate(items):
        x = 12 + (i % 4) * step
        row = y + 24 * (i // 4)
        out.append(
            f'<g class="legend"><rect x="{x:.1f}" y="{row:.1f}" width="12" height="12" fill="{color}"/>'
            f'<text x="{x + 17:.1f}" y="{row + 11:.1f}">{_esc(title)}</text></g>'
        )
    out.append("</g>")
    return "".join(out)


def _no_data(width: int, height: int, lang: str) -> str:
    return (
        f'<text class="no_data" x="{width / 2:g}" y="{height / 2 + 10:g}" text-anchor="middle" '
        f'font-size="40" fill="#888">{_esc(text(lang)["no_data"])}</text>'
    )


def levels_chart(data: ChartData, lang: str) -> Chart:
    t = text(lang)
    levels = level_order(data.levels, data.scale)
    series = Series(
        t["count"],
        LINE_COLOR,
        [data.levels[lv] for lv in levels],
        colors=[data.scale.color(lv) for lv in levels],
    )
    svg = bar_svg(
        "svg-levels",
        t["chart_levels"],
        [_name(lv, lang) for lv in levels],
        [series],
        lang,
        count_title=t["count"],
        values_on_top=True,
        legend=False,
    )
    return Chart(svg, _share(data, t))


def scores_chart(data: ChartData, lang: str) -> Chart:
    t = text(lang)
    levels = level_order(data.scores, data.scale)
    edges = data.score_edges
    labels = [f"{a:g}–{b:g}" for a, b in zip(edges, edges[1:], strict=False)]
    series = [
        Series(_name(lv, lang), color, data.scores[lv])
        for lv, color in zip(levels, _colors(data.scale, levels), strict=True)
    ]
    svg = bar_svg("svg-scores", t["chart_scores"], labels, series, lang, count_title=t["count"], rotate=35)
    note = t["scores_note"].format(scored=_n(data.scored), rows=_n(data.rows))
    return Chart(svg, _join(lang, _share(data, t), note))


def industry_chart(data: ChartData, lang: str) -> Chart:
    t = text(lang)
    names: list[str] = [name if name is not None else t["none"] for name in data.industries]
    tables = [data.by_industry[name] for name in data.industries]
    if data.other_industries:
        names.append(t["other"])
        tables.append(data.other)
    levels = level_order({lv for table in tables for lv in table}, data.scale)
    # Drawn from the bottom up: reversed, the largest industry is on top.
    series = [
        Series(_name(lv, lang), color, [table.get(lv, 0) for table in reversed(tables)])
        for lv, color in zip(levels, _colors(data.scale, levels), strict=True)
    ]
    svg = bar_svg(
        "svg-industry",
        t["chart_industry"],
        list(reversed(names)),
        series,
        lang,
        horizontal=True,
        label_chars=LABEL_CHARS,
        height=max(HEIGHT, 22 * len(names) + 120),
    )
    merged = (
        t["industry_note"].format(n=len(data.industries), k=_n(data.other_industries))
        if data.other_industries
        else ""
    )
    return Chart(svg, _join(lang, _share(data, t), merged))


def scatter_chart(data: ChartData, thresholds: list[Threshold], lang: str) -> Chart:
    t = text(lang)
    sc = data.scatter
    levels = level_order(sc.points, data.scale)
    lines = (", " if lang == "en" else "、").join(
        f"{'PE' if th.field == 'pe_ttm' else 'ROE'} {th.value:g} ({th.rule_id})" for th in thresholds
    )
    note = _join(
        lang,
        t["scatter_note"].format(shown=_n(sc.shown), n=_n(sc.with_values), total=_n(data.total)),
        t["threshold_lines"].format(lines=lines) if thresholds else "",
        _share(data, t) if data.partial else "",
        t["outside"].format(n=_n(sc.outside)) if sc.outside else "",
    )
    return Chart(scatter_svg(data, thresholds, levels, lang), note)


SCATTER_W, SCATTER_H = 500, 440
_PLOT = (62.0, 40.0, 486.0, 338.0)
"""The plot area of the scatter (left, top, right, bottom), in the SVG's own units."""


def scatter_svg(data: ChartData, thresholds: list[Threshold], levels: list[str | None], lang: str) -> str:
    """The PE/ROE scatter as SVG, written directly: pygal took ~0.3 s (on a loaded 2-core machine, more)
    for the 1,000 dots, nearly all of it in its per-attribute configuration lookups, where this writes them
    in a few milliseconds. The shape is pygal's (a `series serie-N` group of `circle.dot`s per level, the
    axis guides, the title, the axis titles, a legend below), so the page and its readers see the same
    chart; the per-dot tooltips pygal wrote were never shown (no script) and are not written."""
    t = text(lang)
    sc = data.scatter
    left, top, right, bottom = _PLOT
    (xlo, xhi), (ylo, yhi) = sc.x_range, sc.y_range
    xspan, yspan = (xhi - xlo) or 1.0, (yhi - ylo) or 1.0

    def px(x: float) -> float:
        return left + (x - xlo) / xspan * (right - left)

    def py(y: float) -> float:
        return bottom - (y - ylo) / yspan * (bottom - top)

    colors = _colors(data.scale, levels)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" id="chart-svg-scatter" class="lm-chart" '
        f'viewBox="0 0 {SCATTER_W} {SCATTER_H}" font-family="sans-serif" font-size="13">',
        f'<text class="title" x="{SCATTER_W / 2:g}" y="22" text-anchor="middle" font-size="16">'
        f"{_esc(t['chart_scatter'])}</text>",
    ]
    if not sc.shown:
        out.append(
            f'<text class="no_data" x="{SCATTER_W / 2:g}" y="{SCATTER_H / 2:g}" text-anchor="middle" '
            f'font-size="48" fill="#888">{_esc(t["no_data"])}</text></svg>'
        )
        return "".join(out)
    guide = GUIDE
    out.append('<g class="axis x">')
    for tick in _ticks(xlo, xhi):
        x = px(tick)
        out.append(
            f'<line class="guide line" x1="{x:.1f}" y1="{top:g}" x2="{x:.1f}" y2="{bottom:g}" {guide}/>'
            f'<text x="{x:.1f}" y="{bottom + 18:g}" text-anchor="middle">{tick:g}</text>'
        )
    out.append(
        f'<text class="title" x="{(left + right) / 2:g}" y="{bottom + 40:g}" text-anchor="middle">'
        f"{_esc(t['pe'])}</text></g>"
    )
    out.append('<g class="axis y">')
    for tick in _ticks(ylo, yhi):
        y = py(tick)
        out.append(
            f'<line class="guide line" x1="{left:g}" y1="{y:.1f}" x2="{right:g}" y2="{y:.1f}" {guide}/>'
            f'<text x="{left - 6:g}" y="{y + 4:.1f}" text-anchor="end">{tick:g}</text>'
        )
    mid = (top + bottom) / 2
    out.append(
        f'<text class="title" x="16" y="{mid:g}" text-anchor="middle" transform="rotate(-90 16 {mid:g})">'
        f"{_esc(t['roe'])}</text></g>"
    )
    axis = AXIS
    if xlo < 0 < xhi:
        out.append(
            f'<line class="axis line" x1="{px(0):.1f}" y1="{top:g}" x2="{px(0):.1f}" y2="{bottom:g}" {axis}/>'
        )
    if ylo < 0 < yhi:
        out.append(
            f'<line class="axis line" x1="{left:g}" y1="{py(0):.1f}" x2="{right:g}" y2="{py(0):.1f}" {axis}/>'
        )
    for i, (level, color) in enumerate(zip(levels, colors, strict=True)):
        dots = "".join(
            f'<circle class="dot" cx="{px(x):.1f}" cy="{py(y):.1f}" r="2.2"/>' for x, y in sc.points[level]
        )
        out.append(f'<g class="series serie-{i} color-{i}" fill="{color}" fill-opacity="0.8">{dots}</g>')
    for th in thresholds:
        if th.field == "pe_ttm" and xlo <= th.value <= xhi:
            x1 = x2 = px(th.value)
            y1, y2 = top, bottom
        elif th.field != "pe_ttm" and ylo <= th.value <= yhi:
            x1, x2 = left, right
            y1 = y2 = py(th.value)
        else:
            continue
        out.append(
            f'<line class="threshold" x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
            f'stroke="{LINE_COLOR}" stroke-width="1.2" stroke-dasharray="5, 4"/>'
        )
    out.append('<g class="legends">')
    step = (right - left) / max(len(levels), 1)
    for i, (level, color) in enumerate(zip(levels, colors, strict=True)):
        x = left + i * step
        out.append(
            f'<g class="legend"><rect x="{x:.1f}" y="{SCATTER_H - 30:g}" width="12" height="12" '
            f'fill="{color}"/><text x="{x + 17:.1f}" y="{SCATTER_H - 19:g}">{_esc(_name(level, lang))}'
            "</text></g>"
        )
    out.append("</g></svg>")
    return "".join(out)


def _ticks(lo: float, hi: float, most: int = 7) -> list[float]:
    """Round ticks (1, 2 or 5 times a power of ten apart) inside [lo, hi], at most `most` of them."""
    span = hi - lo
    if span <= 0:
        return [lo]
    step = 10 ** math.floor(math.log10(span / most))
    for factor in (1, 2, 5, 10):
        if span / (step * factor) <= most:
            step *= factor
            break
    first = math.ceil(lo / step - 1e-9)
    ticks = []
    k = first
    while k * step <= hi + 1e-9 * step:
        ticks.append(round(k * step, 10))
        k += 1
    return ticks


def all_charts(data: ChartData, thresholds: list[Threshold], lang: str) -> dict[str, Chart]:
    return {
        "levels": levels_chart(data, lang),
        "scores": scores_chart(data, lang),
        "industry": industry_chart(data, lang),
        "scatter": scatter_chart(data, thresholds, lang),
    }
