"""Every column a screening run writes, with its type, the files that carry it and what it means.

The output contract in one place: results.csv, results.parquet, results.jsonl and the history's verdicts
are read by
users' scripts, by `lmscreen report` and `lmscreen diff` years after the run, so a column's name and type
are decided here and every writer and reader takes them from here (the writers, the history, the diff,
report.md, report.html, the charts). A test holds a real run's files to this table.

Orders: results.csv and results.parquet write CSV_COLUMNS in COLUMNS' order (results.parquet with real
types: `parquet_dtype`, the level as an Enum in the rules' order, `rules_fired` nested); the history's
verdict parts store
VERDICT_COLUMNS in their own (older) order. results.jsonl writes a run's frame as it is built (the pool's
columns, the rules', then the LLM step's, `llm` last), so its order is the runner's; its names and types
are still these.

Types are polars dtype names (`pl.Int64` is "Int64"), not polars objects: the history and `--help` import
this module and must not pay polars' import for it. `LLM_COLUMNS` (built on first use) gives the LLM
step's columns as polars dtypes, for the runner.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    import polars as pl

CSV = "results.csv"
PARQUET = "results.parquet"
JSONL = "results.jsonl"
HISTORY = "history"
"""The history's per-run verdict parts (history.sqlite)."""

Step = Literal["pool", "rules", "llm"]
DType = Literal["String", "Int64", "Float64", "Boolean", "Object", "Enum", "Fired"]
""""Enum": the risk level in results.parquet, its categories the rules' level names, most severe first.
"Fired": the nested `rules_fired` of results.jsonl and results.parquet, a list of
{rule, field, threshold, value} (lmscreen.rules.fired_list.FIRED_LIST)."""


@dataclass(frozen=True)
class Column:
    name: str
    """The column's name; `{year}` in it stands for a four-digit year (one column per year the pool has)."""
    dtype: DType
    """Polars dtype name. "Object" is results.jsonl's nested `llm` detail (a JSON object per line)."""
    files: frozenset[str]
    meaning: str
    step: Step
    """What produces it: the pool loader, the rules, or the LLM step (absent, null or empty without it)."""
    sparse: bool = False
    """results.jsonl leaves the column out when no row of the run has a value (a rules-only run): a million
    rows of a dozen nulls each were a third of the file. results.csv keeps every column."""
    optional: bool = False
    """Only in a run that produces it (a period column in the pool, --annualize-roe, the LLM step); a run
    with no row at all writes the results.csv header without it."""
    typed: DType | None = None
    """Its type in results.parquet where that is not `dtype` (results.csv is text): the level as an Enum,
    `rules_fired` nested ("Fired", results.jsonl's form too)."""

    def matches(self, name: str) -> bool:
        if "{year}" not in self.name:
            return name == self.name
        return re.fullmatch(re.escape(self.name).replace(r"\{year\}", r"\d{4}"), name) is not None


_ALL = frozenset({CSV, PARQUET, JSONL, HISTORY})
_FILES = frozenset({CSV, PARQUET, JSONL})
_ONLY_JSONL = frozenset({JSONL})

