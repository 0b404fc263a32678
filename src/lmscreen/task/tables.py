"""Read the current-period column of a figures table (业绩快报 / 主要会计数据 / 人民币百万元 tables).

Why: 业绩快报 and annual-report summaries print their figures as a table, `项目 | 本报告期 | 上年同期 |
增减变动幅度(%)`, one row per figure. Which number is this year's is said by the column header, not by the
words beside the number, so the table is read as a table: find the header row, pick the column that is the
report's own period (本报告期 / 本期 / the report's year), and take each labelled row's cell in that column.
Cells may be separated by `|`, tabs or runs of spaces (text pasted from a PDF).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from lmscreen.task.periods import Period, periods_in

_CURRENT_RE = re.compile(
    r"本报告期|本期|本年度|本年|报告期|本季度|年初至报告期末|current|this year", re.IGNORECASE
)
_PRIOR_RE = re.compile(r"上年|上期|去年|同期|调整前|调整后|last|prior|previous|year ago", re.IGNORECASE)
_CHANGE_RE = re.compile(r"增减|变动|幅度|同比|变化|增长率|change|yoy|y/y|%", re.IGNORECASE)
_MAX_CELL = 24
"""Longer than this is prose, not a cell (a table's value and header cells are short)."""
_NUMERIC_CELL_RE = re.compile(r"^[-+(（]?[0-9０-９][0-9０-９,，.．]*\s*[%％]?[)）]?$")


@dataclass(frozen=True)
class Cell:
    text: str
    start: int
    """Offset of the cell in the folded text."""
    end: int


@dataclass(frozen=True)
class TableRow:
    label: Cell
    current: Cell
    """The row's cell in the current-period column."""
    period: Period | None


def _cells(line: str, offset: int) -> list[Cell]:
    if "|" in line:
        parts = re.finditer(r"[^|]+", line)
    elif "\t" in line:
        parts = re.finditer(r"[^\t]+", line)
    elif re.search(r"\S\s{2,}\S", line):
        parts = re.finditer(r"\S(?:.*?\S)?(?=\s{2,}|\s*$)", line)
    else:
        return []  # prose: single spaces separate words, not cells
    cells = []
    for m in parts:
        raw = m.group(0)
        stripped = raw.strip()
        if not stripped or set(stripped) <= set("-:— "):
            continue
        lead = len(raw) - len(raw.lstrip())
        start = offset + m.start() + lead
        cells.append(Cell(stripped, start, start + len(stripped)))
    return cells


def _is_numeric(cell: Cell) -> bool:
    return bool(_NUMERIC_CELL_RE.match(cell.text.replace(" ", "")))


def _current_column(header: list[Cell], doc: Period | None) -> tuple[int, Period | None] | None:
    """Index of the report's own period among the header cells (the first cell is the label column)."""
    fallback: tuple[int, Period | None] | None = None
    for i, cell in enumerate(header):
        text = cell.text
        if i == 0 and not (_CURRENT_RE.search(text) or periods_in(text)):
            continue  # the label column (`项目`)
        found = [p for _, _, p in periods_in(text) if p.year is not None]
        if _CURRENT_RE.search(text) and not _PRIOR_RE.search(text):
            return i, found[0] if found else doc
        if found and not _PRIOR_RE.search(text) and not _CHANGE_RE.search(text):
            period = found[0]
            if doc is not None and doc.year is not None and period.year == doc.year:
                return i, period
            if fallback is None and (doc is None or doc.year is None):
                fallback = (i, period)
    return fallback


def read_tables(folded: str, doc: Period | None) -> list[TableRow]:
    """Every labelled row of every figures table in the (folded) text, with its current-period cell."""
    rows: list[TableRow] = []
    header: list[Cell] | None = None
    column: tuple[int, Period | None] | None = None
    offset = 0
    for line in folded.split("\n"):
        cells = _cells(line, offset)
        offset += len(line) + 1
        if len(cells) < 2 or any(len(c.text) > _MAX_CELL for c in cells[1:]):
            header, column = None, None  # not a table line (a sentence that happens to hold a `|`)
            continue
        numeric = sum(_is_numeric(c) for c in cells[1:])
        if numeric == 0:
            found = _current_column(cells, doc)
            if found is not None:
                header, column = cells, found
            continue
        if header is None or column is None:
            continue
        index, period = column
        # a row may lack a leading label cell in the header's count (`项目` omitted): align from the right
        shift = len(cells) - len(header)
        target = index + shift if shift > 0 else index
        if not 0 < target < len(cells):
            continue
        rows.append(TableRow(label=cells[0], current=cells[target], period=period))
    return rows
