"""Periods as real filings print them, and the document's own (main) period they are resolved against.

Why a second reader beside task/periods.py: research notes and announcements name periods in a dozen
shapes the old reader did not know: `1H20`, `21H1`, `2Q20`, `2020Q1` (the quarter, not the year 2020),
`19Q3单季`, `2季度`, `Q2单季度`, `单季度` (the last quarter of the report's period), `本报告期` (in a
third-quarter report: the quarter alone), `年初至报告期末`, `下半年`, `1-9月`, and they name the document by
its kind (`发布2021年半年报`, `披露三季报`, `2019年报`, `业绩快报`). A date (`2021年3月9日`) is no period, a
forecast year (`2025E`, `预计2025年`) is a forecast, and a span of years (`2025-2027年`) is a list.

Every expression is read into `lmscreen`'s one period vocabulary (task/periods.py `Period`: `FY2024`,
`2024H1`, `2024Q1-Q3` nine months cumulative, `2024Q3` the quarter alone, `2025E` a forecast), then
resolved against the main period: a missing year is the main period's, `单季度` is its last quarter.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from lmscreen.periods import SOME_MONTHS
from lmscreen.task.periods import Period

_QN = {"一": 1, "二": 2, "三": 3, "四": 4, "1": 1, "2": 2, "3": 3, "4": 4}
_Y4 = r"20[0-9]{2}"
_Y = r"(?:20[0-9]{2}|[0-9]{2})"
_SUB_CN = (
    r"第?[一二三四1-4]季度(?:单季度?)?|单[一二三四1-4]季度?|[一二三四]季报|[一二三]季报|上半年|下半年|半年度|半年报"
    r"|中期|中报|前[三3]季度?|前[二两2]季度|三季报|一季报|全年|年度|年报|年末|年底|年初"
)
_MONTH_FIGURE = (
    r"(?:单月|当月)?\s?(?:公司)?\s?(?:实现)?\s?(?:合并)?\s?"
    r"(?:营业总收入|营业收入|营收|收入|归母净利润?|净利润|销售额)"
)
"""What a single month's figure is (`3月营收`, `12月合并营收`, `2021年12月合并营业收入`)."""

_PATTERNS = [
    (
        "ended",
        rf"(?:截至|截止)\s?(?P<ed_y>{_Y4})\s?年\s?(?P<ed_m>[01]?[0-9])\s?月\s?[0-3]?[0-9]\s?日\s?止\s?的?\s?"
        r"(?P<ed_w>年度|财政年度|十二个月|12个月|六个月|6个月|九个月|9个月|三个月|3个月)",
    ),
    (
        "ymonth",
        rf"(?<![0-9])(?P<ym_y>{_Y4})\s?年\s?(?:1[0-2]|[1-9])\s?月(?:份)?(?=\s?{_MONTH_FIGURE})",
    ),
    (
        "date",
        rf"(?<![0-9])(?P<d_y>{_Y4})\s?年\s?(?:[01]?[0-9])\s?月(?:\s?[0-3]?[0-9]\s?日|末|底|初|中旬|上旬|下旬)?"
        r"(?!\s?[-至~到]\s?[0-9])",
    ),
    ("months", rf"(?<![0-9])(?P<m_y>{_Y4})?\s?年?\s?(?:度)?\s?1\s?[-至~到]\s?(?P<m_n>3|6|9|12)\s?月(?:份)?"),
    (
        "first",
        rf"(?:(?P<f_y>{_Y4})\s?年\s?)?(?<![提此之以目日当市行期满])前\s?(?P<f_n>[369三六九])\s?个?\s?月(?:份)?(?![0-9])",
    ),
    (
        "mspan",
        rf"(?<![0-9.])(?:(?P<ms_y>{_Y4})\s?年\s?)?(?P<ms_a>1[0-2]|[1-9])\s?[-至~到]\s?(?P<ms_b>1[0-2]|[1-9])\s?月(?:份)?",
    ),
    (
        "month",
        rf"(?:(?<![0-9年.\-~至到/])(?:1[0-2]|[1-9])\s?月(?:份)?|(?<![0-9月份])[当单]月)(?=\s?{_MONTH_FIGURE})",
    ),
    (
        "range",
        rf"(?<![0-9.])(?P<r_a>{_Y4})\s?(?:[-~至到/、―—]|年\s?[-~至到―—])\s?(?P<r_b>{_Y4}|[0-9]{{2}})(?!\s?年?\s?[0-9]{{1,2}}\s?(?:[-~至到]\s?[0-9]{{1,2}}\s?)?月)"
        r"(?![HQ][1-4])"  # `2019/2020H1`: a year, then a half glued to its year, no span of years
        r"\s?年?(?P<r_e>[EF])?(?![0-9])",
    ),
    ("fy", rf"FY\s?(?P<fy_y>{_Y})(?![0-9])|(?<![0-9.A-Za-z])(?P<fy_y2>{_Y})\s?FY(?![A-Za-z0-9])"),
    ("est", rf"(?<![0-9.])(?P<e_y>{_Y4})\s?年?\s?[EF](?![A-Za-z])"),
    ("h_a", rf"(?<![0-9A-Za-z])(?P<ha_n>[12])H\s?(?P<ha_y>{_Y})(?![0-9])"),
    ("h_b", rf"(?<![0-9.])(?P<hb_y>{_Y})\s?H(?P<hb_n>[12])(?![0-9])"),
    ("h_c", rf"(?<![A-Za-z])H(?P<hc_n>[12])\s?(?P<hc_y>{_Y4})(?![0-9])"),
    (
        "nine",
        rf"(?<![0-9.])(?:(?P<n_y>{_Y})\s?年?\s?)?Q1\s?[-~～至到]\s?Q?3(?![0-9])|(?<![0-9])1\s?[-~～至]\s?3\s?季度"
        rf"|(?<![0-9.])1\s?[-~～至]\s?3Q(?:\s?(?P<n_y2>{_Y})(?![0-9])|(?![0-9A-Za-z]))",
    ),
    ("half", rf"(?<![0-9.])(?:(?P<hq_y>{_Y})\s?年?\s?)?Q1\s?[-~～至到]\s?Q?2(?![0-9])"),
    ("nm", rf"(?<![0-9A-Za-z])(?P<nm_n>3|6|9|12)M\s?(?P<nm_y>{_Y})(?![0-9])"),
    ("q_a", rf"(?<![0-9A-Za-z])(?P<qa_n>[1-4])Q\s?(?P<qa_y>{_Y})(?![0-9])"),
    ("q_b", rf"(?<![0-9.])(?P<qb_y>{_Y})\s?Q(?P<qb_n>[1-4])(?![0-9])(?:\s?单季度?)?"),
    ("q_c", rf"(?<![A-Za-z])Q(?P<qc_n>[1-4])\s?(?P<qc_y>{_Y4})(?![0-9])"),
    (
        "year",
        rf"(?<![0-9.,])(?P<y>{_Y4})(?![0-9.,%])(?!\s?(?:亿|万|元|%|倍|个|家|人|吨|台|辆|只|户|股))(?!\s?年初至)"
        r"(?![-‐－][A-Za-z])"  # `2019-nCoV`: a name with a year in it
        rf"\s?年?\s?(?:度)?\s?(?:(?P<y_sub>{_SUB_CN})|(?P<y_q>[QH][1-4](?![0-9])))?",
    ),
    (
        "yy",
        r"(?<![0-9.])(?<!近)(?<!第)(?<!每)(?<!约)(?<!约为)(?<!超)(?<!逾)(?P<yy_y>[12][0-9])\s?年(?!以|内|来|间|前|后|期|左右|多|龄|[0-9])"
        rf"\s?(?:(?P<yy_sub>{_SUB_CN})|(?P<yy_q>[QH][1-4](?![0-9])))?",
    ),
    (
        "bare",
        r"(?P<b>(?:20[0-9]{2}\s?)?年初至本?报告期末|年初至今|前[三3]季度?|前[二两2]季度|上半年|下半年|半年度|本报告期|报告期内|全年"
        r"|第[一二三四1-4]季度|第[一二三四1-4]季(?=公司|实现|单季|营收|收入|归母|净利|毛利)"
        r"|[一二三四1-4]季度(?:单季度?)?|单[一二三四1-4]季度?|单季度?|三季报|一季报|半年报|中报)",
    ),
    ("bare_q", r"(?<![A-Za-z0-9])(?P<bq>Q[1-4])(?:\s?单季度?)?(?![A-Za-z0-9])"),
    ("bare_qn", r"(?<![A-Za-z0-9])(?P<bqn>[1-4])Q(?![A-Za-z0-9])"),
]
_PERIOD_RE = re.compile("|".join(f"(?P<{name}>{body})" for name, body in _PATTERNS))

