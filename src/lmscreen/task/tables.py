"""Figures tables read as tables: every labelled row's cells, each column with its period and basis.

Why: 业绩快报 and annual reports print their figures as tables
(`项目 | 本报告期 | 上年同期 | 增减变动幅度(%)`,
`主要会计数据 | 2020年 | 2019年 | 本期比上年同期增减(%) | 2018年`, `| 第一季度（1-3月份） | 第二季度 …`),
one row per figure. Which number is this year's is said by the column header, not by the words beside the
number, so each header cell is read: the current period (本报告期, 本期, the report's year), the prior one
(上年同期, an earlier year), a change (增减, 幅度, %), or a quarter. A table whose header names metrics
(`分行业 | 营业收入 | 营业成本 | 毛利率(%)`) has one segment per row.

Rows come from lines (cells split by `|`, tabs or runs of spaces, as text pasted from a PDF) and from
markup (HTML `<tr>`, JSON-lines list rows: task/layout.py). A page break inside a table (`5 / 195`, the
running head `2020年年度报告`) does not end it. The lines above a table say what it is: `主要会计数据` (the
report's own summary, ranked first), `母公司利润表` (the parent company alone, not the group), `单位：万元`.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from lmscreen.task.layout import Cell, MarkupRow
from lmscreen.task.metrics import table_label
from lmscreen.task.period_text import PeriodMention, find_periods

_CURRENT_RE = re.compile(
    r"本报告期|本期|本年度|本年|报告期|本季度|年初至报告期末|期末数|current|this year", re.IGNORECASE
)
_TO_DATE_RE = re.compile(r"年初至本?报告期末|年初至今")
_QUARTER_ALONE_RE = re.compile(r"^本报告期$|^本季度$|^本报告期金额$")
_PRIOR_RE = re.compile(
    r"上年|上期|去年|同期|调整前|调整后|上年度|last|prior|previous|year ago", re.IGNORECASE
)
_CHANGE_RE = re.compile(r"增减|变动|幅度|同比|变化|增长率|增长|比上年|change|yoy|y/y|[%％]", re.IGNORECASE)
_SEGMENT_HEAD_RE = re.compile(
    r"分行业|分产品|分地区|分业务|分部|分板块|分销售模式|分渠道|按行业|按产品|按地区"
)
_MAIN_TABLE_RE = re.compile(
    r"主要会计数据|主要财务指标|主要财务数据|主要经营数据|业绩快报|主要财务指标和数据"
)
_PARENT_RE = re.compile(
    r"^母公司|母公司(?:的)?(?:利润表|资产负债表|现金流量表|财务报表|报表)|^\s*(?:银行|本行)(?:利润表|资产负债表|现金流量表)",
    re.MULTILINE,
)
_UNIT_RE = re.compile(
    r"[(（]\s*(?:(?:金额)?单位[:：]\s*)?(?:人民币)?\s*(万亿元|亿元|百万元|万元|千元|元/股|元／股|元|%|％)\s*[)）]"
)
_DECLARED_RE = re.compile(r"单位(?:[:：]|均为|为|以)\s*(?:人民币)?\s*(万亿元|亿元|百万元|万元|千元|元|%)")
_UNIT_LINE_RE = re.compile(
    r"^\s*(?:金额)?\s*(?:人民币|RMB)\s?(万亿元|亿元|百万元|万元|千元|元)(?:[，,、（(；;\s]|$)", re.MULTILINE
)
"""`人民币百万元，另有标注除外`: a unit line above a table that does not say 单位."""
_BARE_UNIT_LINE_RE = re.compile(r"^\s*(?:人民币)?\s*(万亿元|亿元|百万元|万元|千元|元)\s*$")
"""`元` alone on the line right above a table: the SZSE template prints a key-figure table's unit so, at the
table's right edge, with no 单位 before it."""
_PAGE_LINE_RE = re.compile(
    r"^\s*(?:第?\s*\d+\s*页?\s*/\s*(?:共\s*)?\d+\s*页?|-?\s*\d+\s*-?|\d+\s*/\s*\d+)\s*$"
)
_MAX_CELL = 40
"""Longer than this is prose, not a cell (label cells of annual-report tables run to ~30 characters)."""
_NUMERIC_CELL_RE = re.compile(r"^[-+(（]?[0-9][0-9,.]*\s*[%]?[)）]?$")
_CONTEXT_LINES = 3
_RUNNING_HEAD = 32
"""The longest line taken for a running head when it repeats (three times or more): a report's page head
names the company and the report (`金花企业（集团）股份有限公司 2025年第三季度报告`, 26 characters), and a
table a page break cuts goes on past it."""


