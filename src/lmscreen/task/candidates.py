"""The numbers a row's figures may be: numbered candidate mentions per field, and what labels settle.

Why: a 135M model cannot copy a number reliably, but it can pick one. So the question the model is asked is
"which of these printed numbers is the revenue?", with each field's answer an enum of candidate ids or null
(task/choice.py). This module builds those candidates from every number the text prints (task/units.py):
- only unit-compatible mentions (money for revenue / net profit, % for margins and ROE, 倍 or a bare number
  right after the label for PE);
- only in a clause that names the field, with no other field named closer, and none of the words that make
  it another figure: forecasts (`预计`, `2025E`), prior-year figures (`上年同期`), changes (`同比增长`),
  扣非 / Non-IFRS / 经调整 profits, segment margins, ROAA, 市净率, USD amounts (task/vocabulary.py);
- for the report's own period (task/periods.py; a table's current-period column, task/tables.py).
The label reader settles a field without the model when a standard label or a table row names exactly one
value; where the text prints several of equal rank that disagree, the field is left to the model. When a
text prints more candidates than `MAX_PER_FIELD`, those nearest the field's label are kept and the field is
named in `capped` (the row is flagged).
"""

from __future__ import annotations

import math
import re
from bisect import bisect_left
from dataclasses import dataclass, field

from lmscreen.task.periods import Period, document_period, periods_in, same_period
from lmscreen.task.tables import read_tables
from lmscreen.task.units import Mention, ScannedText, clause_start, scan
from lmscreen.task.vocabulary import (
    ALL_LABELS_RE,
    CHANGE_RE,
    FIELDS,
    FORECAST_RE,
    INJECTION_RE,
    PRIOR_RE,
    SEGMENT_MARGIN_PREFIX_OK,
    level_after_change,
    strength,
)

CANDIDATES_VERSION = "1"
"""Part of the prompt hash: candidate ids depend on this module, so a change re-asks every row."""
MAX_PER_FIELD = 6
FIELD_KINDS: dict[str, tuple[str, ...]] = {
    "revenue": ("money",),
    "net_profit": ("money",),
    "gross_margin": ("percent",),
    "roe": ("percent",),
    "pe_ttm": ("times", "none"),
}
_SENTENCE_BREAKS = "。；;\n!?！？"
_COMMA_BREAKS = _SENTENCE_BREAKS + "，,"
_LABEL_GAP = 30
_LABEL_GAP_ASCII = 48
_LOOSE_GAP = 60
_BARE_GAP = 8
_ENUM_RE = re.compile(r"分别|依次|各为|respectively", re.IGNORECASE)
_TTM_RE = re.compile(r"TTM|滚动|trailing", re.IGNORECASE)
_ENGLISH_STOP_RE = re.compile(r"[.](?=\s)")
_PE_AFTER_RE = re.compile(
    r"-?[0-9][0-9.,]*\s?[xX×倍]\s?(?:(?:TTM|trailing)\s?(?:P/?E|PE|市盈率)|(?:P/?E|PE)\s?[(（]?TTM)",
    re.IGNORECASE,
)
"""`13.8x trailing P/E`, `21.5x TTM P/E`: English notes print the PE before its label."""
_PE_NAMED_AFTER_RE = re.compile(
    r"-?[0-9][0-9.,]*\s?[xX×倍]\s?(?:[^\s,;，；。]{1,8}\s)?(?:P/?E|PE)(?![A-Za-z])"
)
"""A ratio followed by a PE label belongs to that label (`12.9x 2025E P/E`), not to the one before it."""
_AGREE = 0.005


@dataclass(frozen=True)
class Candidate:
    field: str
    mention: Mention
    source: str
    """`table` (a labelled row's current-period cell), `label` (right after a standard label),
    `list` (a `A和B分别为x和y` enumeration) or `context` (a looser match: only the model may pick it)."""
    label_text: str
    rank: int
    """Label strength, 0 best (`归属于…净利润` before `净利润`)."""
    distance: int
    """Characters between the label and the number."""
    period: str | None

    @property
    def settles(self) -> bool:
        return self.source != "context"


