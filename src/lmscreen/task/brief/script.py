"""The deterministic script: `template(highlights, style, limit) -> Script`, and what a presenter reads.

Why sentences and not a card: the user records it. Each line is a sentence a person would say
(`全年实现营收1741.44亿元，同比增长15.66%。`), with the direction in words (增长 / 下降, 亏损) and the
number unsigned, a hook first and the disclaimer last. Each number is placed as a `Num`, so the script
knows where every number it says came from without reading itself back. `lang="en"` writes the English
script (task/brief/script_en.py), counted in words; a company with no filing (`Highlights.basis` `pool`)
gets lines about the pool's own fields, said as such.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from lmscreen.task.brief.highlights import Highlight, Highlights, Num

DISCLAIMER = "以上内容根据公开财报整理，不构成投资建议。"
STYLES = ("video", "post", "plain")
CHARS_PER_SECOND = 4
"""A presenter reads about four Chinese syllables a second: 60 s is about 240 read characters."""

_SUB_WORDS = {
    "FY": ("全年", "年报"),
    "H1": ("上半年", "半年报"),
    "Q1": ("一季度", "一季报"),
    "Q3": ("前三季度", "三季报"),
    "Q2": ("二季度", "半年报"),
    "Q4": ("四季度", "年报"),
}
_RULE_WORDS = {
    "st": "公司名称带有ST标记",
    "loss_two_years": "已连续两年亏损",
    "roe_lt_5": "净资产收益率偏低",
    "roe_lt_15": "净资产收益率不算高",
    "pe_le_0": "市盈率为负",
    "pe_gt_50": "估值偏高",
}
_LEVEL_WORDS = {"高": "高", "中": "中", "低": "低", "未知": "未知"}
_POOL_FIELDS = {"roe_missing": "净资产收益率", "pe_missing": "市盈率"}
"""Rules that fire on a field the pool leaves empty: said as the pool's gap, not as missing data (the
script may just have quoted the filing's own ROE, which the rules do not read)."""

Part = str | Num


@dataclass
class Script:
    text: str
    placed: list[tuple[int, int, Num]]
    """Each number's span in `text` and what it is."""
    read_length: int
    over_length: bool = False


def read_length(text: str, lang: str = "zh") -> int:
    """Characters as a presenter reads them: Chinese characters one each, a number as its syllables
    (1741.44 is 一千七百四十一点四四: ten), `%` as 百分之, punctuation and spaces nothing. `lang="en"`:
    words (script_en.read_words)."""
    if lang == "en":
        from lmscreen.task.brief.script_en import read_words

        return read_words(text)
    total = 0
    pos = 0
    for m in re.finditer(r"\d+(?:\.\d+)?%?", text):
        total += sum(1 for c in text[pos : m.start()] if "\u4e00" <= c <= "\u9fff" or c.isalpha())
        whole, _, frac = m.group(0).rstrip("%").partition(".")
        total += max(1, 2 * len(whole.lstrip("0") or "0") - 1) + (1 + len(frac) if frac else 0)
        total += 3 if m.group(0).endswith("%") else 0
        pos = m.end()
    total += sum(1 for c in text[pos:] if "\u4e00" <= c <= "\u9fff" or c.isalpha())
    return total


def parse_length(length: str, lang: str = "zh") -> int:
    """`60s`, `90s` or `N字` → the read characters allowed (`lang="en"`: `60s`, `90s` or `N words`)."""
    if lang == "en":
        from lmscreen.task.brief.script_en import parse_words

        return parse_words(length)
    text = length.strip().lower()
    if text.endswith("s") and text[:-1].isdigit():
        return int(text[:-1]) * CHARS_PER_SECOND
    if text.endswith("字") and text[:-1].isdigit():
        return int(text[:-1])
    raise ValueError(f"--length: {length!r} is not 60s, 90s or N字")


def _grow(num: Num) -> list[Part]:
    word = "增长" if num.value >= 0 else "下降"
    return [f"同比{word}", num]


