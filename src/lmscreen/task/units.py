"""Find every number a report text prints, with its sign, unit and printed precision.

Why this exists: an extracted figure is only trusted if the report really prints it, and the report prints
the same amount in many ways: `150.56亿元`, `1,505,600万元`, `15,056,000,000元`, full-width `１５０．５６亿`,
a loss as `净亏损3.2亿元`, a ratio as `18.04%` (which is not money) or `35.2倍`. This module turns each
printed number into a `Mention` in base units (yuan, percent, times) and remembers the span it came from in
the original text, so grounding can compare like with like and cite its evidence.

Folding is done per character (NFKC, plus U+2212 minus) with a map back to original offsets, except the
full-width comma `，`, which in Chinese prose separates clauses and must not read as a thousands separator
(it does only between full-width digits, `１，５０５，６００`).
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field
from decimal import Decimal
from functools import cached_property, lru_cache
from typing import Any, Literal

UnitKind = Literal["money", "percent", "times", "points", "other", "none"]
"""money (yuan), percent (%), times (倍), points (百分点: a change, not a level), other (年, 股, 美元…),
none (a bare number)."""

SCALES: dict[str, float] = {
    "万亿": 1e12,
    "千亿": 1e11,
    "百亿": 1e10,
    "亿": 1e8,
    "千万": 1e7,
    "百万": 1e6,
    "万": 1e4,
    "千": 1e3,
}
MONEY_UNIT_FACTORS: dict[str, float] = {
    "元": 1.0,
    "千元": 1e3,
    "万元": 1e4,
    "百万元": 1e6,
    "亿元": 1e8,
    "万亿元": 1e12,
}
ENGLISH_SCALES: dict[str, float] = {
    "trillion": 1e12,
    "billion": 1e9,
    "bn": 1e9,
    "million": 1e6,
    "mn": 1e6,
    "thousand": 1e3,
}
"""`RMB 67.54 billion`: an English scale word after the number (money only with a yuan marker beside it)."""

_CLAUSE_BREAKS = "。；;\n！？!?"
_SIGN_BREAKS = _CLAUSE_BREAKS + "，,"
_LOSS_WORDS = ("净亏损", "亏损", "净亏", "减亏")
_DECREASE_WORDS = ("下降", "减少", "下滑", "降低", "下跌", "负")
_ADJACENT_ONLY = frozenset({"负"})
"""`负` signs only the number right after it (`为负3.2亿`), never one further on (`负债总额3.2亿`)."""
_LEVEL_MARKERS = ("至", "到", "为")
"""`下降至3亿` states the new level (positive), `下降3亿` the change (negative)."""
_SIGN_WINDOW = 8
_MAX_SIGN_GAP = 6

FOREIGN_CURRENCIES = (
    "美元 港元 港币 欧元 日元 英镑 韩元 韩币 台币 澳元 加元 新加坡元 卢布 泰铢 卢比 法郎"
).split()
"""Currencies other than RMB by their Chinese names: an amount in one is no yuan figure (its unit reads as
`other` here, and prose takes no money figure beside one)."""

_OTHER_UNITS = tuple(
    ["元/股", "元每股", *FOREIGN_CURRENCIES, "新台币", "新元", "瑞士法郎"]
    + (
        "年 月 日 季度 天 小时 股 人 名 户 家 个 只 次 "
        "台 辆 件 套 吨 千瓦 瓦 度 平方米 平米 立方米 桶 张 份 手 笔 头 箱 升 千克 公斤 克 公里 "
        "米 亩 片 座 条 项 颗 位 所 ‰"
    ).split()
)
"""Measure words after a number (or after its 万/亿) that make it something other than money."""
_NUMBER_RE = re.compile(
    r"(?P<sign>-)?"
    r"(?P<int>[0-9]{1,3}(?:,[0-9]{3})+|[0-9]+)(?:\.(?P<frac>[0-9]+))?"
    r"[ \t]?(?P<scale>万亿|千亿|百亿|亿|千万|百万|万|千)?"
    r"[ \t]?(?P<unit>元/股|元每股|元|个百分点|百分点|%|倍)?"
)
_GLUED_RE = re.compile(r"\.[0-9]")
"""A second decimal point right after a number's fraction (`122.85305.52360.59`): a table's columns a PDF
extractor printed with nothing between them, or a date or a section number (`2020.10.28`, `3.2.1`)."""
_ENGLISH_SCALE_RE = re.compile(r"[ \t]?(trillion|billion|million|thousand|bn|mn)(?![A-Za-z])", re.IGNORECASE)
_TIMES_X_RE = re.compile(r"[xX×](?![A-Za-z])")
_YUAN_BEFORE_RE = re.compile(r"(?:RMB|CNY|Rmb|rmb|¥|人民币)[ \t]?$")
_YUAN_AFTER_RE = re.compile(r"[ \t]?(?:yuan|RMB|CNY)(?![A-Za-z])", re.IGNORECASE)
_FOREIGN_BEFORE_RE = re.compile(r"(?:US\$|USD|HK\$|HKD|EUR|\$|€|£|美元|港元)[ \t]?$")
_FOREIGN_AFTER_RE = re.compile(
    r"[ \t]?(?:USD|US dollars?|dollars?|HKD|EUR|美元|港元|港币)(?![A-Za-z])", re.IGNORECASE
)
_AFTER_OTHER_RE = re.compile(
    "[ \t]?(?:" + "|".join(re.escape(u) for u in sorted(_OTHER_UNITS, key=len, reverse=True)) + ")"
)
_PERIOD_TAG_AFTER_RE = re.compile(r"(?:Q[1-4]|H[12])(?![A-Za-z])")
_YEAR_RE = re.compile(r"(?:19|20)[0-9]{2}|[12][0-9]")
"""`2019Q1`, `2020H1`: a year glued to a quarter's or a half's tag is a period (a column heading), never a
figure; a unit declared for the table (`（分季度，亿元）`) does not make it 2019亿元.
A two-digit year glued to the tag is the same heading written short (`净利润20Q1~Q3(亿元)`: 2020's
first three quarters, not 20亿元)."""
_EXHIBIT_BEFORE_RE = re.compile(r"(?:图表|图|表)$")
"""`图表5：`, `图17公司人工晶体营收`, `表3`: an integer right after an exhibit's word is the exhibit's number.
Charts' captions run into the text extracted from a PDF (`华东医药PE-Bands图表5：华东医药PB-Bands`), and
the number would otherwise be read as the figure of the label before it (a PE of 5)."""
_RMB_AFTER_RE = re.compile(r"[ \t]?人民币")
"""`90.2亿人民币`: 人 here begins 人民币, not a count of people."""
_CARRIED_CURRENCY_RE = re.compile(
    r"(?:" + "|".join(sorted(("新台币", *FOREIGN_CURRENCIES), key=len, reverse=True)) + r")"
    r"[ \t]?[(（][ \t]?(?:货币)?(?:单位|币种)?(?:均)?下同[ \t]?[)）]"
)
"""`收益3188.5万港元(单位下同)`: a foreign currency declared for the amounts after it; a later
`亏损1594万元` in the same paragraph is in that currency, not yuan (`_foreign_carried`)."""
_RMB_BEFORE_RE = re.compile(r"(?:RMB|CNY|¥|人民币)[ \t]?-?$", re.IGNORECASE)
_HEADER_UNIT_RE = re.compile(
    r"[(（]\s*(?:(?:金额)?单位[:：]\s*)?(?:人民币)?\s*(万亿元|亿元|百万元|万元|千元|元|%)\s*[)）]"
)
_SENTENCE_STOP_RE = re.compile(r"[。！？]")
"""A sentence's end: no table row holds one."""
_DECLARED_UNIT_RE = re.compile(
    r"单位(?:[:：]|均以|均为|为|以)\s*(?:人民币)?\s*(万亿元|亿元|百万元|万元|千元|元|%)"
)


