"""A filing read once for the fact readers: folded text, numbers, labels, periods, sentences and the company.

Why one shared reading: the prose, list and table readers all ask the same questions of a number (which
sentence holds it, which label is nearest before it, which period the sentence names, who the subject
is), and a long filing must be scanned once, with every lookup a bisection, not a walk back over the text.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field

from lmscreen.task.metrics import Label, find_labels
from lmscreen.task.period_text import PeriodMention, find_periods
from lmscreen.task.periods import Period
from lmscreen.task.statements import COLUMNS_END_RE, Statements
from lmscreen.task.units import Mention, ScannedText

SENTENCE_BREAKS = "。；;\n!?！？│"
"""Where a sentence ends; `│`, a box-drawing bar a PDF extraction keeps between a cover's fields
(`目标价(人民币):190.972021年3月31日│中国内地医药健康/…线上业务高增长，…公司20年实现收入26.3亿元`), ends one
too: the price target before it is no forecast word of the summary after it."""
STOPS = "。!?！？\n"
"""A full stop: a period named at a sentence's start holds for its clauses after `；`."""
CLAUSE_BREAKS = SENTENCE_BREAKS + "，,"
SUBJECT_BREAKS = CLAUSE_BREAKS + "：:（("
PARAGRAPH_BREAK_RE = re.compile(r"\n|[ \t\u3000]{2,}")
"""Where a paragraph ends: a line break, or the run of blanks a page dump or a web page puts between
paragraphs (`　　`) where it keeps no line breaks."""
_SOFT_WRAP_MIN = 25
"""A PDF line at least this long, ending mid-sentence, was wrapped by the layout, not ended by the writer."""
_ENGLISH_STOP_RE = re.compile(r"[.](?=\s)")
_ALIAS_PATTERNS = (
    re.compile(r"^\s*([\u4e00-\u9fffA-Z*]{2,12}?)(?=\s?(?:20[0-9]{2}|发布|公布|披露|[(（]|：|:))"),
    re.compile(
        r"(?:^|(?<=[\s，,。：:；;“\"日电]))([\u4e00-\u9fffA-Z*]{2,10})(?=(?:于[0-9]{1,2}月[0-9]{1,2}日)?(?:发布|公布|披露))"
    ),
    re.compile(r"[（(]([\u4e00-\u9fff]{2,8})[，,、]?\s?[0-9]{6}"),
    re.compile(r"([\u4e00-\u9fff]{2,8})[（(][0-9]{6}"),
)
PRIOR_ASIDE_RE = re.compile(
    r"[（(]\s?(?P<when>20[0-9]{2}\s?年(?:度|同期|全年)?|上年同期|去年同期|上年度|上年|去年|上期|同期)\s?"
    r"(?:[：:]|为|是|-?[0-9])[^（()）。；;]{0,40}[）)]"
)
"""A bracketed aside that opens on an earlier period and gives its figure (`毛利率为32.5%（2024年：30.1%）`,
`（上年同期为45.78%）`, `(去年同期424亿元)`): the aside's period is its own, and sets no period for anything
outside it."""
_DIGEST_HEAD_RE = re.compile(
    r"【\s?(?P<name>[\u4e00-\u9fffA-Za-z*]{2,8}?)\s?"
    r"(?:[：:|｜]|业绩快报|业绩预告|年度报告|半年度报告|半年报|年报|季报|三季报|一季报)[^【】]{0,80}】\s*"
)
"""An item of a digest of announcements (`【巨星科技业绩快报：2020年度净利润13.11亿元…】  巨星科技公告，…`): a
bracketed heading that opens on a company's name, and a body that opens on the same name."""
_ALIAS_LEAD_RE = re.compile(r"^(?:根据|据|由|今日|日前|近日|昨日|电|讯|事件|点评|简评|消息|公告|截至|截止)+")
"""Words that lead a text's opening before its subject's name, or stand in it with no name
(`截至2021年12月末，全国共有150家期货公司`: an as-of date, no one's name)."""


