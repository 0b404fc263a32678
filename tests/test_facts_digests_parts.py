"""Figures that are not the document company's though a label names them: a digest's item on
another company (`【巨星科技业绩快报：…】巨星科技公告，…`), an amount in a currency other than yuan
(`3.35万亿韩元`), the part that stands highest (`最高的是生物制剂，达到86.72%`), and one label before a
run of years' amounts joined by `、` (`归母净利润为1.19亿元、1.55亿元、2.10亿元`). Texts written here in
those shapes; the reader is the real one.
"""

from __future__ import annotations

import pytest

from lmscreen.task.facts import read_facts


def test_a_digests_items_on_other_companies_are_theirs() -> None:
    text = (
        "盘后公告集锦｜甲乙科技：拟定增募资不超10亿元\n"
        "【甲乙科技：拟定增募资不超10亿元】 甲乙科技公告，公司拟非公开发行股票募集资金不超过10亿元。\n"
        "【丙丁股份业绩快报：2020年度净利润3.11亿元 同比增长46.44%】 丙丁股份公告，"
        "公司2020年度实现总营收25.25亿元，同比增长28.66%；实现归母净利润3.11亿元。\n"
        "【戊己电子年度报告：2020年度净利润同比减少25%】 戊己电子发布2020年年度报告，实现营业收入18.92亿元，"
        "同比增长14.18%；净利润1.12亿元，同比减少25.43%。\n"
    )
    got = read_facts(text, names=("甲乙科技",)).screening()
    assert got["revenue"].fact is None and got["net_profit"].fact is None
    scopes = {
        (f.segment, round(f.value))
        for f in read_facts(text).facts
        if f.metric == "revenue" and f.basis == "actual"
    }
    assert scopes == {("丙丁股份", 2_525_000_000), ("戊己电子", 1_892_000_000)}


def test_a_digests_item_on_the_document_company_is_its_own() -> None:
    text = (
        "【甲乙科技业绩快报：2020年度净利润3.11亿元】 甲乙科技公告，公司2020年度实现营业收入25.25亿元，"
        "实现归母净利润3.11亿元。\n"
        "【丙丁股份：签订8亿元合同】 丙丁股份公告，公司签订合同8亿元。\n"
    )
    got = read_facts(text, names=("甲乙科技",)).screening()
    assert got["revenue"].fact.value == pytest.approx(25.25e8)
    assert got["net_profit"].fact.value == pytest.approx(3.11e8)


def test_an_amount_in_won_is_no_revenue() -> None:
    text = "韩国某运营商在2021年第二季度，净利润增长39.8%，至2105亿韩元；综合营收增长2.2%，至3.35万亿韩元。"
    got = read_facts(text).screening()
    assert got["revenue"].fact is None and got["net_profit"].fact is None


def test_the_highest_part_is_not_the_whole() -> None:
    text = "2020年，公司实现营业收入115亿元。从毛利率来看，最高的是生物制剂，达到86.72%，但营收仅14.37亿元。"
    assert read_facts(text).screening()["gross_margin"].fact is None


def test_one_label_before_a_run_of_amounts_is_no_single_years_figure() -> None:
    text = (
        "维持“买入”评级。预计2020-2022年公司的收入为16.41亿元、20.55亿元、25.94亿元。归母净利润为1.19亿元、"
        "1.55亿元、2.10亿元。"
    )
    got = read_facts(text).screening()
    assert got["revenue"].fact is None and got["net_profit"].fact is None


def test_a_figure_of_qi_after_another_companys_full_name_is_that_companys() -> None:
    text = (
        "过去一周，多家零售企业发布三季报。10月28日，丙丁控股集团股份有限公司发布公告称，2020年前三季度，"
        "其实现营业收入102.27亿元，同比减少12.87%；归属于上市公司股东的净利润0.67亿元，同比增长79.32%。"
    )
    got = read_facts(text, names=("甲乙零售",)).screening()
    assert got["revenue"].fact is None and got["net_profit"].fact is None
    own = "甲乙零售股份有限公司发布公告称，2020年前三季度，其实现营业收入102.27亿元；归母净利润0.67亿元。"
    got = read_facts(own, names=("甲乙零售",)).screening()
    assert got["revenue"].fact.value == pytest.approx(102.27e8)
    assert got["net_profit"].fact.value == pytest.approx(0.67e8)


