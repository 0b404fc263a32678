"""bench/real_fincuge_news.py selects every figure-bearing article once and refuses a selection that differs.

The pool is never committed, so a fresh machine must rebuild exactly the articles the labels were made from:
these cases run the script's own selection and digest on news lists the test writes.
"""

from __future__ import annotations

import json
from types import ModuleType

from bench_scripts import load_bench


def _bench() -> ModuleType:
    return load_bench("real_fincuge_news")


WITH_FIGURE = "公司2020年实现营业收入12.5亿元，同比增长8.1%。"
WITHOUT_FIGURE = "市场气氛较为低迷，但业内人士认为基本面无忧。"
PINNED = "甲公司净利润3.2亿元，同比增长5%。"


def _blobs() -> dict[str, bytes]:
    return {
        "qe": json.dumps(
            [["营收多少？" + WITH_FIGURE, "12.5亿元"], ["谁？" + WITHOUT_FIGURE, "无"]]
        ).encode(),
        "qp": json.dumps(
            [{"id": 0, "input": "营收多少？" + WITH_FIGURE}, {"id": 1, "input": "无问号" + PINNED}]
        ).encode(),
        "ne": json.dumps([["标题", "前言。" + PINNED + "后记。"]], ensure_ascii=False).encode(),
        "np": json.dumps([{"id": 0, "input": "乙公司毛利率为35.2%。"}]).encode(),
    }


def test_each_figure_bearing_article_is_selected_once_and_pinned_excerpts_are_left_out() -> None:
    bench = _bench()
    texts = bench.select(_blobs(), pinned=[PINNED.encode()])
    assert texts == [("fcn-qe-0000", WITH_FIGURE.encode()), ("fcn-np-0000", "乙公司毛利率为35.2%。".encode())]


def test_the_digest_changes_with_any_text_or_id() -> None:
    bench = _bench()
    texts = bench.select(_blobs(), pinned=[])
    base = bench.digest(texts)
    assert bench.digest(texts[:-1]) != base
    assert bench.digest([(texts[0][0], texts[0][1] + b" ")] + texts[1:]) != base
    assert bench.digest([("fcn-qe-9999", texts[0][1])] + texts[1:]) != base
