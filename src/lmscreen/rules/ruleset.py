"""The rules file: its schema (`RuleSet`), loading with one-line errors, and a content hash.

The default thresholds live in `default.yaml` next to this module, not in code, so that a user can copy
the file, change a threshold and pass it with `--rules` without touching Python. Both evaluators
(`evaluate.py`, vectorised, and `reference.py`, row by row) read only this model, so they cannot drift
apart on a threshold.

Why dataclasses and a hand check rather than pydantic models: importing pydantic and building the models
was a quarter of a small rules-only run's start-up, for a file that is nearly always the shipped one or a
valid copy. `_valid` checks the data against the schema and the dataclasses are built from it; data it
does not accept goes to the pydantic schema (`schema.py`), which either names the problem, as it always
did, or hands back the data it accepted.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from lmscreen.errors import InputError

DEFAULT_RULES_PATH = Path(__file__).with_name("default.yaml")

Op = Literal["lt", "le", "gt", "ge", "eq", "is_null", "is_true"]
OPS: frozenset[str] = frozenset({"lt", "le", "gt", "ge", "eq", "is_null", "is_true"})
COMPARISON_OPS: frozenset[str] = frozenset({"lt", "le", "gt", "ge"})
UNARY_OPS: frozenset[str] = frozenset({"is_null", "is_true"})
_RULE_ID = re.compile(r"[A-Za-z0-9_]+")

Number = int | float


@dataclass(frozen=True)
class Rule:
    """One condition on one column; when it holds the rule fires and votes for its level."""

    id: str
    level: str
    field: str
    op: Op
    value: bool | int | float | str | None = None
    show: str | None = None
    """Column listed in `rules_fired` instead of `field` (the ST rule shows the name, not `true`)."""

    @property
    def shown_column(self) -> str:
        return self.show or self.field


@dataclass(frozen=True)
class Levels:
    order: list[str]
    """Most severe first; a row gets the first level with a fired rule."""
    default: str
    """Level of a row where no rule fired."""
    names: dict[str, str]
    """Display name per level (高 / 中 / 低 / 未知)."""


@dataclass(frozen=True)
class PeTerm:
    per: Number
    weight: Number
    fallback: Number
    """pe' used when PE is missing, zero or negative."""
    field: str = "pe_ttm"


@dataclass(frozen=True)
class RoeTerm:
    target: Number
    weight: Number
    field: str = "roe"


@dataclass(frozen=True)
class Score:
    """score = clamp(floor(base - pe' * (pe.weight / pe.per) - (target - roe) * roe.weight + 0.5), min, max).

    pe' is PE when PE > 0, else `pe.fallback`; no score when ROE is missing."""

    base: Number
    pe: PeTerm
    roe: RoeTerm
    min: int
    max: int

    def pe_factor(self) -> float:
        """Points off per unit of PE, computed once. Both evaluators multiply by it rather than divide by
        `per`: polars divides a column by a scalar as a multiplication by its reciprocal, which rounds
        differently (139 / 100 * 20 gave 43.49999... in polars and 43.5 in Python), so a division would
        make the two disagree exactly on the .5 scores."""
        return float(self.pe.weight) / float(self.pe.per)


@dataclass(frozen=True)
class RuleSet:
    version: Literal[1]
    levels: Levels
    rules: list[Rule]
    score: Score
    raw_columns: dict[str, str] = field(default_factory=dict)
    """When a shown column is missing in a row, show this raw column instead (pe_ttm -> pe_raw)."""
    _source: str = field(default="<built-in>", compare=False, repr=False)

    @property
    def source(self) -> str:
        """Where the rules came from (a path), for error messages; not part of the hash."""
        return self._source

    def columns(self) -> set[str]:
        """Every column the rules and the score read (raw columns are optional and not included)."""
        cols = {rule.field for rule in self.rules} | {rule.shown_column for rule in self.rules}
        return cols | {self.score.pe.field, self.score.roe.field}

    @classmethod
    def model_validate(cls, data: Any) -> RuleSet:
        """The rules of `data` (a parsed rules file, or run.json's `rules.spec`); raises the schema's
        ValidationError (a ValueError) naming the first problem."""
        if _valid(data):
            return _build(data)
        from lmscreen.rules.schema import validate

        return _build(validate(data))

    def model_dump(self, *, mode: str = "python") -> dict[str, Any]:
        """The rules as plain data, keys in the schema's order: run.json's `rules.spec` and the hash's input.
        `mode="json"` writes a non-finite number as null, as pydantic did."""
        number = _json_number if mode == "json" else _same
        s = self.score
        return {
            "version": self.version,
            "levels": {
                "order": list(self.levels.order),
                "default": self.levels.default,
                "names": dict(self.levels.names),
            },
            "raw_columns": dict(self.raw_columns),
            "rules": [
                {
                    "id": r.id,
                    "level": r.level,
                    "field": r.field,
                    "op": r.op,
                    "value": number(r.value),
                    "show": r.show,
                }
                for r in self.rules
            ],
            "score": {
                "base": number(s.base),
                "pe": {
                    "field": s.pe.field,
                    "per": number(s.pe.per),
                    "weight": number(s.pe.weight),
                    "fallback": number(s.pe.fallback),
                },
                "roe": {"field": s.roe.field, "target": number(s.roe.target), "weight": number(s.roe.weight)},
                "min": s.min,
                "max": s.max,
            },
        }


