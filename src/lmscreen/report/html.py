"""report.html: one self-contained page (no network) summarising a finished run.

Re-rendered from the run's own files (run.json + results.jsonl), so `lmscreen report OUT_DIR` can rebuild
it at any time without the LLM. The full charted report is a separate piece of work; this page keeps every
figure traceable: each extracted number shows its evidence span from the source text.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from jinja2 import Environment, select_autoescape

from lmscreen.errors import InputError
from lmscreen.report.atomic import write_text

_TEMPLATE = """<!doctype html>
<html lang="zh"><head><meta charset="utf-8"><title>lmscreen report</title>
<style>
body{font-family:system-ui,"PingFang SC","Microsoft YaHei",sans-serif;margin:2em;color:#222}
table{border-collapse:collapse;font-size:13px}td,th{border:1px solid #ccc;padding:3px 6px;vertical-align:top}
th{background:#f3f3f3}.高{color:#b00020;font-weight:bold}.中{color:#b36b00}.低{color:#1b7a1b}.未知{color:#666}
.bar{display:inline-block;height:12px;background:#4a78c2}small{color:#666}
</style></head><body>
<h1>lmscreen screening report</h1>
<p>Input <code>{{ run.input.path }}</code> (sha256 {{ run.input.sha256[:12] }}) · rules {{ run.rules.path }}
(hash {{ run.rules.hash[:12] }}) · engine {{ engine }} · finished {{ run.finished_at }}</p>
<h2>Risk levels</h2>
<table>{% for level, n in levels %}<tr><td class="{{ level }}">{{ level }}</td><td>{{ n }}</td>
<td><span class="bar" style="width:{{ (300 * n / max_level)|round|int }}px"></span></td></tr>
{% endfor %}</table>
<p>{{ run.counts.screened }} rows screened, {{ run.counts.errors }} rejected (see errors.csv).</p>
<h2>Rows</h2>
<table><tr><th>row</th><th>code</th><th>name</th><th>risk</th><th>score</th><th>PE-TTM</th><th>ROE %</th>
<th>rules fired</th><th>extracted (evidence)</th><th>reason</th><th>flags</th><th>status</th></tr>
{% for r in rows %}<tr><td>{{ r.row }}</td><td>{{ r.code }}</td><td>{{ r.name }}</td>
<td class="{{ r.risk_level }}">{{ r.risk_level }}</td><td>{{ r.score if r.score is not none else "" }}</td>
<td>{{ r.pe_ttm if r.pe_ttm is not none else "" }}</td><td>{{ r.roe if r.roe is not none else "" }}</td>
<td><small>{{ r.rules_fired or "" }}</small></td>
<td><small>{% for f in r.evidence %}{{ f.field }} = {{ f.value }} {{ f.unit or "" }}
 «{{ f.evidence }}»<br>{% endfor %}</small></td>
<td>{{ r.reason or "" }}</td><td><small>{{ r.flags or "" }}</small></td>
<td><small>{{ r.status }}</small></td></tr>
{% endfor %}</table>
{% if truncated_rows %}<p><small>Showing the first {{ rows|length }} of {{ truncated_rows }} rows;
results.csv has all of them.</small></p>{% endif %}
</body></html>
"""

MAX_ROWS = 2000


def _evidence(rec: dict[str, Any]) -> list[dict[str, Any]]:
    fields = ((rec.get("llm") or {}).get("fields")) or {}
    out = []
    for name, f in fields.items():
        if isinstance(f, dict) and f.get("grounded"):
            out.append(
                {"field": name, "value": f.get("value"), "unit": f.get("unit"), "evidence": f.get("evidence")}
            )
    return out


def write_report(out_dir: Path) -> Path:
    run_path, results_path = out_dir / "run.json", out_dir / "results.jsonl"
    if not run_path.is_file() or not results_path.is_file():
        raise InputError(f"{out_dir}: not a finished lmscreen run (run.json / results.jsonl missing)")
    run = json.loads(run_path.read_text(encoding="utf-8"))
    rows: list[dict[str, Any]] = []
    total = 0
    with results_path.open(encoding="utf-8") as fh:
        for line in fh:
            total += 1
            if len(rows) < MAX_ROWS:
                rec = json.loads(line)
                rec["evidence"] = _evidence(rec)
                rows.append(rec)
            elif "screened" in run.get("counts", {}):
                # run.json has the row count: no need to read (and count) a million more lines
                total = int(run["counts"]["screened"])
                break
    levels = sorted(
        (run.get("counts", {}).get("risk_levels") or {}).items(), key=lambda kv: "高中低未知".find(kv[0])
    )
    engine = (run.get("llm") or {}).get("engine", {}).get("engine", "none (--no-llm)")
    env = Environment(autoescape=select_autoescape(default=True))
    html = env.from_string(_TEMPLATE).render(
        run=run,
        rows=rows,
        levels=levels,
        max_level=max([n for _, n in levels] or [1]),
        engine=engine,
        truncated_rows=total if total > len(rows) else 0,
    )
    path = out_dir / "report.html"
    write_text(path, html)
    return path
