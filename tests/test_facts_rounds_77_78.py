"""What held-out rounds 77 and 78 showed the reader missing or keeping wrong: a digest item's next sentence
going on with another one's revenue series, a basis phrase (追溯口径下) read as a part's name, a span of
years leading into one label and a slashed list without 分别, 水平 before a pair of rates, and a commitment's
floor (承诺…净利润不低于…) taken for the figures that date the document. Texts written here in those
shapes; the reader is the real one.
"""

from __future__ import annotations

from lmscreen.task.facts import read_facts
from lmscreen.task.periods import Period


def _kept(text: str, field: str) -> float | None:
    fact = read_facts(text).screening()[field].fact
    return None if fact is None else fact.value


_SERIES = (
    "云端汽车将与某某汽车共同打造智能汽车。      Abc正式递交招股书       "
    "5月11日，社交平台Abc向美国证券交易委员会提交招股书。"
    "招股书显示，2019年到2020年，Abc App的营收分别为人民币6070万元、3.98亿元。"
)


def test_a_sentence_going_on_with_another_ones_series_is_not_the_company() -> None:
    # the quarter's revenue follows Abc App's yearly revenues: Abc's too, not the text's company's
    text = _SERIES + "2021年第一季度营收为人民币2.18亿元，同比增长260%。"
    assert _kept(text, "revenue") is None


def test_a_sentence_naming_the_company_starts_afresh() -> None:
    text = _SERIES + "公司2021年第一季度营收为人民币2.18亿元，同比增长260%。"
    assert _kept(text, "revenue") == 218_000_000.0


def test_a_basis_phrase_is_no_part_of_the_company() -> None:
    text = (
        "上半年收入稳增。公司追溯口径下2022H1实现收入41.5亿/+19.9%，归母净利1.5亿/+31.3%。"
        "其中Q2收入22.4亿/+15.4%，归母净利0.9亿/+36.6%。"
    )
    assert _kept(text, "revenue") == 4_150_000_000.0


def test_a_span_of_years_then_one_label_and_a_slashed_list() -> None:
    text = (
        "公司专注于控制系统业务，业绩平稳增长。2016-2018年公司实现营业收入197.70/245.86/300.13亿元，"
        "CAGR达23.2%。"
    )
    sheet = read_facts(text)
    assert sheet.period == Period(2018, "FY")
    assert _kept(text, "revenue") == 30_013_000_000.0


def test_a_span_with_a_different_count_stays_unpaired() -> None:
    text = "2016-2018年公司实现营业收入245.86/300.13亿元，CAGR达23.2%。"
    assert not [f for f in read_facts(text).facts if f.metric == "revenue" and f.source == "list"]


def test_a_span_an_estimate_names_stays_unpaired() -> None:
    text = "维持评级。预计公司2020-2022年收入为61.23/71.76/83.99亿元，同比增长15%/17%/17%。"
    assert not [f for f in read_facts(text).facts if f.metric == "revenue" and f.source == "list"]


def test_a_label_printing_no_figure_starts_no_series() -> None:
    text = (
        "公司2020年前三季度实现营收8.24亿元。主营业务保持高增速且毛利率稳步提升。"
        "2020年前三季度综合毛利率进一步提升至28.22%。"
    )
    assert _kept(text, "gross_margin") == 28.22


def test_level_before_a_pair_of_rates() -> None:
    text = (
        "公司2020年Q1实现营收14.98亿元，同比+15.5%，归母净利润1.77亿元，同比+48.2%。"
        "盈利能力方面，Q1毛利率和净利率水平达到25.6%和11.1%，分别同比+2.1pct和+2.4pct。"
    )
    assert _kept(text, "gross_margin") == 25.6


def test_a_commitments_floor_does_not_date_the_document() -> None:
    text = (
        "  2Q20业绩同比回暖，看好全年业绩表现    1H20公司实现毛利1.8亿，同比-19.7%，综合毛利率37.7%"
        "（同比-9.2pct）。7月27日公司公告称，拟投资2.3亿收购某某检测74%股权。某某检测承诺20-22年净利润不低于"
        "0.23/0.27/0.31亿。"
    )
    sheet = read_facts(text)
    assert sheet.period == Period(2020, "H1")
    assert _kept(text, "gross_margin") == 37.7


_QUARTER_SPAN = (
    "公司功能性材料业务持续增长。2020年Q1-2021年Q3，公司单季度归母净利润分别为1.14亿元、0.82亿元（疫情影响）、"
    "1.22亿元、1.46亿元、1.22亿元、1.59亿元、1.82亿元，其中2021年Q3单季度业绩再创新高。"
)


def test_a_span_of_quarters_lists_each_quarter() -> None:
    sheet = read_facts(_QUARTER_SPAN)
    listed = [(f.period, f.value) for f in sheet.facts if f.metric == "net_profit" and f.source == "list"]
    assert listed[0] == (Period(2020, "Q1"), 114_000_000.0)
    assert listed[-1] == (Period(2021, "Q3"), 182_000_000.0)
    assert len(listed) == 7
    assert _kept(_QUARTER_SPAN, "net_profit") == 182_000_000.0


def test_a_span_of_quarters_with_a_different_count_stays_unpaired() -> None:
    text = _QUARTER_SPAN.replace("1.22亿元、1.46亿元、", "")
    assert not [f for f in read_facts(text).facts if f.metric == "net_profit" and f.source == "list"]


def test_a_list_closing_on_an_estimates_aside_is_an_estimate() -> None:
    text = (
        "公司发布2022年前三季度业绩预告。2021Q4-2022Q3，公司单季度归母净利润分别为3.17亿元、8.01亿元、14.22亿元"
        "和20.19亿元（22Q3取预测区间中值）。"
    )
    listed = [f for f in read_facts(text).facts if f.metric == "net_profit" and f.source == "list"]
    assert all(f.basis != "actual" for f in listed)
    assert _kept(text, "net_profit") is None
