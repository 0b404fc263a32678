"""PDF reports under --reports: tables as `a | b | c` rows, the page in each figure's evidence, scans refused
per row, long annual reports cut to the sections that hold the figures.

The PDFs are made here with reportlab and its built-in Adobe CJK font STSong-Light (UniGB-UCS2-H), which
every PDF reader, pdfminer included, resolves without a font file, so a clean checkout needs nothing more.
The end-to-end test drives the real CLI and the real OpenAI client against a loopback server that answers
what a correct model answers (the model is not what is tested here: the PDF text, grounding and page are).
"""

from __future__ import annotations

import json
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.cidfonts import UnicodeCIDFont
from reportlab.pdfgen import canvas
from reportlab.platypus import PageBreak, Paragraph, SimpleDocTemplate, Table, TableStyle

from inproc import run_lmscreen
from lmscreen.filings import pdf as pdf_module
from lmscreen.filings.pdf import FilingUnreadable, extract_pdf

FONT = "STSong-Light"
pdfmetrics.registerFont(UnicodeCIDFont(FONT))
STYLE = ParagraphStyle("cn", fontName=FONT, fontSize=10, leading=14)
TABLE_STYLE = TableStyle(
    [("FONTNAME", (0, 0), (-1, -1), FONT), ("GRID", (0, 0), (-1, -1), 0.5, colors.black)]
)
KEY_TABLE = [
    ["项目", "2024年", "2023年", "本年比上年增减(%)"],
    ["营业收入", "17,414,400.00", "15,056,000.00", "15.66"],
    ["归属于上市公司股东的净利润", "8,623,000.00", "7,473,400.00", "15.38"],
]


def key_figures_page() -> list:
    return [
        Paragraph("七、主要会计数据和财务指标", STYLE),
        Paragraph("单位：万元 币种：人民币", STYLE),
        Table(KEY_TABLE, style=TABLE_STYLE),
    ]


def annual_report(path: Path) -> Path:
    """Cover, company page, then the key figures (a 万元 table) on page 3."""
    story: list = [Paragraph("贵州茅台酒股份有限公司 2024年年度报告", STYLE), PageBreak()]
    story += [Paragraph("第二节 公司简介和主要财务指标", STYLE), PageBreak()]
    story += key_figures_page()
    SimpleDocTemplate(str(path), pagesize=A4).build(story)
    return path


def test_table_rows_and_pages(tmp_path: Path) -> None:
    pdf = extract_pdf(annual_report(tmp_path / "600519.pdf"))
    assert pdf.pages_total == 3 and pdf.pages_sent == [1, 2, 3]
    row = "归属于上市公司股东的净利润 | 8,623,000.00 | 7,473,400.00 | 15.38"
    assert row in pdf.text
    assert pdf.page_at(pdf.text.index(row)) == 3
    assert pdf.page_at(pdf.text.index("公司简介")) == 2
    # the unit line stays above its table
    assert pdf.text.index("单位：万元") < pdf.text.index("营业收入 | 17,414,400.00")


def test_a_scanned_pdf_has_no_text_layer(tmp_path: Path) -> None:
    path = tmp_path / "000001.pdf"
    page = canvas.Canvas(str(path), pagesize=A4)
    page.setFillColor(colors.grey)
    page.rect(50, 50, 400, 600, fill=1)  # what a scan holds: pixels, no text
    page.showPage()
    page.save()
    with pytest.raises(FilingUnreadable, match="report_unreadable: no text layer"):
        extract_pdf(path)


