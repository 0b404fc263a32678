"""A filing too long to read whole: its opening and the parts that can hold the figures.

Why: reading a text costs memory and time in proportion to its length (the task folds it, scans every
number and keeps an offset map), so a 20 MB text would cost a run far more memory than its other rows.
The figures sit in a few places: the opening of a summary, the 主要会计数据和财务指标 and 利润表 sections of
an annual report (the same headings the PDF path keeps, filings/sections.py), and lines that name a figure.
Above `LONG_TEXT_CHARS` the text is streamed in blocks cut at line or sentence ends (never inside a
number), and only the opening, the blocks holding a section heading (and the block after each, where a
table runs on) and blocks that name a figure beside a number are kept, at most `KEPT_CHARS` in all. The
gaps are marked with a line without digits (so no number or label runs across one), the cut is recorded
(the row is flagged `truncated` and `report_sections_only`), and offsets map back to the original text,
so a figure's evidence span is still the span of the file itself.
"""

from __future__ import annotations

import bisect
import hashlib
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from lmscreen.filings.sections import SECTION_HEADINGS, is_toc_line

LONG_TEXT_CHARS = 1_000_000
"""Texts up to this many characters are read whole (a full annual report is 300,000-600,000)."""
KEPT_CHARS = 100_000
"""At most this many characters of a longer text are kept."""
OPENING_CHARS = 20_000
"""The opening always kept: where a summary states its headline figures."""
BLOCK_CHARS = 4_000
"""The unit kept or dropped (about a printed page)."""
GAP = "\n…\n"
"""Written where text was left out: a line break ends the clause, and it holds no digit or label."""
_BREAKS = "。；;！？!?"
_STICKY = frozenset("0123456789０１２３４５６７８９.,，．%％万亿千百元倍-−")
_DIGIT = re.compile(r"[0-9０-９]")
_FIGURE_WORDS = ("收入", "营收", "利润", "净利", "毛利", "收益率", "回报率", "市盈率")
_FIGURE_WORDS_ASCII = ("revenue", "sales", "profit", "income", "earnings", "margin", "return on", "roe")
"""Words every figure label holds (task/vocabulary.py), as plain substrings: the labels' own regex costs
seconds a megabyte, and this only ranks which blocks to keep."""


@dataclass(frozen=True)
class LongText:
    """The kept parts of a long text, joined with `GAP`, and where each came from."""

    text: str
    pieces: list[tuple[int, int, int]]
    """(offset in `text`, offset in the original text, length) of each kept run, in order."""
    chars_total: int
    sections: list[str] = field(default_factory=list)
    """Section headings found in the kept parts."""

    def original_offset(self, offset: int) -> int:
        """Offset in the original text of `text[offset]` (an offset inside a gap maps to the next run)."""
        i = max(0, bisect.bisect_right([p[0] for p in self.pieces], offset) - 1)
        start, origin, length = self.pieces[i]
        if offset - start <= length:
            return origin + max(0, offset - start)
        nxt = self.pieces[i + 1] if i + 1 < len(self.pieces) else None
        return nxt[1] if nxt else self.chars_total

    def info(self) -> dict[str, Any]:
        """What results.jsonl records about the part of the report that was read."""
        return {
            "format": "text",
            "chars_total": self.chars_total,
            "chars_sent": sum(p[2] for p in self.pieces),
            "kept": [[origin, origin + length] for _, origin, length in self.pieces],
            "sections_only": True,
            "sections": self.sections,
        }


def _cut(buf: str, lo: int, hi: int) -> int:
    """Where to end a block in buf[lo:hi]: after a line or sentence end, else between two characters that
    are not part of a number, else at `hi`."""
    floor = lo + (hi - lo) // 4
    at = buf.rfind("\n", floor, hi)
    if at >= 0:
        return at + 1
    at = max(buf.rfind(ch, floor, hi) for ch in _BREAKS)
    if at >= 0:
        return at + 1
    for i in range(hi - 1, floor, -1):
        if buf[i - 1] not in _STICKY and buf[i] not in _STICKY:
            return i
    return hi


