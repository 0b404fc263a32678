"""The output contract (outputs.columns) held against real runs' files, and a default run's bytes held
against a stored expectation.

The runs are real (pool loading, rules, the LLM step through the engine protocol with scripted answers,
the writers, the history); only the model is replaced, so that its answers are known in advance.

tests/data/outputs/ holds results.csv, results.jsonl and report.md of the example pool screened with the
default rules, first written by lmscreen before the output contract existed (commit 285fbf7): rules only
(with --jsonl), then with the scripted answers and the example reports, in that order into one history.
report.md's pool path, times and duration are replaced by placeholders. After a deliberate change to an
output, rewrite them with `LMSCREEN_UPDATE_EXPECTED=1 pytest tests/test_outputs_columns.py` and say why in
the commit (rules_fired became nested in results.jsonl: issue 26).
"""

from __future__ import annotations

import csv
import difflib
import io
import json
import os
import re
from collections.abc import Iterator
from pathlib import Path

import polars as pl
import pytest

from lmscreen.outputs import columns, history
from lmscreen.outputs.columns import CSV, HISTORY, JSONL, PARQUET
from lmscreen.outputs.results import fired_text
from lmscreen.rules.fired_list import FIRED_LIST
from lmscreen.run.options import ScreenOptions
from lmscreen.run.screen import screen
from report_runs import EXAMPLE_REASONS, scripted_run

ROOT = Path(__file__).resolve().parents[1]
POOL = ROOT / "examples" / "pool.csv"
REPORTS = ROOT / "examples" / "reports"
EXPECTED = Path(__file__).resolve().parent / "data" / "outputs"


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Path]]:
    """The example pool rules only (asking for results.jsonl), then with the LLM step (scripted answers,
    the example reports), in that order into a history of their own (report.md's changes section depends
    on it); then rules only as a user runs it, without --jsonl."""
    tmp = tmp_path_factory.mktemp("contract")
    mp = pytest.MonkeyPatch()
    mp.setenv("LMSCREEN_HOME", str(tmp / "home"))
    try:
        out = {
            "rules_only": tmp / "rules_only",
            "scripted": tmp / "scripted",
            "home": tmp / "home",
            "plain": tmp / "plain",
        }
        screen(ScreenOptions(pool=POOL, out=out["rules_only"], no_llm=True, jsonl=True, progress=False))
        scripted_run(POOL, out["scripted"], EXAMPLE_REASONS, REPORTS)
        screen(ScreenOptions(pool=POOL, out=out["plain"], no_llm=True, progress=False))
        yield out
    finally:
        mp.undo()


def _json_type_fits(value: object, dtype: str) -> bool:
    if value is None:
        return True
    if dtype == "Fired":
        return isinstance(value, list) and all(
            isinstance(e, dict) and list(e) == ["rule", "field", "threshold", "value"] for e in value
        )
    if dtype == "String":
        return isinstance(value, str)
    if dtype == "Int64":
        return isinstance(value, int) and not isinstance(value, bool)
    if dtype == "Float64":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if dtype == "Boolean":
        return isinstance(value, bool)
    return isinstance(value, dict)  # Object: the nested `llm` detail


def _jsonl(out: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in (out / "results.jsonl").read_text(encoding="utf-8").splitlines()]


@pytest.mark.parametrize("which", ["rules_only", "scripted"])
def test_results_csv_has_the_contracts_columns_in_order(runs: dict[str, Path], which: str) -> None:
    text = (runs[which] / "results.csv").read_text(encoding="utf-8-sig")
    header = next(csv.reader(io.StringIO(text)))
    # The example pool names no ROE period and the run does not annualise: the optional columns are out.
    assert tuple(header) == columns.EMPTY_CSV_COLUMNS
    assert all(CSV in columns.BY_NAME[name].files for name in header)
    frame = pl.read_csv(io.StringIO(text), infer_schema_length=None)
    for name in ("row", "score", "pe_ttm", "roe"):
        assert frame.schema[name].is_numeric(), name


