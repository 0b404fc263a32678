"""Default rules at their boundaries, hand-computed scores, custom rules files and rules-file errors.

Frames are built with the exact columns and dtypes `pool.load_pool` produces (see lmscreen.pool), so
these tests exercise `evaluate` on the input it gets in a real run.
"""

from __future__ import annotations

import subprocess
import sys
from importlib import resources
from pathlib import Path
from typing import Any

import polars as pl
import pytest
import yaml

from inproc import run_lmscreen
from lmscreen.errors import InputError
from lmscreen.rules.evaluate import OUTPUT_COLUMNS, RULES_FIRED_LIST_DTYPE, evaluate
from lmscreen.rules.reference import evaluate_row
from lmscreen.rules.ruleset import DEFAULT_RULES_PATH, RuleSet, load_rules, rules_hash

POOL_SCHEMA: dict[str, pl.DataType] = {
    "row": pl.Int64(),
    "code": pl.String(),
    "code_raw": pl.String(),
    "name": pl.String(),
    "industry": pl.String(),
    "is_st": pl.Boolean(),
    "pe_ttm": pl.Float64(),
    "pe_raw": pl.String(),
    "roe": pl.Float64(),
    "eps": pl.Float64(),
    "report_text": pl.String(),
    "loss_two_years": pl.Boolean(),
}


def pool(*rows: dict[str, Any]) -> pl.DataFrame:
    """A pool frame; unspecified fields are a healthy, low-risk stock (ROE 20, PE 20, not ST)."""
    full = []
    for index, given in enumerate(rows):
        row: dict[str, Any] = {
            "row": index + 2,
            "code": f"{600000 + index}.SH",
            "code_raw": str(600000 + index),
            "name": "贵州茅台",
            "industry": "白酒",
            "is_st": False,
            "pe_ttm": 20.0,
            "roe": 20.0,
            "eps": 1.0,
            "report_text": None,
            "loss_two_years": False,
        }
        row.update(given)
        row.setdefault("pe_raw", "" if row["pe_ttm"] is None else str(row["pe_ttm"]))
        full.append(row)
    return pl.DataFrame(full, schema=POOL_SCHEMA)


@pytest.fixture(scope="module")
def default_rules() -> RuleSet:
    return load_rules(None)


def verdicts(frame: pl.DataFrame, rules: RuleSet) -> list[dict[str, Any]]:
    """evaluate() output per row, after checking the reference evaluator agrees on every row."""
    out = evaluate(frame, rules)
    got = out.select(OUTPUT_COLUMNS).to_dicts()
    assert got == [evaluate_row(row, rules) for row in frame.iter_rows(named=True)]
    return got


def one(rules: RuleSet, **fields: Any) -> dict[str, Any]:
    return verdicts(pool(fields), rules)[0]


# --- the shipped file ---------------------------------------------------------------------------------


def test_default_rules_ship_inside_the_package() -> None:
    shipped = resources.files("lmscreen.rules").joinpath("default.yaml")
    assert shipped.is_file()
    assert Path(str(shipped)) == DEFAULT_RULES_PATH


def test_default_rules_hold_design_thresholds_and_weights(default_rules: RuleSet) -> None:
    rules = {r.id: (r.level, r.field, r.op, r.value) for r in default_rules.rules}
    assert rules == {
        "st": ("high", "is_st", "is_true", None),
        "loss_two_years": ("high", "loss_two_years", "is_true", None),
        "roe_lt_5": ("high", "roe", "lt", 5),
        "roe_missing": ("unknown", "roe", "is_null", None),
        "roe_lt_15": ("medium", "roe", "lt", 15),
        "pe_missing": ("medium", "pe_ttm", "is_null", None),
        "pe_le_0": ("medium", "pe_ttm", "le", 0),
        "pe_gt_50": ("medium", "pe_ttm", "gt", 50),
    }
    score = default_rules.score
    assert (score.base, score.pe.per, score.pe.weight, score.pe.fallback) == (100, 100, 20, 100)
    assert (score.roe.target, score.roe.weight, score.min, score.max) == (15, 5, 0, 100)
    assert default_rules.levels.order == ["high", "unknown", "medium", "low"]
    assert default_rules.levels.default == "low"
    assert default_rules.levels.names == {"high": "高", "unknown": "未知", "medium": "中", "low": "低"}


def test_evaluate_adds_typed_columns(default_rules: RuleSet) -> None:
    out = evaluate(pool({}), default_rules)
    assert out.schema["risk_level"] == pl.String
    assert out.schema["score"] == pl.Int64
    assert out.schema["rules_fired"] == pl.String
    assert out.schema["rules_fired_list"] == RULES_FIRED_LIST_DTYPE
    assert out.columns[: len(POOL_SCHEMA)] == list(POOL_SCHEMA)


