"""Deterministic risk level and score, from a YAML rules file; every verdict lists the rules that fired.

- `load_rules(path | None) -> RuleSet` reads a rules file (None: the shipped `default.yaml`).
- `evaluate(frame, rules) -> DataFrame` adds `risk_level`, `score`, `rules_fired` (text),
  `rules_fired_list` (nested)
  to a pool frame, vectorised in polars.
- `evaluate_row(row, rules) -> dict` is the same thing for one row in plain Python: the test oracle and
  the benchmark baseline.
- `rules_hash(rules) -> str` identifies the rules' content for run.json.
"""

from lmscreen.rules.evaluate import (
    OUTPUT_COLUMNS,
    RISK_LEVEL,
    RULES_FIRED,
    RULES_FIRED_LIST,
    RULES_FIRED_LIST_DTYPE,
    SCORE,
    evaluate,
)
from lmscreen.rules.reference import evaluate_row
from lmscreen.rules.ruleset import DEFAULT_RULES_PATH, Rule, RuleSet, load_rules, rules_hash

__all__ = [
    "DEFAULT_RULES_PATH",
    "OUTPUT_COLUMNS",
    "RISK_LEVEL",
    "RULES_FIRED",
    "RULES_FIRED_LIST",
    "RULES_FIRED_LIST_DTYPE",
    "SCORE",
    "Rule",
    "RuleSet",
    "evaluate",
    "evaluate_row",
    "load_rules",
    "rules_hash",
]
