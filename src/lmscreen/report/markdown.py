"""report.md: the summary, the rows at the run's worst level (高 by default) and what changed since the
previous run, as Markdown tables that paste cleanly into a chat or a note. The levels, their order and
which is the worst are the run's rules' (outputs.levels), so a rules file's own level names all appear.

Cells are escaped for Markdown (a `|` in a name would split the row; `*ST` twice would turn italic; `<…>`
could be taken as HTML by a renderer) and kept on one line.
"""

from __future__ import annotations

import re
from typing import Any

from lmscreen.report import labels
from lmscreen.report.run_view import MAX_HIGH_ROWS, RunView

_SPECIAL = re.compile(r"([\\`*\[\]<>|])")


def cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        value = f"{value:,.2f}".rstrip("0").rstrip(".")
    text = " ".join(str(value).split())
    return _SPECIAL.sub(r"\\\1", text)


def _table(head: list[str], rows: list[list[Any]]) -> list[str]:
    out = ["| " + " | ".join(cell(h) for h in head) + " |", "|" + "---|" * len(head)]
    out += ["| " + " | ".join(cell(v) for v in row) + " |" for row in rows]
    return out


def render_markdown(view: RunView, lang: str = "zh") -> str:
    t = labels.text(lang)
    run = view.run
    counts = run.get("counts") or {}
    levels = counts.get("risk_levels") or {}
    lv = lambda x: labels.level_name(x, lang)  # noqa: E731
    from lmscreen.outputs.history import model_and_engine

    model, engine = model_and_engine(run)
    total_s = (run.get("timings") or {}).get("total_s")
    lines = [f"# {t['title']}", ""]
    pool = cell((run.get("input") or {}).get("path"))
    lines.append(f"{t['pool']} `{pool}` · {t['finished']} {run.get('finished_at', '')}")
    lines.append("")
    summary = ", ".join(f"{lv(k)} {levels[k]}" for k in view.levels.ordered(levels) if levels.get(k))
    lines.append(
        f"**{t['rows_screened']}** {counts.get('screened', len(view.rows))} ({summary}) · "
        f"**{t['rows_rejected']}** {counts.get('errors', 0)}"
        + (f" ({t['see_errors']})" if counts.get("errors") else "")
    )
    lines.append(
        f"**{t['model']}** {cell(model or '—')} · **{t['engine']}** {cell(engine or '—')}"
        + (f" · **{t['duration']}** {total_s:.1f} s" if isinstance(total_s, (int, float)) else "")
    )
    lines.append("")

    digest = view.rows.digest()
    if view.rows_cut:
        lines.append(t["truncated"].format(shown=f"{len(view.rows):,}", total=f"{view.total_rows:,}"))
        lines.append("")
    lines.append(f"## {labels.worst_rows_title(view.levels.worst, lang)} ({digest.high_count})")
    lines.append("")
    if digest.high:
        head = [t["code"], t["name"], t["industry"], t["score"], t["pe"], t["roe"], t["fired"], t["reason"]]
        lines += _table(head, digest.high)  # outputs.columns.WORST_ROW_FIELDS, in that order
        if digest.high_count > MAX_HIGH_ROWS:
            lines.append("")
            lines.append(f"… {digest.high_count - MAX_HIGH_ROWS} more in results.csv")
    else:
        lines.append(t["none"])
    lines.append("")

    lines.append(f"## {t['changes']}")
    lines.append("")
    if view.previous is None or view.changes is None:
        lines.append(t["no_previous"])
    elif view.changes.empty:
        lines.append(
            f"{t['previous_run']} #{view.previous.id} ({view.previous.finished_at}): {t['no_changes']}"
        )
    else:
        lines.append(f"{t['previous_run']} #{view.previous.id} ({view.previous.finished_at})")
        lines.append("")
        ch = view.changes
        if ch.changed:
            head = [t["code"], t["name"], t["risk"], t["score"], t["roe"], t["pe"]]
            body = [
                [
                    c["code"],
                    c["name"],
                    f"{lv(c['risk_level_a'])} → {lv(c['risk_level_b'])}",
                    f"{_s(c['score_a'])} → {_s(c['score_b'])}",
                    f"{_s(c['roe_a'])} → {_s(c['roe_b'])}",
                    f"{_s(c['pe_ttm_a'])} → {_s(c['pe_ttm_b'])}",
                ]
                for c in ch.changed
            ]
            lines.append(f"**{t['changed']}** ({len(ch.changed)})")
            lines.append("")
            lines += _table(head, body)
            lines.append("")
        for key in ("added", "dropped"):
            items = getattr(ch, key)
            if items:
                shown = ", ".join(
                    f"{cell(c['code'])} {cell(c['name'])} ({lv(c['risk_level'])})" for c in items
                )
                lines.append(f"**{t[key]}** ({len(items)}): {shown}")
                lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def _s(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, float):
        return f"{value:,.2f}".rstrip("0").rstrip(".")
    return str(value)
