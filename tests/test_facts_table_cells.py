"""A forecast table a PDF extraction printed on one line with nothing between its cells
(`2019A2020A2021E…营业收入(百万元)1604.331332.43…`): a row's cells are cut apart only where one count of
decimals cuts the whole run into plain numbers, one per header year, and only the main period's column is
the period's figure. Texts written here in that shape; the reader is the real one.
"""

from __future__ import annotations

from lmscreen.task.facts import read_facts
from lmscreen.task.tables import split_cells


def _kept(text: str, field: str, name: str = "某公司") -> float | None:
    fact = read_facts(text, names=(name,)).screening()[field].fact
    return None if fact is None else fact.value


_NOTE = "公司发布2020年年报，业绩符合预期。附表：盈利预测"
_HEADER = "2019A2020A2021E2022E2023E"
_ROWS = (
    "营业收入(百万元)1604.331332.431853.292451.473081.77"
    "归母净利润(百万元)370.78230.07429.39607.84773.44"
    "ROE（%）6.804.197.219.4511.01资料来源：Wind"
)


def test_glued_cells_under_a_year_header_give_the_main_years_column() -> None:
    text = _NOTE + _HEADER + _ROWS
    assert _kept(text, "revenue") == 1332430000.0
    assert _kept(text, "net_profit") == 230070000.0
    assert _kept(text, "roe") == 4.19


def test_percent_cells_run_together_are_cut_at_their_signs() -> None:
    text = _NOTE + "2020A2021E2022E2023EROE9.70%12.54%14.78%16.74%资料来源：Wind"
    assert _kept(text, "roe") == 9.7


def test_a_row_with_fewer_cells_than_the_header_reads_nothing() -> None:
    text = _NOTE + "2019A2020A2021E2022E2023E2024E" + _ROWS
    assert _kept(text, "revenue") is None
    assert _kept(text, "roe") is None


def test_glued_cells_with_no_year_header_read_nothing() -> None:
    assert _kept(_NOTE + _ROWS, "revenue") is None


def test_a_cut_needs_one_precision_and_plain_numbers() -> None:
    assert split_cells("122.85305.52360.59") == [(0, 6), (6, 12), (12, 18)]
    assert split_cells("32.933.896.1712.6") is not None  # one decimal cuts it: the header's count guards
    assert split_cells("1.200.51.3") is None  # `00.5` or a bare `.3`: no cut leaves plain numbers
    assert split_cells("1.23%4.56") is None  # a percent beside a bare number
    assert split_cells("2020.10.28") is None  # a date
