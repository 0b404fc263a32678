"""Facts from lists: one clause naming several labels or periods and then as many numbers.

`营业收入和归母净利润分别为150.56亿元和20.1亿元` (the k-th label takes the k-th number),
`2020Q1、Q2营业收入分别为13.80、27.29亿元` (one label, the k-th period takes the k-th number),
`1H20实现收入\\净利22.9\\2.95亿` (labels and numbers joined by slashes), `预计2025-2027年归母净利润分别为
935/1011/1090亿元` (a span of years: three forecasts), `较上年同期分别增长12.01%、8.93%与8.49%`
(growth rates of the labels before). A unit printed once, after the last number, is every number's
(`54.92、13.19、12.34亿元`).
A list whose labels and numbers do not pair up one to one is not read at all.
"""

from __future__ import annotations

import re
from dataclasses import replace
from itertools import pairwise

from lmscreen.task.context import CLAUSE_BREAKS, SENTENCE_BREAKS, Reading
from lmscreen.task.fact import TIER_TEXT, Fact
from lmscreen.task.metrics import GROWTH_METRICS, METRICS, PE_METRICS, Label
from lmscreen.task.period_text import PeriodMention, resolve
from lmscreen.task.periods import Period
from lmscreen.task.prose import (
    ENUM_RE,
    _subject,
    _unit_kind_ok,
    adjusted_before,
    compared_base,
    period_for,
)
from lmscreen.task.units import Mention, printed_unit
from lmscreen.task.vocabulary import CHANGE_RE, FORECAST_RE, PRIOR_RE

_RUN_JOINS = ("\\", "/", "、", "和", "及", "与")
_RUN_QUALIFIERS = ("综合", "整体")


def _run_join(gap: str) -> bool:
    """Whether `gap` joins two labels of one run: a separator, or one followed by the qualifier the run's
    labels share (`单季度综合毛利率/综合净利率24.3%/11.8%`)."""
    gap = gap.strip()
    return gap in _RUN_JOINS or (gap[:1] in _RUN_JOINS and gap[1:] in _RUN_QUALIFIERS)


_SEP_RE = re.compile(r"^\s?(?:[、,，/\\和及与]|以及|and)\s?$")
_LABEL_SEP_RE = re.compile(r"^\s?(?:[、,，/\\和及与]|以及)\s?$")
_AFTER_ENUM_RE = re.compile(r"^(?:为|是|达到?|录得|实现|约为?|:|：)?\s?")
_CHANGE_AFTER_RE = re.compile(
    r"^(?:同比|较上年同期|较上年|比上年同期|比上年)?\s?(?:增长|增加|上升|提升|下降|减少|下滑|增|降|变动)"
    r"|^(?:同比|较上年同期|较上年|比上年同期|比上年)\s?(?=[+\-][0-9])"
)
"""The changes a list states after 分别 (`分别同比增长…`, `分别同比-2.71pct、-0.22pct至…`)."""
_NUMBER_KINDS = ("money", "percent", "times", "none")
_RATE_NOUN_RE = re.compile(r"\s?(?:同比)?(?:增速|增长率|增幅)(?:均)?\s?")
"""A growth rate named after a run of labels, before 分别 (`营收与净利增速分别为0.72%、15%`): the list's
percents are the labels' changes, as after `同比分别增长`."""
_SLASH_CHANGE_RE = re.compile(
    r"\s?(?:(?:同比|较上年同期|较上年|比上年同期|比上年|同)?\s?"
    r"(?:增长|增加|上升|提升|提高|下降|减少|下滑|降低|增|降|升|变动)|yoy|yoy\s?(?:变动|变化))\s?(?=[+\-]?[0-9])",
    re.IGNORECASE,
)
_CHANGE_UNIT = r"(?:个百分点|百分点|个pcts?|pcts?|ppts?|pp|bps?|%)"
_LEVELS_AFTER_CHANGES_RE = re.compile(
    rf"[+\-]?[0-9][0-9.]*\s?{_CHANGE_UNIT}?(?:\s?[/、,，]\s?[+\-]?[0-9][0-9.]*\s?{_CHANGE_UNIT}?)+\s?(?:至|到)",
    re.IGNORECASE,
)
"""`1.59/0.57个百分点至`, `-2.71pct、-0.22pct至`: a run of changes, then 至: the numbers after it are the
levels reached."""


_ASIDE_RE = re.compile(r"\s?[（(][^（()）]{1,24}[）)]")
"""A bracketed aside right after a listed number (`（-2.04pctYoY）`, `（+5%）`)."""


_LEVEL_WORD_RE = re.compile(r"^\s?水平")
"""`毛利率和净利率水平达到25.6%和11.1%`: 水平 (level) before a run's first number names no other figure."""


_BASE = r"(?:同比|环比|较上年同期|较上年|较年初|较上季度|较上半年)"
_BASES_RE = re.compile(rf"\s?{_BASE}(?:\s?[/、和及与]\s?{_BASE})+\s?$")
"""`同比/环比`, `同比、环比`: the bases one figure's changes are measured against, joined before 分别."""