def _blocks(chunks: Iterable[str]) -> Iterator[tuple[int, str]]:
    """(original offset, text) blocks of about `BLOCK_CHARS`, cut by `_cut`."""
    buf, pos, offset = "", 0, 0
    for chunk in chunks:
        buf = buf[pos:] + chunk
        pos = 0
        while len(buf) - pos > BLOCK_CHARS:
            end = _cut(buf, pos, pos + BLOCK_CHARS)
            yield offset, buf[pos:end]
            offset += end - pos
            pos = end
    if len(buf) > pos:
        yield offset, buf[pos:]


def _headings(block: str) -> list[str]:
    found = []
    for m in SECTION_HEADINGS.finditer(block):
        line_end = block.find("\n", m.end())
        line = block[block.rfind("\n", 0, m.start()) + 1 : line_end if line_end >= 0 else len(block)]
        if not is_toc_line(line):
            found.append(m.group(0))
    return found


def _names_figure(block: str) -> bool:
    if any(w in block for w in _FIGURE_WORDS):
        return True
    lower = block.lower()
    return any(w in lower for w in _FIGURE_WORDS_ASCII) or any(w in lower for w in ("p/e", " pe ", "pe("))


def _select(blocks: Iterable[tuple[int, str]]) -> tuple[list[tuple[int, int, str]], list[str], int]:
    """The kept blocks as (rank, offset, text): 0 the opening, 1 a section heading's block and the next,
    2 a block naming a figure beside a number; over `KEPT_CHARS` the lowest-ranked, latest go first."""
    kept: list[tuple[int, int, str]] = []
    sections: dict[int, list[str]] = {}
    size = total = 0
    after_heading = False
    for offset, block in blocks:
        total = offset + len(block)
        heads = _headings(block)
        if offset < OPENING_CHARS:
            rank = 0
        elif heads or after_heading:
            rank = 1
        elif _names_figure(block) and _DIGIT.search(block):
            rank = 2
        else:
            rank = 3
        after_heading = bool(heads)
        if rank == 3:
            continue
        kept.append((rank, offset, block))
        if heads:
            sections[offset] = heads
        size += len(block)
        while size > KEPT_CHARS and len(kept) > 1:
            worst = max(range(len(kept)), key=lambda i: (kept[i][0], kept[i][1]))
            size -= len(kept[worst][2])
            sections.pop(kept[worst][1], None)
            del kept[worst]
    kept.sort(key=lambda k: k[1])
    names: list[str] = []
    for offset in sorted(sections):
        names.extend(h for h in sections[offset] if h not in names)
    return kept, names, total


def shorten(chunks: Iterable[str]) -> str | LongText:
    """The whole text when it has at most `LONG_TEXT_CHARS` characters, else its kept parts."""
    held: list[str] | None = []
    size = 0

    def tee() -> Iterator[tuple[int, str]]:
        nonlocal held, size
        for offset, block in _blocks(chunks):
            size += len(block)
            if held is not None:
                held.append(block)
                if size > LONG_TEXT_CHARS:
                    held = None
            yield offset, block

    kept, sections, total = _select(tee())
    if held is not None:
        return "".join(held)
    parts: list[str] = []
    pieces: list[tuple[int, int, int]] = []
    at = 0
    for _, offset, block in kept:
        if pieces and pieces[-1][1] + pieces[-1][2] == offset:
            start, origin, length = pieces[-1]
            pieces[-1] = (start, origin, length + len(block))
        else:
            if pieces:
                parts.append(GAP)
                at += len(GAP)
            pieces.append((at, offset, len(block)))
        parts.append(block)
        at += len(block)
    return LongText("".join(parts), pieces, total, sections)


def shorten_hashed(chunks: Iterable[str]) -> tuple[str | LongText, str]:
    """`shorten` of the text and the SHA-256 of the whole text's UTF-8, in one pass over it: a long file is
    decoded once for both its checkpoint key and its kept parts."""
    h = hashlib.sha256()

    def tee() -> Iterator[str]:
        for chunk in chunks:
            h.update(chunk.encode("utf-8"))
            yield chunk

    shortened = shorten(tee())
    return shortened, h.hexdigest()
