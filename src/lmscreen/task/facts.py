"""Every figure a filing prints, by metric, period, scope and basis: `read_facts(text) -> FactSheet`.

This is the reader `screen`, `compare` and `brief` share. It needs no model and no pool row:

    sheet = read_facts(text, page_at=pdf.page_at, names=("贵州茅台",))
    sheet.period                      # the document's own (main) period, e.g. Period(2024, "FY")
    sheet.facts                       # every Fact (task/fact.py), in text order
    sheet.screening()["revenue"]      # the screening field: its fact, or the conflict, or nothing

How it reads (each step its own module): the text's layout (task/layout.py: HTML, JSON-lines page dumps,
markup blanked so offsets stay the original's), its numbers (task/units.py), labels (task/metrics.py),
periods (task/period_text.py), its figures tables (task/tables.py, task/table_facts.py), `分别为` lists
(task/lists.py) and sentences (task/prose.py). The main period comes from the title or opening
(`发布2021年半年报`), else a table's current column; every fact's period is resolved against it.

The screening fields are the facts of the main period, the company, actual basis. Two such facts of one
field rank by label strength (`归属于…股东的净利润` before `净利润`) and then by where they were printed (the
report's 主要会计数据 table, other tables, text, a derived value); the best-ranked ones must agree, or the
field is a conflict: no value, flagged `conflict:<field>`. A number in a threshold or comparison clause
(`低于1亿元`) is never a fact. Readings too loose to be facts (a number far from its label, or not the
first after it) are kept as `readings`: candidates a served model may choose among, never a fact alone.
"""

from __future__ import annotations

import hashlib
import math
import re
from bisect import bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from lmscreen.periods import SOME_MONTHS
from lmscreen.task.context import PARAGRAPH_BREAK_RE, Reading
from lmscreen.task.fact import TIER_CONTEXT, Fact
from lmscreen.task.layout import read_layout
from lmscreen.task.lists import read_lists
from lmscreen.task.period_text import (
    find_periods,
    first_quarter_beside_annual,
    main_period,
    next_first_quarter,
    same,
)
from lmscreen.task.periods import Period
from lmscreen.task.prose import _ASPECT_RE, read_prose
from lmscreen.task.statements import read_statements
from lmscreen.task.table_facts import read_table_facts
from lmscreen.task.tables import flattened_tables, glued_year_headers, read_tables
from lmscreen.task.units import FoldedText, ScannedText, scan
from lmscreen.task.vocabulary import FORECAST_RE


def _reader_version() -> str:
    """A digest of the reader's own source: the task modules (this package's top level), the period
    vocabulary and the filings readers that give it its text. A hand-kept number was never raised when the
    reader changed (it stayed "1" through dozens of reader changes), so a cached document's facts from an
    older reader were read back as current; the source cannot be changed without changing this."""
    here = Path(__file__).resolve().parent
    package = here.parent
    files = sorted(here.glob("*.py")) + [package / "periods.py"] + sorted((package / "filings").glob("*.py"))
    digest = hashlib.sha256()
    for path in files:
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


FACTS_VERSION = _reader_version()
"""Part of the prompt hash and of every cached document's facts: both depend on the reader."""
SCREEN_FIELDS: tuple[str, ...] = ("revenue", "net_profit", "gross_margin", "roe", "pe_ttm")
_AGREE = 0.005
_ANNOUNCED_RE = re.compile(
    r"(?:发布|公布|披露|公告)(?:了|的)?\s?[^。；]{0,24}?(?:年度报告|年报|半年报|中报|季报|季度报告|业绩报告|中期报告"
    r"|业绩快报|半年度报告|财务报告|业绩)"
)
"""A report's announcement (`公司发布2022年中期业绩报告`): the sentence states the company's own figures."""
_REPORT_WORDS_RE = re.compile(r"[^0-9一二三四季半中]")
"""Everything in an announcement but the words of the period its report covers."""


def agree(a: float, b: float) -> bool:
    """Two printed values are one figure: equal, or within 0.5% with the same sign (rounding)."""
    if a == b:
        return True
    if (a < 0) != (b < 0):
        return False
    return math.isclose(a, b, rel_tol=_AGREE)


def _same_figure(a: Fact, b: Fact) -> bool:
    """Two facts are one figure: their values agree, or two amounts differ by less than the rounding of the
    coarser one as printed (`归母净利润0.46亿元` and `…4555万元`: 0.46亿 is 4555万 to two decimals)."""
    if agree(a.value, b.value):
        return True
    ma, mb = a.mention, b.mention
    if ma is None or mb is None or ma.kind != "money" or mb.kind != "money" or (a.value < 0) != (b.value < 0):
        return False
    return abs(a.value - b.value) <= max(_rounding(a), _rounding(b))


def _rounding(fact: Fact) -> float:
    """Half the last printed digit of an amount, in base units (the finer, the more exact the figure)."""
    m = fact.mention
    return 0.5 * 10 ** (-m.decimals) * m.factor if m is not None else 0.0


@dataclass(frozen=True)
class Screened:
    """A screening field as the reader leaves it."""

    name: str
    fact: Fact | None = None
    conflict: tuple[Fact, ...] = ()
    """The disagreeing facts when nothing ranks one above the others (then `fact` is None)."""
    readings: tuple[Fact, ...] = ()
    """Loose readings of the main period (for a model to choose among) when no fact settles it."""


