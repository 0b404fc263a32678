"""The facts reader (task/facts.py) on texts written here in the shapes real filings take.

Each test is one class of what real notes, announcements and annual reports do that a five-field reader
got wrong: a unit given once for a table, approximations, short labels, a two-period `分别为` list, a
segment beside the company, a threshold clause, a half-year review quoting the second quarter alone,
disagreeing labels, annual-report tables across a page break, HTML and JSON-lines dumps. No model.
"""

from __future__ import annotations

import json

import pytest

from lmscreen.task import process_choice
from lmscreen.task.facts import FactSheet, read_facts
from lmscreen.task.periods import Period


def screening(text: str, name: str = "") -> dict[str, float | None]:
    got = read_facts(text, names=(name,)).screening()
    return {k: (v.fact.value if v.fact is not None else None) for k, v in got.items()}


def facts(sheet: FactSheet, metric: str, **match: object) -> list:
    out = [f for f in sheet.facts if f.metric == metric]
    for key, want in match.items():
        out = [f for f in out if (f.period_label if key == "period" else getattr(f, key)) == want]
    return out


def test_a_table_whose_unit_is_given_once_above_it() -> None:
    text = (
        "某控股股份有限公司2024年度业绩快报\n单位：万元\n"
        "项目 | 本报告期 | 上年同期 | 增减变动幅度(%)\n"
        "营业总收入 | 536,779.16 | 479,221.05 | 12.01\n"
        "归属于上市公司股东的净利润 | 106,783.12 | 98,432.08 | 8.49\n"
    )
    sheet = read_facts(text)
    got = sheet.screening()
    assert got["revenue"].fact.value == pytest.approx(536779.16e4) and got["revenue"].fact.unit == "万元"
    assert got["net_profit"].fact.value == pytest.approx(106783.12e4)
    prior = facts(sheet, "revenue", basis="prior")
    assert [f.value for f in prior] == [pytest.approx(479221.05e4)] and prior[0].period_label == "FY2023"
    growth = facts(sheet, "net_profit", basis="growth")
    assert [f.value for f in growth] == [pytest.approx(8.49)] and growth[0].unit == "%"
    # the unit in the row's own label wins over none at all (an HTML dump's `营业收入（元）`)
    html = (
        "<p>六、主要会计数据和财务指标</p><table><tr><td></td><td>2019 年</td><td>2018 年</td>"
        "<td>本年比上年增减</td></tr>\n<tr><td>营业收入（元）\n</td><td>2,941,412,770.30\n</td>"
        "<td>2,718,608,796.51</td><td>8.20%</td></tr>\n<tr><td>加权平均净资产收益率</td><td>14.07%</td>"
        "<td>11.35%</td><td>2.72%</td></tr></table>"
    )
    sheet = read_facts(html)
    assert sheet.layout == "html" and (sheet.period.year, sheet.period.sub) == (2019, "FY")
    got = sheet.screening()
    assert got["revenue"].fact.value == pytest.approx(2941412770.30) and got["revenue"].fact.source == "table"
    assert got["roe"].fact.value == pytest.approx(14.07)
    # a unit printed once, after the last of a list's numbers, is every number's
    listed = read_facts("海天味业发布2020年三季报。单三季度营收、归母净利润分别为54.92、13.19亿元。")
    q3 = {f.metric: f.value for f in listed.facts if f.period_label == "2020Q3"}
    assert q3 == {"revenue": pytest.approx(54.92e8), "net_profit": pytest.approx(13.19e8)}


def test_approximations_are_facts_and_say_so() -> None:
    text = (
        "紫金矿业发布2020年半年度报告，报告期内公司实现营业收入约831.42亿元，同比增长23.73%；"
        "实现归属于上市公司股东的净利润24亿元左右。"
    )
    sheet = read_facts(text)
    got = sheet.screening()
    assert got["revenue"].fact.value == pytest.approx(831.42e8) and got["revenue"].fact.approx
    assert got["net_profit"].fact.value == pytest.approx(24e8) and got["net_profit"].fact.approx
    assert got["revenue"].fact.period_label == "2020H1"


def test_short_labels_name_their_figures() -> None:
    text = (
        "事件：公司发布2020年半年报，2020年上半年公司实现营收60.29亿元，同比增长19.15%；实现归母净利4.16亿元，"
        "同比增长23.46%；实现扣非归母净利润4.00亿元，同比增长19.43%。上半年综合毛利率36.21%。"
    )
    sheet = read_facts(text)
    assert screening(text) == {
        "revenue": pytest.approx(60.29e8),
        "net_profit": pytest.approx(4.16e8),
        "gross_margin": pytest.approx(36.21),
        "roe": None,
        "pe_ttm": None,
    }
    assert [f.value for f in facts(sheet, "net_profit_deducted", basis="actual")] == [pytest.approx(4.00e8)]
    assert [f.value for f in facts(sheet, "revenue", basis="growth")] == [pytest.approx(19.15)]


def test_a_two_period_list_gives_each_period_its_number() -> None:
    text = "公司发布2020年半年报。2020Q1、Q2营业收入分别为13.80、27.29亿元，上半年营业收入合计41.09亿元。"
    sheet = read_facts(text)
    by_period = {f.period_label: f.value for f in facts(sheet, "revenue", basis="actual")}
    assert by_period == {
        "2020Q1": pytest.approx(13.80e8),
        "2020Q2": pytest.approx(27.29e8),
        "2020H1": pytest.approx(41.09e8),
    }
    assert screening(text)["revenue"] == pytest.approx(41.09e8)  # the main period's, not a quarter's


def test_a_segment_figure_beside_the_company_figure() -> None:
    text = (
        "顺丰控股发布2021年年报：公司实现营业收入2071.87亿元，归母净利润42.69亿元。分业务看，速运分部贡献"
        "营业收入665亿元，净利润9.78亿元；葵花籽品类实现营收16.9亿元。"
    )
    sheet = read_facts(text, names=("顺丰控股",))
    assert screening(text, "顺丰控股")["revenue"] == pytest.approx(2071.87e8)
    assert screening(text, "顺丰控股")["net_profit"] == pytest.approx(42.69e8)
    segments = sorted((f.metric, round(f.value)) for f in sheet.facts if f.scope == "segment")
    assert segments == [("net_profit", 978000000), ("revenue", 1690000000), ("revenue", 66500000000)]


def test_a_threshold_clause_is_never_a_fact() -> None:
    text = (
        "*ST某某2024年年度报告：报告期营业收入0.38亿元，归属于上市公司股东的净利润-2.15亿元。"
        "根据规定，营业收入低于1亿元且净利润为负的公司将被实施退市风险警示；公司营业收入超过3亿元的目标未能实现。"
    )
    sheet = read_facts(text)
    assert screening(text)["revenue"] == pytest.approx(0.38e8)
    assert all(f.value != pytest.approx(1e8) and f.value != pytest.approx(3e8) for f in sheet.facts)


def test_a_half_year_review_quoting_the_second_quarter_alone() -> None:
    text = (
        "洽洽食品公布2020年半年报。1H20实现收入\\净利22.9\\2.95亿，EPS0.58元；2Q20实现收入\\净利11.5\\1.46亿。"
        "其中，2020年第二季度公司毛利率32.3%；Q2单季度归母净利润同比增长37.5%。1H20毛利率32.2%。"
    )
    sheet = read_facts(text)
    assert (sheet.period.year, sheet.period.sub) == (2020, "H1")
    assert screening(text) == {
        "revenue": pytest.approx(22.9e8),
        "net_profit": pytest.approx(2.95e8),
        "gross_margin": pytest.approx(32.2),
        "roe": None,
        "pe_ttm": None,
    }
    q2 = {(f.metric, f.basis): f.value for f in sheet.facts if f.period_label == "2020Q2"}
    assert q2[("revenue", "actual")] == pytest.approx(11.5e8)
    assert q2[("net_profit", "actual")] == pytest.approx(1.46e8)
    assert q2[("gross_margin", "actual")] == pytest.approx(32.3)
    assert q2[("net_profit", "growth")] == pytest.approx(37.5)


def test_two_disagreeing_labels_give_a_conflict_and_no_value() -> None:
    text = (
        "某公司2024年年度报告：公司实现营业收入150.56亿元。报告期内，公司营业收入为148.30亿元，毛利率30.1%。"
    )
    got = read_facts(text).screening()
    assert got["revenue"].fact is None
    assert sorted(f.value for f in got["revenue"].conflict) == [
        pytest.approx(148.30e8),
        pytest.approx(150.56e8),
    ]
    out = process_choice(None, "600000.SH", text, None, None, engine_error="offline", model_picks=False)
    assert out.revenue_yuan is None and "conflict:revenue" in out.flags
    assert out.gross_margin_pct == pytest.approx(30.1)
    assert out.detail["fields"]["revenue"]["source"] == "conflict"
    assert len(out.detail["conflicts"]["revenue"]) == 2
    # a better label ranks them: the attributable profit beats a plain 净利润, no conflict
    ranked = "某公司2024年年度报告：净利润20.5亿元，归属于上市公司股东的净利润19.8亿元。"
    assert screening(ranked)["net_profit"] == pytest.approx(19.8e8)


def test_an_annual_report_table_across_a_page_break_and_the_parent_statements() -> None:
    text = (
        "2020年年度报告\n七、近三年主要会计数据和财务指标\n(一) 主要会计数据\n单位：元 币种：人民币\n"
        "主要会计数据 | 2020年 | 2019年 | 本期 比上 年同 期增 减(%) | 2018年\n"
        "营业收入 | 1,581,905,632.48 | 1,126,782,253.35 | 40.39 | 1,896,608,630.19\n"
        "归属于上市公司股东的 净利润 | 406,195,463.57 | 221,041,634.94 | 83.76 | 754,465,552.70\n"
        " | 2020年末 | 2019年末 | 本期 末比 上年 | 2018年末\n5 / 195\n2020年年度报告\n"
        " |  |  | 同期 末增 减（% ） | \n"
        "总资产 | 6,278,282,683.24 | 5,585,879,172.02 | 12.40 | 6,313,213,299.08\n"
        "(二) 主要财务指标\n主要财务指标 | 2020年 | 2019年 | 本期比上年同 期增减(%) | 2018年\n"
        "加权平均净资产收益率（%） | 8.37 | 4.49 | 增加3.88个百 分点 | 15.56\n6 / 195\n2020年年度报告\n"
        "合并利润表\n单位:元 币种:人民币\n项目 | 附注 | 2020年度 | 2019年度\n"
        "一、营业总收入 |  | 1,581,905,632.48 | 1,126,782,253.35\n"
        "其中：营业成本 |  | 607,495,250.51 | 424,627,881.88\n"
        "母公司利润表\n单位:元 币种:人民币\n项目 | 附注 | 2020年度 | 2019年度\n"
        "一、营业收入 |  | 13,417,370.45 | 24,085,570.69\n减：营业成本 |  | 8,827,186.01 | 10,717,845.68\n"
    )
    pages = [0, text.index("(二)"), text.index("合并利润表")]
    sheet = read_facts(text, page_at=lambda o: 5 + sum(o >= p for p in pages[1:]))
    got = sheet.screening()
    assert got["revenue"].fact.value == pytest.approx(1581905632.48) and got["revenue"].fact.page == 5
    assert got["net_profit"].fact.value == pytest.approx(406195463.57)
    assert got["roe"].fact.value == pytest.approx(8.37) and got["roe"].fact.page == 6
    margin = got["gross_margin"].fact
    assert margin.source == "derived" and margin.value == pytest.approx(61.60)
    assert [f.value for f in margin.inputs] == [pytest.approx(1581905632.48), pytest.approx(607495250.51)]
    assert [f.value for f in facts(sheet, "revenue", scope="parent")][:1] == [pytest.approx(13417370.45)]
    assert [f.period_label for f in facts(sheet, "revenue", basis="prior", source="table")][:2] == [
        "FY2019",
        "FY2018",
    ]