def test_rules_fired_list_is_a_list_of_structs(default_rules: RuleSet) -> None:
    frame = pool({"is_st": True, "name": "*ST天山", "roe": None}, {}, {"roe": 3.5, "pe_ttm": 60.0})
    out = evaluate(frame, default_rules)
    assert out.get_column("rules_fired_list").to_list() == [
        [
            {"rule": "st", "field": "name", "threshold": None, "value": "*ST天山"},
            {"rule": "roe_missing", "field": "roe", "threshold": None, "value": None},
        ],
        [],
        [
            {"rule": "roe_lt_5", "field": "roe", "threshold": 5.0, "value": "3.5"},
            {"rule": "roe_lt_15", "field": "roe", "threshold": 15.0, "value": "3.5"},
            {"rule": "pe_gt_50", "field": "pe_ttm", "threshold": 50.0, "value": "60.0"},
        ],
    ]


def test_empty_pool(default_rules: RuleSet) -> None:
    out = evaluate(pool(), default_rules)
    assert out.height == 0
    assert set(OUTPUT_COLUMNS) <= set(out.columns)


def test_all_blank_columns_of_null_dtype(default_rules: RuleSet) -> None:
    """A column polars could not type (every cell empty) is all missing, not an error."""
    frame = pl.DataFrame(
        {"name": ["万科A"], "is_st": [None], "pe_ttm": [None], "roe": [None], "loss_two_years": [None]}
    )
    assert frame.schema["roe"] == pl.Null
    result = verdicts(frame, default_rules)[0]
    assert (result["risk_level"], result["score"]) == ("未知", None)
    assert result["rules_fired"] == "roe_missing(roe=);pe_missing(pe_ttm=)"


# --- each rule at its boundaries ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("roe", "level"),
    [(4.99, "高"), (5.0, "中"), (14.99, "中"), (15.0, "低"), (15.01, "低"), (-3.0, "高"), (0.0, "高")],
)
def test_roe_boundaries(default_rules: RuleSet, roe: float, level: str) -> None:
    assert one(default_rules, roe=roe, pe_ttm=20.0)["risk_level"] == level


def test_roe_exactly_5_fires_only_the_medium_rule(default_rules: RuleSet) -> None:
    assert one(default_rules, roe=5.0)["rules_fired"] == "roe_lt_15(roe=5.0)"
    assert one(default_rules, roe=4.99)["rules_fired"] == "roe_lt_5(roe=4.99);roe_lt_15(roe=4.99)"


@pytest.mark.parametrize(
    ("pe", "level", "fired"),
    [
        (50.0, "低", ""),
        (49.99, "低", ""),
        (50.01, "中", "pe_gt_50(pe_ttm=50.01)"),
        (0.0, "中", "pe_le_0(pe_ttm=0.0)"),
        (-12.5, "中", "pe_le_0(pe_ttm=-12.5)"),
        (None, "中", "pe_missing(pe_ttm=)"),
    ],
)
def test_pe_boundaries(default_rules: RuleSet, pe: float | None, level: str, fired: str) -> None:
    result = one(default_rules, pe_ttm=pe, roe=20.0)
    assert (result["risk_level"], result["rules_fired"]) == (level, fired)


@pytest.mark.parametrize("raw", ["亏损", "--", ""])
def test_missing_pe_shows_the_cell_as_given(default_rules: RuleSet, raw: str) -> None:
    result = one(default_rules, pe_ttm=None, pe_raw=raw, roe=20.0)
    assert result["rules_fired"] == f"pe_missing(pe_ttm={raw})"
    assert result["rules_fired_list"] == [
        {"rule": "pe_missing", "field": "pe_ttm", "threshold": None, "value": raw}
    ]


def test_missing_pe_without_a_raw_column_shows_empty(default_rules: RuleSet) -> None:
    frame = pool({"pe_ttm": None}).drop("pe_raw")
    out = evaluate(frame, default_rules).row(0, named=True)
    assert out["rules_fired"] == "pe_missing(pe_ttm=)"
    assert out["rules_fired_list"] == [
        {"rule": "pe_missing", "field": "pe_ttm", "threshold": None, "value": None}
    ]