@dataclass
class FactSheet:
    text: str
    period: Period | None
    facts: list[Fact]
    readings: list[Fact] = field(default_factory=list)
    scanned: ScannedText | None = None
    layout: str = "plain"
    names: tuple[str, ...] = ()
    no_company: bool = False
    """A text about no company the screen asks about: a public body's naming no company and no report (see
    `_names_no_company`), a broker's industry report (`_industry_report`), a region's totals
    (`_region_count_text`), a report on other listed companies (`_covers_other_companies`)."""

    def main(self, fact: Fact) -> bool:
        """Whether a fact is a screening fact's kind: the main period, the company, actual."""
        if fact.scope != "company" or fact.basis != "actual" or self.no_company:
            return False
        if fact.metric == "pe_ttm":
            return True
        if self.period is None:  # nothing says its period: any but a forecast's or a span of months'
            return fact.period is None or fact.period.sub not in ("E", SOME_MONTHS)
        return fact.period is not None and _same_exact(fact.period, self.period)

    def screening(self) -> dict[str, Screened]:
        """Each screening field's fact, conflict, or loose readings."""
        out: dict[str, Screened] = {}
        for name in SCREEN_FIELDS:
            kept = [
                f
                for f in self.facts
                if f.metric == name and self.main(f) and self._plausible(f) and not self._below_a_part(f)
                and not self._beside_part_items(f)
            ]  # fmt: skip
            if not kept and name in _NEXT_QUARTER_FIELDS and not self.no_company:
                kept = self._next_first_quarter(name)
            pool = [f for f in kept if f.source != "derived"] or kept
            if not pool:
                loose = tuple(f for f in self.readings if f.metric == name and self.main(f))
                out[name] = Screened(name, readings=loose)
                continue
            best = min((f.rank, f.tier) for f in pool)
            top = [f for f in pool if (f.rank, f.tier) == best]
            if self.period is None:
                top = _without_closing_quarters(top)
            if not all(_same_figure(f, top[0]) for f in top):
                top = self._without_segment_echoes(top) or top
            first = min(top, key=lambda f: f.start)
            if all(agree(f.value, first.value) for f in top):
                out[name] = Screened(name, fact=first)
            elif all(_same_figure(f, first) for f in top):
                out[name] = Screened(name, fact=min(top, key=lambda f: (_rounding(f), f.start)))
            elif (headline := self._headline(name, first)) is not None:
                out[name] = Screened(name, fact=headline)
            elif (whole := _whole_margin(name, top)) is not None:
                out[name] = Screened(name, fact=whole)
            else:
                distinct: list[Fact] = []
                for f in sorted(top, key=lambda f: f.start):
                    if not any(agree(f.value, d.value) for d in distinct):
                        distinct.append(f)
                out[name] = Screened(name, conflict=tuple(distinct))
        if self.period is None:
            out = _undated_rivals(out)
        return out

    def _in_plain_yuan(self, fact: Fact) -> bool:
        """Whether a small amount in plain 元 (see `_LEAST_YUAN`) is believable after all: the text prints
        the company's other measure of the same period in plain 元 too, above the floor
        (`营业总收入2,955,118.67元；归属于挂牌公司股东的净利润-12,167.41元`): a small company writing in 元
        throughout, where a dropped 万 is a slip in a text of 万 figures (`营业收入38,919.32万，归母净利润
        9072.87元`)."""
        if fact.metric not in ("revenue", "net_profit") or fact.unit != "元" or not _plausible_size(fact):
            return False
        return any(
            other.metric in ("revenue", "net_profit") and other.metric != fact.metric and other.unit == "元"
            and other.scope == "company" and other.basis == "actual" and other.period == fact.period
            and abs(other.value) >= _LEAST_YUAN and abs(other.value) > abs(fact.value)
            for other in self.facts
        )  # fmt: skip

    def _beside_part_items(self, fact: Fact) -> bool:
        """Whether a company fact is printed in a numbered item of a paragraph whose other items give parts'
        figures of the same metric and period (`2）…生产钴产品1.35万吨…毛利率为14.6%；3）前驱体产销大幅增长：
        …毛利率为14%`): the items break the company down, so an item whose heading names no aspect of the
        report's own figures (`1）业绩：`, `2）盈利能力：`) is a part's too, whatever its clause says."""
        item = _item_of(self.text, fact.start)
        if item is None or _ASPECT_RE.search(item[2]):
            return False
        for part in self.facts:
            if (
                part.metric != fact.metric or part.scope != "segment" or part.basis != "actual"
                or part.period != fact.period
            ):  # fmt: skip
                continue
            other = _item_of(self.text, part.start)
            if other is not None and other[0] == item[0] and other[1] != item[1]:
                return True
        return False

    def _below_a_part(self, fact: Fact) -> bool:
        """Whether a company revenue is smaller than a business's revenue of the same period the text prints
        (`公司绿色出行…21年实现收入3.6亿元，储能业务…21年实现收入8.81亿元`: the first is a business's too, its
        subject missed): a whole is never smaller than its part, so the company figure is not what it says.
        A quarter's revenue above its cumulative period's is left alone: a text that drops a digit
        (`前三季度实现营收4.99亿元…Q3实现营收4.58亿元`) prints both, and the printed one is what is read."""
        p = fact.period
        if fact.metric != "revenue" or fact.value <= 0 or p is None or p.year is None:
            return False
        for part in self.facts:
            q = part.period
            if (
                part.metric != "revenue" or part.basis != "actual" or q is None or q.year != p.year
                or part.value <= fact.value * 1.005
            ):  # fmt: skip
                continue
            if part.scope == "segment" and q.sub == p.sub and _BUSINESS_RE.search(part.segment or ""):
                return True
        return False

    def _next_first_quarter(self, name: str) -> list[Fact]:
        """`公司发布2020年报…公司同时发布2021年一季报…2021Q1的综合毛利率28.83%`: a note on an annual report
        that also announces the next first quarter's report (or names the two reports together: `根据公司
        2022年年报及2023年一季报情况`) and prints no figure of the year for the field but the quarter's own
        company figure (a margin, or `2023Q1公司实现营业收入32.74亿元` beside the year's profit alone): that
        quarter is the text's latest own period, so its figure stands for the field (its fact keeps the
        quarter, so results say which period it is). Only with the quarter's report announced; a Q1 figure
        quoted in a plain annual review is no document figure."""
        main = self.period
        if main is None or main.sub != "FY" or main.year is None:
            return []
        quarter = Period(main.year + 1, "Q1")
        if (
            not _ALSO_Q1_RE.search(self.text)
            and not self._quarter_instead_of_year(main, quarter)
            and not (name == "gross_margin" and self._both_periods_results(main, quarter))
        ):
            return []
        return [
            f
            for f in self.facts
            if f.metric == name and f.scope == "company" and f.basis == "actual" and f.source != "derived"
            and f.period == quarter and self._plausible(f)
        ]  # fmt: skip

    def _plausible(self, fact: Fact) -> bool:
        """Whether a screening fact's value can be what it says (`_plausible`), where a small amount in
        plain 元 stands when the text prints the other measure in plain 元 above the floor
        (`_in_plain_yuan`) or no amount in a scaled unit at all (`_every_amount_in_yuan`)."""
        if _plausible(fact) or self._in_plain_yuan(fact):
            return True
        return _plausible(fact, small_yuan=True) and _every_amount_in_yuan(self.text)

    def _both_periods_results(self, main: Period, quarter: Period) -> bool:
        """`公司2021年实现收入148.36亿元…归母净利润60.63亿元…公司2022Q1实现收入29.39亿元…实现归母净利润
        9.29亿元…公司2021Q4和2022Q1毛利率分别达到67.53%和63.37%`: a note that prints the company's revenue
        and profit both for its year and for the next first quarter reports the two periods' results, as
        one announcing both reports does; the quarter's margin stands for a year whose margin it never
        prints (`quarter`: the next first quarter)."""
        return all(_printed(self.facts, p, (m,)) for p in (main, quarter) for m in ("revenue", "net_profit"))

    def _quarter_instead_of_year(self, main: Period, quarter: Period) -> bool:
        """`公司2022Q1季度实现营业收入2.71亿元…归母净利润…1.25亿元` in a note whose
        own period reads as the year before (an acquisition's 2021 figures; a
        `2022年年度业绩说明会` beside `2023一季报显示，公司主营收入19.48亿元；
        归母净利润-1118.03万元`) and that prints neither the company's revenue nor its profit
        for that year: the next first quarter's revenue and profit, both printed, are the
        text's latest own figures, as if the quarter's report were announced. A year whose
        revenue or profit is printed keeps the quarter out (`2019年实现营业收入43.50亿元…
        公司2020年一季度收入12.81亿元`: the quarter is quoted beside the year, and the year's
        figures are the note's even where one is not read; `quarter`: the next first quarter)."""
        return (
            _printed(self.facts, quarter, ("revenue",))
            and _printed(self.facts, quarter, ("net_profit",))
            and not _printed(self.facts, main)
        )

    def _without_segment_echoes(self, top: list[Fact]) -> list[Fact]:
        """Disagreeing company facts, less those that repeat a figure the text gave a named segment
        before (`物业管理业务实现营收51.50亿元` … later `全年实现营业收入51.50亿元` in that business's
        paragraph): one number printed twice is one figure, and the first printing said whose it is.
        Used only to settle a disagreement, so a one-business company whose segment and group figures
        agree keeps its figure."""
        echoes = [
            f
            for f in top
            if any(
                s.metric == f.metric and s.scope == "segment" and s.basis == "actual" and s.start < f.start
                and _same_exact(s.period, f.period) and agree(s.value, f.value)
                for s in self.facts
                if s.period is not None and f.period is not None
            )
        ]  # fmt: skip
        rest = [f for f in top if f not in echoes]
        if echoes and rest and all(agree(f.value, rest[0].value) for f in rest):
            return rest
        return []

    def _headline(self, name: str, first: Fact) -> Fact | None:
        """The disagreeing fact the report's own announcement states (`公司发布2022年中期业绩报告，22H1
        实现营收220.09亿元`), when it is the text's first of its metric and the others lie outside that
        sentence: an announcement states the company's figure; a later one that disagrees is a part's the
        reader took for the whole. Without an announcement, disagreeing facts stay a conflict."""
        if any(f.metric == name and f.start < first.start for f in self.facts):
            return None
        text = self.text
        lo = max(text.rfind(ch, 0, first.start) for ch in "。！？\n") + 1
        hi_found = [i for i in (text.find(ch, first.end) for ch in "。！？\n") if i >= 0]
        hi = min(hi_found) if hi_found else len(text)
        report = self._announcement(first)
        if report is None:
            return None
        rivals = [
            f
            for f in self.facts
            if f.metric == name and self.main(f) and f is not first and not agree(f.value, first.value)
        ]
        if any(lo <= f.start < hi or self._announcement(f) == report for f in rivals):
            return None
        return first

    def _announcement(self, fact: Fact) -> str | None:
        """The report a fact's sentence announces before it (`公司发布2022年中期业绩报告，22H1实现营收…`),
        as the period words it names (`2022中`; empty when it names none), or None when it announces none.
        A rival figure announced as the same report (`…顺络发布年报，2020年公司实现营收34.77亿元…`, then
        `…公司发布业绩快报，20年实现收入171.44亿元…` in a digest of several companies' results) leaves the
        first no headline: each announcement states its own company's figure, and which is the report's
        the text does not say. One announcing another report (`同时公司发布2020年一季报`) is no rival."""
        lo = max(self.text.rfind(ch, 0, fact.start) for ch in "。！？\n") + 1
        found = _ANNOUNCED_RE.search(self.text, lo, fact.start)
        return None if found is None else _REPORT_WORDS_RE.sub("", found.group(0))

    def to_json(self) -> list[dict]:
        return [f.to_json(self.text) for f in self.facts]


