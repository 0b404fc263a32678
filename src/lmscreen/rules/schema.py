"""The rules file's schema as pydantic models: the judge of a rules file that `ruleset.py`'s own check does
not pass, and the author of the error message a user then reads.

Why apart: pydantic (and these models' construction) was a quarter of a small rules-only run's start-up. A
valid file is checked and built by `ruleset.py` alone; this module is imported only for a file (or a
recorded spec) that check does not accept, so every message stays pydantic's, key path and all. The
models are the contract: `ruleset._valid` accepts nothing they reject (tests/test_rules_schema.py holds
the two together).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictFloat,
    StrictInt,
    StrictStr,
    ValidationError,
    model_validator,
)

from lmscreen.rules.ruleset import COMPARISON_OPS, UNARY_OPS, is_number

__all__ = ["RuleSet", "ValidationError", "validate"]

Op = Literal["lt", "le", "gt", "ge", "eq", "is_null", "is_true"]

_Number = StrictInt | StrictFloat


class _Strict(BaseModel):
    """Unknown keys are errors: a misspelt threshold must not be silently ignored."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class Rule(_Strict):
    """One condition on one column; when it holds the rule fires and votes for its level."""

    id: str = Field(pattern=r"^[A-Za-z0-9_]+$")
    level: str
    field: str = Field(min_length=1)
    op: Op
    value: StrictBool | _Number | StrictStr | None = None
    show: str | None = None
    """Column listed in `rules_fired` instead of `field` (the ST rule shows the name, not `true`)."""

    @model_validator(mode="after")
    def _value_fits_op(self) -> Rule:
        if self.op in UNARY_OPS:
            if self.value is not None:
                raise ValueError(f"op {self.op!r} takes no value")
        elif self.value is None:
            raise ValueError(f"op {self.op!r} needs a value")
        elif self.op in COMPARISON_OPS and not is_number(self.value):
            raise ValueError(f"op {self.op!r} needs a number, got {self.value!r}")
        return self


class Levels(_Strict):
    order: list[str] = Field(min_length=1)
    """Most severe first; a row gets the first level with a fired rule."""
    default: str
    """Level of a row where no rule fired."""
    names: dict[str, str]
    """Display name per level (高 / 中 / 低 / 未知)."""

    @model_validator(mode="after")
    def _consistent(self) -> Levels:
        if len(set(self.order)) != len(self.order):
            raise ValueError("order lists a level twice")
        if self.default not in self.order:
            raise ValueError(f"default {self.default!r} is not in order {self.order}")
        missing = [level for level in self.order if level not in self.names]
        if missing:
            raise ValueError(f"names has no display name for {missing}")
        return self


class PeTerm(_Strict):
    field: str = "pe_ttm"
    per: _Number = Field(gt=0)
    weight: _Number
    fallback: _Number
    """pe' used when PE is missing, zero or negative."""


class RoeTerm(_Strict):
    field: str = "roe"
    target: _Number
    weight: _Number


class Score(_Strict):
    base: _Number
    pe: PeTerm
    roe: RoeTerm
    min: StrictInt
    max: StrictInt

    @model_validator(mode="after")
    def _bounds(self) -> Score:
        if self.min > self.max:
            raise ValueError(f"min {self.min} is above max {self.max}")
        return self


class RuleSet(_Strict):
    version: Literal[1]
    levels: Levels
    raw_columns: dict[str, str] = Field(default_factory=dict)
    """When a shown column is missing in a row, show this raw column instead (pe_ttm -> pe_raw)."""
    rules: list[Rule] = Field(min_length=1)
    score: Score

    @model_validator(mode="after")
    def _rules_consistent(self) -> RuleSet:
        seen: set[str] = set()
        for index, rule in enumerate(self.rules):
            if rule.id in seen:
                raise ValueError(f"rules[{index}].id: {rule.id!r} is used twice")
            seen.add(rule.id)
            if rule.level not in self.levels.order:
                raise ValueError(f"rules[{index}].level: {rule.level!r} is not one of {self.levels.order}")
        return self


def validate(data: Any) -> dict[str, Any]:
    """`data` checked against the schema, as plain data (pydantic's defaults filled in); raises
    ValidationError (a ValueError) naming the first problem."""
    return RuleSet.model_validate(data).model_dump()