def _line(h: Highlight, span: str) -> list[Part]:
    v = h.nums["value"]
    if h.kind == "revenue":
        parts: list[Part] = [f"{span}实现营收", v]
        if "growth" in h.nums:
            parts += ["，", *_grow(h.nums["growth"])]
        return parts + ["。"]
    if h.kind == "net_profit":
        swing = h.notes.get("swing")
        if v.value < 0:
            parts = ["归母净利润亏损", v]
            if swing == "to_loss":
                parts.append("，由盈转亏")
            elif swing == "still_loss":
                parts.append("，亏损延续")
        else:
            parts = ["归母净利润", v]
            if "growth" in h.nums:
                parts += ["，", *_grow(h.nums["growth"])]
            if swing == "to_profit":
                parts.append("，成功扭亏为盈")
        return parts + ["。"]
    if h.kind == "deducted":
        if v.value < 0:
            tail = (
                "，主营业务的压力更大。" if not h.notes.get("higher") else "，非经常性损失拖累了归母净利润。"
            )
            return ["扣除非经常性损益后亏损", v, tail]
        if h.notes.get("higher"):
            return ["扣非净利润", v, "，高于归母净利润，非经常性损失拖累了当期利润。"]
        return ["扣非净利润", v, "，明显低于归母净利润，利润中有不少来自非经常性损益。"]
    name = {"gross_margin": "毛利率", "net_margin": "净利率", "roe": "加权平均净资产收益率"}[h.kind]
    if h.notes.get("main_business"):
        name = "主营业务毛利率"
    if "change" in h.nums:
        c = h.nums["change"]
        return [f"{name}为", v, "，较上年" + ("提升" if c.value >= 0 else "下降"), c, "。"]
    if h.kind == "roe" and v.value < 0:
        return [f"{name}为负值，股东回报承压。"]
    tail = "，盈利空间较薄" if h.kind == "gross_margin" and v.value < 10 else ""
    return [f"{name}为", v, f"{tail}。"]


def _hook(hl: Highlights, report: str) -> list[Part]:
    head: list[Part] = [hl.name]
    if hl.year is not None:
        head += ["发布", hl.year, report]
    else:
        head += [f"发布{report}"]
    by_kind = {h.kind: h for h in hl.items}
    rev, prof = by_kind.get("revenue"), by_kind.get("net_profit")
    rg = rev.nums["growth"].value if rev and "growth" in rev.nums else None
    pv = prof.nums["value"].value if prof else None
    pg = prof.nums["growth"].value if prof and "growth" in prof.nums else None
    if pv is not None and pv < 0:
        tail = "，业绩承压，出现亏损。"
    elif rg is not None and pg is not None and rg >= 0 and pg >= 0:
        tail = "，营收和净利润实现双增长。"
    elif rg is not None and pg is not None and rg < 0 and pg < 0:
        tail = "，营收和净利润双双下滑。"
    elif rg is not None and pg is not None and rg < 0 <= pg:
        tail = "，收入有所承压，利润却逆势增长。"
    elif rg is not None and pg is not None:
        tail = "，收入在增长，利润却有所回落。"
    else:
        tail = "，我们来看看要点。"
    return head + [tail]


def risk_reasons(rules_fired: Iterable[str], words: dict[str, str]) -> list[str]:
    """The reasons to say for the rules that fired, in `words`' language: one per field (roe_lt_5 and
    roe_lt_15 both fire on a low ROE), each said once."""
    topics: dict[str, str] = {}
    for rule in rules_fired:
        if rule in words:
            topics.setdefault(rule.split("_")[0], words[rule])
    return list(dict.fromkeys(topics.values()))


def _risk(hl: Highlights) -> list[Part]:
    level = hl.risk_level
    if level is None:
        return []
    reasons = risk_reasons(hl.rules_fired, _RULE_WORDS)
    missing = [word for rule, word in _POOL_FIELDS.items() if rule in hl.rules_fired]
    if missing:
        reasons.append("股票池未提供" + "和".join(missing))
    if not reasons:
        return [f"按筛选规则，风险等级为{_LEVEL_WORDS.get(level, level)}，没有触发风险提示。"]
    why = "、".join(reasons)
    caution = "，需要谨慎看待" if level == "高" else ""
    return [f"需要留意的是，按筛选规则风险等级为{_LEVEL_WORDS.get(level, level)}，原因是{why}{caution}。"]