_WHOLE_LABEL_RE = re.compile(r"综合|整体")


def _whole_margin(name: str, top: list[Fact]) -> Fact | None:
    """`…毛利率yoy-0.5pct至43.5%；电子材料方面，…毛利率yoy-14.6pct至21.5%；…全年综合毛利率yoy-2.3pct至
    40.4%`: among disagreeing margins of one period, the one whose label says it is the whole's (综合,
    整体), when it is the only figure so labelled, is the company's; the plain ones are its parts' that
    the reader took for the company's."""
    if name != "gross_margin":
        return None
    whole = [f for f in top if _WHOLE_LABEL_RE.search(f.label)]
    if not whole or len(whole) == len(top) or not all(agree(f.value, whole[0].value) for f in whole):
        return None
    return min(whole, key=lambda f: f.start)


_ITEM_MARK_RE = re.compile(
    r"(?:^|(?<=[。；;：:，,\s\u3000]))[（(]?(?:[0-9]{1,2}|[一二三四五六七八九十])[）)]"
)


def _item_of(text: str, pos: int) -> tuple[int, int, str] | None:
    """(paragraph start, item start, heading) of the numbered item (`3）前驱体产销大幅增长：…`) holding
    `pos`, or None: a paragraph runs from a line break or a run of blanks, an item to its sentence's end
    (`…2）物流设备：12.2亿元。公司毛利率36.5%` is the company's again)."""
    breaks = list(PARAGRAPH_BREAK_RE.finditer(text, max(0, pos - 1200), pos))
    para_lo = breaks[-1].end() if breaks else max(0, pos - 1200)
    sentence_lo = max([text.rfind(ch, para_lo, pos) + 1 for ch in "。！？!?"] + [para_lo])
    marks = list(_ITEM_MARK_RE.finditer(text, sentence_lo, pos))
    if not marks:
        return None
    mark = marks[-1]
    heading = re.split(r"[：:，,。；;]", text[mark.end() : mark.end() + 24], maxsplit=1)[0]
    return para_lo, mark.start(), heading


_BUSINESS_RE = re.compile(r"业务|板块|分部|事业部|产品")
"""A part named as one of the company's businesses (not another company the reader scoped as a segment)."""
_NEXT_QUARTER_FIELDS = frozenset({"revenue", "net_profit", "gross_margin"})
"""Fields an annual note's announced next first quarter may stand for when the year's is not printed."""
_ALSO_Q1_RE = re.compile(
    r"(?:发布|公布|披露|公告)[^。]{0,30}(?:一季报|一季度报告|第一季度报告)"
    r"|(?:年报|年度报告)(?:和|及|与|、|以及)\s?(?:20[0-9]{2}\s?年)?\s?(?:一季报|一季度报告|第一季度报告)"
    r"|(?:发布|公布|披露|公告)\s?(?:20)?[0-9]{2}\s?年(?:度|全年)?\s?(?:和|及|与|、|以及)\s?"
    r"(?:1Q\s?[0-9]{2}|(?:20)?[0-9]{2}\s?年?\s?Q1|(?:20)?[0-9]{2}\s?年\s?(?:第一季度|一季度))\s?业绩"
)
"""A first quarter's report announced (`公司同时发布2021年一季报`, `披露2020年年报、2021年一季报`,
`公司公布2022年、1Q23业绩`) or named with the annual report it follows
(`根据公司2022年年报及2023年一季报情况`)."""

_LEAST_YUAN = 1e5
"""A company's revenue or profit printed in plain 元 below this is taken for a dropped 万
(`营业收入38,919.32万，归母净利润9072.87元`): no listed company's year is that small, and a wrong figure is
worse than none."""


_MOST_YUAN = {"revenue": 1e13, "net_profit": 1e12}
"""No company's year reaches these (the largest listed groups report revenue near 3.5万亿 and profit near
3,700亿): a figure above is an industry's or a region's total (`机械行业…累计实现营业收入26.47万亿元`,
`全省实现营业收入58520.08亿元`) the reader took for the company's."""


_MOST_MARGIN = 100.0
"""A gross margin is gross profit over revenue, and gross profit cannot exceed revenue: a margin above
100% is no margin (`毛利率(%)65666666`, a PDF extraction's run-together row of four years' 65/66/66/66
left whole when its header could not cut it)."""


def _plausible(fact: Fact, small_yuan: bool = False) -> bool:
    """Whether a screening fact's value can be what it says (see `_LEAST_YUAN`, `_MOST_YUAN`,
    `_MOST_MARGIN`); `small_yuan` lets an amount in plain 元 below `_LEAST_YUAN` stand."""
    if fact.metric == "gross_margin" and fact.value is not None:
        return fact.value <= _MOST_MARGIN
    if fact.metric not in ("revenue", "net_profit") or fact.value is None:
        return True
    if abs(fact.value) > _MOST_YUAN[fact.metric]:
        return False
    if fact.unit != "元" or fact.value == 0 or small_yuan:
        return True
    return abs(fact.value) >= _LEAST_YUAN


def _without_adjusted_echoes(facts: list[Fact], adjusted: list[tuple[str, float, int]]) -> list[Fact]:
    """`原标题：1药网Q2净亏损7880万元…非美国通用会计准则下，归属股东净亏损为7880万元`: an amount printed
    before the one the text calls adjusted, of the same metric and value, is a headline or lead quoting that
    adjusted figure ahead of its qualifier, not the reported one."""
    if not adjusted:
        return facts
    return [
        f for f in facts
        if f.mention is None or f.mention.kind != "money" or not any(
            metric == f.metric and at > f.start and agree(abs(f.value), amount)
            for metric, amount, at in adjusted
        )
    ]  # fmt: skip


def _plausible_size(fact: Fact) -> bool:
    """Whether an amount is under the largest company's (see `_MOST_YUAN`)."""
    return fact.value is not None and abs(fact.value) <= _MOST_YUAN.get(fact.metric, math.inf)


_SCALED_AMOUNT_RE = re.compile(r"[0-9]\s?(?:万|亿|百万|千万|千元|million|billion|mn|bn)", re.IGNORECASE)
"""An amount printed in a scaled unit (`38,919.32万`, `11.51亿元`, `5 million`), a share count in 万 too."""


def _every_amount_in_yuan(text: str) -> bool:
    """Whether the text prints every amount in plain 元: a small company's report quoted to the fen
    (`营业收入88,495.57元…净利润-336,975.44元…总资产为1,712,062.29元`) has no scaled unit a figure could
    have dropped, so its small revenue is what it says; a text that prints any amount in 万 or 亿
    (`营业收入38,919.32万…归母净利润9072.87元`) leaves `_LEAST_YUAN`'s dropped 万 the likelier reading."""
    return _SCALED_AMOUNT_RE.search(text) is None


def _same_exact(a: Period, b: Period | None) -> bool:
    if b is None:
        return True
    return same(a, b) and (a.year is None or b.year is None or a.year == b.year)


def _to_folded(folded: FoldedText) -> Callable[[int], int]:
    """Map an original offset to the folded text's (identity unless a character folded to several)."""
    if not folded.expansions:
        return lambda o: o
    origins = [e[1] for e in folded.expansions]
    shifts: list[int] = []
    total = 0
    for _, _, length in folded.expansions:
        total += length - 1
        shifts.append(total)

    def conv(o: int) -> int:
        k = bisect_right(origins, o - 1) - 1
        return o + (shifts[k] if k >= 0 else 0)

    return conv


