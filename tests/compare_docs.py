"""The documents `compare`'s tests read: real PDFs built with reportlab (its built-in CJK font, as
tests/test_pdf_reports.py) for three companies in each of two industries over three years, and one
industry report per industry.

Each company's 2023 annual report prints its key figures on page 3 in a 万元 table (营业收入 over three
years) and a 主要财务指标 table (毛利率 for 2023, 2022, 2021); each industry report states the
industry's average 毛利率 for the three years in a paragraph on page 2.
"""

from __future__ import annotations

import statistics
from pathlib import Path

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.cidfonts import UnicodeCIDFont
from reportlab.platypus import PageBreak, Paragraph, SimpleDocTemplate, Table, TableStyle

FONT = "STSong-Light"
pdfmetrics.registerFont(UnicodeCIDFont(FONT))
STYLE = ParagraphStyle("cn", fontName=FONT, fontSize=10, leading=14)
TABLE_STYLE = TableStyle(
    [("FONTNAME", (0, 0), (-1, -1), FONT), ("GRID", (0, 0), (-1, -1), 0.5, colors.black)]
)
YEARS = (2021, 2022, 2023)
COMPANIES: dict[str, tuple[str, str, tuple[float, float, float]]] = {
    "601012": ("隆基绿能", "光伏", (20.1, 15.2, 18.9)),
    "600438": ("通威股份", "光伏", (24.0, 30.1, 20.2)),
    "002459": ("晶澳科技", "光伏", (12.0, 14.4, 11.5)),
    "300750": ("宁德时代", "锂电", (26.3, 20.3, 22.9)),
    "002594": ("比亚迪", "锂电", (13.0, 17.0, 20.2)),
    "300014": ("亿纬锂能", "锂电", (18.0, 16.5, 17.2)),
}
"""code → (name, industry, 毛利率 for 2021, 2022, 2023)."""
STATED = {"光伏": (24.3, 22.1, 15.6), "锂电": (21.5, 19.8, 17.2)}
"""What each industry report states for 2021, 2022, 2023."""


def medians(industry: str) -> list[float]:
    rows = [m for _, ind, m in COMPANIES.values() if ind == industry]
    return [statistics.median(r[i] for r in rows) for i in range(3)]


def annual_report(path: Path, name: str, margins: tuple[float, float, float]) -> Path:
    revenue = ["营业收入", "1,294,976.70", "1,289,981.10", "809,322.00"]
    story: list = [Paragraph(f"{name}股份有限公司 2023年年度报告", STYLE), PageBreak()]
    story += [Paragraph("第二节 公司简介和主要财务指标", STYLE), PageBreak()]
    story += [
        Paragraph("七、主要会计数据和财务指标", STYLE),
        Paragraph("单位：万元 币种：人民币", STYLE),
        Table([["项目", "2023年", "2022年", "2021年"], revenue], style=TABLE_STYLE),
        Paragraph("主要财务指标", STYLE),
        Table(
            [["项目", "2023年", "2022年", "2021年"], ["毛利率(%)", *(f"{m:.1f}" for m in margins[::-1])]],
            style=TABLE_STYLE,
        ),
    ]
    SimpleDocTemplate(str(path), pagesize=A4).build(story)
    return path


def industry_report(path: Path, industry: str, stated: tuple[float, float, float]) -> Path:
    a, b, c = stated
    story: list = [Paragraph(f"2024年{industry}行业年度研究报告", STYLE), PageBreak()]
    story += [Paragraph(f"2021年、2022年、2023年{industry}行业平均毛利率分别为{a}%、{b}%、{c}%。", STYLE)]
    SimpleDocTemplate(str(path), pagesize=A4).build(story)
    return path


def build(folder: Path) -> tuple[Path, Path]:
    """DOCS (six annual reports, two industry reports) and the --industries file; returns both."""
    docs = folder / "docs"
    docs.mkdir(parents=True, exist_ok=True)
    for code, (name, _, margins) in COMPANIES.items():
        annual_report(docs / f"{code}.pdf", name, margins)
    for industry, stated in STATED.items():
        industry_report(docs / f"{industry}行业研究.pdf", industry, stated)
    industries = folder / "industries.csv"
    lines = ["code,industry"] + [f"{code},{ind}" for code, (_, ind, _) in COMPANIES.items()]
    industries.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return docs, industries
