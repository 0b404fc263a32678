"""What held-out rounds 117 and 118 (long broker reports) showed the reader keeping wrong or missing: a
forecast table's run-together row whose header could not cut it (`毛利率(%)65666666`) kept as a margin of
65666666%, and a chart's source note run into the next sentence (`资料来源：公司半年报，中银证券公司2020年
上半年实现营业收入105.65亿元`) taken for a business named 中银证券公司, so the half's revenue, the company's,
went unread and the note was dated by its table's last actual year. Texts written here in those shapes; the
reader is the real one.
"""

from __future__ import annotations

from lmscreen.task.facts import read_facts


def _kept(text: str, field: str, name: str = "") -> float | None:
    fact = read_facts(text, names=(name,)).screening()[field].fact
    return None if fact is None else fact.value


# a header printing 2021E twice: the glued-table rule cannot give each cell a year, so the rows stay whole
_FORECAST_TABLE = (
    "公司2019年实现营业收入120.50亿元。图表9.甲公司盈利预测报告期2019A2020E2021E2021E"
    "监护类收入4,210.55,102.36,233.47,415.8YOY(%)21.1522.1021.00毛利2,801.123,402.554,150.204,950.31"
    "毛利率(%)66.5366.7066.6066.80"
    "诊断类收入3,120.43,560.14,020.54,600.2YOY(%)14.1012.9314.41毛利2,010.552,310.202,640.803,050.66"
    "毛利率(%)64.4364.8965.6866.31"
    "其他业务收入30.131.632.233.5YOY(%)5555毛利20.1121.0321.5522.40毛利率(%)66.8366.5566.9266.87"
    "总营业收入收入12,050.1514,210.3316,540.2219,301.45YOY(%)18171617毛利7,920.339,410.2210,990.1512,870.40"
    "毛利率(%){margin}资料来源：公司年报，某某证券"
)


def test_a_margin_above_a_hundred_percent_is_no_margin() -> None:
    assert _kept(_FORECAST_TABLE.format(margin="66666767"), "gross_margin", "甲公司") is None


def test_a_margin_of_a_hundred_percent_or_less_is_kept() -> None:
    text = "公司2019年实现营业收入165.56亿元，综合毛利率为65.24%。"
    assert _kept(text, "gross_margin", "甲公司") == 65.24


_NOTE_RUN_ON = (
    "甲公司（300760）深度报告。图表12.2020H1甲公司业绩情况资料来源：公司半年报，某某证券资料来源：公司半年报，"
    "某某证券公司2020年上半年实现营业收入105.65亿元，同比增长28.74%，其中生命与支持业务实现营业收入53.43亿元。"
)


def test_a_source_note_run_into_the_sentence_names_no_business() -> None:
    sheet = read_facts(_NOTE_RUN_ON, names=("甲公司",))
    assert sheet.period is not None and (sheet.period.year, sheet.period.sub) == (2020, "H1")
    assert _kept(_NOTE_RUN_ON, "revenue", "甲公司") == 10_565_000_000.0


def test_a_business_named_after_the_source_note_keeps_its_name() -> None:
    note = "甲公司（300760）深度报告。资料来源：公司半年报，某某证券"
    text = note + "体外诊断业务2020年上半年实现营业收入30.29亿元。"
    assert _kept(text, "revenue", "甲公司") is None


def test_a_company_named_outside_a_source_note_is_still_someone_elses() -> None:
    text = "甲公司（300760）深度报告。某某证券公司2020年上半年实现营业收入105.65亿元。"
    assert _kept(text, "revenue", "甲公司") is None


_TWO_RATED = (
    "2020年12月2日证券研究报告/首次覆盖报告医药股票名称代码评级目标价甲医疗300111CH买入RMB41.07"
    "乙光电002999CH买入RMB62.37医疗器械龙头开疆辟土。"
)
_NINE_MONTHS = (
    "根据甲医疗三季报，2020年前三季度公司实现营业收入161亿元，同比增长29.8%；净利润同比增长46.1％至54亿元。"
)


def test_a_cover_rating_two_companies_gives_neither_ones_figures_unasked() -> None:
    assert _kept(_TWO_RATED + _NINE_MONTHS, "revenue") is None
    assert _kept(_TWO_RATED + _NINE_MONTHS, "net_profit") is None


def test_the_rated_company_asked_by_name_keeps_its_figures() -> None:
    assert _kept(_TWO_RATED + _NINE_MONTHS, "revenue", "甲医疗") == 16_100_000_000.0


