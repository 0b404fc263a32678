"""What held-out round 123 (real-yanbao-reports' industry reports) showed the reader doing: an industry deep
dive whose cover's notice names the broker's own research (`请通过合法途径获取本公司研究报告`) was taken for a
company report, so the figures of the one company it profiles last were kept. Texts written here in that
shape; the reader is the real one.
"""

from __future__ import annotations

from lmscreen.task.facts import read_facts


def _kept(text: str, field: str, name: str = "") -> float | None:
    fact = read_facts(text, names=(name,)).screening()[field].fact
    return None if fact is None else fact.value


_NOTICE = "请通过合法途径获取本公司研究报告，如经由未经许可的渠道获得研究报告，请慎重使用。"
_PROFILE = (
    "上市以来九典制药盈利持续增长。2020年前三季度公司营业收入6.57亿元，同比下降0.40%；"
    "归母净利润5519万元，同比增长45.77%。"
)


def test_the_brokers_own_research_in_a_notice_is_no_company_report() -> None:
    text = "行业深度报告凝胶膏剂行业行业报告生物医药2020年11月24日" + _NOTICE + _PROFILE
    assert _kept(text, "revenue") is None
    assert _kept(text, "net_profit") is None


def test_a_company_research_cover_keeps_its_figures() -> None:
    text = "公司研究报告九典制药2020年11月24日" + _NOTICE + _PROFILE
    assert _kept(text, "revenue") == 657_000_000.0