@dataclass(frozen=True)
class FoldedText:
    """`text` folded for number parsing, with the map back to original offsets.

    Most characters fold to exactly one, so the map is kept as its exceptions only (`expansions`): a list
    of offsets per character would cost about 40 bytes a character, 40 MB for a 1,000,000-character report.
    """

    original: str
    text: str
    expansions: list[tuple[int, int, int]] = field(default_factory=list)
    """(folded offset, original offset, folded length) of each character that did not fold to one."""

    def origin(self, i: int) -> int:
        """Original offset of folded character `i`."""
        k = bisect_right(self._starts, i) - 1
        if k < 0:
            return i
        at, orig, length = self.expansions[k]
        return orig if i < at + length else orig + 1 + (i - at - length)

    @cached_property
    def _starts(self) -> list[int]:
        return [e[0] for e in self.expansions]

    def span(self, start: int, end: int) -> tuple[int, int]:
        """Original [start, end) offsets of folded [start, end)."""
        if end <= start:
            o = self.origin(start) if start < len(self.text) else len(self.original)
            return o, o
        return self.origin(start), self.origin(end - 1) + 1


_DASHES = "−﹣‒–"
_FULL_WIDTH_COMMA_RE = re.compile(r"(?<=[０-９])，(?=[０-９])")
_ASCII_GROUPS_RE = re.compile(r"(?<![0-9.,，A-Za-z])[0-9]{1,3}(?:，[0-9]{3})+(?=\.[0-9]|\s?[万亿元千百])")
"""Only an amount (decimals or a money scale after it): `营收100，300家门店` is two numbers, a clause
apart."""


