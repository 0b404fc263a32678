"""The metrics `compare` can be asked for, named as the outputs name them (`gross_margin_pct`).

Why a table of names and not the facts layer's own: a user asks for `毛利率` or `gross_margin_pct` (the
results.csv column) and a growth rate (`revenue_growth_pct`) is a fact of metric `revenue` with basis
`growth`; this is the one place that says which facts a metric reads.
"""

from __future__ import annotations

from dataclasses import dataclass

from lmscreen.errors import InputError


@dataclass(frozen=True)
class MetricSpec:
    name: str
    """The name the outputs use (trends.csv `metric`)."""
    fact_metric: str
    growth: bool
    """Read from facts of basis `growth` (a change rate) instead of the period's level."""
    percent: bool
    zh: str
    en: str


SPECS: tuple[MetricSpec, ...] = (
    MetricSpec("gross_margin_pct", "gross_margin", False, True, "毛利率", "gross margin"),
    MetricSpec("net_margin_pct", "net_margin", False, True, "净利率", "net margin"),
    MetricSpec("roe_pct", "roe", False, True, "ROE", "ROE"),
    MetricSpec("revenue_growth_pct", "revenue", True, True, "营收增速", "revenue growth"),
    MetricSpec("net_profit_growth_pct", "net_profit", True, True, "净利润增速", "net profit growth"),
    MetricSpec("revenue_yuan", "revenue", False, False, "营业收入", "revenue"),
    MetricSpec("net_profit_yuan", "net_profit", False, False, "净利润", "net profit"),
)
_ALIASES: dict[str, str] = {
    "gross_margin": "gross_margin_pct",
    "毛利率": "gross_margin_pct",
    "net_margin": "net_margin_pct",
    "净利率": "net_margin_pct",
    "roe": "roe_pct",
    "净资产收益率": "roe_pct",
    "revenue_growth": "revenue_growth_pct",
    "营收增速": "revenue_growth_pct",
    "net_profit_growth": "net_profit_growth_pct",
    "revenue": "revenue_yuan",
    "营业收入": "revenue_yuan",
    "net_profit": "net_profit_yuan",
    "净利润": "net_profit_yuan",
}
BY_NAME = {s.name: s for s in SPECS}
DEFAULT = "gross_margin_pct"


def metric_spec(name: str) -> MetricSpec:
    """The metric a user's name means; InputError naming the known ones for anything else."""
    key = name.strip()
    key = _ALIASES.get(key.lower(), _ALIASES.get(key, key.lower()))
    spec = BY_NAME.get(key)
    if spec is None:
        known = ", ".join(s.name for s in SPECS)
        raise InputError(f"--metric: {name!r} is not a metric compare reads (one of {known})")
    return spec
