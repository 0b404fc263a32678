"""What a source hands to the pool writer: one row per stock, canonical columns, and where each came from."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import polars as pl

# Canonical column -> header written in the pool file (headers the loader recognises, see pool/columns.py).
HEADERS: dict[str, str] = {
    "code": "代码",
    "name": "名称",
    "industry": "行业",
    "pe_ttm": "市盈率TTM",
    "pe_dynamic": "市盈率-动态",
    "pe_static": "市盈率(静)",
    "roe": "净资产收益率(%)",
    "report_period": "报告期",
    "eps": "每股收益",
    "st": "ST股票",
}
FIELDS = tuple(HEADERS)


def header_for(column: str) -> str:
    """`net_profit_2024` -> `净利润2024` (元); the others from HEADERS."""
    if column.startswith("net_profit_"):
        return f"净利润{column.removeprefix('net_profit_')}"
    return HEADERS[column]


@dataclass
class SourceTable:
    """`frame`: `code` plus canonical columns (values in base units: 元, %, ratio); `sources`: per column,
    the call it came from, the as-of date and the unit, as the sidecar records them."""

    frame: pl.DataFrame
    sources: dict[str, dict[str, Any]] = field(default_factory=dict)
    calls: list[dict[str, Any]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def value_columns(self) -> list[str]:
        return [c for c in self.frame.columns if c != "code"]