_TRADITIONAL_MIN = 3
"""Distinct traditional-only characters that make a text a traditional-character filing (a Hong Kong or
Taiwan report), whose every character OpenCC simplifies is then folded; fewer are strays in a simplified
text, and only they are folded."""

_FINANCIAL_SENSE = {"帐": "账"}
"""OpenCC's character table gives 帳 the ledger sense 帐; a filing's 帳 is the accounts' 账 (應收帳款)."""


@lru_cache(maxsize=1)
def _t2s() -> Any:
    """OpenCC's traditional-to-simplified converter, built on first use (a text with no traditional
    character never loads it)."""
    from opencc import OpenCC

    return OpenCC("t2s")


@lru_cache(maxsize=8192)
def _simplified(ch: str) -> str | None:
    """The one simplified character OpenCC gives `ch`, or None where it keeps it or gives no single one
    (a fold must stay one for one so evidence offsets map back)."""
    if not ("\u3400" <= ch <= "\u9fff" or "\U00020000" <= ch <= "\U0002ffff"):
        return None
    out = _t2s().convert(ch)
    if len(out) != 1 or out == ch:
        return None
    return _FINANCIAL_SENSE.get(out, out)


def _gb2312(ch: str) -> bool:
    """Whether `ch` is in GB 2312, the simplified standard: 乾 (乾照光电) and 於 are, 權 and 東 are not."""
    try:
        ch.encode("gb2312")
    except UnicodeEncodeError:
        return False
    return True


def fold_char(ch: str, traditional: bool = False) -> str:
    """One character folded: NFKC (full-width digits, `．`, `％`, `－`), U+2212 minus to `-`, `，` kept, and a
    traditional character to its simplified one (OpenCC's table, one for one): any such character in a
    traditional-character filing, only one outside GB 2312 in a simplified text (so `乾照光电` stays)."""
    if ch < "\x80" or ch == "，":
        return ch
    if ch in _DASHES:
        return "-"
    if traditional or not _gb2312(ch):
        simple = _simplified(ch)
        if simple is not None:
            return simple
    return unicodedata.normalize("NFKC", ch)


def _is_traditional(chars: set[str]) -> bool:
    """A text printing at least `_TRADITIONAL_MIN` distinct characters that only traditional writing uses."""
    count = 0
    for ch in chars:
        if ch >= "\u3400" and not _gb2312(ch) and _simplified(ch) is not None:
            count += 1
            if count >= _TRADITIONAL_MIN:
                return True
    return False