@dataclass
class CandidateSet:
    """A row's candidates: ids (1-based, in text order) shared by all fields."""

    scanned: ScannedText
    doc_period: Period | None
    by_field: dict[str, list[Candidate]]
    settled: dict[str, Candidate]
    ids: dict[int, Mention] = field(default_factory=dict)
    capped: list[str] = field(default_factory=list)
    ambiguous: list[str] = field(default_factory=list)
    """Fields whose labels name disagreeing values of equal rank (left to the model)."""

    def id_of(self, mention: Mention) -> int:
        for i, m in self.ids.items():
            if m is mention:
                return i
        raise KeyError(mention)

    def field_ids(self, name: str) -> list[int]:
        return [self.id_of(c.mention) for c in self.by_field[name]]

    def candidate(self, name: str, cid: int) -> Candidate | None:
        mention = self.ids.get(cid)
        for c in self.by_field[name]:
            if c.mention is mention:
                return c
        return None


def compatible(name: str, mention: Mention) -> bool:
    return mention.kind in FIELD_KINDS[name]


def _agree(a: float, b: float) -> bool:
    if a == b:
        return True
    if (a < 0) != (b < 0):
        return False
    return math.isclose(a, b, rel_tol=_AGREE)


def _segment_margin(folded: str, start: int) -> bool:
    """`动力电池系统毛利率`: a margin label preceded by a business name is a segment's, not the company's."""
    before = folded[max(0, start - 8) : start]
    if before.isascii():
        word = re.search(r"([A-Za-z']+)[ \t]*$", before)
        return word is not None and word.group(1).lower() not in {
            "the", "its", "overall", "blended", "consolidated", "group", "company", "total", "and", "a",
            "with", "while", "of", "whose", "as", "our", "to", "in",
        }  # fmt: skip
    return SEGMENT_MARGIN_PREFIX_OK.search(before) is None


def sentence_bounds(
    folded: str, pos: int, breaks: str = _SENTENCE_BREAKS, limit: int = 90
) -> tuple[int, int]:
    """[start, end) of the sentence holding `pos`: Chinese breaks, or an English full stop before a space."""
    lo = clause_start(folded, pos, breaks, limit)
    stops = [m.end() for m in _ENGLISH_STOP_RE.finditer(folded, lo, pos)]
    if stops:
        lo = stops[-1]
    hi = pos
    while hi < len(folded) and hi - pos < limit and folded[hi] not in breaks:
        if folded[hi] == "." and (hi + 1 == len(folded) or folded[hi + 1].isspace()):
            break
        hi += 1
    return lo, hi


def planted(folded: str, pos: int) -> bool:
    """Whether the sentence around `pos` gives orders: its numbers are planted, not reported."""
    lo, hi = sentence_bounds(folded, pos)
    return INJECTION_RE.search(folded, lo, hi) is not None


def _period_of(folded: str, lo: int, pos: int, doc: Period | None) -> Period | None:
    found = [p for _, _, p in periods_in(folded[lo:pos])]
    return found[-1] if found else None


def _label_in_window(name: str, folded: str, lo: int, hi: int) -> re.Match[str] | None:
    last = None
    for m in FIELDS[name].label.finditer(folded, lo, hi):
        last = m
    return last


def _other_label_between(name: str, folded: str, lo: int, hi: int) -> bool:
    own = FIELDS[name].label
    for m in ALL_LABELS_RE.finditer(folded, lo, hi):
        if not own.fullmatch(m.group(0)):
            return True
    return False


def _prose_candidate(name: str, scanned: ScannedText, index: int, doc: Period | None) -> Candidate | None:
    """The mention at `index` read as `name` from the words before it, or None."""
    folded = scanned.folded.text
    mention = scanned.mentions[index]
    pos = mention.folded_start
    sent_lo, _ = sentence_bounds(folded, pos)
    label = _label_in_window(name, folded, sent_lo, pos)
    if label is None or (name == "pe_ttm" and _PE_NAMED_AFTER_RE.match(folded, pos)):
        return _pe_after(name, scanned, index, doc)
    words = FIELDS[name]
    gap = folded[label.end() : pos]
    lead_lo = max(sentence_bounds(folded, label.start(), _COMMA_BREAKS, limit=40)[0], sent_lo)
    lead = folded[lead_lo : label.start()]
    if len(gap) > _LOOSE_GAP or _ENUM_RE.search(gap):
        return None
    if _other_label_between(name, folded, label.end(), pos):
        return None
    if words.excluded.search(lead) or words.excluded.search(gap) or words.excluded.search(label.group(0)):
        return None
    if FORECAST_RE.search(folded, sent_lo, pos) or PRIOR_RE.search(lead):
        return None
    if not level_after_change(gap) and (PRIOR_RE.search(gap) or CHANGE_RE.search(gap)):
        return None
    if name == "gross_margin" and _segment_margin(folded, label.start()):
        return None
    period = _period_of(folded, sent_lo, pos, doc)
    if period is not None and not same_period(period, doc):
        return None
    if name == "pe_ttm" and not _TTM_RE.search(label.group(0) + gap):
        # `2025年PE 18倍` is a forecast or a static PE, whatever year the report is for
        if any(p.year is not None for _, _, p in periods_in(lead + gap)):
            return None
    if mention.kind == "none" and (len(gap) > _BARE_GAP or re.search(r"[0-9]", gap)):
        return None
    limit = _LABEL_GAP_ASCII if gap.isascii() else _LABEL_GAP
    # Mentions are in text order: walk back only over those after the label (a scan of every earlier
    # mention made a long report quadratic).
    first = True
    j = index - 1
    while j >= 0 and scanned.mentions[j].folded_start >= label.end():
        if compatible(name, scanned.mentions[j]):
            first = False
            break
        j -= 1
    strict = first and len(gap) <= limit
    return Candidate(
        field=name,
        mention=mention,
        source="label" if strict else "context",
        label_text=label.group(0),
        rank=strength(name, label.group(0)),
        distance=len(gap),
        period=_period_label(name, label.group(0), period, doc),
    )


