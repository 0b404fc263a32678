"""What held-out round 103 showed. (1) A news item that runs on from its headline with spaces and no stop
(某某科技2021年净利1520.36万元增长18.20% 投资收益增加 某某网 4月20日消息，…营业收入为…): the headline's 增长
was read as the name of a part whose figures the body's revenue went on with (the round's one miss).
(2) A 业绩预告 whose reasons date an event by a quarter of the forecast's own year (某基地2021年一季度全面
投产后) was read as a document of that quarter, and one whose reasons date a past event by the year
before's half (主要原因是2020年上半年…计提了大额减值) as a document of that half. Texts written here in those
shapes; the reader is the real one.
"""

from __future__ import annotations

from lmscreen.task.facts import read_facts


def _kept(text: str, field: str, name: str = "") -> float | None:
    fact = read_facts(text, names=(name,)).screening()[field].fact
    return None if fact is None else fact.value


_HEADLINE_RUN = (
    "某某科技2021年净利1520.36万元{move}18.20% 投资收益增加 某某网 4月20日消息，某某科技（830001）近日公布的"
    "2021年报告显示，截止2021年12月31日，2021年营业收入为61,203,118.40元，较上年同期增长12.10%；"
    "归属于挂牌公司股东的净利润为15,203,611.05元，较上年同期增长18.20%。"
)


def test_a_headline_move_word_names_no_part_for_the_body_to_go_on_with() -> None:
    text = _HEADLINE_RUN.format(move="增长")
    assert _kept(text, "revenue") == 61_203_118.40
    assert _kept(text, "revenue", "某某科技") == 61_203_118.40
    assert _kept(text, "net_profit", "某某科技") == 15_203_611.05


def test_a_fall_in_the_headline_names_no_part_either() -> None:
    text = _HEADLINE_RUN.format(move="下降")
    assert _kept(text, "revenue") == 61_203_118.40


def test_a_part_named_before_its_label_is_still_a_part() -> None:
    # control: a real part's name before the label keeps its figures the part's, move words beside it or not
    text = (
        "某某科技发布2021年年报，公司实现营业收入8.62亿元，同比增长12.10%。其中储能业务营业收入3.10亿元，"
        "增长最快的光伏业务营业收入2.05亿元。"
    )
    assert _kept(text, "revenue", "某某科技") == 862_000_000.0
    facts = read_facts(text, names=("某某科技",)).facts
    parts = {f.value: f.scope for f in facts if f.metric == "revenue" and f.basis == "actual"}
    assert parts[310_000_000.0] == "segment"
    assert parts[205_000_000.0] == "segment"


_FORECAST_REASONS = (
    "某某数控公告，预计2021年实现归属于上市公司股东的净利润5.1亿元-5.5亿元，同比增长44.71%-56.06%。公司不断"
    "丰富产品线；智能制造基地2021年一季度全面投产后，总装产能得到大幅度释放，带动业绩持续增长。"
)


def test_a_dated_quarter_of_the_forecast_year_in_its_reasons_is_no_document_period() -> None:
    # round 103's 业绩预告: the quarter dates an event of the forecast year (投产后), not a report
    sheet = read_facts(_FORECAST_REASONS, names=("某某数控",))
    # the forecast's own year dates it (an opening 公告…预计, round 98's rule), never the reasons' quarter
    assert sheet.period is None or (sheet.period.year, sheet.period.sub) == (2021, "FY")
    assert _kept(_FORECAST_REASONS, "net_profit", "某某数控") is None


def test_a_broker_note_reporting_the_quarter_after_its_forecast_keeps_the_quarter() -> None:
    # control: the quarter's sentence prints its figures, so it is the quarter the note reports
    text = (
        "我们预计2021年公司净利润增长幅度36%，维持买入评级。2021年一季度，某某证券实现营业收入59.33亿元，"
        "同比增长24.37%；实现归母净利润18.76亿元，同比增长46.90%。"
    )
    sheet = read_facts(text, names=("某某证券",))
    assert sheet.period is not None and (sheet.period.year, sheet.period.sub) == (2021, "Q1")
    assert _kept(text, "revenue", "某某证券") == 5_933_000_000.0
    assert _kept(text, "net_profit", "某某证券") == 1_876_000_000.0


def test_a_half_of_the_year_before_told_in_a_forecasts_reasons_is_no_document_period() -> None:
    # round 103's 业绩预告: the last year's half dates a write-down among the reasons, not a report
    text = (
        "某某水泥公告，预计2021年净利润6123.45万元左右，将实现扭亏为盈，公司业绩预盈的主要原因是2020年上半年"
        "某某财险对投资资产计提了大额减值。"
    )
    period = read_facts(text, names=("某某水泥",)).period
    assert period is None or (period.year, period.sub) == (2021, "FY")  # the forecast's year, not 2020H1


def test_a_half_of_the_year_before_with_its_figures_still_dates_the_note() -> None:
    # control: the half's sentence prints its figures, so it is a period the text reports
    text = (
        "我们预计2021年公司净利润增长20%。2020年上半年，某某水泥实现营业收入12.35亿元，同比增长8.10%；"
        "实现归母净利润1.02亿元。"
    )
    sheet = read_facts(text, names=("某某水泥",))
    assert sheet.period is not None and (sheet.period.year, sheet.period.sub) == (2020, "H1")
    assert _kept(text, "revenue", "某某水泥") == 1_235_000_000.0
