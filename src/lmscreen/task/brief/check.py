"""Whether a model's script may be kept: `check(text, highlights) -> list[str]` (the reasons it may not).

Why so strict: the one thing the user cannot afford is a wrong number read on camera. A model's text is
kept only if every number in it (task/brief/numbers.py sees digits, Chinese numerals, percentages, 亿/万
amounts, 倍, years) says one of the company's chosen figures (a fact of the main period or a figure derived
from two facts) with a compatible unit and the same sign, and nothing in it contradicts the verdict.
"""

from __future__ import annotations

import re

from lmscreen.task.brief.highlights import Highlights, Num
from lmscreen.task.brief.numbers import Spoken, matches, spoken_numbers
from lmscreen.task.brief.script import DISCLAIMER
from lmscreen.task.brief.script_en import DISCLAIMER_EN, LEVEL_WORDS

_CLASS = {
    "亿元": "yuan",
    "万元": "yuan",
    "%": "percent",
    "个百分点": "points",
    "元": "per_share",
    "年": "year",
    "倍": "times",
}
_CONTRADICTS = {
    "高": ("低风险", "风险较低", "风险很低", "风险不大", "无风险"),
    "中": ("低风险", "高风险", "无风险"),
    "低": ("高风险", "风险很高", "风险较高"),
}
_BOOM = ("大增", "大幅增长", "暴增", "翻倍")
_CONTRADICTS_EN = {
    "高": ("low risk", "low-risk", "little risk", "no risk", "risk-free", "safe bet"),
    "中": ("low risk", "low-risk", "high risk", "high-risk", "no risk", "risk-free"),
    "低": ("high risk", "high-risk", "very risky"),
}
_BOOM_EN = ("surge", "soar", "boom", "skyrocket", "jump", "strong growth", "record profit")


def num_class(num: Num) -> str:
    return "per_share" if num.metric == "eps" else _CLASS.get(num.unit, "bare")


def traced(spoken: Spoken, nums: list[Num]) -> Num | None:
    """The chosen figure a spoken number says, or None."""
    for num in nums:
        if num_class(num) != spoken.unit_class:
            continue
        if spoken.unit_class == "yuan" and num.metric == "eps":
            continue
        if matches(spoken, num.value):
            return num
        # words carry the sign: 同比下降10.9% is -10.9 read back; a plain "-10.9%" too
    return None


def check(text: str, hl: Highlights, lang: str = "zh") -> list[str]:
    """Why `text` may not be kept (empty when it may): each untraced number, each contradiction."""
    reasons: list[str] = []
    nums = hl.numbers()
    for spoken in spoken_numbers(text, (hl.name,), lang):
        if traced(spoken, nums) is None:
            reasons.append(f"number not in the filing's figures: {spoken.text}")
    if lang == "en":
        return reasons + _contradictions_en(text, hl)
    for word in _CONTRADICTS.get(hl.risk_level or "", ()):
        if word in text:
            reasons.append(f"contradicts the risk level {hl.risk_level}: {word}")
    for said in re.finditer(r"风险等级(?:为|是)?([高中低])", text):
        if hl.risk_level in ("高", "中", "低") and said.group(1) != hl.risk_level:
            reasons.append(f"contradicts the risk level {hl.risk_level}: {said.group(0)}")
    profit = next((h for h in hl.items if h.kind == "net_profit"), None)
    falling = profit is not None and (
        profit.nums["value"].value < 0 or ("growth" in profit.nums and profit.nums["growth"].value < 0)
    )
    if falling:
        reasons.extend(f"contradicts the profit's fall: {w}" for w in _BOOM if w in text)
    if DISCLAIMER.rstrip("。") not in text:
        reasons.append("no disclaimer")
    return reasons


def _contradictions_en(text: str, hl: Highlights) -> list[str]:
    """An English text's words against the verdict and the profit's direction, and its disclaimer."""
    reasons: list[str] = []
    lower = text.lower()
    level = hl.risk_level or ""
    for phrase in _CONTRADICTS_EN.get(level, ()):
        if phrase in lower:
            reasons.append(f"contradicts the risk level {LEVEL_WORDS[level]}: {phrase}")
    for said in re.finditer(r"risk level (?:is |was |of |at )?(high|medium|low)\b", lower):
        if level in ("高", "中", "低") and said.group(1) != LEVEL_WORDS[level]:
            reasons.append(f"contradicts the risk level {LEVEL_WORDS[level]}: {said.group(0)}")
    profit = next((h for h in hl.items if h.kind in ("net_profit", "pool_profit")), None)
    falling = profit is not None and (
        profit.nums["value"].value < 0 or ("growth" in profit.nums and profit.nums["growth"].value < 0)
    )
    if falling:
        reasons.extend(f"contradicts the profit's fall: {w}" for w in _BOOM_EN if w in lower)
    if DISCLAIMER_EN.rstrip(".").lower() not in lower:
        reasons.append("no disclaimer")
    return reasons
