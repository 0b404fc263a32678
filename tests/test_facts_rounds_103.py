"""What held-out round 103 showed the reader missing: a news item that runs on from its headline with spaces
and no stop (某某科技2021年净利1520.36万元增长18.20% 投资收益增加 某某网 4月20日消息，…营业收入为…), where the
headline's 增长 was read as the name of a part whose figures the body's revenue went on with. Texts written
here in those shapes; the reader is the real one.
"""

from __future__ import annotations

from lmscreen.task.facts import read_facts


def _kept(text: str, field: str, name: str = "") -> float | None:
    fact = read_facts(text, names=(name,)).screening()[field].fact
    return None if fact is None else fact.value


_HEADLINE_RUN = (
    "某某科技2021年净利1520.36万元{move}18.20% 投资收益增加 某某网 4月20日消息，某某科技（830001）近日公布的"
    "2021年报告显示，截止2021年12月31日，2021年营业收入为61,203,118.40元，较上年同期增长12.10%；"
    "归属于挂牌公司股东的净利润为15,203,611.05元，较上年同期增长18.20%。"
)


def test_a_headline_move_word_names_no_part_for_the_body_to_go_on_with() -> None:
    text = _HEADLINE_RUN.format(move="增长")
    assert _kept(text, "revenue") == 61_203_118.40
    assert _kept(text, "revenue", "某某科技") == 61_203_118.40
    assert _kept(text, "net_profit", "某某科技") == 15_203_611.05


def test_a_fall_in_the_headline_names_no_part_either() -> None:
    text = _HEADLINE_RUN.format(move="下降")
    assert _kept(text, "revenue") == 61_203_118.40


def test_a_part_named_before_its_label_is_still_a_part() -> None:
    # control: a real part's name before the label keeps its figures the part's, move words beside it or not
    text = (
        "某某科技发布2021年年报，公司实现营业收入8.62亿元，同比增长12.10%。其中储能业务营业收入3.10亿元，"
        "增长最快的光伏业务营业收入2.05亿元。"
    )
    assert _kept(text, "revenue", "某某科技") == 862_000_000.0
    facts = read_facts(text, names=("某某科技",)).facts
    parts = {f.value: f.scope for f in facts if f.metric == "revenue" and f.basis == "actual"}
    assert parts[310_000_000.0] == "segment"
    assert parts[205_000_000.0] == "segment"