@pytest.mark.parametrize("pe", [0.0, -8.0, None])
def test_loss_making_or_missing_pe_scores_as_pe_100(default_rules: RuleSet, pe: float | None) -> None:
    # pe' = 100: 100 - 20 - (15 - 20) * 5 = 105 -> clamped to 100; with ROE 10: 100 - 20 - 25 = 55
    assert one(default_rules, pe_ttm=pe, roe=20.0)["score"] == 100
    assert one(default_rules, pe_ttm=pe, roe=10.0)["score"] == 55
    assert one(default_rules, pe_ttm=pe, roe=10.0)["risk_level"] == "中"


@pytest.mark.parametrize("name", ["ST聆达", "*ST天山", "S*ST前锋", "SST华新"])
def test_each_st_form_is_high_and_lists_the_name(default_rules: RuleSet, name: str) -> None:
    result = one(default_rules, name=name, is_st=True, roe=30.0, pe_ttm=10.0)
    assert result["risk_level"] == "高"
    assert result["rules_fired"] == f"st(name={name})"
    assert result["rules_fired_list"] == [{"rule": "st", "field": "name", "threshold": None, "value": name}]


def test_awkward_names_are_kept_as_they_are(default_rules: RuleSet) -> None:
    name = '*ST"引号\\斜杠\t制表\x01'
    result = one(default_rules, name=name, is_st=True)
    assert result["rules_fired_list"] == [{"rule": "st", "field": "name", "threshold": None, "value": name}]
    assert result["rules_fired"] == f"st(name={name})"


def test_not_st_when_flag_is_false_or_missing(default_rules: RuleSet) -> None:
    assert one(default_rules, is_st=False)["risk_level"] == "低"
    assert one(default_rules, is_st=None)["risk_level"] == "低"


def test_loss_two_years_is_high(default_rules: RuleSet) -> None:
    result = one(default_rules, loss_two_years=True, roe=30.0, pe_ttm=10.0)
    assert (result["risk_level"], result["rules_fired"]) == ("高", "loss_two_years(loss_two_years=true)")
    assert one(default_rules, loss_two_years=None)["risk_level"] == "低"


def test_missing_roe_is_unknown_without_score(default_rules: RuleSet) -> None:
    result = one(default_rules, roe=None, pe_ttm=None, pe_raw="亏损")
    assert result == {
        "risk_level": "未知",
        "score": None,
        "rules_fired": "roe_missing(roe=);pe_missing(pe_ttm=亏损)",
        "rules_fired_list": [
            {"rule": "roe_missing", "field": "roe", "threshold": None, "value": None},
            {"rule": "pe_missing", "field": "pe_ttm", "threshold": None, "value": "亏损"},
        ],
    }


def test_missing_roe_with_st_is_high_still_without_score(default_rules: RuleSet) -> None:
    result = one(default_rules, roe=None, is_st=True, name="*ST天山")
    assert (result["risk_level"], result["score"]) == ("高", None)
    assert result["rules_fired"] == "st(name=*ST天山);roe_missing(roe=)"


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), float("-inf")])
def test_non_finite_roe_counts_as_missing(default_rules: RuleSet, bad: float) -> None:
    result = one(default_rules, roe=bad)
    assert (result["risk_level"], result["score"], result["rules_fired"]) == (
        "未知",
        None,
        "roe_missing(roe=)",
    )


# --- scores by hand -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("pe", "roe", "score"),
    [
        (30.0, 10.0, 69),  # 100 - 6 - 25 = 69
        (63.1, 12.0, 72),  # 100 - 12.62 - 15 = 72.38
        (25.0, 20.0, 100),  # 100 - 5 + 25 = 120 -> clamped
        (500.0, 1.0, 0),  # 100 - 100 - 70 = -70 -> clamped
        (50.0, 13.5, 83),  # 100 - 10 - 7.5 = 82.5 -> halves go up (Python's round() would give 82)
        (None, 16.5, 88),  # 100 - 20 + 7.5 = 87.5 -> 88
        (10.0, 15.0, 98),  # 100 - 2 - 0 = 98
        (12.5, 14.9, 97),  # 100 - 2.5 - 0.5 = 97.0 (up to float error)
        (-5.0, 8.0, 45),  # pe' = 100: 100 - 20 - 35 = 45
    ],
)
def test_score_by_hand(default_rules: RuleSet, pe: float | None, roe: float, score: int) -> None:
    assert one(default_rules, pe_ttm=pe, roe=roe)["score"] == score


def test_score_is_computed_for_high_rows_too(default_rules: RuleSet) -> None:
    assert one(default_rules, is_st=True, roe=10.0, pe_ttm=30.0)["score"] == 69


# --- custom rules files -------------------------------------------------------------------------------