_AS_OF_RE = re.compile(r"(?:截至|截止|截止到|截至到)\s?$")
_TO_END = {"Q1": "Q1", "Q2": "H1", "Q3": "Q1-Q3", "Q4": "FY"}
_REPORT_AFTER_RE = re.compile(r"\s?(?:报告|季报|报告摘要|报(?![价表道]))")
_RESULTS_AFTER_RE = re.compile(r"\s?业绩(?:[:：，,。]|$)")
_PUBLISH_BEFORE_RE = re.compile(r"(?:发布|公布|披露|公告)(?:了|的)?\s?$")
"""`公司公布3Q19业绩：`: the results a third-quarter report publishes are its nine months'."""
CURRENT = "current"
"""`本报告期`: the main period, except in a third-quarter report, where it is the quarter alone."""
TO_DATE = "to_date"
"""`年初至报告期末`: the main period, cumulative."""
WITHIN = "within"
"""`报告期内`: the main period."""
LAST_QUARTER = "Q"
"""`单季度`: one quarter, its number not said: the last quarter of the main period."""


@dataclass(frozen=True)
class PeriodMention:
    start: int
    end: int
    period: Period | None
    """None for a date or a span of years (neither is one period)."""
    kind: str
    """`period`, `forecast`, `date`, `range`, or one of the relative words (`current`, `to_date`,
    `within`)."""
    years: tuple[int, ...] = ()
    """The years of a span (`2025-2027年`), for a list of forecasts."""


def _year(text: str | None) -> int | None:
    if not text:
        return None
    value = int(text)
    return value + 2000 if value < 100 else value


def _sub_cn(word: str | None) -> str:
    """The vocabulary's sub-period for a Chinese period word."""
    if not word:
        return ""
    if word in ("上半年", "半年度", "半年报", "中期", "中报", "前二季度", "前两季度", "前2季度"):
        return "H1"  # `2020年前二季度`: the first two quarters, the half
    if word == "下半年":
        return "H2"
    if word in ("前三季度", "前三季", "三季报", "前3季度", "前3季"):  # `前三季实现营业收入…`: 度 left out
        return "Q1-Q3"
    if word == "一季报":
        return "Q1"
    if word in ("全年", "年度", "年报", "年末", "年底", "年初"):
        return "FY"
    digit = re.search(r"[一二三四1-4]", word)
    if "季" in word:
        return f"Q{_QN[digit.group(0)]}" if digit else LAST_QUARTER
    return ""


def _ended(year: int, month: int, span: str) -> Period | None:
    """`截至2025年12月31日止年度` (a Hong Kong filing's year), `截至2023年6月30日止六个月`: the period that
    ends on that date; a part-year span is named only where it is a calendar one."""
    if span in ("年度", "财政年度", "十二个月", "12个月"):
        return Period(year, "FY")
    months = {"六个月": 6, "6个月": 6, "九个月": 9, "9个月": 9, "三个月": 3, "3个月": 3}[span]
    sub = {(6, 6): "H1", (9, 9): "Q1-Q3", (3, 3): "Q1", (3, 6): "Q2", (3, 9): "Q3", (3, 12): "Q4"}.get(
        (months, month)
    )
    return Period(year, sub) if sub else None


_FROM_JANUARY = {"3": "Q1", "6": "H1", "9": "Q1-Q3", "12": "FY"}
"""The months from January to the month named (`1-9月`, `9M20`): the cumulative period they are."""

_CN_DIGIT = {"三": "3", "六": "6", "九": "9"}
"""`前九个月`: the month counts a `前N个月` may spell in words, as the digits `_FROM_JANUARY` takes."""

_MONTH_SPANS = {(4, 6): "Q2", (7, 9): "Q3", (10, 12): "Q4", (7, 12): "H2"}
"""Spans of months that are a quarter or a half alone (`1-3月`, `1-6月`, `1-9月`, `1-12月` are `months`)."""


def _read(m: re.Match[str]) -> PeriodMention:
    kind = m.lastgroup or ""
    g = m.group
    s, e = m.start(), m.end()
    if kind == "date":
        return PeriodMention(s, e, None, "date")
    if kind == "nm":  # `9M20`: the first nine months of 2020
        sub = _FROM_JANUARY[g("nm_n")]
        return PeriodMention(s, e, Period(_year(g("nm_y")), sub), "period")
    if kind == "ended":
        ended = _ended(int(g("ed_y")), int(g("ed_m")), g("ed_w"))
        return PeriodMention(s, e, ended, "period" if ended is not None else "date")
    if kind == "months":
        sub = _FROM_JANUARY[g("m_n")]
        return PeriodMention(s, e, Period(_year(g("m_y")), sub), "period")
    if kind == "first":  # `前9个月营收5.73亿元`: the months from January, as `1-9月`
        sub = _FROM_JANUARY[_CN_DIGIT.get(g("f_n"), g("f_n"))]
        return PeriodMention(s, e, Period(_year(g("f_y")), sub), "period")
    if kind == "ymonth":  # `公司2021年12月合并营业收入约45.48亿元`: one month's, dated
        return PeriodMention(s, e, Period(_year(g("ym_y")), SOME_MONTHS), "months")
    if kind == "month":  # `3月营收约36.82亿元`, `；当月实现营业收入170.81亿元`: one month's, no report's
        return PeriodMention(s, e, Period(None, SOME_MONTHS), "months")
    if kind == "mspan":
        # `2021年7-9月` is the third quarter; `2022年1至2月` no reporting period, its figures no report's
        sub = _MONTH_SPANS.get((int(g("ms_a")), int(g("ms_b"))))
        if sub is not None:
            return PeriodMention(s, e, Period(_year(g("ms_y")), sub), "period")
        return PeriodMention(s, e, Period(_year(g("ms_y")), SOME_MONTHS), "months")
    if kind == "range":
        a, b = int(g("r_a")), _year(g("r_b")) or 0
        if b < a or b - a > 50:
            return PeriodMention(s, e, None, "date")
        years = tuple(range(a, b + 1)) if b - a <= 10 else (a, b)
        return PeriodMention(s, e, None, "range", years)
    if kind == "nine":
        return PeriodMention(s, e, Period(_year(g("n_y") or g("n_y2")), "Q1-Q3"), "period")
    if kind == "half":  # `2020Q1-2实现收入24.16亿元`: the first two quarters, the half year
        return PeriodMention(s, e, Period(_year(g("hq_y")), "H1"), "period")
    if kind == "fy":
        return PeriodMention(s, e, Period(_year(g("fy_y") or g("fy_y2")), "FY"), "period")
    if kind == "est":
        return PeriodMention(s, e, Period(_year(g("e_y")), "E"), "forecast")
    for name, n, y, letter in (
        ("h_a", "ha_n", "ha_y", "H"),
        ("h_b", "hb_n", "hb_y", "H"),
        ("h_c", "hc_n", "hc_y", "H"),
        ("q_a", "qa_n", "qa_y", "Q"),
        ("q_b", "qb_n", "qb_y", "Q"),
        ("q_c", "qc_n", "qc_y", "Q"),
    ):
        if kind == name:
            return PeriodMention(s, e, Period(_year(g(y)), f"{letter}{g(n)}"), "period")
    if kind == "year":
        sub = g("y_q") if g("y_q") in ("Q1", "Q2", "Q3", "Q4", "H1", "H2") else _sub_cn(g("y_sub"))
        return PeriodMention(s, e, Period(_year(g("y")), sub or ""), "period")
    if kind == "yy":
        return PeriodMention(
            s, e, Period(_year(g("yy_y")), g("yy_q") or _sub_cn(g("yy_sub")) or ""), "period"
        )
    if kind == "bare":
        word = g("b")
        if word.endswith(("年初至报告期末", "年初至本报告期末", "年初至今")):
            # `2019年初至报告期末`: the year named changes nothing, the period is the report's own
            return PeriodMention(s, e, None, TO_DATE)
        if word == "本报告期":
            return PeriodMention(s, e, None, CURRENT)
        if word == "报告期内":
            return PeriodMention(s, e, None, WITHIN)
        return PeriodMention(s, e, Period(None, _sub_cn(word)), "period")
    if kind == "bare_q":
        return PeriodMention(s, e, Period(None, g("bq")), "period")
    if kind == "bare_qn":
        return PeriodMention(s, e, Period(None, f"Q{g('bqn')}"), "period")
    return PeriodMention(s, e, None, "date")  # pragma: no cover - every pattern is handled above