@dataclass(frozen=True)
class Column:
    """What a header cell says of its column."""

    basis: str
    """`actual` (the current period), `prior`, `growth` or `other`."""
    period: PeriodMention | None
    """A period the header names (`2020年`, `第一季度`), resolved later against the main period."""
    relative: str | None = None
    """`current`, `to_date` or `quarter` when the header says so without a year (本报告期, 年初至报告期末)."""
    metric: tuple[str, int, str] | None = None
    """For a table whose header names metrics (`营业收入 | 营业成本 | 毛利率`): the column's metric."""
    unit: str | None = None


@dataclass
class Table:
    header: list[Cell]
    columns: dict[int, Column]
    rows: list[list[Cell]] = field(default_factory=list)
    context: str = ""
    """The lines above the table (its title, `单位：万元`)."""
    start: int = 0
    spans: list[tuple[int, int]] = field(default_factory=list)
    """[start, end) of the header and every row (folded offsets): the prose reader leaves them alone."""
    parts: list[tuple[int, int]] = field(default_factory=list)
    """(first row, cells per row) of each part a page break continued."""

    @property
    def is_main(self) -> bool:
        """The report's own summary of its figures (主要会计数据 / 业绩快报)."""
        return bool(_MAIN_TABLE_RE.search(self.context) or _MAIN_TABLE_RE.search(self.header[0].text))

    @property
    def is_parent(self) -> bool:
        """The parent company's own statements (母公司利润表), not the group's."""
        return bool(_PARENT_RE.search(self.context))

    @property
    def by_segment(self) -> bool:
        return any(c.metric is not None for c in self.columns.values())

    @property
    def declared_unit(self) -> str | None:
        m = (
            _DECLARED_RE.search(self.context)
            or _UNIT_RE.search(self.context)
            or _UNIT_LINE_RE.search(self.context)
            or _BARE_UNIT_LINE_RE.match(self.context.rsplit("\n", 1)[-1])
        )
        return m.group(1) if m else None


def cell_unit(text: str) -> str | None:
    """A unit printed in a label or header cell: `营业收入（元）` -> 元, `(%)` -> %."""
    m = _UNIT_RE.search(text)
    if m is None:
        return None
    return {"％": "%", "元／股": "元/股"}.get(m.group(1), m.group(1))


def _split(line: str, offset: int) -> list[Cell]:
    if "|" in line:
        parts = re.finditer(r"[^|]+", line)
        keep_empty = True
    elif "\t" in line:
        parts = re.finditer(r"[^\t]+", line)
        keep_empty = True
    elif re.search(r"\S\s{2,}\S", line):
        parts = re.finditer(r"\S(?:.*?\S)?(?=\s{2,}|\s*$)", line)
        keep_empty = False
    else:
        return []  # prose: single spaces separate words, not cells
    cells = []
    found = list(parts)
    separator = all(set(m.group(0).strip()) <= set("-:— ") for m in found)
    for m in found:
        raw = m.group(0)
        stripped = raw.strip()
        if not stripped or set(stripped) <= set("-:— "):
            if keep_empty and (stripped == "" or not separator):
                # a `-` cell is a figure not given: kept as an empty cell, so the cells after it stay
                # under their own header columns
                start = offset + m.start()
                cells.append(Cell("", start, start))
            continue
        lead = len(raw) - len(raw.lstrip())
        start = offset + m.start() + lead
        cells.append(Cell(stripped, start, start + len(stripped)))
    return cells


def _is_numeric(cell: Cell) -> bool:
    return bool(_NUMERIC_CELL_RE.match(cell.text.replace(" ", "")))


def _column(cell: Cell, index: int) -> Column | None:
    text = "".join(cell.text.split())
    if not text:
        return None
    unit = cell_unit(text)
    if "调整前" in text and not _CHANGE_RE.search(text):
        return None  # a prior period before its restatement: the restated (调整后) column is the figure
    if _CHANGE_RE.search(text) and not re.fullmatch(r"[(（]?[%％][)）]?", text):
        metric = table_label(text)
        if metric is not None and not re.search(r"增减|变动|比上年|同比", text):
            return Column("other", None, metric=metric, unit=unit)
        return Column("growth", None, unit="%")
    periods = [p for p in find_periods(text) if p.period is not None or p.kind in ("to_date", "current")]
    if _TO_DATE_RE.search(text):
        return Column("actual", None, relative="to_date", unit=unit)
    if _PRIOR_RE.search(text):
        year = next((p for p in periods if p.period is not None and p.period.year is not None), None)
        return Column("prior", year, unit=unit)
    if _CURRENT_RE.search(text):
        relative = "quarter" if _QUARTER_ALONE_RE.match(text) else "current"
        return Column("actual", None, relative=relative, unit=unit)
    dated = [p for p in periods if p.period is not None]
    if dated:
        return Column("actual", dated[0], unit=unit)
    metric = table_label(text)
    if metric is not None and index > 0:
        return Column("other", None, metric=metric, unit=unit)
    return None