def fold(text: str) -> FoldedText:
    """Fold `text` character by character, keeping the offset map back to the original.

    `，` between full-width digits (`１，５０５，６００`) is that writer's thousands separator and folds to
    `,`; elsewhere it stays a clause break. Each distinct character is folded once and the text is mapped
    in one `str.translate` (a Python loop over the characters cost time and memory per character).
    """
    if text.isascii():
        return FoldedText(text, text)
    table: dict[int, str] = {}
    chars = set(text)
    traditional = _is_traditional(chars)
    for ch in chars:
        folded = fold_char(ch, traditional)
        if folded != ch:
            table[ord(ch)] = folded
    source = _FULL_WIDTH_COMMA_RE.sub(",", text) if "，" in text else text
    if "，" in source:  # `22，116.28万元`: a full-width comma between digit groups of three
        source = _ASCII_GROUPS_RE.sub(lambda m: m.group(0).replace("，", ","), source)
    expansions: list[tuple[int, int, int]] = []
    uneven = [chr(c) for c, f in table.items() if len(f) != 1]
    if uneven:
        shift = 0
        for m in re.finditer("[" + "".join(re.escape(c) for c in uneven) + "]", source):
            length = len(table[ord(m.group(0))])
            expansions.append((m.start() + shift, m.start(), length))
            shift += length - 1
    return FoldedText(text, source.translate(table), expansions)


@dataclass(frozen=True)
class Mention:
    """One printed number, read with its sign and unit."""

    start: int
    """Offset in the original text (of the number; a sign word before it is not included)."""
    end: int
    printed: str
    """The original characters of the span, e.g. `１５０．５６亿元`."""
    magnitude: float
    """The printed number, unsigned, in the printed scale (150.56 for `150.56亿元`)."""
    negative: bool
    decimals: int
    """Digits after the decimal point as printed (the text's precision)."""
    factor: float
    """Printed scale to base unit (1e8 for `亿元`)."""
    kind: UnitKind
    unit_source: Literal["beside", "header", "declared", "none"]
    """Where the unit came from: printed beside the number, a `(万元)` header on the same line, or an
    earlier `单位：万元` declaration."""
    folded_start: int
    """Offset of the number in the folded text (for keyword look-back)."""

    @property
    def folded_end(self) -> int:
        """Offset right after the printed span in the folded text (folding keeps offsets, one for one)."""
        return self.folded_start + len(self.printed)

    @property
    def value(self) -> float:
        """Signed printed number (in the printed scale)."""
        return -self.magnitude if self.negative else self.magnitude

    @property
    def base(self) -> float:
        """Signed value in base units: yuan, percent or times, multiplied in decimal (318.53亿 is
        31853000000, not 31852999999.999996)."""
        return float(Decimal(repr(self.value)) * Decimal(repr(self.factor)))


def clause_start(folded: str, pos: int, breaks: str = _CLAUSE_BREAKS, limit: int = 60) -> int:
    """Start of the clause holding `pos`: after the last break character, at most `limit` chars back."""
    lo = max(0, pos - limit)
    for i in range(pos - 1, lo - 1, -1):
        if folded[i] in breaks:
            return i + 1
    return lo


_LOSS_LIST_RE = re.compile(
    r"(?<![扭减])(?:(?:净亏损|亏损)(?:额)?分别|分别(?:净亏损|亏损))(?:为|是|达到?)?\s?"
    r"(?:[-−]?[0-9][0-9.,]*\s?(?:万亿|亿|千万|百万|万|千)?元?\s?[、/]\s?)+$"
)
"""`亏损分别为22.075亿元、15.046亿元、11.335亿元`: every amount of a list of losses is a loss, not only the
first, right after the word."""