_MONTH_END_RE = re.compile(
    rf"(?P<y>{_Y4})\s?年\s?(?P<m>[01]?[0-9])\s?月(?:\s?(?P<d>[0-3]?[0-9])\s?日|末|底)?"
)
_FLOW_AFTER_RE = re.compile(
    r"[^。；;！？\n]{0,40}?(?:营业总收入|营业收入|营收|收入|净利润|净利|净亏损|毛利率)"
)
"""An amount earned over time in the clause an as-of date leads (not a count or balance held at that date:
`截至2023年3月31日公司股东户数为1.05万户`, `截至2021年6月30日，公司已累计回购股份`)."""
_CUMULATIVE_FLOW_AFTER_RE = re.compile(
    r"[^。！？\n]{0,120}?累计\s?(?:实现)?\s?(?:营业总收入|营业收入|营收|收入|净利润|净利|净亏损)"
)
"""`截至2021年12月底，…累计中标及新签合同额2697.69亿元…；累计实现营业收入1377.4亿元`: an amount the
sentence an as-of date leads calls cumulative (`累计`) is earned up to that date, in a later item of the
sentence too."""
_LAST_DAYS = {1: 31, 2: 28, 3: 31, 4: 30, 5: 31, 6: 30, 7: 31, 8: 31, 9: 30, 10: 31, 11: 30, 12: 31}


def _as_of_month_end(text: str, mention: PeriodMention) -> PeriodMention:
    """`截至2018年9月，…实现净利润0.69亿元`, `截止2020年9月30日，…营业收入1.8081亿元`: an amount stated as of
    a month's end runs from January to it, so a quarter's end names the cumulative report period (`9月`: the
    nine months) and any other month's end a span of months no report covers (`截至2022年2月，累计实现营收`:
    not the year before's, which the sentence before may have named). A date inside a month (`截至2022年1月
    19日`, an announcement's day) stays a date."""
    m = _MONTH_END_RE.fullmatch(text.strip())
    if m is None:
        return mention
    year, month = int(m.group("y")), int(m.group("m"))
    day = m.group("d")
    if not 1 <= month <= 12 or (day is not None and int(day) < _LAST_DAYS[month]):
        return mention
    sub = _FROM_JANUARY.get(str(month))
    if sub is not None:
        return PeriodMention(mention.start, mention.end, Period(year, sub), "period")
    return PeriodMention(mention.start, mention.end, Period(year, SOME_MONTHS), "months")


def find_periods(folded: str) -> list[PeriodMention]:
    """Every period expression (and date, and span of years) in the folded text, in order.

    A third quarter named as a report's (`2024年第三季度报告`) is the nine months the report covers."""
    found = []
    matches = list(_PERIOD_RE.finditer(folded))
    reads = [_read(m) for m in matches]
    nine_months = any(r.period is not None and r.period.sub == "Q1-Q3" for r in reads)
    for m, mention in zip(matches, reads, strict=True):
        p = mention.period
        if (
            p is not None
            and p.sub == "Q3"
            and (
                _REPORT_AFTER_RE.match(folded, m.end())
                or (
                    _RESULTS_AFTER_RE.match(folded, m.end())
                    and _PUBLISH_BEFORE_RE.search(folded, max(0, m.start() - 6), m.start())
                    and not nine_months  # `公布三季度业绩：收入…。2021年前三季度收入…`: the quarter alone
                )
            )
        ):
            mention = PeriodMention(mention.start, mention.end, Period(p.year, "Q1-Q3"), mention.kind)
        elif (
            p is not None and p.sub in _TO_END and _AS_OF_RE.search(folded, max(0, m.start() - 4), m.start())
        ):
            # `截至2020Q3`: a point in time; what a report states as of then is the cumulative period
            mention = PeriodMention(mention.start, mention.end, Period(p.year, _TO_END[p.sub]), mention.kind)
        elif (
            mention.kind == "date"
            and _AS_OF_RE.search(folded, max(0, m.start() - 4), m.start())
            and (_FLOW_AFTER_RE.match(folded, m.end()) or _CUMULATIVE_FLOW_AFTER_RE.match(folded, m.end()))
        ):
            mention = _as_of_month_end(m.group(), mention)
        found.append(mention)
    return _summed(folded, _this_year_of_date(folded, found))


_OPENING_DATE_CHARS = 1000
"""How far into a text its own date may stand (a broker report's cover: `深度报告2020年10月19日`)."""
_FULL_DATE_RE = re.compile(r"(20[0-9]{2})\s?年\s?([01]?[0-9])\s?月\s?[0-3]?[0-9]\s?日")
_THIS_YEAR_BEFORE_RE = re.compile(r"今年\s?$")
_EVENT_DATE_BEFORE_RE = re.compile(r"(?:自|于|在|从|至|止|到|截至|截止)\s?$")
_EVENT_DATE_AFTER_RE = re.compile(r"\s?(?:以来|起|前|后|之前|之后|开始|，|,)")


def _own_date(folded: str, m: PeriodMention) -> bool:
    """Whether a full date stands as the text's own (`深度报告2020年10月19日汲肖飞`), not an event's told in a
    sentence (`自2018年11月30日上线以来`, `截至2019年9月30日，…`, `于2021年3月18日，公司…`)."""
    return (
        m.kind == "date"
        and _FULL_DATE_RE.fullmatch(folded[m.start : m.end]) is not None
        and _EVENT_DATE_BEFORE_RE.search(folded, max(0, m.start - 2), m.start) is None
        and _EVENT_DATE_AFTER_RE.match(folded, m.end) is None
    )


_PART_END_MONTH = {"Q1": 3, "Q2": 6, "H1": 6, "Q3": 9, "Q1-Q3": 9}


def _this_year_of_date(folded: str, found: list[PeriodMention]) -> list[PeriodMention]:
    """`…深度报告2020年10月19日…公司今年上半年实现收入2.4亿元`: a part of `今年` (this year) in a text whose
    opening prints its date (a full day) is that date's year's, when the part had ended by then: the writer's
    this year is the year they write in, whatever year the text's other figures are of (a note opening on
    last year's results); the same part named again later in its sentence (`；上半年实现归母净利润1.5亿元`) is
    that one. A part not over by the date (`今年下半年开始投入市场`) keeps no year."""
    date = next((m for m in found if m.start < _OPENING_DATE_CHARS and _own_date(folded, m)), None)
    if date is None:
        return found
    d = _FULL_DATE_RE.fullmatch(folded[date.start : date.end])
    assert d is not None
    year, month = int(d.group(1)), int(d.group(2))
    out = []
    named: PeriodMention | None = None  # the last part dated so, whose sentence's same part it dates too
    for m in found:
        p = m.period
        if p is not None and p.year is None and month > _PART_END_MONTH.get(p.sub, 12):
            if _THIS_YEAR_BEFORE_RE.search(folded, max(0, m.start - 3), m.start) or (
                named is not None
                and named.period is not None
                and named.period.sub == p.sub
                and not any(stop in folded[named.end : m.start] for stop in "。！？\n")
            ):
                m = PeriodMention(m.start, m.end, Period(year, p.sub), m.kind, m.years)
                named = m
        out.append(m)
    return out


_SUMMED_BEFORE_RE = re.compile(r"(?:加总|合计|汇总|累计|合并|叠加)\s?$")
_SUMMED_JOIN_RE = re.compile(r"^\s?(?:与|和|及|、|\+|加)\s?$")


def _summed(folded: str, found: list[PeriodMention]) -> list[PeriodMention]:
    """`加总21Q4与22Q1数据一起来看，期间实现营收132亿`: two periods added together are one span, no single
    period: a figure over them is neither's."""
    out: list[PeriodMention] = []
    for mention in found:
        prev = out[-1] if out else None
        if (
            prev is not None
            and prev.period is not None
            and mention.period is not None
            and _SUMMED_JOIN_RE.match(folded[prev.end : mention.start])
            and _SUMMED_BEFORE_RE.search(folded, max(0, prev.start - 4), prev.start)
        ):
            years = tuple(y for y in (prev.period.year, mention.period.year) if y is not None)
            out[-1] = PeriodMention(prev.start, mention.end, None, "range", years)
            continue
        out.append(mention)
    return out


def last_quarter(main: Period | None) -> str | None:
    """The quarter a cumulative period ends with (H1 -> Q2, Q1-Q3 -> Q3, FY -> Q4)."""
    if main is None:
        return None
    return {"Q1": "Q1", "H1": "Q2", "Q1-Q3": "Q3", "FY": "Q4", "": "Q4", "H2": "Q4"}.get(main.sub, main.sub)


def resolve(mention: PeriodMention, main: Period | None) -> Period | None:
    """The absolute period an expression names, read against the main period (None: unknown)."""
    year = main.year if main is not None else None
    if mention.kind in (TO_DATE, WITHIN):
        return main
    if mention.kind == CURRENT:
        if main is not None and main.sub == "Q1-Q3":
            return Period(main.year, "Q3")
        return main
    p = mention.period
    if p is None:
        return None
    sub = p.sub
    if sub == LAST_QUARTER:
        quarter = last_quarter(main)
        if quarter is None or not quarter.startswith("Q") or "-" in quarter:
            return None
        sub = quarter
    return Period(p.year if p.year is not None else year, sub or "FY")


