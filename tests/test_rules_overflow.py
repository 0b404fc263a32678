"""The score's arithmetic on extreme but accepted input: it gives a score or none, never an internal error.

The pool keeps cells within plausible ranges (pool/numbers.py), so with the shipped rules the score stays
finite. A rules file is input too: weights large enough that the PE and ROE terms both overflow make
inf - inf, a NaN no integer holds, which stopped the run in polars' cast.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl
import yaml

from lmscreen.rules.evaluate import evaluate
from lmscreen.rules.ruleset import DEFAULT_RULES_PATH, load_rules


def _rules(tmp_path: Path, pe_weight: float, roe_weight: float) -> Path:
    spec = yaml.safe_load(DEFAULT_RULES_PATH.read_text(encoding="utf-8"))
    spec["score"]["pe"]["weight"] = pe_weight
    spec["score"]["roe"]["weight"] = roe_weight
    path = tmp_path / "rules.yaml"
    path.write_text(yaml.safe_dump(spec, allow_unicode=True), encoding="utf-8")
    return path


def _frame(pe: list[float | None], roe: list[float | None]) -> pl.DataFrame:
    n = len(pe)
    return pl.DataFrame(
        {
            "code": [f"60000{i}.SH" for i in range(n)],
            "name": ["x"] * n,
            "is_st": [False] * n,
            "pe_ttm": pl.Series(pe, dtype=pl.Float64),
            "pe_raw": [str(v) for v in pe],
            "roe": pl.Series(roe, dtype=pl.Float64),
            "eps": pl.Series([1.0] * n),
            "loss_two_years": pl.Series([None] * n, dtype=pl.Boolean),
        }
    )


def test_terms_that_both_overflow_give_no_score_instead_of_an_error(tmp_path: Path) -> None:
    rules = load_rules(_rules(tmp_path, pe_weight=1e305, roe_weight=1e305))
    # PE 1e6 x 1e303 and (15 - 1e4) x 1e305 both overflow: inf - inf; PE 10 keeps one term finite.
    out = evaluate(_frame([1e6, 10.0, 1e6], [1e4, 1e4, None]), rules)
    assert out["score"].to_list() == [None, 100, None]
    assert out["risk_level"].null_count() == 0


def test_the_shipped_rules_score_the_plausible_extremes(tmp_path: Path) -> None:
    out = evaluate(_frame([1e6, -1e6, 1e-4], [-1e4, 1e4, 1e4]), load_rules(None))
    assert out["score"].to_list() == [0, 100, 100]