def _header(cells: list[Cell]) -> dict[int, Column] | None:
    columns = {}
    for i, cell in enumerate(cells):
        col = _column(cell, i)
        if col is not None and (i > 0 or col.basis != "other"):
            if i == 0 and col.metric is None and col.period is None and col.relative is None:
                continue
            columns[i] = col
    useful = [c for i, c in columns.items() if i > 0]
    if not useful:
        return None
    return columns


class _Rows:
    """Table rows in text order from lines and markup, with the text lines between them."""

    def __init__(self, folded: str, markup: list[tuple[list[Cell], int, int]]) -> None:
        self.items: list[tuple[str, list[Cell] | str, int, int]] = []
        marks = sorted(markup, key=lambda r: r[1])
        lines = (line.strip() for line in folded.split("\n"))
        repeated = Counter(line for line in lines if 0 < len(line) <= _RUNNING_HEAD)
        self.running = {line for line, n in repeated.items() if n >= 3 and not re.search(r"[|\t]", line)}
        k = 0
        covered_to = -1
        offset = 0
        for line in folded.split("\n"):
            end = offset + len(line)
            while k < len(marks) and marks[k][1] <= end:
                self.items.append(("row", marks[k][0], marks[k][1], marks[k][2]))
                covered_to = max(covered_to, marks[k][2])
                k += 1
            first = offset + (len(line) - len(line.lstrip()))
            if line.strip() and first >= covered_to and not (k < len(marks) and marks[k][1] <= first):
                cells = _split(line, offset)
                if len(cells) >= 2 and not any(len(c.text) > _MAX_CELL for c in cells[1:]):
                    self.items.append(("row", cells, offset, end))
                else:
                    self.items.append(("line", line.strip(), offset, end))
            offset = end + 1
        for cells, start, stop in marks[k:]:
            self.items.append(("row", cells, start, stop))

    def transparent(self, line: str) -> bool:
        """A page number or running head inside a table: it does not end the table."""
        return bool(_PAGE_LINE_RE.match(line)) or line in self.running


def read_tables(
    folded: str, markup: list[MarkupRow] | None = None, to_folded: Callable[[int], int] | None = None
) -> list[Table]:
    """Every figures table in the (folded) text: its header's columns and its rows.

    `markup` are rows found in HTML / JSON-lines markup (original offsets, mapped by `to_folded`).
    """
    conv = to_folded or (lambda o: o)
    mapped = [
        ([Cell(c.text, conv(c.start), conv(c.end)) for c in row.cells], conv(row.start), conv(row.end))
        for row in markup or []
    ]
    source = _Rows(folded, mapped)
    tables: list[Table] = []
    current: Table | None = None
    context: list[str] = []
    broken: _Break | None = None
    label_at = 0
    """Where the current table's last data row had its label (a PDF's merged cells shift it right)."""
    for kind, item, pos, stop in source.items:
        if kind == "line":
            assert isinstance(item, str)
            if (current is not None or broken is not None) and source.transparent(item):
                continue
            if _DECLARED_RE.search(item) or _UNIT_LINE_RE.search(item) or item.endswith("表"):
                broken = None  # a new table's unit or title: what follows is not the table before
            elif current is not None and current.rows and len(item) <= _PAGE_FRAGMENT:
                broken = _Break(current, label_at, 1)  # maybe a page break's stray header pieces
            elif broken is not None and len(item) <= _PAGE_FRAGMENT and broken.lines < _PAGE_FRAGMENTS:
                broken.lines += 1
            else:
                broken = None
            current = None
            if not _RESTATED_NOTE_RE.search(item) or _MAIN_TABLE_RE.search(item):
                context = (context + [item])[-_CONTEXT_LINES:]
            continue
        assert isinstance(item, list)
        cells = item
        if current is None and broken is not None and _resumes(broken, cells):
            current = broken.table
            label_at = broken.label_at
            current.parts.append((len(current.rows), len(cells)))
        broken = None
        if current is not None:
            cells, moved_from = _label_first(current, cells)
        else:
            moved_from = 0
        if sum(_is_numeric(c) for c in cells[1:]) == 0:
            if current is not None and _continues_label(current, cells, moved_from, label_at):
                _join_label(current, cells)  # `归属于上` / `市公司股` / `东的净利润（元）`: one label wrapped
                current.spans.append((pos, stop))
                continue
            if current is not None and current.rows and cells[0].text and not any(c.text for c in cells[1:]):
                current.rows.append(cells)  # a section row (`盈利能力(%)`): its unit holds for the rows below
                current.spans.append((pos, stop))
                continue
            if (
                current is not None
                and not current.rows
                and len(cells) == len(current.header)
                and 2 * sum(not c.text for c in cells) >= len(cells)
            ):
                _merge_header(current, cells)  # the rest of a header wrapped onto the next row or page
                current.spans.append((pos, stop))
                continue
            columns = _header(cells)
            if columns is not None:
                current = Table(cells, columns, context="\n".join(context), start=pos)
                current.spans.append((pos, stop))
                tables.append(current)
            elif current is not None:
                if not current.rows:
                    _merge_header(current, cells)
                current.spans.append((pos, stop))
            continue
        if current is not None:
            current.rows.append(cells)
            current.spans.append((pos, stop))
            label_at = moved_from
    for table in tables:
        _realign(table)
    return tables


