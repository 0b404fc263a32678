"""A row's notes that say a flag was *not* used do not switch it on in the planner bench.

llm-d's granite-vision-3.3-2b note reads "served multimodal (no --language-model-only, no
--limit-mm-per-prompt)"; the bench's pattern matched the flag inside that negation and planned the run
without its vision tower.
"""

from __future__ import annotations

from types import ModuleType

from bench_scripts import load_bench


def _bench() -> ModuleType:
    return load_bench("planner_accuracy")


def test_a_negated_language_model_only_is_not_the_flag() -> None:
    bench = _bench()
    assert not bench.LANGUAGE_ONLY.search("served multimodal (no --language-model-only, no --limit)")
    assert not bench.LANGUAGE_ONLY.search("started without --language-model-only")
    assert bench.LANGUAGE_ONLY.search("vllm serve m --language-model-only --port 8000")
