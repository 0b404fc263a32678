"""Highlights from the pool row's own fields, for a company with no filing: `from_pool(...) -> Highlights`.

Why not skip such a row: the nightly export often lists companies whose report is not out (or not fetched)
yet, and the pool itself carries figures worth saying (the latest 净利润 and its growth over the year
before, ROE, PE, EPS). Each becomes a `Num` naming its pool cell (`PoolField`: file, row, the column as the
rules see it and the header it was read from), and a growth the pool does not print is derived from two
cells and recorded so. A row with none of these figures gets no script (`from_pool` returns None).
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from lmscreen.task.brief.highlights import Highlight, Highlights, Num, PoolField, amount

_NET_PROFIT = re.compile(r"net_profit_(\d{4})$")


@dataclass(frozen=True)
class PoolColumns:
    """Where the pool's fields were read from: the file and each column's header as printed."""

    file: str
    headers: dict[str, str]
    """The column as the rules see it (`pe_ttm`, `net_profit_2024`) → its header (`市盈率(TTM)`)."""


def _number(row: Mapping[str, Any], column: str) -> float | None:
    value = row.get(column)
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        return None
    return float(value)


def from_pool(
    row: Mapping[str, Any],
    cols: PoolColumns,
    name: str,
    *,
    risk_level: str | None = None,
    rules_fired: list[str] | None = None,
) -> Highlights | None:
    """The highlights one pool row's fields give, or None when it has no usable figure."""

    def cell(column: str, value: float, part: str = "value") -> PoolField:
        return PoolField(cols.file, int(row["row"]), column, cols.headers.get(column), value, part)

    items: list[Highlight] = []
    years = sorted(
        (int(m.group(1)), c) for c in row if (m := _NET_PROFIT.match(c)) and _number(row, c) is not None
    )
    if years:
        year, column = years[-1]
        value = _number(row, column)
        assert value is not None
        period = f"FY{year}"
        nums = {
            "value": amount(value, "net_profit", period, pool=cell(column, value)),
            "year": Num(float(year), "年", period, "period", pool=cell(column, float(year), "header")),
        }
        notes: dict[str, Any] = {}
        before = dict(years).get(year - 1)
        prior = _number(row, before) if before is not None else None
        if before is not None and prior is not None:
            if prior != 0 and (value > 0) == (prior > 0):
                nums["growth"] = Num(
                    (value - prior) / abs(prior) * 100,
                    "%",
                    period,
                    "net_profit",
                    op="growth",
                    pool_inputs=(cell(column, value), cell(before, prior)),
                )
            if value < 0 < prior:
                notes["swing"] = "to_loss"
            elif prior < 0 < value:
                notes["swing"] = "to_profit"
            elif prior < 0 and value < 0:
                notes["swing"] = "still_loss"
        items.append(Highlight("pool_profit", nums, notes))
    for column, kind, unit, period in (
        ("roe", "pool_roe", "%", None),
        ("pe_ttm", "pe", "倍", "TTM"),
        ("eps", "eps", "元", None),
    ):
        value = _number(row, column)
        if value is not None:
            num = Num(value, unit, period, column, pool=cell(column, value))
            items.append(Highlight(kind, {"value": num}))
    if not items:
        return None
    return Highlights(
        name=name,
        period=items[0].nums["value"].period,
        year=None,
        sub=None,
        items=items,
        risk_level=risk_level,
        rules_fired=list(rules_fired or []),
        basis="pool",
    )


USABLE = "net_profit_<year>, roe, pe_ttm, eps"
"""The pool fields a script can be written from, for a skipped row's reason."""
