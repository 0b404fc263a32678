"""compare.html and compare.md: the trends as charts and tables, every point linked to its sentences.

The same page rules as report.html (report/html.py): one offline file, the shared Content-Security-Policy
(no network request; only the page's own small script runs, pinned by its hash), Jinja's autoescape for
every text from a document. A chart point is an SVG link to `#ev-N`, the section that lists the sentences
the point came from (the number highlighted, the document and page); CSS `:target` shows it, so a click
works even where the script does not run. Charts are pygal's (report/charts.py), one per metric with one
line per industry (the median, its min and max dashed in the same colour, `n=` under each point), and a
small one per company.

The comparison comes from task/compare (aggregate.Comparison: industries, specs, periods, series, trends);
report/ may not import task/ (the layers contract), so it is read by its attributes, typed `Any` here.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from lmscreen.outputs.atomic import write_text
from lmscreen.report.charts import _chart
from lmscreen.report.html import _asset, environment, page_csp
from lmscreen.report.markdown import cell

PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf")
TEXT = {
    "zh": {
        "title": "行业对比",
        "narrative": "对比结论",
        "source": "撰写",
        "trends": "行业趋势",
        "companies": "公司",
        "documents": "文件",
        "evidence": "出处",
        "period": "期间",
        "industry": "行业",
        "metric": "指标",
        "median": "中位数",
        "n": "公司数",
        "stated": "行业报告所述",
        "stated_short": "报告",
        "flags": "标记",
        "page": "页",
        "value": "数值",
        "conflict": "冲突",
        "min": "最小",
        "max": "最大",
        "kind": "类别",
        "reason": "说明",
    },
    "en": {
        "title": "Industry comparison",
        "narrative": "Comparison",
        "source": "written by",
        "trends": "Industry trends",
        "companies": "Companies",
        "documents": "Documents",
        "evidence": "Evidence",
        "period": "period",
        "industry": "industry",
        "metric": "metric",
        "median": "median",
        "n": "n",
        "stated": "stated by a report",
        "stated_short": "report",
        "flags": "flags",
        "page": "page",
        "value": "value",
        "conflict": "conflict",
        "min": "min",
        "max": "max",
        "kind": "kind",
        "reason": "note",
    },
}


_FLAG_ZH = {"missing": "缺失", "n<2": "不足2家", "forecast": "预测", "stated_conflict": "报告所述冲突"}


def _metric_label(spec: Any, lang: str) -> str:
    """The metric as a reader names it on the page (trends.csv keeps the column name)."""
    return spec.zh if lang == "zh" else spec.en


def _flags_label(flags: str | None, lang: str) -> str:
    """trends.csv's flags in the page's language: `missing` reads 缺失 on a Chinese page."""
    if not flags or lang != "zh":
        return flags or ""
    out = []
    for flag in flags.split(";"):
        head, _, rest = flag.partition(":")
        out.append(f"冲突:{rest}" if head == "conflict" and rest else _FLAG_ZH.get(flag, flag))
    return "；".join(out)


def _fmt(value: float | None, spec: Any) -> str:
    if value is None:
        return "—"
    return f"{value:.2f}%" if spec.percent else f"{value / 1e8:.2f}亿元"


def _quote(ev: Any) -> dict[str, Any]:
    p = ev.point
    return {
        "document": ev.document,
        "page": p.page,
        "before": p.before,
        "hit": p.hit,
        "after": p.after,
        "value": p.value,
    }


class _Ids:
    def __init__(self) -> None:
        self.sections: list[dict[str, Any]] = []

    def add(self, title: str, quotes: list[dict[str, Any]]) -> str:
        ident = f"ev-{len(self.sections) + 1}"
        self.sections.append({"id": ident, "title": title, "quotes": quotes})
        return ident


def _trend_section(ids: _Ids, c: Any, comparison: Any, spec: Any) -> str:
    quotes: list[dict[str, Any]] = []
    for s in comparison.series:
        if (s.industry, s.metric, s.period) == (c.industry, c.metric, c.period):
            for ev in s.evidence:
                quotes.append({**_quote(ev), "code": s.code, "name": s.name, "conflict": s.conflict})
    for ev in c.stated_evidence:
        quotes.append({**_quote(ev), "code": "", "name": "", "stated": True, "conflict": c.stated_conflict})
    title = f"{c.industry} · {spec.zh} · {c.period}: {_fmt(c.median, spec)} (n={c.n})"
    return ids.add(title, quotes)


def _metric_chart(comparison: Any, spec: Any, ids: _Ids, lang: str) -> str:
    periods = comparison.periods
    colors: list[str] = []
    series: list[tuple[str, list[Any], dict[str, Any]]] = []
    for k, industry in enumerate(comparison.industries):
        color = PALETTE[k % len(PALETTE)]
        cells = {c.period: c for c in comparison.trends if c.industry == industry and c.metric == spec.name}
        medians: list[Any] = []
        for period in periods:
            c = cells.get(period)
            if c is None or c.median is None:
                medians.append(None)
                continue
            ident = _trend_section(ids, c, comparison, spec)
            n = c.n
            medians.append(
                {
                    "value": round(c.median, 4),
                    "formatter": lambda _v, n=n: f"n={n}",
                    "xlink": {"href": f"#{ident}", "target": "_self"},
                    "label": f"{industry} {period}",
                }
            )
        series.append((industry, medians, {"stroke_style": {"width": 3}}))
        colors.append(color)
        stated = [
            None if (c := cells.get(p)) is None or c.stated is None else round(c.stated, 4) for p in periods
        ]
        if any(v is not None for v in stated):
            series.append(
                (f"{industry} {TEXT[lang]['stated_short']}", stated, {"stroke": False, "dots_size": 4})
            )
            colors.append(color)
        for bound in ("min", "max"):
            vals = [
                None if (c := cells.get(p)) is None or not c.values else round(c.row()[bound], 4)
                for p in periods
            ]
            series.append(
                (
                    f"{industry} {TEXT[lang][bound]}",
                    vals,
                    {"stroke_style": {"width": 1, "dasharray": "4,3"}, "show_dots": False},
                )
            )
            colors.append(color)
    chart = _chart(
        "Line",
        f"chart-{spec.name}",
        colors,
        lang,
        width=560,
        height=320,
        print_values=True,
        print_values_position="bottom",
        allow_interruptions=True,
        show_legend=True,
        legend_at_bottom=True,
        title=spec.zh if lang == "zh" else spec.en,
    )
    chart.x_labels = periods
    for title, vals, cfg in series:
        chart.add(title, vals, **cfg)
    return chart.render(is_unicode=True)


def _company_chart(cells: list[Any], spec: Any, periods: list[str], ids: _Ids, lang: str) -> str:
    by_period = {c.period: c for c in cells}
    vals: list[Any] = []
    for period in periods:
        c = by_period.get(period)
        if c is None or c.value is None:
            vals.append(None)
            continue
        ident = ids.add(
            f"{c.name or c.code} · {spec.zh} · {period}: {_fmt(c.value, spec)}",
            [_quote(e) for e in c.evidence],
        )
        vals.append({"value": round(c.value, 4), "xlink": {"href": f"#{ident}", "target": "_self"}})
    first = cells[0]
    chart = _chart(
        "Line", f"co-{first.code}-{spec.name}", [PALETTE[0]], lang, width=280, height=190,
        show_legend=False, allow_interruptions=True, title=f"{first.name or first.code} {spec.zh}",
        y_labels_major_count=4, show_minor_y_labels=False, truncate_label=-1, x_label_rotation=30,
    )  # fmt: skip
    chart.x_labels = periods
    chart.add(first.code, vals)
    return chart.render(is_unicode=True)


def render_compare_html(
    comparison: Any, narrative: str, source: str, documents: list[dict[str, Any]], lang: str = "zh"
) -> str:
    ids = _Ids()
    t = TEXT[lang]
    charts = [{"metric": s, "svg": _metric_chart(comparison, s, ids, lang)} for s in comparison.specs]
    companies = []
    codes = sorted({s.code for s in comparison.series})
    for code in codes:
        mine = [s for s in comparison.series if s.code == code]
        for spec in comparison.specs:
            cells = [s for s in mine if s.metric == spec.name]
            if cells:
                svg = _company_chart(cells, spec, comparison.periods, ids, lang)
                companies.append(
                    {"code": code, "name": cells[0].name, "industry": cells[0].industry, "svg": svg}
                )
    specs = {s.name: s for s in comparison.specs}
    trends = []
    for c in comparison.trends:
        spec = specs[c.metric]
        stated = _fmt(c.stated, spec) if c.stated is not None else ""
        trends.append(
            {
                **c.row(),
                "median_text": _fmt(c.median, spec),
                "stated_text": stated,
                "metric_text": _metric_label(spec, lang),
                "flags_text": _flags_label(c.row()["flags"], lang),
            }
        )
    script = _asset("compare.js")
    return environment().get_template("compare.html.j2").render(
        lang=lang, t=t, csp=page_csp(script), css=_asset("compare.css"), script=script,
        narrative=narrative, source=source, charts=charts, companies=companies, trends=trends,
        series=[{**s.row(), "metric_text": _metric_label(specs[s.metric], lang)} for s in comparison.series],
        sections=ids.sections, documents=documents,
    )  # fmt: skip


def render_compare_md(
    comparison: Any, narrative: str, source: str, documents: list[dict[str, Any]], lang: str = "zh"
) -> str:
    t = TEXT[lang]
    specs = {s.name: s for s in comparison.specs}
    lines = [f"# {t['title']}", "", narrative, "", f"_{t['source']}: {source}_", "", f"## {t['trends']}", ""]
    head = [
        t["industry"],
        t["metric"],
        t["period"],
        t["median"],
        t["min"],
        t["max"],
        t["n"],
        t["stated"],
        t["flags"],
    ]
    lines.append("| " + " | ".join(head) + " |")
    lines.append("|" + "---|" * len(head))
    for c in comparison.trends:
        r, spec = c.row(), specs[c.metric]
        vals = [c.industry, _metric_label(spec, lang), c.period, _fmt(r["median"], spec),
                _fmt(r["min"], spec), _fmt(r["max"], spec), r["n"],
                _fmt(r["stated"], spec) if r["stated"] is not None else "",
                _flags_label(r["flags"], lang)]  # fmt: skip
        lines.append("| " + " | ".join(cell(v) for v in vals) + " |")
    odd = [d for d in documents if d.get("kind") in ("unreadable", "unplaced")]
    if odd:
        lines += ["", f"## {t['documents']}", ""]
        lines += [f"- {cell(d['document'])}: {cell(d.get('reason', ''))}" for d in odd]
    return "\n".join(lines) + "\n"


def write_compare_report(
    out_dir: Path,
    comparison: Any,
    narrative: str,
    source: str,
    documents: list[dict[str, Any]],
    lang: str = "zh",
) -> Path:
    """Write compare.html and compare.md into OUT; returns the html path."""
    path = out_dir / "compare.html"
    write_text(path, render_compare_html(comparison, narrative, source, documents, lang))
    write_text(out_dir / "compare.md", render_compare_md(comparison, narrative, source, documents, lang))
    return path
