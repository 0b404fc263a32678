"""Map a pool file's headers to canonical fields by alias.

Broker exports spell one field a dozen ways (市盈率(TTM), 市盈率-TTM, PE-TTM, pe_ttm, ＰＥ（ＴＴＭ）,
`市盈率(TTM)(倍) 2026.05.08`). Folding width and case, cutting the dates screeners append, unit markers and
punctuation leaves one key per meaning, so the alias table below stays short and readable.

PE measures other than TTM (市盈率(动) annualises one quarter, 市盈率(静) uses the last annual report) are
never taken as pe_ttm: when they are the only PE column, pe_ttm stays empty and a warning says why.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from lmscreen.pool.text import nfkc

# Canonical field -> aliases, best first. Written as users write them; matching uses `header_key`.
FIELD_ALIASES: dict[str, tuple[str, ...]] = {
    "code": (
        "代码",
        "证券代码",
        "股票代码",
        "A股代码",
        "ts_code",
        "symbol",
        "code",
        "stock_code",
        "sec_code",
        "secucode",
        "ticker",
        "thscode",
        "wind_code",
    ),
    "name": (
        "名称",
        "证券简称",
        "股票简称",
        "证券名称",
        "股票名称",
        "简称",
        "name",
        "stock_name",
        "sec_name",
    ),
    "industry": (
        "所属行业",
        "行业",
        "所处行业",
        "细分行业",
        "行业名称",
        "所属同花顺行业",
        "所属申万行业",
        "industry",
        "industry_name",
        "sector",
    ),
    "pe_ttm": (
        "市盈率TTM",
        "市盈率(TTM)",
        "市盈率-TTM",
        "市盈(TTM)",
        "TTM市盈率",
        "滚动市盈率",
        "市盈率(滚动)",
        "PE-TTM",
        "PE(TTM)",
        "pe_ttm",
    ),
    "roe": (
        "净资产收益率",
        "净资产收益率(%)",
        "加权净资产收益率",
        "净资产收益率-加权",
        "加权平均净资产收益率",
        "净资产收益率(加权)",
        "ROE",
        "ROE(%)",
        "ROE(加权)",
        "roe_weighted",
        "roe_avg",
    ),
    "eps": ("每股收益", "基本每股收益", "每股收益(元)", "每股收益TTM", "EPS", "basic_eps", "eps_ttm"),
    "report_text": ("财报摘要", "年报摘要", "报告摘要", "摘要", "report_text", "summary"),
    # 东方财富 条件选股 exports an explicit 是/否 column; it complements the name prefix.
    "st_flag": ("ST股票", "是否ST", "is_st"),
    # The period the ROE (and other report figures) belong to: a period end (2025-06-30) ...
    "report_period": ("报告期", "报告日期", "截止日期", "报告期末", "end_date", "report_date"),
    # ... or, when that is all there is, the date the report was published (akshare 业绩报表).
    "announce_date": ("最新公告日期", "公告日期", "ann_date"),
}

# Dates screeners append to headers: `… 2026.05.08`, `…[20260508]`, `截至2026.05.08最新`, ranges.
_DATE = r"\d{4}[.\-/年]\d{1,2}[.\-/月]\d{1,2}日?"
_DATE_PATTERNS = (
    re.compile(rf"截至\s*{_DATE}\s*(?:最新)?"),
    re.compile(rf"{_DATE}\s*(?:-|~|至|到)\s*{_DATE}"),
    re.compile(r"[\[(]\s*(?:\d{8}|(?:19|20)\d{2}(?:0[1-9]|1[0-2])|" + _DATE + r")\s*[\])]"),
    re.compile(_DATE),
    re.compile(r"(?<=\s)\d{8}\s*$"),
)
_UNIT_MARKERS = re.compile(r"\((?:倍|元|亿元|万元|亿|万|%|元/股)\)|%")
_PUNCT = re.compile(r"[\s()\[\]【】{}<>《》\-_/\\·.:：、,，'\"—]+")

# PE columns that are not TTM, by basis: 市盈率(动), 市盈率-动态, 动态市盈率 (latest quarter annualised);
# 市盈率(静), 静态市盈率, PE-LYR (last annual report); 市盈率, PE, tushare `pe` (basis not stated).
_OTHER_PE = re.compile(r"^(动态|静态)?(?:市盈率?|pe)(动|动态|静|静态|lyr)?$")
PE_BASES = ("ttm", "dynamic", "static", "unstated")
"""Preference order when a file has several PE columns."""
PE_BASIS_TEXT = {
    "ttm": "PE-TTM (trailing four quarters)",
    "dynamic": "dynamic PE (latest quarter's profit annualised)",
    "static": "static PE (last annual report's profit)",
    "unstated": "PE whose profit period the file does not state",
}

_PROFIT = r"(?:归母净利润|净利润|netprofit)"
_YEAR = r"((?:19|20)\d{2})"
_NET_PROFIT = (
    re.compile(rf"^{_PROFIT}{_YEAR}(?:年度?|年报)?$"),
    re.compile(rf"^{_YEAR}(?:年度?|年报)?{_PROFIT}$"),
)


def split_header_dates(header: str) -> tuple[str, str | None]:
    """Return the NFKC-folded header without appended dates, and the dates cut (joined), if any."""
    text = nfkc(header).strip()
    found: list[str] = []
    for pattern in _DATE_PATTERNS:
        found.extend(m.group(0).strip() for m in pattern.finditer(text))
        text = pattern.sub(" ", text)
    return text.strip(), (" ".join(found) if found else None)


def header_key(header: str) -> str:
    """Squash a header to its matching key: width, case, dates, units and punctuation folded away."""
    text, _ = split_header_dates(header)
    return _PUNCT.sub("", _UNIT_MARKERS.sub("", text.lower()))


_KEY_TO_FIELD: dict[str, tuple[str, int]] = {}
for _field, _aliases in FIELD_ALIASES.items():
    for _rank, _alias in enumerate(_aliases):
        _KEY_TO_FIELD.setdefault(header_key(_alias), (_field, _rank))


def is_code_header(cells: list[str]) -> bool:
    """True when one of `cells` names the code column: how the reader finds the header line."""
    return any(_KEY_TO_FIELD.get(header_key(c), ("", 0))[0] == "code" for c in cells if c)


def code_aliases_hint(limit: int = 6) -> str:
    """The first code aliases, for the one-line "no code column" error."""
    return ", ".join(FIELD_ALIASES["code"][:limit]) + ", …"


def net_profit_year(key: str) -> int | None:
    """The year of a net-profit history header key (`净利润2023`, `netprofit2023`, `2023年净利润`)."""
    for pattern in _NET_PROFIT:
        match = pattern.match(key)
        if match:
            return int(match.group(1))
    return None


def pe_basis(key: str) -> str | None:
    """Basis of a non-TTM PE header key (`市盈率动态` -> dynamic), or None when the key is not a PE."""
    found = _OTHER_PE.match(key)
    if found is None:
        return None
    marks = (found.group(1) or "") + (found.group(2) or "")
    if "动" in marks:
        return "dynamic"
    if "静" in marks or "lyr" in marks:
        return "static"
    return "unstated"


@dataclass
class ColumnMatch:
    """Which header index feeds each canonical field, plus what the user should know about the match.

    `pe_basis` says what the pe_ttm column really holds (PE_BASES); `pe_note` is the sentence the console
    and run.json show when it is not TTM. `header_periods` keeps the report period a header names
    (`净资产收益率(201806)`, `roe[20210930]`) per field, as the date text cut from the header.
    """

    fields: dict[str, int] = field(default_factory=dict)
    net_profit: dict[int, int] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    header_dates: dict[str, str] = field(default_factory=dict)
    pe_basis: str | None = None
    pe_note: str | None = None


_PROFIT_KEY = re.compile(rf"^{_PROFIT}$")


def resolve_columns(headers: list[str]) -> ColumnMatch:
    """Match `headers` to canonical fields: best-ranked alias wins, ties go to the leftmost column.

    PE: a TTM column wins; without one, the best other basis is used (dynamic, then static, then unstated)
    and `pe_note` says that it is not PE-TTM.
    """
    match = ColumnMatch()
    candidates: dict[str, list[tuple[int, int]]] = {}
    other_pe: list[tuple[int, int, str]] = []  # (basis rank, index, basis)
    for index, header in enumerate(headers):
        if not header or not header.strip():
            continue
        key = header_key(header)
        hit = _KEY_TO_FIELD.get(key)
        year = net_profit_year(key) or _profit_year_from_header_date(key, header)
        basis = pe_basis(key)
        if hit is not None:
            candidates.setdefault(hit[0], []).append((hit[1], index))
        elif year is not None:
            candidates.setdefault(f"net_profit_{year}", []).append((0, index))
        elif basis is not None:
            other_pe.append((PE_BASES.index(basis), index, basis))
    for name, found in candidates.items():
        _, chosen = min(found)
        if len(found) > 1:
            others = ", ".join(repr(headers[i]) for _, i in sorted(found) if i != chosen)
            match.warnings.append(f"{others} also look(s) like {name}; using {headers[chosen]!r}")
        if name.startswith("net_profit_"):
            match.net_profit[int(name.removeprefix("net_profit_"))] = chosen
        else:
            match.fields[name] = chosen
    if "pe_ttm" in match.fields:
        match.pe_basis = "ttm"
        if other_pe:
            unused = ", ".join(repr(headers[i]) for _, i, _ in sorted(other_pe))
            match.warnings.append(f"PE-TTM taken from {headers[match.fields['pe_ttm']]!r}; {unused} not used")
    elif other_pe:
        _, index, basis = min(other_pe)
        match.fields["pe_ttm"] = index
        match.pe_basis = basis
        match.pe_note = (
            f"PE taken from {headers[index]!r}: {PE_BASIS_TEXT[basis]}, not PE-TTM; "
            "the PE rules compare it as given (no TTM column in the file)"
        )
        unused = [repr(headers[i]) for _, i, _ in sorted(other_pe) if i != index]
        if unused:
            match.warnings.append(f"{', '.join(unused)} also look(s) like PE; using {headers[index]!r}")
    chosen_columns = [*match.fields.items(), *((f"net_profit_{y}", i) for y, i in match.net_profit.items())]
    for name, index in chosen_columns:
        _, dates = split_header_dates(headers[index])
        if dates:
            match.header_dates[name] = dates
    return match


def _profit_year_from_header_date(key: str, header: str) -> int | None:
    """`净利润(201712)` / `净利润[20171231]`: a full-year net profit whose year is in the header's date.

    A profit header dated to another month (201806) is a partial year: it is not history for the
    two-year-loss rule, so it is not matched.
    """
    if not _PROFIT_KEY.match(key):
        return None
    _, dates = split_header_dates(header)
    digits = re.sub(r"\D", "", dates or "")
    if len(digits) in (6, 8) and digits[4:6] == "12":
        return int(digits[:4])
    return None
