"""The facts reader on the financial statements of a full annual report, as a PDF's plain text gives them.

Shapes taken from a real bank's 296-page annual report (the figures here are made up): the accountant's
bracketed minus, a qualified ROE row beside the plain one, a per-share cash flow, the parent's own
statements after the group's, a `附注` column between label and figures, a note table whose columns are
businesses, and the profit left to ordinary shareholders in the EPS note. No model.
"""

from __future__ import annotations

import pytest

from lmscreen.task.facts import read_facts
from lmscreen.task.units import find_mentions


def values(sheet, metric: str, **match: object) -> list[tuple[float, str]]:
    out = []
    for f in sheet.facts:
        if f.metric != metric or any(getattr(f, k) != v for k, v in match.items()):
            continue
        out.append((f.value, f.scope))
    return out


KEY_TABLE = (
    "某某银行股份有限公司\n2024年年度报告\n第二章 会计数据和财务指标\n（货币单位：人民币百万元）\n"
    "项 目 | 2024年 | 2023年 | 2022年 | 本年同比增减\n"
    "营业收入 | 120,310 | 131,420 | 140,007 | (8.5%)\n"
    "归属于本行股东的净利润 | 36,212 | 35,100 | 33,906 | 3.2%\n"
    "经营活动产生的现金流量净额 | (12,045) | 80,112 | 95,300 | 不适用\n"
    "每股比率（元/股）： |  |  |  | \n"
    "基本/稀释每股收益 | 1.85 | 1.80 | 1.74 | 2.8%\n"
    "每股经营活动产生的现金流量净额 | (0.62) | 4.13 | 4.91 | 不适用\n"
    "财务比率（%）： |  |  |  | \n"
    "加权平均净资产收益率 | 9.71 | 10.02 | 10.55 | -0.31个百分点\n"
    "加权平均净资产收益率（扣除非经常性损益） | 9.80 | 10.01 | 10.49 | -0.21个百分点\n"
)


def test_a_bracketed_figure_in_a_row_is_negative_and_a_bracketed_aside_in_prose_is_not() -> None:
    row = [m.value for m in find_mentions("利息支出 37 (98,221) (101,305)")]
    assert row == [37, -98221, -101305]
    cells = [m.value for m in find_mentions("| 营业收入 | 120,310 | 131,420 | (8.5%) |")]
    assert cells == [120310, 131420, -8.5]
    assert [m.value for m in find_mentions("毛利率为30.2%（29.1%）")] == [30.2, 29.1]
    assert [m.value for m in find_mentions("(1) 包含内部利息净收入 12 项")] == [1, 12]
    sheet = read_facts(KEY_TABLE)
    assert values(sheet, "revenue", basis="growth") == [(pytest.approx(-8.5), "company")]
    assert values(sheet, "operating_cash_flow", basis="actual") == [(pytest.approx(-12045e6), "company")]


def test_the_qualified_roe_row_is_the_deducted_roe_and_the_per_share_cash_flow_no_cash_flow() -> None:
    sheet = read_facts(KEY_TABLE)
    got = sheet.screening()
    assert got["roe"].fact is not None and got["roe"].fact.value == pytest.approx(9.71)
    assert got["roe"].conflict == ()
    assert values(sheet, "roe_deducted", basis="actual") == [(pytest.approx(9.80), "company")]
    assert values(sheet, "operating_cash_flow", basis="actual") == [(pytest.approx(-12045e6), "company")]
    assert got["revenue"].fact.value == pytest.approx(120310e6)
    assert got["net_profit"].fact.value == pytest.approx(36212e6)


STATEMENTS = (
    "某某银行股份有限公司\n合并利润表\n2024年度\n(除特别注明外，金额单位均为人民币百万元)\n本集团\n"
    "附注四 2024年度 2023年度\n"
    "利息收入 37 180,220 201,733\n利息支出 37 (95,102) (99,870)\n"
    "营业收入合计 120,310 131,420\n"
    "六、净利润 36,212 35,100\n"
    "九、每股收益\n基本每股收益(人民币元) 48 1.85 1.80\n稀释每股收益(人民币元) 48 1.85 1.80\n"
    "某某银行股份有限公司\n银行利润表\n2024年度\n(除特别注明外，金额单位均为人民币百万元)\n本行\n"
    "附注四 2024年度 2023年度\n"
    "营业收入合计 117,904 128,611\n"
    "六、净利润 34,877 34,020\n"
    "某某银行股份有限公司\n财务报表附注(续)\n五、 经营分部信息(续)\n2024年度\n"
    "批发金融业务 零售金融业务 其他业务 合计\n"
    "营业收入 52,101 60,044 8,165 120,310\n"
    "分部利润 30,114 2,406 9,918 42,438\n"
    "48. 每股收益\n"
    "基本每股收益以归属于母公司普通股股东的净利润除以本行发行在外普通股的加权平均数计算。\n"
    "2024年度 2023年度\n"
    "归属于母公司股东的本年净利润 36,212 35,100\n"
    "减：母公司优先股宣告股息 (700) (700)\n"
    "归属于母公司普通股股东的本年净利润 35,512 34,400\n"
)