def _pe_after(name: str, scanned: ScannedText, index: int, doc: Period | None) -> Candidate | None:
    """A PE printed before its label (`13.8x trailing P/E`), unless the clause makes it a forecast."""
    if name != "pe_ttm":
        return None
    folded = scanned.folded.text
    mention = scanned.mentions[index]
    m = _PE_AFTER_RE.match(folded, mention.folded_start)
    if m is None:
        return None
    lo, _ = sentence_bounds(folded, mention.folded_start, _COMMA_BREAKS, limit=40)
    clause = folded[lo : m.end()]
    if FORECAST_RE.search(clause) or FIELDS[name].excluded.search(clause):
        return None
    return Candidate(name, mention, "label", m.group(0), 0, 0, "TTM")


def _period_label(name: str, label_text: str, period: Period | None, doc: Period | None) -> str | None:
    if name == "pe_ttm":
        return "TTM" if re.search(r"TTM|滚动|trailing", label_text, re.IGNORECASE) else None
    if period is not None:
        return period.label(doc.year if doc else None)
    return doc.label() if doc else None


def _enumerations(scanned: ScannedText, doc: Period | None) -> list[Candidate]:
    """`营业收入和归母净利润分别为150.56亿元和20.1亿元`: the k-th label takes the k-th number."""
    folded = scanned.folded.text
    found: list[Candidate] = []
    starts = [m.folded_start for m in scanned.mentions]
    for enum in _ENUM_RE.finditer(folded):
        if enum.group(0).lower() == "respectively":
            continue
        lo, _ = sentence_bounds(folded, enum.start(), limit=60)
        _, hi = sentence_bounds(folded, enum.end(), _COMMA_BREAKS, limit=60)
        clause = folded[lo:hi]
        if FORECAST_RE.search(clause) or PRIOR_RE.search(folded[lo : enum.start()]):
            continue
        labels: list[tuple[int, str, str]] = []
        for name, words in FIELDS.items():
            for m in words.label.finditer(folded, lo, enum.start()):
                if not words.excluded.search(folded[max(lo, m.start() - 12) : m.start()]):
                    labels.append((m.start(), name, m.group(0)))
        labels.sort()
        after = _mentions_in(scanned, starts, enum.end(), hi)
        numbers = [m for m in after if m.kind in ("money", "percent", "times")]
        if not labels or len(labels) != len(numbers):
            continue
        period = _period_of(folded, lo, enum.start(), doc)
        if period is not None and not same_period(period, doc):
            continue
        for (_, name, text), mention in zip(labels, numbers, strict=True):
            if compatible(name, mention):
                found.append(
                    Candidate(
                        name,
                        mention,
                        "list",
                        text,
                        strength(name, text),
                        0,
                        _period_label(name, text, period, doc),
                    )  # fmt: skip
                )
    return found