_PAGE_FRAGMENT = 12
"""A line this short inside a table's run is a fragment a page break left (a header cell's piece
`比上年同`, a page number), not prose that ends the table."""
_PAGE_FRAGMENTS = 10
_RESTATED_NOTE_RE = re.compile(
    r"追溯调整|重述|^[\s□☑■√]*是[\s□☑■√]*否[\s]*$|^其他原因$|^会计政策变更$|^同一控制下企业合并$"
)
"""`公司是否需追溯调整或重述以前年度会计数据 / 是 □否 / 其他原因`: the questions a report answers between its
`主要会计数据和财务指标` heading and the table; they do not push the heading out of the table's context."""


@dataclass
class _Break:
    """A table interrupted by short lines (a page break): its next row may go on with it."""

    table: Table
    label_at: int
    lines: int = 0


def _resumes(broken: _Break, cells: list[Cell]) -> bool:
    """Whether a row after a page break goes on with the interrupted table: it is no header of its own and
    has the table's cells, or one more (a page's table may be cut into one more, empty, column)."""
    if _header(cells) is not None and sum(_is_numeric(c) for c in cells[1:]) == 0:
        return False
    return len(cells) in (len(broken.table.header), len(broken.table.header) + 1)


def _realign(table: Table) -> None:
    """The rows a page break continued with one more column, laid out as the table's: the extra column is
    the one whose dropping puts every row's text on a column the rows before the break use. When no
    column, or more than one, does that for all of the part's rows, the part is dropped: which figure is
    under which header would be a guess."""
    if not table.parts:
        return
    width = len(table.header)
    bounds = [start for start, _ in table.parts] + [len(table.rows)]
    kept: list[list[Cell]] = table.rows[: bounds[0]]
    used = {i for row in kept for i, c in enumerate(row) if c.text and i > 0}
    for (start, cells_wide), end in zip(table.parts, bounds[1:], strict=True):
        part = table.rows[start:end]
        if cells_wide == width and all(len(r) == width for r in part):
            kept.extend(part)
            continue
        if cells_wide != width + 1 or any(len(r) != width + 1 for r in part):
            break
        layouts: dict[tuple, list[list[Cell]]] = {}
        for point in range(1, width + 1):
            if all(_fits(r, point, used) for r in part):
                laid = [[c for i, c in enumerate(r) if i != point] for r in part]
                layouts.setdefault(tuple(tuple(c.text for c in r) for r in laid), laid)
        if len(layouts) != 1:
            break  # two layouts fit (or none): which figure is under which header would be a guess
        kept.extend(next(iter(layouts.values())))
    table.rows = kept


def _fits(row: list[Cell], point: int, used: set[int]) -> bool:
    """Whether dropping cell `point` of a row one cell too wide puts its text under used columns."""
    if row[point].text:
        return False
    return all((i if i < point else i - 1) in used for i, c in enumerate(row) if c.text and i > 0)


