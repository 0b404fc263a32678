"""Every number a script says, read back from its text: `spoken_numbers(text) -> list[Spoken]`.

Why a reader of its own and not the facts reader: a script is short prose the tool or a model wrote, and
the check must see *every* number in it (digits, Chinese numerals, percentages, 亿/万 amounts, 倍, years),
including the ones no label introduces, with the sign its words give it (`同比下降10.9%` is -10.9). A
number this reader cannot see is a number nobody checks, so it errs on the side of seeing too many.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

UNIT_CLASSES = {
    "亿元": ("yuan", 1e8),
    "亿": ("yuan", 1e8),
    "万元": ("yuan", 1e4),
    "万": ("yuan", 1e4),
    "元/股": ("per_share", 1.0),
    "元": ("yuan", 1.0),
    "%": ("percent", 1.0),
    "％": ("percent", 1.0),
    "个百分点": ("points", 1.0),
    "倍": ("times", 1.0),
    "年": ("year", 1.0),
    "成": ("percent", 10.0),
}
"""A printed unit → (its class, its scale to the class's base unit)."""

_NEGATIVE = re.compile(r"(下降|减少|下滑|降低|下跌|回落|亏损|亏|收窄|负)[^，。；,;\d]{0,3}$")
_UNIT = r"(亿元|万元|元/股|个百分点|亿|万|元|%|％|倍|年|成)?"
_ARABIC = re.compile(r"([-−]?)(\d[\d,，]*(?:\.\d+)?)" + _UNIT)
_CN_DIGITS = "零〇一二两三四五六七八九十百千"
_CN = re.compile(rf"(百分之)?([{_CN_DIGITS}]+(?:点[{_CN_DIGITS}]+)?)(亿元|万元|个百分点|亿|万|倍|成|%)?")


@dataclass(frozen=True)
class Spoken:
    """One number as the script says it."""

    start: int
    end: int
    text: str
    value: float
    """In the class's base unit (yuan, percent, points, times, per share, a year), signed by its words."""
    unit_class: str
    """yuan, percent, points, times, per_share, year, or `bare` (no unit: a count, an ordinal)."""
    decimals: int
    """Digits after the point as printed: the precision the number claims."""
    chinese: bool = False
    """Said in words (Chinese numerals, English number words), not digits."""
    scale: float | None = None
    """The base units one printed unit is (1e9 for `bn`); None: the unit the text ends with says it."""


def _cn_value(text: str) -> float | None:
    """A Chinese numeral's value (一千二百三十, 三点五, 两); None when it is not a number."""
    digits = {c: i for i, c in enumerate("零一二三四五六七八九")}
    digits.update({"〇": 0, "两": 2})
    whole, _, frac = text.partition("点")
    total = section = 0
    current = -1
    for ch in whole:
        if ch in digits:
            current = digits[ch]
        elif ch in "十百千":
            scale = {"十": 10, "百": 100, "千": 1000}[ch]
            section += (current if current >= 0 else 1) * scale
            current = -1
        else:
            return None
    total = section + max(current, 0)
    value = float(total)
    if frac:
        if any(c not in digits for c in frac):
            return None
        value += float("0." + "".join(str(digits[c]) for c in frac))
    return value


def _negative(text: str, start: int) -> bool:
    return bool(_NEGATIVE.search(text[max(0, start - 8) : start]))


_PER_SHARE = re.compile(r"每股[^，。；,;\d]{0,6}$")


def mask_names(text: str, names: tuple[str, ...]) -> str:
    """`text` with each name blanked to as many letters: digits in a name (360科技) are no numbers."""
    for name in sorted((n for n in names if n), key=len, reverse=True):
        text = text.replace(name, "名" * len(name))
    return text


def spoken_numbers(text: str, names: tuple[str, ...] = (), lang: str = "zh") -> list[Spoken]:
    """Every number in `text`, in order; `names` (the company's) are words, digits in them no numbers.
    `lang="en"`: an English script (task/brief/numbers_en.py reads it, Chinese numerals included)."""
    if lang == "en":
        from lmscreen.task.brief.numbers_en import spoken_numbers_en

        return spoken_numbers_en(text, names)
    text = mask_names(text, names)
    return sorted(_arabic(text) + chinese_numerals(text), key=lambda s: s.start)


def _arabic(text: str) -> list[Spoken]:
    found: list[Spoken] = []
    for m in _ARABIC.finditer(text):
        sign, digits, unit = m.group(1), m.group(2).rstrip(",，"), m.group(3) or ""
        end = m.end() if unit else m.start(2) + len(digits)
        plain = digits.replace(",", "").replace("，", "")
        cls, scale = UNIT_CLASSES.get(unit, ("bare", 1.0))
        if unit == "元" and _PER_SHARE.search(text[max(0, m.start() - 10) : m.start()]):
            cls = "per_share"  # 每股收益2.15元: a per-share figure, not an amount
        value = float(plain) * scale
        if sign or (cls != "year" and _negative(text, m.start())):
            value = -abs(value) if not (sign and _negative(text, m.start())) else abs(value)
        decimals = len(plain.partition(".")[2])
        found.append(Spoken(m.start(), end, text[m.start() : end], value, cls, decimals))
    return found


def chinese_numerals(text: str) -> list[Spoken]:
    """The amounts said in Chinese numerals (三百五十亿元, 百分之十); bare ones (一季度, 第三) are words."""
    found: list[Spoken] = []
    for m in _CN.finditer(text):
        percent, numeral, unit = m.group(1), m.group(2), m.group(3) or ""
        if not percent and not unit:
            continue  # 一季度, 两年, 第三: words, not amounts
        value = _cn_value(numeral)
        if value is None:
            continue
        cls, scale = ("percent", 1.0) if percent else UNIT_CLASSES.get(unit, ("bare", 1.0))
        value *= scale
        if _negative(text, m.start()):
            value = -value
        decimals = len(numeral.partition("点")[2])
        found.append(Spoken(m.start(), m.end(), m.group(0), value, cls, decimals, chinese=True))
    return found


def fact_unit_class(unit: str, metric: str) -> str:
    """The unit class of a fact (its printed unit), for comparing with a spoken number."""
    if unit in ("%", "％"):
        return "percent"
    if metric == "eps" or unit == "元/股":
        return "per_share"
    if unit == "倍":
        return "times"
    if unit.endswith("元") or unit in ("亿", "万"):
        return "yuan"
    return "bare"


def matches(spoken: Spoken, value: float) -> bool:
    """Whether a spoken number says `value` (same class assumed): equal up to the precision it is printed
    with (1741.44亿元 says 174,144,000,000; 1741亿元 says it too; 1750亿元 does not), sign included."""
    if (spoken.value < 0) != (value < 0) and abs(value) > 1e-12:
        return False
    scale = spoken.scale or UNIT_CLASSES.get(_unit_of(spoken.text), ("", 1.0))[1]
    half_step = 0.5 * 10 ** (-spoken.decimals) * scale
    return abs(abs(spoken.value) - abs(value)) <= half_step * 1.0001 + 1e-9


def _unit_of(text: str) -> str:
    for unit in sorted(UNIT_CLASSES, key=len, reverse=True):
        if text.endswith(unit):
            return unit
    return ""