def _dedupe(facts: list[Fact]) -> list[Fact]:
    """One fact per printed number: a table's or a list's reading before the prose's."""
    order = {"table": 0, "list": 1, "label": 2, "derived": 3}
    kept: dict[tuple[int, str], Fact] = {}
    by_span: dict[int, Fact] = {}
    for f in sorted(facts, key=lambda f: order.get(f.source, 9)):
        if f.source == "derived":
            kept[(f.start, "derived")] = f
            continue
        if f.start in by_span:
            continue
        by_span[f.start] = f
        kept[(f.start, f.metric)] = f
    return sorted(kept.values(), key=lambda f: (f.start, f.metric))


def read_facts(
    text: str,
    *,
    page_at: Callable[[int], int | None] | None = None,
    names: Sequence[str] = (),
    _settled: Period | None = None,
) -> FactSheet:
    """Read every figure of `text` (a filing's whole text) into facts.

    `page_at` maps an offset of `text` to its page (a PDF's page map; a JSON-lines page dump gives its own
    pages); `names` are the company's names (a pool row's name), so `常熟银行的营业收入` is the company's.
    `_settled` (internal) is the period a first reading settled, to read the text again against.
    """
    layout = read_layout(text)
    scanned = scan(layout.text)
    statements = read_statements(scanned.folded.text, scanned.mentions)
    if statements.note_numbers:  # a `附注` column's note numbers are no figures
        kept = [m for m in scanned.mentions if m.folded_start not in statements.note_numbers]
        scanned = replace(scanned, mentions=kept)
    reading = Reading.of(text, scanned, tuple(n for n in names if n))
    reading.statements = statements
    reading.table_lines.update(statements.business_rows)
    tables = read_tables(scanned.folded.text, layout.rows, _to_folded(scanned.folded))
    for table in tables:
        if not table.rows:
            continue  # a header alone (`…。　　毛利率为27.2%。` split at its blanks) holds no row
        for start, end in table.spans:
            line = reading.line_start(start)
            while line <= end:
                reading.table_lines.add(line)
                nxt = reading.folded.find("\n", line)
                if nxt < 0 or nxt >= end:
                    break
                line = nxt + 1
    table_period = _first_table_period(tables)
    reading.main = main_period(
        reading.folded, reading.periods, FORECAST_RE, table_period, names=reading.aliases
    )
    dated_by_text = reading.main is not None
    reading.main = _settled if _settled is not None else _marked_actual(reading.folded, reading.main)
    reading.periods, reading.main = first_quarter_beside_annual(reading.folded, reading.periods, reading.main)
    reading.periods = next_first_quarter(reading.folded, reading.periods, reading.main)
    found = read_table_facts(reading, tables + flattened_tables(reading.folded))
    found.extend(read_lists(reading))
    prose, loose = read_prose(reading)
    found.extend(prose)
    facts = _without_adjusted_echoes(_restated_forecasts(_dedupe(found)), reading.adjusted)
    facts = _third_quarter_as_nine_months(text, facts)
    taken = {f.start for f in facts}
    loose = [f for f in loose if f.start not in taken]
    previewed = _previewed(reading.folded)
    if previewed is not None:
        facts = [_as_forecast(f, previewed) for f in facts]
        loose = [_as_forecast(f, previewed) for f in loose]
    pages = page_at or (layout.page_at if layout.kind == "json_lines" else None)
    if pages is not None:
        facts = [_paged(f, pages) for f in facts]
        loose = [_paged(f, pages) for f in loose]
    period = _later_report(_second_report_period(reading.folded, reading.main, facts), facts)
    period = _glued_half_after(reading.folded, _next_year_interim(period, facts))
    period = _year_without_figures(reading.folded, period, facts)
    period = _half_without_figures(reading.folded, period, facts)
    period = _quarter_only(period, facts, period)
    if period is None:
        period = _latest_printed(facts)
    if period is None:
        period = _announced_forecast(reading.folded)
    period = _forecast_over_prior(reading.folded, period, facts)
    period = _before_outlook(reading.folded, period)
    if _settled is None and not dated_by_text and _settled_later(reading.main, period):
        # the main period was only the year a forecast table marks actual, and the text's own figures are a
        # later report's: its undated figures are that report's, so it is read again against that period
        again = read_facts(text, page_at=page_at, names=names, _settled=period)
        return replace(again, period=period)
    no_company = (
        _names_no_company(text, names, reading.aliases)
        or _industry_report(text, names)
        or _region_count_text(reading.folded, names, reading.aliases)
        or _covers_other_companies(text, names)
        or _rates_several_companies(text, names)
        or _relates_several_companies(text, names)
    )
    return FactSheet(text, period, facts, loose, scanned, layout.kind, reading.aliases, no_company)


def _settled_later(main: Period | None, period: Period | None) -> bool:
    """Whether the text's period, settled from its figures, is a later report than the main period its
    undated figures were read against (a FY2018 reading of a note on the 2019 nine months)."""
    if main is None or period is None or main.year is None or period.year is None or main == period:
        return False
    if period.sub not in _PERIOD_END or main.sub not in _PERIOD_END:
        return False
    return (period.year, _PERIOD_END[period.sub]) > (main.year, _PERIOD_END[main.sub])


_SINGLE_THIRD_QUARTER_RE = re.compile(r"单(?:从|看)?(?:第三|第3|三|3)季度?|Q3单季|第三季度单季|单季度?Q3")
_SINGLE_QUARTER_REACH = 160
"""How far on a single quarter's figure of the same metric may follow (its paragraph's next sentence)."""


def _third_quarter_as_nine_months(text: str, facts: list[Fact]) -> list[Fact]:
    """`2020年Q3收入为4.6亿元，同比增长17%，归母净利润为2.9亿元，同比增长32%。单从第三季度来看，收入为2.2亿元…`:
    a figure dated Q3 followed, in the same paragraph, by the third quarter's own figure of the same metric
    (`单从第三季度`, `单三季度`, `Q3单季`) is the nine months': the text sets the single quarter against it,
    so its `Q3` names the third-quarter report, cumulative (前三季度), not the quarter alone."""
    out = []
    for f in facts:
        p = f.period
        if (
            p is not None and p.year is not None and p.sub == "Q3" and f.basis in ("actual", "growth")
            and f.metric in ("revenue", "net_profit") and _single_third_quarter_after(text, f, facts)
        ):  # fmt: skip
            f = replace(f, period=Period(p.year, "Q1-Q3"))
        out.append(f)
    return out


def _single_third_quarter_after(text: str, fact: Fact, facts: list[Fact]) -> bool:
    """Whether a `单…第三季度` marker follows `fact` in its paragraph, and after it a figure of its metric."""
    hi = fact.end + _SINGLE_QUARTER_REACH
    brk = PARAGRAPH_BREAK_RE.search(text, fact.end, hi)
    hi = brk.start() if brk is not None else hi
    m = _SINGLE_THIRD_QUARTER_RE.search(text, fact.end, hi)
    if m is None:
        return False
    return any(
        g.metric == fact.metric and g.basis == "actual" and m.end() <= g.start < hi and g.value != fact.value
        for g in facts
    )


_COMPANY_OR_REPORT_RE = re.compile(
    r"公司|集团|企业|股份|本行|我行|该行|上市|银行|证券|保险|[A-Z]股|[0-9]{6}|[A-Za-z]{2,}"
    r"|报告|年报|季报|中报|财报|业绩|快报|预告|公告|财务"
)
"""Words that name a company (`公司`, `企业`, `A股`, a stock code, a Latin name) or a report (`年报`, `业绩`,
`公告`)."""


def _names_no_company(text: str, names: Sequence[str], subjects: Sequence[str]) -> bool:
    """`北京市文旅局发布假日首日数据：全市重点监测的199家旅游景区…营业收入1亿元…乡村游…营业收入5905.3万元`:
    a text whose announcer is a public body (a `局`, `委`, `厅`, a government, an association) and that names
    no company (no company word, stock code, Latin name or one of the row's names) and no report or
    announcement gives a city's, a market's or an event's figures; its revenue and profit are nobody's the
    screen asks about. A bare excerpt that names no one (a table's rows) is left as it is."""
    if not any(_PUBLIC_BODY_RE.search(s) for s in subjects):
        return False
    if any(n and n in text for n in names):
        return False
    return _COMPANY_OR_REPORT_RE.search(text) is None