def test_a_json_lines_page_dump_gives_pages_and_table_rows() -> None:
    rows = [
        (7, "text", "2019年年度报告"),
        (7, "text", "六、主要会计数据和财务指标"),
        (7, "excel", str(["", "2019年", "2018年", "本年比上年增减", "2017年"])),
        (7, "excel", str(["营业收入（元）", "316,012,587.14", "274,521,190.91", "15.11%", "236,123,004.10"])),
        (
            8,
            "excel",
            str(["归属于上市公司股东的净利润（元）", "80,213,467.55", "70,101,211.23", "14.43%", "6.1"]),
        ),
        (8, "excel", str(["加权平均净资产收益率", "8.12%", "7.65%", "0.47%", "7.01%"])),
    ]
    lines = [{"page": p, "allrow": i, "type": t, "inside": body} for i, (p, t, body) in enumerate(rows, 1)]
    text = "\n".join(json.dumps(line, ensure_ascii=False) for line in lines) + "\n"
    sheet = read_facts(text)
    assert sheet.layout == "json_lines"
    got = sheet.screening()
    assert got["revenue"].fact.value == pytest.approx(316012587.14) and got["revenue"].fact.page == 7
    assert got["net_profit"].fact.value == pytest.approx(80213467.55) and got["net_profit"].fact.page == 8
    assert got["roe"].fact.value == pytest.approx(8.12)
    # the wrapper's own digits (`"page": 7`) are no figures
    assert all(text[f.start : f.end] not in ("7", "8") for f in sheet.facts)


def test_every_fact_span_is_the_printed_number() -> None:
    text = (
        "贵州茅台2024年年度报告摘要：报告期内公司实现营业总收入1741.44亿元，同比增长15.66%；归属于上市公司股东的"
        "净利润862.28亿元。预计2025-2027年归母净利润分别为935.12/1011.34/1090.67亿元，对应PE分别为20.1/18.6/17.2倍。"
        "当前市盈率(TTM)为21.8倍，动态市盈率20.5倍。"
    )
    sheet = read_facts(text)
    for fact in sheet.facts:
        printed = text[fact.start : fact.end]
        assert printed and printed[0] in "-0123456789" and fact.to_json(text)["evidence"]["text"] == printed
    forecasts = {f.period_label: f.value for f in facts(sheet, "net_profit", basis="forecast")}
    assert forecasts == {"2025E": pytest.approx(935.12e8), "2026E": pytest.approx(1011.34e8),
                         "2027E": pytest.approx(1090.67e8)}  # fmt: skip
    assert {f.metric: f.value for f in sheet.facts if f.metric.startswith("pe_") and f.basis == "actual"} == {
        "pe_ttm": pytest.approx(21.8),
        "pe_dynamic": pytest.approx(20.5),
    }
    # `对应PE分别为…` after the forecast list of its sentence: the forecast years' own PEs
    forward = {f.period_label: f.value for f in sheet.facts if f.metric == "pe_forward"}
    assert forward in ({}, {"2025E": 20.1, "2026E": 18.6, "2027E": 17.2})


def test_a_quarter_alone_in_the_heading_is_not_the_notes_period() -> None:
    # a heading names the third quarter; the note's figures are the nine months it then prints (`1-3Q24`)
    text = (
        "3Q24业绩稳健  某旅游公司公布3Q24业绩：1-3Q24营业收入12.40亿元，同比增长5.10%；归母净利润2.10亿元。"
        "其中，3Q24营业收入4.80亿元；归母净利润1.20亿元。3Q24毛利率为50.1%。"
    )
    sheet = read_facts(text)
    assert (sheet.period.year, sheet.period.sub) == (2024, "Q1-Q3")
    assert screening(text) == {
        "revenue": pytest.approx(12.40e8),
        "net_profit": pytest.approx(2.10e8),
        "gross_margin": None,
        "roe": None,
        "pe_ttm": None,
    }
    assert facts(sheet, "revenue", period="2024Q3")[0].value == pytest.approx(4.80e8)
    # with no cumulative period printed, the quarter alone stays the note's own
    alone = read_facts("某公司2024Q3营业收入4.80亿元，同比增长3%；归母净利润1.20亿元。")
    assert (alone.period.year, alone.period.sub) == (2024, "Q3")


def test_a_headings_forecast_is_not_the_next_paragraphs() -> None:
    text = (
        "\u3000\u3000业绩前瞻\u3000\u3000预测2024年净利润同比-12%\u3000\u3000公司公布2024年业绩快报：2024年营业收入"
        "40.2亿元，同比-3.0%；归属母公司净利润2.45亿元，同比-12%。对应4Q24营业收入同比-8%。"
    )
    sheet = read_facts(text)
    assert (sheet.period.year, sheet.period.sub) == (2024, "FY")
    got = screening(text)
    assert got["revenue"] == pytest.approx(40.2e8) and got["net_profit"] == pytest.approx(2.45e8)


def test_a_part_named_without_its_year_takes_the_year_the_text_dates_it() -> None:
    # the first sentence says `上半年` alone; the text dates that half (`2023H1`), and a forecast names a
    # later year: the half is 2023's, not the forecast's year
    text = (
        "上半年业绩亮眼，主业表现强劲，费用率下降。2023H1公司实现营收8.20亿，同增15.2%；归母净利润1.10亿，同增30.5%。"
        "我们略下调23年利润5%，24-25年盈利预测维持不变，维持评级。"
    )
    sheet = read_facts(text)
    assert (sheet.period.year, sheet.period.sub) == (2023, "H1")
    got = screening(text)
    assert got["revenue"] == pytest.approx(8.20e8) and got["net_profit"] == pytest.approx(1.10e8)


def test_a_reporting_verb_before_the_label_is_not_a_segment() -> None:
    # `宣布公司…营收`, `公司公告…营收`, `归属净利`: what is left of the subject is a verb or the owner's word
    text = (
        "某食品公司发布2024年度业绩快报公告。宣布公司2024年全年营收微增4.10%至52.30亿元，"
        "归属净利提升12.50%至6.20亿元。"
    )
    got = screening(text)
    assert got["revenue"] == pytest.approx(52.30e8) and got["net_profit"] == pytest.approx(6.20e8)
    assert screening("公司公告24年前三季度营收18.20亿元，同比增长9.10%；归母净利润3.30亿元。")[
        "revenue"
    ] == pytest.approx(18.20e8)


def test_the_size_of_an_effect_on_a_figure_is_not_the_figure() -> None:
    # `对归母净利润的拖累为0.45亿元`: what a subsidiary costs the company's profit, not the profit
    text = (
        "某快递公司2024年年报显示，其快运子公司仍处亏损，对上市公司归母净利润的拖累为 0.45 亿元，"
        "对营业收入的贡献约 3.2 亿元。"
    )
    sheet = read_facts(text)
    assert screening(text)["net_profit"] is None and screening(text)["revenue"] is None
    assert not facts(sheet, "net_profit") and not facts(sheet, "revenue")


def test_a_list_whose_own_labels_are_not_ours_gives_no_figures() -> None:
    # the labels right before 分别 are the list's (`销售、管理和研发费用率`); the margin earlier in the
    # sentence is not one of them
    text = "2024年实现毛利率62%，同比下滑0.5pct，费用率方面，销售、管理和研发费用率分别为35.2%、7.1%和3.3%。"
    sheet = read_facts(text)
    assert [f.value for f in facts(sheet, "gross_margin")] == [pytest.approx(62.0)]
    assert screening(text)["gross_margin"] == pytest.approx(62.0)


def test_a_bare_revenue_word_right_after_a_year_beside_the_profit() -> None:
    text = "公司公布2024年业绩快报：2024年收入28.4亿元，同比-1.5%；归属母公司净利润2.02亿元，同比-9%。"
    got = screening(text)
    assert got["revenue"] == pytest.approx(28.4e8) and got["net_profit"] == pytest.approx(2.02e8)
    # with no profit beside it, a bare 收入 stays no revenue (`人均年收入`, a segment's income)
    assert screening("2024年收入12.0亿元，主要来自海外。")["revenue"] is None


def test_a_compared_period_is_not_the_figures_and_a_finished_comparison_does_not_hide_one() -> None:
    # `同比转正2024年前三季度`: the comparison ended before the period; `小于上半年水平`: a compared period
    text = (
        "某银行发布2024年三季度报告。公司净利降幅收窄且Q3单季净利增速同比转正2024年前三季度，公司实现营业收入"
        "1200.50亿元，同比增长3.10%，增速较上半年小幅放缓；归母净利润410.20亿元，同比下降0.50%，降幅小于上半年水平；"
        "年化加权ROE为15%，同比减少1.20个百分点。"
    )
    sheet = read_facts(text)
    assert (sheet.period.year, sheet.period.sub) == (2024, "Q1-Q3")
    got = screening(text)
    assert got["revenue"] == pytest.approx(1200.50e8)
    assert got["net_profit"] == pytest.approx(410.20e8) and got["roe"] == pytest.approx(15.0)


def test_a_clause_naming_a_subsidiary_by_the_companys_short_name_makes_a_segment() -> None:
    # `晨星科技`, `晨星生活馆`: the short name 晨星 extended into another name is a subsidiary or brand
    text = (
        "晨星文具发布2024年度报告：报告期内，公司实现营业收入88.20亿元，同比增长12.1%；归母净利润7.70亿元。"
        "报告期内，晨星科力达保持高速增长，实现营业收入30.5亿元，同比增长35.0%。"
        "报告期内，晨星文具保持稳健，实现营业收入88.20亿元。"
    )
    sheet = read_facts(text, names=("晨星文具",))
    assert screening(text, "晨星文具")["revenue"] == pytest.approx(88.20e8)
    sub = [f for f in facts(sheet, "revenue") if f.value == pytest.approx(30.5e8)]
    assert sub and sub[0].scope == "segment" and sub[0].segment.startswith("晨星科力达")


def test_the_reports_announcement_ranks_above_a_later_subjectless_figure() -> None:
    # the announcement states the company's revenue; a later sentence with no subject (a brand's, the
    # reader cannot tell) disagrees: the announcement's is kept. Without an announcement it stays a conflict.
    text = (
        "公司发布2024年中期业绩报告，24H1实现营收180.20亿元，yoy-2.1%；实现归母净利润6.10亿元。"
        "核心品牌门店稳步扩张，业务模式创新驱动毛利提升。24H1实现营收120.40亿元，yoy+1.5%。"
    )
    assert screening(text)["revenue"] == pytest.approx(180.20e8)
    plain = text.replace("公司发布2024年中期业绩报告，", "2024年中期业绩：")
    got = read_facts(plain).screening()["revenue"]
    assert got.fact is None and len(got.conflict) == 2


def test_a_year_then_a_quarter_letter_is_that_quarter() -> None:
    text = "业绩总结：公司2024年Q1实现营业收入12.4亿元，同比增长21.1%，归母净利润为1.9亿元。"
    sheet = read_facts(text)
    assert (sheet.period.year, sheet.period.sub) == (2024, "Q1")
    assert screening(text)["revenue"] == pytest.approx(12.4e8)


def test_a_year_told_about_without_a_figure_is_not_the_notes_period() -> None:
    # a figure later in the year's sentence makes it the period (`2024年经营稳健，营收…`)
    dated = read_facts("研报点评：某某股份2024年经营稳健，营收895.36亿元，归母净利34.12亿元。")
    assert (dated.period.year, dated.period.sub) == (2024, "FY")
    # `2024年公司业绩进入增长周期`: no figure of that year in its clause; the figures are the half's
    text = (
        "产品创新带来经营向好，2024年公司业绩进入稳健增长周期，增持。维持目标价25.0元，对应24年23xPE。"
        "\u3000\u300024H1公司营收40.10亿元（+12.0%），归母净利润4.00亿元（+9.0%），毛利率31.5%（-0.5pct）。"
        "24Q2公司营收22.00亿元（+13.0%），归母净利润2.40亿元（+8.0%），毛利率31.0%。"
    )
    sheet = read_facts(text)
    assert (sheet.period.year, sheet.period.sub) == (2024, "H1")
    assert screening(text) == {
        "revenue": pytest.approx(40.10e8),
        "net_profit": pytest.approx(4.00e8),
        "gross_margin": pytest.approx(31.5),
        "roe": None,
        "pe_ttm": None,
    }