def _rate_before_bases(reading: Reading, lo: int, enum_start: int) -> Label | None:
    """`2Q22毛利率同比/环比分别下滑11.5/0.66ppt至42.93%`: what 分别 spreads over is the comparison bases
    (同比/环比) right after one label, so its changes are that one figure's against each base and the one
    number after 至 is the label's level; None unless the label leads straight into the bases."""
    labels = reading.labels_in(lo, enum_start)
    if not labels:
        return None
    label = labels[-1]
    if not _BASES_RE.fullmatch(reading.folded, label.end, enum_start):
        return None
    return label


def _own_clause_start(reading: Reading, label: Label, lo: int) -> int:
    """Where a lone rate's own words start: the period that leads straight into its label (`2Q22毛利率`),
    else the label; what the sentence says before (`价格较去年同期有所下降导致…`) is a cause, not the
    rate's period or basis."""
    folded = reading.folded
    periods = [p for p in reading.periods_in(lo, label.start) if p.kind != "date"]
    if periods and not folded[periods[-1].end : label.start].strip():
        return periods[-1].start
    return label.start


def _list_end(reading: Reading, pos: int) -> int:
    """The end of the list clause after 分别 at `pos`: its clause, and past a comma that sits between two
    numbers (`营业收入分别为29.07亿元，37.80亿元、25.71亿元`: the writer's comma joins the list's first items;
    `分别为3.2亿元，同比增长…` ends it)."""
    folded = reading.folded
    hi = reading.end_of(pos, CLAUSE_BREAKS, 80)
    while hi < len(folded) and folded[hi] in "，,":
        before = reading.mentions_in(max(pos, hi - 16), hi)
        after = reading.mentions_in(hi + 1, hi + 3)
        if not before or before[-1].folded_end != hi or not after or after[0].folded_start > hi + 2:
            break
        if after[0].kind != before[-1].kind:
            break  # `…至91.66%/48.61%，21Q2毛利率…`: a period's digits, not the list's next amount
        hi = reading.end_of(hi + 1, CLAUSE_BREAKS, 80)
    return hi


def _number_run(reading: Reading, start: int, hi: int) -> list[Mention]:
    """Consecutive numbers from `start` joined only by list separators, ending before `hi`."""
    folded = reading.folded
    run: list[Mention] = []
    aside_end = -1
    for m in reading.mentions_in(start, hi):
        if m.folded_start < aside_end:
            continue  # `42.29%（-2.04pctYoY）和16.30%`: a change in brackets after a number is not listed
        if run:
            end = run[-1].folded_end
            between = folded[end : m.folded_start]
            aside = _ASIDE_RE.match(folded, end, hi)
            if aside is not None:
                aside_end = aside.end()
                if m.folded_start < aside_end:
                    continue
                between = folded[aside_end : m.folded_start]
        if m.kind not in _NUMBER_KINDS:
            break
        if run:
            if not _SEP_RE.match(between):
                break
        elif _LEVEL_WORD_RE.sub("", folded[start : m.folded_start], count=1).strip(" 为是达到约:：+"):
            break
        run.append(m)
    return run


def _shared_unit(run: list[Mention]) -> list[Mention] | None:
    """The run with a unit printed once at its end given to the bare numbers before it; None when the
    numbers' units disagree in kind."""
    last = run[-1]
    if last.kind == "none":
        return run
    out = []
    for m in run:
        if m.kind == "none":
            out.append(replace(m, kind=last.kind, factor=last.factor, unit_source="declared"))
        elif m.kind != last.kind:
            return None
        else:
            out.append(m)
    return out


_UNREAD_RUN_LABEL_RE = re.compile(
    r"^\s?[、和及与/]\s?(?P<word>[\u4e00-\u9fff]{1,8}(?:利润|收入|营收))\s?(?:同比)?\s?$"
)
"""A run's last item that no label reads: a measure's word (…利润, …收入) after a run join, before 分别."""


def _run_before(reading: Reading, pos: int, lo: int) -> list[Label]:
    """The labels joined by list separators that end just before `pos` (at most a few characters on)."""
    labels = reading.labels_in(lo, pos)
    if not labels:
        return []
    tail: list[Label] = []
    gap = reading.folded[labels[-1].end : pos]
    if len(gap.strip(" 同比均")) > 2:
        unread = _UNREAD_RUN_LABEL_RE.match(gap)
        if unread is None:
            return []
        # `实现营收、归母净利润、扣非后归母近利润分别为10.49亿、1.26亿和1.26亿元`: a measure no label reads
        # (the writer's typo 近利润) joined to the run still holds its place in it, as a label of none of
        # our metrics, so the numbers pair one for one
        word_lo = labels[-1].end + unread.start("word")
        tail = [Label(word_lo, labels[-1].end + unread.end("word"), "other", 9, unread.group("word"))]
    run = [labels[-1], *tail]
    for lab in reversed(labels[:-1]):
        if not _run_join(reading.folded[lab.end : run[0].start]):
            break
        run.insert(0, lab)
    return run