def _word_sign(folded: str, pos: int) -> bool:
    """True when a sign word right before `pos` (same comma-clause) makes the number negative."""
    if _LOSS_LIST_RE.search(folded, clause_start(folded, pos, _SIGN_BREAKS, 60), pos):
        return True
    lo = clause_start(folded, pos, _SIGN_BREAKS, _SIGN_WINDOW)
    window = folded[lo:pos]
    for word in _LOSS_WORDS:
        idx = window.rfind(word)
        if idx >= 0 and len(window) - idx - len(word) <= _MAX_SIGN_GAP:
            if word == "亏损" and window[max(0, idx - 1) : idx] == "扭":
                continue
            return True
    best = -1
    best_word = ""
    for word in _DECREASE_WORDS:
        idx = window.rfind(word)
        if idx > best:
            best, best_word = idx, word
    if best < 0:
        return False
    gap = window[best + len(best_word) :]
    if best_word in _ADJACENT_ONLY:
        return gap.strip() == ""
    return len(gap) <= _MAX_SIGN_GAP and not any(m in gap for m in _LEVEL_MARKERS)


class _ContextUnits:
    """Units stated away from the numbers, indexed once per text so each lookup is a bisection.

    `营业收入（万元） 1,505,600` (a header earlier on the same line) or an earlier `单位：万元` declaration.
    """

    def __init__(self, folded: str) -> None:
        self._headers = [(m.end(), m.start(), m.group(1)) for m in _HEADER_UNIT_RE.finditer(folded)]
        self._header_ends = [h[0] for h in self._headers]
        self._declared = [(m.end(), m.group(1)) for m in _DECLARED_UNIT_RE.finditer(folded)]
        self._declared_ends = [d[0] for d in self._declared]
        # Indexed too: a search back to the previous newline per number is quadratic in a long text
        # printed without line breaks.
        self._breaks = [m.start() for m in re.finditer("\n", folded)]
        self._stops = [m.start() for m in _SENTENCE_STOP_RE.finditer(folded)]

    def at(self, pos: int) -> tuple[str, Literal["header", "declared"]] | None:
        k = bisect_left(self._breaks, pos) - 1
        line_start = self._breaks[k] + 1 if k >= 0 else 0
        i = bisect_right(self._header_ends, pos) - 1
        if i >= 0 and self._headers[i][1] >= line_start and not self._stop_between(self._headers[i][0], pos):
            return self._headers[i][2], "header"
        j = bisect_right(self._declared_ends, pos) - 1
        if j >= 0:
            return self._declared[j][1], "declared"
        return None

    def _stop_between(self, lo: int, hi: int) -> bool:
        """Whether a sentence ends between a header and a number: a header's unit is its row's, and a
        row never ends a sentence. A text a PDF extractor printed without line breaks holds its tables
        and its prose on one line (`…ROE(%)43.745.0…` then, pages later, `营收和归母净利润分别达到
        4.64/2.90亿元`): past the first `。` after a header, a bare number is prose's, no cell of it."""
        k = bisect_left(self._stops, lo)
        return k < len(self._stops) and self._stops[k] < hi


def _classify(
    unit: str | None, scale: str | None, folded: str, end: int, prev: str
) -> tuple[UnitKind, float]:
    """Unit kind and factor from what is printed beside the number (`prev`: the character before it)."""
    scale_factor = SCALES.get(scale or "", 1.0)
    if unit in ("%",):
        return ("percent", 1.0) if scale is None else ("other", 1.0)
    if unit in ("个百分点", "百分点"):
        return "points", 1.0
    if unit == "倍":
        return ("times", 1.0) if scale is None else ("other", 1.0)
    if unit in ("元/股", "元每股"):
        return "other", 1.0
    if unit == "元":
        return "money", scale_factor
    # no unit word matched: a following measure word (股, 人, 年, 美元…) makes it something else
    if (_AFTER_OTHER_RE.match(folded, end) and not _RMB_AFTER_RE.match(folded, end)) or prev == "$":
        return "other", 1.0
    if scale is not None or prev == "¥":
        # `营收150.56亿，` : a bare 亿/万 in a financial report means yuan
        return "money", scale_factor
    return "none", 1.0


_ENGLISH_LOSS_RE = re.compile(r"\b(?:net )?loss(?:es)?\b[^,.;:\n]{0,24}$", re.IGNORECASE)


