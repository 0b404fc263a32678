"""What held-out rounds 121 and 122 (real-yanbao-reports' industry reports and one company note) showed
the reader doing: an industry report kept a company's figure when its cover's type was hidden (a monthly
whose cover also prints the company template it was made from, `公司深度报告模板`; a cover printed after
the first page's summary), and a bullet heading naming a business (`医美板块业务发力：`) made the company's
own 快报 revenue after it a part's. Texts written here in those shapes; the reader is the real one.
"""

from __future__ import annotations

from lmscreen.task.facts import read_facts


def _kept(text: str, field: str, name: str = "") -> float | None:
    fact = read_facts(text, names=(name,)).screening()[field].fact
    return None if fact is None else fact.value


_MONTHLY_BODY = (
    "基金重仓比例下降，行业高景气持续验证。消费电子：龙头营收创新高，产业链业绩超预期。"
    "2020年公司实现营业收入1114亿元，同比增长21.4%，毛利率达39.8%，高于一致预期的38.1%。"
)


def test_a_template_name_on_an_industry_monthlys_cover_is_no_company_report() -> None:
    text = "证券研究报告行业动态报告●电子2021年02月01日[table_main]公司深度报告模板" + _MONTHLY_BODY
    assert _kept(text, "gross_margin") is None
    assert _kept(text, "revenue") is None


def test_a_company_reports_cover_still_keeps_its_figures() -> None:
    text = "证券研究报告公司深度报告●电子2021年02月01日" + _MONTHLY_BODY
    assert _kept(text, "gross_margin") == 39.8


_FILLER = "行业渗透率全面提升，国产技术不断精进，各家优势在哪，谁有望抢占风口，本文从多角度做出解答。" * 18
_PEER = "就HA注射剂而言，爱美客的体量（2019年营收5.6亿）和增速（2019年增速74%）最高。"
_SUMMARY = "医美填充翘楚面面观。" + _FILLER + _PEER + _FILLER[:200]


def test_an_industry_banner_after_the_summary_makes_an_industry_report() -> None:
    text = _SUMMARY + "2020年09月01日商贸零售Table_BaseInfo行业分析证券研究报告投资评级领先大市-A"
    assert len(_SUMMARY) > 800
    assert _kept(text, "revenue") is None


def test_a_company_banner_after_the_summary_keeps_its_figures() -> None:
    text = _SUMMARY + "2020年09月01日爱美客（300896.SZ）Table_BaseInfo公司快报证券研究报告投资评级买入-A"
    assert _kept(text, "revenue", "爱美客") == 560_000_000.0


def test_a_business_heading_before_the_companys_announcement_leaves_its_revenue_the_companys() -> None:
    text = (
        "■归母净利高增，医美板块业务发力：2月26日朗姿股份发布业绩快报，FY2020收入28.73亿元/-4.46%，"
        "营业利润1.53亿元/-1.92%，公司归母净利1.37亿元/+134%。"
    )
    assert _kept(text, "revenue", "朗姿股份") == 2_873_000_000.0


def test_a_business_heading_over_its_own_doing_stays_a_part() -> None:
    text = "2020年公司归母净利润1.37亿元。医美业务：表现强劲，实现营收3.4亿元，同比增长29%。"
    assert _kept(text, "revenue") is None