def read_lists(reading: Reading) -> list[Fact]:
    """Every list's facts, each number with its label's (or its period's) metric."""
    folded = reading.folded
    facts: list[Fact] = []
    seen: set[int] = set()
    last: tuple[int, int] | None = None  # the previous list read: where its numbers end, its periods' start
    for enum in ENUM_RE.finditer(folded):
        if enum.group(0).lower() == "respectively":
            continue
        lo = reading.start_of(enum.start(), SENTENCE_BREAKS, 90)
        periods_lo = _carried(reading, lo, enum.start(), last)
        hi = _list_end(reading, enum.end())
        after = folded[enum.end() : hi]
        skip = _AFTER_ENUM_RE.match(after)
        change = _CHANGE_AFTER_RE.match(after[skip.end() if skip else 0 :])
        start = enum.end() + (skip.end() if skip else 0) + (change.end() if change else 0)
        level = False
        to = _LEVELS_AFTER_CHANGES_RE.match(folded, start, hi)
        if to is not None and (change is not None or folded.startswith(("+", "-"), start)):
            # `毛利率、净利率较2020年分别提升1.59/0.57个百分点至-0.11%/-4.23%`: the levels after 至 are the
            # labels' own figures, the changes before it are not read (signed numbers are changes with no
            # verb: `毛利率和净利率分别-0.12/-0.92pcts至91.66%/48.61%`)
            numbers = _number_run(reading, to.end(), hi)
            level = True
        else:
            numbers = _number_run(reading, start, hi)
        own = [lab for lab in reading.labels_in(start, hi) if lab.start == start]
        if len(numbers) < 2 and own and change is None:
            # `必易微分别实现营业收入2.57亿元、3.48亿元、4.29亿元`: the label after 分别 is the list's own
            numbers = _number_run(reading, own[0].end, hi)
            if len(numbers) >= 2 and not _run_before(reading, enum.start(), lo):
                read = _pair(
                    reading,
                    own[:1],
                    numbers,
                    lo,
                    enum.start(),
                    growth=False,
                    seen=seen,
                    periods_lo=periods_lo,
                )
                facts.extend(read)
                if read:
                    last = (numbers[-1].folded_end, periods_lo)
            continue
        if len(numbers) < 2:
            if level and len(numbers) == 1 and (rate := _rate_before_bases(reading, lo, enum.start())):
                own_lo = _own_clause_start(reading, rate, lo)
                facts.extend(
                    _pair(reading, [rate], numbers, own_lo, enum.start(), growth=False, seen=seen, level=True)
                )
            continue
        # the labels joined right before 分别 (`公司毛利率、净利率分别为…`), else every label of the sentence
        # (`营业总收入X，利润总额Y，归属于…净利润Z，较上年同期分别增长a、b与c`)
        run = _run_before(reading, enum.start(), lo)
        if run and len(run) != len(numbers) and any(lab.metric not in METRICS for lab in run):
            # `销售、管理和研发费用率分别为41.8%、6.1%和2.8%`: the labels right before 分别 are the list's own
            # (some shortened past reading, one not a metric of ours); the sentence's other labels are not
            continue
        # `营业收入分别为a、b、c、d，同期净利润分别为e、f、g、h`: a list naming its label right before 分别
        # after another list of its sentence does not take that list's labels
        labels_lo = last[0] if run and last is not None and lo <= last[0] < run[0].start else lo
        if run and labels_lo == lo and ENUM_RE.search(folded, lo, run[0].start):
            # `营业收入分别为a、b、c d、，净利润分别为e、f、g、h`: the labels before an earlier 分别 of the
            # sentence are that list's, even when it was left unread
            labels_lo = run[0].start
        labels = (
            run
            if len(run) == len(numbers)
            else [
                lab
                for lab in reading.labels_in(labels_lo, enum.start())
                if not folded.endswith("占", 0, lab.start)
            ]
        )
        run_lo = reading.start_of(run[0].start, CLAUSE_BREAKS, 40) if run and labels is run else lo
        dated = any(
            p.period is not None and p.period.year is not None and p.kind == "period"
            for p in reading.periods_in(max(lo, run_lo), enum.start())
        )
        # a forecast word earlier in the sentence governs the list, unless the list's own clause names
        # an actual period (`预计…影响，2020年上半年公司毛利率、净利率分别为…`)
        read = _pair(
            reading, labels, numbers, max(lo, run_lo) if dated else lo, enum.start(),
            growth=change is not None and not level, seen=seen, level=level,
            periods_lo=periods_lo if periods_lo < lo and not dated else None,
        )  # fmt: skip
        facts.extend(read)
        if read:
            last = (numbers[-1].folded_end, periods_lo)
    # slash lists without 分别: `收入\\净利22.9\\2.95亿`
    labels = reading.labels
    for i, label in enumerate(labels):
        if i > 0 and _run_join(folded[labels[i - 1].end : label.start]):
            continue  # inside a run already read
        joined = [label]
        j = i + 1
        while j < len(labels) and _run_join(folded[joined[-1].end : labels[j].start]):
            joined.append(labels[j])
            j += 1
        if len(joined) < 2:
            continue
        hi = reading.end_of(joined[-1].end, CLAUSE_BREAKS, 40)
        level = False
        far = reading.end_of(joined[-1].end, CLAUSE_BREAKS, 40 + 12 * len(joined))
        chg = _SLASH_CHANGE_RE.match(folded, joined[-1].end, far)
        if chg is not None and (to := _LEVELS_AFTER_CHANGES_RE.match(folded, chg.end(), far)) is not None:
            # `毛利率/净利率同降7.15/3.62pct至34.80%/20.61%`, `营收/…/扣非净利润YOY+10.2%/…至16.12/…亿元`:
            # the levels after 至 are the labels' figures (a run of changes reaches past 40 characters)
            hi = far
            numbers = _number_run(reading, to.end(), hi)
            level = True
        else:
            numbers = _number_run(reading, joined[-1].end, hi)
        if len(numbers) != len(joined):
            continue
        between = folded[numbers[0].folded_start : numbers[-1].folded_start]
        slashed = re.search(r"[/\\]", between) or re.search(r"[/\\]", folded[label.end : joined[-1].start])
        if not slashed and not _enumerated_amounts(reading, joined, numbers, hi):
            continue  # `营收、归母净利润1.2亿、增长12%` is prose, read clause by clause
        lo = reading.start_of(label.start, SENTENCE_BREAKS, 90)
        facts.extend(_pair(reading, joined, numbers, lo, label.start, growth=False, seen=seen, level=level))
    facts.extend(_period_slash_lists(reading, seen))
    facts.extend(_span_slash_lists(reading, seen))
    facts.extend(_quarter_slash_lists(reading, seen))
    facts.extend(_report_pairs(reading, seen))
    return facts


