"""Figures tables as pdfplumber lays out a real quarterly report's (task/tables.py, filings/pdf.py).

A narrow-column 第三季度报告 table comes out of the PDF layer with: the row label one cell right of the
first (` | 营业收入 |  | …`, merged cells), labels wrapped over several label-only rows (`归属于上` /
`市公司股` / `东的净利` / `润（元）`), restated prior columns (`上年同期` over `调整前 | 调整后`), the
table cut by a page break whose stray header pieces (`比上年同`, `期增减`, the page number, the running
head) sit between its rows, and the next page's part cut into one more, empty, column. The texts here are
written in that shape; the reader is the real one.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from lmscreen.filings.pdf import _cell, extract_pdf
from lmscreen.task.facts import read_facts

HEAD = "某电气股份有限公司2025年第三季度报告"
QUARTERLY = (
    f"{HEAD}\n"
    "一、主要财务数据\n（一） 主要会计数据和财务指标\n公司是否需追溯调整或重述以前年度会计数据\n是 □否\n"
    "追溯调整或重述原因\n其他原因\n"
    " |  |  | 本报告期 | 上年同期 |  | 本报告期 比上年同 期增减 | 年初至报 告期末 | 上年同期 |  |  | 年初至报"
    " 告期末比 上年同期 增减\n"
    " |  |  |  | 调整前 | 调整后 | 调整后 |  | 调整前 | 调整后 | 调整后 | \n"
    " | 营业收入 |  | 1,380,240,203.63 | 1,143,114,680.73 | 1,143,114,680.73 | 20.74% | 3,564,707,872.26 "
    "| 3,069,056,752.97 | 3,069,056,752.97 | 16.15% | \n"
    " | （元） |  |  |  |  |  |  |  |  |  | \n"
    " | 归属于上 |  | 110,394,569.50 | 141,186,516.34 | 141,186,516.34 | -21.81% | 310,902,079.52 "
    "| 301,870,420.17 | 301,870,420.17 | 2.99% | \n"
    " | 市公司股 |  |  |  |  |  |  |  |  |  | \n"
    " | 东的净利 |  |  |  |  |  |  |  |  |  | \n"
    " | 润（元） |  |  |  |  |  |  |  |  |  | \n"
    "本报告期\n比上年同\n期增减\n年初至报\n告期末\n1\n"
    f"{HEAD}\n"
    " | 经营活动 |  | - | - | - | - | -893,202,531.10 | -649,099,650.37 | -649,099,650.37 |  | -37.61% | \n"
    " | 产生的现 |  |  |  |  |  |  |  |  |  |  | \n"
    " | 金流量净 |  |  |  |  |  |  |  |  |  |  | \n"
    " | 额（元） |  |  |  |  |  |  |  |  |  |  | \n"
    " | 基本每股 |  | 0.22 | 0.39 | 0.28 | -21.43% | 0.62 | 0.84 | 0.60 |  | 3.33% | \n"
    " | 收益（元/ |  |  |  |  |  |  |  |  |  |  | \n"
    " | 股） |  |  |  |  |  |  |  |  |  |  | \n"
    " | 加权平均 |  | 4.75% | 7.17% | 7.17% | -2.42% | 13.66% | 15.76% | 15.76% |  | -2.10% | \n"
    " | 净资产收 |  |  |  |  |  |  |  |  |  |  | \n"
    " | 益率 |  |  |  |  |  |  |  |  |  |  | \n"
    "2\n"
    f"{HEAD}\n"
    "二、股东信息\n"
    f"{HEAD}\n"
)


def test_a_quarterly_table_with_wrapped_labels_restated_columns_and_a_page_break() -> None:
    sheet = read_facts(QUARTERLY)
    assert (sheet.period.year, sheet.period.sub) == (2025, "Q1-Q3")
    got = sheet.screening()
    # the year to date (年初至报告期末), from the report's own 主要会计数据 table
    assert got["revenue"].fact.value == pytest.approx(3564707872.26)
    assert got["revenue"].fact.tier == 0 and got["revenue"].fact.unit == "元"
    assert got["net_profit"].fact.value == pytest.approx(310902079.52)
    assert got["net_profit"].fact.label.startswith("归属于上市公司股东的净利润")
    # the ratio row after the page break, in its own column, not the restated prior one beside it
    assert got["roe"].fact.value == pytest.approx(13.66)
    quarter = [f for f in sheet.facts if f.metric == "roe" and f.period_label == "2025Q3"]
    assert [f.value for f in quarter] == [pytest.approx(4.75)]
    # 调整前 and 调整后 are both the prior period: neither is a current figure
    priors = {
        (round(f.value, 2), f.period_label)
        for f in sheet.facts
        if f.metric == "net_profit" and f.basis == "prior"
    }
    assert priors == {(301870420.17, "2024Q1-Q3"), (141186516.34, "2024Q3")}
    # the change columns are each of their own current column's period
    growth = {
        (f.value, f.period_label) for f in sheet.facts if f.metric == "net_profit" and f.basis == "growth"
    }
    assert growth == {(-21.81, "2025Q3"), (2.99, "2025Q1-Q3")}
    # restated: the prior period is the 调整后 column; the 调整前 one is no figure
    eps_prior = {(f.value, f.period_label) for f in sheet.facts if f.metric == "eps" and f.basis == "prior"}
    assert eps_prior == {(0.28, "2024Q3"), (0.60, "2024Q1-Q3")}
    # the ratio's change in points is no prior ratio, though the shifted header calls its column 调整后
    roe_prior = {(f.value, f.period_label) for f in sheet.facts if f.metric == "roe" and f.basis == "prior"}
    assert roe_prior == {(7.17, "2024Q3"), (15.76, "2024Q1-Q3")}
    # a `-` cell is no figure and keeps the cells after it under their own columns
    cash = [f for f in sheet.facts if f.metric == "operating_cash_flow" and f.basis == "actual"]
    assert [f.value for f in cash] == [pytest.approx(-893202531.10)]


def test_a_page_part_whose_text_columns_fit_two_ways_is_not_read() -> None:
    # after the break the rows are one cell wider and hold text in too few columns to say which
    # column is the extra one: the part is left unread rather than read under a guessed header
    text = (
        "某公司2025年第三季度报告\n（一） 主要会计数据和财务指标\n"
        " |  | 本报告期 | 上年同期 | 年初至报告期末 | 上年同期\n"
        " | 营业收入（元） | 1,380,240.63 | 1,143,114.73 | 3,564,707.26 | 3,069,056.97\n"
        "比上年同\n1\n"
        " | 加权平均净资产收益率 | 4.75% |  | 13.66% |  | \n"
    )
    sheet = read_facts(text)
    assert sheet.screening()["revenue"].fact.value == pytest.approx(3564707.26)
    assert not [f for f in sheet.facts if f.metric == "roe" and f.source == "table"]


def test_numbered_income_statement_rows_with_the_label_in_the_second_cell() -> None:
    text = (
        "某公司2025年第三季度报告\n2、合并年初到报告期末利润表\n单位：元\n"
        "项目 |  |  | 本期发生额 | 上期发生额\n"
        "一、营业总收入 |  |  | 3,564,707,872.26 | 3,069,056,752.97\n"
        " | 五、净利润（净亏损以“－”号填 |  | 309,650,223.65 | 300,840,629.53\n"
        " | 列） |  |  | \n"
        "（二）按所有权归属分类 |  |  |  | \n"
        " | 1.归属于母公司股东的净利润 |  | 310,902,079.52 | 301,870,420.17\n"
        " | （净亏损以“-”号填列） |  |  | \n"
        " | 2.少数股东损益（净亏损以“-” |  | -1,251,855.87 | -1,029,790.64\n"
        " | 号填列） |  |  | \n"
    )
    sheet = read_facts(text)
    got = sheet.screening()
    assert got["net_profit"].fact.value == pytest.approx(310902079.52)
    assert got["revenue"].fact.value == pytest.approx(3564707872.26)
    # the minority's share is no company profit
    assert not [f for f in sheet.facts if f.value == pytest.approx(-1251855.87) and f.metric == "net_profit"]


def test_a_number_the_cell_width_wrapped_is_one_number() -> None:
    assert _cell("110,394,5\n69.50") == "110,394,569.50"
    assert _cell("1,380,240\n,203.63") == "1,380,240,203.63"
    assert _cell("-\n893,202,5\n31.10") == "-893,202,531.10"
    # two whole numbers, or words, stay apart
    assert _cell("1.5 2") == "1.5 2" and _cell("2023 2024") == "2023 2024"
    assert _cell("归属于上\n市公司股东") == "归属于上 市公司股东"


def test_a_pdf_table_with_numbers_wrapped_in_narrow_cells(tmp_path: Path) -> None:
    from reportlab.lib import colors
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont
    from reportlab.platypus import Paragraph, SimpleDocTemplate, Table, TableStyle

    font = "STSong-Light"
    pdfmetrics.registerFont(UnicodeCIDFont(font))
    style = ParagraphStyle("cn", fontName=font, fontSize=9, leading=12)
    rows = [
        ["项目", "本报告期", "上年同期", "年初至报告期末"],
        ["营业收入（元）", "1,380,240\n,203.63", "1,143,114\n,680.73", "3,564,707\n,872.26"],
        ["归属于上市公司股东的净利润（元）", "110,394,5\n69.50", "141,186,5\n16.34", "310,902,0\n79.52"],
    ]
    grid = [("FONTNAME", (0, 0), (-1, -1), font), ("GRID", (0, 0), (-1, -1), 0.5, colors.black)]
    table = Table(rows, style=TableStyle(grid))
    path = tmp_path / "q3.pdf"
    story = [Paragraph("某公司2025年第三季度报告", style), Paragraph("主要会计数据和财务指标", style), table]
    SimpleDocTemplate(str(path), pagesize=A4).build(story)
    pdf = extract_pdf(path)
    assert "110,394,569.50" in pdf.text and "3,564,707,872.26" in pdf.text
    got = read_facts(pdf.text, page_at=pdf.page_at).screening()
    assert got["net_profit"].fact.value == pytest.approx(310902079.52) and got["net_profit"].fact.page == 1


def test_the_cash_flow_statements_subtotals_are_not_the_net_operating_cash_flow() -> None:
    text = (
        "某公司2025年第三季度报告\n3、合并年初到报告期末现金流量表\n单位：元\n"
        "项目 |  |  | 本期发生额 | 上期发生额\n"
        "一、经营活动产生的现金流量： |  |  |  | \n"
        "经营活动现金流入小计 |  |  | 5,195,718,446.57 | 3,672,620,707.93\n"
        "经营活动现金流出小计 |  |  | 6,088,920,977.67 | 4,321,720,358.30\n"
        "经营活动产生的现金流量净额 |  |  | -893,202,531.10 | -649,099,650.37\n"
    )
    sheet = read_facts(text)
    cash = [(f.value, f.basis) for f in sheet.facts if f.metric == "operating_cash_flow"]
    assert cash == [(pytest.approx(-893202531.10), "actual"), (pytest.approx(-649099650.37), "prior")]


def test_a_label_only_row_that_starts_a_label_is_no_part_of_the_row_above() -> None:
    # `每股收益（元/股）` with its figures on the row below is its own row: joined to the profit row
    # above it would lend that row its unit (元/股) and turn a 万元 figure into yuan
    text = (
        "某公司2024年度业绩快报\n单位：万元\n"
        " |  | 本报告期 | 上年同期 | 增减变动幅度(%)\n"
        " | 营业总收入 | 536,779.16 | 479,221.05 | 12.01\n"
        " | 归属于上市公司股东的净利润 | 106,783.12 | 98,432.08 | 8.49\n"
        " | 每股收益（元/股） |  |  | \n"
        " | 基本每股收益 | 1.25 | 1.15 | 8.70\n"
    )
    got = read_facts(text).screening()
    assert (
        got["net_profit"].fact.value == pytest.approx(106783.12e4) and got["net_profit"].fact.unit == "万元"
    )
    assert got["revenue"].fact.value == pytest.approx(536779.16e4)