def write_default_with(tmp_path: Path, edit: Any, name: str = "custom.yaml") -> Path:
    data = yaml.safe_load(DEFAULT_RULES_PATH.read_text(encoding="utf-8"))
    edit(data)
    path = tmp_path / name
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return path


def test_custom_pe_threshold_changes_verdicts(tmp_path: Path, default_rules: RuleSet) -> None:
    def pe_30(data: dict[str, Any]) -> None:
        rule = next(r for r in data["rules"] if r["id"] == "pe_gt_50")
        rule["id"], rule["value"] = "pe_gt_30", 30

    custom = load_rules(write_default_with(tmp_path, pe_30))
    frame = pool({"pe_ttm": 40.0}, {"pe_ttm": 30.0}, {"pe_ttm": 30.01})
    assert [v["risk_level"] for v in verdicts(frame, default_rules)] == ["低", "低", "低"]
    custom_verdicts = verdicts(frame, custom)
    assert [v["risk_level"] for v in custom_verdicts] == ["中", "低", "中"]
    assert custom_verdicts[0]["rules_fired"] == "pe_gt_30(pe_ttm=40.0)"
    assert rules_hash(custom) != rules_hash(default_rules)


def test_custom_score_weights_change_scores(tmp_path: Path) -> None:
    def heavier_pe(data: dict[str, Any]) -> None:
        data["score"]["pe"]["weight"] = 40

    custom = load_rules(write_default_with(tmp_path, heavier_pe))
    assert one(custom, pe_ttm=30.0, roe=10.0)["score"] == 63  # 100 - 12 - 25


def test_hand_written_minimal_rules_file(tmp_path: Path) -> None:
    path = tmp_path / "mine.yaml"
    path.write_text(
        """
version: 1
levels: {order: [bad, ok], default: ok, names: {bad: 差, ok: 好}}
rules:
  - {id: expensive, level: bad, field: pe_ttm, op: ge, value: 30}
  - {id: it_sector, level: bad, field: industry, op: eq, value: 软件}
score:
  base: 50
  pe: {per: 10, weight: 1, fallback: 0}
  roe: {target: 10, weight: 2}
  min: -100
  max: 100
""",
        encoding="utf-8",
    )
    rules = load_rules(path)
    results = verdicts(pool({"pe_ttm": 30.0}, {"pe_ttm": 29.9, "industry": "软件"}, {"pe_ttm": 5.0}), rules)
    assert [r["risk_level"] for r in results] == ["差", "差", "好"]
    assert results[1]["rules_fired"] == "it_sector(industry=软件)"
    assert results[2]["score"] == 70  # 50 - 0.5 - (10 - 20) * 2 = 69.5 -> halves go up


# --- rules-file errors --------------------------------------------------------------------------------


def load_text(tmp_path: Path, text: str, name: str = "broken.yaml") -> InputError:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as caught:
        load_rules(path)
    message = str(caught.value)
    assert str(path) in message
    assert "\n" not in message
    return caught.value


def test_broken_yaml_names_the_file_and_line(tmp_path: Path) -> None:
    error = load_text(tmp_path, "version: 1\nrules: [\n  - id: x\n  level: [high\n")
    assert "invalid YAML" in str(error)
    assert "line " in str(error)
    assert error.file is not None and error.file.endswith("broken.yaml")


def test_not_a_mapping(tmp_path: Path) -> None:
    assert "mapping" in str(load_text(tmp_path, "- just\n- a list\n"))


def edited_default(edit: Any) -> str:
    data = yaml.safe_load(DEFAULT_RULES_PATH.read_text(encoding="utf-8"))
    edit(data)
    return yaml.safe_dump(data, allow_unicode=True)


@pytest.mark.parametrize(
    ("edit", "key", "fragment"),
    [
        (lambda d: d["rules"][2].update(op="less_than"), "rules[2].op", "less_than"),
        (lambda d: d["rules"][2].update(treshold=5), "rules[2].treshold", "Extra inputs"),
        (lambda d: d["rules"][2].pop("value"), "rules[2]", "needs a value"),
        (lambda d: d["rules"][2].update(value="five"), "rules[2]", "needs a number"),
        (lambda d: d["rules"][0].update(value=True), "rules[0]", "takes no value"),
        (lambda d: d["score"]["roe"].pop("weight"), "score.roe.weight", "Field required"),
        (lambda d: d["score"].update(min=101), "score", "above max"),
        (lambda d: d["levels"]["names"].pop("high"), "levels", "high"),
    ],
)
def test_schema_errors_name_the_key(tmp_path: Path, edit: Any, key: str, fragment: str) -> None:
    message = str(load_text(tmp_path, edited_default(edit)))
    assert f"key {key!r}" in message
    assert fragment in message