def _period_slash_lists(reading: Reading, seen: set[int]) -> list[Fact]:
    """`公司2020年/21Q1毛利率同增1.89/0.82pct至56.16%/57.34%`: one label after periods joined by `/`, then as
    many slashed numbers (or changes, then 至 and the levels): each number is the label's for its period."""
    folded = reading.folded
    out: list[Fact] = []
    for label in reading.labels:
        clause_lo = reading.start_of(label.start, CLAUSE_BREAKS, 40)
        periods = [p for p in reading.periods_in(clause_lo, label.start) if p.kind != "date"]
        if len(periods) < 2 or folded[periods[-1].end : label.start].strip():
            continue  # the periods must lead straight into the label
        if any(
            folded[a.end : b.start].strip() not in ("/", "\\")
            for a, b in zip(periods, periods[1:], strict=False)
        ):
            continue
        far = reading.end_of(label.end, CLAUSE_BREAKS, 60)
        level = False
        chg = _SLASH_CHANGE_RE.match(folded, label.end, far)
        if chg is not None and (to := _LEVELS_AFTER_CHANGES_RE.match(folded, chg.end(), far)) is not None:
            numbers = _number_run(reading, to.end(), far)
            level = True
        else:
            numbers = _number_run(reading, label.end, far)
        if len(numbers) != len(periods):
            continue
        if not re.search(r"[/\\]", folded[numbers[0].folded_start : numbers[-1].folded_start]):
            continue
        out.extend(
            _pair(
                reading, [label], numbers, periods[0].start, label.start, growth=False, seen=seen, level=level
            )
        )
    return out


_SPAN_TO_LABEL_RE = re.compile(r"\s?(?:公司|本公司)?\s?(?:分别)?\s?(?:实现|录得|完成)?\s?")
"""What stands between a span of years and the one label its slashed list follows (`2016-2018年公司实现`)."""


def _span_slash_lists(reading: Reading, seen: set[int]) -> list[Fact]:
    """`2016-2018年公司实现营业收入297.70/345.86/400.13亿元`: a span of whole years leading straight (but for
    公司 and a verb) into one label, then as many numbers joined by `/` as the span has years: each number is
    the label's for its year, as with 分别 (`2016-2018年公司分别实现归母净利润30.45/32.22/34.09亿元`). The
    slashes and the count are what pair them; anything else stays prose, and so does a list its sentence
    calls an estimate (预计, 预测 before it)."""
    folded = reading.folded
    out: list[Fact] = []
    for label in reading.labels:
        if label.metric not in METRICS:
            continue
        clause_lo = reading.start_of(label.start, CLAUSE_BREAKS, 40)
        periods = [p for p in reading.periods_in(clause_lo, label.start) if p.kind != "date"]
        if not periods or periods[-1].kind != "range":
            continue
        span = periods[-1]
        years = span.years
        if len(years) < 2 or years != tuple(range(years[0], years[-1] + 1)):
            continue
        if _SPAN_TO_LABEL_RE.fullmatch(folded, span.end, label.start) is None:
            continue
        sentence_lo = reading.start_of(label.start, SENTENCE_BREAKS, 90)
        if FORECAST_RE.search(folded, sentence_lo, label.start):
            continue  # `预计公司2020-2022年收入为61.23/71.76/83.99亿元`: estimates, left to the prose
        numbers = _number_run(reading, label.end, reading.end_of(label.end, CLAUSE_BREAKS, 60))
        if len(numbers) != len(years) or any(m.folded_start in seen for m in numbers):
            continue
        if not all(
            folded[a.folded_end : b.folded_start].strip() in ("/", "\\")
            for a, b in zip(numbers, numbers[1:], strict=False)
        ):
            continue
        out.extend(_pair(reading, [label], numbers, span.start, label.start, growth=False, seen=seen))
    return out


