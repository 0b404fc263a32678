"""What held-out rounds 83 and 84 showed the reader missing: a sentence opening straight on 实现 after a
clause on a quarter alone (Q3单季营收…。实现归母净利润…，毛利率…), a label run whose last measure no label
reads (营收、归母净利润、扣非后归母近利润分别为…), and a note on a year that prints none of the year's own
figures but the next first quarter's (2021年四季度毛利率…。2022年一季度…毛利率环比上升…至36.39%), and a half
year that prints none of its own figures but its first quarter's (上半年…闭园…，Q1公司营收…至0.85亿元), and
an inference word read as a part's name (意味着2022-2024年营收将达到…，根据今年前三季度整体营收达到182亿元).
Texts written here in those shapes; the reader is the real one.
"""

from __future__ import annotations

from lmscreen.task.facts import read_facts


def _kept(text: str, field: str) -> float | None:
    fact = read_facts(text).screening()[field].fact
    return None if fact is None else fact.value


_NINE_MONTHS = (
    "公司发布2021年三季报。2021年前三季度公司实现营收42.16亿元，同比+25.4%。实现归母净利润为3.52亿元，"
    "同比+12.8%，毛利率为24.6%，同比-3.55pct。"
)


def test_a_verb_opening_sentence_goes_on_with_the_quarter_before() -> None:
    text = _NINE_MONTHS + (
        "Q3单季营收13.82亿元，同比-3.1%。实现归母净利润为1.07亿元，同比-9.4%，毛利率为26.1%，同比-1.2pct。"
    )
    assert _kept(text, "net_profit") == 352_000_000.0
    assert _kept(text, "gross_margin") == 24.6


def test_an_item_mark_before_the_quarter_is_no_subject() -> None:
    text = (
        "公司公布2019年年度报告。1）2019实现营收152.41亿元，同比增长2.33%。实现归母净利润6.27亿元，同比下降3.1%；"
        "2）2019Q4实现营收41.52亿元，同比增长0.8%。实现归母净利润1.62亿元，同比下降8.2%。"
    )
    assert _kept(text, "net_profit") == 627_000_000.0


def test_a_verb_opening_sentence_after_a_cumulative_clause_stays_the_documents() -> None:
    # control: the clause before names the nine months, so the sentence is the nine months'
    text = (
        "公司发布2021年三季报。2021年前三季度公司营收42.16亿元，同比+25.4%。"
        "实现归母净利润为3.52亿元，同比+12.8%。"
    )
    assert _kept(text, "net_profit") == 352_000_000.0


def test_an_unread_measure_holds_its_place_in_a_label_run() -> None:
    text = (
        "4月19日晚，公司发布2019年一季度报告，实现营收、归母净利润、扣非后归母近利润分别为8.37亿、0.96亿和0.91亿元，"
        "分别同比增长11.2%、21.6%和20.9%。"
    )
    assert _kept(text, "revenue") == 837_000_000.0
    assert _kept(text, "net_profit") == 96_000_000.0


def test_a_year_without_its_own_figures_gives_way_to_the_next_first_quarter() -> None:
    text = (
        "　　2021年四季度毛利率大幅下滑。公司2021年四季度业绩低于预期，主要是受毛利率下滑拖累。"
        "四季度毛利率下滑至28.12%，远低于此前35%左右的水平。　　2022年一季度毛利率水平恢复。"
        "2022年一季度公司业绩受到季节性因素影响，导致营业收入和归母净利率均出现同比下滑。"
        "另一方面，公司毛利率环比上升8ppt至36.12%，与去年同期基本持平。"
        "　　公司汽车电子业务2021年的营收占比为7-8%，相较于2020年有所提升。"
    )
    assert _kept(text, "gross_margin") == 36.12


def test_a_year_with_its_own_margin_keeps_it() -> None:
    # control: the year prints its own margin, so the next first quarter's stays out
    text = (
        "　　2021年公司毛利率为33.5%。四季度毛利率下滑至28.12%，远低于此前35%左右的水平。"
        "　　2022年一季度毛利率水平恢复。2022年一季度公司业绩受到季节性因素影响，"
        "导致营业收入和归母净利率均出现同比下滑。另一方面，公司毛利率环比上升8ppt至36.12%，与去年同期基本持平。"
        "　　公司汽车电子业务2021年的营收占比为7-8%。"
    )
    assert _kept(text, "gross_margin") == 33.5


def test_a_half_without_its_own_figures_gives_way_to_its_first_quarter() -> None:
    text = (
        "　　核心结论　　最坏时点已过，业绩有望持续修复。上半年公司旗下景区多数时间处于闭园状态，"
        "对业绩造成较大不利影响，Q1公司营收同比大幅下降65.1%至1.12亿元，归母净亏损0.27亿元。随着各地不断放宽防疫政策，"
        "目前共6个景区已恢复营业，公司业绩有望持续修复。"
    )
    assert _kept(text, "revenue") == 112_000_000.0
    assert _kept(text, "net_profit") == -27_000_000.0


def test_a_half_with_its_own_figures_keeps_them() -> None:
    # control: the half prints its own revenue and profit, so its first quarter stays a part of it
    text = (
        "　　上半年公司实现营收3.21亿元，归母净利润0.52亿元。其中Q1公司营收同比大幅下降65.1%至1.12亿元，"
        "归母净亏损0.27亿元。"
    )
    assert _kept(text, "revenue") == 321_000_000.0


def test_an_inference_word_names_no_part() -> None:
    text = (
        "股权激励计划的考核标准，以2020年数据为基准，2022-2024年的营业收入同比增长不低于60%、75%、120%，"
        "意味着2022-2024年营收将达到206亿元、225亿元、282亿元，整体数值保持较高水平，"
        "根据今年前三季度整体营收达到165亿元，意味着明年的整体营收基本可以保持今年的水平。"
    )
    assert _kept(text, "revenue") == 16_500_000_000.0


def test_a_part_named_after_an_inference_word_is_still_the_parts() -> None:
    # control: the word goes, the part's name after it stays
    text = "公司2021年前三季度营业收入165亿元，这意味着化肥业务营收达到62亿元，毛利率为21.5%。"
    sheet = read_facts(text)
    part = [f for f in sheet.facts if f.metric == "revenue" and f.value == 6.2e9]
    assert part and part[0].scope == "segment"
    assert _kept(text, "revenue") == 16_500_000_000.0
