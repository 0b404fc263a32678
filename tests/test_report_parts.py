"""The report's building blocks: script-safe JSON, quoted evidence, Markdown cells, CSV formula guard."""

from __future__ import annotations

import base64
import gzip
import json

import polars as pl

from lmscreen.outputs.results import neutralise_formulas
from lmscreen.report.evidence import sentence_quote
from lmscreen.report.html import Packer, json_for_script, packed
from lmscreen.report.markdown import cell

SOURCE = "公司简介。报告期内公司实现营业总收入1741.44亿元，同比增长15.66%；净利润862.28亿元。"


def test_json_for_script_cannot_close_the_script_element() -> None:
    data = {"name": "</script><script>alert(1)</script>", "x": "<!-- & \u2028\u2029"}
    text = json_for_script(data)
    assert "<" not in text and ">" not in text and "&" not in text
    assert "\u2028" not in text and "\u2029" not in text
    assert json.loads(text) == data


def test_packed_details_round_trip_and_are_inert() -> None:
    data = [{"f": [["营业收入", "1 亿元", "", ["a</script>", "1亿元", "b"], ""]]}]
    text = packed(data)
    assert set(text) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=")
    assert json.loads(gzip.decompress(base64.b64decode(text))) == data


def test_details_packed_as_they_come_are_the_bytes_of_the_whole_list() -> None:
    # Items past the packer's buffer, with text a script block must not see raw and non-BMP characters.
    many = [{"r": [f"rule {i} </script> & \u2028 𠀀"], "f": [], "st": "正常"} for i in range(3000)]
    for data in ([], [{"a": 1}], many):
        packer = Packer()
        for item in data:
            packer.add(item)
        assert packer.result() == packed(data)


def test_quote_is_the_whole_sentence_with_the_number_marked() -> None:
    start = SOURCE.index("1741.44亿元")
    ev = {"text": "1741.44亿元", "start": start, "end": start + 9, "context": "营业总收入1741.44亿元，同比"}
    q = sentence_quote(ev, SOURCE)
    assert q is not None
    assert (q.before, q.hit, q.after) == ("报告期内公司实现营业总收入", "1741.44亿元", "，同比增长15.66%；")
    assert q.page is None and len(q.to_json()) == 3


def test_quote_falls_back_to_the_recorded_context_and_keeps_the_page() -> None:
    # The source changed since the run (offsets no longer hold the number), and the figure came from a PDF.
    ev = {"text": "862.28亿元", "start": 3, "end": 12, "context": "净利润862.28亿元。", "page": 7}
    q = sentence_quote(ev, "另一份文本")
    assert q is not None and (q.before, q.hit, q.after, q.page) == ("净利润", "862.28亿元", "。", 7)
    assert q.to_json()[-1] == 7
    assert sentence_quote({"text": ""}, SOURCE) is None


def test_long_sentences_are_clipped_around_the_number() -> None:
    text = "甲" * 300 + "营业收入5亿元" + "乙" * 300 + "。"
    start = text.index("5亿元")
    q = sentence_quote({"text": "5亿元", "start": start, "end": start + 3}, text)
    assert q is not None and q.hit == "5亿元"
    assert q.before.startswith("…") and q.after.endswith("…") and len(q.before) <= 61 and len(q.after) <= 61


def test_markdown_cells_stay_one_cell_and_inert() -> None:
    assert cell("a|b") == "a\\|b"
    assert cell("*ST天山") == "\\*ST天山"
    assert cell("<script>x</script>") == "\\<script\\>x\\</script\\>"
    assert cell("两行\n文本") == "两行 文本"
    assert cell(12.5) == "12.5" and cell(None) == ""


def test_neutralise_formulas() -> None:
    frame = pl.DataFrame(
        {
            "s": ["=1+1", "+A1", "-x", "@SUM(A1)", "-12.5", "+3", "正常", "\tcmd", None, "-"],
            "n": [1.0, -2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, -10.0],
            "plain": ["a", "b=c", "-1", None, "x", "y", "z", "w", "v", "u"],
        }
    )
    out = neutralise_formulas(frame)
    assert out["plain"].to_list() == frame["plain"].to_list()
    expected = ["'=1+1", "'+A1", "'-x", "'@SUM(A1)", "-12.5", "+3", "正常", "'\tcmd", None, "-"]
    assert out["s"].to_list() == expected
    assert out["n"].to_list() == frame["n"].to_list()


def test_diff_of_aligned_runs_equals_the_joined_diff() -> None:
    """Two runs of the same codes in the same order take the no-join path; shuffling one side forces the
    join path: both must report the same changes (and a duplicate code counts once, first kept)."""
    import random

    import polars as pl

    from lmscreen.report.diff import diff_verdicts

    rng = random.Random(7)
    codes = [f"{i:06d}.SZ" for i in range(300)] + ["000001.SZ"]
    levels = ["高", "中", "低", "未知"]

    def run() -> pl.DataFrame:
        return pl.DataFrame(
            {
                "code": codes,
                "name": [f"n{i}" for i in range(len(codes))],
                "risk_level": [rng.choice(levels) for _ in codes],
                "score": [rng.choice([None, *range(0, 100, 7)]) for _ in codes],
                "pe_ttm": [rng.uniform(1, 80) for _ in codes],
                "roe": [rng.uniform(-5, 30) for _ in codes],
            }
        )

    before, now = run(), run()
    aligned = diff_verdicts(before, now, 1, 2)
    assert aligned.changed and not aligned.added and not aligned.dropped
    assert sum(e["code"] == "000001.SZ" for e in aligned.changed) <= 1
    unique = before.head(300)  # without the repeated code, whose first row a shuffle would change
    shuffled = diff_verdicts(unique.sample(fraction=1.0, shuffle=True, seed=3), now.head(300), 1, 2)
    assert shuffled.to_json() == diff_verdicts(unique, now.head(300), 1, 2).to_json()
    extra = pl.DataFrame({"code": ["999999.SZ"], "name": ["x"], "risk_level": ["高"], "score": [1]})
    longer = pl.concat([before, extra], how="diagonal_relaxed")  # another length: the join path
    joined = diff_verdicts(longer, now, 1, 2)
    assert joined.changed == aligned.changed
    assert [e["code"] for e in joined.dropped] == ["999999.SZ"]