def _pool_line(h: Highlight) -> list[Part]:
    """A line about one of the pool's own fields (no filing was found)."""
    v = h.nums["value"]
    if h.kind == "pool_profit":
        swing = h.notes.get("swing")
        if v.value < 0:
            parts: list[Part] = [h.nums["year"], "净利润亏损", v]
            parts += {"to_loss": ["，由盈转亏"], "still_loss": ["，亏损延续"]}.get(swing or "", [])
        else:
            parts = [h.nums["year"], "净利润", v]
            if "growth" in h.nums:
                parts += ["，", *_grow(h.nums["growth"])]
            if swing == "to_profit":
                parts.append("，实现扭亏为盈")
        return parts + ["。"]
    if h.kind == "pe":
        return ["市盈率为负，公司目前处于亏损状态。"] if v.value <= 0 else ["市盈率为", v, "。"]
    if h.kind == "pool_roe":
        return ["净资产收益率为负值，股东回报承压。"] if v.value < 0 else ["净资产收益率为", v, "。"]
    return ["每股亏损", v, "。"] if v.value < 0 else ["每股收益", v, "。"]


Say = Callable[[Num], str]


def _render(lines: list[list[Part]], sep: str, say: Say = Num.display, approx: str = "约") -> Script:
    text = ""
    placed: list[tuple[int, int, Num]] = []
    for i, line in enumerate(x for x in lines if x):
        if i:
            text += sep
        for part in line:
            if isinstance(part, Num):
                if part.fact is not None and part.fact.approx:
                    text += approx  # printed as an approximation (约831.42亿元): said as one
                shown = say(part)
                placed.append((len(text), len(text) + len(shown), part))
                text += shown
            else:
                text += part
    return Script(text, placed, 0)


def fit(
    body: list[list[Part]],
    build: Callable[[list[list[Part]]], Script],
    limit: int | None,
    lang: str,
) -> Script:
    """`build(body)`, dropping the body's last lines (the least important highlights) while it is over
    `limit` (read characters, or words in English), never below two; flagged when still over."""
    while True:
        script = build(body)
        script.read_length = read_length(script.text, lang)
        if limit is None or script.read_length <= limit or len(body) <= 2:
            script.over_length = limit is not None and script.read_length > limit
            return script
        body = body[:-1]


def template(hl: Highlights, style: str = "video", limit: int | None = None, lang: str = "zh") -> Script:
    """The deterministic script of `hl` in `style` and `lang`, within `limit` (see `fit`)."""
    if lang == "en":
        from lmscreen.task.brief.script_en import template_en

        return template_en(hl, style, limit)
    pool = hl.basis == "pool"
    span, report = _SUB_WORDS.get(hl.sub or "FY", ("本期", "财报"))
    body = [_pool_line(h) if pool else _line(h, span) for h in hl.items[:4]]

    def build(body: list[list[Part]]) -> Script:
        if style == "post":
            if pool:
                title: list[Part] = ["【", hl.name, "数据速览】"]
            else:
                title = ["【", hl.name, *(["", hl.year] if hl.year else []), f"{report}速览】"]
            return _render([title, [p for line in body for p in line], _risk(hl), [DISCLAIMER]], "\n")
        if style == "plain":
            if pool:
                lead: list[Part] = [f"根据股票池的数据，{hl.name}"]
            elif hl.year:
                lead = [hl.name, "发布的", hl.year, f"{report}显示，"]
            else:
                lead = [f"{hl.name}发布的{report}显示，"]
            first = [lead + body[0], *body[1:]] if body else [lead]
            return _render([*first, _risk(hl), [DISCLAIMER]], "")
        if pool:
            hook: list[Part] = [f"{hl.name}的财报原文暂未取得，我们先根据股票池里的数据看看要点。"]
            closing = [f"以上就是{hl.name}的数据要点，财报发布后我们再细看。"]
        else:
            hook = _hook(hl, report)
            closing = [f"以上就是{hl.name}这份{report}的要点，我们下期再见。"]
        return _render([hook, *body, _risk(hl), closing, [DISCLAIMER]], "\n")

    return fit(body, build, limit, "zh")
