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


DISCLAIMER_EN = "Compiled from public financial reports; not investment advice."


def test_the_english_script_reads_as_sentences_and_passes_its_own_check() -> None:
    hl = _highlights()
    script = template(hl, lang="en")
    assert (
        "For the full year, the company reported revenue of RMB 12.00 bn, up 20.00% year on year."
        in script.text
    )
    assert "a net loss attributable to shareholders of RMB 1.50 bn, swinging from a profit" in script.text
    assert "Excluding one-off items, it lost RMB 2.90 bn" in script.text
    assert "Gross margin was 30.50%, up 2.30 percentage points from a year earlier." in script.text
    assert script.text.startswith("某某股份 has published its 2024 annual report")
    assert "the risk level is medium, because of a modest return on equity" in script.text
    for style in ("video", "post", "plain"):
        script = template(hl, style, lang="en")
        assert check(script.text, hl, "en") == [], style
        said = [(s.start, s.end) for s in spoken_numbers(script.text, lang="en")]
        assert said == [(s, e) for s, e, _ in script.placed], style
        assert script.text.endswith(DISCLAIMER_EN)


def test_the_english_check_names_each_bad_number_and_contradiction() -> None:
    hl = _highlights(level="高")
    ok = "某某股份's 2024 revenue was RMB 12.00 bn, up 20% year on year. " + DISCLAIMER_EN
    assert check(ok, hl, "en") == []
    assert check(ok.replace("RMB 12.00 bn", "RMB 12,000 mn"), hl, "en") == []  # the same amount, in mn
    assert check(ok.replace("RMB 12.00 bn", "120.00亿元"), hl, "en") == []  # or as the filing prints it
    assert check(ok.replace("RMB 12.00 bn", "twelve billion yuan"), hl, "en") == []
    assert check(ok.replace("RMB 12.00 bn", "RMB 120.00 bn"), hl, "en") == [  # a wrong scale
        "number not in the filing's figures: RMB 120.00 bn"
    ]
    assert check(ok.replace("up 20%", "down 20%"), hl, "en") == ["number not in the filing's figures: 20%"]
    assert check(ok.replace("up 20% year on year", "20% lower than a year ago"), hl, "en") == [
        "number not in the filing's figures: 20%"
    ]
    assert check(ok.replace("20%", "21%"), hl, "en") == ["number not in the filing's figures: 21%"]
    assert check(ok.replace("2024", "FY2025"), hl, "en") == ["number not in the filing's figures: 2025"]
    assert check(ok + " Revenue doubled.", hl, "en") == ["number not in the filing's figures: doubled"]
    assert check(ok + " It trades at 20x earnings.", hl, "en") == ["number not in the filing's figures: 20x"]
    assert check(ok + " Profit was three hundred million yuan.", hl, "en") == [
        "number not in the filing's figures: three hundred million"
    ]
    assert check(ok + " 净利润三百亿元。", hl, "en") == ["number not in the filing's figures: 三百亿元"]
    assert check(ok + " It is a low-risk stock.", hl, "en") == ["contradicts the risk level high: low-risk"]
    assert check(ok + " The risk level is low.", hl, "en") == [
        "contradicts the risk level high: risk level is low"
    ]
    assert check(ok + " Under the rules the risk level is high.", hl, "en") == []
    assert check(ok + " Profit surged.", hl, "en") == ["contradicts the profit's fall: surge"]
    assert check(ok.replace(DISCLAIMER_EN, ""), hl, "en") == ["no disclaimer"]


def test_english_length_is_words_and_the_script_fits() -> None:
    from lmscreen.task.brief.script_en import read_words

    assert parse_length("60s", "en") == 150 and parse_length("90s", "en") == 225
    assert parse_length("120 words", "en") == 120 and parse_length("80w", "en") == 80
    assert read_words("某某股份's revenue was RMB 174.14 bn, up 15.66% year on year.") == 2 + 10
    hl = _highlights()
    whole, short = template(hl, "video", 1000, "en"), template(hl, "video", 100, "en")
    assert whole.read_length > 100 >= short.read_length and not short.over_length
    assert len(short.placed) < len(whole.placed) and short.text.endswith(DISCLAIMER_EN)


def test_pool_fields_give_numbers_that_name_their_cells() -> None:
    from lmscreen.task.brief.pool_fields import PoolColumns, from_pool

    cols = PoolColumns(
        "pool.csv", {"pe_ttm": "市盈率", "roe": "ROE(%)", "eps": "EPS", "net_profit_2024": "净利润_2024"}
    )
    row = {
        "row": 7,
        "pe_ttm": -12.5,
        "roe": 8.25,
        "eps": None,
        "net_profit_2023": -3e8,
        "net_profit_2024": 2.5e8,
    }
    hl = from_pool(row, cols, "某某股份", risk_level="中", rules_fired=["pe_le_0"])
    assert hl is not None and hl.basis == "pool"
    by_kind = {h.kind: h for h in hl.items}
    profit = by_kind["pool_profit"]
    assert (
        profit.notes["swing"] == "to_profit" and "growth" not in profit.nums
    )  # no rate across a sign change
    assert profit.nums["value"].pool.column == "net_profit_2024" and profit.nums["value"].pool.row == 7
    assert profit.nums["year"].pool.part == "header" and "eps" not in by_kind
    script = template(hl)
    assert "2024年净利润2.50亿元，实现扭亏为盈。" in script.text and "市盈率为负" in script.text
    assert "净资产收益率为8.25%。" in script.text and "市盈率为负值" not in script.text
    said = [(s.start, s.end) for s in spoken_numbers(script.text, ("某某股份",))]
    assert said == [(s, e) for s, e, _ in script.placed]
    english = template(hl, lang="en")
    assert "Net profit for 2024 was RMB 250.00 mn, a return to profit." in english.text
    assert "The PE is negative" in english.text and "Return on equity is 8.25%." in english.text
    assert from_pool({"row": 3, "pe_ttm": None, "roe": float("nan")}, cols, "空") is None


def test_a_main_business_margin_is_said_by_its_own_name_and_passes_the_check() -> None:
    """`主营业务毛利率 22.27%` is the main business's margin: a script calling it the company's 毛利率 would
    state something the filing does not."""
    text = (
        "某某科技2019年年度报告。报告期内，公司实现营业收入117,530.10万元，较去年同期减少4.49%，实现归属于"
        "上市公司股东的净利润12,946.50万元，较去年同期减少28.95%。主营业务毛利率22.27%。"
    )
    from lmscreen.task.brief.script_en import template_en

    hl = choose(read_facts(text), "某某科技", risk_level="中", rules_fired=["roe_lt_15"])
    margin = next(h for h in hl.items if h.kind == "gross_margin")
    assert margin.notes.get("main_business") is True
    script = template(hl)
    assert "主营业务毛利率为22.27%" in script.text and "。毛利率为" not in script.text, script.text
    assert check(script.text, hl) == []
    assert "Main-business gross margin" in template_en(hl).text
