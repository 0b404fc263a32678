"""Every number an English script says: `spoken_numbers_en(text, names) -> list[Spoken]`.

Why a reader of its own: an English script says its amounts as `RMB 174.14 bn`, `RMB 2.15 per share`,
`4.80x`, `2.30 percentage points` and its signs in words placed before *or* after the number (`down 10.9%`,
`a net loss of RMB 8.62 bn`, `10.9% lower`), none of which the Chinese reader sees. Like it, this reader
errs on the side of seeing too many: number words followed by a unit (`three hundred fifty billion`),
`doubled` (a 100% rise), an `FY2024` inside a word, and any Chinese amount or numeral a model slips in are
all numbers to check. Units keep their class (yuan, percent, points, times, per share, a year), so
`RMB 174.14 bn` is compared with a fact printed as `1741.44亿元` by value, not by wording.
"""

from __future__ import annotations

import re

from lmscreen.task.brief.numbers import UNIT_CLASSES, Spoken, chinese_numerals, mask_names

_SCALES: dict[str, tuple[str, float]] = {
    "%": ("percent", 1.0),
    "％": ("percent", 1.0),
    "percent": ("percent", 1.0),
    "per cent": ("percent", 1.0),
    "percentage points": ("points", 1.0),
    "percentage point": ("points", 1.0),
    "points": ("points", 1.0),
    "point": ("points", 1.0),
    "ppts": ("points", 1.0),
    "ppt": ("points", 1.0),
    "pp": ("points", 1.0),
    "bn": ("yuan", 1e9),
    "billion": ("yuan", 1e9),
    "mn": ("yuan", 1e6),
    "million": ("yuan", 1e6),
    "m": ("yuan", 1e6),
    "k": ("yuan", 1e3),
    "thousand": ("yuan", 1e3),
    "yuan": ("yuan", 1.0),
    "x": ("times", 1.0),
    "times": ("times", 1.0),
    "fold": ("times", 1.0),
}
"""An English unit → (its class, its scale to the class's base unit)."""

_EN_UNIT = (
    r"%|％|percentage\s+points?\b|per\s?cent\b|percent\b|points?\b|ppts?\b|pp\b|bn\b|billion\b|mn\b"
    r"|million\b|m\b|k\b|thousand\b|yuan\b|x\b|times\b|-?fold\b"
)
_CN_UNIT = r"亿元|万元|元/股|个百分点|亿|万|元|倍|年|成"
_NUMBER = re.compile(
    r"(?P<cur>(?:RMB|CNY|¥)\s?)?(?P<sign>[-−])?(?P<num>\d[\d,]*(?:\.\d+)?)"
    rf"(?:\s?(?P<unit>{_EN_UNIT})|(?P<cn>{_CN_UNIT}))?(?P<ps>\s+(?:yuan\s+)?per\s+share\b)?",
    re.IGNORECASE,
)
_NEGATIVE_BEFORE = re.compile(
    r"\b(?:down|fell|fall|falls|falling|declin\w*|decreas\w*|drop\w*|lower|loss|losses|lost|lose|losing"
    r"|negative|minus|shr[aiu]nk\w*|contract\w*|slump\w*|slid|slide|slipped|narrow\w*|deficit)\b"
    r"[^.,;:!?\d\n]{0,40}$",
    re.IGNORECASE,
)
_NEGATIVE_AFTER = re.compile(r"^\s*(?:lower|less|down|below|smaller|fewer)\b", re.IGNORECASE)
_PER_SHARE_BEFORE = re.compile(r"\b(?:EPS|per\s+share)\b[^.,;:!?\d\n]{0,20}$", re.IGNORECASE)
_MULTIPLIED = {"doubled": 100.0, "tripled": 200.0, "trebled": 200.0, "quadrupled": 300.0}
"""A rise said as a verb: `doubled` is +100%, a number the check must see."""