COLUMNS: tuple[Column, ...] = (
    Column("row", "Int64", _ALL, "line of the row in the pool file", "pool"),
    Column("code", "String", _ALL, "normalised stock code with its exchange (600519.SH)", "pool"),
    Column("name", "String", _ALL, "stock name as normalised by the loader (full-width folded)", "pool"),
    Column("industry", "String", _ALL, "industry as given in the pool", "pool"),
    Column("pe_ttm", "Float64", _ALL, "trailing-twelve-month PE; null when blank, -- or a loss", "pool"),
    Column("roe", "Float64", _ALL, "ROE in percent (annualised with --annualize-roe)", "pool"),
    Column(
        "roe_reported",
        "Float64",
        _FILES,
        "ROE as the pool gave it, before --annualize-roe",
        "pool",
        optional=True,
    ),
    Column(
        "roe_period",
        "String",
        _FILES,
        "the period the pool's ROE is for, when the file says",
        "pool",
        optional=True,
    ),
    Column("eps", "Float64", _FILES, "earnings per share", "pool"),
    Column("is_st", "Boolean", _FILES, "ST / *ST by name prefix or the pool's ST column", "pool"),
    Column(
        "risk_level",
        "String",
        _ALL,
        "the rules' level, by its display name in the rules file",
        "rules",
        typed="Enum",
    ),
    Column("score", "Int64", _ALL, "the rules' score; null without ROE", "rules"),
    Column(
        "reason",
        "String",
        _ALL,
        "one-sentence reason (the model's, checked, or the rules')",
        "llm",
        sparse=True,
    ),
    Column("reason_source", "String", _FILES, "who wrote the reason: model or rules", "llm", sparse=True),
    Column(
        "rules_fired",
        "String",
        _FILES,
        "fired rules with the values that fired them: `;`-joined text in results.csv, a list of "
        "{rule, field, threshold, value} in results.jsonl and results.parquet",
        "rules",
        typed="Fired",
    ),
    Column(
        "flags",
        "String",
        _ALL,
        "what a reader acts on, `;`-joined "
        "(数据存疑, conflict:revenue, ungrounded:roe, stale:roe, truncated, no_report)",
        "llm",
    ),
    Column(
        "diagnostics",
        "String",
        _ONLY_JSONL,
        "notes on the model's answer and the reading, not the stock "
        "(reason_rejected:loop, llm_disagrees:roe)",
        "llm",
        sparse=True,
    ),
    Column("status", "String", _ALL, "ok, or llm_error: why", "llm"),
    Column(
        "revenue_yuan", "Float64", _FILES, "revenue from the report, in yuan (grounded)", "llm", sparse=True
    ),
    Column(
        "net_profit_yuan",
        "Float64",
        _FILES,
        "net profit from the report, in yuan (grounded)",
        "llm",
        sparse=True,
    ),
    Column(
        "gross_margin_pct", "Float64", _FILES, "gross margin from the report, percent", "llm", sparse=True
    ),
    Column("roe_extracted_pct", "Float64", _FILES, "ROE from the report, percent", "llm", sparse=True),
    Column("pe_extracted", "Float64", _FILES, "PE from the report", "llm", sparse=True),
    Column("code_raw", "String", _FILES, "the code cell as written in the pool", "pool"),
    Column("prompt_tokens", "Int64", _FILES, "prompt tokens of the row's LLM request", "llm", sparse=True),
    Column("completion_tokens", "Int64", _FILES, "completion tokens of the row's answer", "llm", sparse=True),
    Column("pe_raw", "String", _ONLY_JSONL, "the PE cell as written (shown when PE is missing)", "pool"),
    Column("report_text", "String", _ONLY_JSONL, "the pool's inline report text", "pool", sparse=True),
    Column("loss_two_years", "Boolean", _ONLY_JSONL, "the last two yearly net profits both negative", "pool"),
    Column(
        "net_profit_{year}", "Float64", _ONLY_JSONL, "the pool's net profit of that year, in yuan", "pool"
    ),
    Column(
        "stale_as_of",
        "String",
        _ONLY_JSONL,
        "the stale fields' dates, `;`-joined (roe=2026H1;pe_ttm=2026-11-20); see flags stale:<field>",
        "pool",
        optional=True,
    ),
    Column(
        "llm",
        "Object",
        _ONLY_JSONL,
        "the answer's detail: figures, evidence, raw text (each line's last key)",
        "llm",
        optional=True,
    ),
)

BY_NAME: dict[str, Column] = {c.name: c for c in COLUMNS}


def column(name: str) -> Column | None:
    """The contract's entry for a column name (a `net_profit_2024` finds `net_profit_{year}`)."""
    found = BY_NAME.get(name)
    if found is not None:
        return found
    return next((c for c in COLUMNS if "{year}" in c.name and c.matches(name)), None)


def _of(file: str) -> tuple[str, ...]:
    return tuple(c.name for c in COLUMNS if file in c.files)


