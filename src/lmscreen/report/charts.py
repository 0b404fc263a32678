"""The report's four charts, drawn by pygal on the server and inlined as SVG, each with a caption saying what
share of the run it shows.

Why server-side SVG: the page must work offline under a Content-Security-Policy that forbids network
requests, and stay under 3 MB for 5,000 rows; a browser chart library would add 1-5 MB of script. pygal
writes text as SVG text, so the browser draws the Chinese labels with the reader's own fonts.

Why pygal and not matplotlib: the charts are drawn from a handful of aggregates (chart_data.py), so the
cost is the library itself. On a loaded 2-core machine matplotlib's import alone took 0.75-1.04 s of CPU and
drawing four such charts 0.47-0.77 s (no constrained layout); pygal imports in 0.05-0.15 s and draws the
three bar charts in ~0.05 s and 1,000 dots in 0.17-0.27 s.

pygal reads every option through `BaseGraph.__getattribute__`, which costs three nested Python calls a read;
drawing 1,000 dots reads options about 180,000 times, most of the drawing's time. `_fast` gives each chart
class a subclass (same name, so the same CSS classes) whose lookup answers the same thing in one call.

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


_FAST: dict[tuple[type, bool], type] = {}


def _no_tooltip_data(self: Any, *_args: Any, **_kwargs: Any) -> None:
    """pygal's per-dot tooltip text (`<desc>` nodes), not built for a chart whose filter removes them."""


def _fast(cls: type, tooltips: bool = True) -> type:
    """`cls` with pygal's attribute lookup in one call: the same answers as `BaseGraph.__getattribute__`
    (dunder names and `state` from the object itself; once drawing has set a state, a name the state holds
    from the state; anything else from the object), without reading `state` through itself twice.

    `tooltips=False`: the per-value `<desc>` tooltip nodes are not built at all, for a chart whose XML
    filter drops every `desc` anyway (the scatter's thousand dots: three nodes each, about a third of its
    drawing); the SVG written is the same."""
    fast = _FAST.get((cls, tooltips))
    if fast is not None:
        return fast
    from pygal.graph.base import BaseGraph

    after = cls.__mro__[cls.__mro__.index(BaseGraph) + 1 :]
    get = next(c.__dict__["__getattribute__"] for c in after if "__getattribute__" in c.__dict__)
    """What BaseGraph's own lookup defers to (`super(BaseGraph, self).__getattribute__`)."""

    def __getattribute__(self: Any, name: str) -> Any:  # noqa: N807 - the hook's own name
        if name.startswith("__") or name == "state":
            return get(self, name)
        try:
            state = get(self, "state")
        except AttributeError:
            return get(self, name)
        if state is None or name not in state.__dict__:
            return get(self, name)
        return getattr(state, name)

    methods: dict[str, Any] = {"__getattribute__": __getattribute__}
    if not tooltips:
        methods["_tooltip_data"] = _no_tooltip_data
    fast = _FAST[(cls, tooltips)] = type(cls.__name__, (cls,), methods)
    return fast


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
    chart = _fast(getattr(pygal, kind), tooltips="desc" not in drop)(
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
    chart = _chart(
        "XY",
        "svg-scatter",
        _colors(data.scale, levels) + [LINE_COLOR] * len(thresholds),
        lang,
        ("desc",),  # per-dot tooltip text: a third of the SVG's bytes, and no script here shows it
        title=t["chart_scatter"],
        width=500,
        height=440,
        truncate_label=-1,
        stroke=False,
        dots_size=2.2,
        max_scale=7,  # ticks: more would run together on a phone
        xrange=sc.x_range,
        range=sc.y_range,
        x_title=t["pe"],
        y_title=t["roe"],
        value_formatter=lambda v: f"{v:g}",
    )
    chart.xml_filters.append(_round_dots)
    for lv in levels:
        chart.add(_name(lv, lang), sc.points[lv])
    (xlo, xhi), (ylo, yhi) = sc.x_range, sc.y_range
    for th in thresholds:
        line = (
            [(th.value, ylo), (th.value, yhi)] if th.field == "pe_ttm" else [(xlo, th.value), (xhi, th.value)]
        )
        # Untitled, so out of the legend (which stays short enough for a phone); the caption names them.
        chart.add(None, line, stroke=True, show_dots=False, stroke_style={"width": 1.2, "dasharray": "5, 4"})
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
    return Chart(chart.render(is_unicode=True), note)


def all_charts(data: ChartData, thresholds: list[Threshold], lang: str) -> dict[str, Chart]:
    return {
        "levels": levels_chart(data, lang),
        "scores": scores_chart(data, lang),
        "industry": industry_chart(data, lang),
        "scatter": scatter_chart(data, thresholds, lang),
    }