_INDUSTRY_REPORT_RE = re.compile(
    r"行业(?:研究|专题|周报|月报|点评|动态|(?:投资|年度)?策略)|行业深度(?:报告|研究)|专题(?:研究)?报告|专题研究|周观点"
)
"""A report type on a broker's cover (`行业研究/深度研究`, `行业专题`, `电子周观点`, `行业投资策略`); not a
word that merely begins with 行业 in prose (`金针菇行业深度亏损`)."""
_COMPANY_REPORT_RE = re.compile(
    r"(?<!本)公司(?:研究|点评|深度|报告|简评|首次覆盖)|个股(?:研究|点评)|首次覆盖"
)
"""A company report's type on a cover (`公司研究`, `公司点评`); not the broker's own name for its research
in a cover's notice (`请通过合法途径获取本公司研究报告`: 本公司 is the broker)."""
_REPORT_HEAD = 800
"""How far a broker report's cover reaches: its title, type and rating come first."""


_TEMPLATE_NAME_RE = re.compile(r"(?:公司|行业)[\u4e00-\u9fff]{0,6}?模板")
"""The name of the file template a broker's report was made from, left on its cover by the extraction
(`[table_main]公司深度报告模板`, `行业研究类模板`): it says which layout was copied, not the report's type."""
_COVER_TYPE_RE = re.compile(r"(行业|公司)[\u4e00-\u9fff]{0,6}?证券研究报告")
"""A cover's report-type line run into its `证券研究报告` banner (`行业分析证券研究报告`,
`公司快报证券研究报告`)."""
_BANNER_CHARS = 2000
"""How far a cover block may sit: some brokers print the first page's summary before it."""


def _industry_report(text: str, names: Sequence[str]) -> bool:
    """`行业研究/深度研究…5G散热行业深度报告`, `电子周观点…专题研究`, `电子设备行业专题研究`: a broker's
    industry report (its cover says so and calls itself no company report) is about a sector; the companies it
    reviews or recommends are many, and a `公司实现营收…` in one's passage is that one's, not the text's own,
    so it holds no company figures unless the company asked about is named in it (then its figures are
    found by that name, as in any text). A template's name on the cover (`公司深度报告模板` under
    `行业动态报告`) is no report type; a cover printed after the first page's summary names its type in its
    banner (`行业分析证券研究报告`)."""
    head = _TEMPLATE_NAME_RE.sub("", text[:_REPORT_HEAD])
    cover = _COVER_TYPE_RE.search(text, 0, _BANNER_CHARS)
    banner = cover.group(1) if cover is not None else None
    industry = _INDUSTRY_REPORT_RE.search(head) is not None or banner == "行业"
    company = _COMPANY_REPORT_RE.search(head) is not None or banner == "公司"
    if not industry or company:
        return False
    return not any(n and n in text for n in names)


_REGION_COUNT_RE = re.compile(r"全(?:国|省|市)[^。；;]{0,8}?[0-9]+\s?家")
"""A region's count of companies (`全国共有150家期货公司`, `全市已有32家上市公司`)."""


def _region_count_text(folded: str, names: Sequence[str], subjects: Sequence[str]) -> bool:
    """`截至2021年12月末，全国共有150家期货公司，分布在31个辖区。2021年12月…营业收入54.71亿元，净利润14.88
    亿元`: a text that opens on a region's count of companies, and names no company of its own (none of the
    row's names, no name found for a subject), gives that region's totals; its revenue and profit are
    nobody's the screen asks about."""
    if subjects or any(n and n in folded for n in names):
        return False
    stop = folded.find("。")
    return _REGION_COUNT_RE.search(folded, 0, stop if stop >= 0 else len(folded)) is not None


_ACTUAL_COLUMN_RE = re.compile(r"(20[0-9]{2})A\s?(?=20[0-9]{2}\s?[AE](?![a-z]))")
"""A forecast table's header marking its columns actual or estimated, run together as a PDF extraction
prints it (`项目\\年度2020A2021E2022E2023E`): the year before `A` is a year of results."""


_LAST_PLAIN_YEAR_RE = re.compile(r"(?<=[0-9])(20[0-9]{2})(?=20[0-9]{2}E(?![a-z]))")
"""The same header with only its estimates marked, run on from earlier years (`201820192020E2021E2022E`): the
year right before the first `E` year, itself run on from a year before it, is a year of results."""


def _marked_actual(folded: str, main: Period | None) -> Period | None:
    """`深度研究…2021年02月10日…2018年受监管的中国医疗美容市场规模…` and a forecast table headed
    `2020A2021E2022E2023E`: the opening's first year is an industry figure's, so the document was dated a
    year whose results are not its latest; the text itself marks a later year's results (`2020A`) as out.
    The document's period is no earlier than the latest year its own table marks actual: that year (when
    the document was dated an earlier one, or not at all)."""
    years = [int(m.group(1)) for m in _ACTUAL_COLUMN_RE.finditer(folded)] + _glued_actual_years(folded)
    years += [int(m.group(1)) for m in _LAST_PLAIN_YEAR_RE.finditer(folded)]
    if not years:
        return main
    marked = max(years)
    if main is None or main.year is None or main.year < marked:
        return Period(marked, "FY")
    return main


def _glued_half_after(folded: str, main: Period | None) -> Period | None:
    """`表9：利润表摘要（单位：百万元）2014201520162017201820192020H1营业收入…`: a history table whose last
    column is the half year after the main year's results prints that half's results, so the text was written
    after them and the half is its latest period (the forecast table beside it still marks the year `A`);
    a later report the text prints (`_next_year_interim`'s nine months) is settled before."""
    halves = [
        int(header[-1][:4])
        for header in glued_year_headers(folded)
        if header[-1].endswith("H1") and all(not y.endswith("E") for y in header)
    ]
    if main is not None and main.year is not None and main.sub == "FY" and main.year + 1 in halves:
        return Period(main.year + 1, "H1")
    return main


_FOUR_DIGIT_YEAR_RE = re.compile(r"((?:19|20)[0-9]{2})([AE]|H[12]|Q[1-4])?")


def _glued_actual_years(folded: str) -> list[int]:
    """`盈利预测与估值201820192020E2021E2022E`: a forecast table's glued header that marks only its estimates
    (`E`) leaves the years before them unmarked, and those are results; the last of them, right before the
    first estimate, is the latest year of results the table knows."""
    years = []
    for header in glued_year_headers(folded):
        parsed = [_FOUR_DIGIT_YEAR_RE.fullmatch(y) for y in header]
        if not all(parsed):  # `2015年…20年上半年`: a history written with 年 marks no estimate
            continue
        marks = [(int(m.group(1)), m.group(2) or "") for m in parsed if m is not None]
        first = next((i for i, (_, mark) in enumerate(marks) if mark == "E"), None)
        if first is not None and first > 0 and marks[first - 1][1] in ("", "A"):
            years.append(marks[first - 1][0])
    return years


_LISTED_CODE_RE = re.compile(r"[（(]\s?([0-9]{6})(?:\.(?:SH|SZ))?\s?[)）]|(?<![0-9])([0-9]{6})\.(?:SH|SZ)")
"""A listed company's stock code as a text prints it beside a name: `恒瑞医药（600276）`, `(002449.SZ)`,
`300896.SZ`."""
_OPENING_CHARS = 1000
"""How far a report's opening runs: its first page's summary, where a company note names its own code."""
_COVERED_CODES = 3


def _covers_other_companies(text: str, names: Sequence[str]) -> bool:
    """`建议关注国星光电（002449.SZ）、鸿利智汇（300219.SZ）、兆驰股份（002429.SZ）`,
    `相关报告 昭衍新药（603127）…康龙化成（300759）…`: a text whose opening names three or more listed
    companies by stock code, and that never names the company (none of its names is given, or none is
    printed), is a sector report or a market digest about those companies; each figure it prints
    (`药明康德…2019年实现营收128.72亿元`) is one of theirs, none the company's. A company note opens on its
    own code, and a text naming the company keeps its figures as before. It catches the industry reports
    whose cover names no report type in its first lines (`_industry_report`)."""
    if any(n and n in text for n in names):
        return False
    codes = set()
    for m in _LISTED_CODE_RE.finditer(text, 0, _OPENING_CHARS):
        codes.add(m.group(1) or m.group(2))
    return len(codes) >= _COVERED_CODES