def _same(value: Any) -> Any:
    return value


def _json_number(value: Any) -> Any:
    return None if isinstance(value, float) and not math.isfinite(value) else value


def _build(data: dict[str, Any]) -> RuleSet:
    """The dataclasses from data the schema accepts (defaults filled in where a key is absent)."""
    levels, score = data["levels"], data["score"]
    pe, roe = score["pe"], score["roe"]
    return RuleSet(
        version=data["version"],
        levels=Levels(order=list(levels["order"]), default=levels["default"], names=dict(levels["names"])),
        raw_columns=dict(data.get("raw_columns") or {}),
        rules=[
            Rule(
                id=r["id"],
                level=r["level"],
                field=r["field"],
                op=r["op"],
                value=r.get("value"),
                show=r.get("show"),
            )
            for r in data["rules"]
        ],
        score=Score(
            base=score["base"],
            pe=PeTerm(
                field=pe.get("field", "pe_ttm"), per=pe["per"], weight=pe["weight"], fallback=pe["fallback"]
            ),
            roe=RoeTerm(field=roe.get("field", "roe"), target=roe["target"], weight=roe["weight"]),
            min=score["min"],
            max=score["max"],
        ),
    )


def _valid(data: Any) -> bool:
    """Whether `data` certainly passes the schema (schema.py), checked by hand. Strict where the schema is
    lenient (a number must be a finite int or float, a text a str): what fails here goes to the schema,
    which either names the problem or accepts it."""
    try:
        return _check(data)
    except Exception:  # noqa: BLE001 - odd data (unhashable keys, ...) is the schema's to judge
        return False


def _keys(data: Any, allowed: frozenset[str], required: frozenset[str]) -> bool:
    return type(data) is dict and required <= data.keys() <= allowed


def _text(value: Any) -> bool:
    return type(value) is str


def _texts(value: Any) -> bool:
    return type(value) is list and all(type(v) is str for v in value)


def _text_map(value: Any) -> bool:
    return type(value) is dict and all(type(k) is str and type(v) is str for k, v in value.items())


def _number(value: Any) -> bool:
    return (type(value) is int) or (type(value) is float and math.isfinite(value))


_RULESET_KEYS = frozenset({"version", "levels", "raw_columns", "rules", "score"})
_RULE_KEYS = frozenset({"id", "level", "field", "op", "value", "show"})
_LEVELS_KEYS = frozenset({"order", "default", "names"})
_SCORE_KEYS = frozenset({"base", "pe", "roe", "min", "max"})
_PE_KEYS = frozenset({"field", "per", "weight", "fallback"})
_ROE_KEYS = frozenset({"field", "target", "weight"})


