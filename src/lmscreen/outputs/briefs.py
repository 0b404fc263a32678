"""`brief`'s outputs: briefs.jsonl, briefs.md, one <code>.txt per company and briefs.html.

Each file is written whole to a temp name and renamed (outputs/atomic.py), so a killed run never leaves
half a file. The HTML is offline (no script or style from anywhere) and escapes every text it shows, a
company name with markup included; each number of a script is marked, and a click on it shows its
evidence (the span the filing prints) or its derivation.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import Any

from lmscreen.outputs.atomic import write_pieces, write_text

BRIEFS_JSONL = "briefs.jsonl"
BRIEFS_MD = "briefs.md"
BRIEFS_HTML = "briefs.html"


def text_name(code: str) -> str:
    """A code as a safe file name (`600519.SH.txt`)."""
    return re.sub(r"[^A-Za-z0-9._-]", "_", code).lstrip(".") + ".txt"


_LABELS: dict[str, dict[str, str]] = {
    "zh": {
        "title": "财报亮点脚本",
        "skipped": "跳过",
        "rejected": "模型文本未采用",
        "hint": "点击或聚焦带底色的数字，查看它在财报中的出处",
        "printed": "原文",
        "at": "位置",
        "page": "第{}页",
        "computed": "由 {} 计算",
        "inputs": "输入",
        "pool": "股票池",
        "row": "第{}行",
        "column": "列",
        "header_year": "（列名中的年份）",
        "open": "「",
        "close": "」",
        "lp": "（",
        "rp": "）",
        "sep": "，",
        "colon": "：",
        "list": "；",
        "source": {"template": "模板", "model": "模型", "pool_fields": "股票池字段", "skipped": "跳过"},
    },
    "en": {
        "title": "Earnings highlight scripts",
        "skipped": "skipped",
        "rejected": "model text rejected",
        "hint": "Click or focus a highlighted number to see where it comes from",
        "printed": "printed ",
        "at": "characters",
        "page": "page {}",
        "computed": "computed as {}",
        "inputs": "from",
        "pool": "pool",
        "row": "row {}",
        "column": "column",
        "header_year": " (the year in the column's name)",
        "open": "“",
        "close": "”",
        "lp": " (",
        "rp": ")",
        "sep": ", ",
        "colon": ": ",
        "list": "; ",
        "source": {
            "template": "template",
            "model": "model",
            "pool_fields": "pool fields",
            "skipped": "skipped",
        },
    },
}


def write_briefs(out: Path, rows: list[dict[str, Any]], lang: str = "zh") -> None:
    t = _LABELS.get(lang, _LABELS["zh"])
    write_pieces(out / BRIEFS_JSONL, (json.dumps(r, ensure_ascii=False, sort_keys=True) + "\n" for r in rows))
    md = [f"# {t['title']}\n"]
    for r in rows:
        md.append(
            f"\n## {r.get('name') or ''}（{r['code']}）\n\n"
            if lang == "zh"
            else f"\n## {r.get('name') or ''} ({r['code']})\n\n"
        )
        if r.get("text"):
            md.append(r["text"].replace("\n", "  \n") + "\n")
            md.append(
                f"\n<sub>source: {r['source']}"
                + (
                    f"; {t['rejected']}: {'; '.join(r['model_rejected']['reasons'])}"
                    if r.get("model_rejected")
                    else ""
                )
                + "</sub>\n"
            )
        else:
            md.append(f"*{t['skipped']}: {r.get('reason')}*\n")
    write_text(out / BRIEFS_MD, "".join(md))
    for r in rows:
        if r.get("text"):
            write_text(out / text_name(r["code"]), r["text"] + "\n")
    write_text(out / BRIEFS_HTML, render_html(rows, lang))


def _q(text: str, t: dict[str, Any]) -> str:
    return f"{t['open']}{text}{t['close']}"


def _pool_cell(p: dict[str, Any], t: dict[str, Any]) -> str:
    """A pool cell as a reader finds it: file, row, header (the column as the rules see it)."""
    header = p.get("header") or p["column"]
    where = f"{t['pool']} {Path(p['file']).name}{t['sep']}{t['row'].format(p['row'])}{t['sep']}"
    where += f"{t['column']} {_q(header, t)}"
    if header != p["column"]:
        where += f"{t['lp']}{p['column']}{t['rp']}"
    return where + (t["header_year"] if p.get("part") == "header" else f" = {p['value']:g}")


def _evidence(n: dict[str, Any], t: dict[str, Any]) -> str:
    """What a click on a number shows: the printed span, the pool cell, or the derivation and its inputs."""
    head = f"{n.get('metric')} {n.get('period') or ''}".strip() + t["colon"]
    if "evidence" in n:
        ev = n["evidence"]
        page = f"{t['sep']}{t['page'].format(ev['page'])}" if ev.get("page") else ""
        where = f"{t['lp']}{t['at']} {ev['start']}–{ev['end']}{page}{t['rp']}"
        return f"{head}{t['printed']}{_q(ev['text'], t)}{where}"
    if "pool" in n:
        return head + _pool_cell(n["pool"], t)
    d = n.get("derivation") or {}
    ins = []
    for i in d.get("inputs", []):
        if "pool" in i:
            ins.append(_pool_cell(i["pool"], t))
            continue
        ev = i["evidence"]
        page = f"{t['lp']}{t['page'].format(ev['page'])}{t['rp']}" if ev.get("page") else ""
        ins.append(f"{i['metric']} {i.get('period') or ''} {i['basis']} {_q(ev['text'], t)}{page}")
    return f"{head}{t['computed'].format(d.get('formula'))}{t['sep']}{t['inputs']}{t['colon']}" + t[
        "list"
    ].join(ins)


def _marked(text: str, numbers: list[dict[str, Any]], t: dict[str, Any]) -> str:
    parts, pos = [], 0
    for n in sorted(numbers, key=lambda n: n["start"]):
        parts.append(html.escape(text[pos : n["start"]]))
        ev = html.escape(_evidence(n, t), quote=True)
        kind = "pool" if "pool" in n else "derived" if "derivation" in n else "printed"
        said = html.escape(text[n["start"] : n["end"]])
        parts.append(f'<mark tabindex="0" class="{kind}" data-ev="{ev}">{said}</mark>')
        pos = n["end"]
    parts.append(html.escape(text[pos:]))
    return "".join(parts).replace("\n", "<br>")


_STYLE = (
    "body{font-family:sans-serif;max-width:48em;margin:auto;padding:1em;line-height:1.6}"
    "mark{cursor:pointer}"
    ".src{color:#666;font-size:.85em}#ev{position:sticky;bottom:0;background:#ffd;padding:.5em;min-height:1.5em}"
)


def render_html(rows: list[dict[str, Any]], lang: str = "zh") -> str:
    t = _LABELS.get(lang, _LABELS["zh"])
    body = []
    for r in rows:
        code = f"（{html.escape(r['code'])}）" if lang == "zh" else f" ({html.escape(r['code'])})"
        head = f"<h2>{html.escape(r.get('name') or '')}{code}</h2>"
        if r.get("text"):
            note = f"<p class=src>source: {html.escape(t['source'].get(r['source'], r['source']))}"
            if r.get("model_rejected"):
                note += f"; {t['rejected']}: " + html.escape("; ".join(r["model_rejected"]["reasons"]))
            body.append(
                f"<section>{head}<p>{_marked(r['text'], r.get('numbers') or [], t)}</p>{note}</p></section>"
            )
        else:
            why = html.escape(str(r.get("reason")))
            body.append(f"<section>{head}<p class=src>{t['skipped']}: {why}</p></section>")
    return (
        f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8"><title>{t["title"]}</title><style>'
        + _STYLE
        + f"</style></head><body><h1>{t['title']}</h1>"
        + "".join(body)
        + f'<div id="ev">{t["hint"]}</div><script>'
        "document.addEventListener('click',e=>{const m=e.target.closest('mark');"
        "if(m)document.getElementById('ev').textContent=m.dataset.ev;});"
        "</script></body></html>\n"
    )
