"""Facts from figures tables (task/tables.py): each labelled row's cell in each period column.

A cell's unit is the one printed beside it, else its row label's (`营业收入（元）`,
`加权平均净资产收益率（%）`), else its column header's, else the table's `单位：万元`; a cell whose unit
is nowhere said is not read (a
guess would be wrong by 10,000 as often as not). A column's period is the header's (`2020年`, `第一季度`,
`本报告期`), read against the main period: an earlier year is the prior period, `增减` a growth rate. A
derived gross margin comes from a table printing both 营业收入 and 营业成本 in the current column.
"""

from __future__ import annotations

import math
import re
from dataclasses import replace

from lmscreen.task.context import Reading
from lmscreen.task.fact import TIER_DERIVED, TIER_MAIN_TABLE, TIER_TABLE, Fact
from lmscreen.task.layout import Cell
from lmscreen.task.metrics import GROWTH_METRICS, METRICS, table_label
from lmscreen.task.period_text import previous, resolve, same
from lmscreen.task.periods import Period
from lmscreen.task.prose import _unit_kind_ok
from lmscreen.task.tables import Column, Table, align, cell_unit, split_cells
from lmscreen.task.units import MONEY_UNIT_FACTORS, Mention, printed_unit, scan

_TOTAL_RE = re.compile(r"^(?:合计|总计|小计|公司合计|主营业务合计|营业收入合计|total)$", re.IGNORECASE)
_MARGIN_DECIMALS = 2


def _with_unit(mention: Mention, unit: str | None) -> Mention | None:
    """A bare cell's mention with the unit its row, column or table gives; None when none does."""
    if mention.kind != "none":
        return mention
    if unit is None:
        return None
    if unit == "%":
        return replace(mention, kind="percent", factor=1.0, unit_source="header")
    if unit == "元/股":
        return replace(mention, kind="money", factor=1.0, unit_source="header")
    factor = MONEY_UNIT_FACTORS.get(unit)
    if factor is None:
        return None
    return replace(mention, kind="money", factor=factor, unit_source="header")


def _quarter_owned(table: Table, index: int) -> bool:
    """Whether a prior or change column belongs to the quarter-alone column left of it (`本报告期 | 上年同期
    | 本报告期比上年同期增减 | 年初至报告期末 | …`): the nearest current column before it is the quarter's."""
    for i in sorted((i for i in table.columns if 0 < i < index), reverse=True):
        col = table.columns[i]
        if col.basis == "actual":
            return col.relative == "quarter"
    return False


def _column_period(
    reading: Reading, col: Column, quarter_owned: bool = False
) -> tuple[Period | None, str] | None:
    """(period, basis) of a column, against the main period; None when the column is no period's. In a
    third-quarter report a prior or change column after the quarter's own column is the quarter's."""
    main = reading.main
    if quarter_owned and main is not None and main.sub == "Q1-Q3" and col.period is None:
        quarter = Period(main.year, "Q3")
        if col.basis == "growth":
            return quarter, "growth"
        if col.basis == "prior":
            return previous(quarter), "prior"
    if col.basis == "growth":
        return main, "growth"
    if col.relative == "to_date":
        return main, "actual"
    if col.relative == "quarter":
        if main is not None and main.sub == "Q1-Q3":
            return Period(main.year, "Q3"), "actual"
        return main, "actual"
    if col.relative == "current":
        return main, "actual"
    if col.basis == "prior":
        if col.period is not None:
            return resolve(col.period, main), "prior"
        return previous(main), "prior"
    if col.period is None:
        return None
    period = resolve(col.period, main)
    if period is None:
        return None
    if main is not None and main.year is not None and period.year is not None:
        if period.year < main.year:
            return period, "prior"
        if period.year > main.year and not _later_interim(col):
            return Period(period.year, "E"), "forecast"
    return period, "actual"


def _later_interim(col: Column) -> bool:
    """`2014…20192020H1`: a column headed by a half or a quarter of a year after the main one is that
    interim's results, printed as they are out (a forecast says `E`); the main period, read before the
    document's latest results are known, may be the last full year, and the interim may yet prove the
    document's own."""
    p = col.period
    return p is not None and p.kind != "forecast" and p.period is not None and p.period.sub in _INTERIMS


_INTERIMS = ("H1", "Q1", "Q2", "Q3", "Q4", "Q1-Q3")