def _label_first(table: Table, cells: list[Cell]) -> tuple[list[Cell], int]:
    """A row whose label a PDF's merged cells put right of the first cell (` | 营业收入 |  | 1,380,240.63`):
    the label moved into the first cell, where every reader looks, and where it was."""
    if not cells or cells[0].text:
        return cells, 0
    first_column = min((i for i in table.columns if i > 0), default=len(cells))
    for k in range(1, min(first_column, len(cells))):
        if cells[k].text:
            if _is_numeric(cells[k]):
                return cells, 0
            moved = [cells[k]] + cells[1:k] + [Cell("", cells[k].end, cells[k].end)] + cells[k + 1 :]
            return moved, k
    return cells, 0


def _open(label: str) -> bool:
    return label.count("（") + label.count("(") > label.count("）") + label.count(")")


def _continues_label(table: Table, cells: list[Cell], moved_from: int, label_at: int) -> bool:
    """A label-only row that is the rest of the row above's wrapped label: in the same (shifted) cell as
    that label while it is not closed by `）`, or any row while a `（` is open."""
    if not table.rows or not cells[0].text or any(c.text for c in cells[1:]):
        return False
    last = table.rows[-1]
    if not last or not last[0].text or sum(_is_numeric(c) for c in last[1:]) == 0 and not _open(last[0].text):
        return False
    above = last[0].text
    if _open(above):
        return True
    if moved_from == 0 or moved_from != label_at or above.rstrip().endswith(("）", ")")):
        return False
    named = table_label(above)
    if named is None:
        return True  # `归属于上`: no label yet, so the row below holds the rest of it
    if _whole_item(above, named[2]) and not cells[0].text.lstrip().startswith(("(", "（")):
        return False  # `其中：营业收入` then `利息收入`: the next item (a row with no figures), not the rest
    # `每股收益（元/股）` under `…净利润`: a row of its own, not the rest of the label above
    return not _begins_label(cells[0].text)


def _whole_item(label: str, named: str) -> bool:
    """Whether a row's label ends on the figure's name it holds (`其中：营业收入`, `营业成本`): a whole item.

    Why: a statement prints items with no figures of their own right under one (`利息收入`, `已赚保费`
    under `其中：营业收入` in a 合并利润表); read as the rest of a wrapped label they turn `营业成本` into
    `营业成本利息支出…`, which names no figure, and the derived margin loses its cost. A label cut mid-word
    (`归属于上市公司股东的净利`) does not end on a name and still takes the row below."""
    return "".join(label.split()).endswith("".join(named.split()))


def _begins_label(text: str) -> bool:
    """Whether a cell starts with a figure's label (`营业成本`, `每股收益（元/股）`), not a label's middle
    (`市公司股`, `东的净利`)."""
    compact = "".join(text.split())
    named = table_label(compact)
    return named is not None and compact.startswith(named[2])


def _join_label(table: Table, cells: list[Cell]) -> None:
    last = table.rows[-1]
    head = last[0]
    last[0] = Cell(head.text + cells[0].text, head.start, cells[0].end)


def _merge_header(table: Table, cells: list[Cell]) -> None:
    """A header wrapped over two rows (`本期 比上 年同` + `期增 减(%)`): join the cells and read it again."""
    if len(cells) != len(table.header):
        return
    joined = [
        Cell((a.text + b.text).strip(), a.start if a.text else b.start, b.end if b.text else a.end)
        for a, b in zip(table.header, cells, strict=True)
    ]
    columns = _header(joined)
    if columns is not None:
        table.header, table.columns = joined, columns


def align(table: Table, row: list[Cell], index: int) -> Cell | None:
    """The row's cell under header column `index` (a row that lacks the header's label cell is aligned from
    the right)."""
    shift = len(row) - len(table.header)
    target = index + shift if shift > 0 else index
    if not 0 < target < len(row):
        return None
    return row[target]


