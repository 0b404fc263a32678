"""briefs.html: every script with its numbers marked; a click (or keyboard focus) on one shows its evidence.

Why a page of its own and not report.html: the reader here is checking a script before recording it, so
what matters is each number and where it comes from: the figure as the filing prints it *in its sentence*,
the pool cell (file, row, column) it is, or the derivation and its inputs. The page is offline (a
Content-Security-Policy allows nothing from anywhere, only its own inline style and script), escapes every
text it shows (a company name with markup included), and reads on a 390 px phone: numbers never break
across lines, the evidence panel stays at the bottom of the screen and names the company.
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import Any

LABELS: dict[str, dict[str, Any]] = {
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
        "pool": "股票池 {}",
        "formula": {
            "growth": "（本期 − 上期）÷ |上期| × 100",
            "difference": "本期 − 上期",
            "margin": "（营业收入 − 营业成本）÷ 营业收入 × 100",
        },
        "amount": lambda v: f"{v / 1e8:,.2f}亿",
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
        "src": "来源",
        "counts": "共 {n} 家：{parts}",
        "source": {"template": "模板", "model": "模型", "pool_fields": "股票池字段", "skipped": "跳过"},
        "metric": {
            "revenue": "营业收入",
            "net_profit": "归母净利润",
            "net_profit_deducted": "扣非净利润",
            "gross_margin": "毛利率",
            "net_margin": "净利率",
            "roe": "净资产收益率",
            "pe_ttm": "市盈率",
            "eps": "每股收益",
            "period": "报告期",
            "operating_cost": "营业成本",
            "pool_profit": "净利润",
        },
        "growth": "{}同比增速",
        "change": "{}变动",
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
        "pool": "{}",
        "formula": {
            "growth": "(current − prior) ÷ |prior| × 100",
            "difference": "current − prior",
            "margin": "(revenue − operating cost) ÷ revenue × 100",
        },
        "amount": lambda v: f"{v / 1e9:,.2f} bn",
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
        "src": "source",
        "counts": "{n} companies: {parts}",
        "source": {
            "template": "template",
            "model": "model",
            "pool_fields": "pool fields",
            "skipped": "skipped",
        },
        "metric": {
            "revenue": "revenue",
            "net_profit": "net profit attributable",
            "net_profit_deducted": "net profit excl. one-offs",
            "gross_margin": "gross margin",
            "net_margin": "net margin",
            "roe": "return on equity",
            "pe_ttm": "PE (TTM)",
            "eps": "EPS",
            "period": "report year",
            "operating_cost": "operating cost",
            "pool_profit": "net profit",
        },
        "growth": "{} growth",
        "change": "{} change",
    },
}


def _q(text: str, t: dict[str, Any]) -> str:
    return f"{t['open']}{text}{t['close']}"


def _metric(n: dict[str, Any], t: dict[str, Any]) -> str:
    """What a number is, in words: a growth rate or a change in points says so (`营业收入同比增速`); a
    pool's 净利润 is said as the pool names it, not as 归母."""
    metric = str(n.get("metric") or "")
    name = t["metric"].get(metric, metric)
    from_pool = "pool" in n or any("pool" in i for i in (n.get("derivation") or {}).get("inputs", []))
    if from_pool and metric == "net_profit":
        name = t["metric"]["pool_profit"]
    unit = n.get("unit")
    if unit == "%" and metric in ("revenue", "net_profit", "net_profit_deducted"):
        name = t["growth"].format(name)
    elif unit in ("个百分点", "percentage points"):
        name = t["change"].format(name)
    return f"{name} {n.get('period') or ''}".strip()


def _pool_cell(p: dict[str, Any], t: dict[str, Any]) -> str:
    """A pool cell as a reader finds it: file, row, header (the column as the rules see it)."""
    header = p.get("header") or p["column"]
    where = f"{t['pool'].format(Path(p['file']).name)}{t['sep']}{t['row'].format(p['row'])}{t['sep']}"
    where += f"{t['column']} {_q(header, t)}"
    if header != p["column"]:
        where += f"{t['lp']}{p['column']}{t['rp']}"
    return where + (t["header_year"] if p.get("part") == "header" else f" = {_value(p['value'], t)}")


def _value(v: float, t: dict[str, Any]) -> str:
    """A pool cell's value for reading (briefs.jsonl keeps it exact): an amount in 亿 / bn."""
    if abs(v) >= 1e8:
        return t["amount"](v)
    return f"{v:g}"


def evidence_line(n: dict[str, Any], t: dict[str, Any]) -> str:
    """What a click on a number shows first: the printed span, the pool cell, or the derivation."""
    head = _metric(n, t) + t["colon"]
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
        label = t["metric"].get(i["metric"], i["metric"])
        ins.append(f"{label} {i.get('period') or ''} {i['basis']} {_q(ev['text'], t)}{page}")
    formula = t["computed"].format(t["formula"].get(d.get("op"), d.get("formula")))
    return f"{head}{formula}{t['sep']}{t['inputs']}{t['colon']}" + t["list"].join(ins)


