"""`screen` writes the stored expectation byte for byte (tests/golden.py says what is pinned and why).

The example pool's run on the real model is compared in test_screen_e2e.py (it shares that module's run);
this file runs the generated 1,000-row pool against the answering server on 127.0.0.1, then resumes it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from golden import AnsweringServer, expected, run_pool1000, stable_outputs


@pytest.fixture(scope="module")
def server() -> AnsweringServer:
    with AnsweringServer() as s:
        yield s


def _first_difference(got: bytes, want: bytes) -> str:
    for n, (a, b) in enumerate(zip(got.splitlines(), want.splitlines(), strict=False), 1):
        if a != b:
            return f"line {n}:\n got  {a.decode()[:600]}\n want {b.decode()[:600]}"
    return f"lengths differ: {len(got.splitlines())} lines against {len(want.splitlines())}"


def assert_same(out: Path, name: str, sampled: bool = False) -> None:
    got, want = stable_outputs(out, sampled), expected(name)
    for f in want:
        assert got[f] == want[f], (
            f"{f} differs from tests/data/golden/{name}: {_first_difference(got[f], want[f])}"
        )


def test_pool1000_outputs_match_the_stored_expectation(server: AnsweringServer, tmp_path: Path) -> None:
    out = run_pool1000(tmp_path / "gen", tmp_path / "out", server.base_url)
    run = json.loads((out / "run.json").read_text(encoding="utf-8"))
    assert run["llm"]["rows_with_report"] > 300  # a third of the rows from files, more inline
    assert run["llm"]["sent"] == run["llm"]["rows_with_report"]
    assert_same(out, "pool1000")
    # a rerun resumes every answer from the checkpoint and writes the same bytes
    run_pool1000(tmp_path / "gen", out, server.base_url)
    again = json.loads((out / "run.json").read_text(encoding="utf-8"))
    assert again["llm"]["sent"] == 0 and again["llm"]["resumed"] == run["llm"]["rows_with_report"]
    assert_same(out, "pool1000")
