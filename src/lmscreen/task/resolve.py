"""Turn the facts' screening fields and the model's chosen ids into the row's figures, and check each one.

Order of trust: a field a fact settles wins; a field in conflict stays empty (`conflict:<field>`), whatever
the model says; the model decides only what the facts leave open. A model pick that contradicts a fact
(another value for a settled field, or a number the facts settled as another field) loses and is noted
(`llm_disagrees:<field>`, a diagnostic: it says something about the model's answer, not about the stock).
Whichever way a figure was found, it is grounded: a fact by construction (its number is printed, with a
compatible unit, after its label or in its table row; a derived fact from printed inputs), a model's pick
by the grounding check (task/grounding.py: printed, compatible unit, in a clause that names the field); one
that fails is dropped and flagged `ungrounded:<field>`. The value, unit and period come from the printed
mention, never from the model.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any

from lmscreen.task.candidates import Candidate, CandidateSet
from lmscreen.task.choice import Choice
from lmscreen.task.grounding import CONTEXT_CHARS, FIELD_SPECS, Evidence, GroundedField, ground_field
from lmscreen.task.schema import FIGURES, Figure
from lmscreen.task.units import printed_unit

_KIND = {"money": ("money",), "percent": ("percent",), "times": ("times", "none")}


@dataclass(frozen=True)
class ResolvedField:
    grounded: GroundedField
    source: str
    """`label` / `table` / `list` / `derived` (a fact), `model` (the model's pick), `conflict` or `none`."""
    candidate_id: int | None
    label: str | None = None
    """The label the figure was printed after (or its table row's)."""

    def to_json(self) -> dict[str, Any]:
        data = {**self.grounded.to_json(), "source": self.source, "candidate_id": self.candidate_id}
        data["label"] = self.label
        return data


@dataclass
class Resolved:
    fields: dict[str, ResolvedField]
    flags: list[str] = field(default_factory=list)
    """What a reader acts on: `conflict:<field>`, `ungrounded:<field>`."""
    diagnostics: list[str] = field(default_factory=list)
    """Notes on the answer and the reading: `llm_disagrees:<field>`, `candidates_capped:<field>`."""

    def base_value(self, name: str) -> float | None:
        return self.fields[name].grounded.value_base


def _agree(a: float, b: float) -> bool:
    return a == b or ((a < 0) == (b < 0) and math.isclose(a, b, rel_tol=0.005))


def _evidence(text: str, start: int, end: int, context: str | None = None) -> Evidence:
    lo = max(0, start - CONTEXT_CHARS)
    hi = min(len(text), end + CONTEXT_CHARS)
    return Evidence(
        text=text[start:end], start=start, end=end, context=context or " ".join(text[lo:hi].split())
    )


def _from_fact(name: str, cand: Candidate, text: str) -> GroundedField:
    """A fact's figure: grounded by construction, checked once more (printed where it says, unit kind)."""
    spec = FIELD_SPECS[name]
    fact = cand.fact
    assert fact is not None
    if fact.source == "derived":
        rev, cost = fact.inputs
        formula = (
            f"毛利率 = (营业收入 {text[rev.start : rev.end]} - 营业成本 {text[cost.start : cost.end]}) "
            f"/ 营业收入 = {fact.value}%"
        )
        return GroundedField(
            name, fact.value, repr(fact.value), "%", cand.period, fact.value, spec.base_unit, True,
            "grounded", _evidence(text, rev.start, rev.end, formula),
        )  # fmt: skip
    mention = fact.mention
    assert mention is not None
    ok = text[mention.start : mention.end] == mention.printed and mention.kind in _KIND[spec.kind]
    return GroundedField(
        name,
        value=mention.value,
        raw_value=mention.printed,
        unit=printed_unit(mention),
        period=cand.period,
        value_base=mention.base if ok else None,
        base_unit=spec.base_unit,
        grounded=ok,
        verdict="grounded" if ok else "not_in_text",
        evidence=_evidence(text, mention.start, mention.end) if ok else None,
    )


def _from_model(name: str, cand: Candidate, text: str, cset: CandidateSet) -> GroundedField:
    """Ground the model's pick like any extracted figure, then report it as printed."""
    spec = FIELD_SPECS[name]
    mention = cand.mention
    assert mention is not None
    base = mention.base
    unit = {"money": "元", "percent": "%"}.get(spec.kind, "倍")
    figure = Figure(value=base, raw_value=repr(base), unit=unit, period=cand.period)
    checked = ground_field(spec, figure, text, cset.scanned)
    return replace(
        checked,
        value=mention.value,
        raw_value=mention.printed,
        unit=printed_unit(mention),
        period=cand.period,
    )


def _id(cset: CandidateSet, cand: Candidate) -> int | None:
    if cand.mention is None:
        return None
    try:
        return cset.id_of(cand.mention)
    except KeyError:
        return None


def _absent(name: str) -> GroundedField:
    return GroundedField(name, None, None, None, None, None, FIELD_SPECS[name].base_unit, False, "absent")


def resolve(cset: CandidateSet, choice: Choice | None, text: str) -> Resolved:
    """Each field's figure from the facts first, then the model's pick; every one grounded."""
    flags: list[str] = []
    diagnostics: list[str] = []
    fields: dict[str, ResolvedField] = {}
    settled_elsewhere = {
        (c.mention.start, c.mention.end): name for name, c in cset.settled.items() if c.mention is not None
    }
    for name in FIGURES:
        fact = cset.settled.get(name)
        picked_id = choice.ids.get(name) if choice is not None else None
        picked = cset.candidate(name, picked_id) if picked_id is not None else None
        if name in cset.conflicts:
            flags.append(f"conflict:{name}")
            if picked_id is not None:
                diagnostics.append(f"llm_disagrees:{name}")
            fields[name] = ResolvedField(_absent(name), "conflict", None)
            continue
        if fact is not None:
            if picked_id is not None and (
                picked is None
                or picked.mention is None
                or fact.mention is None
                or not _agree(picked.mention.base, fact.mention.base)
            ):
                diagnostics.append(f"llm_disagrees:{name}")
            checked = _from_fact(name, fact, text)
            cid = _id(cset, fact)
            source, label = fact.source, fact.label_text
        elif picked_id is not None:
            if (
                picked is None
                or picked.mention is None
                or settled_elsewhere.get((picked.mention.start, picked.mention.end), name) != name
            ):
                diagnostics.append(f"llm_disagrees:{name}")
                fields[name] = ResolvedField(_absent(name), "none", None)
                continue
            checked = _from_model(name, picked, text, cset)
            cid, source, label = picked_id, "model", picked.label_text
        else:
            fields[name] = ResolvedField(_absent(name), "none", None)
            continue
        if not checked.grounded:
            flags.append(f"ungrounded:{name}")
        fields[name] = ResolvedField(checked, source, cid, label)
    diagnostics.extend(f"candidates_capped:{name}" for name in cset.capped)
    return Resolved(fields, flags, diagnostics)