_COLUMN_BREAK_BEFORE_RE = re.compile(r"(?:^|[\s|])\($")
_NUMBERS_ONLY_AFTER_RE = re.compile(r"\)[\s|0-9,.%()\-]*$")
_CELL_BEFORE_RE = re.compile(r"\|\s*\($")
_CELL_AFTER_RE = re.compile(r"\)\s*(?:\||$)")


def _accounting_negative(folded: str, start: int, end: int) -> bool:
    """`(21,382)` in a statement's or a table's row: the accountant's minus sign.

    Only a number alone in its brackets, standing as a column of its row (a blank or a `|` before the
    bracket) with nothing but more columns after it on the line: `利息支出 37 (104,954) (109,626)`,
    `| 营业收入 | 146,695 | 164,699 | (10.9%) |`. A bracket in prose (`同比（+10.9%）`, `30.2%（29.1%）`)
    is an aside, not a sign.
    """
    if start < 1 or folded[start - 1] != "(" or folded[end : end + 1] != ")":
        return False
    line_start = folded.rfind("\n", 0, start) + 1
    line_end = folded.find("\n", end)
    line_end = len(folded) if line_end < 0 else line_end
    before, after = folded[line_start:start], folded[end:line_end]
    if _CELL_BEFORE_RE.search(before) and _CELL_AFTER_RE.match(after):
        return True  # a `| (12,045) |` cell
    if not _COLUMN_BREAK_BEFORE_RE.search(before):
        return False
    return bool(_NUMBERS_ONLY_AFTER_RE.match(after))


def _english_loss(folded: str, pos: int) -> bool:
    """`net loss of RMB 1.2 billion`: an English loss word shortly before the number, same clause."""
    return bool(_ENGLISH_LOSS_RE.search(folded[max(0, pos - 40) : pos]))


def _english_unit(
    folded: str, start: int, end: int, kind: UnitKind, factor: float
) -> tuple[UnitKind, float, int]:
    """Kind, factor and end of a number written the English way: `RMB 67.54 billion`, `US$9.3bn`, `20.5x`.

    A scaled amount is yuan only with a yuan marker beside it (RMB / CNY / ¥ / 人民币 before, `yuan` after);
    with a foreign currency beside it, or none at all, it is not yuan (`other`): an unmarked `billion`
    could be dollars, and USD amounts are never revenue in yuan.
    """
    scaled = _ENGLISH_SCALE_RE.match(folded, end)
    if scaled is not None:
        before = folded[max(0, start - 8) : start]
        after_end = scaled.end()
        yuan_after = _YUAN_AFTER_RE.match(folded, after_end)
        if _FOREIGN_BEFORE_RE.search(before) or _FOREIGN_AFTER_RE.match(folded, after_end):
            return "other", 1.0, after_end
        if _YUAN_BEFORE_RE.search(before) or yuan_after:
            return "money", ENGLISH_SCALES[scaled.group(1).lower()], after_end
        return "other", 1.0, after_end
    if kind == "none" and _TIMES_X_RE.match(folded, end):
        return "times", 1.0, end + 1
    return kind, factor, end


def _carried_spans(folded: str) -> list[tuple[int, int]]:
    """Where a foreign currency declared once (`万港元(单位下同)`) stands for the amounts printed after it:
    from the declaration to the end of its paragraph."""
    spans = []
    for m in _CARRIED_CURRENCY_RE.finditer(folded):
        line_end = folded.find("\n", m.end())
        spans.append((m.end(), len(folded) if line_end < 0 else line_end))
    return spans


def _foreign_carried(folded: str, spans: list[tuple[int, int]], start: int, end: int) -> bool:
    """An amount in yuan words (`1594万元`) inside a span where a foreign currency was declared `下同`: it is
    in that currency, unless it says 人民币 itself (`人民币1.2亿元`, `1.2亿元人民币`)."""
    if not any(lo <= start < hi for lo, hi in spans):
        return False
    return not (_RMB_BEFORE_RE.search(folded[max(0, start - 5) : start]) or _RMB_AFTER_RE.match(folded, end))


@dataclass(frozen=True)
class ScannedText:
    """A report text read once: its folded form and every number it prints."""

    folded: FoldedText
    mentions: list[Mention]