CSV_COLUMNS: tuple[str, ...] = _of(CSV)
"""results.csv's columns, in order (a column the run does not produce, such as roe_period, is left out);
results.parquet's too."""
NESTED_COLUMNS: dict[str, str] = {"rules_fired": "rules_fired_list"}
"""Columns results.jsonl and results.parquet take, under the contract's name, from another column of the
run's frames (the nested form beside results.csv's text)."""
EMPTY_CSV_COLUMNS: tuple[str, ...] = tuple(c for c in CSV_COLUMNS if not BY_NAME[c].optional)
"""The header of a results.csv with no row."""
VERDICT_COLUMNS: tuple[str, ...] = (
    "row",
    "code",
    "name",
    "industry",
    "risk_level",
    "score",
    "pe_ttm",
    "roe",
    "flags",
    "status",
    "reason",
)
"""What the history keeps of every row (the columns whose files include HISTORY), in the order its parts
have always stored them: enough for `lmscreen diff`, the charts and the changes section."""
SPARSE_JSONL_COLUMNS: tuple[str, ...] = tuple(c.name for c in COLUMNS if c.sparse)
"""Columns results.jsonl leaves out when no row of the run has a value (Column.sparse). The caller
decides, before the first chunk is written (ResultWriter's `drop_from_jsonl`)."""
LLM_COLUMN_NAMES: tuple[str, ...] = (
    "reason",
    "reason_source",
    "flags",
    "diagnostics",
    "status",
    "revenue_yuan",
    "net_profit_yuan",
    "gross_margin_pct",
    "roe_extracted_pct",
    "pe_extracted",
    "prompt_tokens",
    "completion_tokens",
)
"""The flat columns the LLM step adds, in the order it adds them (the `llm` detail comes after)."""
TEXT_VERDICT_COLUMNS: tuple[str, ...] = tuple(c for c in VERDICT_COLUMNS if BY_NAME[c].dtype == "String")

DIFF_COLUMNS: tuple[str, ...] = ("code", "name", "risk_level", "score", "pe_ttm", "roe")
"""What `lmscreen diff` and the reports' changes compare and show (rows matched by code)."""
CHART_COLUMNS: tuple[str, ...] = ("risk_level", "score", "industry", "pe_ttm", "roe")
"""What the report's four charts aggregate."""
WORST_ROW_FIELDS: tuple[str, ...] = (
    "code",
    "name",
    "industry",
    "score",
    "pe_ttm",
    "roe",
    "rules_fired",
    "reason",
)
"""The fields report.md lists for each row at the run's worst level, in its table's order."""

FACTS = "facts.jsonl"
"""One line per fact read from a row's filing (task/facts.py), in row order: FACT_FIELDS."""
FACT_FIELDS: dict[str, str] = {
    "code": "the row's stock code",
    "document": "the filing: its file name, or `inline` for the pool's report_text cell",
    "metric": "revenue, net_profit, net_profit_deducted, gross_margin, net_margin, roe, roe_deducted, eps, "
    "pe_ttm, pe_dynamic, pe_static, pe_forward, operating_cash_flow",
    "period": "FY2024, 2024H1, 2024Q1-Q3 (nine months), 2024Q3 (the quarter alone), 2025E (a forecast), "
    "TTM, or null when the filing names no year",
    "scope": "company, segment, industry or parent (the parent company's own statements)",
    "segment": "the segment, market or business named (null for the company)",
    "basis": "actual, forecast, prior (the comparison period) or growth (a change rate, percent)",
    "value": "in base units: yuan, percent, times, yuan per share",
    "unit": "as printed (亿元, 万元, 元, %, 倍, 元/股) or as its table or list gave it",
    "label": "the label the number was printed after, or its table row's",
    "source": "table, label, list, derived (from other facts: see derivation) or model",
    "approx": "printed as an approximation (约, 左右)",
    "evidence": "{start, end, text, page}: the printed number's span in the filing's text (a PDF's extracted "
    "text, a text file's whole text) and its page",
}
"""facts.jsonl's keys, in order, and what each means (a derived fact adds `derivation`: formula, inputs)."""