_RATED_CODE_RE = re.compile(
    r"(?<![0-9])([0-9]{6})(?:\.(?:SH|SZ)|\s?CH)?\s?[)）]?\s?(?:买入|增持|推荐|强烈推荐|谨慎推荐|中性|持有|减持|卖出)"
)
"""A stock code with its rating right after it, as a broker's cover table prints each company it rates
(`迈瑞医疗300760CH买入RMB417.07`, `（002690.SZ）增持`)."""
_RATED_COMPANIES = 2


def _rates_several_companies(text: str, names: Sequence[str]) -> bool:
    """`股票名称代码评级目标价迈瑞医疗300760CH买入RMB417.07美亚光电002690CH买入RMB62.37`: a report whose
    opening rates two or more companies, each code with its rating, initiates on all of them (a sector's
    initiation); asked about none of them by name (no name given, or none printed), it has no company of
    its own, and the first one's figures are no more the text's than the second's. A company note rates
    its own company alone."""
    if any(n and n in text for n in names):
        return False
    return len({m.group(1) for m in _RATED_CODE_RE.finditer(text, 0, _OPENING_CHARS)}) >= _RATED_COMPANIES


_RELATED_SECURITIES_RE = re.compile(r"相关标的")
"""A broker cover's box of the securities a report relates to
(`相关标的元/股002612.SZ朗姿股份430335.OC华韩整形`)."""
_RELATED_CODE_RE = re.compile(r"(?<![0-9])([0-9]{6})\.(?:SH|SZ|OC|BJ)|(?<![0-9])([0-9]{4,5})\.HK")
"""A listed code with its exchange, as such a box prints it: Shanghai, Shenzhen, the NEEQ (`.OC`), Beijing,
Hong Kong."""
_RELATED_BOX_REACH = 4000
"""How far a long report's cover page reaches: its summary runs on before the box of related securities."""
_RELATED_BOX_CHARS = 120
"""How far the box's codes run after its title."""


def _relates_several_companies(text: str, names: Sequence[str]) -> bool:
    """`…医美终端诊疗机构专题…相关标的元/股002612.SZ朗姿股份430335.OC华韩整形`: a report whose cover
    lists two or more related securities (`相关标的`) is a thematic on those companies together; asked about
    none of them by name (no name given, or none printed), it has no company of its own, and one company's
    table (a subsidiary hospital's `净利润`) is no more the text's than the other's. A company note names
    its own security alone."""
    if any(n and n in text for n in names):
        return False
    box = _RELATED_SECURITIES_RE.search(text, 0, _RELATED_BOX_REACH)
    if box is None:
        return False
    codes = {a or b for a, b in _RELATED_CODE_RE.findall(text[box.end() : box.end() + _RELATED_BOX_CHARS])}
    return len(codes) >= _RATED_COMPANIES


_PUBLIC_BODY_RE = re.compile(r"(?:局|委员会|委|厅|部|政府|办公室|协会|学会|联合会)$")


def _restated_forecasts(facts: list[Fact]) -> list[Fact]:
    """`达产后营业收入预计实现147.3亿元，净利润7.05亿元` and, a paragraph on, `净利润合计7.05亿元，
    对应单吨净利…`: an undated figure that repeats, value for value, a figure the text printed before as
    a forecast of the same metric is that forecast restated, not the company's result."""
    out = []
    for f in facts:
        if f.basis == "actual" and f.period is None and f.value is not None:
            if any(
                g.basis == "forecast"
                and g.metric == f.metric
                and g.start < f.start
                and g.value is not None
                and math.isclose(g.value, f.value, rel_tol=1e-9)
                for g in facts
            ):
                f = replace(f, basis="forecast")
        out.append(f)
    return out


_PREVIEW_RE = re.compile(
    r"(?P<when>(?:20[0-9]{2}|[0-9]{2})\s?年\s?度?\s?(?:第?[一二三]季度|上半年|半年度|前三季度|全年)?)\s?"
    r"(?:(?:年度|年报|半年报|中报|三季报|一季报)?\s?业绩预[告报亏盈增减]|及[^，,。；;]{1,10}?业绩预[告报])"
)
"""A 业绩预告 announced, also by its kind (`2019年前三季度业绩预亏公告`, `业绩预增`): a forecast all the
same."""
_REPORT_NAMED_RE = re.compile(r"业绩快报|年度报告|季度报告|中期报告|年报|中报|季报|业绩公告")
_PREVIEW_HEAD = 150


def _opening_preview(folded: str) -> re.Match[str] | None:
    """The 业绩预告 the text's opening sentence announces (`公司披露2021年前三季度业绩预告，…`), if any."""
    head = folded[:_PREVIEW_HEAD]
    stop = head.find("。")
    return _PREVIEW_RE.search(head, 0, stop if stop >= 0 else len(head))


def _previewed(folded: str) -> Period | None:
    """`公司披露2021年前三季度业绩预告，预计归母净利润有望达到2.44亿元…；其中，21Q3归母净利0.52亿元`,
    `公司公布2021年年报业绩预告，…2021年全年，公司实现营业收入约76.6亿元`: a text whose opening sentence
    announces a 业绩预告 and that names no report of any period (no 年报, 季报, 业绩快报 beside it) has only
    the forecast's figures for that period: the period the forecast is for, or None."""
    m = _opening_preview(folded)
    if m is None:
        return None
    if _REPORT_NAMED_RE.search(folded[: m.start()]) or _REPORT_NAMED_RE.search(folded, m.end()):
        return None
    found = [x.period for x in find_periods(m.group("when")) if x.period is not None]
    if not found or found[0].year is None:
        return None
    sub = found[0].sub or "FY"
    return Period(found[0].year, "Q1-Q3" if sub == "Q3" else sub)


def _as_forecast(fact: Fact, previewed: Period) -> Fact:
    """A company figure of the previewed period (or its closing quarter) is the forecast's, whatever its
    sentence says (`实现`)."""
    p = fact.period
    if fact.basis != "actual" or fact.scope != "company" or p is None or p.year != previewed.year:
        return fact
    if p.sub in (previewed.sub, _CLOSING_QUARTER.get(previewed.sub)):
        return replace(fact, basis="forecast")
    return fact


_SECOND_REPORT_RE = re.compile(
    r"(?:年报|年度报告)(?:和|及|与|、|以及)\s?(?:(?P<y>20[0-9]{2}|[0-9]{2})\s?年)?\s?(?:第一季度报告|一季度报告|一季报)"
)


def _second_report_period(folded: str, main: Period | None, facts: list[Fact]) -> Period | None:
    """`发布2020年年报和2021年一季报，其中，21Q1实现营业收入…`: the opening names two reports; when the text
    prints the company's revenue or profit for the later one only, the document is that one's."""
    if main is None or main.sub != "FY" or main.year is None:
        return main
    m = _SECOND_REPORT_RE.search(folded, 0, 400)
    if m is None:
        return main
    year = int(m.group("y")) if m.group("y") else main.year + 1
    later = Period(year + 2000 if year < 100 else year, "Q1")
    if later.year != main.year + 1:
        return main
    return later if _printed(facts, later) and not _printed(facts, main) else main


def _printed(facts: list[Fact], p: Period, metrics: tuple[str, ...] = ("revenue", "net_profit")) -> bool:
    """Whether the company's actual revenue or profit (or another of `metrics`) is printed for exactly `p`."""
    return any(
        f.metric in metrics and f.scope == "company" and f.basis == "actual"
        and f.period is not None and f.period.year == p.year and f.period.sub == p.sub
        for f in facts
    )  # fmt: skip


_CUMULATIVE_ORDER = ("Q1", "H1", "Q1-Q3", "FY")


def _later_report(main: Period | None, facts: list[Fact]) -> Period | None:
    """`2021年半年报显示，公司白酒业务实现营业收入为65.36亿元…。10月27日，顺鑫农业发布2021年前三季度数据显示，
    实现营业收入116.11亿元…；归母净利润3.72亿元`: a text whose opening period holds none of the company's
    revenue and profit (only its parts') but that prints both for a later cumulative period of the same
    year is about the later one (the latest, when several)."""
    if main is None or main.year is None or main.sub not in _CUMULATIVE_ORDER or _printed(facts, main):
        return main
    later = [
        Period(main.year, sub)
        for sub in _CUMULATIVE_ORDER[_CUMULATIVE_ORDER.index(main.sub) + 1 :]
        if all(_printed(facts, Period(main.year, sub), (metric,)) for metric in ("revenue", "net_profit"))
    ]
    return later[-1] if later else main


