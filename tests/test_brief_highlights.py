"""The highlights and the template on filings the reader reads for real: derived growth and points,
a swing to loss, 扣非 far from 归母; and the check refusing what a careless model says."""

from __future__ import annotations

from lmscreen.task.brief.check import check
from lmscreen.task.brief.highlights import choose
from lmscreen.task.brief.numbers import spoken_numbers
from lmscreen.task.brief.script import parse_length, read_length, template
from lmscreen.task.facts import read_facts

TABLE = """某某股份2024年年度报告摘要
主要会计数据
| 项目 | 2024年 | 2023年 |
| 营业收入（元） | 12,000,000,000.00 | 10,000,000,000.00 |
| 归属于上市公司股东的净利润（元） | -1,500,000,000.00 | 1,200,000,000.00 |
| 归属于上市公司股东的扣除非经常性损益的净利润（元） | -2,900,000,000.00 | 1,100,000,000.00 |
| 毛利率（%） | 30.50 | 28.20 |
"""


def _highlights(text: str = TABLE, level: str = "中"):
    return choose(read_facts(text), "某某股份", risk_level=level, rules_fired=["roe_lt_15"])


def test_growth_and_points_the_filing_does_not_print_are_derived_from_two_facts() -> None:
    hl = _highlights()
    by_kind = {h.kind: h for h in hl.items}
    growth = by_kind["revenue"].nums["growth"]
    assert growth.op == "growth" and growth.value == 20.0
    assert [f.value for f in growth.inputs] == [12e9, 10e9]
    change = by_kind["gross_margin"].nums["change"]
    assert change.op == "difference" and round(change.value, 6) == 2.3
    assert by_kind["net_profit"].notes["swing"] == "to_loss"
    assert "growth" not in by_kind["net_profit"].nums  # no growth rate across a sign change
    script = template(hl)
    assert "全年实现营收120.00亿元，同比增长20.00%。" in script.text
    assert "归母净利润亏损15.00亿元，由盈转亏。" in script.text
    assert "扣除非经常性损益后亏损29.00亿元" in script.text
    assert "毛利率为30.50%，较上年提升2.30个百分点。" in script.text


def test_the_template_passes_its_own_check_and_every_number_is_placed() -> None:
    hl = _highlights()
    for style in ("video", "post", "plain"):
        script = template(hl, style)
        assert check(script.text, hl) == [], style
        said = [(s.start, s.end) for s in spoken_numbers(script.text)]
        assert said == [(s, e) for s, e, _ in script.placed], style


def test_the_check_names_each_bad_number_and_contradiction() -> None:
    hl = _highlights(level="高")
    ok = "某某股份2024年营收120.00亿元，同比增长20%。以上内容根据公开财报整理，不构成投资建议。"
    assert check(ok, hl) == []  # 20% says 20.00% at its own precision
    assert check(ok.replace("增长20%", "增长21%"), hl) == ["number not in the filing's figures: 21%"]
    assert check(ok.replace("增长", "下降"), hl) == ["number not in the filing's figures: 20%"]
    assert check(ok.replace("120.00亿元", "100亿元"), hl) == ["number not in the filing's figures: 100亿元"]
    assert check(ok.replace("营收", "营收一百二十亿元，即"), hl) == []
    assert "number not in the filing's figures: 四成" in check(ok + "毛利率提升四成。", hl)
    assert check(ok + "属于低风险公司。", hl) == ["contradicts the risk level 高: 低风险"]
    assert check(ok + "业绩大增。", hl) == ["contradicts the profit's fall: 大增"]
    assert check(ok + "按筛选规则风险等级为低。", hl) == ["contradicts the risk level 高: 风险等级为低"]
    assert check(ok + "按筛选规则风险等级为高。", hl) == []
    assert check(ok.replace("以上内容根据公开财报整理，不构成投资建议。", ""), hl) == ["no disclaimer"]


def test_the_script_fits_the_asked_length() -> None:
    assert parse_length("60s") == 240 and parse_length("300字") == 300
    assert read_length("营收1741.44亿元，增长15.66%。") == 2 + 10 + 3 + 2 + 3 + 5
    hl = _highlights()
    whole, short = template(hl, "video", 1000), template(hl, "video", 150)
    assert whole.read_length > 150 and not whole.over_length
    assert short.read_length <= 150 and not short.over_length
    assert len(short.placed) < len(whole.placed)  # the last highlights went, the hook and risk stayed
    assert short.text.endswith("以上内容根据公开财报整理，不构成投资建议。") and "风险等级为中" in short.text
    tiny = template(hl, "video", 10)  # never below two highlights: flagged, not emptied
    assert tiny.over_length and "营收" in tiny.text and "归母净利润" in tiny.text


def test_an_approximate_figure_is_said_as_one_and_a_digit_in_the_name_is_no_number() -> None:
    text = (
        "三六零2024年年度报告：公司实现营业收入约831.42亿元，同比增长5.2%；"
        "归属于上市公司股东的净利润约12.30亿元，同比增长3.1%。"
    )
    hl = choose(read_facts(text), "360科技", risk_level="低")
    script = template(hl)
    assert "实现营收约831.42亿元，同比增长5.2%。" in script.text
    assert "归母净利润约12.30亿元，同比增长3.1%。" in script.text
    assert script.text.startswith("360科技发布2024年年报") and check(script.text, hl) == []
