"""The rules' own check (ruleset.py, no pydantic) and the pydantic schema (schema.py) agree on every file.

A rules-only run loads its rules without importing pydantic: `_valid` checks the data by hand and only
what it refuses goes to the schema. These tests hold the two together on the shipped rules and on
thousands of seeded edits of them (wrong types, missing and extra keys, bad numbers, broken levels):
whatever `_valid` accepts the schema accepts too, with the same content, and whatever the schema accepts
loads to the same rules either way.
"""

from __future__ import annotations

import copy
import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from lmscreen.rules import ruleset
from lmscreen.rules.ruleset import DEFAULT_RULES_PATH, RuleSet, load_rules, rules_hash
from lmscreen.rules.schema import ValidationError, validate

ODD_VALUES: list[Any] = [
    None,
    True,
    False,
    0,
    1,
    -3,
    2.5,
    -0.5,
    float("nan"),
    float("inf"),
    "",
    "x",
    "high",
    "roe",
    "lt",
    "is_null",
    "bad id",
    [],
    ["high"],
    {},
    {"a": "b"},
    b"bytes",
]


def default_data() -> dict[str, Any]:
    return yaml.safe_load(DEFAULT_RULES_PATH.read_text(encoding="utf-8"))


def paths(data: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every key path in `data` (dict keys and list indexes), the containers' own included."""
    out = [prefix]
    if isinstance(data, dict):
        for key, value in data.items():
            out += paths(value, (*prefix, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            out += paths(value, (*prefix, index))
    return out


def mutate(data: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """One to three random edits: a value replaced, a key dropped, an unknown key added."""
    data = copy.deepcopy(data)
    for _ in range(rng.randint(1, 3)):
        path = rng.choice(paths(data)[1:])
        parent = data
        for part in path[:-1]:
            parent = parent[part]
        action = rng.random()
        if action < 0.7:
            parent[path[-1]] = rng.choice(ODD_VALUES)
        elif action < 0.85 and isinstance(parent, dict):
            del parent[path[-1]]
        elif isinstance(parent, dict):
            parent[rng.choice(["extra", "treshold", "Value"])] = 1
    return data


def canonical(data: Any) -> str:
    """Comparable text of plain data (NaN equals NaN here, and 1 differs from 1.0 and True)."""
    return json.dumps(data, sort_keys=True, default=repr, allow_nan=True) + repr(_types(data))


def _types(data: Any) -> Any:
    if isinstance(data, dict):
        return {k: _types(v) for k, v in data.items()}
    if isinstance(data, list):
        return [_types(v) for v in data]
    return type(data).__name__


def schema_dump(data: Any) -> str | None:
    try:
        return canonical(validate(data))
    except ValidationError:
        return None


def test_the_shipped_rules_load_without_pydantic() -> None:
    code = (
        "import sys; from lmscreen.rules import load_rules; load_rules(None); "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('pydantic', 'pydantic_core')))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_the_shipped_rules_are_what_the_schema_reads() -> None:
    data = default_data()
    assert ruleset._valid(data)
    assert canonical(load_rules(None).model_dump()) == schema_dump(data)


@pytest.mark.parametrize("seed", range(4))
def test_seeded_edits_are_judged_alike(seed: int) -> None:
    rng = random.Random(seed)
    base = default_data()
    accepted = refused = 0
    for _ in range(1500):
        data = mutate(base, rng)
        by_schema = schema_dump(data)
        if ruleset._valid(data):
            assert by_schema is not None, f"accepted by _valid, refused by the schema: {data}"
        if by_schema is None:
            refused += 1
            with pytest.raises(ValidationError):
                RuleSet.model_validate(data)
        else:
            accepted += 1
            assert canonical(RuleSet.model_validate(data).model_dump()) == by_schema, data
    assert accepted > 50 and refused > 500  # both sides of the line were reached


def test_a_recorded_spec_round_trips(tmp_path: Path) -> None:
    rules = load_rules(None)
    again = RuleSet.model_validate(json.loads(json.dumps(rules.model_dump(mode="json"))))
    assert again == rules and rules_hash(again) == rules_hash(rules)


def test_json_dump_writes_a_non_finite_number_as_null(tmp_path: Path) -> None:
    data = default_data()
    data["rules"][2]["value"] = float("inf")  # roe_lt_5 -> roe < inf: valid for the schema
    path = tmp_path / "inf.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    rules = load_rules(path)
    assert rules.rules[2].value == float("inf")
    assert rules.model_dump(mode="json")["rules"][2]["value"] is None
    assert rules.source == str(path)


# --- the parsed file, kept in the cache folder ----------------------------------------------------------


def _load_in_child(path: Path | None, cache: Path) -> list[str]:
    """The rules loaded in a fresh interpreter using `cache`: their hash and the YAML modules imported."""
    code = (
        "import sys, json; from lmscreen.rules import load_rules, rules_hash; "
        f"r = load_rules({str(path) if path else None!r}); "
        "print(json.dumps([rules_hash(r), sorted(m for m in sys.modules if m.split('.')[0] == 'yaml')]))"
    )
    env = {**os.environ, "LMSCREEN_CACHE": str(cache)}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env)
    return json.loads(done.stdout)


def test_a_file_parsed_before_loads_from_the_cache_without_yaml(tmp_path: Path) -> None:
    first_hash, first_yaml = _load_in_child(None, tmp_path / "cache")
    assert first_yaml  # parsed: PyYAML was needed
    assert len(list((tmp_path / "cache" / "rules").glob("*.json"))) == 1
    again_hash, again_yaml = _load_in_child(None, tmp_path / "cache")
    assert again_yaml == [] and again_hash == first_hash == rules_hash(load_rules(None))


def test_a_changed_file_is_parsed_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LMSCREEN_CACHE", str(tmp_path / "cache"))
    path = tmp_path / "custom.yaml"
    data = default_data()
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    assert load_rules(path).rules[2].value == 5
    data["rules"][2]["value"] = 7
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    assert load_rules(path).rules[2].value == 7


def test_broken_or_inexact_files_are_not_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LMSCREEN_CACHE", str(tmp_path / "cache"))
    broken = tmp_path / "broken.yaml"
    broken.write_text("version: 1\nrules: [\n", encoding="utf-8")
    for _ in range(2):  # the same message the second time: nothing was kept
        with pytest.raises(Exception, match="invalid YAML"):
            load_rules(broken)
    dated = tmp_path / "dated.yaml"  # a date is not JSON: parsed each time, never kept
    data = default_data()
    data["raw_columns"]["pe_ttm"] = "pe_raw"
    dated.write_text(yaml.safe_dump(data, allow_unicode=True) + "note: 2024-06-30\n", encoding="utf-8")
    for _ in range(2):
        with pytest.raises(Exception, match="note"):
            load_rules(dated)
    assert not list((tmp_path / "cache").rglob("*.json"))