def scan(text: str) -> ScannedText:
    """Fold `text` and read every number printed in it, in order of appearance."""
    ft = fold(text)
    folded = ft.text
    context = _ContextUnits(folded)
    carried = _carried_spans(folded)
    mentions: list[Mention] = []
    for m in _NUMBER_RE.finditer(folded):
        start = m.start("int")
        prev = folded[start - 1] if start > 0 else ""
        if prev.isdigit() or prev == ".":
            continue  # the tail of something else: `1.2.3`
        sign = m.group("sign") is not None
        if sign:
            before = folded[m.start() - 1] if m.start() > 0 else ""
            if before.isdigit() or (before.isascii() and before.isalpha()) or before in "%元亿万倍":
                sign = False  # a range or a name: `2023-2024`, `PE-35`, `70%-75%`, `1883.70万元–2260.44万元`
            else:
                prev = before
        frac = m.group("frac") or ""
        if frac and _GLUED_RE.match(folded, m.end("frac")):
            continue  # columns run together: `归母净利122.85305.52360.59…`, no number says where it ends
        digits = m.group("int").replace(",", "")
        magnitude = float(f"{digits}.{frac}" if frac else digits)
        unit, scale = m.group("unit"), m.group("scale")
        last = "unit" if unit else "scale" if scale else "frac" if frac else "int"
        end = m.end(last)
        kind, factor = _classify(unit, scale, folded, end, prev)
        if unit is None and scale is None:
            kind, factor, end = _english_unit(folded, m.start(), end, kind, factor)
        if (
            kind == "none"
            and not frac
            and _PERIOD_TAG_AFTER_RE.match(folded, end)
            and _YEAR_RE.fullmatch(digits)
        ):
            kind = "other"  # `归母净利润（分季度）2019Q1 2019Q2`: a column's period, not an amount in 亿元
        exhibit = _EXHIBIT_BEFORE_RE.search(folded, max(0, start - 2), start)
        if kind == "none" and not frac and len(digits) <= 3 and exhibit:
            kind = "other"  # `PE-Bands图表5：…`: an exhibit's number, not a figure under the label before it
        unit_source: Literal["beside", "header", "declared", "none"] = "beside"
        if kind == "none":
            unit_source = "none"
            ctx = context.at(start)
            if ctx is not None:
                ctx_unit, unit_source = ctx
                kind, factor = (
                    ("percent", 1.0) if ctx_unit == "%" else ("money", MONEY_UNIT_FACTORS[ctx_unit])
                )
        if kind == "money" and carried and _foreign_carried(folded, carried, m.start(), end):
            kind, factor = "other", 1.0
        negative = (
            sign
            or _word_sign(folded, m.start())
            or _english_loss(folded, m.start())
            or (not sign and _accounting_negative(folded, start, end))
        )
        o_start, o_end = ft.span(m.start() if sign else start, end)
        mentions.append(
            Mention(
                start=o_start,
                end=o_end,
                printed=text[o_start:o_end],
                magnitude=magnitude,
                negative=negative and magnitude != 0,
                decimals=len(frac),
                factor=factor,
                kind=kind,
                unit_source=unit_source,
                folded_start=m.start(),
            )
        )
    return ScannedText(ft, mentions)


def find_mentions(text: str) -> list[Mention]:
    """Every number printed in `text`, in order of appearance."""
    return scan(text).mentions


PRINTED_MONEY_UNITS: dict[float, str] = {
    1.0: "元",
    1e3: "千元",
    1e4: "万元",
    1e6: "百万元",
    1e8: "亿元",
    1e9: "十亿元",
    1e12: "万亿元",
}


def printed_unit(mention: Mention) -> str:
    """The unit a mention was printed in (or given by its table or list), as a person writes it."""
    if mention.kind == "money":
        return PRINTED_MONEY_UNITS.get(mention.factor, "元")
    if mention.kind == "percent":
        return "%"
    if mention.kind == "other" and mention.printed.rstrip().endswith(("元/股", "元每股", "元／股")):
        return "元/股"
    return "倍"
