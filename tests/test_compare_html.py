"""compare.html in headless Chromium: no console error and no request but the page, a line per industry,
a point click shows its sentences with the number marked and the page, and it fits a 390 px phone.

`LMSCREEN_COMPARE_SCREENSHOT=docs/compare.png pytest tests/test_compare_html.py` writes the README's
screenshot (the page after a click on 光伏's FY2021 point).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from browser import Page
from compare_docs import build
from lmscreen.run.compare import CompareOptions, compare


@pytest.fixture(scope="module")
def page_file(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    root = tmp_path_factory.mktemp("compare")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("LMSCREEN_HOME", str(root / "home"))
        docs, industries = build(root)
        out = root / "out"
        compare(
            CompareOptions(docs=docs, out=out, industries=industries, periods="2021:2024", progress=False)
        )
    yield out / "compare.html"


def test_compare_page_in_chromium(browser, page_file: Path) -> None:
    p = Page(browser, width=1100, height=900)
    try:
        p.open(page_file)
        page = p.page
        chart = "figure[data-metric='gross_margin_pct'] svg"
        # one drawn median line per industry (series 0 and 4: each industry's median, stated, min, max)
        for serie in (0, 4):
            assert page.locator(f"{chart} g.serie-{serie} path.line").count() == 1
        legend = page.locator(f"{chart} .legends").text_content() or ""
        assert "光伏" in legend and "锂电" in legend
        assert not page.is_visible("#ev-1")
        page.locator(f"{chart} g.serie-0 a").first.click()
        assert page.evaluate("location.hash") == "#ev-1"
        assert page.is_visible("#ev-1")
        text = page.inner_text("#ev-1")
        assert "光伏 · 毛利率 · FY2021" in text and "页 3" in text and "页 2" in text
        marks = page.eval_on_selector_all("#ev-1 mark", "ms => ms.map(m => m.textContent)")
        assert sorted(marks) == sorted(["20.1", "24.0", "12.0", "24.3%"])
        shot = os.environ.get("LMSCREEN_COMPARE_SCREENSHOT")
        if shot:
            page.evaluate("window.scrollTo(0, 0)")
            page.screenshot(path=shot, full_page=True, clip={"x": 0, "y": 0, "width": 1100, "height": 1000})
        assert p.errors() == [], p.console
        assert p.requests == [page_file.resolve().as_uri()], "no request other than the page itself"
    finally:
        p.close()


def test_compare_page_fits_a_phone(browser, page_file: Path) -> None:
    p = Page(browser, width=390, height=844)
    try:
        p.open(page_file)
        width = p.page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, f"the page scrolls sideways on a phone ({width} px)"
        p.page.locator("figure[data-metric='gross_margin_pct'] svg g.serie-4 a").first.click()
        assert p.page.is_visible("#ev-" + p.page.evaluate("location.hash").split("-")[1])
        assert p.errors() == []
    finally:
        p.close()