@dataclass
class Reading:
    """The filing as the fact readers see it."""

    text: str
    """The original text (evidence offsets point into it)."""
    scanned: ScannedText
    """Numbers, read from the text with its markup blanked (task/layout.py)."""
    labels: list[Label]
    periods: list[PeriodMention]
    aliases: tuple[str, ...] = ()
    """The company's names: given by the caller, and those the filing introduces (`中联重科2019年…`,
    `（常熟银行，601128.SH）`, `万孚生物发布…`)."""
    main: Period | None = None
    table_lines: set[int] = field(default_factory=set)
    """Folded offsets of the lines (and markup rows) that are table rows: their numbers are read by column."""
    statements: Statements = field(default_factory=lambda: Statements((), frozenset(), frozenset()))
    """Where the filing prints a parent-only statement (task/statements.py)."""
    _label_ends: list[int] = field(default_factory=list)
    _period_starts: list[int] = field(default_factory=list)
    _line_breaks: list[int] = field(default_factory=list)
    _mention_starts: list[int] = field(default_factory=list)
    prior_asides: list[tuple[int, int]] = field(default_factory=list)
    """Folded [start, end) of the brackets that give an earlier period's figure (`PRIOR_ASIDE_RE`)."""
    _aside_starts: list[int] = field(default_factory=list)
    adjusted: list[tuple[str, float, int]] = field(default_factory=list)
    """Metric, amount (unsigned, base units) and offset (the original text's) of each amount the prose read
    as the writer's adjusted figure (`非美国通用会计准则下，归属股东净亏损为7880万元`), so a headline quoting
    it is known."""
    digest_items: list[tuple[int, int, str]] = field(default_factory=list)
    """Folded [start, end) and company of each item of a digest of several companies' announcements."""
    digest_own: tuple[str, ...] = ()
    _scans: dict[re.Pattern[str], tuple[list[re.Match[str]], list[int]]] = field(
        default_factory=dict, repr=False, compare=False
    )

    @property
    def folded(self) -> str:
        return self.scanned.folded.text

    @classmethod
    def of(cls, text: str, scanned: ScannedText, names: tuple[str, ...] = ()) -> Reading:
        folded = scanned.folded.text
        labels = find_labels(folded)
        periods = find_periods(folded)
        reading = cls(text, scanned, labels, periods)
        reading._label_ends = [lab.end for lab in labels]
        reading._period_starts = [p.start for p in periods]
        reading._line_breaks = [m.start() for m in re.finditer("\n", folded)]
        reading._mention_starts = [m.folded_start for m in scanned.mentions]
        reading.aliases = _aliases(folded, names)
        reading.prior_asides = [(m.start(), m.end()) for m in PRIOR_ASIDE_RE.finditer(folded)]
        reading._aside_starts = [a for a, _ in reading.prior_asides]
        reading.digest_items = _digest_items(folded)
        if reading.digest_items:  # the digest's own company: named by the caller or before its first item
            reading.digest_own = _aliases(folded[: reading.digest_items[0][0]], names)
        return reading

    # --- positions ------------------------------------------------------------------------------------
    def matches_before(self, pattern: re.Pattern[str], pos: int) -> list[re.Match[str]]:
        """What `pattern.finditer(self.folded, 0, pos)` yields, from one scan of the whole text kept for the
        reading: a rule that looks back to the text's start for each figure (the heading over a paragraph, a
        company the text says is being bought) would otherwise scan the text again for every figure,
        quadratic in a long filing. A match of the whole text that runs past `pos` is matched again with the
        text cut at `pos`, so the result is the same for any pattern that looks at nothing after its match
        (no lookahead, `$` or `\\b` at its end)."""
        scan = self._scans.get(pattern)
        if scan is None:
            found = list(pattern.finditer(self.folded))
            scan = self._scans[pattern] = (found, [m.end() for m in found])
        found, ends = scan
        k = bisect_right(ends, pos)
        out = found[:k]
        if k < len(found) and found[k].start() < pos:
            out.extend(pattern.finditer(self.folded, found[k].start(), pos))
        return out

    def line_start(self, pos: int) -> int:
        i = bisect_left(self._line_breaks, pos) - 1
        return self._line_breaks[i] + 1 if i >= 0 else 0

    def start_of(self, pos: int, breaks: str, limit: int) -> int:
        """Start of the span holding `pos` that no character of `breaks` interrupts (a PDF's soft line wrap
        does not count as a break), at most `limit` characters back."""
        folded = self.folded
        lo = max(0, pos - limit)
        i = pos - 1
        while i >= lo:
            ch = folded[i]
            if ch in breaks and not (ch == "\n" and _soft_wrap(folded, i)) and not _grouping(folded, i):
                return i + 1
            if ch == " " and i > 0 and folded[i - 1] == " " and i + 1 < pos:
                return i + 1  # a run of blanks: a paragraph break in pasted notes (`预期　　2020年…`)
            i -= 1
        return lo

    def end_of(self, pos: int, breaks: str, limit: int) -> int:
        folded = self.folded
        hi = pos
        n = len(folded)
        while hi < n and hi - pos < limit:
            ch = folded[hi]
            if ch in breaks and not (ch == "\n" and _soft_wrap(folded, hi)) and not _grouping(folded, hi):
                break
            if ch == " " and hi + 1 < n and folded[hi + 1] == " ":
                break
            if ch == "." and (hi + 1 == n or folded[hi + 1].isspace()):
                break
            hi += 1
        return hi

    def sentence(self, pos: int, breaks: str = SENTENCE_BREAKS, limit: int = 90) -> tuple[int, int]:
        """[start, end) of the sentence holding `pos`: Chinese breaks, or an English full stop before a
        space."""
        lo = self.start_of(pos, breaks, limit)
        stops = [m.end() for m in _ENGLISH_STOP_RE.finditer(self.folded, lo, pos)]
        if stops:
            lo = stops[-1]
        return lo, self.end_of(pos, breaks, limit)

    def stop_start(self, pos: int, limit: int = 120) -> int:
        """Start of the full sentence (to the last full stop, Chinese or English) holding `pos`."""
        lo = self.start_of(pos, STOPS, limit)
        stops = [m.end() for m in _ENGLISH_STOP_RE.finditer(self.folded, lo, pos)]
        return stops[-1] if stops else lo

    # --- lookups --------------------------------------------------------------------------------------
    def label_before(self, pos: int, lo: int) -> Label | None:
        """The last label ending at or before `pos` and starting at or after `lo`."""
        i = bisect_right(self._label_ends, pos) - 1
        if i < 0:
            return None
        label = self.labels[i]
        return label if label.start >= lo else None

    def labels_in(self, lo: int, hi: int) -> list[Label]:
        i = bisect_left(self._label_ends, lo)
        out = []
        while i < len(self.labels) and self.labels[i].end <= hi:
            if self.labels[i].start >= lo:
                out.append(self.labels[i])
            i += 1
        return out

    def periods_in(self, lo: int, hi: int) -> list[PeriodMention]:
        """The periods starting in folded [lo, hi), but for those inside a prior-period aside that closes
        before `hi` (`（2024年：30.1%）`: the aside's year is its own figure's, not the clauses' after it)."""
        i = bisect_left(self._period_starts, lo)
        out = []
        while i < len(self.periods) and self.periods[i].start < hi:
            p = self.periods[i]
            aside = self.prior_aside(p.start)
            if aside is None or aside[1] > hi:
                out.append(p)
            i += 1
        return out

    def names_company(self, name: str) -> bool:
        """Whether `name` is one of the company's names, or part or whole of one (`格力` / `格力电器`): a
        sentence opening on it is about the company, not a part or another company."""
        return any(alias in name or name in alias for alias in self.aliases)

    def digest_item(self, pos: int) -> str | None:
        """The company whose item of a digest holds folded `pos` (None outside a digest)."""
        for lo, hi, name in self.digest_items:
            if lo <= pos < hi:
                return name
        return None

    def prior_aside(self, pos: int) -> tuple[int, int] | None:
        """The prior-period aside holding folded `pos`, if any."""
        i = bisect_right(self._aside_starts, pos) - 1
        if i >= 0 and pos < self.prior_asides[i][1]:
            return self.prior_asides[i]
        return None

    def mentions_in(self, lo: int, hi: int) -> list[Mention]:
        """The mentions starting in folded [lo, hi)."""
        m = self.scanned.mentions
        return m[bisect_left(self._mention_starts, lo) : bisect_left(self._mention_starts, hi)]

    def mention_index(self, mention: Mention) -> int:
        return bisect_left(self._mention_starts, mention.folded_start)


