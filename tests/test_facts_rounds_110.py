"""What held-out rounds 110 and 111 (long broker reports) showed the reader keeping wrong or missing: a
year glued to a quarter's tag read as an amount in a table's declared unit, a broker's industry report's
recommended companies' figures kept as the text's own, comparable companies' average PE(TTM) beside the
company's, and a note on the nine months that also recalls older years left with no period. Texts
written here in those shapes; the reader is the real one.
"""

from __future__ import annotations

from lmscreen.task.facts import read_facts
from lmscreen.task.periods import Period


def _kept(text: str, field: str, name: str = "") -> float | None:
    fact = read_facts(text, names=(name,)).screening()[field].fact
    return None if fact is None else fact.value


_QUARTER_TABLE = (
    "2020年上半年疫苗板块收入总额增速为34.4%。图：板块收入（亿元）收入YOY。附录：样本标的营业收入和归母净利润情况"
    "代码公司名称营业收入（分季度）归母净利润（分季度）2019Q12019Q22020Q12020Q2"
    "300601.SZ康泰生物3.424.661.776.931.001.580.022.57"
)


def test_a_year_glued_to_a_quarter_tag_is_no_amount() -> None:
    assert _kept(_QUARTER_TABLE, "net_profit") is None


def test_a_quarter_tag_year_leaves_a_printed_amount_alone() -> None:
    text = "公司2020年上半年实现归母净利润2019万元，同比增长12%；营业收入3.1亿元。"
    assert _kept(text, "net_profit") == 20_190_000.0


_SECTOR_COVER = "证券研究报告行业研究/电子设备电子设备行业专题研究2020年06月22日强于大市（维持）"
_RECOMMENDED = (
    "配置建议：晶方科技公司在2019年营收规模为5.60亿元，同比基本持平，净利润为1.08亿元，同比增长52.27%。"
)


_OWN_RESULTS = "公司2019年实现营业收入5.60亿元，归母净利润1.08亿元，同比增长52.27%。"


def test_an_industry_reports_recommended_company_is_not_the_texts_own() -> None:
    assert _kept(_SECTOR_COVER + _RECOMMENDED, "net_profit") is None


def test_an_industry_report_still_gives_the_named_companys_figures() -> None:
    assert _kept(_SECTOR_COVER + _RECOMMENDED, "net_profit", "晶方科技") == 108_000_000.0


def test_a_company_report_without_a_name_keeps_its_figures() -> None:
    cover = "证券研究报告公司研究/公司点评报告2020年06月22日买入（维持）"
    assert _kept(cover + _OWN_RESULTS, "net_profit") == 108_000_000.0


def test_an_industry_cover_in_a_text_printing_the_companys_results_without_a_name() -> None:
    assert _kept(_SECTOR_COVER + _OWN_RESULTS, "net_profit") is None


def test_comparable_companies_average_pe_is_not_the_companys() -> None:
    text = (
        "公司2019年实现营业收入16.5亿元。我们取几大医药龙头作为可比上市公司，平均PE(TTM)为78倍，"
        "迈瑞医疗PE(TTM)为62倍，明显低于平均估值。"
    )
    assert _kept(text, "pe_ttm", "迈瑞医疗") == 62.0


def test_an_average_pe_alone_is_kept_by_no_one() -> None:
    text = "公司2019年实现营业收入16.5亿元。可比公司平均PE(TTM)为78倍。"
    assert _kept(text, "pe_ttm") is None


_OPENING = "公司自成立以来逐步完善自主研发体系，以外延并购拓宽产品线，并整合国内国际销售渠道。" * 12
"""An initiation's opening that names no period: the figures come far below it."""
_HISTORY_THEN_NINE_MONTHS = _OPENING + (
    "公司2018年的营业收入为137.53亿元，是全国最大的医疗器械生产厂商。"
    "2019年上半年公司实现营业收入82.06亿元，同比增长20.52%，实现归母净利润23.69亿元，同比增长26.57%。"
    "2019Q1-Q3公司营业收入123.79亿元（+20.43%），归母净利润36.71亿元（+26.74%）。"
)


def test_the_latest_report_after_its_prior_one_is_the_texts_period() -> None:
    sheet = read_facts(_HISTORY_THEN_NINE_MONTHS, names=("迈瑞医疗",))
    assert sheet.screening()["revenue"].fact.value == 12_379_000_000.0
    assert sheet.screening()["net_profit"].fact.value == 3_671_000_000.0


def test_one_measure_for_the_prior_report_sets_no_period() -> None:
    text = _OPENING + (
        "公司2018年的营业收入为137.53亿元。2019年上半年公司实现营业收入82.06亿元。"
        "2019Q1-Q3公司营业收入123.79亿元（+20.43%），归母净利润36.71亿元（+26.74%）。"
    )
    assert read_facts(text, names=("迈瑞医疗",)).period is None


_Q3_THEN_SINGLE = (
    "2020年Q3收入为4.6亿元，同比增长17%，归母净利润为2.9亿元，同比增长32%。"
    "单从第三季度来看，收入为2.2亿元，同比增长43.2%，归母净利润为1.4亿元，同比增长56%。"
)


def test_a_q3_figure_set_against_the_single_third_quarter_is_the_nine_months() -> None:
    sheet = read_facts("2019年公司收入为5.6亿元，归母净利润为3.1亿元。" + _Q3_THEN_SINGLE)
    revenue = [f for f in sheet.facts if f.metric == "revenue" and f.value == 460_000_000.0]
    assert [str(f.period) for f in revenue] == [str(Period(2020, "Q1-Q3"))]
    assert sheet.screening()["revenue"].fact.value == 460_000_000.0
    assert sheet.screening()["net_profit"].fact.value == 290_000_000.0


def test_a_q3_figure_alone_stays_the_quarter() -> None:
    sheet = read_facts("2020年Q3收入为2.2亿元，同比增长43.2%，归母净利润为1.4亿元，同比增长56%。")
    revenue = [f for f in sheet.facts if f.metric == "revenue" and f.value == 220_000_000.0]
    assert [str(f.period) for f in revenue] == [str(Period(2020, "Q3"))]


def test_a_single_quarter_word_before_another_metric_leaves_q3_alone() -> None:
    text = (
        "2020年Q3收入为2.2亿元，同比增长43.2%，归母净利润为1.4亿元，同比增长56%。"
        "单三季度毛利率为91.2%，环比提升1.1pct。"
    )
    revenue = [f for f in read_facts(text).facts if f.metric == "revenue" and f.value == 220_000_000.0]
    assert [str(f.period) for f in revenue] == [str(Period(2020, "Q3"))]


_PARTS_REVIEWED = (
    "公司发布2020年年报，实现营收13.32亿元，同比下滑16.95%，归母净利润2.30亿元，同比下降37.95%。"
    "分板块来看，2020年公司眼科产品实现收入5.66亿元（-20.62%），骨科产品实现收入3.32亿元（-7.52%），"
    "其他产品实现收入0.21亿元（-50%），占比1.58%。"
)


def test_a_margin_the_reviewed_parts_moved_is_the_companys() -> None:
    text = _PARTS_REVIEWED + "受到以上板块调整因素，2020年毛利率为74.93%，同比下降2.38pct。"
    assert _kept(text, "gross_margin") == 74.93


def test_a_named_parts_margin_after_the_cause_stays_the_parts() -> None:
    text = _PARTS_REVIEWED + "受到以上板块调整因素，2020年眼科产品毛利率为80.15%，同比下降2.38pct。"
    assert _kept(text, "gross_margin") is None