_QUARTERS = {"H1": 2, "Q1-Q3": 3, "FY": 4}


def _quarters_of(reading: Reading, when: PeriodMention, basis: str, count: int) -> list[Period] | None:
    """The quarters of a cumulative period named once before one label and as many numbers as it has
    quarters (`2021年前三季度毛利率为21.9%/27.6%/30.8%`, `上半年营收分别为2.15、3.29亿元`): the k-th number
    is the k-th quarter's, not the cumulative period's. Actual figures only."""
    if basis != "actual" or when.kind != "period":
        return None
    period = _period(reading, when, basis)
    if period is None or period.year is None or _QUARTERS.get(period.sub) != count:
        return None
    return [Period(period.year, f"Q{k}") for k in range(1, count + 1)]


def _quarter_slash_lists(reading: Reading, seen: set[int]) -> list[Fact]:
    """`2021年前三季度毛利率为21.9%/27.6%/30.8%`: one cumulative period leading straight into one label,
    then one slashed level per quarter of it: each number is its quarter's (see `_quarters_of`). Not a
    level and its change (`20H1公司综合毛利率25.6%/-3.9pct`), nor a forecast's sentence."""
    folded = reading.folded
    out: list[Fact] = []
    for label in reading.labels:
        if label.metric == "other":
            continue
        clause_lo = reading.start_of(label.start, CLAUSE_BREAKS, 40)
        periods = [p for p in reading.periods_in(clause_lo, label.start) if p.kind != "date"]
        if len(periods) != 1 or _FILLER_LEAD_RE.sub("", folded[periods[0].end : label.start]).strip():
            continue  # the period must lead straight into the label
        far = reading.end_of(label.end, CLAUSE_BREAKS, 60)
        numbers = _number_run(reading, label.end, far)
        if len(numbers) < 2 or not _AFTER_ENUM_RE.fullmatch(folded[label.end : numbers[0].folded_start]):
            continue
        if not all(_SLASH_RE.fullmatch(folded[a.folded_end : b.folded_start]) for a, b in pairwise(numbers)):
            continue
        if any(
            m.printed.lstrip()[:1] in "+-" or _CHANGE_UNIT_AFTER_RE.match(folded, m.folded_end)
            for m in numbers
        ):
            continue
        sentence_lo = reading.start_of(label.start, SENTENCE_BREAKS, 90)
        if FORECAST_RE.search(folded, sentence_lo, label.start):
            continue
        if _quarters_of(reading, periods[0], "actual", len(numbers)) is None:
            continue
        out.extend(_pair(reading, [label], numbers, periods[0].start, label.start, growth=False, seen=seen))
    return out


_FILLER_LEAD_RE = re.compile(r"公司|集团|整体|综合")
_SLASH_RE = re.compile(r"\s?[/\\]\s?")
_CHANGE_UNIT_AFTER_RE = re.compile(r"\s?(?:pcts?|pp|ppt|bps?|个百分点|百分点)", re.IGNORECASE)


_ANNOUNCE_BEFORE_RE = re.compile(r"(?:发布|公布|披露|公告)(?:了)?\s?$")
_REPORT_NAME_RE = re.compile(r"(?:报|报告)$")
_REPORT_JOINS = ("及", "和", "与", "、", "以及")


def _report_pairs(reading: Reading, seen: set[int]) -> list[Fact]:
    """`公司发布2022年年报及2023年一季报。公司实现营业收入12.23亿元/3.30亿元，…；实现归母净利润3.56亿元/
    9965.54万元`: two reports announced together, then (in that sentence or the next, naming no period of
    its own) a label with two amounts joined by a slash: the k-th amount is the k-th report's. Any doubt (a
    period named between, a third amount, a rate among them) leaves the numbers unread."""
    folded = reading.folded
    out: list[Fact] = []
    periods = reading.periods
    for a, b in zip(periods, periods[1:], strict=False):
        if a.kind != "period" or b.kind != "period" or a.period is None or b.period is None:
            continue
        if a.period == b.period or folded[a.end : b.start].strip() not in _REPORT_JOINS:
            continue
        if not (
            _REPORT_NAME_RE.search(folded[a.start : a.end])
            and _REPORT_NAME_RE.search(folded[b.start : b.end])
        ):
            continue
        if not _ANNOUNCE_BEFORE_RE.search(folded[max(0, a.start - 6) : a.start]):
            continue
        first_end = reading.end_of(b.end, "。\n", 200)
        hi = reading.end_of(first_end + 1, "。\n", 200) if first_end < len(folded) else first_end
        lo = reading.start_of(a.start, "。\n", 90)
        for label in reading.labels_in(b.end, hi):
            if label.metric not in ("revenue", "net_profit", "net_profit_deducted"):
                continue
            if any(p.kind != "date" for p in reading.periods_in(b.end, label.start)):
                break  # the text has moved on to a period of its own
            numbers = _number_run(reading, label.end, reading.end_of(label.end, CLAUSE_BREAKS, 40))
            if len(numbers) != 2:
                continue
            end = numbers[0].folded_end
            if folded[end : numbers[1].folded_start].strip() not in ("/", "\\"):
                continue
            shared = _shared_unit(numbers)
            if shared is None or any(m.kind != "money" for m in shared):
                continue
            out.extend(_pair(reading, [label], numbers, lo, label.start, growth=False, seen=seen))
    return out