def test_a_cover_rating_one_company_keeps_its_figures_unasked() -> None:
    one = "证券研究报告/首次覆盖报告股票名称代码评级目标价甲医疗300111CH买入RMB41.07医疗器械龙头。"
    assert _kept(one + _NINE_MONTHS, "revenue") == 16_100_000_000.0


_COVER = (
    "甲生物(688111CH)年报点评投资评级(维持):买入目标价(人民币):150.972021年3月31日│中国内地医药健康/"
    "线上业务高增长，维持买入评级受益于护肤品板块的高速增长，"
)
_RESULTS = "公司20年实现收入21.5亿元（+30.6%yoy），归母净利润5.5亿元（+12.3%yoy），业绩符合预期。"
_REVISION = (
    "盈利预测调整（人民币百万元）2020A2021E2022E2023E营业收入调整前1,9543,0304,112"
    "调整后2,1533,4054,8626,029(+/-）%7.28%13.85%"
)


def test_a_covers_price_target_before_its_bar_makes_no_forecast_of_the_summary() -> None:
    assert _kept(_COVER + _RESULTS, "revenue", "甲生物") == 2_150_000_000.0


def test_a_forecast_revisions_after_figures_are_no_adjusted_figures_to_echo() -> None:
    assert _kept("甲生物年报点评。" + _RESULTS + _REVISION, "revenue", "甲生物") == 2_150_000_000.0


def test_a_forecast_after_the_bar_is_still_a_forecast() -> None:
    assert _kept("甲生物(688111CH)年报点评│我们预计公司21年实现收入30.5亿元。", "revenue", "甲生物") is None


def test_a_figure_restated_by_the_writer_is_still_echoed_away() -> None:
    text = "原标题：1药网Q2净亏损7880万元。非美国通用会计准则下，归属股东净亏损为7880万元。"
    assert _kept(text, "net_profit", "1药网") is None


def test_a_heading_on_the_level_a_margin_rose_at_names_no_business() -> None:
    text = "甲公司深度报告。3.1财务数据优秀，毛利率高位上扬2020年公司实现营收7.09亿元，同比增长27.18%。"
    assert _kept(text, "revenue", "甲公司") == 709_000_000.0


def test_a_business_named_after_such_a_heading_keeps_its_name() -> None:
    text = "甲公司深度报告。3.1财务数据优秀，毛利率高位上扬2020年玻尿酸业务实现营收4.47亿元，同比增长84%。"
    assert _kept(text, "revenue", "甲公司") is None


_HALF_LAST = "甲公司首次覆盖。2020H1营收为2.42亿，同比增长0.72%。"


def test_a_slash_list_ending_on_a_half_dates_its_last_figure_the_half() -> None:
    text = _HALF_LAST + "2017/2018/2019/2020H1公司综合毛利率分别为86.15%/89.34%/92.63%/90.22%，持续提升。"
    assert _kept(text, "gross_margin", "甲公司") == 90.22


def test_a_slash_list_of_whole_years_is_read_as_before() -> None:
    text = _HALF_LAST + "2017/2018/2019/2020公司综合毛利率分别为86.15%/89.34%/92.63%/90.22%，持续提升。"
    assert _kept(text, "gross_margin", "甲公司") is None


_YEAR_NOTE = "甲公司深度报告。公司2019年实现营业收入354亿元。"


def test_the_level_a_move_over_a_span_reached_is_the_last_years() -> None:
    text = _YEAR_NOTE + "2014-2019年，毛利率从21.98%提升至32.05%，带动净利率从4.98%提升至8.25%。"
    assert _kept(text, "gross_margin", "甲公司") == 32.05


def test_a_spans_total_is_still_no_years_figure() -> None:
    text = "甲公司深度报告。公司2019年毛利率为32.05%。2017-2019年公司累计实现营业收入10.5亿元。"
    assert _kept(text, "revenue", "甲公司") is None


def test_a_source_note_run_into_the_next_charts_title_leaves_the_parts_as_they_were() -> None:
    text = (
        "甲公司深度报告。2019年公司收入5.58亿元增长73.7%，归母净利润3.06亿元增长149%。图1公司2015-2019年收入及增速"
        "资料来源：Wind，某某证券研究所图2公司2015-2019年归母净利润及增速资料来源：Wind，某某证券研究所分产品：乙产品"
        "2017年上市后增长迅速，2019年收入2.4亿元增长223.6%，占比已达到43.5%；丙产品2015年上市之后增长稳定，2019年收入"
        "2.2亿元增长15.12%。"
    )
    assert _kept(text, "revenue", "甲公司") == 558_000_000.0
