"""Reading.matches_before: the rules that look back to a text's start (the heading over a paragraph, a
company being bought) share one scan of the whole text, and must see exactly what a scan cut at the
figure would have seen, at every position (a blank run or an acquisition that the cut splits included)."""

from __future__ import annotations

import re

import pytest

from lmscreen.task.context import PARAGRAPH_BREAK_RE, Reading
from lmscreen.task.prose import _ACQUIRED_RE
from lmscreen.task.units import scan

_TEXT = (
    "电能质量设备是公司的基本盘：　　公司发展起步于电能质量设备，2022年营收达到5.12亿元。\n"
    "公司拟收购北京京瀚禹51%股权。京瀚禹是国内领先的检测机构，    该公司2019年实现营业收入1.92亿元。\n\n"
    "公司收购 Maritec Pte Ltd100%股权  Maritec 公司营业收入稳定，ROE达到59%。\t\t末段。"
)


def _spans(matches: list[re.Match[str]]) -> list[tuple[tuple[int, int], tuple[str | None, ...]]]:
    return [(m.span(), m.groups()) for m in matches]


@pytest.mark.parametrize("pattern", [PARAGRAPH_BREAK_RE, _ACQUIRED_RE], ids=["paragraphs", "acquisitions"])
def test_matches_before_is_a_scan_cut_at_every_position(pattern: re.Pattern[str]) -> None:
    scanned = scan(_TEXT)
    reading = Reading.of(_TEXT, scanned)
    folded = reading.folded
    whole = list(pattern.finditer(folded))
    assert len(whole) >= 2
    straddled = 0
    for pos in range(len(folded) + 1):
        got = reading.matches_before(pattern, pos)
        assert _spans(got) == _spans(list(pattern.finditer(folded, 0, pos))), pos
        straddled += any(m.start() < pos < m.end() for m in whole)
    assert straddled  # positions inside a match of the whole text were checked too


def test_a_run_of_blanks_cut_to_one_is_no_break() -> None:
    text = "第一段文字。    第二段"
    reading = Reading.of(text, scan(text))
    run = reading.folded.index("    ")
    assert reading.matches_before(PARAGRAPH_BREAK_RE, run + 1) == []
    assert [m.span() for m in reading.matches_before(PARAGRAPH_BREAK_RE, run + 2)] == [(run, run + 2)]