_GLUED_YEAR = r"(?:(?:19|20)?[0-9]{2}年(?:上半年)?|(?:19|20)[0-9]{2}(?:[AE]|H1)?)"
_GLUED_LAST_YEAR = rf"(?:(?:19|20)[0-9]{{2}}(?:H2|Q[1-4])|{_GLUED_YEAR})"
_GLUED_YEARS_RE = re.compile(rf"(?<![0-9.])(?:{_GLUED_YEAR}){{2,7}}{_GLUED_LAST_YEAR}(?![0-9.%])")
"""A forecast table's year header a PDF extraction printed with nothing between its cells
(`2019A2020A2021E2022E2023E`, `201820192020E2021E2022E`), with a half year's or a quarter's actual column
(`20192020H12020E2021E2022E`, a history's `2014201520162017201820192020H1`; a quarter only last), or each
year with its 年 (`2015年2016年…2019年20年上半年`)."""
_GLUED_YEAR_RE = re.compile(_GLUED_LAST_YEAR)
_GLUED_ROW_RE = re.compile(r"([^0-9.]{1,24}?)(-?[0-9][0-9.,%\-]*[0-9%])(?![0-9.])")
"""A row of such a table: its label, then its cells run together (`ROE（%）11.486.805.568.039.40`)."""
_SCALE_UNIT_RE = re.compile(r"[(（]\s*(?:(?:金额)?单位[:：]\s*)?人民币\s*(百万|千万|万|亿|千)\s*[)）]")
"""`会计年度(人民币百万)`: a scale with no 元, the unit a broker's statements print above their columns."""
_GLUED_CONTEXT = 40
"""How far before a glued header its title and unit are looked for (`利润表摘要（单位：百万元）`)."""


def split_cells(run: str) -> list[tuple[int, int]] | None:
    """The cells of a run of numbers printed with nothing between them, as (start, end) in `run`: only
    when one cut consumes the whole run into plain numbers (no leading zero but `0.xx`, a sign only first),
    each either with one count of decimals (all with or all without a `%`) or an integer grouped by
    thousands (`30,66335,446` is 30,663 and 35,446: three digits follow each comma, so the digits before
    the next comma begin the next cell). A table prints a row's figures to one precision, so the cut is
    certain; a run two counts of decimals cut differently (`785.171,095`), or none, is not read."""
    found = {tuple(cut) for d in (1, 2, 3, 4) if (cut := _cut(run, d)) is not None}
    return list(found.pop()) if len(found) == 1 else None


def _cut(run: str, decimals: int) -> list[tuple[int, int]] | None:
    cells: list[tuple[int, int]] = []
    i = 0
    while i < len(run):
        j = i + (run[i] == "-")
        lead = re.match(r"[0-9]*", run[j:]).group(0)  # type: ignore[union-attr]
        k = j + len(lead)
        if not lead or (len(lead) > 1 and lead[0] == "0"):
            return None
        if k < len(run) and run[k] == ",":
            end = _grouped_end(run, k, lead)
            if end is None:
                return None
        elif k < len(run) and run[k] == ".":
            end = k + 1 + decimals
            if not run[k + 1 : end].isdigit() or len(run[k + 1 : end]) != decimals:
                return None
        else:
            return None
        if end < len(run) and run[end] == "%":
            end += 1
        cells.append((i, end))
        i = end
    if len({run[e - 1] == "%" for _, e in cells}) != 1:
        return None
    return cells


def _grouped_end(run: str, comma: int, lead: str) -> int | None:
    """Where an integer grouped by thousands ends (`1,604` of `1,6041,289`): one to three digits, then
    groups of a comma and three digits; a point or a short group after them leaves the run unread."""
    if len(lead) > 3:
        return None
    k = comma
    while k < len(run) and run[k] == ",":
        if not run[k + 1 : k + 4].isdigit() or len(run[k + 1 : k + 4]) != 3:
            return None
        k += 4
    if k < len(run) and run[k] == ".":
        return None
    return k


