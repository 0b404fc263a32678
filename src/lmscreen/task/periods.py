"""Which reporting period a printed figure belongs to, read from the words around it.

Why: the same report prints this year's figure beside last year's (`上年同期盈利107.51亿元`), a forecast
(`预计2025-2027年…`) and sub-periods (`第四季度`, `上半年`). A figure is only the row's figure if it is for
the report's own period, so each candidate carries the period the text gives it: `2024年` → FY2024,
`上半年` → 2024H1, `前三季度` / `1-9月` → 2024Q1-Q3, `第三季度` → 2024Q3, a table's column header, or (when
nothing is said) the document's period. Periods are `lmscreen.periods.Period`, labelled in the one
vocabulary every output uses (FY2024, 2024H1, 2024Q3 the quarter alone, 2024Q1-Q3 the nine months).
"""

from __future__ import annotations

import re

from lmscreen.periods import FULL_YEAR, NINE_MONTHS, SOME_QUARTER, YEAR_ONLY, Period

__all__ = ["Period", "document_period", "periods_in", "same_period"]

_YEAR = r"(?<![0-9.,])(?P<year>20[0-9]{2})(?![0-9.,][0-9])"
_PERIOD_RE = re.compile(
    r"(?:FY\s?(?P<fy>20[0-9]{2}|[0-9]{2})(?![0-9]))"
    r"|(?:(?P<h1e>[12])H\s?(?P<h1y>20[0-9]{2}|[0-9]{2})(?![0-9]))"
    r"|(?:H(?P<h1f>[12])\s?(?P<h1fy>20[0-9]{2}))"
    r"|(?:(?P<qn>[1-4])Q\s?(?P<qy>20[0-9]{2}|[0-9]{2})(?![0-9]))"
    r"|(?:"
    + _YEAR
    + r"\s?年?\s?(?:度)?(?P<sub>上半年|半年度|中期|前三季度|1-9月|1至9月|第?[一二三四1-4]季度|全年|年度)?)"
    r"|(?P<bare>上半年|半年度|前三季度|1-9月|1至9月|第[一二三四1-4]季度|[一二三四]季度|单季度?|全年)"
    r"|(?<![A-Za-z0-9])(?P<bareq>Q[1-4])(?![A-Za-z0-9-])"
)
_QUARTER = {"一": 1, "二": 2, "三": 3, "四": 4, "1": 1, "2": 2, "3": 3, "4": 4}
_TITLE_RE = re.compile(
    r"20[0-9]{2}\s?年?\s?(?:度)?\s?(?:第?[一二三四1-4]季度|上半年|半年度|中期|前三季度|年度|年)?\s?"
    r"(?:报告摘要|年度报告|半年度报告|季度报告|报告|业绩快报|业绩预告|年报|半年报|季报|业绩公告|业绩)"
)
"""`2025年第一季度报告`, `2024年度业绩快报`: a period right before a report word names the document."""
_DOC_HINT_RE = re.compile(r"报告|快报|预告|摘要|业绩|results|report|季报|年报|点评|简评")


def _year(text: str | None) -> int | None:
    if not text:
        return None
    value = int(text)
    return value + 2000 if value < 100 else value


def _sub(word: str | None) -> str:
    if not word:
        return YEAR_ONLY
    if word in ("上半年", "半年度", "中期"):
        return "H1"
    if word in ("前三季度", "1-9月", "1至9月"):
        return NINE_MONTHS
    if word in ("单季", "单季度"):
        return SOME_QUARTER
    if word.endswith("季度"):
        digit = word.replace("第", "").replace("季度", "")
        return f"Q{_QUARTER.get(digit, 0)}" if digit in _QUARTER else YEAR_ONLY
    return FULL_YEAR


def _from_match(m: re.Match[str]) -> Period:
    if m.group("fy"):
        return Period(_year(m.group("fy")), FULL_YEAR)
    if m.group("h1y"):
        return Period(_year(m.group("h1y")), f"H{m.group('h1e')}")
    if m.group("h1fy"):
        return Period(_year(m.group("h1fy")), f"H{m.group('h1f')}")
    if m.group("qy"):
        return Period(_year(m.group("qy")), f"Q{m.group('qn')}")
    if m.group("bareq"):
        return Period(None, m.group("bareq"))
    if m.group("year"):
        return Period(_year(m.group("year")), _sub(m.group("sub")))
    return Period(None, _sub(m.group("bare")))


def periods_in(text: str) -> list[tuple[int, int, Period]]:
    """Every period expression in `text` (folded), as (start, end, Period)."""
    return [(m.start(), m.end(), _from_match(m)) for m in _PERIOD_RE.finditer(text)]


_periods_in = periods_in


def document_period(folded: str, forecast: re.Pattern[str] | None = None) -> Period | None:
    """The report's own period: the first period named in its opening line or sentence.

    A research note (`公司发布2024年年报…预计2025-2027年…`) names its actual year first; a quarterly report
    names its quarter in the title. A period in a sentence that forecasts (`forecast` matches the 40
    characters before it) is never the report's own.
    """

    def periods_in(text: str) -> list[tuple[int, int, Period]]:
        found = _periods_in(text)
        if forecast is None:
            return found
        kept = []
        for a, b, p in found:
            window = text[max(0, a - 40) : a]
            cut = max(window.rfind(ch) for ch in "。；;\n")
            if not forecast.search(window[cut + 1 :]):
                kept.append((a, b, p))
        return kept

    titled = _TITLE_RE.search(folded[:400])
    if titled is not None:
        found_title = [p for _, _, p in periods_in(titled.group(0)) if p.year is not None]
        if found_title:
            return Period(found_title[-1].year, found_title[-1].sub or FULL_YEAR)
    head_end = len(folded)
    for stop in ("\n", "。"):
        idx = folded.find(stop, 0, 200)
        if idx > 0:
            head_end = min(head_end, idx)
    head = folded[: max(head_end, 0) or 200]
    found = [p for _, _, p in periods_in(head) if p.year is not None]
    if not found and _DOC_HINT_RE.search(folded[:200]) is None:
        found = [p for _, _, p in periods_in(folded[:400]) if p.year is not None]
    if not found:
        found = [p for _, _, p in periods_in(folded[:400]) if p.year is not None]
    if not found:
        return None
    first = found[0]
    # `2024年年度报告` reads as FY; a sub-period named right after the year wins (`2024年第三季度报告`)
    return Period(first.year, first.sub or FULL_YEAR)


def same_period(found: Period, doc: Period | None) -> bool:
    """Whether a period stated beside a figure is the document's own (unknown parts agree with anything)."""
    if doc is None:
        return True
    if found.year is not None and doc.year is not None and found.year != doc.year:
        return False
    if found.sub and doc.sub and found.sub != doc.sub:
        # a year-to-date figure in a quarterly report is the report's too (三季报: 年初至报告期末)
        return {found.sub, doc.sub} == {"Q3", NINE_MONTHS} or {found.sub, doc.sub} == {FULL_YEAR, YEAR_ONLY}
    return True
