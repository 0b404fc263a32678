"""What held-out round 88 showed the reader missing: a margin of the products as a whole (产品总体毛利率)
read as a part's, and a bare 收入 right after a year's results heading (公布2019年业绩：收入…) whose
profit sits in the next sentence. Texts written here in those shapes; the reader is the real one.
"""

from __future__ import annotations

from lmscreen.task.facts import read_facts


def _kept(text: str, field: str, name: str = "") -> float | None:
    fact = read_facts(text, names=(name,)).screening()[field].fact
    return None if fact is None else fact.value


_HALF = "公司披露2021年半年报，上半年实现收入52.40亿元，同比增长21.3%；归母净利润6.12亿元，同比增长18.2%。"


def test_the_products_as_a_whole_are_the_companys_margin() -> None:
    text = _HALF + "从利润端看，公司盈利水平稳步提升，产品总体毛利率28.45%，同比提升0.52pct。"
    assert _kept(text, "gross_margin") == 28.45


def test_the_companys_products_combined_margin_is_the_companys() -> None:
    text = _HALF + "公司产品综合毛利率28.45%，同比提升0.52pct。"
    assert _kept(text, "gross_margin") == 28.45


def test_a_named_products_combined_margin_stays_a_part() -> None:
    text = _HALF + "其中锂电池产品综合毛利率31.20%，同比提升1.1pct。"
    assert _kept(text, "gross_margin") is None


def test_a_bare_product_margin_stays_a_part() -> None:
    text = _HALF + "产品毛利率31.20%，同比提升1.1pct。"
    assert _kept(text, "gross_margin") is None


def test_a_bare_income_after_a_years_results_heading_is_the_revenue() -> None:
    text = "药明康德公布2020年业绩：收入同比增长21.56%至35.80亿元。归母净利润7.21亿元，同比增长30.1%。"
    assert _kept(text, "revenue") == 3_580_000_000.0


def test_a_parts_results_heading_keeps_its_bare_income_apart() -> None:
    text = "海外业务2020年业绩：收入同比增长21.56%至35.80亿元。公司归母净利润7.21亿元，同比增长30.1%。"
    assert _kept(text, "revenue") is None
