"""The rules file: its schema (`RuleSet`), loading with one-line errors, and a content hash.

The default thresholds live in `default.yaml` next to this module, not in code, so that a user can copy
the file, change a threshold and pass it with `--rules` without touching Python. Both evaluators
(`evaluate.py`, vectorised, and `reference.py`, row by row) read only this model, so they cannot drift
apart on a threshold.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Literal

import yaml
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    StrictBool,
    StrictFloat,
    StrictInt,
    StrictStr,
    ValidationError,
    model_validator,
)

from lmscreen.errors import InputError

DEFAULT_RULES_PATH = Path(__file__).with_name("default.yaml")

Op = Literal["lt", "le", "gt", "ge", "eq", "is_null", "is_true"]
COMPARISON_OPS: frozenset[str] = frozenset({"lt", "le", "gt", "ge"})
UNARY_OPS: frozenset[str] = frozenset({"is_null", "is_true"})

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

    @property
    def shown_column(self) -> str:
        return self.show or self.field


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
    """score = clamp(floor(base - pe' * (pe.weight / pe.per) - (target - roe) * roe.weight + 0.5), min, max).

    pe' is PE when PE > 0, else `pe.fallback`; no score when ROE is missing."""

    base: _Number
    pe: PeTerm
    roe: RoeTerm
    min: StrictInt
    max: StrictInt

    def pe_factor(self) -> float:
        """Points off per unit of PE, computed once. Both evaluators multiply by it rather than divide by
        `per`: polars divides a column by a scalar as a multiplication by its reciprocal, which rounds
        differently (139 / 100 * 20 gave 43.49999... in polars and 43.5 in Python), so a division would
        make the two disagree exactly on the .5 scores."""
        return float(self.pe.weight) / float(self.pe.per)

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
    _source: str = PrivateAttr(default="<built-in>")

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

    @property
    def source(self) -> str:
        """Where the rules came from (a path), for error messages; not part of the hash."""
        return self._source

    def columns(self) -> set[str]:
        """Every column the rules and the score read (raw columns are optional and not included)."""
        cols = {rule.field for rule in self.rules} | {rule.shown_column for rule in self.rules}
        return cols | {self.score.pe.field, self.score.roe.field}


def is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _key_path(loc: tuple[int | str, ...]) -> str:
    """('rules', 3, 'op') -> 'rules[3].op', the way a user would point at it in the YAML."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        elif part.startswith(("function-", "constrained-")) or part in {"str", "int", "float", "bool"}:
            continue  # pydantic's names for union branches, meaningless to a user
        else:
            out += f".{part}" if out else part
    return out


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def load_rules(path: str | Path | None = None) -> RuleSet:
    """Read a rules file (None: the shipped default); any problem is an InputError naming file and key."""
    file = DEFAULT_RULES_PATH if path is None else Path(path)
    shown = str(file)
    try:
        text = file.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise InputError("rules file not found", file=shown) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read rules file: {_one_line(exc)}", file=shown) from None
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark is not None else ""
        problem = getattr(exc, "problem", None) or exc
        raise InputError(f"{where}invalid YAML: {_one_line(problem)}", file=shown) from None
    if not isinstance(data, dict):
        raise InputError("a rules file must be a YAML mapping (version, levels, rules, score)", file=shown)
    try:
        ruleset = RuleSet.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        message = _one_line(first["msg"].removeprefix("Value error, "))
        given = first.get("input")
        if first["type"] != "missing" and isinstance(given, (str, int, float, bool)):
            message += f" (got {given!r})"
        if first["loc"]:
            message = f"key {_key_path(tuple(first['loc']))!r}: {message}"
        raise InputError(message, file=shown) from None
    ruleset._source = shown
    return ruleset


def rules_hash(ruleset: RuleSet) -> str:
    """SHA-256 of the rules' content (canonical JSON): comments, key order and file path do not count."""
    canonical = json.dumps(
        ruleset.model_dump(mode="json"), sort_keys=True, ensure_ascii=False, separators=(",", ":")
    )
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()
