"""The report's four charts, drawn on the server and inlined as SVG (the three bar charts by pygal, the
PE/ROE scatter written directly: see scatter_svg), each with a caption saying what share of the run it
shows.

Why server-side SVG: the page must work offline under a Content-Security-Policy that forbids network
requests, and stay under 3 MB for 5,000 rows; a browser chart library would add 1-5 MB of script. pygal
writes text as SVG text, so the browser draws the Chinese labels with the reader's own fonts.

Why pygal and not matplotlib: the charts are drawn from a handful of aggregates (chart_data.py), so the
cost is the library itself. On a loaded 2-core machine matplotlib's import alone took 0.75-1.04 s of CPU and
drawing four such charts 0.47-0.77 s (no constrained layout); pygal imports in 0.05-0.15 s and draws the
three bar charts in ~0.05 s and 1,000 dots in 0.17-0.27 s.

pygal's own tooltip script (an inline `<script>` plus a link to a hosted file) is never written: `js=[]`
drops the link and an XML filter removes the inline config script and the generator comments, so the CSP
that pins the page's single script sees no other.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from lmscreen.outputs.levels import LevelScale
from lmscreen.report.chart_data import ChartData, Threshold, level_order
from lmscreen.report.labels import level_name, text

LINE_COLOR = "#555555"
WIDTH, HEIGHT = 380, 280
LABEL_CHARS = 12
"""Industry names longer than this are cut with an ellipsis on the axis, so one long (or hostile) name
cannot squeeze the bars off a phone screen."""


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


def _strip(drop: tuple[str, ...]):
    """An XML filter removing pygal's scripts, comments and the `drop` tags (works with lxml and etree)."""

    def run(root: Any) -> Any:
        for parent in list(root.iter()):  # listed first: removing while iterating ends the walk early
            for child in list(parent):
                tag = child.tag if isinstance(child.tag, str) else ""
                local = tag.rsplit("}", 1)[-1]
                if not tag or local == "script" or local in drop:
                    parent.remove(child)
        return root

    return run


def _round_dots(root: Any) -> Any:
    """Dot centres to 0.1 px (pygal writes 16 digits): half the scatter's bytes, the same picture."""
    for el in root.iter():
        if isinstance(el.tag, str) and el.tag.rsplit("}", 1)[-1] == "circle":
            for key in ("cx", "cy"):
                el.set(key, f"{float(el.get(key)):.1f}")
            el.set("class", "dot")
    return root


def _chart(kind: str, chart_id: str, colors: list[str], lang: str, drop: tuple[str, ...] = (), **config: Any):
    import pygal
    from pygal.style import Style

    style = Style(
        colors=tuple(colors),
        background="transparent",
        plot_background="transparent",
        font_family="sans-serif",
        title_font_size=16,
        label_font_size=13,
        major_label_font_size=13,
        legend_font_size=13,
        value_font_size=13,
        tooltip_font_size=11,
        guide_stroke_color="#e3e3e3",
        major_guide_stroke_color="#e3e3e3",
        guide_stroke_dasharray="none",
        major_guide_stroke_dasharray="none",
    )
    config.setdefault("width", WIDTH)
    config.setdefault("height", HEIGHT)
    # At the bottom unless set: pygal places a bottom legend below an x-axis title without room for it.
    config.setdefault("legend_at_bottom", "x_title" not in config)
    chart = getattr(pygal, kind)(
        style=style,
        js=[],
        disable_xml_declaration=True,
        no_data_text=text(lang)["no_data"],
        legend_at_bottom_columns=4,
        truncate_legend=-1,
        **config,
    )
    chart.uuid = chart_id  # the SVG's id and its CSS prefix: fixed, so a rerun writes the same bytes
    chart.xml_filters.append(_strip(drop))
    return chart


