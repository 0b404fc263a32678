"""A key-figure table a page break cuts, its page head longer than a short line (task/tables.py).

An SSE third-quarter report's page head names the company and the report (`金花企业（集团）股份有限公司
2025年第三季度报告`, 26 characters); between the table's rows on two pages it sits after the page number.
The rows on the next page (`加权平均净资产收益率（%） | 1.80 | … | 2.19 | …`) belong to the table above, whose
header says which column is the quarter alone and which the nine months. The text is written here in the
shape the PDF layer gives; the reader is the real one.
"""

from __future__ import annotations

from lmscreen.task.facts import read_facts
from lmscreen.task.periods import Period

HEAD = "某某医药企业（集团）股份有限公司 2025年第三季度报告"


def quarterly(head: str) -> str:
    """Three pages of a third-quarter report, the key-figure table cut after its 基本每股收益 row."""
    return (
        f"{head}\n某某医药\n2025年第三季度报告\n一、主要财务数据\n"
        "（一） 主要会计数据和财务指标\n单位：元 币种：人民币\n"
        "项目 | 本报告期 | 本报告期比 上年同期增 减变动幅度 (%) | 年初至报告期 末 "
        "| 年初至报告 期末比上年 同期增减变 动幅度(%)\n"
        "营业收入 | 142,615,399.97 | -17.55 | 383,908,363.63 | -8.36\n"
        "归属于上市公司股东的净利润 | 28,286,232.43 | 32.75 | 34,481,243.86 | 12.06\n"
        "基本每股收益（元/股） | 0.0802 | 38.51 | 0.0978 | 16.43\n"
        f"1/3\n{head}\n"
        "稀释每股收益（元/股） | 0.0802 | 38.51 | 0.0978 | 16.43\n"
        "加权平均净资产收益率（%） | 1.80 | 增加0.45个 百分点 | 2.19 | 增加0.24个 百分点\n"
        "注：“本报告期”指本季度初至本季度末3个月期间，下同。\n"
        f"2/3\n{head}\n二、股东信息\n报告期末普通股股东总数 20,096\n3/3\n{head}\n四、季度财务报表\n"
    )


def test_the_rows_after_a_long_page_head_stay_in_the_table() -> None:
    sheet = read_facts(quarterly(HEAD), names=("某某医药",))
    assert sheet.period == Period(2025, "Q1-Q3")
    roe = sheet.screening()["roe"].fact
    assert roe is not None and roe.value == 2.19  # the nine months', not the quarter's 1.80


def test_a_long_line_printed_once_still_ends_the_table() -> None:
    """A line that is no page head (printed once) between two runs of rows is not skipped: the rows after
    it have no header, so no nine-month ROE is read from the table."""
    text = quarterly(HEAD).replace(
        f"1/3\n{HEAD}\n", "1/3\n以下为本公司董事会审议通过的其他主要财务指标数据列示如下：\n", 1
    )
    roe = read_facts(text, names=("某某医药",)).screening()["roe"].fact
    assert roe is None or roe.value != 2.19