def test_a_report_spoken_of_mid_text_is_not_the_documents_title() -> None:
    # `…是半年报及三季报营收大幅增长的主要原因`: no verb publishes it and no year dates it
    text = (
        "收购资产并表，营收、归母净利大幅增长。2024年前三季度实现营业收入28.40亿元，同比增加39%；"
        "实现归母净利润3.80亿元。公司于5月完成重组，是半年报及三季报营收大幅增长的主要原因。"
        "2025年若恢复常规电价，有望带来业绩弹性。"
    )
    sheet = read_facts(text)
    assert (sheet.period.year, sheet.period.sub) == (2024, "Q1-Q3")
    assert screening(text)["net_profit"] == pytest.approx(3.80e8)


def test_a_share_of_the_whole_names_no_one_and_the_segments_margin_stays_its() -> None:
    text = (
        "公司发布2024年半年报，实现营收3.2亿元，归母净利润1.1亿元。2024H1公司综合毛利率达80.5%。"
        "分板块来看，随动系统实现营收1.20亿元，占公司总营收的37.5%，毛利率达86.0%；板卡系统实现营收1.00亿元，"
        "占公司总营收的31.3%，毛利率达78.0%。"
    )
    assert screening(text)["gross_margin"] == pytest.approx(80.5)


def test_an_amount_slash_its_change_is_a_figure_not_a_list() -> None:
    text = "公司2024年全年实现营收80.10亿元/+12.70%，归母净利4.05亿元/-3.20%，基本每股收益0.31元。"
    got = screening(text)
    assert got["revenue"] == pytest.approx(80.10e8) and got["net_profit"] == pytest.approx(4.05e8)
    # amounts joined by a slash stay a list (`收入/净利22.9/2.95亿` is read as a list elsewhere)
    assert not facts(read_facts("公司归母净利5.05/6.10亿元。"), "net_profit", basis="actual", value=5.05e8)


def test_a_report_named_without_its_year_is_not_the_year_the_text_plans_for() -> None:
    # `公司披露年报` names no year; `2025年公司计划…`, `有望夯实2025年…` are plans, `2024年末` is reported
    text = (
        "事件  公司披露年报。全年实现营收60.20亿元/+10.1%，归母净利3.30亿元/-1.5%。2025年公司计划拓店300家，"
        "有望夯实2025年增长基础。2025年将加快科技创新。2024年末公司存货较上年度增长10%至8.9亿元。"
    )
    sheet = read_facts(text)
    assert (sheet.period.year, sheet.period.sub) == (2024, "FY")


def test_a_margin_after_a_business_income_is_that_businesss() -> None:
    # `贡献发电收入5.10亿元…；毛利率近55%`: the power business's margin, not the company's
    text = (
        "公司发布2024年报，实现营业收入120.40亿元，归母净利润8.10亿元。截至2024年末公司在手电站规模800MW，"
        "贡献发电收入5.10亿元，同比增加50.2%；毛利率近55%；预计2025年新增装机容量达到500MW。"
    )
    assert screening(text)["gross_margin"] is None
    # the company's own revenue beside a margin keeps the margin the company's
    assert screening("公司发布2024年报，公司实现营业收入120.40亿元，毛利率21.5%。")[
        "gross_margin"
    ] == pytest.approx(21.5)


def test_two_reports_announced_and_only_the_later_ones_figures_printed() -> None:
    text = (
        "4月26日晚，公司正式发布2024年年报和2025年一季报，其中，25Q1实现营业收入为10.50亿元，同比增长40.1%；"
        "归母净利润为1.10亿元，同比增长60.2%。"
    )
    sheet = read_facts(text)
    assert (sheet.period.year, sheet.period.sub) == (2025, "Q1")
    got = screening(text)
    assert got["revenue"] == pytest.approx(10.50e8) and got["net_profit"] == pytest.approx(1.10e8)
    # with the year's figures printed too, the document stays the annual report's
    both = text.replace("其中，", "2024年实现营业收入35.20亿元，归母净利润3.30亿元；")
    assert (read_facts(both).period.year, read_facts(both).period.sub) == (2024, "FY")


def test_labels_joined_by_a_comma_then_as_many_amounts_pair_by_position() -> None:
    # `实现营业收入、归母净利润、扣非…47.98亿元、11.28亿元、11.09亿元`: no 分别 before the amounts, no slash
    text = (
        "公司发布2024年业绩快报，2024年实现营业收入、归母净利润、扣非后归母净利润47.98亿元、11.28亿元、"
        "11.09亿元，分别同比增长29.19%、39.83%、43.03%。第四季度单季度，公司实现营业收入、归母净利润"
        "12.12亿元、2.08亿元。"
    )
    sheet = read_facts(text)
    got = screening(text)
    assert got["revenue"] == pytest.approx(47.98e8) and got["net_profit"] == pytest.approx(11.28e8)
    q4 = facts(sheet, "revenue", period="2024Q4", basis="actual")
    assert [f.value for f in q4] == [pytest.approx(12.12e8)]
    # a label of another figure in the run (`拨备前净利润`) takes its number and is not a profit of ours
    bank = "某银行2024年上半年实现营业收入、拨备前净利润、归母净利润199.8亿、130.2亿、78.4亿。"
    assert screening(bank)["net_profit"] == pytest.approx(78.4e8)
    assert screening(bank)["revenue"] == pytest.approx(199.8e8)


def test_a_number_after_a_label_run_it_cannot_be_paired_with_is_no_fact() -> None:
    # one amount after two labels: which one it is, nothing says (a nearest-label reading would be a guess)
    text = "公司发布2024年业绩快报，实现营业收入、归母净利润47.98亿元，同比增长12%。"
    got = screening(text)
    assert got["revenue"] is None and got["net_profit"] is None
    # an amount and a rate do not make a list of two amounts either
    mixed = "公司发布2024年业绩快报，实现营业收入、归母净利润47.98亿元、12.5%。"
    assert screening(mixed)["net_profit"] is None and screening(mixed)["revenue"] is None


def test_nine_months_written_with_a_year_character_and_a_tilde() -> None:
    text = (
        "公司发布公告：2024年Q1~Q3实现营收21亿元，同比增长29.88%；归母净利润6.32亿元。"
        "公司2024Q3实现营收7.28亿元。"
    )
    sheet = read_facts(text)
    assert (sheet.period.year, sheet.period.sub) == (2024, "Q1-Q3")
    assert screening(text)["revenue"] == pytest.approx(21e8)
    q3 = facts(sheet, "revenue", period="2024Q3", basis="actual")
    assert [f.value for f in q3] == [pytest.approx(7.28e8)]


def test_the_company_named_after_a_circumstance_is_the_margins_subject() -> None:
    # `低单价下公司毛利率承压，Q1-Q3毛利率3.0%`: `低单价下` is why, not whose
    text = "公司发布2024年三季报。低单价下公司毛利率承压，2024年前三季度毛利率3.0%，去年同期为12.0%。"
    assert screening(text)["gross_margin"] == pytest.approx(3.0)
    # a subsidiary's margin stays the subsidiary's
    sub = "公司发布2024年三季报。前三季度实现营业收入50.1亿元。其控股子公司毛利率承压，前三季度毛利率3.0%。"
    assert screening(sub)["gross_margin"] is None


def test_a_report_the_figures_are_as_of_is_not_the_documents_period() -> None:
    # `截至2024年半年报，拥有待开发面积…` in a note on the year's express report
    text = (
        "事件：2025年1月，公司实现签约金额335.91亿元。截至2024年半年报，拥有待开发面积8950万平方米。"
        "公司业绩表现靓丽。根据业绩快报，公司预计实现营业总收入1936.3亿元，同比增长32.31%；"
        "归母净利润188.0亿元。2024年加权平均净资产收益率16.44%。"
    )
    sheet = read_facts(text)
    assert sheet.period is None or sheet.period.sub != "H1"
    got = screening(text)
    # an express report's 预计 figures are its (unaudited) actuals
    assert got["revenue"] == pytest.approx(1936.3e8) and got["net_profit"] == pytest.approx(188.0e8)
    assert got["roe"] == pytest.approx(16.44)
    # without the express report the same words are a forecast
    plain = "公司发布2024年年报，实现营业收入100.5亿元。公司预计实现营业总收入1936.3亿元。"
    assert [f.basis for f in facts(read_facts(plain), "revenue") if f.value == pytest.approx(1936.3e8)] == [
        "forecast"
    ]


def test_a_forecasts_midpoint_is_no_actual() -> None:
    # a 业绩预告's range and its midpoint (`全年净利润中值6.75亿元`): an estimate, not the year's figure
    text = (
        "公司发布2024年全年业绩预告：公司2024年实现净利润65,000万元-70,000万元，同比增长49.13%-60.60%。"
        "公司2024年继续实现快速增长，全年净利润中值6.75亿元，据此测算公司第四季度利润中值为2亿元。"
    )
    sheet = read_facts(text)
    assert screening(text)["net_profit"] is None
    assert {f.basis for f in facts(sheet, "net_profit") if f.value == pytest.approx(6.75e8)} == {"forecast"}


def test_a_pe_for_next_year_is_no_ttm_pe() -> None:
    text = "公司发布2024年三季报。预计2024-2026年EPS分别为2.41、3.45和4.67元。目前市值对应明年PE仅为29x。"
    assert screening(text)["pe_ttm"] is None
    # a plain PE with no year beside it stays the PE the report quotes
    assert screening("公司发布2024年三季报。目前公司PE仅为29倍。")["pe_ttm"] == pytest.approx(29.0)


def test_accumulated_figures_are_the_companys() -> None:
    # `前三季度累积实现营收386.24亿元`: 累积 (like 累计) says how, not whose
    text = (
        "公司公布2024三季报，前三季度累积实现营收386.24亿元，同比增76.58%；累积实现归属上市公司股东净利润"
        "22.59亿元，同比增325.83%。其中第三季度实现营收145.05亿元。"
    )
    got = screening(text)
    assert got["revenue"] == pytest.approx(386.24e8) and got["net_profit"] == pytest.approx(22.59e8)


def test_a_companys_profit_in_plain_yuan_too_small_to_be_one_is_kept_as_none() -> None:
    # `归母净利润9072.87元` beside `营业收入38,919.32万`: a 万 dropped in print; keep none rather than 9072.87
    text = (
        "公司发布2024年年报，实现营业收入38,919.32万，同比减少15.27%，实现归母净利润9072.87元，"
        "同比下降20.72%。"
    )
    got = screening(text)
    assert got["revenue"] == pytest.approx(389193200.0) and got["net_profit"] is None
    # a table in plain 元 keeps its figures
    table = (
        "某股份有限公司2024年年度报告\n单位：元\n项目 | 2024年 | 2023年\n"
        "营业收入 | 389,193,200.00 | 459,332,100.00\n"
        "归属于上市公司股东的净利润 | 90,728,700.00 | 114,430,000.00\n"
    )
    assert screening(table)["net_profit"] == pytest.approx(90728700.0)


def test_one_metric_named_twice_before_a_list_pairs_with_no_label() -> None:
    # `毛利率方面：A和B的毛利率分别为59.36%/41.24%`: the segments' margins, not two of the company's
    text = (
        "公司发布2024年年报，实现营收7.34亿元。毛利率方面：环境监测系统和运营服务的毛利率分别为59.36%/41.24%，"
        "分别同比减少1.01/3.32pct，公司的综合毛利率为51.75%，同比减少2.58pct。"
    )
    sheet = read_facts(text)
    assert screening(text)["gross_margin"] == pytest.approx(51.75)
    assert [f.value for f in facts(sheet, "gross_margin")] == [pytest.approx(51.75)]
    # two metrics before one list still pair one to one
    pair = "公司发布2024年年报。2024年公司毛利率、净利率分别为25.8%和9.5%。"
    assert screening(pair)["gross_margin"] == pytest.approx(25.8)


