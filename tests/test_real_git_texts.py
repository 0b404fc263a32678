"""bench/real_git_texts.py cuts the pinned character range of one JSON string and refuses any other bytes.

The news texts it rebuilds are never committed, so a fresh machine must get exactly the text the labels were
made from: these cases run the script's own `excerpt` on JSON the test writes.
"""

from __future__ import annotations

import hashlib
import json
from types import ModuleType

import pytest

from bench_scripts import load_bench


def _bench() -> ModuleType:
    return load_bench("real_git_texts")


ARTICLE = "问题：营收多少？公司2020年实现营业收入12.5亿元，同比增长8.1%。"


def _text(bench, start: int, end: int, digest: str):
    blob = bench.Blob("o/r", "0" * 40, "eval.json", "1" * 40, "test data")
    return bench.Text("t", blob, (0, "input"), start, end, digest)


def test_the_pinned_range_of_the_json_string_is_cut_as_utf8() -> None:
    bench = _bench()
    data = json.dumps([{"input": ARTICLE}], ensure_ascii=True).encode()
    start = ARTICLE.index("公司")
    wanted = ARTICLE[start:].encode("utf-8")
    out = bench.excerpt(_text(bench, start, len(ARTICLE), hashlib.sha256(wanted).hexdigest()), data)
    assert out == wanted


def test_an_excerpt_that_hashes_otherwise_or_runs_past_the_string_is_refused() -> None:
    bench = _bench()
    data = json.dumps([{"input": ARTICLE}]).encode()
    with pytest.raises(SystemExit, match="not the pinned"):
        bench.excerpt(_text(bench, 0, 5, "0" * 64), data)
    with pytest.raises(SystemExit, match="or more characters"):
        bench.excerpt(_text(bench, 0, len(ARTICLE) + 1, "0" * 64), data)