def _cell_mention(reading: Reading, cell: Cell) -> Mention | None:
    found = reading.mentions_in(cell.start, max(cell.end, cell.start + 1))
    folded = reading.folded
    if found and not _cut_integer(folded, cell):
        return found[0]
    beside = folded[max(0, cell.start - 1) : cell.start] + folded[cell.end : cell.end + 1]
    if (
        folded[cell.start : cell.end] != cell.text
        or not re.search(r"[0-9.]", beside)
        or not (split_cells(cell.text) or _cut_integer(folded, cell))
    ):
        return None  # only a cell cut from glued cells: a spaced table's cell is in the scan already
    # a cell cut from a run of glued cells (`split_cells`): the scan read none of it, so it is read alone
    alone = scan(cell.text).mentions
    if len(alone) != 1 or alone[0].folded_end != len(cell.text):
        return None
    start = reading.scanned.folded.origin(cell.start)
    return replace(alone[0], start=start, end=start + len(cell.text), folded_start=cell.start)


def _cut_integer(folded: str, cell: Cell) -> bool:
    """A bare integer cut from a run of them (`growth_checked_cut`): the scan read the whole run as one
    number, so the cell is read alone."""
    text = folded[cell.start : cell.end]
    glued = folded[cell.end : cell.end + 1].isdigit() or folded[cell.start - 1 : cell.start].isdigit()
    return text == cell.text and text.isdigit() and cell.start > 0 and glued


def read_table_facts(reading: Reading, tables: list[Table]) -> list[Fact]:
    """Every table's facts (and each table's derived gross margin)."""
    facts: list[Fact] = []
    for table in tables:
        tier = TIER_MAIN_TABLE if table.is_main else TIER_TABLE
        scope = "parent" if table.is_parent else "company"
        found = (
            _segment_rows(reading, table, tier) if table.by_segment else _rows(reading, table, tier, scope)
        )
        facts.extend(found)
        if scope == "company":
            facts.extend(_derived_margins(found))
    return facts


_MONEY_ROWS = ("revenue", "net_profit", "net_profit_deducted")


_GROWTH_ROW_RE = re.compile(r"增长率|增速|同比|增减|yoy", re.IGNORECASE)
"""A row label that names a change (`净利润增长率(%)`): its percents say nothing of the columns."""


def _change_columns(table: Table) -> set[int]:
    """Columns the header calls a period's but whose amount rows (营业收入, 净利润) print only percents
    (`16.15%` under a `调整后` a PDF's merged header cells shifted): they are change columns, and a ratio
    row's percent there is a change in points, not the ratio. A row labelled as a change
    (`净利润增长率(%)`, in a forecast table's ratios) prints percents in any column: it is no such sign."""
    out = set()
    for index, col in table.columns.items():
        if index == 0 or col.basis not in ("prior", "actual") or col.metric is not None:
            continue
        cells = []
        for row in table.rows:
            named = table_label(row[0].text) if row and row[0].text else None
            if named is not None and named[0] in _MONEY_ROWS and not _GROWTH_ROW_RE.search(row[0].text):
                cell = align(table, row, index)
                if cell is not None and cell.text:
                    cells.append(cell.text.replace(" ", ""))
        if cells and all(c.endswith(("%", "％")) for c in cells):
            out.add(index)
    return out