def test_a_numbered_items_heading_names_whose_figures_follow() -> None:
    # `2）d’zzit（DZ）：2019年实现营收8.13亿元`: the brand's revenue, not a second figure of the company's
    text = (
        "公司公布2024年年报，2024年全年实现营业总收入23.78亿元(+13.23%)，实现归母净利润6.24亿元。"
        "分品牌来看：1）DAZZLE（DA）：2024年主品牌DAZZLE实现营收13.72亿元（+11.36%）。"
        "2）d’zzit（DZ）：2024年实现营收8.13亿元（+18.82%），占比34.26%。"
    )
    got = screening(text)
    assert got["revenue"] == pytest.approx(23.78e8)
    brand = [f for f in facts(read_facts(text), "revenue") if f.value == pytest.approx(8.13e8)]
    assert {f.scope for f in brand} == {"segment"}
    # a heading about the report's own figures (`1）业绩：`) names no segment
    own = "公司公布2024年年报。1）业绩：2024年实现营收8.13亿元，归母净利润1.2亿元。"
    assert screening(own)["revenue"] == pytest.approx(8.13e8)


def test_a_repeat_of_a_segments_figure_is_that_segments() -> None:
    # `物业管理业务实现营收51.50亿元` … later `全年实现营业收入51.50亿元` in that business's paragraph: one
    # figure printed twice, the first printing says whose it is; the company's stays the company's
    opening = "公司发布2024年年度报告。报告期内，公司实现营业收入60.78亿元，同比下降8.68%。"
    segment = "分业务来看，物业管理业务实现营收51.50亿元，同比增长32.8%，占营收的84.72%。"
    paragraph = (
        "报告期内，公司物业管理业务在管项目1198个，管理面积约1.53亿平方米，"
        "全年实现营业收入51.50亿元，同比增长32.8%。"
    )
    got = read_facts(opening + segment + paragraph).screening()["revenue"]
    assert got.fact is not None and got.fact.value == pytest.approx(60.78e8)
    # without the segment's own printing nothing says whose the second figure is: still a conflict
    alone = read_facts(opening + paragraph).screening()["revenue"]
    assert alone.fact is None
    assert sorted(f.value for f in alone.conflict) == [pytest.approx(51.50e8), pytest.approx(60.78e8)]


def test_a_clause_opening_with_a_bare_same_period_is_the_period_just_named() -> None:
    # `其中Q3同比降11.2%至9.3亿。同期公司毛利率2.1%，同比下降19.7pcts`: this year's third quarter, not a prior
    text = (
        "2024年1-9月公司实现营业收入32.8亿元，同比下降1.4%。公司1-9月营业成本同比增长2.9%至29.8亿，"
        "其中Q3同比降11.2%至9.3亿。同期公司毛利率2.1%，同比下降19.7pcts。"
    )
    sheet = read_facts(text)
    margin = facts(sheet, "gross_margin")
    assert [(f.value, f.basis, f.period_label) for f in margin] == [(pytest.approx(2.1), "actual", "2024Q3")]
    # after the nine months the same words are the nine months' margin, the document's own
    nine = "2024年1-9月公司实现营业收入32.8亿元，同比下降1.4%。同期公司毛利率9.1%，同比下降3.2pcts。"
    assert screening(nine)["gross_margin"] == pytest.approx(9.1)
    # `上年同期` and a 同期 with no change after it are still the prior period's
    prior = "2024年1-9月公司实现营业收入32.8亿元。上年同期公司毛利率9.1%，同比下降3.2pcts。"
    assert screening(prior)["gross_margin"] is None
    bare = "2024年1-9月公司实现营业收入32.8亿元，毛利率12.3%。同期公司毛利率9.1%。"
    assert screening(bare)["gross_margin"] == pytest.approx(12.3)


def test_a_clause_without_the_single_quarter_mark_after_marked_ones_is_the_reports() -> None:
    # the quarter's figures mark themselves 单季度 clause by clause; `负债率…，毛利率26.8%` does not:
    # it is the report's own
    text = (
        "某光学2024三季报显示，公司主营收入15.74亿元，同比上升72.91%；归母净利润2.26亿元，同比上升190.16%；"
        "其中2024年第三季度，公司单季度主营收入5.79亿元，同比上升48.12%；单季度归母净利润8781.52万元，"
        "同比上升170.41%；单季度扣非净利润8608.07万元，同比上升184.43%；负债率49.42%，毛利率26.8%。"
    )
    sheet = read_facts(text)
    assert [f.period_label for f in facts(sheet, "gross_margin")] == ["2024Q1-Q3"]
    assert screening(text)["gross_margin"] == pytest.approx(26.8)
    assert [f.period_label for f in facts(sheet, "net_profit", basis="actual")] == ["2024Q1-Q3", "2024Q3"]
    # one marked clause: the clauses after it are still the quarter's
    once = (
        "公司发布2024年半年报，上半年实现营收75.95亿元，归母净利润22.69亿元。"
        "其中Q2单季度实现营收33.95亿元；归母净利润10.93亿元，毛利率41.15%。"
    )
    assert [f.period_label for f in facts(read_facts(once), "gross_margin")] == ["2024Q2"]
    assert screening(once)["net_profit"] == pytest.approx(22.69e8)


def test_a_change_list_reaching_levels_reads_the_levels() -> None:
    # `毛利率、净利率较2023年分别提升1.59/0.57个百分点至-0.11%/-4.23%`: the levels after 至, of this year
    text = (
        "某航空2024年营收同比上升16.49%至117.67亿，录得归母净利润亏损4.98亿；"
        "毛利率、净利率较2023年分别提升1.59/0.57个百分点至-0.11%/-4.23%（较2019年下滑14.13/10.28个百分点）。"
    )
    sheet = read_facts(text)
    got = [(f.metric, f.value, f.period_label, f.basis) for f in sheet.facts if f.metric.endswith("margin")]
    assert got == [
        ("gross_margin", pytest.approx(-0.11), "FY2024", "actual"),
        ("net_margin", pytest.approx(-4.23), "FY2024", "actual"),
    ]
    assert screening(text)["gross_margin"] == pytest.approx(-0.11)
    # the changes alone (no 至) are no levels
    changes = "某航空2024年营收117.67亿；毛利率、净利率分别提升1.59/0.57个百分点。"
    assert screening(changes)["gross_margin"] is None


def test_a_margin_after_a_named_products_selling_price_is_that_products() -> None:
    # `实现了石膏板单位售价上升且单位销售成本下降，毛利率提升至37.26%`: the board's margin, not the company's
    text = (
        "公司公布了2024年年度报告。2024年，实现营业收入210.86亿元，归母净利润35.10亿元。"
        "公司强化渠道管理，实现了石膏板单位售价上升且单位销售成本下降，毛利率提升至37.26%，较上年增加1.36pct。"
    )
    margin = facts(read_facts(text), "gross_margin")
    assert [(f.scope, f.segment) for f in margin] == [("segment", "石膏板")]
    assert screening(text)["gross_margin"] is None
    # the whole's price (`产品售价`) or an input's (`原材料价格`) names no product: the company's margin
    whole = "公司公布了2024年年度报告，实现营业收入210.86亿元。公司产品售价上升，毛利率提升至37.26%。"
    assert screening(whole)["gross_margin"] == pytest.approx(37.26)
    bought = "公司公布了2024年年度报告，实现营业收入210.86亿元。受原材料价格上涨影响，毛利率下降至37.26%。"
    assert screening(bought)["gross_margin"] == pytest.approx(37.26)


def test_one_report_word_for_a_year_and_the_next_first_quarter() -> None:
    # `发布2021全年及2022Q1业绩快报`: the document is the year's, the quarter its second report
    text = (
        "事件：2025/4/21，公司发布2024全年及2025Q1业绩快报，2024年实现营业收入183.14亿元，同增40.61%，"
        "归母净利润15.56亿元；2025Q1实现营业收入35.06亿元，归母净利润1.11亿元。2024年，公司毛利率41.43%。"
    )
    sheet = read_facts(text)
    assert sheet.period == Period(2024, "FY")
    got = screening(text)
    assert got["revenue"] == pytest.approx(183.14e8) and got["net_profit"] == pytest.approx(15.56e8)
    assert got["gross_margin"] == pytest.approx(41.43)


def test_an_analysts_own_computation_is_no_reported_figure() -> None:
    # `考虑还原…运输成本…，我们计算2021年综合毛利率同升3.94pct至29.96%`: a restated margin, an estimate
    lead = "公司发布2024年年度报告，实现营收19.9亿元，归母净利润2.4亿元。"
    restated = lead + "考虑还原运输成本会计记账方式变更，我们计算2024年综合毛利率同升3.94pct至29.96%。"
    margin = facts(read_facts(restated), "gross_margin")
    assert [f.basis for f in margin] == ["forecast"]
    assert screening(restated)["gross_margin"] is None
    reported = lead + "2024年综合毛利率同升3.94pct至29.96%。"
    assert screening(reported)["gross_margin"] == pytest.approx(29.96)


def test_a_clause_opening_on_gongsi_names_no_subsidiary() -> None:
    # `公司披露…` makes 公司 a name the text uses; `公司通过发挥规模采购优势…，全年毛利率达到32.0%` is still
    # the company's own margin, not a subsidiary `公司通过发挥规模`'s
    text = (
        "事件：公司披露2024年年报。2024年公司实现营收59.9亿元，归母净利9.3亿元。"
        "2024年原材料价格持续走高，公司通过发挥规模采购优势、锁价策略以及提价方式应对，全年毛利率达到32.0%，"
        "同比+0.1pct。"
    )
    assert screening(text, "洽洽食品")["gross_margin"] == pytest.approx(32.0)
    # the short name extended into another name is still a subsidiary's
    brand = "晨光文具发布2024年年报，实现营业收入233亿元。晨光科力普保持高速增长，实现营业收入36.6亿元。"
    kept = facts(read_facts(brand, names=("晨光文具",)), "revenue", value=pytest.approx(36.6e8))
    assert [f.scope for f in kept] == ["segment"] and kept[0].segment.startswith("晨光科力普")


def test_a_year_written_21fy_before_a_margin_is_a_period_not_a_business() -> None:
    # `　　21FY毛利率同比-2.7pct至27.2%`: after a paragraph's blanks the ASCII before the label is a period
    text = (
        "公司发布2024年年报，24年营收69.4亿（同比+0.3%），归母净利6.4亿。　　　　"
        "24FY毛利率同比-2.7pct至27.2%，系促销力度较23年增强。"
    )
    margin = facts(read_facts(text), "gross_margin")
    assert [(f.scope, f.period_label) for f in margin] == [("company", "FY2024")]
    assert screening(text)["gross_margin"] == pytest.approx(27.2)
    # a business's English name before the label is still the business's
    dram = "公司发布2024年年报，24年营收69.4亿，归母净利6.4亿。　　　　DRAM毛利率同比-2.7pct至27.2%。"
    assert screening(dram)["gross_margin"] is None


def test_a_two_paragraph_note_is_no_table_header() -> None:
    # `…营收69.4亿。　　毛利率为27.2%。`: split at its blanks the line looks like a header row, but no row
    # follows: its figures are the prose's
    got = screening("公司发布2024年年报，营收69.4亿，归母净利6.4亿。　　毛利率为27.2%，同比提升。")
    assert got["revenue"] == pytest.approx(69.4e8) and got["gross_margin"] == pytest.approx(27.2)


