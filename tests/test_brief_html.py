"""briefs.html in headless Chromium, as the user reads it: on a 390 px phone and a desktop, each number
marked, a click or a Tab on one shows where it comes from (the printed span in its sentence, the pool cell,
or the derivation), nothing is fetched, and a name with markup stays text."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from browser import Page

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE_POOL = ROOT / "examples" / "pool.csv"
EXAMPLE_REPORTS = ROOT / "examples" / "reports"


def _brief(out: Path, *args: str, pool: Path = EXAMPLE_POOL, reports: Path = EXAMPLE_REPORTS) -> list[dict]:
    subprocess.run(
        [sys.executable, "-m", "lmscreen", "brief", str(pool), "--reports", str(reports), "--out", str(out),
         "--quiet", *args],
        check=True, capture_output=True, text=True,
    )  # fmt: skip
    return [json.loads(line) for line in (out / "briefs.jsonl").read_text(encoding="utf-8").splitlines()]


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, list[dict]]]:
    root = tmp_path_factory.mktemp("brief_html")
    return {lang: (root / lang, _brief(root / lang, "--lang", lang)) for lang in ("zh", "en")}


def _section(page: object, code: str) -> object:
    return page.locator(f"section:has(h2#b-{code.replace('.', '-')})")  # type: ignore[attr-defined]


@pytest.mark.parametrize("width", [390, 1280])
def test_a_click_on_a_number_shows_the_sentence_it_is_printed_in(browser, pages, width: int) -> None:
    out, rows = pages["zh"]
    p = Page(browser, width=width)
    try:
        p.open(out / "briefs.html")
        page = p.page
        assert page.evaluate("document.documentElement.scrollWidth") <= width  # no sideways scrolling
        bank = next(r for r in rows if r["code"] == "000001.SZ")
        marks = _section(page, "000001.SZ").locator("mark")
        assert marks.count() == len(bank["numbers"])
        fall = next(i for i, n in enumerate(bank["numbers"]) if n["text"] == "10.9%")
        marks.nth(fall).click()
        panel = page.locator("#ev")
        assert panel.is_visible()
        shown = panel.inner_text()
        assert shown.startswith("平安银行 · 营业收入同比增速 FY2024：原文「10.9%」")
        assert "同比下降10.9%" in shown  # the figure in the filing's own sentence
        assert panel.locator("b").inner_text() == "10.9%"
        box = marks.nth(fall).bounding_box()
        assert box is not None and box["height"] < 40  # a number is never broken across two lines
        assert "on" in (marks.nth(fall).get_attribute("class") or "")
        page.keyboard.press("Tab")  # the next number, by keyboard
        assert panel.inner_text().startswith("平安银行 · 归母净利润 FY2024：原文「4,450,800万元」")
        assert p.errors() == [] and all(u.startswith("file://") for u in p.requests)
    finally:
        p.close()


def test_a_pool_field_number_shows_its_cell_and_a_derived_one_its_inputs(browser, pages) -> None:
    out, rows = pages["en"]
    p = Page(browser, width=390)
    try:
        p.open(out / "briefs.html")
        page = p.page
        assert page.evaluate("document.documentElement.lang") == "en"
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        midea = _section(page, "000333.SZ")
        midea.locator("mark", has_text="13.40x").click()
        shown = page.locator("#ev").inner_text()
        assert shown == "美的集团 · PE (TTM) TTM: pool.csv, row 8, column “市盈率(TTM)” (pe_ttm) = 13.4"
        midea.locator("mark", has_text="14.29%").click()
        shown = page.locator("#ev").inner_text()
        assert "net profit growth FY2024: computed as (current − prior) ÷ |prior| × 100" in shown
        assert "column “净利润_2024” (net_profit_2024) = 38.54 bn" in shown and "“净利润_2023”" in shown
        assert "source: pool fields" in midea.inner_text()
        assert p.errors() == [] and all(u.startswith("file://") for u in p.requests)
    finally:
        p.close()


def test_a_name_with_markup_is_text_in_the_page(browser, tmp_path: Path) -> None:
    reports = tmp_path / "reports"
    reports.mkdir()
    (reports / "600519.SH.txt").write_text((EXAMPLE_REPORTS / "600519.SH.txt").read_text(encoding="utf-8"))
    pool = tmp_path / "pool.csv"
    name = "<svg/onload=document.title=1>茅台"  # live markup if it were ever unescaped
    pool.write_text(f"code,name,pe_ttm,roe\n600519.SH,{name},20.5,36.02\n", encoding="utf-8")
    (row,) = _brief(tmp_path / "out", pool=pool, reports=reports)
    assert row["name"] == name
    p = Page(browser, width=390)
    try:
        p.open(tmp_path / "out" / "briefs.html")
        page = p.page
        assert page.locator("svg").count() == 0 and page.title() == "财报亮点脚本"
        assert name in page.locator("h2").first.inner_text()
        page.locator("mark").first.click()
        assert page.locator("#ev").inner_text().startswith(name + " · ")
        assert p.errors() == [] and all(u.startswith("file://") for u in p.requests)
    finally:
        p.close()
