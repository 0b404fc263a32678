"""The English deterministic script (`--lang en`): `template_en(highlights, style, limit) -> Script`.

Why its own sentences and not a translation of the Chinese ones: the presenter reads it aloud, so it says
`revenue of RMB 174.14 bn, up 15.66% year on year` (amounts in bn/mn, the direction in words, the number
unsigned), as an English market script would. The numbers are the same `Num`s as the Chinese script's,
only said differently (`say_en`), so every one keeps its evidence or derivation and the check compares
values and unit classes, never wording. Length is counted in words (`read_words`), 2.5 a second.
"""

from __future__ import annotations

import math
import re

from lmscreen.task.brief.highlights import Highlight, Highlights, Num
from lmscreen.task.brief.script import Part, Script, _render, fit, risk_reasons

DISCLAIMER_EN = "Compiled from public financial reports; not investment advice."
WORDS_PER_SECOND = 2.5
"""A presenter reads about 150 English words a minute: 60 s is about 150 words."""

_SUB_WORDS = {
    "FY": ("For the full year", "annual report"),
    "H1": ("In the first half", "interim report"),
    "Q1": ("In the first quarter", "first-quarter report"),
    "Q3": ("In the first three quarters", "third-quarter report"),
    "Q2": ("In the second quarter", "interim report"),
    "Q4": ("In the fourth quarter", "annual report"),
}
_RULE_WORDS = {
    "st": "an ST mark on the name",
    "loss_two_years": "two years of losses in a row",
    "roe_lt_5": "a low return on equity",
    "roe_lt_15": "a modest return on equity",
    "pe_le_0": "a negative PE",
    "pe_gt_50": "a rich valuation",
}
LEVEL_WORDS = {"高": "high", "中": "medium", "低": "low", "未知": "unknown"}
_POOL_FIELDS = {"roe_missing": "return on equity", "pe_missing": "PE"}
"""Rules that fire on a field the pool leaves empty: said as the pool's gap (see script._POOL_FIELDS)."""


def say_en(num: Num) -> str:
    """The number as an English presenter reads it, unsigned (the words around it carry the sign)."""
    v = abs(num.value)
    if num.unit in ("亿元", "万元"):
        if v >= 1e9:
            return f"RMB {v / 1e9:,.2f} bn"
        if v >= 1e6:
            return f"RMB {v / 1e6:.2f} mn"
        return f"RMB {v:,.0f}"
    if num.unit == "年":
        return str(int(v))
    if num.unit == "元":
        return f"RMB {v:.2f} per share"
    if num.unit == "个百分点":
        return f"{v:.2f} percentage points"
    if num.unit == "倍":
        return f"{v:.2f}x"
    return f"{v:.{num.decimals}f}{num.unit}"


def unit_en(num: Num) -> str:
    """The unit `say_en` prints, for briefs.jsonl's `unit` of an English script."""
    if num.unit in ("亿元", "万元"):
        v = abs(num.value)
        return "RMB bn" if v >= 1e9 else "RMB mn" if v >= 1e6 else "RMB"
    return {"年": "year", "元": "RMB per share", "个百分点": "percentage points", "倍": "x"}.get(
        num.unit, num.unit
    )


def read_words(text: str) -> int:
    """Words as a presenter reads them: each word or number once (`RMB 174.14 bn` is three), a run of
    Chinese characters (a company's name) one word per two characters, punctuation nothing."""
    total = 0
    for m in re.finditer(r"[\u4e00-\u9fff]+(?:['’]s)?|[A-Za-z0-9][A-Za-z0-9.,%'’-]*", text):
        run = m.group(0)
        cjk = sum(1 for c in run if "\u4e00" <= c <= "\u9fff")
        total += math.ceil(cjk / 2) if cjk else 1
    return total


def parse_words(length: str) -> int:
    """`60s`, `90s`, `N words`, `Nw` or `N` → the words allowed."""
    text = length.strip().lower()
    if text.endswith("s") and text[:-1].isdigit():
        return int(int(text[:-1]) * WORDS_PER_SECOND)
    m = re.fullmatch(r"(\d+)\s*(?:w|words?)?", text)
    if m:
        return int(m.group(1))
    raise ValueError(f"--length: {length!r} is not 60s, 90s or N words (English is counted in words)")


def _grow(num: Num) -> list[Part]:
    return ["up " if num.value >= 0 else "down ", num, " year on year"]


def _line(h: Highlight, span: str) -> list[Part]:
    v = h.nums["value"]
    if h.kind == "revenue":
        parts: list[Part] = [f"{span}, the company reported revenue of ", v]
        if "growth" in h.nums:
            parts += [", ", *_grow(h.nums["growth"])]
        return parts + ["."]
    if h.kind == "net_profit":
        swing = h.notes.get("swing")
        if v.value < 0:
            parts = ["It posted a net loss attributable to shareholders of ", v]
            if swing == "to_loss":
                parts.append(", swinging from a profit a year earlier")
            elif swing == "still_loss":
                parts.append(", extending its losses")
        else:
            parts = ["Net profit attributable to shareholders was ", v]
            if "growth" in h.nums:
                parts += [", ", *_grow(h.nums["growth"])]
            if swing == "to_profit":
                parts.append(", a return to profit")
        return parts + ["."]
    if h.kind == "deducted":
        if v.value < 0:
            tail = (
                "; one-off losses weighed on the headline figure."
                if h.notes.get("higher")
                else ", so the core business is under more pressure."
            )
            return ["Excluding one-off items, it lost ", v, tail]
        if h.notes.get("higher"):
            tail = ", above the headline figure: one-off losses held profit back."
            return ["Net profit excluding one-off items was ", v, tail]
        tail = ", well below the headline figure: a good part of profit came from one-off gains."
        return ["Net profit excluding one-off items was only ", v, tail]
    name = {"gross_margin": "Gross margin", "net_margin": "Net margin", "roe": "Return on equity"}[h.kind]
    if h.notes.get("main_business"):
        name = "Main-business gross margin"
    if "change" in h.nums:
        c = h.nums["change"]
        return [f"{name} was ", v, ", " + ("up " if c.value >= 0 else "down "), c, " from a year earlier."]
    if h.kind == "roe" and v.value < 0:
        return [f"{name} was negative, a strain on shareholder returns."]
    tail = ", a thin margin" if h.kind == "gross_margin" and v.value < 10 else ""
    return [f"{name} was ", v, f"{tail}."]