def test_duplicate_rule_id_and_unknown_level(tmp_path: Path) -> None:
    dup = str(load_text(tmp_path, edited_default(lambda d: d["rules"][1].update(id="st"))))
    assert "rules[1].id" in dup and "used twice" in dup
    level = str(load_text(tmp_path, edited_default(lambda d: d["rules"][3].update(level="severe"))))
    assert "rules[3].level" in level and "severe" in level


def test_missing_rules_file(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="rules file not found"):
        load_rules(tmp_path / "nope.yaml")


def test_rule_on_a_column_the_pool_lacks(tmp_path: Path) -> None:
    path = write_default_with(
        tmp_path,
        lambda d: d["rules"].append(
            {"id": "pb_gt_10", "level": "medium", "field": "pb", "op": "gt", "value": 10}
        ),
    )
    with pytest.raises(InputError, match=r"custom\.yaml.*'pb'"):
        evaluate(pool({}), load_rules(path))


def test_rule_comparing_a_text_column_with_a_number(tmp_path: Path) -> None:
    path = write_default_with(
        tmp_path,
        lambda d: d["rules"].append(
            {"id": "name_lt_5", "level": "medium", "field": "name", "op": "lt", "value": 5}
        ),
    )
    with pytest.raises(InputError, match=r"custom\.yaml: rule 'name_lt_5'.*numeric"):
        evaluate(pool({}), load_rules(path))


# --- hash ---------------------------------------------------------------------------------------------


def test_rules_hash_ignores_comments_and_path(tmp_path: Path, default_rules: RuleSet) -> None:
    copy = tmp_path / "copy.yaml"
    stripped = "\n".join(
        line.split(" #")[0]
        for line in DEFAULT_RULES_PATH.read_text("utf-8").splitlines()
        if not line.lstrip().startswith("#")
    )
    copy.write_text(stripped, encoding="utf-8")
    assert rules_hash(load_rules(copy)) == rules_hash(default_rules)
    assert len(rules_hash(default_rules)) == 64


# --- through the command line -------------------------------------------------------------------------

POOL_CSV = (
    "代码,名称,市盈率TTM,净资产收益率\n"
    "600519,贵州茅台,40.00,32.78%\n"
    "000001,平安银行,4.50,10.2\n"
    "300750,宁德时代,31.00,22.00\n"
)


def screen(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    pool = tmp_path / "pool.csv"
    pool.write_text(POOL_CSV, encoding="utf-8")
    command = [sys.executable, "-m", "lmscreen", "screen", str(pool), "--no-llm", "--quiet", *args]
    return run_lmscreen(command[3:])  # in this process, fd 1 and 2 captured (tests/inproc.py)


def risk_levels(out: Path) -> dict[str, str]:
    results = pl.read_csv(out / "results.csv", infer_schema_length=0)
    return dict(zip(results["code"], results["risk_level"], strict=True))


def test_cli_rules_option_replaces_the_default_rules(tmp_path: Path) -> None:
    def pe_30(data: dict[str, Any]) -> None:
        next(r for r in data["rules"] if r["id"] == "pe_gt_50").update(id="pe_gt_30", value=30)

    custom = write_default_with(tmp_path, pe_30)
    default_run = screen(tmp_path, "--out", str(tmp_path / "default"))
    custom_run = screen(tmp_path, "--out", str(tmp_path / "custom"), "--rules", str(custom))
    assert default_run.returncode == 0, default_run.stderr
    assert custom_run.returncode == 0, custom_run.stderr
    assert risk_levels(tmp_path / "default") == {"600519.SH": "低", "000001.SZ": "中", "300750.SZ": "低"}
    assert risk_levels(tmp_path / "custom") == {"600519.SH": "中", "000001.SZ": "中", "300750.SZ": "中"}
    fired = pl.read_csv(tmp_path / "custom" / "results.csv", infer_schema_length=0)["rules_fired"].to_list()
    assert fired[0] == "pe_gt_30(pe_ttm=40.0)"


def test_cli_broken_rules_file_exits_2_with_one_line(tmp_path: Path) -> None:
    broken = tmp_path / "broken.yaml"
    broken.write_text("version: 1\nrules: [\n  - id: x\n  level: [high\n", encoding="utf-8")
    run = screen(tmp_path, "--out", str(tmp_path / "out"), "--rules", str(broken))
    assert run.returncode == 2
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and str(broken) in lines[0] and "invalid YAML" in lines[0]
