"""Compare the grounded ROE and PE from the report with the ROE and PE the pool file provides.

Why: the rules decide on the provided fields; if the report (as grounded) says something else, a human
should look before trusting the verdict. Only grounded figures take part: an ungrounded one is already
flagged and proves nothing. A provided value that is missing or zero cannot be compared relatively, so it
never raises the flag.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from lmscreen.task.grounding import GroundedExtraction

FLAG = "数据存疑"
MAX_RELATIVE_DIFF = 0.05
"""Strictly more than 5% relative difference flags the row; exactly 5% does not."""
_EPS = 1e-9


@dataclass(frozen=True)
class Mismatch:
    field: str
    """`roe` or `pe_ttm`."""
    extracted: float
    provided: float
    relative_diff: float

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def _relative_diff(extracted: float, provided: float) -> float:
    return abs(extracted - provided) / abs(provided)


def mismatches(
    grounded: GroundedExtraction, provided_roe: float | None, provided_pe: float | None
) -> list[Mismatch]:
    """Each grounded ROE / PE that differs from the provided field by more than 5% relative."""
    found: list[Mismatch] = []
    for name, provided in (("roe", provided_roe), ("pe_ttm", provided_pe)):
        extracted = grounded.base_value(name)
        if extracted is None or provided is None or provided == 0 or provided != provided:  # NaN check
            continue
        diff = _relative_diff(extracted, provided)
        if diff > MAX_RELATIVE_DIFF + _EPS:
            found.append(Mismatch(name, extracted, provided, diff))
    return found


def crosscheck(
    grounded: GroundedExtraction, provided_roe: float | None, provided_pe: float | None
) -> list[str]:
    """`['数据存疑']` when a grounded ROE or PE disagrees with the provided one by more than 5%, else `[]`.

    The fields at fault are given by `mismatches` (the facade keeps them in results.jsonl).
    """
    return [FLAG] if mismatches(grounded, provided_roe, provided_pe) else []