_INTERIM_METRICS = ("revenue", "net_profit", "gross_margin", "net_margin")
"""The company's own figures whose printing for a later interim dates a text after that interim's report:
its revenue, its profit, or a margin (`即使在疫情影响下的20H1，净利率仍然同比提升7.5pp至59.5%` in a note
whose year is 2019: the half's report was out, and the year is a prior one)."""


def _next_year_interim(period: Period | None, facts: list[Fact]) -> Period | None:
    """`2021年公司实现营收33.03亿元…，归母净利润2.35亿元…；2022H1实现营收19.75亿元…，归母净利润0.96亿元`,
    `2019年公司实现营收6.31亿元，…2020年前三季度实现营业总收入4.4亿`: a text about a year that prints the
    company's revenue, profit or a margin for the next year's half or nine months was written after that
    interim report; the year is a prior one and the latest interim is the document's. (The next year's first
    quarter alone is not: a FY note printing its Q1 beside it keeps the year.)"""
    if period is None or period.year is None or period.sub != "FY":
        return period
    later = [
        Period(period.year + 1, sub)
        for sub in ("H1", "Q1-Q3")
        if _printed(facts, Period(period.year + 1, sub), _INTERIM_METRICS)
        or _grown(facts, Period(period.year + 1, sub))
    ]
    return later[-1] if later else period


def _grown(facts: list[Fact], p: Period) -> bool:
    """Whether the company's revenue and profit growth are both printed for exactly `p` (`20H1受到国内疫情
    影响，营收与净利增速分别为0.72%、15%`): the period's report is out, though its levels go unprinted."""
    return all(
        any(
            f.metric == metric
            and f.scope == "company"
            and f.basis == "growth"
            and f.period is not None
            and f.period.year == p.year
            and f.period.sub == p.sub
            for f in facts
        )  # fmt: skip
        for metric in ("revenue", "net_profit")
    )


_OWN_METRICS = ("revenue", "net_profit", "gross_margin")


def _year_without_figures(folded: str, period: Period | None, facts: list[Fact]) -> Period | None:
    """`2021年前三季度公司毛利率同比提升8.89pct至26.14%` in a note whose year holds only a 业绩预告's range
    and growth rates: a year for which the text prints none of the company's actual revenue, profit or
    margin, but that prints them for the year's half or nine months, or for its fourth quarter and the next
    year's first (a note on that quarter's report), is about the latest of those. Not a
    text whose opening announces the year's 业绩预告
    (`尚品宅配发布2018年业绩预告，…2018前三季度公司实现毛利率43.56%`): it is about the forecast, and its nine
    months are an earlier report's."""
    if _opening_preview(folded) is not None:
        return period
    if period is None or period.year is None or period.sub != "FY" or _printed(facts, period, _OWN_METRICS):
        return period
    earlier = [
        Period(period.year, sub)
        for sub in ("H1", "Q1-Q3")
        if _printed(facts, Period(period.year, sub), _OWN_METRICS)
    ]
    if _printed(facts, Period(period.year, "Q4"), _OWN_METRICS) and _printed(
        facts, Period(period.year + 1, "Q1"), _OWN_METRICS
    ):
        # `2021年四季度毛利率大幅下滑…2022年一季度…公司毛利率环比上升7ppt至36.39%`: a year with none of its
        # own figures, only its last quarter's and the next first quarter's, is the year before the note's
        # latest report (a year named by a report alone, `2021年年度业绩说明会`, is left to the quarter's
        # rules: see `FactSheet._quarter_instead_of_year`)
        earlier.append(Period(period.year + 1, "Q1"))
    return earlier[-1] if earlier else period


def _half_without_figures(folded: str, period: Period | None, facts: list[Fact]) -> Period | None:
    """`上半年公司旗下景区多数时间处于闭园状态…，Q1公司营收同比大幅下降72.2%至0.85亿元，…归母净亏损0.39亿元`:
    a half year for which the text prints none of the company's actual revenue, profit or margin (nor its
    second quarter's), but prints both its revenue and profit for the half's first quarter, was written
    before the half's report: the first quarter is its latest report, and the document's period. Not a
    text whose opening announces the half's 业绩预告 (its first quarter is an earlier report's)."""
    if period is None or period.sub != "H1" or _opening_preview(folded) is not None:
        return period
    if _printed(facts, period, _OWN_METRICS) or _printed(facts, Period(period.year, "Q2"), _OWN_METRICS):
        return period
    first = Period(period.year, "Q1")
    if _printed(facts, first, ("revenue",)) and _printed(facts, first, ("net_profit",)):
        return first
    return period


_ALONE_QUARTER = {"Q1-Q3": "Q3", "H1": "Q2"}


def _quarter_only(main: Period | None, facts: list[Fact], period: Period | None) -> Period | None:
    """`九号公司发布3季报：3Q22公司实现营业收入28.1亿元…`: a third-quarter report's note that prints the
    company's revenue or profit for the third quarter alone and never for the nine months is about the
    quarter; its own figures are the document's. So is a half-year note that prints them for the second
    quarter alone (`Q2单季度来看，公司实现收入4.38亿元…归母净利润1.27亿元`) and never for the half."""
    if main is None or period != main or main.sub not in _ALONE_QUARTER or main.year is None:
        return period
    quarter = Period(main.year, _ALONE_QUARTER[main.sub])
    if main.sub == "H1" and (
        # `预计22H1实现营收12.14亿元…其中22Q2…`: a half forecast is still the half's; so is a half whose
        # own ROE or margin is printed (`2022H1公司ROE为2.1%` beside `2022Q2实现净利润18.1亿`)
        _printed(facts, main, ("gross_margin", "roe"))
        or any(
            f.metric in ("revenue", "net_profit") and f.basis == "forecast" and f.period is not None
            and f.period.year == main.year and f.period.sub == main.sub
            for f in facts
        )
    ):  # fmt: skip
        return period
    return quarter if _printed(facts, quarter) and not _printed(facts, main) else period


_OUTLOOK_RE = re.compile(r"展望\s?(?P<y>20[0-9]{2}|[0-9]{2})\s?年")


def _before_outlook(folded: str, period: Period | None) -> Period | None:
    """`2018年公司实现营收/归母净利润分别为27.79/8.14亿元。…2018-2019年…公司收入/归母净利润承压；展望2020年…`:
    a text that looks ahead to a year is written that year or the one before; figures of an earlier year
    are an old report's, not the document's. Its own period is then the year before the outlook's, for
    which it prints none."""
    if period is None or period.year is None:
        return period
    years = [int(m.group("y")) for m in _OUTLOOK_RE.finditer(folded)]
    years = [y + 2000 if y < 100 else y for y in years]
    if not years or period.year >= min(years) - 1:
        return period
    return Period(min(years) - 1, "FY")


_PERIOD_END = {"Q1": 3, "H1": 6, "Q2": 6, "Q1-Q3": 9, "Q3": 9, "FY": 12, "H2": 12, "Q4": 12}
_CUMULATIVE = frozenset(_CUMULATIVE_ORDER)


_ANNOUNCED_FORECAST_RE = re.compile(r"(?:发布|披露|公布|公告)了?[^。；;，,]{0,12}?业绩预[告增]")
_FORECAST_WINDOW = 60


def _announced_forecast(folded: str) -> Period | None:
    """`在发布定点公告的几天前，凌云股份披露今年上半年业绩预告，公司预计2023年半年度实现归属于母公司所有者的
    净利润2.95亿元到3.25亿元`: a text that names no period of its own and says the company published a
    results forecast is about the period forecast, the first one with its year in or right after the
    announcement; the actual figures it quotes besides (`2022年…实现营业收入166.89亿元`) are an earlier
    period's. None when no announcement dates its period."""
    for m in _ANNOUNCED_FORECAST_RE.finditer(folded):
        window = folded[m.start() : m.end() + _FORECAST_WINDOW]
        for mention in find_periods(window):
            p = mention.period
            if p is not None and p.year is not None and p.sub in _PERIOD_END and p.sub != "E":
                return p
    return None