def _attr(name: str, value: str) -> str:
    return f' {name}="{html.escape(value, quote=True)}"'


def _marked(text: str, numbers: list[dict[str, Any]], company: str, t: dict[str, Any]) -> str:
    parts, pos = [], 0
    for n in sorted(numbers, key=lambda n: n["start"]):
        parts.append(html.escape(text[pos : n["start"]]))
        kind = "pool" if "pool" in n else "derived" if "derivation" in n else "printed"
        attrs = _attr("class", kind) + _attr("data-ev", f"{company} · {evidence_line(n, t)}")
        ctx = (n.get("evidence") or {}).get("context")
        if ctx is not None:  # the sentence the figure is printed in, shown with it in bold
            attrs += _attr("data-b", ctx["before"]) + _attr("data-t", n["evidence"]["text"])
            attrs += _attr("data-a", ctx["after"])
        parts.append(f'<mark tabindex="0"{attrs}>{html.escape(text[n["start"] : n["end"]])}</mark>')
        pos = n["end"]
    parts.append(html.escape(text[pos:]))
    return "".join(parts).replace("\n", "<br>")


_STYLE = (
    "body{font-family:sans-serif;max-width:48em;margin:auto;padding:1em;line-height:1.6}"
    "h1{font-size:1.6em;line-height:1.25}h2{font-size:1.2em;margin:1.6em 0 .4em}"
    "nav{font-size:.9em;line-height:1.9}nav a{margin-right:.8em;white-space:nowrap}"
    "mark{cursor:pointer;white-space:nowrap;border-radius:2px;padding:0 1px}"
    "mark.derived{background:#d9f0ff}mark.pool{background:#e4f5d4}"
    "mark:focus,mark.on{outline:2px solid #c60;outline-offset:1px}"
    ".src{color:#666;font-size:.85em;overflow-wrap:anywhere}.counts{color:#666}"
    "#ev{position:sticky;bottom:0;background:#ffd;border-top:1px solid #cc9;padding:.5em;min-height:1.5em;"
    "overflow-wrap:anywhere;font-size:.95em}#ev .ctx{color:#444;margin-top:.3em}"
)
_SCRIPT = (
    "function show(m){const p=document.getElementById('ev');p.replaceChildren();"
    "const h=document.createElement('div');h.textContent=m.dataset.ev;p.append(h);"
    "if(m.dataset.t!==undefined){const c=document.createElement('div');c.className='ctx';"
    "const b=document.createElement('b');b.textContent=m.dataset.t;"
    "c.append('…'+m.dataset.b,b,m.dataset.a+'…');p.append(c);}"
    "document.querySelectorAll('mark.on').forEach(x=>x.classList.remove('on'));m.classList.add('on');}"
    "document.addEventListener('click',e=>{const m=e.target.closest('mark');if(m)show(m);});"
    "document.addEventListener('focusin',e=>{if(e.target.matches('mark'))show(e.target);});"
    "document.body.dataset.ready='1';"
)
_CSP = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'"


def _anchor(code: str) -> str:
    return "b-" + "".join(c if c.isalnum() else "-" for c in code)


def render_html(rows: list[dict[str, Any]], lang: str = "zh") -> str:
    t = LABELS.get(lang, LABELS["zh"])
    body, nav = [], []
    counts: dict[str, int] = {}
    for r in rows:
        counts[r["source"]] = counts.get(r["source"], 0) + 1
        name = html.escape(r.get("name") or "")
        code = html.escape(r["code"])
        nav.append(f'<a href="#{_anchor(r["code"])}">{name}</a>')
        shown = f"{name}（{code}）" if lang == "zh" else f"{name} ({code})"
        head = f'<h2 id="{_anchor(r["code"])}">{shown}</h2>'
        if r.get("text"):
            note = (
                f"<p class=src>{t['src']}{t['colon']}{html.escape(t['source'].get(r['source'], r['source']))}"
            )
            if r.get("model_rejected"):
                note += f"{t['list']}{t['rejected']}{t['colon']}" + html.escape(
                    t["list"].join(r["model_rejected"]["reasons"])
                )
            marked = _marked(r["text"], r.get("numbers") or [], r.get("name") or r["code"], t)
            body.append(f"<section>{head}<p>{marked}</p>{note}</p></section>")
        else:
            why = html.escape(str(r.get("reason")))
            body.append(f"<section>{head}<p class=src>{t['skipped']}{t['colon']}{why}</p></section>")
    parts = t["list"].join(f"{t['source'].get(k, k)} {v}" for k, v in sorted(counts.items()))
    summary = f"<p class=counts>{html.escape(t['counts'].format(n=len(rows), parts=parts))}</p>"
    return (
        f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{_CSP}">'
        '<meta name="viewport" content="width=device-width,initial-scale=1">'
        f"<title>{t['title']}</title><style>{_STYLE}</style></head><body><h1>{t['title']}</h1>"
        + summary
        + f"<nav>{''.join(nav)}</nav>"
        + "".join(body)
        + f'<div id="ev" aria-live="polite">{t["hint"]}</div><script>{_SCRIPT}</script></body></html>\n'
    )