def test_total_income_and_the_companys_sales_income_are_its_revenue() -> None:
    # `总收入7.13亿元`, `公司实现销售收入364.52 亿元`: the whole's revenue in other words
    total = "豆神教育披露2024年半年报：总收入7.13亿元(-21%)，归母净利润-9472万元。"
    assert screening(total, "豆神教育")["revenue"] == pytest.approx(7.13e8)
    sales = "公司发布 2024 年半年度报告，报告期内， 公司实现销售收入364.52 亿元，较上年同期增长 70.01%。"
    assert screening(sales)["revenue"] == pytest.approx(364.52e8)
    # a part's 销售收入 names its subject, or follows a segment's own clause: never the company's
    parts = (
        "公司发布2024年半年报。意大利Newchem公司销售收入3.13亿元，同比持平。"
        "2024年公司实现组件对外销售6282.36MW，同比大幅提升87.53%；实现销售收入111.59亿，同比提升60.91%。"
    )
    assert [f for f in facts(read_facts(parts), "revenue") if f.scope == "company"] == []


def test_a_banks_net_operating_income_is_its_revenue() -> None:
    # `营业净收入13.18亿元`: what a bank reports as its revenue (net of interest expense); 利息净收入 is not
    text = (
        "百信银行发布2024年上半年业绩报告，报告显示，百信银行上半年总资产679.32亿元；实现净利润1.04亿元；"
        "其中营业净收入13.18亿元，同比增长64.0%，拨备前利润8.88亿元。"
    )
    assert screening(text, "百信银行")["revenue"] == pytest.approx(13.18e8)
    interest = "某银行发布2024年上半年业绩报告，实现净利润1.04亿元，利息净收入10.2亿元。"
    assert screening(interest)["revenue"] is None


def test_a_rates_change_in_percent_then_its_level_is_no_range() -> None:
    # `综合毛利率同比提高0.59%至36.53%`: the change (printed in %) and the level it reached
    text = (
        "公司发布2024年三季报：24Q1-Q3实现营收39.67亿（-3.29%）。公司24Q1-Q3综合毛利率同比提高0.59%至36.53%。"
    )
    assert screening(text)["gross_margin"] == pytest.approx(36.53)
    # a growth range stays a range, and so does a margin range with no change before it
    growth = "公司发布2024年三季报：预计归母净利润同比增长40%至60%。"
    assert [f for f in read_facts(growth).facts if f.metric == "net_profit"] == []
    span = "公司发布2024年三季报：24Q1-Q3实现营收39.67亿。公司24Q1-Q3毛利率为30%至35%。"
    assert screening(span)["gross_margin"] is None


def test_a_figure_after_a_clause_removing_something_is_adjusted() -> None:
    # `剔除股权激励费用后，归母净利润应为3.04亿元`: the writer's adjusted profit, not a second reported one
    text = (
        "公司发布2024年报和2025年一季报，24年实现营收26.78亿元，同比+68.53%；归母净利润2.80亿元，同比+7.4%；"
        "剔除股权激励费用后，归母净利润应为3.04亿元，同比+16.61%。"
    )
    got = read_facts(text).screening()["net_profit"]
    assert got.fact is not None and got.fact.value == pytest.approx(2.80e8) and not got.conflict
    assert not [f for f in facts(read_facts(text), "net_profit") if f.value == pytest.approx(3.04e8)]
    # a clause that only qualifies (`受益于提价，`) adjusts nothing
    plain = "公司发布2024年报，24年实现营收26.78亿元；受益于提价，归母净利润2.80亿元。"
    assert screening(plain)["net_profit"] == pytest.approx(2.80e8)


def test_a_quarter_the_opening_looks_ahead_to_is_not_the_documents_period() -> None:
    # `…；Q4大客户指引总体平稳，…。中期业绩符合预期…上半年公司营收32.44亿元`: no year anywhere; Q4 is guided
    text = (
        "本报告导读：　　业绩符合预期，数通100G稳健，400G持续上量；毛利率保持稳健；Q4大客户指引总体平稳，"
        "800G产品开始送样。 　　中期业绩符合预期，毛利率保持稳健。上半年公司营收32.44亿元，同比增长59.43%；"
        "归母净利润3.65亿元，同比增长76.13%。"
    )
    sheet = read_facts(text)
    assert sheet.period is not None and sheet.period.sub == "H1"
    got = screening(text)
    assert got["revenue"] == pytest.approx(32.44e8) and got["net_profit"] == pytest.approx(3.65e8)
    # a quarter named in the opening without guidance is still the note's
    own = "Q3业绩符合预期。公司营收12.3亿元，归母净利润1.2亿元。"
    assert read_facts(own).period is not None and read_facts(own).period.sub in ("Q3", "Q1-Q3")


def test_a_slash_list_of_changes_reaching_levels_and_an_adjusted_list() -> None:
    # `毛利率/净利率同降7.15/3.62pct至34.80%/20.61%`: the levels after 至
    text = (
        "公司发布2024年年报，营收41.91亿元，归母净利润8.24亿元。"
        "2024年公司毛利率/净利率同降7.15/3.62pct至34.80%/20.61%。"
    )
    sheet = read_facts(text)
    got = {f.metric: f.value for f in sheet.facts if f.metric.endswith("margin")}
    assert got == {"gross_margin": pytest.approx(34.80), "net_margin": pytest.approx(20.61)}
    # `若剔除…减值影响，则2024年公司归母净利/扣非后归母净利分别为1.1/1.0亿元`: the writer's adjusted figures
    adjusted = (
        "公司公布2024年年报。2024年公司收入9.0亿元，归母净利-17.5亿元。"
        "若剔除六间房及花房科技减值影响，则2024年公司归母净利/扣非后归母净利分别为1.1/1.0亿元。"
    )
    assert screening(adjusted)["net_profit"] == pytest.approx(-17.5e8)


def test_a_margin_moving_from_the_prior_level_or_against_a_base_period_to_its_own() -> None:
    # `综合毛利率由上年同期的53.56%下降到32.28%`: where it came from is the prior period's, named by a word
    text = (
        "公司披露2024年一季报，一季度实现营业收入15亿元，归母净利润3.52亿元。一季度公司水泥销售价格较上年同期"
        "下降了33.65%，使得公司综合毛利率由上年同期的53.56%下降到32.28%，下降了21.28个百分点。"
    )
    sheet = read_facts(text)
    margins = {(f.period.sub, f.basis, f.scope): f.value for f in facts(sheet, "gross_margin")}
    assert margins == {("Q1", "prior", "company"): 53.56, ("Q1", "actual", "company"): 32.28}
    assert screening(text)["gross_margin"] == pytest.approx(32.28)
    # `整体毛利率较2023年全年下滑8.8pct至20.4%`: the year compared against is not the level's period
    base = (
        "公司公布2024年一季报，一季度实现营业收入622.6亿元，归母净利润12.9亿元。"
        "期内整体毛利率较2023年全年下滑8.8pct至20.4%。"
    )
    assert screening(base)["gross_margin"] == pytest.approx(20.4)
    # a period after 较 with the figure right after it is still that period's own figure
    prior = "公司发布2024年年报，营业收入12亿元，归母净利润1.5亿元，毛利率31.2%，较2023年的28.1%有所提升。"
    assert screening(prior)["gross_margin"] == pytest.approx(31.2)


def test_a_restated_margin_or_a_products_margin_is_not_the_companys() -> None:
    head = "公司发布2024年年报，全年实现营业收入12.5亿元，同比增长10%；归母净利润1.8亿元，同比增长12%。"
    # the writer's restatements: something removed or put back, another basis, marked adjusted
    for restated in (
        "剔除运费影响，公司毛利率为33.0%。",
        "还原运费后，毛利率为36.0%。",
        "按可比口径计算，公司毛利率为29.4%。",
        "同口径下公司毛利率为34.0%。",
        "公司毛利率调整后为41.2%。",
        "2024年公司毛利率为41.2%（调整后）。",
    ):
        assert screening(head + restated)["gross_margin"] is None, restated
    # beside the reported margin, the restated one neither wins nor makes a conflict
    both = head + "公司毛利率为35.2%，如剔除新收入准则影响，毛利率为38.1%。"
    assert screening(both)["gross_margin"] == pytest.approx(35.2)
    assert screening(head + "公司经调整净利润为2.3亿元。")["net_profit"] == pytest.approx(1.8e8)
    # a product's own income, named after a word for the main business, makes the margin after it its own
    product = head + "其中，主营产品酱油收入8.2亿元，毛利率41.2%。"
    assert screening(product)["gross_margin"] is None
    # the reported margin stays the company's
    assert screening(head + "公司毛利率为35.2%。")["gross_margin"] == pytest.approx(35.2)


def test_a_bare_income_of_the_company_and_a_cause_before_a_margin() -> None:
    # `2020 年公司收入 19.27 亿元`: a bare 收入 whose clause is the company and its year is the revenue,
    # even when the profit comes sentences later
    text = (
        "公司发布 2024 年年报。 2024 年公司收入 19.27 亿元，同比增长31.20%。其中预调鸡尾酒收入17.12亿元，"
        "同比增长33.82%。 2024 年公司归母净利润 5.36亿元，同比增长 78.31%。"
    )
    assert screening(text)["revenue"] == pytest.approx(19.27e8)
    # a part's bare 收入 stays the part's
    part = "公司发布2024年年报。其中预调鸡尾酒收入17.12亿元，同比增长33.82%。"
    assert screening(part)["revenue"] is None
    # `新准则影响毛利率降1.95PCT至66.20%`: what moved the margin is no segment
    cause = "公司发布2024年年报，营业收入17.45亿元，归母净利润4.64亿元。新准则影响毛利率降1.95PCT至66.20%。"
    assert screening(cause)["gross_margin"] == pytest.approx(66.20)


def test_an_annual_note_with_the_next_first_quarter_gives_its_margin_when_the_year_has_none() -> None:
    text = (
        "公司发布2024年报，实现营收51.11亿元，归母净利润9.79亿元。公司同时发布2025年一季报，实现营收12.55亿元，"
        "归母净利润2.72亿元。风电铸件毛利率同比提升约5.2个百分点，达到30.9%。2025Q1的综合毛利率28.83%。"
    )
    sheet = read_facts(text)
    assert sheet.period == Period(2024, "FY")
    margin = sheet.screening()["gross_margin"].fact
    assert margin is not None and margin.value == pytest.approx(28.83) and margin.period == Period(2025, "Q1")
    # a year's own margin wins over the quarter's
    both = text.replace("风电铸件毛利率", "公司综合毛利率")
    assert screening(both)["gross_margin"] == pytest.approx(30.9)
    # without the quarter's report announced, a quarter's margin is no figure of the annual note
    plain = text.replace("公司同时发布2025年一季报，", "")
    assert screening(plain)["gross_margin"] is None


def test_a_third_quarter_note_printing_only_the_quarter_and_a_sentence_about_a_region() -> None:
    # `九号公司发布3季报：3Q22公司实现营业收入28.1亿元`: the quarter's figures alone, the quarter's note
    text = (
        "九号公司发布3季报：3Q24公司实现营业收入28.1亿元，同比+13.2%，环比-3.2%；归母净利润1.4亿元，同比+2.8%。"
        "3Q24公司毛利率为25.5%，环比-0.9ppt。"
    )
    sheet = read_facts(text)
    assert sheet.period == Period(2024, "Q3")
    got = screening(text)
    assert got["revenue"] == pytest.approx(28.1e8) and got["gross_margin"] == pytest.approx(25.5)
    # with the nine months printed, the note stays the nine months' (its Q3 figures are a part)
    both = (
        "公司发布2024年三季报，前三季度实现营业收入80.3亿元，归母净利润4.1亿元；其中Q3实现营业收入28.1亿元。"
    )
    assert read_facts(both).period == Period(2024, "Q1-Q3")
    assert screening(both)["revenue"] == pytest.approx(80.3e8)
    # `北美洲由于疫情反复，收入增长较为缓慢，上半年实现收入1.52亿元`: a sentence about a region is its own
    region = (
        "公司披露2024年半年度报告。报告显示，上半年公司实现营业收入2.62亿元，同比增长15.99%，实现净利润4648.59万元。"
        "北美洲由于疫情反复，收入增长较为缓慢，上半年实现收入1.52亿元，同比增长5.19%。"
    )
    assert screening(region)["revenue"] == pytest.approx(2.62e8)
    north = [f for f in facts(read_facts(region), "revenue") if f.value == pytest.approx(1.52e8)]
    assert [f.scope for f in north] == ["segment"]


