"""What held-out round 104 showed the reader keeping or missing: a subsidiary named after its owner
(<company>子公司<subsidiary>披露…) read as the company; a region's count of companies opening a text that
names no company (截至…，全国共有N家…公司) whose totals were kept as a company's; a 业绩预亏公告 announced by
its kind whose single point was kept as actual; a cumulative revenue in a later item of an as-of sentence
(截至…12月底，…；累计实现营业收入) left undated beside a month's (当月实现营业收入). Texts written here in
those shapes; the reader is the real one.
"""

from __future__ import annotations

from lmscreen.task.facts import read_facts


def _kept(text: str, field: str, name: str = "") -> float | None:
    fact = read_facts(text, names=(name,)).screening()[field].fact
    return None if fact is None else fact.value


_OWNED = (
    "华信控股子公司华信证券股份有限公司披露2021年度未经审计非合并财务报表，实现营业总收入12亿元，同比增长20%；"
    "净利润3.5亿元，同比增长30%。"
)


def test_a_subsidiary_named_after_its_owner_is_not_the_company() -> None:
    assert _kept(_OWNED, "revenue", "华信控股") is None


def test_an_item_that_is_only_its_label_goes_on_with_the_subsidiary() -> None:
    assert _kept(_OWNED, "net_profit", "华信控股") is None


def test_the_company_opening_its_own_figures_keeps_them() -> None:
    text = (
        "华信控股披露2021年度未经审计财务报表，实现营业总收入12亿元，同比增长20%；"
        "净利润3.5亿元，同比增长30%。"
    )
    assert _kept(text, "revenue", "华信控股") == 1_200_000_000.0
    assert _kept(text, "net_profit", "华信控股") == 350_000_000.0


_REGION = "截至2021年12月末，全省共有45家小额贷款公司，分布在12个地市。2021年营业收入3.2亿元，净利润1.1亿元。"


def test_a_regions_count_of_companies_opening_a_nameless_text_gives_its_totals() -> None:
    assert _kept(_REGION, "revenue") is None
    assert _kept(_REGION, "net_profit") is None


def test_a_companys_own_count_keeps_its_figures() -> None:
    text = "截至2021年12月末，公司共有45家门店，分布在12个地市。2021年营业收入3.2亿元，净利润1.1亿元。"
    assert _kept(text, "revenue") == 320_000_000.0


def test_a_loss_preannouncement_named_by_its_kind_is_a_forecast() -> None:
    text = (
        "原标题：华信电力2019年前三季度亏损约1.5亿元 燃料成本上升    来源：挖贝网\n"
        "挖贝网10月20日，华信电力(600999)发布2019年前三季度业绩预亏公告：预计2019年前三季度实现归属于"
        "上市公司股东的净利润约-1.5亿元。亏损原因：燃料成本上升。"
    )
    assert _kept(text, "net_profit", "华信电力") is None


def test_a_third_quarter_report_keeps_its_loss() -> None:
    text = (
        "原标题：华信电力2019年前三季度亏损1.5亿元 燃料成本上升    来源：挖贝网\n"
        "挖贝网10月20日，华信电力(600999)发布2019年第三季度报告：2019年前三季度实现归属于上市公司股东的"
        "净利润-1.5亿元。亏损原因：燃料成本上升。"
    )
    assert _kept(text, "net_profit", "华信电力") == -150_000_000.0


_MONTH = "华信建设公告，公司12月份当月新签合同额120亿元；当月实现营业收入60亿元。"


def test_a_cumulative_revenue_in_a_later_item_of_an_as_of_sentence_is_the_years() -> None:
    text = (
        _MONTH + "截至2021年12月底，本公司累计新签合同额980亿元，其中境外合同额150亿元；"
        "累计实现营业收入620亿元。"
    )
    assert _kept(text, "revenue", "华信建设") == 62_000_000_000.0


def test_a_months_revenue_alone_is_no_reports() -> None:
    assert _kept(_MONTH, "revenue", "华信建设") is None