_ENUMERATION_JOINS = ("、", "和", "及", "与")
"""What joins the items of a plain enumeration: `A、B、C`, `A和B`, `A、B和C`."""


def _enumerated_amounts(reading: Reading, labels: list[Label], numbers: list[Mention], hi: int) -> bool:
    """`实现营业收入、归母净利润、扣非归母净利润47.98亿元、11.28亿元、11.09亿元`,
    `实现收入和归母净利润31.8亿和5.5亿`, `综合毛利率和净利润率为63.64%和35.40%`: labels joined by 、 or 和 and
    then as many amounts (or rates, every label a rate's) joined the same way, each with its own unit (or one
    shared at the end), the run closing its clause. Why so strict: without a slash or 分别 the pairing rests
    on the two runs alone, so any doubt (a rate among amounts, a rate for a label of an amount, a number left
    over, a label between, a comma inside the run) leaves it to the prose."""
    folded = reading.folded
    if any(
        folded[a.end : b.start].strip() not in _ENUMERATION_JOINS
        for a, b in zip(labels, labels[1:], strict=False)
    ):
        return False
    if any(
        folded[a.folded_end : b.folded_start].strip() not in _ENUMERATION_JOINS
        for a, b in zip(numbers, numbers[1:], strict=False)
    ):
        return False
    shared = _shared_unit(numbers)
    if shared is None:
        return False
    if any(m.kind != "money" for m in shared) and not (
        # `综合毛利率和净利润率为63.64%和35.40%`: rates joined the same way, every label a rate's
        all(m.kind == "percent" for m in shared)
        and all(
            lab.metric in METRICS and _unit_kind_ok(lab.metric, m)
            for lab, m in zip(labels, shared, strict=True)
        )
    ):
        return False
    last = numbers[-1]
    rest = folded[last.folded_end : hi + 1].lstrip()
    return not rest or rest[0] in "，,；;。\n" or rest.startswith("分别")


