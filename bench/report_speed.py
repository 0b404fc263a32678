"""report.html with 5,000 rows: how fast Chromium opens it and applies a filter (target: under 2 s together).

This is a speed target, so it lives here and not in the test suite: tests/test_report_scale.py checks that
the same 5,000-row report is complete, filters and sorts correctly and stays under 3 MB, whatever the
machine's load; this script times it on the machine it runs on and prints the load next to the figures.

Usage: python bench/report_speed.py [--repeat N]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))  # the test suite's 5,000-row pool, scripted run and Chromium set-up

TARGET_S = 2.0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--repeat", type=int, default=3, help="page opens to time (the median is reported)")
    args = ap.parse_args()

    from playwright.sync_api import sync_playwright

    from browser import FLAGS, Page, ensure_chromium, wait_until
    from report_runs import scripted_run
    from test_report_scale import ROWS, _pool

    with tempfile.TemporaryDirectory(prefix="lmscreen-report-speed-") as tmp:
        work = Path(tmp)
        scripted_run(_pool(work), work / "out", {})
        html = work / "out" / "report.html"
        high = sum(
            1
            for line in (work / "out" / "results.csv").read_text(encoding="utf-8-sig").splitlines()
            if ",高," in line
        )
        timings: list[tuple[float, float]] = []
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=ensure_chromium(), args=FLAGS)
            try:
                for _ in range(args.repeat):
                    page = Page(browser)
                    try:
                        t0 = time.perf_counter()
                        page.open(html)
                        opened = time.perf_counter() - t0
                        t1 = time.perf_counter()
                        page.page.select_option("#f-level", "高")
                        wait_until(
                            page.page,
                            f"document.getElementById('count').textContent.indexOf('{high} / ') >= 0",
                        )
                        timings.append((opened, time.perf_counter() - t1))
                    finally:
                        page.close()
            finally:
                browser.close()
    opened = statistics.median(t[0] for t in timings)
    filtered = statistics.median(t[1] for t in timings)
    total = opened + filtered
    print(
        f"report.html {ROWS} rows ({html.stat().st_size / 1e6:.2f} MB when written): opened {opened:.2f} s, "
        f"filter {filtered:.2f} s, together {total:.2f} s (target < {TARGET_S:g} s; median of "
        f"{len(timings)}; load {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)"
    )
    return 0 if total < TARGET_S else 1


if __name__ == "__main__":
    sys.exit(main())