@pytest.mark.parametrize("which", ["rules_only", "scripted"])
def test_results_jsonl_names_and_types_are_the_contracts(runs: dict[str, Path], which: str) -> None:
    records = _jsonl(runs[which])
    assert len(records) == 35
    seen: set[str] = set()
    for record in records:
        for name, value in record.items():
            entry = columns.column(name)
            assert entry is not None and JSONL in entry.files, f"{name}: not in the contract's results.jsonl"
            wanted = "Fired" if entry.typed == "Fired" else entry.dtype
            assert _json_type_fits(value, wanted), f"row {record['row']} {name}={value!r}: {wanted}"
            seen.add(name)
    assert (
        "net_profit_2024" in seen
        and columns.column("net_profit_2024") is columns.BY_NAME["net_profit_{year}"]
    )
    sparse = set(columns.SPARSE_JSONL_COLUMNS)
    dense = {c.name for c in columns.COLUMNS if JSONL in c.files and not (c.optional or "{year}" in c.name)}
    if which == "rules_only":
        assert seen.isdisjoint(sparse), "a rules-only run leaves the LLM's empty columns out"
        assert seen >= dense - sparse and "llm" not in seen
    else:
        assert seen >= (dense - sparse) | {"reason", "revenue_yuan", "prompt_tokens", "llm"}
        assert list(records[0])[-1] == "llm", "the nested detail is each line's last key"


@pytest.mark.parametrize("which", ["rules_only", "scripted", "plain"])
def test_results_parquet_is_results_csv_with_real_types(runs: dict[str, Path], which: str) -> None:
    """Row for row and column for column results.csv's values, typed: numbers and booleans as such, the
    level an Enum in the rules' order (most severe first), rules_fired the nested list whose text is
    results.csv's."""
    typed = pl.read_parquet(runs[which] / "results.parquet")
    text = pl.read_csv(runs[which] / "results.csv", infer_schema=False)
    assert typed.columns == text.columns == list(columns.EMPTY_CSV_COLUMNS)
    assert all(PARQUET in columns.BY_NAME[c].files for c in typed.columns)
    assert typed.schema["risk_level"] == pl.Enum(["高", "未知", "中", "低"])
    assert typed.schema["rules_fired"] == FIRED_LIST
    for name in typed.columns:
        if name not in ("risk_level", "rules_fired"):
            assert typed.schema[name] == columns.dtype(name), name
    assert typed.height == text.height == 35
    for name in typed.columns:
        got = typed.get_column(name)
        if name == "rules_fired":
            shown = [fired_text(entries) for entries in got.to_list()]
        elif got.dtype == pl.Boolean:
            shown = [None if v is None else str(v).lower() for v in got.to_list()]
        else:
            shown = got.cast(pl.String).to_list()
        want = [v if v != "" else None for v in text.get_column(name).to_list()]
        assert [v if v != "" else None for v in shown] == want, name


def test_nested_rules_fired_round_trips(runs: dict[str, Path]) -> None:
    """results.jsonl's rules_fired is JSON (no string inside JSON): what polars reads back from it is what
    results.parquet holds, and its text is results.csv's, on every row."""
    out = runs["rules_only"]
    from_jsonl = pl.read_ndjson(out / "results.jsonl", schema_overrides={"rules_fired": FIRED_LIST})
    from_parquet = pl.read_parquet(out / "results.parquet")
    assert from_jsonl["rules_fired"].to_list() == from_parquet["rules_fired"].to_list()
    text = pl.read_csv(out / "results.csv", infer_schema=False)["rules_fired"].fill_null("").to_list()
    assert [fired_text(e) for e in from_jsonl["rules_fired"].to_list()] == text
    entries = [e for row in _jsonl(out) for e in row["rules_fired"]]
    assert {"rule": "roe_lt_5", "field": "roe", "threshold": 5.0} in [
        {k: v for k, v in e.items() if k != "value"} for e in entries
    ]
    assert any(e["rule"] == "roe_missing" and e["value"] is None for e in entries)
    assert "rules_fired_json" not in _jsonl(out)[0]


def test_a_rules_only_run_writes_results_jsonl_only_when_asked(runs: dict[str, Path], tmp_path: Path) -> None:
    plain = runs["plain"]
    assert {p.name for p in plain.iterdir()} >= {
        "results.csv",
        "results.parquet",
        "errors.csv",
        "run.json",
        "report.html",
        "report.md",
    }
    assert not (plain / "results.jsonl").exists()
    assert "高" in (plain / "report.md").read_text(encoding="utf-8")  # the report reads results.parquet
    # A results.jsonl left by an earlier run in the folder goes with this run's success.
    out = tmp_path / "reused"
    out.mkdir()
    (out / "results.jsonl").write_text('{"row": 1}\n', encoding="utf-8")
    screen(ScreenOptions(pool=POOL, out=out, no_llm=True, progress=False))
    assert not (out / "results.jsonl").exists() and (out / "results.parquet").is_file()