def test_a_slash_list_of_four_labels_with_percent_changes_reaching_four_levels() -> None:
    # `22年营收/营业利润/归母净利润/扣非净利润YOY+10.2%/-15.2%/-17.8%/-14.9%至16.12/2.17/1.87/1.79亿元`
    text = (
        "公司公布2024年年报，24年营收/营业利润/归母净利润/扣非净利润YOY+10.2%/-15.2%/-17.8%/-14.9%至"
        "16.12/2.17/1.87/1.79亿元。单Q4营收/营业利润/归母净利润/扣非净利润YOY+27.2%/+30.3%/+12%/+17%至"
        "4.83/0.7/0.61/0.59亿元。"
    )
    got = screening(text)
    assert got["revenue"] == pytest.approx(16.12e8) and got["net_profit"] == pytest.approx(1.87e8)
    q4 = [f for f in facts(read_facts(text), "revenue") if f.period == Period(2024, "Q4")]
    assert [f.value for f in q4] == [pytest.approx(4.83e8)]


def test_a_nine_months_written_1_3q_and_a_list_with_bracketed_changes() -> None:
    # `公司发布三季报，1-3Q 实现营收 173 亿元…；Q3 实现营收 51 亿元`: 1-3Q without a year is the nine months
    text = (
        "事件：公司发布三季报，1-3Q 实现营收 173 亿元、同增 66%，归母净利润 49 亿元、同增 95%；"
        "Q3 实现营收 51 亿元、同增 48%，归母净利润 13 亿元、同增 53 %。"
    )
    got = screening(text)
    assert got["revenue"] == pytest.approx(173e8) and got["net_profit"] == pytest.approx(49e8)
    # `整体毛利率和净利率分别是42.29%（-2.04pctYoY）和16.30%（-5.21pctYoY）`: the brackets are asides
    listed = (
        "公司公布2024年年报，实现营收831.66亿元，归母净利润128.37亿元。2024年公司整体毛利率和净利率分别是"
        "42.29%（-2.04pctYoY）和16.30%（-5.21pctYoY）。"
    )
    sheet = read_facts(listed)
    got = {f.metric: f.value for f in sheet.facts if f.metric.endswith("margin")}
    assert got == {"gross_margin": pytest.approx(42.29), "net_margin": pytest.approx(16.30)}


def test_a_rate_right_after_a_quarters_sentence_is_the_quarters() -> None:
    # `2021Q4归母净利润同比增29.37%，净利率13.70%，同比增2.24pct。毛利率为30.02%`: the writer goes on about Q4
    text = (
        "公司发布2024年年度报告，全年实现营收69.43亿元，归母净利润6.41亿元。　　提价增厚毛利空间。"
        "2024Q4归母净利润同比增29.37%，净利率13.70%，同比增2.24pct。毛利率为30.02%，调整至去年口径后约同增1pct。"
    )
    sheet = read_facts(text)
    assert [f.period for f in facts(sheet, "gross_margin")] == [Period(2024, "Q4")]
    assert screening(text)["gross_margin"] is None
    # after a paragraph break, the rate is the document's again
    fresh = text.replace("。毛利率为30.02%", "。　　毛利率为30.02%")
    assert screening(fresh)["gross_margin"] == pytest.approx(30.02)
    # `2022Q1，…营收…至8.1亿元…。另外，毛利率同比-1.07pct至75.49%`: 另外 goes on about the quarter
    besides = (
        "公司发布2024年年度报告。报告期内，公司营收25.2亿元，毛利率为76.69%。"
        "2025Q1，公司营收同比+30.16%至8.1亿元。另外，毛利率同比-1.07pct至75.49%。"
    )
    got = {f.value: f.period for f in facts(read_facts(besides), "gross_margin")}
    assert got == {76.69: Period(2024, "FY"), 75.49: Period(2025, "Q1")}


def test_a_business_overall_margin_a_main_business_item_and_a_held_approximate_level() -> None:
    head = "公司发布2024年年报，实现营业收入56.48亿元，归母净利润2.48亿元。"
    # `公司数据中心业务实现收入28.18亿元，…，整体毛利率为30.89%`: the business's overall margin
    business = head + "公司数据中心业务实现收入28.18亿元，同比下滑7.55%，整体毛利率为30.89%。"
    assert screening(business)["gross_margin"] is None
    assert screening(head + "公司整体毛利率为30.89%。")["gross_margin"] == pytest.approx(30.89)
    # `1）主业垃圾焚烧产能集中释放，…，实现营业收入同比+38.99%，毛利率为54.25%`: the main business's
    item = (
        head
        + "1）主业垃圾焚烧产能集中释放，全年新投产装机容量13.0万千瓦，"
        + "实现营业收入同比+38.99%，毛利率为54.25%。"
    )
    assert screening(item)["gross_margin"] is None
    # `毛利率稳定在3%左右`: an approximate level held over time is no figure of the period
    held = head + "报告期间，公司毛利率稳定在3%左右，毛利额增长81.7%至3.67亿元。"
    assert screening(held)["gross_margin"] is None
    assert screening(head + "报告期间，公司毛利率约为3.1%。")["gross_margin"] == pytest.approx(3.1)


def test_a_bare_single_quarter_after_a_named_quarter_is_that_quarter() -> None:
    # `2025年第一季度，公司实现营业收入45.68亿元，…，单季度毛利率回升至29.48%`: the quarter just named
    text = (
        "事件：公司发布2024年年报和2025年一季报。2024年公司实现营业收入241.37亿元，归母净利润15.83亿元。"
        "2025年第一季度，公司实现营业收入45.68亿元，实现归母净利润4.11亿元，单季度毛利率回升至29.48%。"
    )
    sheet = read_facts(text)
    assert [f.period for f in facts(sheet, "gross_margin")] == [Period(2025, "Q1")]
    # alone, 单季度 in an annual note is still its last quarter
    alone = "公司发布2024年年报，全年实现营业收入241.37亿元。单季度毛利率仅为13.18%。"
    assert [f.period for f in facts(read_facts(alone), "gross_margin")] == [Period(2024, "Q4")]


def test_two_labels_joined_by_he_then_two_amounts_pair_in_order() -> None:
    # `实现收入和归母净利润25.6亿和3.2亿`: no 分别, but labels and amounts are joined alike, one to one
    head = "公司发布2024年年报，"
    for listed in (
        "2024年实现收入和归母净利润25.6亿和3.2亿，同比增长8.1%和4.5%。",
        "2024年实现营收、归母净利润25.6亿元、3.2亿元。",
        "2024年营收和归母净利润分别为25.6亿元和3.2亿元。",
        "2024年营收/归母净利润为25.6/3.2亿元。",
        "2024年营收、归母净利润分别为25.6、3.2亿元。",
    ):
        got = screening(head + listed)
        assert got["revenue"] == pytest.approx(25.6e8), listed
        assert got["net_profit"] == pytest.approx(3.2e8), listed
    three = screening(head + "2024年实现营收、归母净利润和扣非归母净利润30.2亿元、4.1亿元和3.9亿元。")
    assert three["revenue"] == pytest.approx(30.2e8) and three["net_profit"] == pytest.approx(4.1e8)
    # one amount after two joined labels: whose it is cannot be settled, so it is neither's
    for unsettled in (
        "2024年实现收入和归母净利润25.6亿，同比增长8.1%。",
        "2024年实现收入和归母净利润25.6亿，3.2亿。",
    ):
        got = screening(head + unsettled)
        assert got["net_profit"] is None and got["revenue"] is None, unsettled


def test_a_margin_restated_before_a_bracketed_note_on_what_was_restated() -> None:
    head = "公司发布2024年年报，全年实现营业收入18.2亿元，归母净利润2.6亿元。"
    for restated in (
        "还原会计准则调整后（将运输费用调整至营业成本），2024年公司毛利率同比提升0.8pct至45.3%。",
        "剔除运费影响（运费计入营业成本），公司毛利率为45.3%。",
        "会计准则调整后，公司毛利率为45.3%。",
        "若还原运费，公司毛利率为45.3%。",
        "同口径对比，公司毛利率为45.3%。",
    ):
        assert screening(head + restated)["gross_margin"] is None, restated
    # beside the reported margin the restated one is no rival
    both = head + "公司毛利率为44.1%；还原运费调整后（运费计入营业成本），毛利率为46.0%。"
    assert screening(both)["gross_margin"] == pytest.approx(44.1)
    # a bracketed aside that restates nothing leaves the margin the report's
    plain = head + "受益于提价（主要产品均提价），公司毛利率为44.1%。"
    assert screening(plain)["gross_margin"] == pytest.approx(44.1)


def test_a_margin_after_a_parts_sales_amount_is_that_parts() -> None:
    head = "公司发布2024年年报，全年实现营业收入18.2亿元，归母净利润2.6亿元。"
    part = head + "2024年公司储能设备海外销售3.2亿元，毛利率38.5%，高于国内31.0%。"
    sheet = read_facts(part)
    assert sheet.screening()["gross_margin"].fact is None
    margin = facts(sheet, "gross_margin")
    assert [(f.value, f.scope) for f in margin][:1] == [(pytest.approx(38.5), "segment")]
    for channel in (
        "线上渠道销售额3.2亿元，毛利率38.5%。",
        "其中出口销售3.2亿元，毛利率38.5%。",
        "2024年出口3.2亿元，毛利率38.5%。",
    ):
        assert screening(head + channel)["gross_margin"] is None, channel
    # the whole's sales say nothing of a part: the margin stays the company's
    for whole in (
        "2024年全年实现销售18.2亿元，毛利率33.0%。",
        "报告期内，公司实现销售收入18.2亿元，毛利率33.0%。",
        "公司产品销售18.2亿元，毛利率33.0%。",
    ):
        assert screening(head + whole)["gross_margin"] == pytest.approx(33.0), whole


def test_a_region_heading_or_a_numbered_items_name_makes_its_figures_a_parts() -> None:
    head = "公司发布2024年年报，全年实现营业收入60.2亿元，归母净利润8.1亿元。"
    # `国内方面：24年营收25.1亿元` … `海外方面：24年营收达35.1亿元`: each region's, not two company revenues
    regions = (
        head + "分区域看，国内方面：24年营收25.1亿元，同比-5.0%。海外方面：24年营收达35.1亿元，同比+60%。"
    )
    sheet = read_facts(regions)
    assert [f.scope for f in facts(sheet, "revenue", basis="actual")] == ["company", "segment", "segment"]
    assert screening(regions)["revenue"] == pytest.approx(60.2e8)
    # a heading on the report's own figures names no part
    for own in (
        "公司发布2024年年报。盈利能力方面：24年营收60.2亿元，归母净利润8.1亿元。",
        "公司发布2024年年报。主营业务方面：24年营收60.2亿元，归母净利润8.1亿元。",
    ):
        assert screening(own)["revenue"] == pytest.approx(60.2e8), own
    # `1）锂电设备：80.1亿元，yoy+40%，毛利率39.0%；2）物流设备：12.2亿元；毛利率19.1%`: each item's margin
    items = (
        head
        + "公司2024年各项业务情况如下：1）锂电设备：40.1亿元，yoy+40%，毛利率39.0%；2）物流设备：12.2亿元，"
        "yoy+6%；毛利率19.1%。公司毛利率/净利率分别为36.5%/13.5%。"
    )
    assert screening(items)["gross_margin"] == pytest.approx(36.5)
    assert {f.scope for f in facts(read_facts(items), "gross_margin") if f.value != pytest.approx(36.5)} == {
        "segment"
    }
    # an item about a period or an aspect of the report is the company's
    dated = (
        "公司发布2024年年报，营业收入60.2亿元。"
        "从盈利能力来看：1）2024：毛利率为36.5%；2）费用率：销售费用率9.1%。"
    )
    assert screening(dated)["gross_margin"] == pytest.approx(36.5)
    # a reason's heading (its text opens on no figure of a part) leaves the margin after it the company's
    for reason in (
        "毛利率提升的原因：1）产品结构：高端产品占比提升，毛利率提升至35.0%。",
        "1）原材料价格：价格回落，毛利率同比+2pct至35.0%。",
    ):
        assert screening(head + reason)["gross_margin"] == pytest.approx(35.0), reason