def test_a_long_report_sends_only_the_sections_with_the_figures(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    story: list = [Paragraph("目录", STYLE), Paragraph("第二节 主要会计数据和财务指标 .......... 8", STYLE)]
    for number in range(2, 41):
        story += [PageBreak()]
        if number == 17:
            story += key_figures_page()
        elif number == 30:
            story += [Paragraph("合并利润表", STYLE), Paragraph("单位：元", STYLE)]
        else:
            story += [Paragraph(f"第{number}页 " + "公司治理与内部控制情况说明。" * 60, STYLE)]
    path = tmp_path / "600519.pdf"
    SimpleDocTemplate(str(path), pagesize=A4).build(story)
    laid_out: list[int] = []
    real_page_text = pdf_module._page_text
    monkeypatch.setattr(
        pdf_module, "_page_text", lambda page: laid_out.append(page.page_number) or real_page_text(page)
    )
    pdf = extract_pdf(path)
    assert laid_out == [17, 18, 30, 31]  # the plain-text scan picks the pages; only those get table layout
    assert pdf.pages_total == 40
    assert pdf.chars_total > 30_000
    assert pdf.pages_sent == [17, 18, 30, 31]  # the table of contents line on page 1 does not count
    assert pdf.sections_only and "主要会计数据和财务指标" in pdf.sections and "合并利润表" in pdf.sections
    assert pdf.page_at(pdf.text.index("营业收入 | 17,414,400.00")) == 17
    assert pdf.info()["chars_sent"] == len(pdf.text) < pdf.chars_total


# --- end to end ------------------------------------------------------------------------------------------

ANSWER = {
    "revenue": {"value": "17414400.00", "unit": "万元", "period": "FY2024"},
    "net_profit": {"value": "8623000.00", "unit": "万元", "period": "FY2024"},
    "gross_margin": None,
    "roe": None,
    "pe_ttm": None,
    "reason": "营收与净利润稳定增长",
}


class _Scripted(BaseHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        pass

    def _send(self, status: int, body: dict) -> None:
        data = json.dumps(body, ensure_ascii=False).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self) -> None:
        if self.path.endswith("/models"):
            self._send(200, {"object": "list", "data": [{"id": "scripted", "object": "model"}]})
        else:
            self._send(404, {"error": {"message": "not found"}})

    def do_POST(self) -> None:
        request = json.loads(self.rfile.read(int(self.headers.get("content-length", 0))))
        if not self.path.endswith("/chat/completions"):
            self._send(404, {"error": {"message": "not found"}})
            return
        prompt = request["messages"][-1]["content"]
        code = "600519.SH" if "600519" in prompt else "000001.SZ"
        content = json.dumps({"code": code, **ANSWER}, ensure_ascii=False)
        message = {"role": "assistant", "content": content}
        self._send(
            200,
            {
                "id": "x",
                "object": "chat.completion",
                "model": "scripted",
                "choices": [{"index": 0, "finish_reason": "stop", "message": message}],
                "usage": {"prompt_tokens": 100, "completion_tokens": 50, "total_tokens": 150},
            },
        )


@pytest.fixture
def scripted_server() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Scripted)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    finally:
        server.shutdown()
        server.server_close()


def test_screen_reports_the_figure_with_its_page(tmp_path: Path, scripted_server: str) -> None:
    reports = tmp_path / "reports"
    reports.mkdir()
    annual_report(reports / "600519.pdf")
    scan = canvas.Canvas(str(reports / "000001.pdf"), pagesize=A4)
    scan.rect(50, 50, 400, 600, fill=1)
    scan.showPage()
    scan.save()
    pool = tmp_path / "pool.csv"
    pool.write_bytes(
        "代码,名称,市盈率TTM,净资产收益率\n600519,贵州茅台,20,30\n000001,平安银行,5,10\n".encode()
    )
    out = tmp_path / "out"
    command = [sys.executable, "-m", "lmscreen", "screen", str(pool), "--reports", str(reports)]
    command += ["--out", str(out), "--engine", "openai", "--base-url", scripted_server, "--model", "scripted"]
    proc = run_lmscreen([*command[3:], "--quiet"])  # in this process, fd 1 and 2 captured (tests/inproc.py)
    assert proc.returncode == 0, proc.stderr
    rows = [json.loads(line) for line in (out / "results.jsonl").read_text("utf-8").splitlines()]
    moutai, bank = rows
    fields = moutai["llm"]["fields"]
    assert fields["net_profit"]["grounded"] is True
    assert fields["net_profit"]["evidence"]["page"] == 3
    assert "8,623,000.00" in fields["net_profit"]["evidence"]["text"]
    assert fields["revenue"]["evidence"]["page"] == 3
    assert moutai["net_profit_yuan"] == pytest.approx(86_230_000_000.0)
    assert moutai["llm"]["report"]["format"] == "pdf" and moutai["llm"]["report"]["pages_total"] == 3
    assert "report_unreadable" in bank["flags"]
    assert "report_unreadable: no text layer" in bank["status"]
    assert bank["risk_level"]  # the rules' verdict stands without the report
