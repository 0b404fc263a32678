"""A paragraph that opens by introducing someone other than the company (`<名>成立于…`) is about that one:
round 72's bank note kept its consumer-finance subsidiary's half-year profit (`苏银凯基消金公司成立于…；
1H22末，公司净利润0.58亿元`) as the bank's. Texts written here in that shape; the reader is the real one.
"""

from __future__ import annotations

import pytest

from lmscreen.task.facts import read_facts

_BANK = (
    "　　江南银行成立于2007年，由省内多家城商行合并而成，2020年完成风险资产出清。"
    "　　锦程消金公司成立于2021年3月，专营互联网个人消费信贷业务。公司作为银行系持牌消金公司，"
    "具备融资成本优势。公司2021年末净利润0.17亿元，开业首年实现盈利；1H22末，公司净利润0.58亿元。"
    "　　估值　　维持2022年盈利预测不变。"
)


def test_a_paragraph_introducing_another_company_holds_its_figures() -> None:
    sheet = read_facts(_BANK, names=("江南银行",))
    assert sheet.screening()["net_profit"].fact is None
    owned = {f.segment for f in sheet.facts if f.metric == "net_profit" and f.value == pytest.approx(5.8e7)}
    assert owned == {"锦程消金公司"}


def test_a_paragraph_introducing_the_company_itself_stays_the_company() -> None:
    text = (
        "　　公司发布2022年半年报。　　江南银行成立于2007年，由省内多家城商行合并而成。"
        "1H22末，公司实现归母净利润126.4亿元，同比增长31.2%。"
    )
    fact = read_facts(text, names=("江南银行",)).screening()["net_profit"].fact
    assert fact is not None and fact.value == pytest.approx(1.264e10)


def test_a_figure_naming_the_company_in_that_paragraph_stays_the_company() -> None:
    text = (
        "　　公司发布2022年半年报。　　锦程消金公司成立于2021年3月，专营消费信贷业务。"
        "1H22，江南银行实现归母净利润126.4亿元，同比增长31.2%。"
    )
    fact = read_facts(text, names=("江南银行",)).screening()["net_profit"].fact
    assert fact is not None and fact.value == pytest.approx(1.264e10)


def test_a_paragraph_opening_on_the_company_word_stays_the_company() -> None:
    text = (
        "　　公司发布2022年半年报。　　公司成立于2007年，专营零售信贷。"
        "1H22末，公司净利润126.4亿元，同比增长31.2%。"
    )
    fact = read_facts(text, names=("江南银行",)).screening()["net_profit"].fact
    assert fact is not None and fact.value == pytest.approx(1.264e10)