def same(a: Period | None, b: Period | None) -> bool:
    """Whether two resolved periods are one (a missing year or part agrees with anything; FY is a year)."""
    if a is None or b is None:
        return True
    if a.year is not None and b.year is not None and a.year != b.year:
        return False
    sa = a.sub or "FY"
    sb = b.sub or "FY"
    return sa == sb


def previous(period: Period | None) -> Period | None:
    """The same period a year earlier (what `上年同期` names)."""
    if period is None or period.year is None:
        return period
    return Period(period.year - 1, period.sub)


def label(period: Period | None) -> str | None:
    """The vocabulary's label, or None when the year is unknown."""
    if period is None or period.year is None:
        return None
    if period.sub in ("", "FY"):
        return f"FY{period.year}"
    if period.sub in (LAST_QUARTER, SOME_MONTHS):
        return None
    return f"{period.year}{period.sub}"


# --- the document's own period --------------------------------------------------------------------------

_REPORT_WORDS = (
    ("年度报告", "FY"), ("年报", "FY"), ("年度业绩", "FY"), ("年度财务报告", "FY"),
    ("半年度报告", "H1"), ("半年报", "H1"), ("中期报告", "H1"), ("中报", "H1"), ("半年度业绩", "H1"),
    ("第一季度报告", "Q1"), ("一季度报告", "Q1"), ("一季报", "Q1"),
    ("第三季度报告", "Q1-Q3"), ("三季度报告", "Q1-Q3"), ("三季报", "Q1-Q3"), ("前三季度报告", "Q1-Q3"),
    ("半年度财务报告", "H1"), ("半年度业绩报告", "H1"), ("年度业绩报告", "FY"), ("第一季度业绩报告", "Q1"),
    ("一季度业绩报告", "Q1"), ("第三季度业绩报告", "Q1-Q3"), ("三季度业绩报告", "Q1-Q3"),
    ("三季度报", "Q1-Q3"), ("一季度报", "Q1"), ("半年度报", "H1"),
    ("财务报告", "FY"),
)  # fmt: skip
_REPORT_RE = re.compile(
    r"(?P<when>(?:20[0-9]{2}|[0-9]{2})\s?年?\s?(?:度)?\s?(?:第?[一二三四]季度|上半年|半年度|前三季度|H[12]|Q[1-4])?\s?)?"
    r"(?P<word>"
    + "|".join(re.escape(w) for w, _ in sorted(_REPORT_WORDS, key=lambda x: -len(x[0])))
    + r"|业绩快报|业绩预告|业绩预报|报告摘要)"
)
_REPORT_SUB = dict(_REPORT_WORDS)
_GUIDANCE_AFTER_RE = re.compile(r"[^，,。；;\d]{0,6}?(?:指引|展望|预计|目标|有望)")
"""A part named and then guided or expected (`Q4大客户指引`, `Q4有望`): a period ahead, not the document's."""
_TWO_PERIODS_BEFORE_RE = re.compile(
    r"(?P<y1>20[0-9]{2}|[0-9]{2})\s?年?\s?(?:全年|年度)?\s?(?:及|和|与|以及|、)\s?(?P<y2>20[0-9]{2}|[0-9]{2})\s?年?\s?"
    r"(?:Q1|一季度|第一季度|1季度)\s?$"
)
"""`2021全年及2022Q1` right before a report word: a year and the next year's first quarter."""
_TWO_PERIODS_Q_BEFORE_RE = re.compile(
    r"(?P<y1>20[0-9]{2}|[0-9]{2})\s?年?\s?(?:全年|年度)?\s?(?:及|和|与|以及|、)\s?(?:1Q|Q1)\s?(?P<y2>20[0-9]{2}|[0-9]{2})"
    r"\s?年?\s?$"
)
"""`2018年及1Q2019` right before a report word (the quarter's year read as the report's): the same."""
_HEAD_CHARS = 400
_AS_OF_REPORT_RE = re.compile(r"(?:截至|截止|截止到|截至到)\s?$")
_EARLIER_REPORT_RE = re.compile(r"(?:此前|之前|早前|前期|先前|曾在|曾于)(?:在|于|的|发布的|披露的)?\s?$")
_PUBLISHED_RE = re.compile(
    r"(?:发布|公布|披露)(?:了|的)?\s?(?:20[0-9]{2}\s?年?\s?(?:度)?\s?)?(?:第?[一二三四]季度|上半年|半年度|前三季度)?"
    r"\s?(?:年度报告|年报|半年度报告|半年报|中期报告|中报|一季报|三季报|季度报告|第一季度报告|第三季度报告)"
)
_FORECAST_WINDOW = 40
_VERB_BEFORE_RE = re.compile(r"(?:发布|公布|披露|公告|发布了|公布了|披露了)[^，。；]{0,6}$")


_LOOK_AHEAD_RE = re.compile(r"(?:关注|静待|期待|看好|聚焦|等待|展望)\s?$")


def _looked_ahead_to(folded: str, m: PeriodMention) -> bool:
    """`疫情冲击显著，关注下半年补贴进度`: a part of the year a title or heading asks the reader to
    watch is one still to come, not the part the note reports (`上半年，公司…实现收入87.8亿元`)."""
    return bool(_LOOK_AHEAD_RE.search(folded, max(0, m.start - 3), m.start))


def _forecast_before(folded: str, pos: int, forecast: re.Pattern[str] | None) -> bool:
    if forecast is None:
        return False
    window = folded[max(0, pos - _FORECAST_WINDOW) : pos]
    # a sentence's end, or a paragraph's (`预测2019年净利润…　　公司公布2019年业绩快报`: a heading's forecast
    # is not the next paragraph's)
    cut = max(max(window.rfind(ch) for ch in "。；;\n"), window.rfind("  ") + 1)
    return forecast.search(window[cut + 1 :]) is not None


def _plausible(year: int | None, today: date | None) -> bool:
    """An actual period cannot lie in the future (a `2060年` in a news piece is a forecast)."""
    if year is None:
        return True
    return year <= (today or date.today()).year


def main_period(
    folded: str,
    mentions: list[PeriodMention],
    forecast: re.Pattern[str] | None = None,
    table_period: Period | None = None,
    today: date | None = None,
    names: tuple[str, ...] = (),
) -> Period | None:
    """The document's own period: what its title or opening names it (`2020年半年度报告`, `发布2019年年报`,
    `披露三季报` then `2021年上半年`), else the first actual period of its opening, else the current column of
    its first figures table, else a part without a year (`上半年`) with the latest actual year the text names.

    A quarter alone (`3Q19业绩高于预期`, `单三季度…`) is the document's period only when the text names no
    actual cumulative period it ends (`1-3Q19`, `前三季度`): a note on a report quotes the last quarter beside
    the report's own figures, and the report's are the ones a screen compares.
    """
    found = _main_period(folded, mentions, forecast, table_period, today, names)
    if found is None or found.sub not in ("Q2", "Q3", "Q4"):
        return found
    whole = _TO_END[found.sub]
    for m in mentions:
        if m.kind == TO_DATE and not _forecast_before(folded, m.start, forecast):
            # `公司2022年三季度单季实现营业收入5.82亿元…年初至本报告期末，公司一共实现营业收入17.62亿元`
            return Period(found.year, whole)
        p = m.period
        if m.kind != "period" or p is None or p.year not in (found.year, None):
            continue
        sub = p.sub or ("FY" if p.year is not None else "")
        if (
            sub == whole
            and (p.year is not None or whole != "FY")
            and not _forecast_before(folded, m.start, forecast)
        ):
            return Period(found.year, whole)
    return found


