"""What held-out round 127 showed the reader keeping: a sector report's peer table whose header runs its
columns together with two-digit years (`归母净利润历史三年复合增速20Q1~Q3(亿元)`) gave the `20` of `20Q1~Q3`
as a net profit of 20亿元. Texts written here in that shape; the reader is the real one.
"""

from __future__ import annotations

from lmscreen.task.facts import read_facts
from lmscreen.task.units import find_mentions


def _kept(text: str, field: str, name: str = "") -> float | None:
    fact = read_facts(text, names=(name,)).screening()[field].fact
    return None if fact is None else fact.value


_PEER_TABLE = (
    "图表39主要公司财务指标股票代码公司名称营业收入营业收入增速营收历史三年复合增速归母净利润归母净利润增速"
    "净利润历史三年复合增速20Q1~Q3(亿元)20Q1~Q316~1920Q1~Q3(亿元)20Q1~20Q316~19"
    "600001甲乙科技118.1527%28%23.6834%24%300002丙丁生物35.8637%32%7.89140%46%"
)


def test_a_two_digit_year_glued_to_a_quarter_tag_is_no_figure() -> None:
    text = "本周医药板块上涨。" + _PEER_TABLE
    assert _kept(text, "net_profit") is None


def test_the_short_year_heading_is_read_as_no_amount() -> None:
    mentions = [m for m in find_mentions("净利润20Q1~Q3(亿元)") if m.magnitude == 20]
    assert mentions and all(m.kind == "other" for m in mentions)


def test_a_figure_before_a_word_still_reads_in_its_unit() -> None:
    text = "公司2020年前三季度实现归母净利润20亿元，同比增长12%。"
    assert _kept(text, "net_profit") == 2000000000.0