def _pair(
    reading: Reading,
    labels: list[Label],
    numbers: list[Mention],
    lo: int,
    enum_start: int,
    *,
    growth: bool,
    seen: set[int],
    level: bool = False,
    periods_lo: int | None = None,
) -> list[Fact]:
    """`level`: the numbers are the levels a change list reached (`分别提升…至a/b`), never changes;
    `periods_lo`: where the list's periods are named, when before its own sentence (see `_carried`)."""
    folded = reading.folded
    shared = _shared_unit(numbers)
    if shared is None:
        return []
    if labels:
        clause_lo = reading.start_of(labels[0].start, CLAUSE_BREAKS, 40)
        sentence_lo = reading.start_of(labels[0].start, SENTENCE_BREAKS, 90)
        if adjusted_before(folded, sentence_lo, clause_lo):
            return []  # `若剔除…减值影响，则2020年公司归母净利/扣非后归母净利分别为1.1/1.0亿`: adjusted
    clause = folded[lo : shared[-1].folded_start]
    if periods_lo is not None and periods_lo < lo:
        # `预计公司2022-2024年营业收入分别为…；归母净利润分别为…`: the list it continues is a forecast
        clause = folded[periods_lo : shared[-1].folded_start]
    basis = "forecast" if FORECAST_RE.search(clause) else "actual"
    closing = _ASIDE_RE.match(folded, shared[-1].folded_end)
    if closing is not None and FORECAST_RE.search(closing.group(0)):
        basis = "forecast"  # `…14.52亿元和20.29亿元（22Q3取预测区间中值）`: the list holds an estimate
    prior_text = folded[lo:enum_start]
    if labels and (same := _same_periods(reading, lo, labels[0].start, periods_lo)):
        # `2017年至2020年1-6月，营业收入分别为…，同期净利润分别为…`: 同期 is the periods just listed
        prior_text = folded[lo : labels[0].start - same] + folded[labels[0].start : enum_start]
    if PRIOR_RE.search(prior_text) and basis == "actual":
        basis = "prior"
    if not level and (
        growth
        or (CHANGE_RE.search(folded[enum_start : shared[0].folded_start]) and shared[0].kind == "percent")
        or (
            labels
            and _RATE_NOUN_RE.fullmatch(folded[labels[-1].end : enum_start])
            and shared[0].kind == "percent"
        )
    ):
        if basis != "actual":
            return []
        basis = "growth"
    named_from = lo if periods_lo is None else min(lo, periods_lo)
    periods = [p for p in reading.periods_in(named_from, enum_start) if p.kind not in ("date",)]
    if level:
        # the period a change is measured from (`较2020年`) is not the levels' period
        periods = [p for p in periods if not compared_base(folded, p, lo)]
    span = [p for p in periods if p.kind == "range"]
    slots: list[tuple[Label, Period | None]] = []
    ours = [lab.metric for lab in labels if lab.metric != "other"]
    distinct = len(set(ours)) == len(ours)
    if len(labels) == len(shared) and distinct:
        upto = lo if level else enum_start  # a level's own clause named only a compared period
        when = periods[-1] if periods else period_for(reading, lo, upto, reading.stop_start(lo))
        period = _period(reading, when, basis)
        slots = [(lab, period) for lab in labels]
    elif labels and len({lab.metric for lab in labels}) == 1:
        # one metric named once or more (`毛利率方面：A和B的毛利率分别为59.36%/41.24%`): the numbers are
        # the periods' it lists, else whose they are the labels cannot say
        label = labels[-1]
        if span and len(span[-1].years) == len(shared):
            own_year = reading.main.year if reading.main is not None else None
            if basis == "actual" and own_year is not None and span[-1].years[-1] > own_year:
                # `维持2022-2024年公司营业总收入分别为339.41/399.52/462.82亿元` in a 2022H1 note: years
                # that run past the document's own are estimates, the list's first year with them
                basis = "forecast"
            kind = "E" if basis == "forecast" else "FY"
            slots = [(label, Period(y, kind)) for y in span[-1].years]
        else:
            named = [p for p in periods if p.period is not None or p.kind != "period"]
            # periods listed together (`2020Q1、Q2营业收入分别为…`), not any periods the sentence names
            joined = all(
                reading.folded[a.end : b.start].strip() in ("", "、", "，", ",", "/", "和", "及", "与", "-")
                for a, b in zip(named, named[1:], strict=False)
            )
            if len(named) == len(shared) and joined:
                slots = [(label, _period(reading, p, basis)) for p in named]
            elif len(named) == 1 and (quarters := _quarters_of(reading, named[0], basis, len(shared))):
                slots = [(label, q) for q in quarters]
            elif basis != "forecast" and (listed := _listed_periods(reading, named, basis)):
                if len(listed) == len(shared):
                    slots = [(label, p) for p in listed]
    if not slots:
        return []
    scope, segment = _subject(reading, slots[0][0])
    out = []
    for (label, period), mention in zip(slots, shared, strict=True):
        metric = label.metric
        if metric == "other" or mention.folded_start in seen:
            continue
        if basis == "growth":
            if metric not in GROWTH_METRICS or mention.kind != "percent":
                continue
            unit = "%"
        else:
            if metric in PE_METRICS and basis != "forecast":
                continue
            if not _unit_kind_ok(metric, mention) or "money" in METRICS[metric] and mention.kind == "none":
                continue
            unit = printed_unit(mention)
        if metric in PE_METRICS:
            metric = "pe_forward"
        seen.add(mention.folded_start)
        out.append(
            Fact(
                metric=metric,
                period=period,
                scope=scope,
                basis=basis,
                value=mention.base,
                unit=unit,
                start=mention.start,
                end=mention.end,
                source="list",
                label=label.text,
                rank=label.rank,
                tier=TIER_TEXT,
                segment=segment,
                mention=mention,
            )
        )
    return out


def _carried(reading: Reading, lo: int, enum_start: int, last: tuple[int, int] | None) -> int:
    """`报告期内（2018年、2019年、2020年），必易微分别实现营业收入a、b、c；分别实现…净利润d、e、f`: a list
    right after `；` (or `。`) that names no period of its own continues the list just before it, whose
    numbers end there, over the same periods: its periods are read from that list's start."""
    if last is None or lo == 0 or reading.folded[lo - 1] not in "；;。":
        return lo
    end, last_lo = last
    between = reading.folded[end : lo - 1].strip()
    if between and (
        # `…15.87亿元，年化复合增长率为19.66%；归母净利润分别为…`: a clause on the list just read, naming no
        # period and no list of its own, still leaves the next list on its periods
        not between.startswith(("，", ","))
        or "分别" in between
        or any(p.kind != "date" for p in reading.periods_in(end, lo - 1))
    ):
        return lo
    if any(p.kind != "date" for p in reading.periods_in(lo, enum_start)):
        return lo
    return last_lo


_SAME_PERIODS_RE = re.compile(r"同期(?:对应)?的?$")