def _table_candidates(scanned: ScannedText, doc: Period | None) -> tuple[list[Candidate], set[int]]:
    """Candidates from labelled table rows, and the starts of every line that is a table row."""
    folded = scanned.folded.text
    found: list[Candidate] = []
    table_lines: set[int] = set()
    starts = [m.folded_start for m in scanned.mentions]
    lines = _LineStarts(folded)
    for row in read_tables(folded, doc):
        table_lines.add(lines.at(row.label.start))
        label = row.label.text
        if FORECAST_RE.search(label) or PRIOR_RE.search(label):
            continue
        for name, words in FIELDS.items():
            m = words.label.search(label)
            if m is None or words.excluded.search(label):
                continue
            if _other_label_between(name, label, 0, len(label)) and not words.label.fullmatch(
                label.split("(")[0].strip()
            ):
                continue
            if name == "gross_margin" and _segment_margin(label, m.start()):
                continue
            cell = _mentions_in(scanned, starts, row.current.start, row.current.end)
            if not cell or not compatible(name, cell[0]):
                continue
            found.append(
                Candidate(
                    name,
                    cell[0],
                    "table",
                    m.group(0),
                    strength(name, m.group(0)),
                    0,
                    _period_label(name, m.group(0), row.period, doc),
                )  # fmt: skip
            )
    return found, table_lines


def _mentions_in(scanned: ScannedText, starts: list[int], lo: int, hi: int) -> list[Mention]:
    """The mentions starting in folded [lo, hi), found by bisection (`starts`: their folded starts)."""
    return scanned.mentions[bisect_left(starts, lo) : bisect_left(starts, hi)]


class _LineStarts:
    """Line starts of a text, indexed once: a search back to the previous newline per number made a long
    text without line breaks quadratic."""

    def __init__(self, text: str) -> None:
        self._breaks = [m.start() for m in re.finditer("\n", text)]

    def at(self, pos: int) -> int:
        i = bisect_left(self._breaks, pos) - 1
        return self._breaks[i] + 1 if i >= 0 else 0


def _settle(name: str, cands: list[Candidate]) -> tuple[Candidate | None, bool]:
    """The label reader's answer for a field: the best-ranked labelled value, if they all agree."""
    labelled = [c for c in cands if c.settles]
    if not labelled:
        return None, False
    best = min(c.rank for c in labelled)
    top = [c for c in labelled if c.rank == best]
    first = min(top, key=lambda c: c.mention.start)
    if all(_agree(c.mention.base, first.mention.base) for c in top):
        return first, False
    return None, True


def find_candidates(text: str, max_per_field: int = MAX_PER_FIELD) -> CandidateSet:
    """Read `text` once and return every field's candidates, ids and the label reader's answers."""
    scanned = scan(text)
    folded = scanned.folded.text
    doc = document_period(folded, FORECAST_RE)
    table, table_lines = _table_candidates(scanned, doc)
    listed = _enumerations(scanned, doc)
    by_field: dict[str, list[Candidate]] = {name: [] for name in FIELDS}
    for c in table + listed:
        by_field[c.field].append(c)
    # Each mention is read as prose once, so only the table and list candidates can already hold it.
    preset = {name: {id(c.mention) for c in cands} for name, cands in by_field.items()}
    lines = _LineStarts(folded)
    for i, mention in enumerate(scanned.mentions):
        if lines.at(mention.folded_start) in table_lines:
            continue  # a table row's numbers are read by column, never by the words before them
        if planted(folded, mention.folded_start):
            continue
        for name in FIELDS:
            if not compatible(name, mention):
                continue
            if id(mention) in preset[name]:
                continue
            c = _prose_candidate(name, scanned, i, doc)
            if c is not None:
                by_field[name].append(c)
    settled: dict[str, Candidate] = {}
    ambiguous: list[str] = []
    capped: list[str] = []
    for name, cands in by_field.items():
        # a number settled as one field is no candidate for another
        cands.sort(key=lambda c: (not c.settles, c.rank, c.distance, c.mention.start))
        if len(cands) > max_per_field:
            capped.append(name)
            del cands[max_per_field:]
        answer, unclear = _settle(name, cands)
        if answer is not None:
            settled[name] = answer
        if unclear:
            ambiguous.append(name)
    taken = {id(c.mention): name for name, c in settled.items()}
    for name, cands in by_field.items():
        cands[:] = [c for c in cands if taken.get(id(c.mention), name) == name]
    used = sorted(
        {id(c.mention): c.mention for cands in by_field.values() for c in cands}.values(),
        key=lambda m: m.start,
    )
    ids = {i: m for i, m in enumerate(used, start=1)}
    return CandidateSet(scanned, doc, by_field, settled, ids, capped, ambiguous)


def marked_text(text: str, cset: CandidateSet, only: set[int] | None = None) -> str:
    """The report with `[id]` written before each candidate number (or each of `only`), so the model can
    name it."""
    out = text
    for cid, mention in sorted(cset.ids.items(), key=lambda kv: kv[1].start, reverse=True):
        if only is not None and cid not in only:
            continue
        out = f"{out[: mention.start]}[{cid}]{out[mention.start :]}"
    return out