def _main_period(
    folded: str,
    mentions: list[PeriodMention],
    forecast: re.Pattern[str] | None,
    table_period: Period | None,
    today: date | None,
    names: tuple[str, ...] = (),
) -> Period | None:
    periods = [m for m in mentions if m.kind in ("period", CURRENT, TO_DATE, WITHIN)]
    ranges = [m for m in mentions if m.kind in ("range", "months")]
    head = folded[:_HEAD_CHARS]
    found = _from_report_word(folded, head, periods, forecast, today)
    if found is not None:
        return found
    # the first sentence's period (`中联重科2019年一季度实现…`), then a report the text says was published
    first_end = min([i for i in (folded.find(ch, 0, 200) for ch in "。\n!?！？") if i > 0] or [200])
    dated = _first_dated(folded, periods, first_end, forecast, today)
    if dated is not None:
        return _figures_period(folded, periods, dated, forecast, today, (ranges, names))
    # the first sentence names a part without its year (`一季度实现收入…`): the latest actual year
    for m in periods:
        if m.start >= first_end:
            break
        p = m.period
        if p is not None and p.year is None and p.sub not in ("", LAST_QUARTER, "FY"):
            if "单" in folded[m.start : m.end + 2]:
                continue  # `Q3单季度…`: a quarter alone, beside the cumulative figures the note is about
            if _GUIDANCE_AFTER_RE.match(folded, m.end) or _looked_ahead_to(folded, m):
                continue  # `Q4大客户指引总体平稳`, `关注下半年补贴进度`: a part the note looks ahead to
            if not _forecast_before(folded, m.start, forecast):
                year = _year_of_same_part(folded, periods, p.sub, forecast, today)
                return Period(year or _part_year(folded, periods, p.sub, forecast, today), p.sub)
    published = _PUBLISHED_RE.search(folded)
    if published is not None:
        found = _from_report_word(
            folded,
            folded[published.start() : published.end() + 40],
            periods,
            forecast,
            today,
            offset=published.start(),
        )
        if found is not None:
            return found
    dated = _first_dated(folded, periods, _HEAD_CHARS, forecast, today)
    if dated is not None:
        return _figures_period(folded, periods, dated, forecast, today, (ranges, names))
    if table_period is not None:
        return table_period
    # a part named without a year (`上半年归属于母公司所有者的净利润…`)
    for m in periods:
        if m.start >= _HEAD_CHARS:
            break
        p = m.period
        if p is not None and p.year is None and p.sub not in ("", LAST_QUARTER):
            if _forecast_before(folded, m.start, forecast) or _GUIDANCE_AFTER_RE.match(folded, m.end):
                continue
            if _looked_ahead_to(folded, m) or _piece_of_forecast(folded, periods, m, forecast):
                continue
            return Period(_part_year(folded, periods, p.sub, forecast, today), p.sub)
    return None


_MONTHS_TO = {"Q1": 3, "Q2": 6, "H1": 6, "Q3": 9, "Q1-Q3": 9, "Q4": 12, "H2": 12, "FY": 12, "": 12}
"""The month a period ends in (a bare year, `""`, is the whole year)."""
_FROM_START = frozenset({"Q1", "H1", "Q1-Q3", "FY", ""})
"""Periods that run from January: a forecast of one takes in every part that ends by its end."""


def _piece_of_forecast(
    folded: str, periods: list[PeriodMention], m: PeriodMention, forecast: re.Pattern[str] | None
) -> bool:
    """`公司预计2020年1-6月归属上市公司股东的净利润-1500.00万至-1100.00万。…一季度实现营业收入3,011.45万元…
    第二季度实现营业收入约1.46亿元`: a part named without its year, after the forecast of a dated period
    from the year's start that takes it in, is a piece of the forecast period told in the forecast's reasons,
    not the document's own period (the document is the forecast). A part that names the forecast's own year
    (`预计2021年实现…净利润…；某基地2021年一季度全面投产后，…`) is as much a piece of it; `_first_dated`
    passes over such a part only where its sentence prints no figure."""
    part = m.period
    if part is None or part.sub not in _MONTHS_TO or part.sub in ("FY", ""):
        return False  # `全年`: the forecast's whole year, not a piece of it
    for earlier in periods:
        if earlier.start >= m.start:
            return False
        p = earlier.period
        if (
            p is not None and p.year is not None and p.sub in _FROM_START
            and part.year in (None, p.year)
            and _MONTHS_TO[p.sub] >= _MONTHS_TO[part.sub] and p.sub != part.sub
            and _forecast_before(folded, earlier.start, forecast)
        ):  # fmt: skip
            return True
    return False


def _first_dated(
    folded: str,
    periods: list[PeriodMention],
    limit: int,
    forecast: re.Pattern[str] | None,
    today: date | None,
) -> PeriodMention | None:
    for m in periods:
        if m.start >= limit:
            break
        p = m.period
        if p is None or p.year is None or p.sub == "E" or not _plausible(p.year, today):
            continue
        if _forecast_before(folded, m.start, forecast):
            continue
        as_of = _AS_OF_REPORT_RE.search(folded, max(0, m.start - 6), m.start)
        if as_of and "报" in folded[m.start : m.end + 2]:
            continue  # `截至2018年半年报，拥有…`: the report a figure is as of, not the document
        if not p.sub and not _NUMBER_IN_CLAUSE_RE.match(folded, m.end) and not _in_title(folded, m):
            continue  # `2019年公司业绩进入稳健增长周期，增持。`: a year told about, no figure in its sentence
        if _span_end(folded, m) or _aimed_at(folded, m) or _last_years(folded, m):
            continue
        if not p.sub and _history_year(folded, m):
            continue  # `公司成立于2007年，2012年切入激光切割控制系统`: a year of the company's history
        if not p.sub and folded.startswith(("“", '"', "《", "「"), m.end):
            continue  # `2019“银华基金杯”新浪银行理财师大赛`: a year in an event's name
        if folded.startswith("同期", m.end) or _TIMES_AFTER_RE.match(folded, m.end):
            continue  # `仅为2019年同期的10%`, `约是2021年的14倍`: the base a figure is measured against
        if _estimate_years(folded, m, forecast):
            continue  # `我们维持23-25年净利润预测值4.04/6.86/9.40亿元`: the years of estimates
        if _valuation_or_horizon(folded, m):
            continue
        if _piece_of_forecast(folded, periods, m, forecast) and not _NUMBER_IN_CLAUSE_RE.match(folded, m.end):
            # `预计2021年…净利润…；某基地2021年一季度全面投产后，产能得到释放`: a piece of the forecast's
            # year dating an event in its reasons, with no figure in its sentence (a broker's `我们预计2021年
            # …。2021年一季度，公司实现营业收入…` reports the quarter)
            continue
        if _earlier_part_in_reasons(folded, periods, m, forecast):
            continue
        return m
    return None


def _earlier_part_in_reasons(
    folded: str, periods: list[PeriodMention], m: PeriodMention, forecast: re.Pattern[str] | None
) -> bool:
    """`预计2021年净利润6123.45万元左右，…主要原因是2020年上半年某某对投资资产计提了大额减值`: a quarter or
    half of a year before a forecast's year, told after the forecast in a sentence printing no figure, dates a
    past event among the forecast's reasons, not a report of the document's."""
    part = m.period
    if part is None or part.year is None or part.sub in ("", "FY"):
        return False
    if _NUMBER_IN_CLAUSE_RE.match(folded, m.end):
        return False
    for earlier in periods:
        if earlier.start >= m.start:
            return False
        p = earlier.period
        if (
            p is not None
            and p.year is not None
            and p.year > part.year
            and _forecast_before(folded, earlier.start, forecast)
        ):
            return True
    return False


_TIMES_AFTER_RE = re.compile(r"的\s?(?:[0-9]+(?:\.[0-9]+)?|[一二两三四五六七八九十百]+)\s?倍")
_VALUATION_BEFORE_RE = re.compile(r"对应\s?$")
_HORIZON_BEFORE_RE = re.compile(r"(?<!截)(?:到|至)\s?$")
_AHEAD_AFTER_RE = re.compile(r"[^。；;！？\n]{0,30}?(?:将|有望|预计|预期)")


def _valuation_or_horizon(folded: str, m: PeriodMention) -> bool:
    """`目前市值对应2020年股息率7.5%`, `到2025年，我国自动驾驶市场规模将达2994亿元`: the year a valuation is
    measured against, or the horizon a projection looks ahead to (到/至 a year, then 将, 有望, 预计 in the
    sentence; `截至2020年` is an as-of date): neither is a period the document reports."""
    if _VALUATION_BEFORE_RE.search(folded, max(0, m.start - 3), m.start):
        return True
    horizon = _HORIZON_BEFORE_RE.search(folded, max(0, m.start - 2), m.start)
    return bool(horizon and _AHEAD_AFTER_RE.match(folded, m.end))


_FOUNDED_BEFORE_RE = re.compile(r"(?:成立|创立|创建|创办|设立|始建|组建|注册|上市|挂牌)(?:于|在)?\s?$")
_HISTORY_AFTER_RE = re.compile(
    r"\s?(?:[0-9]{1,2}\s?月(?:[0-9]{1,2}\s?日)?)?\s?(?:成立|创立|创建|创办|设立|始建|组建|上市(?!公司)|挂牌(?!公司)|切入|涉足|进军|起步)"
)


def _history_year(folded: str, m: PeriodMention) -> bool:
    """`成立于2007年`, `2012年切入激光切割控制系统`, `2016年3月25日挂牌新三板`: a year the company was
    founded, listed or entered a business, told about in its history: never a report's period."""
    if _FOUNDED_BEFORE_RE.search(folded, max(0, m.start - 5), m.start):
        return True
    if not _HISTORY_AFTER_RE.match(folded, m.end):
        return False
    clause_end = min([i for i in (folded.find(ch, m.end) for ch in "，,。；;") if i >= 0] or [len(folded)])
    return not re.search(r"[0-9]", folded[m.end : clause_end].split("月")[-1].split("日")[-1])


