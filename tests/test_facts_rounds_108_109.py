"""What held-out rounds 108 and 109 (whole broker reports a PDF extractor printed without line breaks)
showed the reader doing wrong. Texts written here in those shapes; the reader is the real one.
"""

from __future__ import annotations

from lmscreen.task.facts import read_facts
from lmscreen.task.units import find_mentions


def _kept(text: str, field: str, name: str = "") -> float | None:
    fact = read_facts(text, names=(name,)).screening()[field].fact
    return None if fact is None else fact.value


# A forecast table flattened onto the text's one line, its last header `ROE(%)`, then the prose.
_TABLE = (
    "财务摘要和估值指标指标2018A2019A2020E2021E营业收入(百万元)321558705 1093毛利率(%)89.392.691.992.6"
    "ROE(%)43.745.038.236.8EPS(摊薄/元)1.022.543.485.31"
)
_PROSE = (
    "公司业绩保持快速增长。2019年公司营收5.58亿元，归母净利润3.06亿元。2020年前三季度营收和归母净利润"
    "分别达到4.64/2.90亿元，同比增长17.40%/31.83%。"
)


def test_a_headers_unit_stops_at_the_end_of_its_sentence() -> None:
    mention = next(m for m in find_mentions(_TABLE + _PROSE) if m.printed.startswith("4.64"))
    assert mention.kind != "percent"


def test_a_slash_pair_after_a_flattened_table_is_the_periods_figures() -> None:
    text = _TABLE + _PROSE
    assert _kept(text, "revenue") == 464_000_000.0
    assert _kept(text, "net_profit") == 290_000_000.0


def test_a_headers_unit_still_holds_for_its_rows_numbers() -> None:
    mentions = find_mentions("营业收入（亿元） 12.5 13.8 15.2\n")
    assert [m.kind for m in mentions] == ["money", "money", "money"]
    assert mentions[0].base == 1_250_000_000.0
