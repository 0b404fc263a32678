"""A report table whose header row and body rows rule their cells a few points apart (filings/pdf.py) and
the statements and key-figure tables such reports print (task/tables.py).

SZSE templates (third-quarter reports, 年度报告摘要) rule a header cell over x 246-392 and the figures
under it in one merged cell over x 241-397: pdfplumber makes 5-point columns of the offsets, and put each
merged cell's text in the first column it covers, so figures sat one column left of their header. The
PDFs here are drawn with reportlab, cell by cell, in that shape; the reader is the real one.
"""

from __future__ import annotations

from pathlib import Path

from reportlab.lib.pagesizes import A4
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.cidfonts import UnicodeCIDFont
from reportlab.pdfgen import canvas

from lmscreen.filings.pdf import extract_pdf
from lmscreen.task.facts import read_facts

FONT = "STSong-Light"
pdfmetrics.registerFont(UnicodeCIDFont(FONT))
ROW = 18.0

HEADER = [(50, 56, ""), (56, 236, "项目"), (236, 241, ""), (241, 246, ""), (246, 392, "本期发生额"),
          (392, 397, ""), (397, 402, ""), (402, 528, "上期发生额"), (528, 533, "")]  # fmt: skip
"""The header row's cells: its two period cells ruled 5 points inside the body's merged cells."""


def body(label: str, current: str, prior: str) -> list[tuple[float, float, str]]:
    """A body row: its label cell, then one merged cell per period over the header's offsets."""
    return [(50, 56, ""), (56, 236, label), (236, 241, ""), (241, 397, current), (397, 533, prior)]


STATEMENT = [
    HEADER,
    body("一、营业总收入", "1,000,000.00", "800,000.00"),
    body("其中：营业收入", "1,000,000.00", "800,000.00"),
    body("利息收入", "", ""),
    body("已赚保费", "", ""),
    body("二、营业总成本", "700,000.00", "560,000.00"),
    body("其中：营业成本", "600,000.00", "500,000.00"),
    body("利息支出", "", ""),
]


def draw(path: Path, lines: list[str], rows: list[list[tuple[float, float, str]]]) -> Path:
    """One A4 page: the lines of text, then the rows as ruled cells, each text at its cell's left."""
    page = canvas.Canvas(str(path), pagesize=A4)
    page.setFont(FONT, 9)
    y = 800.0
    for line in lines:
        page.drawString(50, y, line)
        y -= 16
    y -= ROW
    for row in rows:
        for x0, x1, text in row:
            page.rect(x0, y, x1 - x0, ROW)
            if text:
                page.drawString(x0 + 2, y + 5, text)
        y -= ROW
    page.save()
    return path


def cells(text: str, first: str) -> list[str]:
    """The cells of the line of `text` whose first filled cell is `first`."""
    for line in text.splitlines():
        parts = [c.strip() for c in line.split("|")]
        if first in parts:
            return parts
    raise AssertionError(f"no row {first!r} in {text!r}")


def test_figures_of_merged_cells_sit_under_their_header(tmp_path: Path) -> None:
    pdf = draw(tmp_path / "q.pdf", ["2、合并利润表", "单位：元"], STATEMENT)
    text = extract_pdf(pdf).text
    header, revenue = cells(text, "本期发生额"), cells(text, "其中：营业收入")
    assert revenue.index("1,000,000.00") == header.index("本期发生额")
    assert revenue.index("800,000.00") == header.index("上期发生额")
    assert cells(text, "其中：营业成本").index("600,000.00") == header.index("本期发生额")


def test_the_statement_gives_the_derived_margin(tmp_path: Path) -> None:
    """`利息收入` and `已赚保费` under `其中：营业收入` are items with no figures, not the rest of its label:
    the cost row keeps its own label, and the margin is (1,000,000 - 600,000) / 1,000,000."""
    lines = ["某某医药股份有限公司2024年年度报告", "2、合并利润表", "单位：元"]
    pdf = draw(tmp_path / "fy.pdf", lines, STATEMENT)
    sheet = read_facts(extract_pdf(pdf).text, names=("某某医药",))
    kept = {name: s.fact.value if s.fact else None for name, s in sheet.screening().items()}
    assert kept["revenue"] == 1_000_000.0
    assert kept["gross_margin"] == 40.0


def test_a_header_over_two_real_columns_stays_over_the_first(tmp_path: Path) -> None:
    """A year over `金额 | 占比` covers two columns wide enough to print in: nothing moves."""
    rows = [
        [(50, 150, "项目"), (150, 350, "2024年"), (350, 450, "2023年")],
        [(50, 150, ""), (150, 250, "金额"), (250, 350, "占比"), (350, 450, "金额")],
        [(50, 150, "利息净收入"), (150, 250, "93,427"), (250, 350, "63.7%"), (350, 450, "117,991")],
    ]
    text = extract_pdf(draw(tmp_path / "bank.pdf", ["单位：百万元"], rows)).text
    header, row = cells(text, "2024年"), cells(text, "利息净收入")
    assert row.index("93,427") == header.index("2024年")


def test_a_bare_unit_line_above_the_key_figures_is_their_unit() -> None:
    """`元` alone above a 年度报告摘要's key-figure table (the SZSE template) gives the table's unit."""
    text = (
        "某某医药股份有限公司2024年年度报告摘要\n3、主要会计数据和财务指标\n"
        "（1） 近三年主要会计数据和财务指标\n"
        "公司是否需追溯调整或重述以前年度会计数据\n是 □否\n元\n"
        " |  |  | 2024年 | 2023年 |  | 本年比上年增减 | 2022年\n"
        " |  |  |  | 调整前 | 调整后 |  | \n"
        " | 营业收入 |  | 27,616,611,772.61 | 24,738,963,319.76 | 24,738,963,319.76 | 11.63% "
        "| 18,079,461,482.75\n"
        " | 归属于上市 |  | 3,367,888,968.20 | 2,852,931,664.85 | 2,852,931,664.85 | 18.05% "
        "| 2,448,802,103.34\n"
        " | 公司股东的 |  |  |  |  |  | \n"
        " | 净利润 |  |  |  |  |  | \n"
    )
    screened = read_facts(text, names=("某某医药",)).screening()
    kept = {name: s.fact.value if s.fact else None for name, s in screened.items()}
    assert kept["revenue"] == 27_616_611_772.61
    assert kept["net_profit"] == 3_367_888_968.20


def test_a_bare_number_line_is_no_unit() -> None:
    """Only a unit alone on the line right above the table declares it: a `元` in a sentence does not."""
    text = (
        "某某医药股份有限公司2024年年度报告摘要\n主要会计数据\n每10股派发现金红利3.2元\n"
        " |  |  | 2024年 | 2023年 | 本年比上年增减\n"
        " | 营业收入 |  | 27,616,611,772.61 | 24,738,963,319.76 | 11.63%\n"
    )
    kept = read_facts(text, names=("某某医药",)).screening()
    assert kept["revenue"].fact is None