def flattened_tables(folded: str) -> list[Table]:
    """The forecast tables a PDF extraction ran into one line with nothing between cells: a glued year
    header, then the rows after it whose cells split (`split_cells`) into exactly one per year. A row
    that does not split so (a growth row one year short, negatives in brackets, bare integers no growth
    row under them confirms: `growth_checked_cut`) is passed over, as two statements printed side by
    side interleave their rows; the table ends where no labelled run follows (prose) or at the next
    glued header. The columns are the header's years, so only the main period's column is the period's
    figure (the later ones are forecasts); the unit is the row's, else the one printed right before the
    header (`会计年度(人民币百万)`)."""
    tables = []
    headers = list(_GLUED_YEARS_RE.finditer(folded))
    for n, h in enumerate(headers):
        header = [Cell("", h.start(), h.start())]
        header += [
            Cell(y.group(0), h.start() + y.start(), h.start() + y.end())
            for y in _GLUED_YEAR_RE.finditer(h.group(0))
        ]
        columns = _header(header)
        if columns is None or len(columns) != len(header) - 1 or not _ascending(columns):
            continue
        context = _glued_context(folded, h.start())
        if n and not re.search(r"[0-9]", folded[headers[n - 1].end() : h.start()]):
            # `资产负债表单位:百万元利润表单位:百万元会计年度2018…2022E会计年度2018…2022E`: two statements
            # side by side, the second header right after the first: the title and unit before both are both's
            context = _glued_context(folded, headers[n - 1].start()) + context
        table = Table(header, columns, context=context, start=h.start())
        stop = headers[n + 1].start() if n + 1 < len(headers) else len(folded)
        pos = h.end()
        while (m := _GLUED_ROW_RE.match(folded, pos)) is not None and m.end() <= stop:
            pos = m.end()
            cut = split_cells(m.group(2))
            if (
                cut is None
                and (nxt := _GLUED_ROW_RE.match(folded, m.end()))
                and _GROWTH_LABEL_RE.search(nxt.group(1))
            ):
                cut = growth_checked_cut(m.group(2), nxt.group(2), len(header) - 1)
            if cut is None or len(cut) != len(header) - 1:
                continue
            label = m.group(1).strip()
            row = [Cell(label, m.start(1), m.end(1))]
            row += [Cell(m.group(2)[s:e], m.start(2) + s, m.start(2) + e) for s, e in cut]
            table.rows.append(row)
        table.rows = _without_breakdown_rows(_whole_company_rows(table.rows))
        if table.rows and not _segment_title(folded, h.start()):
            tables.append(table)
    return tables


_TITLE_REACH = 40
"""How far before a run-together header its table's title runs (`表3：分业务收入及毛利率单位：百万元`)."""


def _segment_title(folded: str, start: int) -> bool:
    """`表3：分业务收入及毛利率单位：百万元2020A2021E…地产开发与销售收入1402.65…毛利率33.6%30.0%…`: a
    run-together table whose title, right before its year header and after the sentence before it, says it
    splits the company (`分业务`, `分产品`, `按地区`) prints its parts' rows; the part's name stands in a row
    label the cut reads as a label, so a `毛利率` row under it would pass for the company's. Such a table is
    not read."""
    lo = max(0, start - _TITLE_REACH)
    title = folded[lo:start]
    stop = max(title.rfind(mark) for mark in "。；;！!？?")
    return _SEGMENT_HEAD_RE.search(title[stop + 1 :]) is not None


def _ascending(columns: dict[int, Column]) -> bool:
    """Whether a run-together header's years never go down (`20192020H12020E2021E`): a forecast or history
    table runs from past to future. One that starts on the latest (`同行业可比公司财务数据2020H1201920182017`)
    lists peers' figures, a company to a row under one label, and is not read as the company's table."""
    years = [c.period.period.year for _, c in sorted(columns.items()) if c.period and c.period.period]
    return all(a is not None and b is not None and a <= b for a, b in zip(years, years[1:], strict=False))


_TOTAL_LABEL_RE = re.compile(r"合计|总计")


def _whole_company_rows(rows: list[list[Cell]]) -> list[list[Cell]]:
    """`公司产品2016201720182019爱美客逸美出厂价…毛利率87.80%92.87%…营业收入（万元）2386.42…宝尼达出厂价…
    毛利率98.23%…营业收入（万元）1348.68…`: a run-together table that prints one figure's row twice with
    different figures (the same label, a screened metric's) repeats its rows for groups whose names the cut
    cannot see (products, segments, companies, each named in or before its first row); those rows are the
    groups', none the whole company's, and are not read. When a row names the total (`收入合计`,
    `成本合计`) and no row after it repeats, the rows from it on are the company's total group and are read.
    The same row printed twice with the same figures (a statement's revenue restated in its key ratios) is
    one figure: the table is read as it is."""
    if not _grouped_rows(rows):
        return rows
    total = next((i for i, row in enumerate(rows) if _TOTAL_LABEL_RE.search(row[0].text)), None)
    if total is None or _grouped_rows(rows[total:]):
        return []
    return rows[total:]


def _grouped_rows(rows: list[list[Cell]]) -> bool:
    """Whether a screened metric's row label comes twice with different figures."""
    return any(table_label(label) is not None for label in _printed_differently(rows, lambda label: label))


def _printed_differently(rows: list[list[Cell]], key: Callable[[str], str]) -> set[str]:
    """The row labels (as `key` names them) printed on two or more rows with different figures; the same row
    printed twice with the same figures (a statement's line restated in its key ratios) is one row."""
    printed: dict[str, set[tuple[str, ...]]] = {}
    for row in rows:
        printed.setdefault(key(row[0].text), set()).add(tuple(cell.text for cell in row[1:]))
    return {label for label, figures in printed.items() if len(figures) > 1}


