"""PDF text cached on disk: a run extracts each PDF once, a resume extracts none, a damaged entry is mended.

Extraction is counted by wrapping the real `filings.pdf.extract_pdf` (the real extractor still runs on
real reportlab PDFs). The runs are real `lmscreen screen` runs, in-process so the count sees them, against a
loopback OpenAI-compatible server that answers what a correct model answers (test_pdf_reports.py); more
PDFs than the old in-memory cache's 8 entries, so no in-memory cache can stand in for the disk one.
"""

from __future__ import annotations

import json
import threading
from collections import Counter
from collections.abc import Iterator
from http.server import ThreadingHTTPServer
from pathlib import Path

import pytest
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen import canvas
from reportlab.platypus import PageBreak, Paragraph, SimpleDocTemplate

from lmscreen.cli import main
from lmscreen.filings import Filing, FilingUnreadable
from lmscreen.filings import cache as filing_cache
from lmscreen.filings import pdf as pdf_module
from test_pdf_reports import STYLE, _Scripted, key_figures_page

PDF_CODES = [f"6000{i:02d}.SH" for i in range(10)]
SCAN = "000001.SZ"


def company_pdf(path: Path, code: str) -> Path:
    """A three-page annual report whose cover names `code` (so each file's bytes, and hash, differ)."""
    story: list = [Paragraph(f"{code} 股份有限公司 2024年年度报告", STYLE), PageBreak()]
    story += [Paragraph("第二节 公司简介和主要财务指标", STYLE), PageBreak()]
    story += key_figures_page()
    SimpleDocTemplate(str(path), pagesize=A4).build(story)
    return path