def _count_ticks(largest: int) -> list[int]:
    """Whole-number ticks for a count axis, about six at most: pygal's own scale puts 0.5 between 0 and 1
    on a small pool (labelled as a rounded count) and every integer up to 16 on a medium one."""
    step = 1
    while largest > 6 * step:
        step = _next_step(step)
    return list(range(0, max(-(-largest // step) * step, step) + 1, step))


def _count_axis(chart: Any, largest: int) -> None:
    """Whole-number ticks on the count axis; none on an empty chart (pygal fails on labels with no
    data, and draws its "no data" text instead)."""
    if largest > 0:
        chart.y_labels = _count_ticks(largest)


def _next_step(step: int) -> int:
    """1, 2, 5, 10, 20, 50, ..."""
    return step * 5 // 2 if str(step)[0] == "2" else step * 2


def _join(lang: str, *parts: str) -> str:
    return ("; " if lang == "en" else "；").join(p for p in parts if p)


def _share(data: ChartData, t: dict[str, str]) -> str:
    if data.partial:
        return t["chart_part"].format(rows=_n(data.rows), total=_n(data.total))
    return t["chart_all"].format(total=_n(data.total))


def levels_chart(data: ChartData, lang: str) -> Chart:
    t = text(lang)
    levels = level_order(data.levels, data.scale)
    chart = _chart(
        "Bar",
        "svg-levels",
        [LINE_COLOR],
        lang,
        title=t["chart_levels"],
        show_legend=False,
        print_values=True,
        print_values_position="top",
        value_formatter=lambda v: f"{v:,.0f}",
        y_title=t["count"],
    )
    chart.x_labels = [_name(lv, lang) for lv in levels]
    _count_axis(chart, max(data.levels.values(), default=0))
    chart.add(t["count"], [{"value": data.levels[lv], "color": data.scale.color(lv)} for lv in levels])
    return Chart(chart.render(is_unicode=True), _share(data, t))


def scores_chart(data: ChartData, lang: str) -> Chart:
    t = text(lang)
    levels = level_order(data.scores, data.scale)
    chart = _chart(
        "StackedBar",
        "svg-scores",
        _colors(data.scale, levels),
        lang,
        title=t["chart_scores"],
        value_formatter=lambda v: f"{v:,.0f}",
        y_title=t["count"],
        truncate_label=-1,
        x_label_rotation=35,
    )
    edges = data.score_edges
    chart.x_labels = [f"{a:g}–{b:g}" for a, b in zip(edges, edges[1:], strict=False)]
    _count_axis(chart, max(map(sum, zip(*data.scores.values(), strict=True)), default=0))
    for lv in levels:
        chart.add(_name(lv, lang), data.scores[lv])
    note = t["scores_note"].format(scored=_n(data.scored), rows=_n(data.rows))
    return Chart(chart.render(is_unicode=True), _join(lang, _share(data, t), note))


def industry_chart(data: ChartData, lang: str) -> Chart:
    t = text(lang)
    names: list[str] = [name if name is not None else t["none"] for name in data.industries]
    tables = [data.by_industry[name] for name in data.industries]
    if data.other_industries:
        names.append(t["other"])
        tables.append(data.other)
    levels = level_order({lv for table in tables for lv in table}, data.scale)
    chart = _chart(
        "HorizontalStackedBar",
        "svg-industry",
        _colors(data.scale, levels),
        lang,
        title=t["chart_industry"],
        height=max(HEIGHT, 22 * len(names) + 120),
        truncate_label=LABEL_CHARS,
        value_formatter=lambda v: f"{v:,.0f}",
    )
    # pygal draws the first label at the bottom: reversed, the largest industry is on top.
    chart.x_labels = list(reversed(names))
    _count_axis(chart, max((sum(table.values()) for table in tables), default=0))
    for lv in levels:
        chart.add(_name(lv, lang), [table.get(lv, 0) for table in reversed(tables)])
    merged = (
        t["industry_note"].format(n=len(data.industries), k=_n(data.other_industries))
        if data.other_industries
        else ""
    )
    return Chart(chart.render(is_unicode=True), _join(lang, _share(data, t), merged))


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
    guide = 'stroke="#e3e3e3" stroke-width="1"'
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
    axis = 'stroke="#333" stroke-width="1"'
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
    import math

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


def _esc(value: str) -> str:
    return value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def all_charts(data: ChartData, thresholds: list[Threshold], lang: str) -> dict[str, Chart]:
    return {
        "levels": levels_chart(data, lang),
        "scores": scores_chart(data, lang),
        "industry": industry_chart(data, lang),
        "scatter": scatter_chart(data, thresholds, lang),
    }