def test_a_cause_before_a_margin_is_no_part_but_a_named_part_stays_one() -> None:
    head = "公司发布2024年年报，全年实现营业收入46.3亿元，归母净利润12.0亿元。"
    # `（2）2024年公司产品结构持续提升，带动毛利率同+0.33pct至84.5%`: the company moved its own margin
    cause = head + "（2）2024年公司产品结构持续提升，带动毛利率同+0.33pct至84.5%；费用率有所下降。"
    assert screening(cause)["gross_margin"] == pytest.approx(84.5)
    # `产品结构升级带动毛利率…`: a change that moved the margin, no part's name
    for moved in ("产品结构升级带动毛利率上升1.72pct至84.5%。", "销售收入增长带动毛利率提升至84.5%。"):
        assert screening(head + moved)["gross_margin"] == pytest.approx(84.5), moved
    assert screening(head + "白酒业务收入增长带动毛利率提升至84.5%。")["gross_margin"] is None
    # `受益于高端系列放量，毛利率…`: what it gained from is no topic
    benefit = head + "受益于高端系列放量，毛利率同增3.1pct至76.0%，税金及附加率同升0.7pct。"
    assert screening(benefit)["gross_margin"] == pytest.approx(76.0)
    # `公司业务整体毛利率`: the company's whole business
    whole = head + "2024年公司业务整体毛利率20.60%，同比增长0.91个百分点。"
    assert screening(whole)["gross_margin"] == pytest.approx(20.60)
    # a product's volume driving its revenue keeps both the product's; a named business stays a part
    product = (
        head + "（1）成品框销量同比增长11.7%至5034万片，带动营业收入同比增长25.9%至11.2亿元，"
        "毛利率同比提升5.9个pct至31.7%。"
    )
    assert screening(product)["gross_margin"] is None
    latin = head + "2024年公司CRO业务实现收入4.50亿元，毛利率40.1%；公司CMO业务实现收入10.02亿元。"
    got = read_facts(latin).screening()
    assert got["revenue"].fact is not None and got["revenue"].fact.value == pytest.approx(46.3e8)
    assert got["gross_margin"].fact is None


def test_a_hope_put_as_a_heading_before_the_reports_own_figures_is_no_forecast() -> None:
    # `发布2024年一季报，疫情后业绩有望逐步修复：24Q1实现营收33.67亿元`: the report's figures after the hope
    text = (
        "公司发布2024年一季报，业绩有望逐步修复：24Q1实现营收33.67亿元，同比+1.6%，实现归母净利润2.26亿元。"
    )
    got = screening(text)
    assert got["revenue"] == pytest.approx(33.67e8) and got["net_profit"] == pytest.approx(2.26e8)
    # a hope about another period, or a forecast word after the colon, stays a forecast
    later = "公司发布2024年一季报，营收30.1亿元。全年业绩有望高增：2024年实现营收150亿元。"
    assert [f.basis for f in facts(read_facts(later), "revenue", period="2024E")] == ["forecast"]
    ahead = "公司发布2024年一季报，业绩有望逐步修复：预计24Q1实现营收33.67亿元。"
    assert screening(ahead)["revenue"] is None


def test_a_heading_glued_to_a_sentence_opening_on_the_company() -> None:
    # `21年收入、业绩高增长，销售毛利率略降21年公司营业收入为54.19亿元`: the company, not a part named 略降
    text = (
        "公司发布2024年年度报告。　　24年收入、业绩高增长，销售毛利率略降24年公司营业收入为54.19亿元，"
        "同比+48.88%；归母净利润0.84亿元。"
    )
    assert screening(text)["revenue"] == pytest.approx(54.19e8)
    # a subsidiary's figure stays its own
    sub = "公司发布2024年年度报告，营业收入54.19亿元。控股子公司营业收入为12.3亿元。"
    assert screening(sub)["revenue"] == pytest.approx(54.19e8)


def test_a_numbered_items_business_heading_ending_in_fangmian_covers_its_clauses() -> None:
    # `1）有税业务方面，…实现营收5.33亿元，实现毛利率70.32%；…实现毛利率48.81%；2）免税业务…`
    text = (
        "公司发布2024年一季报，24Q1实现营收33.67亿元，实现归母净利润2.26亿元。分业态看，1）有税业务方面，"
        "奥莱业态持续增长，实现营收5.33亿元，实现毛利率70.32%；购物中心持续展现强韧性，实现营收5.95亿元，"
        "实现毛利率48.81%；2）免税业务实现营收5599万元。公司毛利率小幅上升，相比23Q1上升1.86pct至42.80%。"
    )
    got = screening(text)
    assert got["gross_margin"] == pytest.approx(42.80) and got["revenue"] == pytest.approx(33.67e8)
    # `1）业绩方面，`: no business named, the company's own figures
    own = "公司发布2024年一季报。1）业绩方面，24Q1实现营收33.67亿元，实现毛利率42.8%。"
    assert screening(own)["gross_margin"] == pytest.approx(42.8)


def test_an_annual_note_naming_the_next_first_quarters_report_gives_its_revenue_when_the_year_has_none() -> (
    None
):
    # the year's profit is printed, its revenue is not; the quarter's report is named with the year's
    text = (
        "2025Q1公司实现营业收入32.74亿元/YoY+11.9%，归母净利润5.63亿元/YoY+62.6%。根据公司2024年年报及2025年一季报"
        "情况，我们调整盈利预测。1）收入&利润端：2024年归母净利润23.18亿元，同比+46.2%。"
    )
    sheet = read_facts(text)
    got = sheet.screening()
    assert sheet.period == Period(2024, "FY")
    assert got["net_profit"].fact.value == pytest.approx(23.18e8)
    assert (
        got["revenue"].fact.value == pytest.approx(32.74e8) and got["revenue"].fact.period_label == "2025Q1"
    )
    # a plain annual review quoting the next quarter names no report of it: the quarter is no document figure
    plain = "公司发布2024年年报，2024年归母净利润23.18亿元。2025Q1公司实现营业收入32.74亿元。"
    assert screening(plain)["revenue"] is None


def test_a_quarters_aside_stating_only_changes_does_not_carry_past_its_semicolon() -> None:
    # `2020年上半年，公司实现…收入1383亿元，…，其中Q2单季度同比增长6.6%…；实现归母净利润33亿元`: the half's
    text = (
        "公司发布2024年半年报。2024年上半年，公司实现营业收入1383亿元，同比增长4.0%，其中Q2单季度同比增长6.6%，"
        "相比Q1单季度增速提升5.7pct；实现归母净利润33亿元，同比增长10.9%。"
    )
    sheet = read_facts(text)
    assert [f.period_label for f in facts(sheet, "net_profit", basis="actual")] == ["2024H1"]
    assert screening(text)["net_profit"] == pytest.approx(33e8)
    # an aside with a level of its own governs the clause after it
    level = (
        "公司发布2024年年报。2024年公司销售毛利率为28.9%，同比下降6.3pct；净利率为9.3%，其中2024Q4的毛利率"
        "28.1%，同比下降6.8pct；净利率为8.6%，同比增加13.3pct。"
    )
    margins = {f.value: f.period_label for f in read_facts(level).facts if f.metric == "net_margin"}
    assert margins == {9.3: "FY2024", 8.6: "2024Q4"}


def test_two_reports_announced_together_pair_with_a_slash_pair_of_amounts() -> None:
    # `公司发布2022年年报及2023年一季报。公司实现营业收入12.23亿元/3.30亿元…`: the year's, then the quarter's
    text = (
        "事件：公司发布2024年年报及2025年一季报。公司实现营业收入12.23亿元/3.30亿元，同比增长97.80%/42.47%；"
        "实现归母净利润3.56亿元/9965.54万元，同比增长161.97%/62.65%。"
    )
    sheet = read_facts(text)
    got = {(f.metric, f.period_label): f.value for f in sheet.facts if f.basis == "actual"}
    assert got == {
        ("revenue", "FY2024"): pytest.approx(12.23e8),
        ("revenue", "2025Q1"): pytest.approx(3.30e8),
        ("net_profit", "FY2024"): pytest.approx(3.56e8),
        ("net_profit", "2025Q1"): pytest.approx(9965.54e4),
    }
    assert screening(text)["net_profit"] == pytest.approx(3.56e8)
    # without the two reports, or with a period of its own, or three amounts, whose is which is not read
    for unread in (
        "事件：公司发布2024年年报。公司实现营业收入12.23亿元/3.30亿元。",
        "事件：公司发布2024年年报及2025年一季报。2024年公司实现营业收入12.23亿元/3.30亿元。",
        "事件：公司发布2024年年报及2025年一季报。公司实现营业收入12.23亿元/3.30亿元/1.1亿元。",
    ):
        assert not [f for f in read_facts(unread).facts if f.metric == "revenue"], unread


def test_a_business_sentences_margin_is_the_business_and_the_compared_company_margin_the_company() -> None:
    """`公司创新业务…，毛利率为84%，明显高于公司整体毛利率35%`: the sentence is about one business, and
    the figure it is compared with is the company's own (a comparison with a labelled figure is no
    threshold); `可比公司…平均PE` stays the peers'."""
    text = (
        "某某科技2019年营收26.52亿元，同增24%；其中创新业务实现收入7605万元，同增562%。公司创新业务属于运营"
        "服务类业务，具备规模效应，毛利率为84%，明显高于公司整体毛利率35%。"
    )
    sheet = read_facts(text)
    margins = sorted((f.value, f.scope) for f in facts(sheet, "gross_margin"))
    assert margins == [(35.0, "company"), (84.0, "segment")]
    assert screening(text)["gross_margin"] == 35.0
    peers = read_facts("某某科技2022年营收26.52亿元。可比公司2022年平均PE为14x，公司估值偏低。")
    assert not [f for f in peers.facts if f.metric.startswith("pe") and f.scope == "company"]


def test_a_list_of_signed_changes_then_zhi_gives_the_levels_reached() -> None:
    """`ROE、ROA分别同比-2.71pct、-0.22pct至11.70%、0.95%`: each change carries its own unit; the levels after
    至 are the figures, the changes are not."""
    text = "某某银行2020年半年报点评。1-6月年化ROE、ROA分别同比-2.71pct、-0.22pct至11.70%、0.95%，ROE居中。"
    assert screening(text)["roe"] == 11.70
    margins = "公司2020年毛利率、净利率分别同比+1.2%、-0.5%。"
    assert screening(margins)["gross_margin"] is None  # changes alone give no level


def test_a_figure_over_a_span_of_years_is_no_years_figure() -> None:
    """`2016年至2019年，…净利润徘徊在0.5亿元左右`: a level held over four years is no one year's figure
    (and no document period); the quarter the news reports is."""
    text = (
        "财报显示，2016年至2019年，某某星马归属于上市公司股东的净利润徘徊在0.5亿元左右。2020年一季度，某某星马"
        "归属于上市公司股东的净利润亏损约1.1亿元，去年同期约为596万元。"
    )
    sheet = read_facts(text, names=("某某星马",))
    assert sheet.period.label() == "2020Q1"
    assert screening(text, "某某星马")["net_profit"] == -1.1e8
    assert not [f for f in sheet.facts if f.metric == "net_profit" and f.value == 0.5e8]
    listed = read_facts("我们预测公司2022年至2024年归母净利润分别为14.98亿元、53.04亿元、63.74亿元。")
    assert [(f.period_label, f.basis) for f in listed.facts if f.metric == "net_profit"] == [
        ("2022E", "forecast"),
        ("2023E", "forecast"),
        ("2024E", "forecast"),
    ]