def test_an_aspect_heading_then_another_name_is_that_ones_figure() -> None:
    text = (
        "据统计，近50家文旅企业2021年上半年经营数据：净利润方面，丙丁上半年盈利64.12亿元力压戊己排名第一，"
        "后者以53.59亿元的净利润屈居第二。"
    )
    assert read_facts(text).screening()["net_profit"].fact is None
    own = "2021年上半年，公司经营稳健。净利润方面，公司上半年实现归母净利润6.41亿元，同比增长12%。"
    assert read_facts(own).screening()["net_profit"].fact.value == pytest.approx(6.41e8)
    grown = "2021年上半年，公司经营稳健。净利润方面，同比增长20%至3.2亿元；营收方面，上半年实现30亿元。"
    got = read_facts(grown).screening()
    assert got["net_profit"].fact.value == pytest.approx(3.2e8)
    assert got["revenue"].fact.value == pytest.approx(30e8)


def test_a_sentence_opening_on_another_companys_report_holds_its_figures() -> None:
    # an industry piece: each sentence opens on one company's report; none of them is the text's company
    text = (
        "近日，两家设备龙头交出二季报。XYZW二季报也极其出色，净销售额54亿欧元，毛利率为49.1%，净利润达14亿"
        "欧元。甲乙集团2022年二季报同样亮眼，毛利率为31.2%。"
    )
    sheet = read_facts(text)
    margins = {(f.scope, f.segment, f.value) for f in sheet.facts if f.metric == "gross_margin"}
    assert margins == {("segment", "XYZW", 49.1), ("segment", "甲乙集团", 31.2)}
    assert sheet.screening()["gross_margin"].fact is None
    # the text's own company, named, keeps its own
    own = read_facts(text, names=("XYZW",)).screening()["gross_margin"].fact
    assert own is not None and own.value == pytest.approx(49.1)


def test_a_company_word_or_a_lead_in_before_a_report_names_no_one_else() -> None:
    text = "根据公司2022年年报，公司实现营业收入32.74亿元，毛利率为35.5%。本集团年报显示，净利润为5.63亿元。"
    got = read_facts(text).screening()
    assert got["revenue"].fact.value == pytest.approx(32.74e8)
    assert got["gross_margin"].fact.value == pytest.approx(35.5)
    assert got["net_profit"].fact.value == pytest.approx(5.63e8)


def test_the_companys_product_named_in_latin_letters_is_a_part() -> None:
    # `公司PTA毛利率`: one product's margin, not the company's
    text = (
        "2019年，公司实现营业收入1007.82亿元，同比+67.78%；实现归母净利润100.25亿元。2019年，公司PTA毛利率"
        "22.66%，同比提高14.18个百分点；聚酯产品毛利率14.27%，同比减少4.47个百分点。"
    )
    sheet = read_facts(text)
    pta = [f for f in sheet.facts if f.metric == "gross_margin" and f.value == pytest.approx(22.66)]
    assert pta and pta[0].scope == "segment" and pta[0].segment == "PTA"
    assert sheet.screening()["gross_margin"].fact is None
    assert sheet.screening()["revenue"].fact.value == pytest.approx(1007.82e8)


def test_one_figure_printed_rounded_and_exact_is_one_figure_the_exact_kept() -> None:
    text = (
        "事件：2019年第一季度公司实现营业收入6.15亿元，同比增长20.04%；归母净利润0.46亿元，同比增长27.02%。"
        "　　19Q1公司实现营业收入6.15亿元，同比增长20.04%；归母净利润4555万元，同比增长27.02%。"
    )
    got = read_facts(text).screening()
    assert got["net_profit"].fact.value == pytest.approx(4555e4)
    # two amounts further apart than the coarser one's rounding stay a conflict
    other = read_facts(text.replace("4555万元", "4455万元")).screening()["net_profit"]
    assert other.fact is None and len(other.conflict) == 2
