"""`evaluate` (polars) == `evaluate_row` (plain Python) == DESIGN.md's rules, on 5,000 seeded random rows.

The rows lean on the values where implementations disagree: thresholds and their float neighbours,
zero and negative zero, missing and non-finite values, scores landing exactly on .5, tiny and huge
magnitudes (their text form differs between Python and polars), raw PE cells, every ST form.
"""

from __future__ import annotations

import math
import random
from pathlib import Path
from typing import Any

import polars as pl
import pytest

from lmscreen.rules import fired
from lmscreen.rules.evaluate import OUTPUT_COLUMNS, evaluate
from lmscreen.rules.reference import evaluate_row
from lmscreen.rules.ruleset import RuleSet, load_rules

SEED = 20240611
ROWS = 5000

POOL_SCHEMA: dict[str, pl.DataType] = {
    "row": pl.Int64(),
    "code": pl.String(),
    "name": pl.String(),
    "is_st": pl.Boolean(),
    "pe_ttm": pl.Float64(),
    "pe_raw": pl.String(),
    "roe": pl.Float64(),
    "loss_two_years": pl.Boolean(),
}

_SPECIAL = [
    None,
    math.nan,
    math.inf,
    -math.inf,
    0.0,
    -0.0,
    1e-5,
    1.5e-5,
    -2.5e-6,
    1e-300,
    1e16,
    1e300,
    -1e300,
]
ROE_EDGES = [5.0, 15.0, 4.99, 14.99, 15.01, 16.5, 13.5, -0.9]
PE_EDGES = [50.0, 50.01, 49.99, 0.0, -0.0, 100.0, 25.0]
NAMES = [
    "贵州茅台",
    "万科A",
    "ST聆达",
    "*ST天山",
    "S*ST前锋",
    "SST华新",
    "",
    None,
    'ST"引\\号\n\x1f;)',
    "\u2028\x7f",
]


def _number(rng: random.Random, edges: list[float]) -> float | None:
    pick = rng.random()
    if pick < 0.25:
        return rng.choice(edges)
    if pick < 0.35:
        edge = rng.choice(edges)
        return math.nextafter(edge, rng.choice([-math.inf, math.inf]))
    if pick < 0.5:
        return rng.choice(_SPECIAL)
    if pick < 0.6:
        return round(rng.uniform(-100, 200), 1)  # many x.5 scores
    return rng.uniform(-60, 120)


def _half_score_pair(rng: random.Random) -> tuple[float, float]:
    """An integer PE and a two-decimal ROE whose score is exactly k + 0.5 on paper, where the order of
    float operations decides the rounding (139 and 9.26 give 43.5 or 43.49999...)."""
    pe = float(rng.randint(1, 300))
    k = rng.randint(-10, 110)
    roe = round((k + 0.5 - 25 + 0.2 * pe) / 5, 2)
    return pe, roe


def random_rows(rng: random.Random, count: int) -> list[dict[str, Any]]:
    rows = []
    for index in range(count):
        pe, roe = _number(rng, PE_EDGES), _number(rng, ROE_EDGES)
        if rng.random() < 0.15:
            pe, roe = _half_score_pair(rng)
        if pe is None or rng.random() < 0.1:
            pe_raw = rng.choice(["亏损", "--", "", "-", 'n/a "x"\\'])
        else:
            pe_raw = str(pe)
        rows.append(
            {
                "row": index + 2,
                "code": f"{index:06d}.SZ",
                "name": rng.choice(NAMES),
                "is_st": rng.choice([True, False, False, False, None]),
                "pe_ttm": pe,
                "pe_raw": pe_raw,
                "roe": roe,
                "loss_two_years": rng.choice([True, False, False, None]),
            }
        )
    return rows


def design_verdict(row: dict[str, Any]) -> tuple[str, int | None]:
    """DESIGN.md's default rules transcribed literally (non-finite numbers count as missing)."""

    def finite(value: float | None) -> float | None:
        return value if value is not None and math.isfinite(value) else None

    roe, pe = finite(row["roe"]), finite(row["pe_ttm"])
    if row["is_st"] or row["loss_two_years"] or (roe is not None and roe < 5):
        level = "高"
    elif roe is None:
        level = "未知"
    elif roe < 15 or pe is None or pe <= 0 or pe > 50:
        level = "中"
    else:
        level = "低"
    if roe is None:
        return level, None
    pe_used = pe if pe is not None and pe > 0 else 100
    x = 100 - (pe_used / 100) * 20 - (15 - roe) * 5
    return level, min(max(math.floor(x + 0.5), 0), 100)


def same_as_design(got: tuple[str, int | None], row: dict[str, Any]) -> bool:
    """Equal, or off by one on a score that is k + 0.5 on paper: DESIGN.md's formula does not fix the
    order of float operations, so such a score may land on either side (the evaluators fix one order)."""
    expected = design_verdict(row)
    if got == expected:
        return True
    level, score = got
    if level != expected[0] or score is None or expected[1] is None or abs(score - expected[1]) != 1:
        return False
    pe = row["pe_ttm"] if row["pe_ttm"] is not None and row["pe_ttm"] > 0 else 100
    x = 100 - (pe / 100) * 20 - (15 - row["roe"]) * 5
    return abs(x - math.floor(x) - 0.5) < 1e-9


@pytest.fixture(scope="module")
def rules() -> RuleSet:
    return load_rules(None)


