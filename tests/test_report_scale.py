"""A 5,000-row run: report.html stays under 3 MB and opens, filters and sorts correctly in Chromium.

Every row has a report text and four grounded figures (the heaviest realistic detail view), produced by
the real runner and grounding from seeded random pool values. How fast it opens is a speed target, timed by
bench/report_speed.py: a test must not turn red because the machine it runs on is busy.
"""

from __future__ import annotations

import csv
import random
import time
from pathlib import Path

import pytest

from browser import Page, wait_until
from report_runs import scripted_run

ROWS = 5000
MAX_BYTES = 3_000_000
INDUSTRIES = [
    "白酒",
    "银行",
    "证券",
    "保险",
    "电池",
    "光伏设备",
    "半导体",
    "医药",
    "汽车整车",
    "房地产开发",
    "软件开发",
    "电力",
    "煤炭开采",
    "化学原料",
    "家电",
    "通信设备",
    "食品",
    "建筑",
    "钢铁",
    "有色金属",
    "航空",
    "物流",
    "传媒",
    "游戏",
    "环保",
    "农业",
    "纺织",
    "机械",
    "军工",
    "零售",
]


def _code(i: int) -> str:
    """Real A-share prefixes: 600000-601999 and 603000-603999 (SH), then 000001-002000 (SZ)."""
    if i < 2000:
        return str(600000 + i)
    if i < 3000:
        return str(603000 + i - 2000)
    return f"{i - 2999:06d}"


def _pool(tmp: Path) -> Path:
    rng = random.Random(9)
    path = tmp / "pool5000.csv"
    with path.open("w", encoding="utf-8", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["代码", "名称", "行业", "市盈率TTM", "净资产收益率", "财报摘要"])
        for i in range(ROWS):
            code = _code(i)
            name = ("*ST" if i % 97 == 0 else "") + f"样本{i:04d}"
            pe = "" if i % 23 == 0 else f"{rng.uniform(-60, 250):.2f}"
            roe = "" if i % 41 == 0 else f"{rng.uniform(-20, 40):.2f}"
            rev = f"{rng.uniform(1, 3000):.2f}"
            profit = f"{rng.uniform(-50, 800):.2f}"
            margin = f"{rng.uniform(5, 90):.2f}"
            roe_text = roe or "8.88"
            text = (
                f"{name}2024年年度报告摘要：报告期内公司实现营业收入{rev}亿元，"
                f"同比增长{rng.uniform(0, 30):.2f}%；"
                f"归属于上市公司股东的净利润{profit}亿元。公司毛利率为{margin}%，"
                f"加权平均净资产收益率为{roe_text}%，经营活动现金流量净额保持稳定。"
            )
            w.writerow([code, name, rng.choice(INDUSTRIES), pe, roe, text])
    return path


@pytest.fixture(scope="module")
def big_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("big")
    summary = scripted_run(_pool(tmp), tmp / "out", {})
    assert summary.rows == ROWS
    return tmp / "out"


def test_5000_rows_under_3_mb_and_usable_in_chromium(big_run: Path, browser, capsys) -> None:
    html = big_run / "report.html"
    size = html.stat().st_size
    assert size < MAX_BYTES, f"report.html is {size:,} bytes"
    p = Page(browser)
    try:
        t0 = time.perf_counter()
        p.open(html)
        opened = time.perf_counter() - t0
        # Every row is in the table's data; the first page is laid out, scrolling shows the rest.
        assert p.page.inner_text("#count").endswith(f"{ROWS} / {ROWS}")
        in_dom = p.page.eval_on_selector_all("#grid tbody tr", "trs => trs.length")
        p.page.eval_on_selector("#table-wrap", "w => { w.scrollTop = w.scrollHeight; }")
        wait_until(p.page, f"document.querySelectorAll('#grid tbody tr').length > {in_dom}")
        high = sum(
            1
            for line in (big_run / "results.csv").read_text(encoding="utf-8-sig").splitlines()
            if ",高," in line
        )
        t1 = time.perf_counter()
        p.page.select_option("#f-level", "高")
        wait_until(p.page, f"document.getElementById('count').textContent.indexOf('{high} / ') >= 0")
        filtered = time.perf_counter() - t1
        levels = p.page.eval_on_selector_all(
            "#grid tbody tr td:nth-child(5)", "tds => tds.map(t => t.textContent)"
        )
        assert high > 0 and levels and set(levels) == {"高"}
        t2 = time.perf_counter()
        p.page.click("#grid th[data-col='5']")
        sorted_s = time.perf_counter() - t2
        p.page.click("#grid tbody tr >> nth=0")
        assert p.page.eval_on_selector_all("#detail mark", "m => m.length") >= 1
        assert p.errors() == []
        with capsys.disabled():
            print(
                f"\n[5000 rows] report.html {size / 1e6:.2f} MB; opened in {opened:.2f} s, "
                f"filter {filtered:.2f} s, sort {sorted_s:.2f} s (Chromium, this machine)"
            )
    finally:
        p.close()