def _pool_line(h: Highlight) -> list[Part]:
    v = h.nums["value"]
    if h.kind == "pool_profit":
        swing = h.notes.get("swing")
        if v.value < 0:
            parts: list[Part] = ["It posted a net loss of ", v, " in ", h.nums["year"]]
            parts += {
                "to_loss": [", swinging from a profit the year before"],
                "still_loss": [", extending its losses"],
            }.get(swing or "", [])
        else:
            parts = ["Net profit for ", h.nums["year"], " was ", v]
            if "growth" in h.nums:
                parts += [", ", *_grow(h.nums["growth"])]
            if swing == "to_profit":
                parts.append(", a return to profit")
        return parts + ["."]
    if h.kind == "pe":
        return (
            ["The PE is negative, as the company is loss-making."] if v.value <= 0 else ["The PE is ", v, "."]
        )
    if h.kind == "pool_roe":
        if v.value < 0:
            return ["Return on equity is negative, a strain on shareholder returns."]
        return ["Return on equity is ", v, "."]
    return ["It lost ", v, "."] if v.value < 0 else ["Earnings were ", v, "."]


def _hook(hl: Highlights, report: str) -> list[Part]:
    head: list[Part] = [hl.name, " has published its "] + ([hl.year, f" {report}"] if hl.year else [report])
    by_kind = {h.kind: h for h in hl.items}
    rev, prof = by_kind.get("revenue"), by_kind.get("net_profit")
    rg = rev.nums["growth"].value if rev and "growth" in rev.nums else None
    pv = prof.nums["value"].value if prof else None
    pg = prof.nums["growth"].value if prof and "growth" in prof.nums else None
    if pv is not None and pv < 0:
        tail = ", and it is under pressure, with a loss for the period."
    elif rg is not None and pg is not None and rg >= 0 and pg >= 0:
        tail = ", with both revenue and net profit growing."
    elif rg is not None and pg is not None and rg < 0 and pg < 0:
        tail = ", with both revenue and net profit falling."
    elif rg is not None and pg is not None and rg < 0 <= pg:
        tail = ", with revenue under pressure but profit growing."
    elif rg is not None and pg is not None:
        tail = ", with revenue growing but profit slipping."
    else:
        tail = ". Here are the highlights."
    return head + [tail]


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _risk(hl: Highlights) -> list[Part]:
    level = hl.risk_level
    if level is None:
        return []
    reasons = risk_reasons(hl.rules_fired, _RULE_WORDS)
    missing = [word for rule, word in _POOL_FIELDS.items() if rule in hl.rules_fired]
    if missing:
        reasons.append("the pool giving no " + " or ".join(missing))
    said = LEVEL_WORDS.get(level, level)
    if not reasons:
        return [f"Under the screening rules the risk level is {said}, with no risk flags raised."]
    caution = ", so treat it with care" if level == "高" else ""
    why = _and(reasons)
    return [
        f"One thing to watch: under the screening rules the risk level is {said}, because of {why}{caution}."
    ]


def template_en(hl: Highlights, style: str = "video", limit: int | None = None) -> Script:
    """The English script of `hl` in `style`, within `limit` words (script.fit)."""
    pool = hl.basis == "pool"
    span, report = _SUB_WORDS.get(hl.sub or "FY", ("This period", "report"))
    body = [_pool_line(h) if pool else _line(h, span) for h in hl.items[:4]]

    def build(body: list[list[Part]]) -> Script:
        def render(lines: list[list[Part]], sep: str) -> Script:
            return _render(lines, sep, say_en, "about ")

        if style == "post":
            if pool:
                title: list[Part] = [f"{hl.name}: the pool's figures at a glance"]
            else:
                title = [f"{hl.name}: "] + (
                    [hl.year, f" {report} at a glance"] if hl.year else [f"{report} at a glance"]
                )
            joined: list[Part] = []
            for line in body:
                joined += [" "] + line if joined else line
            return render([title, joined, _risk(hl), [DISCLAIMER_EN]], "\n")
        if style == "plain":
            if pool:
                lead: list[Part] = [f"From the stock pool's own figures for {hl.name}: "]
            else:
                lead = [f"{hl.name}'s "] + (
                    [hl.year, f" {report} in brief: "] if hl.year else [f"{report} in brief: "]
                )
            first = list(body[0]) if body else []
            if first and isinstance(first[0], str):
                first[0] = first[0][:1].lower() + first[0][1:]  # "…in brief: for the full year, …"
            return render([lead + first, *body[1:], _risk(hl), [DISCLAIMER_EN]], " ")
        if pool:
            hook: list[Part] = [
                f"We don't have {hl.name}'s report yet, so here are the highlights from the stock pool's "
                "figures."
            ]
            closing = [
                f"That's all for {hl.name} from the pool's figures; we'll look closer once the report is out."
            ]
        else:
            hook = _hook(hl, report)
            closing = [f"That's all for {hl.name}'s {report}. See you next time."]
        return render([hook, *body, _risk(hl), closing, [DISCLAIMER_EN]], "\n")

    return fit(body, build, limit, "en")