def scan_pdf(path: Path) -> Path:
    page = canvas.Canvas(str(path), pagesize=A4)
    page.rect(50, 50, 400, 600, fill=1)
    page.showPage()
    page.save()
    return path


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A cache of this test's own (the session's shared home may hold entries for equal files)."""
    path = tmp_path / "home"
    monkeypatch.setenv("LMSCREEN_HOME", str(path))
    return path


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """File name -> how many times it was extracted (the real extraction still runs)."""
    counts: Counter[str] = Counter()
    real = pdf_module.extract_pdf

    def counting(path: Path) -> object:
        counts[Path(path).name] += 1
        return real(path)

    monkeypatch.setattr(pdf_module, "extract_pdf", counting)
    return counts


class _Counting(_Scripted):
    posts = 0

    def do_POST(self) -> None:
        type(self).posts += 1
        super().do_POST()


@pytest.fixture
def server() -> Iterator[tuple[str, type[_Counting]]]:
    handler = type("Handler", (_Counting,), {"posts": 0})
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/v1", handler
    finally:
        httpd.shutdown()
        httpd.server_close()


def screen(pool: Path, reports: Path, out: Path, base_url: str, *extra: str) -> None:
    argv = ["screen", str(pool), "--reports", str(reports), "--out", str(out), "--engine", "openai"]
    argv += ["--base-url", base_url, "--model", "scripted", "--quiet", *extra]
    with pytest.raises(SystemExit) as done:
        main(argv)
    assert done.value.code == 0


def results(out: Path) -> tuple[bytes, list[dict]]:
    rows = [json.loads(line) for line in (out / "results.jsonl").read_text("utf-8").splitlines()]
    for row in rows:
        (row.get("llm") or {}).pop("seconds", None)
    return (out / "results.csv").read_bytes(), rows


def test_a_run_extracts_each_pdf_once_and_a_resume_none(
    tmp_path: Path, home: Path, opened: Counter[str], server: tuple[str, type[_Counting]]
) -> None:
    base_url, handler = server
    reports = tmp_path / "reports"
    reports.mkdir()
    for code in PDF_CODES:
        company_pdf(reports / f"{code}.pdf", code)
    scan_pdf(reports / f"{SCAN}.pdf")
    pool = tmp_path / "pool.csv"
    lines = ["代码,名称,市盈率TTM,净资产收益率"] + [f"{c},公司{c[:6]},20,30" for c in [*PDF_CODES, SCAN]]
    pool.write_text("\n".join(lines) + "\n", encoding="utf-8")
    every = {f"{c}.pdf" for c in [*PDF_CODES, SCAN]}

    out = tmp_path / "out"
    screen(pool, reports, out, base_url)
    assert dict(opened) == dict.fromkeys(every, 1)  # key, prompt and result: one extraction per file
    assert handler.posts == len(PDF_CODES)  # the scan is refused per row, never sent
    first = results(out)
    moutai = first[1][0]
    assert moutai["llm"]["fields"]["net_profit"]["evidence"]["page"] == 3
    assert "report_unreadable: no text layer" in first[1][-1]["status"]

    opened.clear()
    screen(pool, reports, out, base_url)  # a resume: every answer is in the checkpoint
    assert handler.posts == len(PDF_CODES)
    assert not opened  # the scan's refusal is cached too
    assert results(out) == first  # the cached text gives the same results, byte for byte

    fresh = tmp_path / "fresh"
    screen(pool, reports, fresh, base_url)  # a new run of the same files: the model again, no extraction
    assert handler.posts == 2 * len(PDF_CODES) and not opened
    assert results(fresh) == first

    # without the cache a resume extracts again (what the zero above depends on), once per file
    for entry in filing_cache.cache_dir().iterdir():
        entry.unlink()
    screen(pool, reports, out, base_url)
    assert dict(opened) == dict.fromkeys(every, 1)
    assert results(out) == first


def test_a_damaged_entry_is_extracted_again_and_rewritten(
    tmp_path: Path, home: Path, opened: Counter[str]
) -> None:
    path = company_pdf(tmp_path / "600519.SH.pdf", "600519.SH")
    text = Filing(path=path).read()
    [entry] = list(filing_cache.cache_dir().iterdir())
    assert entry.name.startswith(f"pdf-v{pdf_module.EXTRACTOR_VERSION}-")
    good = entry.read_bytes()
    damaged = [
        good[: len(good) // 2],  # cut short
        b"\x00\xff" * 10,  # not UTF-8, not JSON
        b"[]",  # JSON of the wrong shape
        good.replace(b'"page_starts":[0,', b'"page_starts":["x",'),  # a field of the wrong type
        good.replace(
            version := f'"version":{pdf_module.EXTRACTOR_VERSION}'.encode(),
            version.replace(b":", b':"') + b'"',
        ),
    ]
    for bad in damaged:
        assert bad != good
        entry.write_bytes(bad)
        opened.clear()
        assert Filing(path=path).read() == text
        assert sum(opened.values()) == 1
        assert entry.read_bytes() == good  # rewritten whole
    opened.clear()
    assert Filing(path=path).pdf() == Filing(path=path).pdf() and not opened
    assert not [p for p in entry.parent.iterdir() if p.name.endswith(".tmp")]


def test_a_changed_extractor_or_file_is_a_new_entry_and_a_copy_the_same(
    tmp_path: Path, home: Path, opened: Counter[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = company_pdf(tmp_path / "600519.SH.pdf", "600519.SH")
    Filing(path=path).read()
    copy = tmp_path / "copy" / "600519.pdf"
    copy.parent.mkdir()
    copy.write_bytes(path.read_bytes())
    Filing(path=copy).read()
    assert sum(opened.values()) == 1  # keyed by the bytes, not the name
    monkeypatch.setattr(pdf_module, "EXTRACTOR_VERSION", pdf_module.EXTRACTOR_VERSION + 1)
    Filing(path=path).read()
    assert sum(opened.values()) == 2
    company_pdf(path, "600520.SH")  # edited in place: other bytes
    assert "600520.SH" in Filing(path=path).read()
    assert sum(opened.values()) == 3
    assert len(list(filing_cache.cache_dir().iterdir())) == 3


def test_a_cache_that_cannot_be_written_is_skipped_never_fatal(
    tmp_path: Path, home: Path, opened: Counter[str]
) -> None:
    home.mkdir()
    (home / "cache").write_text("a file where the cache folder goes", encoding="utf-8")  # even root fails
    path = company_pdf(tmp_path / "600519.SH.pdf", "600519.SH")
    assert "营业收入 | 17,414,400.00" in Filing(path=path).read()
    assert "营业收入 | 17,414,400.00" in Filing(path=path).read()
    assert sum(opened.values()) == 2  # nothing stored: each new Filing extracts
    assert (home / "cache").is_file()


def test_a_refusal_is_cached_and_still_names_the_file(
    tmp_path: Path, home: Path, opened: Counter[str]
) -> None:
    path = scan_pdf(tmp_path / "000001.SZ.pdf")
    for _ in range(3):
        with pytest.raises(FilingUnreadable, match=r"000001\.SZ\.pdf: report_unreadable: no text layer"):
            Filing(path=path).digest()
    assert sum(opened.values()) == 1