def _check(data: Any) -> bool:
    if not _keys(data, _RULESET_KEYS, _RULESET_KEYS - {"raw_columns"}):
        return False
    if type(data["version"]) is not int or data["version"] != 1:
        return False
    if "raw_columns" in data and not _text_map(data["raw_columns"]):
        return False
    levels = data["levels"]
    if not _keys(levels, _LEVELS_KEYS, _LEVELS_KEYS):
        return False
    order, default, names = levels["order"], levels["default"], levels["names"]
    if not (_texts(order) and order and _text(default) and _text_map(names)):
        return False
    if len(set(order)) != len(order) or default not in order or any(lv not in names for lv in order):
        return False
    rules = data["rules"]
    if type(rules) is not list or not rules:
        return False
    seen: set[str] = set()
    for rule in rules:
        if not _rule_ok(rule) or rule["id"] in seen or rule["level"] not in order:
            return False
        seen.add(rule["id"])
    score = data["score"]
    if not _keys(score, _SCORE_KEYS, _SCORE_KEYS) or not _number(score["base"]):
        return False
    pe, roe = score["pe"], score["roe"]
    if not _keys(pe, _PE_KEYS, _PE_KEYS - {"field"}) or not _text(pe.get("field", "")):
        return False
    if not (_number(pe["per"]) and pe["per"] > 0 and _number(pe["weight"]) and _number(pe["fallback"])):
        return False
    if not _keys(roe, _ROE_KEYS, _ROE_KEYS - {"field"}) or not _text(roe.get("field", "")):
        return False
    if not (_number(roe["target"]) and _number(roe["weight"])):
        return False
    low, high = score["min"], score["max"]
    return type(low) is int and type(high) is int and low <= high


def _rule_ok(rule: Any) -> bool:
    if not _keys(rule, _RULE_KEYS, frozenset({"id", "level", "field", "op"})):
        return False
    if not (_text(rule["id"]) and _RULE_ID.fullmatch(rule["id"]) and _text(rule["level"])):
        return False
    if not (_text(rule["field"]) and rule["field"]) or rule["op"] not in OPS or type(rule["op"]) is not str:
        return False
    show = rule.get("show")
    if show is not None and not _text(show):
        return False
    value = rule.get("value")
    if value is not None and type(value) not in (bool, str) and not _number(value):
        return False
    if rule["op"] in UNARY_OPS:
        return value is None
    return value is not None and (rule["op"] not in COMPARISON_OPS or is_number(value))


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


def _parsed(text: str, shown: str) -> Any:
    """The YAML of a rules file, parsed once per content: the data of a file read before comes from
    lmscreen's cache folder as JSON (keyed by the text's SHA-256), so a nightly run neither imports PyYAML
    nor runs its pure-Python parser (together a tenth of a small run's start-up). Only data that JSON
    holds exactly is kept (no dates, no NaN, only text keys); a cache that cannot be read or written only
    costs the parse."""
    from lmscreen.home import cache

    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    kept = cache() / "rules" / f"{digest}.json"
    try:
        return json.loads(kept.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        pass
    import yaml  # here: only a file not parsed before needs it

    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark is not None else ""
        problem = getattr(exc, "problem", None) or exc
        raise InputError(f"{where}invalid YAML: {_one_line(problem)}", file=shown) from None
    try:
        encoded = json.dumps(data, ensure_ascii=False, allow_nan=False)
        if json.loads(encoded) == data:
            kept.parent.mkdir(parents=True, exist_ok=True)
            partial = kept.with_name(f".{digest}.{os.getpid()}.tmp")
            partial.write_text(encoded, encoding="utf-8")
            os.replace(partial, kept)
    except (TypeError, ValueError, OSError):
        pass
    return data


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
    data = _parsed(text, shown)
    if not isinstance(data, dict):
        raise InputError("a rules file must be a YAML mapping (version, levels, rules, score)", file=shown)
    try:
        ruleset = RuleSet.model_validate(data)
    except ValueError as exc:  # the schema's ValidationError (only data `_valid` refused gets that far)
        if not hasattr(exc, "errors"):
            raise
        first = exc.errors()[0]
        message = _one_line(first["msg"].removeprefix("Value error, "))
        given = first.get("input")
        if first["type"] != "missing" and isinstance(given, (str, int, float, bool)):
            message += f" (got {given!r})"
        if first["loc"]:
            message = f"key {_key_path(tuple(first['loc']))!r}: {message}"
        raise InputError(message, file=shown) from None
    object.__setattr__(ruleset, "_source", shown)  # frozen: set once, here
    return ruleset


def rules_hash(ruleset: RuleSet) -> str:
    """SHA-256 of the rules' content (canonical JSON): comments, key order and file path do not count."""
    canonical = json.dumps(
        ruleset.model_dump(mode="json"), sort_keys=True, ensure_ascii=False, separators=(",", ":")
    )
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()