def test_the_parent_banks_own_statement_is_scope_parent_and_the_group_figure_is_kept() -> None:
    sheet = read_facts(STATEMENTS, names=("某某银行",))
    revenue = values(sheet, "revenue", basis="actual")
    assert (pytest.approx(117904e6), "parent") in revenue
    assert all(scope != "company" or v == pytest.approx(120310e6) for v, scope in revenue), revenue
    profits = values(sheet, "net_profit", basis="actual")
    assert (pytest.approx(34877e6), "parent") in profits
    assert [v for v, scope in profits if scope == "company"] == [pytest.approx(36212e6)] * 2, profits
    got = sheet.screening()
    assert got["revenue"].fact.value == pytest.approx(120310e6)
    assert got["net_profit"].fact.value == pytest.approx(36212e6)


def test_a_note_column_is_no_figure_and_business_columns_are_no_company_figure() -> None:
    sheet = read_facts(STATEMENTS, names=("某某银行",))
    eps = values(sheet, "eps", basis="actual")
    assert eps and all(v == pytest.approx(1.85) for v, _ in eps), eps
    assert all(scope == "company" for _, scope in eps)
    # `营业收入 52,101 60,044 8,165 120,310` under business columns: 52,101 is the wholesale bank's
    assert not any(v == pytest.approx(52101e6) for v, _ in values(sheet, "revenue"))
    # the profit left to ordinary shareholders (after preferred dividends) is no 归母净利润
    assert not any(v == pytest.approx(35512e6) for v, _ in values(sheet, "net_profit"))


def test_a_parent_statement_under_a_plain_company_title_only_beside_a_consolidated_one() -> None:
    alone = (
        "某某制造股份有限公司 2024年年度报告\n利润表\n2024年度\n单位：元\n项目 附注 2024年度 2023年度\n"
        "一、营业收入 五、1 1,204,556,310.12 1,100,020,118.40\n"
    )
    sheet = read_facts(alone)
    assert sheet.screening()["revenue"].fact.value == pytest.approx(1204556310.12)
    both = (
        "某某制造股份有限公司 2024年年度报告\n合并利润表\n单位：元\n项目 2024年度 2023年度\n"
        "一、营业收入 1,204,556,310.12 1,100,020,118.40\n"
        "母公司利润表\n单位：元\n项目 2024年度 2023年度\n"
        "一、营业收入 640,118,002.55 601,345,990.01\n"
    )
    sheet = read_facts(both)
    assert sheet.screening()["revenue"].fact.value == pytest.approx(1204556310.12)
    assert (pytest.approx(640118002.55), "parent") in values(sheet, "revenue", basis="actual")


def test_an_owner_phrase_without_yu_and_words_wrapped_by_the_layout_keep_their_metric() -> None:
    text = (
        "二、报告期内主要经营情况\n报告期内，公司实现营业收入98,765.43万元，较去年同期减少3.10%，实现归属上市公司\n"
        "股东的净利润8,812.06万元，较去年同期减少20.40%，实现归属于上市公司股东的扣除非经常\n"
        "性损益的净利润为8,700.11万元，较去年同期减少19.95%。\n"
    )
    sheet = read_facts(text)
    assert values(sheet, "net_profit", basis="actual") == [(pytest.approx(88120600.0), "company")]
    assert values(sheet, "net_profit_deducted", basis="actual") == [(pytest.approx(87001100.0), "company")]
    assert sheet.screening()["net_profit"].fact.value == pytest.approx(88120600.0)


def test_a_statement_with_revenue_and_cost_in_both_years_derives_both_years_margins() -> None:
    """How the margin moved is what `compare` asks: the prior year's column gives that year's margin, kept
    apart (basis prior) from the current one, which alone is the screening figure."""
    text = (
        "某某制造股份有限公司 2024年年度报告\n合并利润表\n单位：元\n项目 | 2024年度 | 2023年度\n"
        "一、营业总收入 | 1,000,000,000.00 | 800,000,000.00\n"
        "其中：营业收入 | 1,000,000,000.00 | 800,000,000.00\n"
        "其中：营业成本 | 600,000,000.00 | 520,000,000.00\n"
    )
    sheet = read_facts(text)
    derived = sorted((f.basis, f.period_label, f.value) for f in sheet.facts if f.metric == "gross_margin")
    assert derived == [("actual", "FY2024", 40.0), ("prior", "FY2023", 35.0)], derived
    assert sheet.screening()["gross_margin"].fact.value == 40.0


def test_the_readers_version_changes_with_its_source(tmp_path) -> None:
    """Cached facts and checkpointed answers are keyed by the reader's version: a reader edit that left
    it alone would serve an older reader's facts as current. A copy of the package with one line added to
    the prose reader (and one to the PDF reader) reports another version."""
    import os
    import shutil
    import subprocess
    import sys
    from pathlib import Path

    import lmscreen
    from lmscreen.task.facts import FACTS_VERSION

    copy = tmp_path / "src" / "lmscreen"
    shutil.copytree(Path(lmscreen.__file__).parent, copy, ignore=shutil.ignore_patterns("__pycache__"))

    def version() -> str:
        code = "from lmscreen.task.facts import FACTS_VERSION; print(FACTS_VERSION)"
        env = {**os.environ, "PYTHONPATH": str(tmp_path / "src")}
        return subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
        ).stdout.strip()

    assert version() == FACTS_VERSION
    with (copy / "task" / "prose.py").open("a", encoding="utf-8") as fh:
        fh.write("\n# a reader edit\n")
    edited = version()
    assert edited != FACTS_VERSION
    with (copy / "filings" / "pdf.py").open("a", encoding="utf-8") as fh:
        fh.write("\n# a text extraction edit\n")
    assert version() not in (edited, FACTS_VERSION)