_YEAR_SPAN_RE = re.compile(r"(?:20)?[0-9]{2}\s?[-−~～至到]\s?(?:20)?[0-9]{2}\s?年")


def _estimate_years(folded: str, m: PeriodMention, forecast: re.Pattern[str] | None) -> bool:
    """`维持23-25年净利润预测值4.04/6.86/9.40亿元`: a span of years whose clause goes on to an estimate
    names the years a forecast is for, not the period the document reports (its last year is no actual)."""
    if forecast is None or not _YEAR_SPAN_RE.search(folded, max(0, m.start - 8), m.end + 1):
        return False
    return forecast.search(_clause_after(folded, m.end)) is not None


_LAST_YEAR_RE = re.compile(r"(?:去年|上年|上一年|上年度)[^。；;！？\n\d]{0,12}$")


def _last_years(folded: str, m: PeriodMention) -> bool:
    """`据该集团去年财报，2020年…`: a year the sentence calls last year's is not the document's own."""
    return bool(_LAST_YEAR_RE.search(folded, max(0, m.start - 14), m.start))


_SPAN_FROM_RE = re.compile(r"(?:从|自|由|始于|起始于)\s?$")
_SPAN_TO_RE = re.compile(r"\s?(?:起|以来|开始|至今|[到至]\s?(?:20[0-9]{2}|[0-9]{2}|今|现在))")
_SPAN_TO_BEFORE_RE = re.compile(r"(?:从|自)[^，,。；;]{1,10}?[到至]\s?$")
_AIM_RE = re.compile(r"[^，,。；;]{0,10}?(?:激励计划|股权激励|持股计划|考核目标|业绩考核|考核条件|目标)")


def _span_end(folded: str, m: PeriodMention) -> bool:
    """`从16年到18Q3`, `自2017年起`, `2017年以来`: the ends of a span of time the text looks back over (a
    trend, a compound growth); neither end is the period the document reports."""
    before = folded[max(0, m.start - 4) : m.start]
    if _SPAN_FROM_RE.search(before) and _SPAN_TO_RE.match(folded, m.end):
        return True
    if _SPAN_TO_BEFORE_RE.search(folded, max(0, m.start - 16), m.start):
        return True
    return bool(re.match(r"\s?(?:以来|起)", folded[m.end : m.end + 3]))


def _aimed_at(folded: str, m: PeriodMention) -> bool:
    """`2020年限制性股票激励计划`, `2021年考核目标`: a year a plan or a target is set for, not a period the
    document reports."""
    return bool(_AIM_RE.match(folded, m.end))


_FIGURE_AFTER_RE = re.compile(
    r"[^。；;！？\n\d]{0,14}?(?<!行业)(?<!市场)(?:营业总收入|营业收入|总营收|营收|收入|归母净利润|归母净利|净利润|净利)"
    r"[^，,。；;！？\n\d%]{0,8}?[-−]?\s?[0-9][0-9,.]*(?:\s?[/、]\s?[-−]?[0-9][0-9,.]*)*"
    r"(?:\s?(?:万亿|亿|万|千万|百万)?元?\s?[-−~～至到]\s?[0-9][0-9,.]*)?\s?"
    r"(?:万亿|亿|万|千万|百万)?\s?元?(?<=[亿万元])"
)
"""A period followed in its clause by the company's revenue or profit as an amount (`18年营收115.2亿`,
`2022年前三季度公司收入为52.28亿元`), or as a range (`19H1净利0.9亿-0.97亿`: a forecast's title names its own
period): the period the text's own figures are of."""
_REVISED_RE = re.compile(r"上调|下调|调整|预测|预计|假设|引入|给予|对应|目标")
_THIS_YEAR_RE = re.compile(r"(?:今年|本年|当年)\s?$")


_FLOOR_OR_CAP_RE = re.compile(r"不低于|不少于|不高于|不超过|不多于")


def _has_figure(folded: str, m: PeriodMention) -> bool:
    """Whether the company's revenue or profit follows the period as an amount in its clause; a floor or a
    cap (`广州京诚承诺20-22年净利润不低于0.23/0.27/0.31亿`: a commitment, a target) is no reported figure."""
    found = _FIGURE_AFTER_RE.match(folded, m.end)
    if found is None or _FLOOR_OR_CAP_RE.search(found.group(0)):
        return False
    return "行业" not in folded[m.end : m.end + 14]


_SALES_AFTER_RE = re.compile(r"\s?(?:公司)?\s?(?:全口径|权益)?(?:销售|签约|销量)")


def _figures_period(
    folded: str,
    periods: list[PeriodMention],
    dated: PeriodMention,
    forecast: re.Pattern[str] | None,
    today: date | None,
    listed: tuple[list[PeriodMention], tuple[str, ...]] = ([], ()),
) -> Period | None:
    """The first dated period of the opening, unless nothing of the company's is reported for it there
    (`从16年到18Q3，存款增速…`, `公司发布2020年限制性股票激励计划`, `2022年该数值为48.2%`) and the text
    states its revenue or profit for a period elsewhere (`拉动18年营收115.2亿`, `今年上半年，宁德时代实现
    营收1892.46亿元`): then the figures' own period is the document's. A part with no year but `今年`
    before it keeps no year (the years the text prints are others': comparisons, last year's)."""
    p = dated.period
    assert p is not None
    own = Period(p.year, p.sub or "FY")
    if _has_figure(folded, dated):
        return own  # its own figures
    if not _NUMBER_IN_CLAUSE_RE.match(folded, dated.end):
        # a period named with none (`2019Q3业绩预告略低于预期。`) is the document's, unless the clause is on
        # sales and the text states the revenue or profit of the year before it (`2023年一季度销售进入行业前十
        # …2022年公司实现营业收入591.9亿`): a property developer's contracted sales are no results
        if _SALES_AFTER_RE.match(folded, dated.end):
            figures = _first_figures(folded, periods, own.year, forecast, today, listed)
            if figures is not None and figures.year is not None and own.year is not None:
                if figures.year == own.year - 1 and figures.sub == "FY":
                    return figures
        return own
    return _first_figures(folded, periods, own.year, forecast, today, listed) or own


def _clause_after(folded: str, pos: int, limit: int = 16) -> str:
    """The words right after `pos`, up to the clause's end."""
    text = folded[pos : pos + limit]
    cut = min([i for i in (text.find(ch) for ch in "，,。；;\n") if i >= 0], default=len(text))
    return text[:cut]


def _first_figures(
    folded: str,
    periods: list[PeriodMention],
    year: int | None,
    forecast: re.Pattern[str] | None,
    today: date | None,
    listed: tuple[list[PeriodMention], tuple[str, ...]] = ([], ()),
) -> Period | None:
    """The first period the text states the company's revenue or profit for as an amount, not forecast,
    planned, revised or a span's end; a part without a year takes `year` (none after `今年`); of a span
    of whole years (`listed`: the text's spans and spans of months, and the company's names) whose figures are
    listed year by year, its last year; of periods enumerated one after another with the figures listed, the
    latest."""
    ranges, names = listed
    mentions = sorted([*periods, *ranges], key=lambda x: x.start)
    for m in mentions:
        if m.kind == "range" and (last := _listed_years_end(folded, m, forecast, today, names)) is not None:
            return last
        if m.kind == "period" and (last := _enumerated_end(folded, m, mentions, forecast, today, names)):
            return last
        q = m.period
        if q is None or m.kind != "period" or q.sub in ("E", LAST_QUARTER) or not _plausible(q.year, today):
            continue
        if _forecast_before(folded, m.start, forecast) or _span_end(folded, m) or _aimed_at(folded, m):
            continue
        if _last_years(folded, m):
            continue
        lead = folded[max(0, m.start - _FORECAST_WINDOW) : m.start]
        lead = lead[max(lead.rfind(ch) for ch in "。；;\n") + 1 :]
        if _REVISED_RE.search(lead) or _planned(folded, m):
            continue  # `下调2019年营收8.44亿`: an estimate revised, not a figure reported
        if "单" in folded[m.start : m.end + 2] or not _has_figure(folded, m):
            continue  # a quarter alone beside the report's figures is not the report
        if forecast is not None and forecast.search(_clause_after(folded, m.end)):
            continue  # `22Q1公司预计实现营收105亿元`: the figure after the period is an estimate
        if q.year is not None:
            return Period(q.year, q.sub or "FY")
        if q.sub in ("", "FY"):
            continue
        if _THIS_YEAR_RE.search(folded, max(0, m.start - 3), m.start):
            return Period(None, q.sub)
        return Period(year, q.sub)
    return None