@pytest.fixture(scope="module")
def rows() -> list[dict[str, Any]]:
    return random_rows(random.Random(SEED), ROWS)


def test_vectorised_equals_reference_on_every_row(rules: RuleSet, rows: list[dict[str, Any]]) -> None:
    frame = pl.DataFrame(rows, schema=POOL_SCHEMA)
    got = evaluate(frame, rules).select(OUTPUT_COLUMNS).to_dicts()
    mismatches = [
        (row, mine, ref)
        for row, mine in zip(rows, got, strict=True)
        if mine != (ref := evaluate_row(row, rules))
    ]
    assert not mismatches, f"{len(mismatches)} rows differ, first: {mismatches[0]}"


EXOTIC_RULES = """
version: 1
levels: {order: [a, b, c], default: c, names: {a: A, b: B, c: C}}
raw_columns: {pe_ttm: pe_raw}
rules:
  - {id: roe_ge_10_show_pe, level: a, field: roe, op: ge, value: 10, show: pe_ttm}
  - {id: name_is_kweichow, level: a, field: name, op: eq, value: 贵州茅台}
  - {id: no_name, level: b, field: name, op: is_null}
  - {id: pe_eq_50, level: b, field: pe_ttm, op: eq, value: 50}
  - {id: not_st, level: b, field: is_st, op: eq, value: false, show: name}
  - {id: pe_missing_show_roe, level: c, field: pe_ttm, op: is_null, show: roe}
score:
  base: 0
  pe: {per: 7, weight: 3, fallback: -1}
  roe: {target: -2.5, weight: 1.1}
  min: -50
  max: 50
"""


def test_other_rule_shapes_agree_too(tmp_path: Path, rows: list[dict[str, Any]]) -> None:
    """Shapes the default file does not use: a rule showing another column that has a raw cell, eq on
    text, numbers and booleans, is_null on text, and a score with odd weights and negative bounds."""
    path = tmp_path / "exotic.yaml"
    path.write_text(EXOTIC_RULES, encoding="utf-8")
    exotic = load_rules(path)
    frame = pl.DataFrame(rows, schema=POOL_SCHEMA)
    got = evaluate(frame, exotic).select(OUTPUT_COLUMNS).to_dicts()
    expected = [evaluate_row(row, exotic) for row in rows]
    mismatches = [(row, g, e) for row, g, e in zip(rows, got, expected, strict=True) if g != e]
    assert not mismatches, f"{len(mismatches)} rows differ, first: {mismatches[0]}"
    fired = {entry["rule"] for v in expected for entry in v["rules_fired_list"]}
    assert fired == {rule.id for rule in exotic.rules}


@pytest.mark.parametrize(("max_groups", "min_rows"), [(512, 1), (512, 150), (3, 1), (0, 1)])
def test_grouped_and_flat_trails_agree(
    rules: RuleSet,
    rows: list[dict[str, Any]],
    monkeypatch: pytest.MonkeyPatch,
    max_groups: int,
    min_rows: int,
) -> None:
    """The audit trail is built per combination of fired rules, by the flat form for combinations on few
    rows, or by the flat form alone when there are too many combinations: every mix gives the reference's
    text and nested list, row for row (the thresholds are lowered here so that 5,000 rows reach each mix)."""
    monkeypatch.setattr(fired, "MAX_GROUPS", max_groups)
    monkeypatch.setattr(fired, "MIN_GROUP_ROWS", min_rows)
    monkeypatch.setattr(fired, "GROUPED_FROM_ROWS", 0)
    frame = pl.DataFrame(rows, schema=POOL_SCHEMA)
    got = evaluate(frame, rules).select(OUTPUT_COLUMNS).to_dicts()
    assert got == [evaluate_row(row, rules) for row in rows]


def test_both_follow_design_md(rules: RuleSet, rows: list[dict[str, Any]]) -> None:
    frame = pl.DataFrame(rows, schema=POOL_SCHEMA)
    got = evaluate(frame, rules).select("risk_level", "score").rows()
    wrong = [
        (row, g, design_verdict(row)) for row, g in zip(rows, got, strict=True) if not same_as_design(g, row)
    ]
    assert not wrong, f"{len(wrong)} rows differ from DESIGN.md, first: {wrong[0]}"


def test_generator_reaches_every_level_and_the_edges(rows: list[dict[str, Any]], rules: RuleSet) -> None:
    """Guard against a generator change that would quietly stop testing the interesting cases."""
    verdicts = [evaluate_row(row, rules) for row in rows]
    levels = {v["risk_level"] for v in verdicts}
    assert levels == {"高", "中", "低", "未知"}
    assert sum(row["roe"] == 5.0 for row in rows) > 20
    assert sum(row["pe_ttm"] == 50.0 for row in rows) > 20
    assert sum(row["roe"] is None for row in rows) > 20
    assert any(v["score"] == 0 for v in verdicts) and any(v["score"] == 100 for v in verdicts)
    assert sum("pe_missing(pe_ttm=亏损)" in v["rules_fired"] for v in verdicts) >= 5
    assert sum(e["value"] is None for v in verdicts for e in v["rules_fired_list"]) > 100
    halves = sum(
        row["roe"] is not None
        and isinstance(row["pe_ttm"], float)
        and row["pe_ttm"].is_integer()
        and row["pe_ttm"] > 0
        and abs((25 - 0.2 * row["pe_ttm"] + 5 * row["roe"]) % 1 - 0.5) < 1e-6
        for row in rows
    )
    assert halves > 300
