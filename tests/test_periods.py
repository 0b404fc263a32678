"""The one period vocabulary (lmscreen.periods): labels that mean one thing, and the disclosure deadlines
written once, checked against the calendar rules the pool used before they were merged."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from lmscreen.periods import (
    DISCLOSURES,
    Period,
    annualizing_factor,
    full_year_due,
    latest_due,
    period_ending,
    published_period,
)
from lmscreen.task.periods import document_period

LABELS = {
    "FY2024": Period(2024, "FY"),
    "2024H1": Period(2024, "H1"),
    "2024H2": Period(2024, "H2"),
    "2024Q1-Q3": Period(2024, "Q1-Q3"),
    "2024Q1": Period(2024, "Q1"),
    "2024Q3": Period(2024, "Q3"),
    "2024Q4": Period(2024, "Q4"),
    "2025E": Period(2025, "E"),
    "TTM": Period(None, "TTM"),
}


@pytest.mark.parametrize(("label", "period"), sorted(LABELS.items()))
def test_every_label_parses_to_its_period_and_back(label: str, period: Period) -> None:
    assert Period.parse(label) == period
    assert period.label() == label


@pytest.mark.parametrize("text", ["2024FY", "2024Q5", "Q3", "FY24", "2024q3", "2024Q1-Q2", ""])
def test_anything_else_is_refused_naming_it(text: str) -> None:
    with pytest.raises(ValueError, match=f"not a period label: {text!r}"):
        Period.parse(text)


def test_a_year_alone_is_the_full_year_and_an_unnamed_quarter_has_no_label() -> None:
    assert Period(2024, "").label() == "FY2024"
    assert Period(None, "H1").label(2023) == "2023H1"
    assert Period(None, "H1").label() is None
    assert Period(None, "Q").label(2024) is None  # 单季度 without a number: no label to give


def test_cumulative_periods_end_on_quarter_ends_and_annualise() -> None:
    assert [period_ending(date(2024, m, d)) for m, d in ((3, 31), (6, 30), (9, 30), (12, 31))] == [
        Period(2024, "Q1"),
        Period(2024, "H1"),
        Period(2024, "Q1-Q3"),
        Period(2024, "FY"),
    ]
    assert period_ending(date(2024, 9, 29)) is None
    assert [annualizing_factor(Period.parse(x)) for x in ("2024Q1", "2024H1", "2024Q1-Q3", "FY2024")] == [
        4.0,
        2.0,
        4.0 / 3.0,
        1.0,
    ]
    assert annualizing_factor(Period.parse("2024Q3")) is None  # a quarter alone is not year-to-date
    assert Period.parse("2024Q1-Q3").end == date(2024, 9, 30)


def test_the_deadlines_are_the_csrc_ones() -> None:
    due = {d.period(2024).label(): d.due(2024) for d in DISCLOSURES}
    assert due == {
        "2024Q1": date(2024, 4, 30),
        "2024H1": date(2024, 8, 31),
        "2024Q1-Q3": date(2024, 10, 31),
        "FY2024": date(2025, 4, 30),
    }


def _days(*years: int):
    day = date(years[0], 1, 1)
    while day.year <= years[-1]:
        yield day
        day += timedelta(days=1)


def test_latest_due_matches_the_month_rule_on_every_day() -> None:
    """The month rule periods_due and the ROE header reader each coded before: November on Q1-Q3,
    September on H1, May on Q1, before May the previous year's Q1-Q3 (annual reports are due 30 April)."""
    for day in _days(2024, 2025):
        y, m = day.year, day.month
        expected = f"{y}Q1-Q3" if m >= 11 else f"{y}H1" if m >= 9 else f"{y}Q1" if m >= 5 else f"{y - 1}Q1-Q3"
        assert latest_due(day).label() == expected, day
        assert full_year_due(day) == (y - 1 if m >= 5 else y - 2), day


def test_published_period_matches_the_month_rule_on_every_day() -> None:
    """The month rule labels_from_publication coded before: January to March the previous year's annual
    report, April either annual or Q1 (unknown), May-June Q1, July-September H1, October on Q1-Q3."""
    for day in _days(2024, 2025):
        y, m = day.year, day.month
        expected = (
            f"FY{y - 1}"
            if m <= 3
            else None
            if m == 4
            else f"{y}Q1"
            if m <= 6
            else f"{y}H1"
            if m <= 9
            else f"{y}Q1-Q3"
        )
        found = published_period(day)
        assert (found.label() if found else None) == expected, day


@pytest.mark.parametrize(
    ("opening", "label"),
    [
        ("贵州茅台2024年前三季度报告：公司前三季度实现营业收入1,231.23亿元。", "2024Q1-Q3"),
        ("2024年第三季度报告。本报告期营业收入396.72亿元。", "2024Q3"),
        ("平安银行2024年年度报告摘要。报告期内本行实现营业收入14,669,500万元。", "FY2024"),
        ("2025年半年度报告。公司上半年实现营业收入893.89亿元。", "2025H1"),
    ],
)
def test_a_reports_own_period_uses_the_same_labels(opening: str, label: str) -> None:
    found = document_period(opening)
    assert found is not None and found.label() == label
