"""Items, losses and levels the way research notes print them.

A list of labels joined by 、 and as many amounts (`分别实现营收、归属净利润、扣非归属净利润…`),
a numbered item that opens on one business (`：1）某某业务继续亏损，…实现净利润-0.21亿元`),
a bare loss that is the company's result (`；亏损4.9亿元`, `公司录得亏损30.36亿`), and a level
printed after its change (`收入增长60%至人民币38亿元`). Texts written here in those shapes; the
reader is the real one.
"""

from __future__ import annotations

import pytest

from lmscreen.task.facts import read_facts


def test_a_numbered_item_on_one_business_is_that_business_and_a_kou_fei_gui_shu_label_ends_a_list() -> None:
    text = (
        "事件描述　　公司2020H1分别实现营收、归属净利润、扣非归属净利润52.30亿、4.12亿、3.95亿元，分别同降"
        "3.1%、5.2%、6.0%。业绩增速不及营收主要受两方面因素影响：1）智能家居业务继续亏损，上半年实现净利润"
        "-0.21亿元，亏损额同比收窄0.05亿元；2）当期研发费用2.15亿元同增11.2%。"
    )
    sheet = read_facts(text)
    got = sheet.screening()
    assert got["revenue"].fact.value == pytest.approx(52.30e8)
    assert got["net_profit"].fact.value == pytest.approx(4.12e8)
    (segment,) = [f for f in sheet.facts if f.metric == "net_profit" and f.value < 0]
    assert segment.scope == "segment" and segment.segment == "智能家居业务"
    deducted = [f for f in sheet.facts if f.metric == "net_profit_deducted" and f.basis == "actual"]
    assert [f.value for f in deducted] == [pytest.approx(3.95e8)]
