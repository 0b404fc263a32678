"""report.html opened in real headless Chromium: offline, complete, sortable, filterable, inert."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from browser import Page
from report_runs import EXAMPLE_REASONS, scripted_run

ROOT = Path(__file__).resolve().parents[1]
POOL = ROOT / "examples" / "pool.csv"
REPORTS = ROOT / "examples" / "reports"


@pytest.fixture(scope="module")
def example_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("example-run")
    scripted_run(POOL, out, EXAMPLE_REASONS, REPORTS)
    return out


def _codes(out: Path) -> list[str]:
    with (out / "results.csv").open(encoding="utf-8-sig", newline="") as fh:
        return [r["code"] for r in csv.DictReader(fh)]


def _shown_codes(page) -> list[str]:
    return page.eval_on_selector_all(
        "#grid tbody tr:not([hidden]) td:nth-child(2)", "tds => tds.map(t => t.textContent)"
    )


def test_example_report_in_chromium(browser, example_run: Path, tmp_path: Path) -> None:
    html = example_run / "report.html"
    p = Page(browser)
    try:
        p.open(html)
        page = p.page
        codes = _codes(example_run)
        assert len(codes) == 35
        assert _shown_codes(page) == codes, "every row is in the table, in input order"
        assert p.page.inner_text("#count").endswith("35 / 35")

        # Sorting by score (descending after two clicks) changes the order and really sorts.
        page.click("#grid th[data-col='5']")
        page.click("#grid th[data-col='5']")
        scores = page.eval_on_selector_all(
            "#grid tbody tr td:nth-child(6)", "tds => tds.map(t => t.textContent)"
        )
        numbers = [int(s) for s in scores if s]
        assert numbers == sorted(numbers, reverse=True) and _shown_codes(page) != codes
        assert scores[-1] == "", "a row without a score sorts last"

        # The risk-level filter shows exactly the 高 rows.
        page.select_option("#f-level", "高")
        levels = page.eval_on_selector_all(
            "#grid tbody tr:not([hidden]) td:nth-child(5)", "tds => tds.map(t => t.textContent)"
        )
        with (example_run / "results.csv").open(encoding="utf-8-sig", newline="") as fh:
            high = sum(r["risk_level"] == "高" for r in csv.DictReader(fh))
        assert levels == ["高"] * high and high > 0
        page.select_option("#f-level", "")
        page.fill("#q", "茅台")
        assert _shown_codes(page) == ["600519.SH"]
        page.fill("#q", "")

        # The detail view of 600519.SH shows the fired rules, each figure's sentence with the number marked.
        page.click("#grid tbody tr[data-i='0']")
        assert page.is_visible("#detail")
        marks = page.eval_on_selector_all("#detail mark", "ms => ms.map(m => m.textContent)")
        assert "1741.44亿元" in marks and "36.02%" in marks
        quote = page.inner_text("#detail .quote")
        assert "报告期内公司实现营业总收入1741.44亿元" in quote
        assert "模型" in page.inner_text("#detail-body"), "where the reason came from"
        page.screenshot(path=str(tmp_path / "report.png"), full_page=True)
        assert (tmp_path / "report.png").stat().st_size > 10_000
        page.click("#detail-close")

        # A row that fired rules lists each with its threshold and the value that crossed it.
        row = codes.index("688981.SH")
        page.click(f"#grid tbody tr[data-i='{row}']")
        body = page.inner_text("#detail-body")
        assert "roe_lt_5: ROE 2.49 < 5 → 高" in body and "pe_gt_50: 市盈率TTM 180.4 > 50 → 中" in body
        page.click("#detail-close")

        assert p.errors() == [], p.console
        assert p.requests == [html.resolve().as_uri()], "no request other than the page itself"
    finally:
        p.close()


def test_report_fits_a_phone(browser, example_run: Path, tmp_path: Path) -> None:
    p = Page(browser, width=390, height=844)
    try:
        p.open(example_run / "report.html")
        width = p.page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, f"the page scrolls sideways on a phone ({width} px)"
        p.page.screenshot(path=str(tmp_path / "phone.png"))
        assert p.errors() == []
    finally:
        p.close()


def test_english_report(example_run: Path, browser) -> None:
    from lmscreen.report.html import write_report

    write_report(example_run, lang="en")
    p = Page(browser)
    try:
        p.open(example_run / "report.html")
        assert p.page.title() == "lmscreen screening report"
        assert "High" in p.page.inner_text("#summary") and "Rules in force" in p.page.inner_text("#summary")
        assert p.errors() == []
    finally:
        p.close()
        write_report(example_run, lang="zh")


HOSTILE_NAME = "</script><svg/onload=window.pwned=1>"
HOSTILE_INDUSTRY = "<img src=x onerror=\"window.pwned=2;document.title='pwned'\">"
HOSTILE_TEXT = (
    "<script>window.pwned=3</script>公司实现营业收入100.5亿元<img src=x onerror=window.pwned=4>，"
    '同比增长。<a href="javascript:window.pwned=5">点此</a>'
)
HOSTILE_REASON = "<b onclick=f>稳增</b>"  # under the 20-character reason cap, so it is shown


def test_hostile_strings_stay_text_in_the_browser(browser, tmp_path: Path) -> None:
    pool = tmp_path / "pool.csv"
    with pool.open("w", encoding="utf-8", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["代码", "名称", "行业", "市盈率TTM", "净资产收益率", "财报摘要"])
        w.writerow(["600000", HOSTILE_NAME, HOSTILE_INDUSTRY, "10", "12", HOSTILE_TEXT])
        w.writerow(["600001", "正常公司", "银行", "8", "16", ""])
    out = tmp_path / "out"
    scripted_run(pool, out, {"600000.SH": HOSTILE_REASON})
    p = Page(browser)
    try:
        p.open(out / "report.html")
        page = p.page
        title = page.title()
        page.click("#grid tbody tr[data-i='0']")
        page.select_option("#f-industry", HOSTILE_INDUSTRY)
        page.wait_for_timeout(200)
        assert page.evaluate("typeof window.pwned") == "undefined"
        assert page.title() == title == "lmscreen 筛选报告"
        # The strings are there, as text: the name cell, the reason and the quoted sentence.
        cells = page.eval_on_selector_all("#grid tbody tr td", "tds => tds.map(t => t.textContent)")
        assert HOSTILE_INDUSTRY in cells and HOSTILE_REASON in cells
        assert any(c.startswith(HOSTILE_NAME) for c in cells)
        assert "<script>window.pwned=3</script>" in page.inner_text("#detail .quote")
        assert (
            page.eval_on_selector_all(
                "body img, #grid svg, #detail svg, a[href^=javascript]", "e => e.length"
            )
            == 0
        )
        assert p.requests == [(out / "report.html").resolve().as_uri()]
    finally:
        p.close()


def test_a_pdf_figure_shows_its_page(browser, tmp_path: Path) -> None:
    from test_pdf_reports import annual_report

    reports = tmp_path / "reports"
    reports.mkdir()
    annual_report(reports / "600519.pdf")
    pool = tmp_path / "pool.csv"
    pool.write_text("代码,名称,市盈率TTM,净资产收益率\n600519,贵州茅台,20,30\n", encoding="utf-8")
    scripted_run(pool, tmp_path / "out", {}, reports)
    p = Page(browser)
    try:
        p.open(tmp_path / "out" / "report.html")
        p.page.click("#grid tbody tr[data-i='0']")
        marks = p.page.eval_on_selector_all("#detail .quote mark", "ms => ms.map(m => m.textContent)")
        quotes = p.page.eval_on_selector_all("#detail .quote", "qs => qs.map(q => q.textContent)")
        assert any("8,623,000.00" in m for m in marks) and quotes and all("第3页" in q for q in quotes)
        assert p.errors() == []
    finally:
        p.close()