TRENDS = "trends.csv"
"""compare: one row per industry x metric x period (TRENDS_COLUMNS)."""
TRENDS_COLUMNS: dict[str, str] = {
    "industry": "the industry (the pool's industry column, or --industries)",
    "metric": "gross_margin_pct, net_margin_pct, roe_pct, revenue_growth_pct, net_profit_growth_pct, "
    "revenue_yuan or net_profit_yuan",
    "period": "FY2023, 2024H1, 2024Q3, 2025E (a forecast): the shared vocabulary",
    "median": "median of the companies' values (empty: no company states the period)",
    "mean": "their mean",
    "min": "the smallest company value",
    "max": "the largest company value",
    "n": "companies with a value (a conflicting company is not counted)",
    "codes": "their codes, `;`-separated",
    "stated": "the value an industry report states for this industry and period, if any",
    "stated_document": "the report stating it",
    "stated_page": "its page",
    "flags": "missing (no company), n<2, conflict:<code>, stated_conflict, forecast",
}
SERIES = "series.csv"
"""compare: one row per company x metric x period (SERIES_COLUMNS)."""
SERIES_COLUMNS: dict[str, str] = {
    "code": "the company's code (from its document's file name)",
    "name": "its name",
    "industry": "its industry",
    "metric": "as in trends.csv",
    "period": "as in trends.csv",
    "value": "the value its documents print (empty on a conflict)",
    "status": "ok, or conflict (its documents print different values: see values)",
    "values": "the conflicting values, `;`-separated",
    "basis": "actual (the period's own report), prior (a later report's comparison column), growth, forecast",
    "document": "the document(s) it is printed in",
    "page": "the page (PDFs)",
    "evidence": "the sentence or table row it is printed in",
}

DETAIL_JSON = "_llm_json"
"""Internal, never written under this name: each answered row's `llm` detail as JSON text, which the
results.jsonl writer puts in as the line's last key, `llm` (results.csv leaves it out)."""


def dtype(name: str) -> pl.DataType:
    """A column's polars dtype (String, Int64, ...)."""
    import polars as pl

    entry = column(name)
    if entry is None:
        raise KeyError(f"{name!r} is not an output column")
    if entry.dtype == "Object":
        raise KeyError(f"{name!r} is a nested JSON object, not a polars column")
    return getattr(pl, entry.dtype)()


def parquet_dtype(name: str, levels: list[str] | None = None) -> pl.DataType:
    """A column's polars dtype in results.parquet; `levels`: the rules' level names, most severe first
    (without them the level stays String)."""
    import polars as pl

    entry = column(name)
    if entry is None or entry.typed is None:
        return dtype(name)
    if entry.typed == "Enum":
        return pl.Enum(levels) if levels else pl.String()
    return fired_dtype()


def fired_dtype() -> pl.DataType:
    """The nested `rules_fired`'s dtype, as the rules build it (rules.fired_list.FIRED_LIST; a test holds
    the two equal: outputs/ and rules/ are sibling layers and import nothing of each other)."""
    import polars as pl

    return pl.List(
        pl.Struct(
            {
                "rule": pl.Categorical(),
                "field": pl.Categorical(),
                "threshold": pl.Float64(),
                "value": pl.String(),
            }
        )
    )


def __getattr__(attr: str) -> Any:
    """`LLM_COLUMNS`: {name: polars dtype} of LLM_COLUMN_NAMES, built on first use (polars imported then)."""
    if attr == "LLM_COLUMNS":
        value = {name: dtype(name) for name in LLM_COLUMN_NAMES}
        globals()[attr] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {attr!r}")


def _check() -> None:
    """The named views only name columns of the contract, with files that carry them."""
    for name in (*LLM_COLUMN_NAMES, *DIFF_COLUMNS, *CHART_COLUMNS, *WORST_ROW_FIELDS):
        assert name in BY_NAME, name
    for name in (*DIFF_COLUMNS, *CHART_COLUMNS):
        assert HISTORY in BY_NAME[name].files, name
    assert set(VERDICT_COLUMNS) == set(_of(HISTORY)), "VERDICT_COLUMNS are the columns the history carries"
    assert _of(PARQUET) == CSV_COLUMNS, "results.parquet carries results.csv's columns"


_check()
