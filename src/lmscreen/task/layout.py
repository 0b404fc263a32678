"""What a filing's text looks like before it is read: markup to blank out, table rows to keep, pages to know.

Why: real filings are not clean prose. Annual-report dumps come as HTML (`<table><tr><td>营业收入（元）</td>
<td>2,941,412,770.30</td>…`) or as JSON lines, one per PDF line, with each table row a Python list
(`{"page": 5, "allrow": 120, "type": "excel", "inside": "['营业收入', '1,581,905,632.48', …]"}`, the format
of the FinGLM PDF parser). Read as prose, the markup's own digits (`colspan="1"`, `"page": 5`) become
numbers, a cell's label sits lines away from its value, and the page a figure is on is lost.

So the text is read through a `Layout`: the same text with markup replaced by spaces of the same length
(every offset still points into the original, so evidence spans stay exact), the table rows found in the
markup with each cell's span, and for a JSON-lines dump the page of each line.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass, field

_TAG_RE = re.compile(r"<[A-Za-z/!][^<>]{0,400}>")
_ENTITY_RE = re.compile(r"&(?:nbsp|amp|lt|gt|quot|#\d{1,5});")
_TR_RE = re.compile(r"<tr[^<>]{0,200}>(.*?)(?=</tr\s*>|<tr[\s>]|</table|\Z)", re.IGNORECASE | re.DOTALL)
_TD_RE = re.compile(
    r"<t[dh][^<>]{0,200}>(.*?)(?=</t[dh]\s*>|<t[dh][\s>]|</tr|<tr[\s>]|\Z)", re.IGNORECASE | re.DOTALL
)
_JSON_LINE_RE = re.compile(
    r'^\{"page":\s*(?P<page>\d+),\s*"allrow":\s*\d+,\s*"type":\s*"(?P<type>[^"]*)",\s*"inside":\s*"'
)
_LIST_CELL_RE = re.compile(r"'((?:[^'\\]|\\.)*)'")
_MIN_JSON_LINES = 3


@dataclass(frozen=True)
class Cell:
    """One table cell: its text (stripped) and where it is in the text ([start, end))."""

    text: str
    start: int
    end: int


@dataclass(frozen=True)
class MarkupRow:
    """A table row found in markup (an HTML `<tr>` or a JSON-lines list row), in text order."""

    cells: tuple[Cell, ...]
    start: int
    end: int


@dataclass
class Layout:
    """A filing's text with markup blanked (same length), its markup table rows and its line pages."""

    text: str
    """The text with tags, entities and JSON-line wrappers replaced by spaces: offsets are the original's."""
    rows: list[MarkupRow] = field(default_factory=list)
    kind: str = "plain"
    """`plain`, `html` or `json_lines`."""
    _page_starts: list[int] = field(default_factory=list)
    _pages: list[int] = field(default_factory=list)

    def page_at(self, offset: int) -> int | None:
        """The page a JSON-lines dump gives the line at `offset` (None for other texts)."""
        if not self._page_starts:
            return None
        i = bisect_right(self._page_starts, offset) - 1
        return self._pages[i] if i >= 0 else None


def _blank(chars: list[str], start: int, end: int) -> None:
    for i in range(start, end):
        if chars[i] != "\n":
            chars[i] = " "


def _cell(raw: str, offset: int) -> Cell | None:
    """The cell's visible text (tags and entities dropped) with the span of its first to last visible
    character; None when nothing is visible."""
    visible = _ENTITY_RE.sub(
        lambda m: " " * len(m.group(0)), _TAG_RE.sub(lambda m: " " * len(m.group(0)), raw)
    )
    stripped = visible.strip()
    if not stripped:
        return None
    lead = len(visible) - len(visible.lstrip())
    start = offset + lead
    end = start + len(stripped)
    return Cell(" ".join(stripped.split()), start, end)


def _html(text: str) -> Layout:
    rows: list[MarkupRow] = []
    for tr in _TR_RE.finditer(text):
        cells: list[Cell] = []
        for td in _TD_RE.finditer(text, tr.start(1), tr.end(1)):
            cell = _cell(td.group(1), td.start(1))
            cells.append(cell if cell is not None else Cell("", td.start(1), td.start(1)))
        if any(c.text for c in cells):
            rows.append(MarkupRow(tuple(cells), tr.start(), tr.end()))
    chars = list(text)
    for m in _TAG_RE.finditer(text):
        _blank(chars, m.start(), m.end())
    for m in _ENTITY_RE.finditer(text):
        _blank(chars, m.start(), m.end())
    return Layout("".join(chars), rows, "html")


def _json_lines(text: str) -> Layout:
    chars = list(text)
    rows: list[MarkupRow] = []
    starts: list[int] = []
    pages: list[int] = []
    offset = 0
    for line in text.split("\n"):
        m = _JSON_LINE_RE.match(line)
        if m is not None:
            starts.append(offset)
            pages.append(int(m.group("page")))
            body_start = offset + m.end()
            body_end = offset + len(line.rstrip())
            # the closing `"}` of the JSON object
            if text[body_end - 2 : body_end] == '"}':
                body_end -= 2
            _blank(chars, offset, body_start)
            _blank(chars, body_end, offset + len(line))
            body = text[body_start:body_end]
            if m.group("type") == "excel" and body.startswith("[") and body.endswith("]"):
                cells: list[Cell] = []
                for cm in _LIST_CELL_RE.finditer(body):
                    cell = _cell(cm.group(1), body_start + cm.start(1))
                    cells.append(
                        cell
                        if cell is not None
                        else Cell("", body_start + cm.start(1), body_start + cm.start(1))
                    )
                    _blank(chars, body_start + cm.start(), body_start + cm.start() + 1)
                    _blank(chars, body_start + cm.end() - 1, body_start + cm.end())
                _blank(chars, body_start, body_start + 1)
                _blank(chars, body_end - 1, body_end)
                for sep in re.finditer(r"(?<=')\s*,\s*(?=')", body):
                    _blank(chars, body_start + sep.start(), body_start + sep.end())
                if any(c.text for c in cells):
                    rows.append(MarkupRow(tuple(cells), body_start, body_end))
            elif m.group("type") in ("页眉", "页脚"):
                _blank(chars, body_start, body_end)  # running heads and page numbers are not content
        offset += len(line) + 1
    return Layout("".join(chars), rows, "json_lines", starts, pages)


def read_layout(text: str) -> Layout:
    """The text's layout: a JSON-lines page dump, HTML, or plain text (returned as it is)."""
    lines = [line for line in text[:8000].split("\n")[:20] if line.strip()]
    matching = sum(1 for line in lines if _JSON_LINE_RE.match(line))
    if lines and matching >= min(_MIN_JSON_LINES, len(lines)) and _JSON_LINE_RE.match(lines[0]):
        return _json_lines(text)
    if re.search(r"<(?:table|tr|td|p|br|h)\b", text[:200_000], re.IGNORECASE):
        return _html(text)
    return Layout(text)