def _same_periods(reading: Reading, lo: int, label_start: int, periods_lo: int | None = None) -> int:
    """A bare `同期` (or `同期对应的`) right before a list's label, after another list of its sentence
    over two or more dated periods (not `上年同期`, `去年同期`), or opening a list carried on from the list
    before the `；` (`2018年、2019年、2020年营收分别…；同期对应的净利润分别为…`): the same periods as that
    list's, not the prior ones. The length of those words, 0 when they are not there."""
    folded = reading.folded
    same = _SAME_PERIODS_RE.search(folded, max(lo, label_start - 6), label_start)
    if same is None:
        return 0
    before = folded[lo : same.start()].rstrip()
    if not before and periods_lo is not None and periods_lo < lo and folded[lo - 1] in "；;":
        lo = periods_lo  # the list carried on: its periods are the one before the `；`'s
    elif not before.endswith(("，", ",")) or re.search(r"(?:上年|去年|上期|比|较)$", before):
        return 0
    dated = [p for p in reading.periods_in(lo, same.start()) if p.kind in ("period", "range")]
    if len(dated) >= 2 or any(p.kind == "range" for p in dated):
        return label_start - same.start()
    return 0


_LIST_JOINS = ("、", "，", ",", "/", "和", "及", "与", "以及")
_SPAN_JOINS = ("至", "到", "-", "—", "―", "~", "～")


def _listed_periods(reading: Reading, named: list[PeriodMention], basis: str) -> list[Period] | None:
    """The periods a list of actual figures runs over when the text spells them as a span and more
    (`2017年至2019年及2020年上半年`, `2017年至2020年1-6月`: the whole years, then the part year) or spells
    out a relative word in brackets (`报告期内（2018年、2019年、2020年）`): the k-th number is the k-th
    period's. None when anything between the periods is not a plain list or span."""
    folded = reading.folded
    items = list(named)
    for i in range(len(items) - 1):
        m, nxt = items[i], items[i + 1]
        if (
            m.period is None
            and m.kind not in ("range", "period")
            and folded[m.end : nxt.start].strip() in "（("
        ):
            items[i] = None  # type: ignore[call-overload]  # the brackets say what the word means
    # `2020年Q1-2021年Q3，公司单季度归母净利润分别为…`: 单季度 says each number is a quarter's, it names none
    kept = [m for m in items if m is not None and m.period != Period(None, "Q")]
    out: list[Period] = []
    i = 0
    while i < len(kept):
        m = kept[i]
        nxt = kept[i + 1] if i + 1 < len(kept) else None
        between = folded[m.end : nxt.start].strip() if nxt is not None else ""
        if m.kind == "range" and len(m.years) >= 2 and m.years == tuple(range(m.years[0], m.years[-1] + 1)):
            out.extend(Period(y, "FY") for y in m.years)
        elif (
            m.kind == "period"
            and m.period is not None
            and m.period.year is not None
            and m.period.sub in ("", "FY")
        ):
            q = nxt.period if nxt is not None else None
            if between in _SPAN_JOINS and nxt is not None and nxt.kind == "period" and q is not None:
                # `2017年至2020年1-6月`: the whole years from the first, then the part year that ends it
                if q.year is None or not 0 < q.year - m.period.year <= 10:
                    return None
                whole = q.sub in ("", "FY")
                out.extend(Period(y, "FY") for y in range(m.period.year, q.year + (1 if whole else 0)))
                if not whole:
                    out.append(Period(q.year, q.sub))
                i += 2
                if i < len(kept) and folded[nxt.end : kept[i].start].strip() not in _LIST_JOINS:
                    return None
                continue
            out.append(Period(m.period.year, "FY"))
        elif nxt is not None and (quarters := _quarter_span(m, nxt, between)) is not None:
            # `2020年Q1-2021年Q3`: every quarter from the first to the last
            out.extend(quarters)
            i += 2
            if i < len(kept) and folded[nxt.end : kept[i].start].strip() not in _LIST_JOINS:
                return None
            continue
        elif m.kind == "period" and m.period is not None and m.period.year is not None:
            out.append(Period(m.period.year, m.period.sub))
        else:
            return None
        if nxt is not None and between not in _LIST_JOINS:
            return None
        i += 1
    return out if len(out) >= 2 else None


_QUARTER_SUBS = ("Q1", "Q2", "Q3", "Q4")


def _quarter_span(m: PeriodMention, nxt: PeriodMention, between: str) -> list[Period] | None:
    """The quarters a span of two dated quarters runs over (`2020年Q1-2021年Q3`: seven), first to last; None
    when `m` and `nxt` are not two dated quarters joined as a span, or the span is empty or past 3 years."""
    if between not in _SPAN_JOINS or m.kind != "period" or nxt.kind != "period":
        return None
    a, b = m.period, nxt.period
    if a is None or b is None or a.year is None or b.year is None:
        return None
    if a.sub not in _QUARTER_SUBS or b.sub not in _QUARTER_SUBS:
        return None
    first = a.year * 4 + int(a.sub[1]) - 1
    last = b.year * 4 + int(b.sub[1]) - 1
    if not 0 < last - first <= 12:
        return None
    return [Period(k // 4, f"Q{k % 4 + 1}") for k in range(first, last + 1)]


def _period(reading: Reading, when: PeriodMention | None, basis: str) -> Period | None:
    main = reading.main
    if when is None:
        return main
    if when.kind == "forecast":
        return when.period
    period = resolve(when, main)
    if basis == "forecast" and period is not None and period.year is not None:
        return Period(period.year, "E")
    return period
