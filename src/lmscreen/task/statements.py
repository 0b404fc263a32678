"""What an annual report's financial statements print around their figures, as plain text lines.

A PDF's statements reach the reader as lines such as `营业收入合计 146,695 164,699` (the current column
first), and three things on those pages make the first number of a row something else:

- the parent company's own statements (`母公司利润表`, a bank's `银行利润表` under `本行`) repeat every
  label of the group's (`合并利润表`, `本集团`) with the parent's smaller figures: they are scope `parent`;
- a `附注` column between the label and the figures (`基本每股收益(人民币元) 48 2.15 2.25`) prints the note's
  number, which is no figure at all;
- a note's table whose columns are businesses, not periods (`批发金融业务 零售金融业务 其他业务 合计`)
  prints each business's figure first: the row is no statement of the company's current figure.

Each is found from the headings and column headers the statements print, never from the figures.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from lmscreen.task.units import Mention

_STATEMENT_RE = re.compile(
    r"^\s*(?P<own>母公司|银行|本行|公司)?(?P<group>合并(?:及(?:母公司|银行|本行|公司))?)?\s?"
    r"(?:利润表|利润及利润分配表|资产负债表|现金流量表|所有者权益变动表|股东权益变动表)"
    r"\s?(?:[(（]续[)）])?\s*$",
    re.MULTILINE,
)
"""A statement's title on a line of its own (`合并利润表`, `母公司利润表（续）`, `银行利润表`)."""
_NOTES_RE = re.compile(r"^\s*(?:[一二三四五六七八九十]+、\s?)?财务报表(?:主要项目)?附注", re.MULTILINE)
_REACH = 6000
"""A statement runs at most this far after its title (about two pages of the folded text)."""

_NOTE_HEADER_RE = re.compile(r"(?:^|\s)附注[一二三四五六七八九十]*(?:\s|$)")
_PERIOD_WORD_RE = re.compile(r"20[0-9]{2}|年度|年末|年初|期末|期初|本期|上期|本年|上年|[0-9]{1,2}月")
_NOTE_ROW_RE = re.compile(
    r"^(?P<label>[^\s0-9][^0-9]*?)\s+"
    r"(?P<note>(?:[一二三四五六七八九十]{1,3}[、.]?\s?)?(?:[(（][一二三四五六七八九十0-9]{1,3}[)）])?[0-9]{1,2}"
    r"(?:\s?[(（][0-9a-z一二三四五六七八九十]{1,3}[)）])?)"
    r"\s+[-(]?[0-9]"
)
_HEADER_TOKEN_RE = re.compile(r"[\u4e00-\u9fff]{2,12}")
_TOTAL_TOKEN_RE = re.compile(r"(?:合计|总计|小计|抵销)$")
_NOTE_TOKEN_RE = re.compile(r"^附注[一二三四五六七八九十]*$")
COLUMNS_END_RE = re.compile(r"(?:\s+(?:[-(]?[0-9][0-9,.]*\)?%?|-)){2,}\s*$")
"""A row ending in two or more columns of figures (or `-`, none): a statement's row, no PDF line wrap."""
_PROSE_RE = re.compile(r"[，。；：,;:]")


@dataclass(frozen=True)
class Statements:
    """Where the folded text prints a parent-only statement, note columns and business columns."""

    parent: tuple[tuple[int, int], ...]
    """[start, end) of each parent-only statement."""
    note_numbers: frozenset[int]
    """Folded offsets of the numbers in a `附注` column."""
    business_rows: frozenset[int]
    """Line starts of rows under business columns (the first number is one business's)."""

    def in_parent(self, pos: int) -> bool:
        return any(lo <= pos < hi for lo, hi in self.parent)


def read_statements(folded: str, mentions: list[Mention]) -> Statements:
    return Statements(_parent_spans(folded), _note_numbers(folded, mentions), _business_rows(folded))


def _parent_spans(folded: str) -> tuple[tuple[int, int], ...]:
    titles = list(_STATEMENT_RE.finditer(folded))
    grouped = any(t.group("group") for t in titles)
    notes = [m.start() for m in _NOTES_RE.finditer(folded)]
    spans = []
    for i, title in enumerate(titles):
        own = title.group("own")
        if title.group("group") or own is None or (own == "公司" and not grouped):
            continue  # `公司利润表` is the parent's only beside a consolidated one
        end = min(title.start() + _REACH, len(folded))
        if i + 1 < len(titles):
            end = min(end, titles[i + 1].start())
        end = min([end, *(n for n in notes if n > title.end())])
        spans.append((title.start(), end))
    return tuple(spans)


def _lines(folded: str) -> list[tuple[int, str]]:
    out, pos = [], 0
    for line in folded.split("\n"):
        out.append((pos, line))
        pos += len(line) + 1
    return out


def _note_numbers(folded: str, mentions: list[Mention]) -> frozenset[int]:
    """The note numbers of rows under a header naming a `附注` column and periods
    (`附注四 2024年度 2023年度`), until the next statement title."""
    if "附注" not in folded:
        return frozenset()
    starts = {m.folded_start for m in mentions}
    found: set[int] = set()
    under_header = False
    for pos, line in _lines(folded):
        if _STATEMENT_RE.match(line):
            under_header = False
            continue
        if _NOTE_HEADER_RE.search(line) and _PERIOD_WORD_RE.search(line):
            under_header = True
            continue
        if not under_header:
            continue
        m = _NOTE_ROW_RE.match(line)
        if m is not None:
            lo, hi = pos + m.start("note"), pos + m.end("note")
            found.update(at for at in range(lo, hi) if at in starts)
    return frozenset(found)


def _business_rows(folded: str) -> frozenset[int]:
    """Rows of figures under a header of three or more names ending in a total and naming no period
    (`批发金融业务 零售金融业务 其他业务 合计`, `附注四 股本 … 股东权益合计`), until prose or a new title."""
    rows: set[int] = set()
    under = False
    for pos, line in _lines(folded):
        if _STATEMENT_RE.match(line):
            under = False
            continue
        tokens = line.split()
        if tokens and _NOTE_TOKEN_RE.match(tokens[0]):
            tokens = tokens[1:]
        if len(tokens) >= 3 and all(_HEADER_TOKEN_RE.fullmatch(t) for t in tokens):
            under = bool(_TOTAL_TOKEN_RE.search(tokens[-1])) and not _PERIOD_WORD_RE.search(line)
            continue
        if not under:
            continue
        if COLUMNS_END_RE.search(line):
            rows.add(pos)
        elif _PROSE_RE.search(line):
            under = False
    return frozenset(rows)
