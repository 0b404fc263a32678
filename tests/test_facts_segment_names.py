"""A part is named by the whole words the text prints, never by what is left once filler words are cut out.

The reader blanks filler words (公司, 实现, 数据, 中, 新 …) to decide whether a clause names a part at
all; the name it then records in facts.jsonl (and `compare` shows) must be the printed one: `数据中心业务`,
not `心业务`.
"""

from __future__ import annotations

from lmscreen.task.facts import read_facts
from lmscreen.task.words import whole_words


def _segments(text: str) -> dict[str, float]:
    sheet = read_facts(text, names=("",))
    return {
        f.segment: f.value
        for f in sheet.facts
        if f.scope == "segment" and f.metric == "revenue" and f.basis == "actual"
    }


def test_a_part_whose_name_holds_filler_words_keeps_its_whole_name() -> None:
    text = (
        "2023年上半年，公司实现营业收入50亿元，同比增长12%。其中新能源业务实现营收20亿元，同比增长40%；"
        "中间体业务实现收入8亿元。下半年数据中心业务实现收入6亿元。"
    )
    segments = _segments(text)
    assert segments.get("新能源业务") == 2_000_000_000
    assert segments.get("中间体业务") == 800_000_000
    assert "能源业务" not in segments and "间体业务" not in segments


def test_the_company_figures_beside_the_parts_are_unchanged() -> None:
    sheet = read_facts(
        "2022年公司实现营业收入100亿元。其中数据中心业务实现收入12亿元，同比增长10%。", names=("",)
    )
    assert sheet.screening()["revenue"].fact.value == 10_000_000_000
    assert {f.segment for f in sheet.facts if f.scope == "segment"} == {"数据中心业务"}


def test_a_span_is_widened_to_the_dictionary_words_it_cuts_into() -> None:
    text = "其中数据中心业务"
    assert whole_words(text, text.index("心"), len(text)) == (text.index("数"), len(text))
    assert whole_words(text, text.index("业"), len(text)) == (
        text.index("业"),
        len(text),
    )  # a whole word already
    assert whole_words(text, 3, 3) == (3, 3)