_YEARS_SPAN_RE = re.compile(
    r"(?:20[0-9]{2}|[0-9]{2})\s?年?\s?(?:至|到|-|—|~|～)\s?(?P<y>20[0-9]{2}|[0-9]{2})\s?年(?:度)?$"
)
_LISTED_AFTER_RE = re.compile(
    r"[，,\s]*(?P<who>[^，,。；;！？\n\d]{0,12}?)\s?(?:营业总收入|营业收入|总营收|营收|收入|归母净利润|归母净利|净利润|净利)"
    r"[^，,。；;！？\n\d]{0,6}?分别(?:为|是|达到?|实现)?\s?[-−]?[0-9]"
)
_COMPANY_WORDS = ("", "公司", "本公司", "该公司", "集团", "本集团")
_ESTIMATE_LEAD_RE = re.compile(r"维持|我们|盈利预测|估值")


def _listed_years_end(
    folded: str,
    m: PeriodMention,
    forecast: re.Pattern[str] | None,
    today: date | None,
    names: tuple[str, ...],
) -> Period | None:
    """`2017年至2022年，巨人网络的营业收入分别为29.07亿元、…、20.38亿元`: whole years whose clause goes on to
    the company's revenue or profit (the company's word or name, or none) listed year by year (分别) are the
    years the text reports; the last is the latest it reports, the document's own (no forecast, estimate or
    plan before it, none in the future; a subsidiary's list, `旗滨电子收入分别为…`, says nothing)."""
    span = _YEARS_SPAN_RE.match(folded[m.start : m.end])
    listed = _LISTED_AFTER_RE.match(folded, m.end)
    if span is None or listed is None or not _has_figure(folded, m):
        return None
    who = listed.group("who").strip().removesuffix("的")
    if who not in _COMPANY_WORDS and who not in names:
        return None
    year = int(span.group("y"))
    year = year + 2000 if year < 100 else year
    if not _plausible(year, today) or _forecast_before(folded, m.start, forecast):
        return None
    lead = folded[max(0, m.start - _FORECAST_WINDOW) : m.start]
    lead = lead[max(lead.rfind(ch) for ch in "。；;\n") + 1 :]
    if _REVISED_RE.search(lead) or _ESTIMATE_LEAD_RE.search(lead):
        return None
    if forecast is not None and forecast.search(_clause_after(folded, m.end, 40)):
        return None
    return Period(year, "FY")


_ENUMERATION_SEP_RE = re.compile(r"\s?(?:、|和|及|与|以及)\s?")
_AMOUNT_RE = re.compile(r"[0-9][0-9,.]*\s?(?:(?:万亿|亿|千万|百万|万)\s?元?|元)")
_LATEST_ORDER = {"Q1": 3, "Q2": 6, "H1": 6, "Q3": 9, "Q1-Q3": 9, "H2": 12, "Q4": 12, "FY": 12}


def _enumerated_end(
    folded: str,
    m: PeriodMention,
    mentions: list[PeriodMention],
    forecast: re.Pattern[str] | None,
    today: date | None,
    names: tuple[str, ...],
) -> Period | None:
    """`2017年度、2018年度、2019年1-2月营业收入分别为825.03万元、1005.43万元、113.02万元`: periods enumerated
    one after another (、, 和, 及) whose clause goes on to the company's revenue or profit listed period by
    period (分别) are the periods the text reports; the latest of them that is a report's period (a year, a
    half, the nine months, a quarter: a stub of some months, `2019年1-2月`, is none) is the document's own,
    as the last year of a span is (`_listed_years_end`). The same checks hold: no forecast, estimate or plan
    before it, none in the future, the company's own list."""
    chain = [m]
    while (sep := _ENUMERATION_SEP_RE.match(folded, chain[-1].end)) is not None:
        following = next((n for n in mentions if n.start == sep.end()), None)
        if following is None or following.kind not in ("period", "months"):
            break
        chain.append(following)
    if len(chain) < 2:
        return None
    listed = _LISTED_AFTER_RE.match(folded, chain[-1].end)
    if listed is None or not _AMOUNT_RE.match(folded, listed.end() - 1):
        return None  # `2018年、2019H1营收增速分别为43.8%、53.5%`: rates of growth, no figures
    who = listed.group("who").strip().removesuffix("的")
    if who not in _COMPANY_WORDS and who not in names:
        return None
    if _forecast_before(folded, m.start, forecast):
        return None
    lead = folded[max(0, m.start - _FORECAST_WINDOW) : m.start]
    lead = lead[max(lead.rfind(ch) for ch in "。；;\n") + 1 :]
    if _REVISED_RE.search(lead) or _ESTIMATE_LEAD_RE.search(lead):
        return None
    reported = [
        Period(p.year, p.sub or "FY")
        for p in (n.period for n in chain)
        if p is not None and p.year is not None and (p.sub or "FY") in _LATEST_ORDER
        and _plausible(p.year, today)
    ]  # fmt: skip
    if len(reported) != sum(1 for n in chain if n.kind == "period"):
        return None  # a member in the future, a forecast year (`2022E`) or no year: not a list of actuals
    if not reported:
        return None
    return max(reversed(reported), key=lambda p: (p.year, _LATEST_ORDER[p.sub]))


_NUMBER_IN_CLAUSE_RE = re.compile(r"[^。；;！？\n]*?[0-9]")
_TITLE_WORD_RE = re.compile(r"报告|研究|点评|研报|综述|展望|年鉴|白皮书")
_TITLE_CHARS = 60


def _in_title(folded: str, m: PeriodMention) -> bool:
    """A year in the document's title line (`2024年光伏行业年度研究报告`) dates the document even with no
    figure beside it: the years its body names before it are then actuals, not forecasts."""
    end = folded.find("\n")
    if end < 0 or end > _TITLE_CHARS or m.end > end:
        return False
    return _TITLE_WORD_RE.search(folded, 0, end) is not None


def _from_report_word(
    folded: str,
    head: str,
    periods: list[PeriodMention],
    forecast: re.Pattern[str] | None,
    today: date | None,
    offset: int = 0,
) -> Period | None:
    for rm in _REPORT_RE.finditer(head):
        if _forecast_before(folded, offset + rm.start(), forecast):
            continue
        if _AS_OF_REPORT_RE.search(folded, max(0, offset + rm.start() - 6), offset + rm.start()):
            continue  # `截至2018年半年报，拥有待开发面积…`: a report the figures are as of, not the title
        if _EARLIER_REPORT_RE.search(folded, max(0, offset + rm.start() - 6), offset + rm.start()):
            continue  # `此前2019年报摘要中公司预计2020Q1净利润…`: an earlier report the text recalls
        if rm.group("word") in ("业绩预告", "业绩预报") and "。" in folded[: offset + rm.start()]:
            # `公司公告：2020年实现营业收入107.73亿…。此外，公司发布2021年一季度业绩预告，预计…`: a forecast
            # announced after the opening sentence is the next period's outlook, not the document
            continue
        if head.startswith("预告", rm.end()) or head.startswith("预增", rm.end()):
            continue  # `发布21年一季报预告`: a forecast of that period, not the document's own
        word = rm.group("word")
        sub = _REPORT_SUB.get(word)
        when = rm.group("when")
        year: int | None = None
        if when:
            found = [m.period for m in find_periods(when) if m.period is not None]
            if found:
                year = found[0].year
                inner = found[0].sub
                if inner not in ("", "FY") and (sub is None or sub == "FY"):
                    # `2024年第三季度业绩快报`: the report's period is the cumulative one it ends
                    sub = "Q1-Q3" if inner == "Q3" else inner
        word_at = rm.start("word")
        both = _TWO_PERIODS_BEFORE_RE.search(head, max(0, word_at - 30), word_at) or (
            _TWO_PERIODS_Q_BEFORE_RE.search(head, max(0, word_at - 30), word_at) if when else None
        )
        if both is not None and _year(both.group("y2")) == (_year(both.group("y1")) or 0) + 1:
            # `发布2021全年及2022Q1业绩快报`: one report word for a year and the next first quarter; the year
            # is the document's (the quarter is the second report's)
            year = _year(both.group("y1"))
            sub = sub or "FY"
        if sub is None and year is None:
            continue  # `业绩快报` alone says nothing of the period
        if (
            not when
            and offset == 0
            and rm.start() > 0
            and not _VERB_BEFORE_RE.search(head, max(0, rm.start() - 8), rm.start())
            and rm.start() > min([i for i in (head.find(ch) for ch in "。\n") if i >= 0] or [len(head)])
        ):
            continue  # `…是半年报及三季报营收增长的主要原因`: a report spoken of, not the title
        if year is None:
            year = _published_on(folded, offset + rm.start(), sub) or _year_near(
                folded, offset + rm.end(), periods, sub, today, forecast
            )
        if not _plausible(year, today):
            continue
        return Period(year, sub or "FY")
    return None