def test_a_thousands_comma_ends_no_clause() -> None:
    """`分别为122,329.09万元、91,885.22万元`: the comma groups digits; the list and its subject go on."""
    text = (
        "公司发布2020年半年报。实现利润总额、归属于上市公司股东的净利润分别为122,329.09万元、91,885.22万元，"
        "较上年同期分别上升了31.18%、31.15%；实现归属于上市公司股东的净利润172,581.44万元、扣除非经常性损益后"
        "归属于上市公司股东的净利润为171,764.31万元。"
    )
    sheet = read_facts(text)
    assert 918852200.0 in [f.value for f in facts(sheet, "net_profit", basis="actual")]
    deducted = facts(sheet, "net_profit_deducted", basis="actual")
    assert [(f.value, f.scope) for f in deducted] == [(1717643100.0, "company")]


def test_a_shared_word_after_two_qualifiers_names_both_profits() -> None:
    """`归母/扣非净利润3.24亿/4.28亿`: 归母 and 扣非 share 净利润; the first is the attributable profit."""
    sheet = read_facts("2020Q1营业收入下降35.8%至51.5亿元，实现归母/扣非净利润3.24亿/4.28亿。")
    assert [f.value for f in facts(sheet, "net_profit", basis="actual")] == [3.24e8]
    assert [f.value for f in facts(sheet, "net_profit_deducted", basis="actual")] == [4.28e8]
    assert screening("公司2020年实现归母及扣非净利润分别为3.24亿元、4.28亿元。")["net_profit"] == 3.24e8


def test_a_bare_tongqi_right_before_the_label_is_this_period() -> None:
    """`同期毛利率下降23.5pcts至21.1%` (no 公司 between 同期 and the label): the change says the level is this
    period's; `上年同期毛利率` stays the prior year's."""
    now = "2020Q1营业收入51.5亿元。同期毛利率下降23.5pcts至21.1%，主要由于成本上升。"
    assert screening(now)["gross_margin"] == 21.1
    assert screening("2020Q1营业收入51.5亿元。同期毛利率为21.1%，同比下降23.5pcts。")["gross_margin"] == 21.1
    assert screening("2020Q1营业收入51.5亿元，上年同期毛利率为21.1%。")["gross_margin"] is None


def test_an_item_opening_on_a_subsidiary_keeps_its_figures_the_subsidiarys() -> None:
    # `；③控股子公司某云公司…，上半年实现营业收入3.92亿元，归母净利润-0.26亿元`: even 归母 is the subsidiary's
    text = (
        "公司2024上半年营业收入307.50亿元，同比增长20.11%，归母净利润9.26亿元。看点有：①主营业务稳步增长；"
        "②控股子公司甲乙云公司拓展行业云，打造运营能力，上半年实现营业收入3.92亿元，归母净利润-0.26亿元。"
    )
    got = screening(text)
    assert got["net_profit"] == pytest.approx(9.26e8)
    assert got["revenue"] == pytest.approx(307.50e8)
    sheet = read_facts(text)
    assert [f.scope for f in facts(sheet, "net_profit", basis="actual")] == ["company", "segment"]


def test_another_companys_profit_after_its_named_revenue_is_not_ours() -> None:
    # `其中某柴股份2024年实现营业收入61.31亿元，归母净利润2.03亿元`: the other company's 归母 too
    text = (
        "年报显示，2024年公司实现营收44.56亿元，归属于上市公司股东净利润1.72亿元，同比增长78.16%。"
        "柴油发动机企业普遍报喜，其中甲柴股份2024年实现营业收入61.31亿元，归母净利润2.03亿元，分别同比增长52%和74%。"
    )
    got = screening(text)
    assert got["net_profit"] == pytest.approx(1.72e8)
    assert got["revenue"] == pytest.approx(44.56e8)
    # the company's own name is not another company
    own = "甲柴股份2024年实现营业收入61.31亿元，归母净利润2.03亿元。"
    assert screening(own, name="甲柴股份")["net_profit"] == pytest.approx(2.03e8)


def test_a_paragraph_under_a_numbered_business_heading_is_that_business() -> None:
    # `1.石油机械设备。公司…，实现营业收入17.09亿`: the heading sentence names whose the figures are
    text = (
        "2024年上半年，公司克服不利影响。上半年，实现营业收入31.51亿元。\n"
        "1.石油机械设备。公司紧密跟踪市场信息，取得重点项目，实现营业收入17.09亿，同比增加0.64%。\n"
        "2.钻头及钻具。公司优化市场资源配置，实现营业收入4.63亿，同比增加11.38%。\n"
    )
    assert screening(text)["revenue"] == pytest.approx(31.51e8)
    # a heading that says how things went names no business
    plain = "公司发布2024年半年报。\n1.收入稳步增长。公司跟踪市场信息，实现营业收入17.09亿，同比增加0.64%。\n"
    assert screening(plain)["revenue"] == pytest.approx(17.09e8)


def test_a_sentence_opening_on_qizhong_and_a_part_is_that_parts() -> None:
    # `其中洗碗机增长强劲，2020年实现收入2.24亿元`: one of the product lines just listed
    text = (
        "公司2024年实现营收81.29亿元，同增4.74%。新品类发展良好，第一品类群以外产品收入占比提升至25.85%。"
        "其中洗碗机增长强劲，2024年实现收入2.24亿元，同比增长62.13%。"
    )
    assert screening(text)["revenue"] == pytest.approx(81.29e8)
    # `其中` before a period is the company's quarter, not a part
    quarter = "公司2024年实现营收81.29亿元。其中四季度增长强劲，2024年实现收入25.02亿元。"
    sheet = read_facts(quarter)
    assert all(f.scope == "company" for f in facts(sheet, "revenue"))


def test_a_business_named_only_in_latin_letters_is_that_business() -> None:
    # `IDC实现收入186.1亿元`: the clause's subject is a business unit written in Latin letters
    text = (
        "公司发布2024年三季报。报告期内，公司实现营收2639.78亿元，同比增长8.0%。"
        "联通云实现收入268.7亿元，同比提升142.0%。IDC实现收入186.1亿元，同比增长12.9%。"
    )
    assert screening(text)["revenue"] == pytest.approx(2639.78e8)
    sheet = read_facts(text)
    assert [f.segment for f in facts(sheet, "revenue", basis="actual", scope="segment")][-1] == "IDC"
    # a period in Latin letters names no business
    quarter = "公司发布2024年三季报。Q3实现收入186.1亿元，同比增长12.9%。"
    assert screening(quarter)["revenue"] == pytest.approx(186.1e8)


def test_one_label_after_slashed_periods_gives_each_period_its_number() -> None:
    # `公司2020年/21Q1毛利率同增1.89/0.82pct至56.16%/57.34%`: the levels after 至, one per period
    text = (
        "公司发布2024年年报和2025年一季报。"
        "公司2024年/25Q1毛利率同增1.89/0.82pct至56.16%/57.34%，主要系产品结构优化。"
    )
    sheet = read_facts(text)
    got = {f.period_label: f.value for f in facts(sheet, "gross_margin", basis="actual")}
    assert got == {"FY2024": pytest.approx(56.16), "2025Q1": pytest.approx(57.34)}
    # `Q1/Q2单季度收入2.9/3.4亿元`: plain numbers, one per period
    quarters = read_facts("公司发布2024年半年报。分季度来看，2024Q1/Q2单季度收入2.9/3.4亿元。")
    assert sorted(f.value for f in facts(quarters, "revenue", basis="actual")) == [2.9e8, 3.4e8]


def test_an_item_opening_on_qizhong_and_a_business_is_that_business() -> None:
    # `2019年营收26.52亿，同增24%；其中创新业务经多年布局后取得突破，…，实现收入7605万元`
    text = (
        "公司发布2024年年报。2024年营收26.52亿，同增24%；其中创新业务经多年布局后取得实质突破，"
        "助力多家城商行提升业绩，实现收入7605万元，同增562%。"
    )
    assert screening(text)["revenue"] == pytest.approx(26.52e8)
    sheet = read_facts(text)
    assert [f.segment for f in facts(sheet, "revenue", basis="actual", scope="segment")] == ["创新业务"]


def test_a_breakdown_heading_without_kan_still_breaks_the_figures_down() -> None:
    # `(A)分业态，3Q线下门店销售收入降9.47%，毛利率提升1.13pct至27.31%`: a part's margin, not the company's
    text = (
        "公司发布2024年年报。2024年收入降8.53%至5.14亿元，毛利率同比增0.77pct至31.74%。"
        "(A)分业态，2024年线下门店销售收入降9.47%，毛利率提升1.13pct至27.31%；"
        "线上电商业务收入增长16.70%，毛利率增加1.49pct至14.21%。"
    )
    assert screening(text)["gross_margin"] == pytest.approx(31.74)
    # `部分产品，` inside a word is no breakdown
    from lmscreen.task.prose import _BREAKDOWN_RE

    assert _BREAKDOWN_RE.search("(A)分业态，") and not _BREAKDOWN_RE.search("受部分产品，毛利率")


def test_a_customer_sides_margin_is_that_sides() -> None:
    # `B端毛利率大幅回升15pct至54%` beside `2024H1综合毛利率+8.5pct至34.5%`
    text = (
        "公司发布2024年半年报。存量恢复，B端毛利率大幅回升15pct至54%。"
        "2024H1综合毛利率+8.5pct至34.5%，主要是B端恢复。"
    )
    assert screening(text)["gross_margin"] == pytest.approx(34.5)
    sheet = read_facts(text)
    assert [f.segment for f in facts(sheet, "gross_margin", scope="segment")] == ["B端"]


def test_a_label_right_after_fenbie_is_the_lists_own() -> None:
    # `2024年Q1、Q2、Q3和Q4分别实现营收50.6亿元、85.0亿元、94.9亿元和139.3亿元`: one label, four quarters
    text = (
        "公司发布2024年度报告，2024年公司实现营业收入369.8亿元，同比增长8.3%；"
        "2024年Q1、Q2、Q3和Q4分别实现营收50.6亿元、85.0亿元、94.9亿元和139.3亿元。"
    )
    sheet = read_facts(text)
    got = {f.period_label: f.value for f in facts(sheet, "revenue", basis="actual")}
    assert got["2024Q4"] == pytest.approx(139.3e8) and got["2024Q1"] == pytest.approx(50.6e8)
    assert screening(text)["revenue"] == pytest.approx(369.8e8)


def test_nine_months_written_without_du_name_their_period() -> None:
    # `前三季实现营业收入…`: 前三季度 with 度 left out is the nine months, not a part named 前三季
    text = (
        "某公司发布2023年第三季度报告，前三季实现营业收入18.62亿元，同比增长12.5%；"
        "归属于上市公司股东的净利润2.13亿元。"
    )
    assert screening(text)["revenue"] == pytest.approx(18.62e8)
    sheet = read_facts(text)
    assert [f.period_label for f in facts(sheet, "revenue", basis="actual")] == ["2023Q1-Q3"]


def test_guimu_lirun_is_the_attributable_profit() -> None:
    # `归母利润为4321万元`: 归母净利润 with 净 left out
    text = "某公司2023年实现营业收入3.15亿元，归母利润为2870万元，加权平均净资产收益率为12.3%。"
    got = screening(text)
    assert got["net_profit"] == pytest.approx(2870e4)
    assert got["revenue"] == pytest.approx(3.15e8) and got["roe"] == pytest.approx(12.3)
    # a margin or a total is not the profit
    assert screening("某公司2023年实现营业收入3.15亿元，归母利润率为9.1%。")["net_profit"] is None