_OPENING_FORECAST_RE = re.compile(r"(?:公告|业绩预告)[^。；;]{0,16}?预计")


def _forecast_over_prior(folded: str, period: Period | None, facts: list[Fact]) -> Period | None:
    """`…公告，预计2021年归属于上市公司股东的净利润为人民币-110亿元至-135亿元。2020年度，公司归属于…的净利润
    为人民币-118.35 亿元`: a text whose opening sentence announces the company's
    forecast (公告 or 业绩预告, then 预计) of a period is about that period; the actual figures it prints for
    the same period a year before are the comparison base, not its own. An earlier period for which it prints
    no revenue or profit of the company (`2019年年报显示，…的主营业务为…` after a 2020 half year's forecast: a
    report quoted for the business mix) is not its own either; one with its figures (`2021年度，公司…净利润
    为-102.4亿元` beside a forecast of the next first quarter) and one that ends with or after the forecast's
    stay.

    A part named later with no year (`注：Q3净利0.16亿元，据此计算，Q4净利预计1.4亿元-1.6亿元`: an earlier
    quarter's actual, the base of a remark) is no period of the text's own either, nor is none read at all
    (the part left undated as a piece of the forecast period): the forecast's is."""
    stop = folded.find("。", 0, _PREVIEW_HEAD)
    head = folded[: stop if stop >= 0 else _PREVIEW_HEAD]
    m = _OPENING_FORECAST_RE.search(head)
    if m is None:
        return period
    for mention in find_periods(head[m.start() :]):
        p = mention.period
        sub = (p.sub or "FY") if p is not None else ""
        if p is None or p.year is None or sub not in _PERIOD_END:
            continue
        if period is None or period.year is None or (p.year == period.year + 1 and sub == period.sub):
            return Period(p.year, sub)
        if _ends_later(Period(p.year, sub), period) and not _printed(facts, period):
            return Period(p.year, sub)
        break
    return period


def _ends_later(forecast: Period, period: Period) -> bool:
    """Whether the period forecast ends after `period` (both dated, both report periods)."""
    if forecast.year is None or period.year is None or period.sub not in _PERIOD_END:
        return False
    return (forecast.year, _PERIOD_END[forecast.sub]) > (period.year, _PERIOD_END[period.sub])


def _latest_printed(facts: list[Fact]) -> Period | None:
    """`2017年至2019年及2020年上半年，公司营业收入分别为…`: a text that names no period of its own (a news
    piece on a listing application, its figures far from the opening) but prints the company's revenue or
    profit for several periods is about the latest of them; a cumulative period before a quarter ending
    with it (`2021年1-9月` before `三季度`). None when it prints them for fewer than two periods (nothing
    says which is its own then)."""
    own = [
        f for f in facts
        if f.metric in ("revenue", "net_profit") and f.scope == "company" and f.basis == "actual"
        and f.period is not None and f.period.year is not None and f.period.sub in _PERIOD_END
    ]  # fmt: skip
    printed = {f.period for f in own}
    listed = {f.period for f in own if f.source == "list"}
    latest = (
        max(printed, key=lambda p: (p.year, _PERIOD_END[p.sub], p.sub in _CUMULATIVE)) if printed else None
    )
    if (
        len(printed) == 2
        and latest is not None
        and _next_report(next(p for p in printed if p != latest), latest)
        and len({(f.metric, f.period) for f in own}) == 4
    ):
        # `2022年实现营收7.92亿元，…归母净利润…。2023年一季报显示，期内公司实现营收3.71亿元，…归母净利润…`:
        # revenue and profit for a year's report and for the next one after it, the latest figures the text
        # gives (both measures for both, so a second company's figure beside them does not count)
        return latest
    if latest is not None and _both_after_its_prior_report(own, latest):
        return latest
    if len(printed) < 2 or len(listed & printed) < 2:
        return None  # only a list of the company's figures over its periods says they are the text's own
    return latest


def _both_after_its_prior_report(own: list[Fact], latest: Period) -> bool:
    """`2019年上半年公司实现营业收入82.06亿元…归母净利润23.69亿元…2019Q1-Q3公司营业收入123.79亿元…归母净利润
    36.71亿元` in a note that also recalls older years' figures: the company's revenue and profit printed for
    its latest period and for the report just before it (the half, then the nine months) follow its
    results report by report up to the latest, which is the text's own, whatever older years it recalls
    (those are history, earlier than both)."""
    both = {
        p for p in {f.period for f in own}
        if {f.metric for f in own if f.period == p} >= {"revenue", "net_profit"}
    }  # fmt: skip
    return latest in both and any(_next_report(p, latest) for p in both if p != latest)


def _next_report(earlier: Period, later: Period) -> bool:
    """Whether `later` is the report published right after `earlier`'s (FY then the next Q1, Q1 then H1,
    H1 then the nine months, the nine months then FY)."""
    order = ("Q1", "H1", "Q1-Q3", "FY")
    if earlier.year is None or later.year is None or earlier.sub not in order or later.sub not in order:
        return False
    i, j = order.index(earlier.sub), order.index(later.sub)
    return (later.year == earlier.year and j == i + 1) or (
        later.year == earlier.year + 1 and i == 3 and j == 0
    )


_CLOSING_QUARTER = {"H1": "Q2", "Q1-Q3": "Q3", "FY": "Q4"}


def _without_closing_quarters(top: list[Fact]) -> list[Fact]:
    """A text that names no period of its own (a news item on a new drug, then
    `2021年前三季度公司实现营收81.12亿元…公司单三季度实现营收22.16亿元`) and prints one dated cumulative
    period's figure beside its closing quarter's, that quarter named with no year (the year is the
    cumulative period's): the cumulative period's is the report's (as in a text that names it), not a rival
    of the quarter's. A quarter with its own year (`2021年第四季度…2021年全年`) and any other mix are left
    as they are."""
    cumulative = {
        f.period
        for f in top
        if f.period is not None and f.period.year is not None and f.period.sub in _CLOSING_QUARTER
    }
    if len(cumulative) != 1:
        return top
    whole = next(iter(cumulative))
    closing = _CLOSING_QUARTER[whole.sub]
    kept = [
        f for f in top
        if f.period is None or f.period.sub != closing or f.period.year is not None
    ]  # fmt: skip
    return kept or top


def _dated(fact: Fact) -> tuple[int, str] | None:
    p = fact.period
    return (p.year, p.sub) if p is not None and p.year is not None else None


def _undated_rivals(out: dict[str, Screened]) -> dict[str, Screened]:
    """A text that names no period of its own and whose figures of one field disagree across two dated
    periods (a market digest: `智飞生物2020年三季报显示，实现营业收入110.50亿元…归属于上市公司股东的
    净利润24.79亿元` beside `重庆啤酒2020年实现营业总收入109.46亿元…归属于上市公司股东的净利润10.77亿元`)
    prints two reports' figures and nothing says which is its own: another field's figure of one of those
    periods is as much a guess, so it is left in conflict too (its one fact), not kept."""
    periods: set[tuple[int, str]] = set()
    for s in out.values():
        dated = {d for f in s.conflict if (d := _dated(f)) is not None}
        if len(dated) >= 2:
            periods |= dated
    if not periods:
        return out
    return {
        name: Screened(name, conflict=(s.fact,)) if s.fact is not None and _dated(s.fact) in periods else s
        for name, s in out.items()
    }


def _paged(fact: Fact, page_at: Callable[[int], int | None]) -> Fact:
    inputs = tuple(_paged(f, page_at) for f in fact.inputs)
    return replace(fact, page=page_at(fact.start), inputs=inputs)


def _first_table_period(tables: list) -> Period | None:
    """The first dated current column of the first figures table (`2019 年`): an undated excerpt's period."""
    for table in tables:
        for index in sorted(table.columns):
            col = table.columns[index]
            if index == 0 or col.basis != "actual" or col.period is None or col.period.period is None:
                continue
            p = col.period.period
            if p.year is not None:
                return Period(p.year, p.sub or "FY")
    return None


__all__ = ["FactSheet", "Fact", "Screened", "SCREEN_FIELDS", "TIER_CONTEXT", "agree", "read_facts"]