_ONES = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
    "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30,
    "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90,
}  # fmt: skip
_WORD = "(?:" + "|".join([*_ONES, "hundred", "thousand", "point"]) + ")"
_WORDS = re.compile(
    rf"\b(?:a\s+)?(?P<words>{_WORD}(?:(?:[\s-]+|\s+and\s+){_WORD})*)\s*(?P<unit>{_EN_UNIT})",
    re.IGNORECASE,
)


def _negative(text: str, start: int, end: int) -> bool:
    return bool(
        _NEGATIVE_BEFORE.search(text[max(0, start - 60) : start]) or _NEGATIVE_AFTER.match(text[end:])
    )


def _words_value(words: str) -> tuple[float, int] | None:
    """`three hundred fifty` → (350, 0); `two point five` → (2.5, 1); None when not a number."""
    tokens = [t for t in re.split(r"[\s-]+", words.lower()) if t and t != "and"]
    at = tokens.index("point") if "point" in tokens else len(tokens)
    whole, frac = tokens[:at], tokens[at + 1 :]
    total = current = 0
    for t in whole:
        if t in _ONES:
            current += _ONES[t]
        elif t == "hundred":
            current = max(current, 1) * 100
        elif t == "thousand":
            total += max(current, 1) * 1000
            current = 0
        else:
            return None
    value = float(total + current)
    if frac:
        if any(_ONES.get(t, 10) > 9 for t in frac):
            return None
        value += float("0." + "".join(str(_ONES[t]) for t in frac))
    return value, len(frac)


def spoken_numbers_en(text: str, names: tuple[str, ...] = ()) -> list[Spoken]:
    """Every number in an English `text`, in order, signed by its words; `names` are words."""
    text = mask_names(text, names)
    found: list[Spoken] = []
    for m in _NUMBER.finditer(text):
        digits = m.group("num").rstrip(",")
        plain = digits.replace(",", "")
        unit = re.sub(r"\s+", " ", (m.group("unit") or "").lower()).lstrip("-")
        cn = m.group("cn")
        if m.group("ps"):
            cls, scale = "per_share", 1.0
        elif cn:
            cls, scale = UNIT_CLASSES[cn]
        elif unit:
            cls, scale = _SCALES[unit]
        elif m.group("cur"):
            cls, scale = "yuan", 1.0
        elif "." not in plain and len(plain) == 4 and 1900 <= int(plain) <= 2100:
            cls, scale = "year", 1.0
        else:
            cls, scale = "bare", 1.0
        before = text[max(0, m.start() - 30) : m.start()]
        if cls == "yuan" and scale == 1.0 and _PER_SHARE_BEFORE.search(before):
            cls = "per_share"  # EPS of RMB 2.15
        end = m.end() if (unit or cn or m.group("ps")) else m.start("num") + len(digits)
        value = float(plain) * scale
        negative = cls != "year" and _negative(text, m.start(), end)
        if m.group("sign"):
            value = abs(value) if negative else -abs(value)  # "down -3%" reads as a rise: refused
        elif negative:
            value = -value
        decimals = len(plain.partition(".")[2])
        found.append(Spoken(m.start(), end, text[m.start() : end], value, cls, decimals, scale=scale))
    for m in _WORDS.finditer(text):
        parsed = _words_value(m.group("words"))
        if parsed is None:
            continue
        unit = re.sub(r"\s+", " ", m.group("unit").lower()).lstrip("-")
        cls, scale = _SCALES[unit]
        value = parsed[0] * scale * (-1 if _negative(text, m.start(), m.end()) else 1)
        found.append(Spoken(m.start(), m.end(), m.group(0), value, cls, parsed[1], chinese=True, scale=scale))
    for m in re.finditer(r"\b(" + "|".join(_MULTIPLIED) + r")\b", text, re.IGNORECASE):
        value = _MULTIPLIED[m.group(1).lower()]
        found.append(Spoken(m.start(), m.end(), m.group(0), value, "percent", 0, chinese=True, scale=1.0))
    found.extend(chinese_numerals(text))
    found.sort(key=lambda s: s.start)
    return found