_GROWTH_LABEL_RE = re.compile(r"同比|增长率|增速|yoy|\+/-", re.IGNORECASE)
"""The label of a growth row printed under an amount's row (`同比（%）`, `增长率yoy（%）`, `(+/-)`)."""
_MAX_INTEGER_RUN = 40


def growth_checked_cut(run: str, growth: str, cells: int) -> list[tuple[int, int]] | None:
    """Bare integers run together (`归母净利润（百万元）371230426559`) carry no mark of where one ends, but
    the growth row printed right under them (`同比（%）-10.6%-38.0%85.3%31.2%`) says how each year moved from
    the one before: the cut is the one way of cutting the digits into one integer per year (no leading
    zero) whose every move matches its printed growth within both roundings (371 → 230 is -38.0%,
    230 → 426 is 85.3%, 426 → 559 is 31.2%). At least two moves must be checked, and exactly one cut
    may pass; otherwise nothing is read."""
    rates = split_cells(growth)
    if not run.isdigit() or len(run) > _MAX_INTEGER_RUN or cells < 3 or rates is None:
        return None
    printed = [growth[s:e].rstrip("%") for s, e in rates]
    if len(printed) == cells:
        printed = printed[1:]  # the first year's growth is on the year before, which the row does not print
    if len(printed) != cells - 1:
        return None
    checks = [(float(g), 0.5 * 10 ** -len(g.partition(".")[2])) for g in printed]
    found = [cut for cut in _integer_cuts(run, cells) if _moves_match(run, cut, checks)]
    return found[0] if len(found) == 1 else None


def _integer_cuts(run: str, cells: int, start: int = 0) -> list[list[tuple[int, int]]]:
    """Every way to cut `run[start:]` into `cells` integers with no leading zero."""
    if cells == 1:
        return [[(start, len(run))]] if run[start] != "0" else []
    out = []
    for end in range(start + 1, len(run) - cells + 2):
        if run[start] == "0":
            break
        out += [[(start, end), *rest] for rest in _integer_cuts(run, cells - 1, end)]
    return out


def _moves_match(run: str, cut: list[tuple[int, int]], checks: list[tuple[float, float]]) -> bool:
    """Whether each integer's move from the one before falls within its printed growth (percent, and half its
    last digit), the integers being rounded to a unit themselves."""
    values = [int(run[s:e]) for s, e in cut]
    for (before, after), (rate, half) in zip(zip(values, values[1:], strict=False), checks, strict=True):
        if before < 1:
            return False
        low = (after - 0.5) / (before + 0.5)
        high = (after + 0.5) / (before - 0.5) if before > 0.5 else float("inf")
        if not (low <= 1 + (rate + half) / 100 and high >= 1 + (rate - half) / 100):
            return False
    return True


def _without_breakdown_rows(rows: list[list[Cell]]) -> list[list[Cell]]:
    """A glued table that prints one label on several rows (`嗨体…毛利率…爱芙莱…毛利率…总收入…毛利率`,
    `血液制品营业收入…成本…毛利率…疫苗营业收入…成本…毛利率`) breaks its figures down by part, each part's
    rows under its name: none of those rows says whose it is, so none is read."""
    repeated = _printed_differently(rows, _bare_label)
    return [row for row in rows if _bare_label(row[0].text) not in repeated]


def _bare_label(label: str) -> str:
    """A row label less its bracketed unit and spaces (`营业收入(百万元)` and `营业收入` are one row)."""
    return re.sub(r"[(（][^)）]*[)）]|\s", "", label)


def _glued_context(folded: str, start: int) -> str:
    """The words right before a glued header, from its sentence's start or the last figure before it (a
    row of the table above): its title and unit, with a `(人民币百万)` scale said as the unit it is."""
    before = folded[max(0, start - _GLUED_CONTEXT) : start]
    before = re.split(r"[。\n]|[0-9%](?=[^0-9%]*$)", before)[-1]
    scale = _SCALE_UNIT_RE.search(before)
    return before + (f" 单位：{scale.group(1)}元" if scale else "")


def glued_year_headers(folded: str) -> list[list[str]]:
    """Each glued year header's years as printed (`['2019', '2020E', '2021E']`)."""
    return [_GLUED_YEAR_RE.findall(h.group(0)) for h in _GLUED_YEARS_RE.finditer(folded)]