def test_a_pool_without_filings_is_a_rules_only_run(tmp_path: Path) -> None:
    """No --no-llm, but no row has a filing: no engine is created and no results.jsonl written."""
    mp = pytest.MonkeyPatch()
    mp.setenv("LMSCREEN_HOME", str(tmp_path / "home"))
    try:
        summary = screen(ScreenOptions(pool=POOL, out=tmp_path / "o", progress=False))
    finally:
        mp.undo()
    assert summary.run["llm"]["engine_created"] is False
    assert not (tmp_path / "o" / "results.jsonl").exists()
    assert pl.read_parquet(tmp_path / "o" / "results.parquet").height == 35


def test_an_llm_run_writes_every_evidence_field(runs: dict[str, Path]) -> None:
    records = _jsonl(runs["scripted"])
    answered = [r for r in records if r.get("llm")]
    assert answered, "the example reports give rows an answer"
    grounded = [
        f for r in answered for f in r["llm"]["fields"].values() if isinstance(f, dict) and f.get("grounded")
    ]
    assert grounded
    for figure in grounded:
        assert {"value", "unit", "period", "grounded", "source", "evidence"} <= figure.keys()
        assert {"text", "start", "end", "context"} <= figure["evidence"].keys()
    assert all(isinstance(r["rules_fired"], list) for r in records)


def test_the_history_keeps_the_verdict_columns_with_their_types(runs: dict[str, Path]) -> None:
    db = runs["home"] / history.DB_NAME
    run_id = json.loads((runs["scripted"] / "run.json").read_text(encoding="utf-8"))["history"]["run_id"]
    frame = history.verdict_frame(run_id, db)
    assert tuple(frame.columns) == columns.VERDICT_COLUMNS
    assert {c for c in columns.BY_NAME if HISTORY in columns.BY_NAME[c].files} == set(frame.columns)
    assert dict(frame.schema) == {c: columns.dtype(c) for c in columns.VERDICT_COLUMNS}


def test_the_contracts_nested_type_is_the_rules_own() -> None:
    assert columns.fired_dtype() == FIRED_LIST
    assert columns.parquet_dtype("rules_fired") == FIRED_LIST
    assert columns.parquet_dtype("risk_level", ["高", "低"]) == pl.Enum(["高", "低"])


def test_llm_columns_are_the_contracts_types() -> None:
    assert list(columns.LLM_COLUMNS) == list(columns.LLM_COLUMN_NAMES)
    assert columns.LLM_COLUMNS["revenue_yuan"] == pl.Float64 and columns.LLM_COLUMNS["flags"] == pl.String
    assert all(columns.BY_NAME[c].step == "llm" for c in columns.LLM_COLUMN_NAMES)


def _stable(md: str, pool: Path) -> str:
    """report.md without what differs between two runs of the same input: the pool's path, the times and
    the duration."""
    md = md.replace(str(pool), "<POOL>")
    md = re.sub(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?([+-]\d{2}:\d{2}|Z)?", "<TIME>", md)
    return re.sub(r"\*\*(耗时|Duration)\*\* [0-9.]+ s", r"**\1** <SECONDS> s", md)


@pytest.mark.parametrize("which", ["rules_only", "scripted"])
def test_a_default_run_writes_the_stored_bytes(runs: dict[str, Path], which: str) -> None:
    expected = EXPECTED / f"example_{which}"
    if not expected.is_dir():
        pytest.skip(f"{expected} is not in this checkout")
    got = {
        "results.csv": (runs[which] / "results.csv").read_bytes(),
        "results.jsonl": (runs[which] / "results.jsonl").read_bytes(),
        "report.md": _stable((runs[which] / "report.md").read_text(encoding="utf-8"), POOL).encode("utf-8"),
    }
    if os.environ.get("LMSCREEN_UPDATE_EXPECTED") == "1":
        for name, data in got.items():
            (expected / name).write_bytes(data)
    for name, data in got.items():
        want = (expected / name).read_bytes()
        if data != want:  # a short diff, not two walls of bytes
            diff = difflib.unified_diff(
                want.decode().splitlines(), data.decode().splitlines(), "expected", "written", lineterm=""
            )
            pytest.fail(f"{which}/{name} differs from {expected / name}:\n" + "\n".join(list(diff)[:20]))