_DATED_BEFORE_RE = re.compile(
    r"(?<![0-9])(?P<y>20[0-9]{2})\s?年\s?(?P<m>[01]?[0-9])\s?月(?:\s?[0-3]?[0-9]\s?日)?[^。；;！？\n]{0,24}$"
)
_PUBLISHED_MONTHS = {"Q1": (4, 5), "H1": (7, 9), "Q1-Q3": (10, 11), "FY": (1, 6)}
"""When each report is published (an annual report by the end of April, by June at the latest; the first
quarter's in April; the half year's in July to August; the third quarter's in October)."""


def _published_on(folded: str, pos: int, sub: str | None) -> int | None:
    """The year of a report named without one, from the date the sentence says it was published on
    (`2021年4月22日，公司发布一季报` is 2021's first quarter; `2022年3月28日，公司发布年报` is FY2021);
    None when no date precedes it or the month is not one that report is published in."""
    m = _DATED_BEFORE_RE.search(folded, max(0, pos - 40), pos)
    if m is None or sub not in _PUBLISHED_MONTHS:
        return None
    year, month = int(m.group("y")), int(m.group("m"))
    first, last = _PUBLISHED_MONTHS[sub]
    if not first <= month <= last:
        return None
    return year - 1 if sub == "FY" else year


def _year_near(
    folded: str,
    pos: int,
    periods: list[PeriodMention],
    sub: str | None,
    today: date | None,
    forecast: re.Pattern[str] | None = None,
) -> int | None:
    """The year of a report named without one (`披露半年报。公司2021年上半年…`): the year of the first dated
    mention of the same part with the company's revenue or profit right after it (`公司披露中报，…维持19-21年
    EPS预测…。公司19H1营业总收入411.7亿元`), else the first year named soon after, else the year of the
    part (`_part_year`)."""
    for m in periods:
        p = m.period
        if p is None or p.year is None or not sub or p.sub != sub or not _plausible(p.year, today):
            continue
        if _has_figure(folded, m) and not _forecast_before(folded, m.start, forecast):
            return p.year
    for m in periods:
        if m.start < pos - 60 or m.period is None or m.period.year is None:
            continue
        if m.start > pos + 200:
            break
        if _plausible(m.period.year, today) and not _planned(folded, m):
            if not _forecast_before(folded, m.start, forecast):
                return m.period.year
    return _part_year(folded, periods, sub, forecast, today)


def _part_year(
    folded: str,
    periods: list[PeriodMention],
    sub: str | None,
    forecast: re.Pattern[str] | None,
    today: date | None,
) -> int | None:
    """The year of a part the text names without one: the latest actual year it names, unless it calls the
    part this year's (`今年上半年`): then the years it prints are others' (`据去年财报，2020年…`, a prior
    year's share) and the year stays unknown."""
    this_year = _THIS_YEARS_PART.get(sub or "")
    if this_year is not None and re.search(this_year, folded):
        return None
    return _latest_actual_year(folded, periods, forecast, today)


_THIS_YEARS_PART = {
    "H1": r"今年\s?(?:上半年|半年|H1|1-6月)",
    "Q1": r"今年\s?(?:第?一季度|Q1|1-3月)",
    "Q1-Q3": r"今年\s?(?:前三季度|1-9月|Q1-Q3)",
}


def _year_of_same_part(
    folded: str, periods: list[PeriodMention], sub: str, forecast: re.Pattern[str] | None, today: date | None
) -> int | None:
    """The year the text gives the same part where it dates it (`上半年业绩靓眼…2020H1公司实现营收`): the
    first dated actual mention of that part, not the latest year the text names (a forecast's `22年`); a
    second or third quarter takes the year of the half or nine months it ends (`Q3疫情反复…公司2021年Q1-3实现
    收入26.95亿元…其中Q3实现收入10.18亿元`, beside a valuation's `给予2022年PE30X`)."""
    subs = {sub, _TO_END.get(sub, sub) if sub in ("Q2", "Q3") else sub}
    for m in periods:
        p = m.period
        if p is None or p.year is None or p.sub not in subs or not _plausible(p.year, today):
            continue
        if not _forecast_before(folded, m.start, forecast):
            return p.year
    return None


def _latest_actual_year(
    folded: str, periods: list[PeriodMention], forecast: re.Pattern[str] | None, today: date | None
) -> int | None:
    years = [
        m.period.year
        for m in periods
        if m.period is not None
        and m.period.year is not None
        and m.period.sub != "E"
        and _plausible(m.period.year, today)
        and not _forecast_before(folded, m.start, forecast)
        and not _planned(folded, m)
        and not folded.startswith("同期", m.end)  # `仅为2019年同期的10%`: a base, older than the text
    ]
    return max(years) if years else None


_PLANNED_RE = re.compile(r"[^，。；,;]{0,8}?(?:计划|目标|预计|有望|将|力争|规划|拟)")


def _planned(folded: str, m: PeriodMention) -> bool:
    """`2021年公司计划拓店350家`, `2021年将加快…`: a year the text plans for, not one it reports."""
    return m.period is not None and m.period.sub in ("", "FY") and bool(_PLANNED_RE.match(folded, m.end))


_UNDATED_Q1_REPORT_RE = re.compile(r"(?<![0-9年])\s?(?:一季报|一季度报告|第一季度报告)")
_ANNUAL_SAME_DAY_RE = re.compile(
    r"(?:同日|同时|同期|一并)(?:还)?(?:发布|公布|披露|公告)(?:了)?\s?(?P<y>20[0-9]{2})\s?(?:年\s?)?(?:年报|年度报告)"
)
"""`披露一季度报告…。同日披露2021年报`: an undated first-quarter report published with an annual report."""
_NEXT_Q1_REPORT_RE = re.compile(
    r"(?:发布|公布|披露|公告)[^。]{0,30}?(?P<y>20[0-9]{2}|[0-9]{2})\s?年?\s?(?:一季报|一季度报告|第一季度报告)"
)


def first_quarter_beside_annual(
    folded: str, mentions: list[PeriodMention], main: Period | None
) -> tuple[list[PeriodMention], Period | None]:
    """`太安堂披露一季度报告，实现营业收入1.91亿元…。同日披露2021年报…`: a first-quarter report named with no
    year and published the same day as the annual report of a year is the next year's first quarter (the
    quarter's report comes out in the April after the year ends); its undated 一季度 mentions and a main
    period borrowed from the annual report's year (2021Q1) move to that year."""
    if main is None or main.year is None or main.sub not in ("Q1", "FY"):
        return mentions, main
    together = _ANNUAL_SAME_DAY_RE.search(folded)
    if (
        together is None
        or _year(together.group("y")) != main.year
        or not _UNDATED_Q1_REPORT_RE.search(folded, 0, together.start())
        or any(m.period is not None and m.period.sub == "Q1" and m.period.year is not None for m in mentions)
    ):
        return mentions, main
    moved = [
        PeriodMention(m.start, m.end, Period(main.year + 1, "Q1"), m.kind, m.years)
        if m.period is not None and m.period.year is None and m.period.sub == "Q1"
        else m
        for m in mentions
    ]
    return moved, Period(main.year + 1, "Q1") if main.sub == "Q1" else main


def next_first_quarter(
    folded: str, mentions: list[PeriodMention], main: Period | None
) -> list[PeriodMention]:
    """`公司发布2021年年度报告以及2022年一季度报告…2022年一季度公司实现营业收入4.29亿元…公司一季度毛利率…`:
    a note on an annual report that also publishes the next year's first-quarter report speaks of that
    quarter when it says `一季度` without a year after it has named it with its year; the year's own first
    quarter is then always dated or listed with the others (`一季度、二季度…分别`), so a bare first quarter in
    a sentence naming another quarter keeps the main year."""
    if main is None or main.sub != "FY" or main.year is None:
        return mentions
    published = _NEXT_Q1_REPORT_RE.search(folded)
    if published is None or _year(published.group("y")) != main.year + 1:
        return mentions
    dated = [
        m
        for m in mentions
        if m.period is not None and m.period.year == main.year + 1 and m.period.sub == "Q1"
    ]
    if not dated:
        return mentions
    out = []
    for m in mentions:
        p = m.period
        if p is not None and p.year is None and p.sub == "Q1" and m.start > dated[0].start:
            lo = max(folded.rfind(ch, 0, m.start) for ch in "。；;\n") + 1
            hi = min([i for i in (folded.find(ch, m.end) for ch in "。；;\n") if i >= 0] or [len(folded)])
            others = [
                o for o in mentions
                if lo <= o.start < hi and o.period is not None and o.period.year is None
                and o.period.sub in ("Q2", "Q3", "Q4", LAST_QUARTER)
            ]  # fmt: skip
            if not others:
                m = PeriodMention(m.start, m.end, Period(main.year + 1, "Q1"), m.kind, m.years)
        out.append(m)
    return out
