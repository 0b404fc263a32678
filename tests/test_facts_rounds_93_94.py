"""What held-out round 94 showed: an amount stated as of a month's end (截至2018年9月，…实现净利润0.69亿元)
was read with no period at all, so it took whatever period the text around it gave. Such an amount runs from
January to that month: a quarter's end is the cumulative report period, any other month a span no report
covers. Texts written here in those shapes; the reader is the real one.
"""

from __future__ import annotations

from lmscreen.periods import Period
from lmscreen.task.facts import read_facts

_YEAR = "公司2021年实现营业收入10.20亿元，同比增长12.5%；归母净利润1.05亿元，同比增长8.1%。"


def _kept(text: str, field: str) -> float | None:
    fact = read_facts(text, names=("",)).screening()[field].fact
    return None if fact is None else fact.value


def test_an_as_of_non_quarter_month_is_not_the_year_before() -> None:
    text = _YEAR + "截至2022年2月，公司累计实现营业收入2.13亿元，实现净利润0.31亿元。"
    assert _kept(text, "net_profit") == 105_000_000.0
    assert _kept(text, "revenue") == 1_020_000_000.0


def test_an_as_of_quarter_end_is_the_nine_months_not_the_year() -> None:
    text = _YEAR + "截至2021年9月，公司实现营业收入7.62亿元，实现净利润0.79亿元。"
    assert _kept(text, "revenue") == 1_020_000_000.0
    assert _kept(text, "net_profit") == 105_000_000.0


def test_an_as_of_quarter_end_day_dates_the_document() -> None:
    text = "截止2021年9月30日，公司营业收入7.62亿元，归属于母公司股东的净利润0.79亿元，较去年同比增长6.2%。"
    sheet = read_facts(text, names=("",))
    assert sheet.period == Period(2021, "Q1-Q3")
    assert _kept(text, "revenue") == 762_000_000.0


def test_an_as_of_day_inside_a_month_stays_a_date() -> None:
    text = (
        "截至2022年1月19日，公司债务重组金额累计88.57亿元，"
        "占公司最近一期归属于公司股东的净利润36.65亿元的14.91%。"
    )
    assert read_facts(text, names=("",)).period is None
    assert _kept(text, "net_profit") == 3_665_000_000.0


def test_an_as_of_count_does_not_date_the_document() -> None:
    text = "截至2023年3月31日公司股东户数为1.05万户，较上期减少3269户。公司净利润1.20亿元。"
    assert read_facts(text, names=("",)).period is None
