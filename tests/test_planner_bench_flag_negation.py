"""A row's notes that say a flag was *not* used do not switch it on in the planner bench.

llm-d's granite-vision-3.3-2b note reads "served multimodal (no --language-model-only, no
--limit-mm-per-prompt)"; the bench's pattern matched the flag inside that negation and planned the run
without its vision tower.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _bench():
    spec = importlib.util.spec_from_file_location("planner_accuracy", REPO / "bench" / "planner_accuracy.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["planner_accuracy"] = module
    spec.loader.exec_module(module)
    return module


def test_a_negated_language_model_only_is_not_the_flag() -> None:
    bench = _bench()
    assert not bench.LANGUAGE_ONLY.search("served multimodal (no --language-model-only, no --limit)")
    assert not bench.LANGUAGE_ONLY.search("started without --language-model-only")
    assert bench.LANGUAGE_ONLY.search("vllm serve m --language-model-only --port 8000")