def _digest_items(folded: str) -> list[tuple[int, int, str]]:
    """The items of a digest: two or more companies' items (`_DIGEST_HEAD_RE`), each to the next `【`."""
    heads = [m for m in _DIGEST_HEAD_RE.finditer(folded) if folded.startswith(m.group("name"), m.end())]
    if len({m.group("name") for m in heads}) < 2:
        return []
    items = []
    for m in heads:
        nxt = folded.find("【", m.end())
        items.append((m.start(), nxt if nxt >= 0 else len(folded), m.group("name")))
    return items


def _grouping(folded: str, i: int) -> bool:
    """Whether the `,` at `i` groups a number's digits (`122,329.09万元`): no clause ends inside a number."""
    return (
        folded[i] == ","
        and 0 < i < len(folded) - 1
        and folded[i - 1].isdigit()
        and folded[i + 1 : i + 4].isdigit()
        and not folded[i + 4 : i + 5].isdigit()
    )


def _soft_wrap(folded: str, i: int) -> bool:
    """Whether the newline at `i` is a PDF layout's wrap inside a sentence: the line before it is long,
    ends mid-sentence (no full stop, colon or semicolon) and is no table row; the next line goes on."""
    start = folded.rfind("\n", 0, i) + 1
    line = folded[start:i]
    if len(line.strip()) < _SOFT_WRAP_MIN or "|" in line or "\t" in line:
        return False
    last = line.rstrip()[-1:]
    if last in "。；;：:！？!?）)" or not last:
        return False
    if COLUMNS_END_RE.search(line):
        return False  # `基本每股收益(人民币元) 48 2.15 2.25`: a statement's row ends in its columns
    end = folded.find("\n", i + 1)
    nxt = folded[i + 1 : end if end >= 0 else len(folded)]
    return bool(nxt) and nxt[0] not in " |\t" and "|" not in nxt and "\t" not in nxt


def _aliases(folded: str, names: tuple[str, ...]) -> tuple[str, ...]:
    found: list[str] = []
    for name in names:
        name = "".join((name or "").split())
        for prefix in ("*ST", "ST", "S*ST", "SST"):
            if name.upper().startswith(prefix) and len(name) > len(prefix) + 1:
                found.append(name[len(prefix) :])
        if len(name) >= 2:
            found.append(name)
        if len(name) >= 4 and name.startswith("中国"):
            found.append("中" + name[2:])  # `中国石化` is `中石化` in a note, `中国石油` `中石油`
    head = folded[:400]
    for pattern in _ALIAS_PATTERNS:
        for m in pattern.finditer(head):
            alias = _ALIAS_LEAD_RE.sub("", m.group(1))
            if len(alias) >= 2:
                found.append(alias)
    out: list[str] = []
    for alias in found:
        if alias not in out:
            out.append(alias)
        if len(alias) >= 4 and alias[:2] not in out and not alias[:2].isascii():
            out.append(alias[:2])
    return tuple(sorted(out, key=len, reverse=True))
