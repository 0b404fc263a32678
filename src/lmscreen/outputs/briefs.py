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


def write_briefs(out: Path, rows: list[dict[str, Any]]) -> None:
    write_pieces(out / BRIEFS_JSONL, (json.dumps(r, ensure_ascii=False, sort_keys=True) + "\n" for r in rows))
    md = ["# 财报亮点脚本\n"]
    for r in rows:
        md.append(f"\n## {r.get('name') or ''}（{r['code']}）\n\n")
        if r.get("text"):
            md.append(r["text"].replace("\n", "  \n") + "\n")
            md.append(
                f"\n<sub>source: {r['source']}"
                + (
                    f"; model text rejected: {'; '.join(r['model_rejected']['reasons'])}"
                    if r.get("model_rejected")
                    else ""
                )
                + "</sub>\n"
            )
        else:
            md.append(f"*skipped: {r.get('reason')}*\n")
    write_text(out / BRIEFS_MD, "".join(md))
    for r in rows:
        if r.get("text"):
            write_text(out / text_name(r["code"]), r["text"] + "\n")
    write_text(out / BRIEFS_HTML, render_html(rows))


def _evidence(n: dict[str, Any]) -> str:
    if "evidence" in n:
        ev = n["evidence"]
        page = f"，第{ev['page']}页" if ev.get("page") else ""
        where = f"位置 {ev['start']}–{ev['end']}{page}"
        return f"{n.get('metric')} {n.get('period') or ''}：原文「{ev['text']}」（{where}）"
    d = n.get("derivation") or {}
    ins = "；".join(
        f"{i['metric']} {i.get('period') or ''} {i['basis']}「{i['evidence']['text']}」"
        for i in d.get("inputs", [])
    )
    return f"{n.get('metric')}：由 {d.get('formula')} 计算，输入：{ins}"


def _marked(text: str, numbers: list[dict[str, Any]]) -> str:
    parts, pos = [], 0
    for n in sorted(numbers, key=lambda n: n["start"]):
        parts.append(html.escape(text[pos : n["start"]]))
        ev = html.escape(_evidence(n), quote=True)
        parts.append(f'<mark tabindex="0" data-ev="{ev}">{html.escape(text[n["start"] : n["end"]])}</mark>')
        pos = n["end"]
    parts.append(html.escape(text[pos:]))
    return "".join(parts).replace("\n", "<br>")


def render_html(rows: list[dict[str, Any]]) -> str:
    body = []
    for r in rows:
        head = f"<h2>{html.escape(r.get('name') or '')}（{html.escape(r['code'])}）</h2>"
        if r.get("text"):
            note = f"<p class=src>source: {html.escape(r['source'])}"
            if r.get("model_rejected"):
                note += "；model text rejected: " + html.escape("; ".join(r["model_rejected"]["reasons"]))
            body.append(
                f"<section>{head}<p>{_marked(r['text'], r.get('numbers') or [])}</p>{note}</p></section>"
            )
        else:
            body.append(
                f"<section>{head}<p class=src>skipped: {html.escape(str(r.get('reason')))}</p></section>"
            )
    return (
        '<!doctype html><html lang="zh"><head><meta charset="utf-8"><title>财报亮点脚本</title><style>'
        "body{font-family:sans-serif;max-width:48em;margin:auto;padding:1em}mark{cursor:pointer}"
        ".src{color:#666;font-size:.85em}#ev{position:sticky;bottom:0;background:#ffd;padding:.5em;min-height:1.5em}"
        "</style></head><body><h1>财报亮点脚本</h1>"
        + "".join(body)
        + '<div id="ev">点击数字查看出处</div><script>'
        "document.addEventListener('click',e=>{const m=e.target.closest('mark');"
        "if(m)document.getElementById('ev').textContent=m.dataset.ev;});"
        "</script></body></html>\n"
    )