def _rows(reading: Reading, table: Table, tier: int, scope: str) -> list[Fact]:
    out: list[Fact] = []
    declared = table.declared_unit
    section_unit: str | None = None
    changes = _change_columns(table)
    for row in table.rows:
        if not row or not row[0].text:
            continue
        if not any(c.text for c in row[1:]):
            section_unit = cell_unit(row[0].text)  # `盈利能力(%)` above its rows
            continue
        named = table_label(row[0].text)
        if named is None:
            continue
        metric, rank, label = named
        row_unit = cell_unit(row[0].text) or section_unit
        if METRICS[metric] == ("percent",) and row_unit is None:
            row_unit = "%"  # a ratio's bare cell is a percent, whatever unit the table's amounts are in
        for index, col in table.columns.items():
            if index == 0 or col.metric is not None:
                continue
            if index in changes:
                col = replace(col, basis="growth", period=None, relative=None)
            got = _column_period(reading, col, _quarter_owned(table, index))
            if got is None:
                continue
            period, basis = got
            cell = align(table, row, index)
            if cell is None or not cell.text:
                continue
            mention = _cell_mention(reading, cell)
            if mention is None or mention.kind == "points":
                continue
            if basis == "growth":
                if metric not in GROWTH_METRICS:
                    continue
                if mention.unit_source != "beside":
                    mention = replace(mention, kind="none", factor=1.0)  # `增减(%)`: the column says %
                mention = _with_unit(mention, "%")
                if mention is None or mention.kind != "percent":
                    continue
                unit = "%"
            else:
                unit_here = row_unit or col.unit or declared
                if metric == "eps" and mention.kind == "money" and mention.unit_source != "beside":
                    mention = replace(mention, kind="none", factor=1.0)
                if mention.kind != "none" and mention.unit_source in ("declared", "header") and row_unit:
                    mention = replace(mention, kind="none", factor=1.0)  # the row's own unit wins
                given = _with_unit(mention, unit_here if metric != "eps" else (row_unit or "元/股"))
                if given is None or not _unit_kind_ok(metric, given):
                    continue
                mention = given
                unit = "元/股" if metric == "eps" else printed_unit(mention)
            out.append(
                Fact(
                    metric=metric,
                    period=period,
                    scope=scope,
                    basis=basis,
                    value=mention.base,
                    unit=unit,
                    start=mention.start,
                    end=mention.end,
                    source="table",
                    label=label,
                    rank=rank,
                    tier=tier,
                    mention=mention,
                )
            )
    return out


def _segment_rows(reading: Reading, table: Table, tier: int) -> list[Fact]:
    """A table whose header names metrics: one segment per row (`合计` is the company)."""
    out: list[Fact] = []
    declared = table.declared_unit
    for row in table.rows:
        if not row or not row[0].text:
            continue
        name = "".join(row[0].text.split())
        total = bool(_TOTAL_RE.match(name))
        for index, col in table.columns.items():
            if col.metric is None or index == 0:
                continue
            metric, rank, label = col.metric
            if metric not in METRICS:
                continue
            cell = align(table, row, index)
            if cell is None or not cell.text:
                continue
            mention = _cell_mention(reading, cell)
            if mention is None:
                continue
            if mention.unit_source != "beside" and col.unit:
                mention = replace(mention, kind="none", factor=1.0)  # the column's own unit wins
            given = _with_unit(mention, col.unit or ("%" if "percent" in METRICS[metric] else declared))
            if given is None or not _unit_kind_ok(metric, given):
                continue
            out.append(
                Fact(
                    metric=metric,
                    period=reading.main,
                    scope="company" if total else "segment",
                    basis="actual",
                    value=given.base,
                    unit=printed_unit(given),
                    start=given.start,
                    end=given.end,
                    source="table",
                    label=label,
                    rank=rank,
                    tier=tier,
                    segment=None if total else name,
                    mention=given,
                )
            )
    return out


def _derived_margins(facts: list[Fact]) -> list[Fact]:
    """(营业收入 − 营业成本) / 营业收入 of each period one table prints both in (the current column, and a
    prior year's column as that year's figure: how the margin moved is what `compare` asks)."""
    out: list[Fact] = []
    periods = [f.period for f in facts if f.metric == "revenue" and f.basis in ("actual", "prior")]
    for period in dict.fromkeys(p for p in periods if p is not None):
        margin = _derived_margin(facts, period)
        if margin is not None:
            out.append(margin)
    return out


def _derived_margin(facts: list[Fact], period: Period) -> Fact | None:
    """The margin of one period, from one table's revenue and cost of that period and basis."""
    current = [
        f for f in facts if f.basis in ("actual", "prior") and f.scope == "company" and same(f.period, period)
    ]
    revenue = [f for f in current if f.metric == "revenue"]
    if not revenue:
        return None
    rev = min(revenue, key=lambda f: (f.rank, f.start))
    cost = [f for f in current if f.metric == "operating_cost" and f.basis == rev.basis]
    if not cost:
        return None
    cst = cost[0]
    if rev.value <= 0 or cst.value < 0:
        return None
    margin = round((rev.value - cst.value) / rev.value * 100, _MARGIN_DECIMALS)
    if not math.isfinite(margin):
        return None
    return Fact(
        metric="gross_margin",
        period=rev.period,
        scope="company",
        basis=rev.basis,
        value=margin,
        unit="%",
        start=rev.start,
        end=rev.end,
        source="derived",
        label="毛利率 = (营业收入 - 营业成本) / 营业收入",
        rank=0,
        tier=TIER_DERIVED,
        inputs=(rev, cst),
    )
