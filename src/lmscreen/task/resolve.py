"""Turn the label reader's answers and the model's chosen ids into the row's figures, and check each one.

Order of trust: a value the labels settle wins; the model decides only what the labels leave open, and a
model pick that contradicts the labels (another value for a settled field, or a number the labels settled
as another field) loses and flags the row `llm_disagrees:<field>`. Whichever way a figure was found, it
then goes through the same grounding check as before (task/grounding.py: printed, compatible unit, in a
clause that names the field); one that fails is dropped and flagged `ungrounded:<field>`. The value, unit
and period come from the printed mention, never from the model.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any

from lmscreen.task.candidates import Candidate, CandidateSet
from lmscreen.task.choice import Choice
from lmscreen.task.grounding import FIELD_SPECS, GroundedField, ground_field
from lmscreen.task.schema import FIGURES, Figure
from lmscreen.task.units import Mention

_PRINTED_MONEY_UNITS = {
    1.0: "元",
    1e3: "千元",
    1e4: "万元",
    1e6: "百万元",
    1e8: "亿元",
    1e9: "十亿元",
    1e12: "万亿元",
}


@dataclass(frozen=True)
class ResolvedField:
    grounded: GroundedField
    source: str
    """`label` / `table` / `list` (the label reader), `model` (the model's pick), or `none`."""
    candidate_id: int | None

    def to_json(self) -> dict[str, Any]:
        return {**self.grounded.to_json(), "source": self.source, "candidate_id": self.candidate_id}


@dataclass
class Resolved:
    fields: dict[str, ResolvedField]
    flags: list[str] = field(default_factory=list)

    def base_value(self, name: str) -> float | None:
        return self.fields[name].grounded.value_base


def printed_unit(mention: Mention) -> str:
    if mention.kind == "money":
        return _PRINTED_MONEY_UNITS.get(mention.factor, "元")
    if mention.kind == "percent":
        return "%"
    return "倍"


def _agree(a: float, b: float) -> bool:
    return a == b or ((a < 0) == (b < 0) and math.isclose(a, b, rel_tol=0.005))


def _check(name: str, cand: Candidate, text: str, cset: CandidateSet) -> GroundedField:
    """Ground the chosen mention like any extracted figure, then report it as printed."""
    spec = FIELD_SPECS[name]
    base = cand.mention.base
    unit = {"money": "元", "percent": "%"}.get(spec.kind, "倍")
    figure = Figure(value=base, raw_value=repr(base), unit=unit, period=cand.period)
    checked = ground_field(spec, figure, text, cset.scanned)
    return replace(
        checked,
        value=cand.mention.value,
        raw_value=cand.mention.printed,
        unit=printed_unit(cand.mention),
        period=cand.period,
    )


def _absent(name: str) -> GroundedField:
    return GroundedField(name, None, None, None, None, None, FIELD_SPECS[name].base_unit, False, "absent")


def resolve(cset: CandidateSet, choice: Choice | None, text: str) -> Resolved:
    """Each field's figure from labels first, then the model's pick; every one grounded."""
    flags: list[str] = []
    fields: dict[str, ResolvedField] = {}
    settled_elsewhere = {id(c.mention): name for name, c in cset.settled.items()}
    for name in FIGURES:
        label = cset.settled.get(name)
        picked_id = choice.ids.get(name) if choice is not None else None
        picked = cset.candidate(name, picked_id) if picked_id is not None else None
        chosen: Candidate | None = None
        source = "none"
        if label is not None:
            chosen, source = label, label.source
            if picked_id is not None and (
                picked is None or not _agree(picked.mention.base, label.mention.base)
            ):
                flags.append(f"llm_disagrees:{name}")
        elif picked_id is not None:
            if picked is None or settled_elsewhere.get(id(picked.mention), name) != name:
                flags.append(f"llm_disagrees:{name}")
            else:
                chosen, source = picked, "model"
        if chosen is None:
            fields[name] = ResolvedField(_absent(name), "none", None)
            continue
        checked = _check(name, chosen, text, cset)
        if not checked.grounded:
            flags.append(f"ungrounded:{name}")
        fields[name] = ResolvedField(checked, source, cset.id_of(chosen.mention))
    flags.extend(f"candidates_capped:{name}" for name in cset.capped)
    flags.extend(f"labels_disagree:{name}" for name in cset.ambiguous)
    return Resolved(fields, flags)
