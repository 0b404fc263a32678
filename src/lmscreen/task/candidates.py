"""The numbers a row's screening fields may be: what the facts settle, what is in conflict, what is left open.

Why: a 135M model cannot copy a number reliably, but a served model can pick one. So the question a model is
asked is "which of these printed numbers is the revenue?", each field's answer an enum of candidate ids or
null (task/choice.py), and only for the fields the facts leave open. This module turns a filing's facts
(task/facts.py) into that question's parts:
- `settled`: the fields a fact of the main period, the company, actual basis settles (the best-ranked facts
  agree); the model is not asked about them;
- `conflicts`: the fields whose best-ranked facts disagree: no value, flagged `conflict:<field>`, not asked
  either (a model cannot know better than the labels which of two printed figures is meant);
- `by_field`: for an open field, the loose readings of the main period (a number far from its label, or
  not the first after it), nearest-ranked first and at most `MAX_PER_FIELD` (the field is then named in
  `capped`); for a settled field, its fact.
Ids are 1-based, in text order, shared by all fields.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from lmscreen.task.fact import Fact
from lmscreen.task.facts import FACTS_VERSION, SCREEN_FIELDS, FactSheet, read_facts
from lmscreen.task.periods import Period
from lmscreen.task.units import Mention, ScannedText

CANDIDATES_VERSION = f"2.{FACTS_VERSION}"
"""Part of the prompt hash: candidate ids depend on this module and the reader, so a change re-asks."""
MAX_PER_FIELD = 6
FIELDS = SCREEN_FIELDS


@dataclass(frozen=True)
class Candidate:
    field: str
    mention: Mention | None
    """The printed number (None for a derived fact)."""
    source: str
    """`table`, `label`, `list`, `derived` (a fact: settles the field) or `context` (a loose reading:
    only a model may pick it)."""
    label_text: str
    rank: int
    distance: int
    period: str | None
    fact: Fact | None = None

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
    conflicts: dict[str, tuple[Fact, ...]] = field(default_factory=dict)
    """Fields whose best-ranked facts disagree (no value; `conflict:<field>`)."""
    sheet: FactSheet | None = None

    @property
    def ambiguous(self) -> list[str]:
        return list(self.conflicts)

    def id_of(self, mention: Mention) -> int:
        for i, m in self.ids.items():
            if (m.start, m.end) == (mention.start, mention.end):
                return i
        raise KeyError(mention)

    def field_ids(self, name: str) -> list[int]:
        return [self.id_of(c.mention) for c in self.by_field[name] if c.mention is not None]

    def candidate(self, name: str, cid: int) -> Candidate | None:
        mention = self.ids.get(cid)
        if mention is None:
            return None
        for c in self.by_field[name]:
            if c.mention is not None and (c.mention.start, c.mention.end) == (mention.start, mention.end):
                return c
        return None


def _candidate(name: str, fact: Fact, source: str | None = None) -> Candidate:
    return Candidate(
        field=name,
        mention=fact.mention,
        source=source or fact.source,
        label_text=fact.label,
        rank=fact.rank,
        distance=0,
        period=fact.period_label,
        fact=fact,
    )


def find_candidates(
    text: str,
    max_per_field: int = MAX_PER_FIELD,
    *,
    names: Sequence[str] = (),
    page_at: Callable[[int], int | None] | None = None,
) -> CandidateSet:
    """Read `text` once (task/facts.py) and return every field's candidates, ids and settled facts."""
    sheet = read_facts(text, names=names, page_at=page_at)
    assert sheet.scanned is not None
    screened = sheet.screening()
    by_field: dict[str, list[Candidate]] = {name: [] for name in FIELDS}
    settled: dict[str, Candidate] = {}
    conflicts: dict[str, tuple[Fact, ...]] = {}
    capped: list[str] = []
    for name in FIELDS:
        s = screened[name]
        if s.fact is not None:
            settled[name] = _candidate(name, s.fact)
            if s.fact.mention is not None:
                by_field[name].append(settled[name])
        elif s.conflict:
            conflicts[name] = s.conflict
    taken = {f.start for f in sheet.facts}
    for name in FIELDS:
        s = screened[name]
        if name in settled or name in conflicts:
            continue
        loose = sorted(
            (f for f in s.readings if f.mention is not None and f.start not in taken),
            key=lambda f: (f.rank, f.start),
        )
        if len(loose) > max_per_field:
            capped.append(name)
            loose = loose[:max_per_field]
        by_field[name] = [_candidate(name, f, "context") for f in loose]
    used: dict[tuple[int, int], Mention] = {}
    for cands in by_field.values():
        for c in cands:
            if c.mention is not None:
                used.setdefault((c.mention.start, c.mention.end), c.mention)
    ids = {i: m for i, (_, m) in enumerate(sorted(used.items()), start=1)}
    return CandidateSet(sheet.scanned, sheet.period, by_field, settled, ids, capped, conflicts, sheet)


def marked_text(text: str, cset: CandidateSet, only: set[int] | None = None) -> str:
    """The report with `[id]` written before each candidate number (or each of `only`), so the model can
    name it."""
    out = text
    for cid, mention in sorted(cset.ids.items(), key=lambda kv: kv[1].start, reverse=True):
        if only is not None and cid not in only:
            continue
        out = f"{out[: mention.start]}[{cid}]{out[mention.start :]}"
    return out
