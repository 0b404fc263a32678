"""report.html's charts describe every screened row, not the first 10,000 the table carries.

A 12,000-row pool is screened for real (`--no-llm`: pool loading, rules, writers, history, reports), then
the charts are read back out of report.html's SVG and compared with run.json and with results.csv counted
here by the csv module. The same run is re-rendered by `lmscreen report` from the history, from results.csv
alone, and from results.jsonl alone (an old folder): the first two must draw the same charts, the last must
say it shows only the first 10,000 rows.
"""

from __future__ import annotations

import base64
import csv
import gzip
import json
import random
import re
import shutil
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import polars as pl
import pytest

from lmscreen.report.chart_data import Threshold, chart_data
from lmscreen.report.html import write_report
from lmscreen.report.run_view import MAX_HIGH_ROWS, MAX_ROWS_SHOWN
from lmscreen.run.options import ScreenOptions
from lmscreen.run.screen import screen

ROWS = 12_000
SVG = "{http://www.w3.org/2000/svg}"
INDUSTRIES = [f"行业{i:02d}" for i in range(18)]


def _code(i: int) -> str:
    """Tagged with the exchange, so every six-digit number is a code the loader takes."""
    return f"{600000 + i}.SH"


def _pool(path: Path) -> Path:
    rng = random.Random(12)
    with path.open("w", encoding="utf-8", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["代码", "名称", "行业", "市盈率TTM", "净资产收益率"])
        for i in range(ROWS):
            # A skewed mix, so 12 industries are kept and 6 merged into 其他; some rows have none.
            industry = "" if i % 53 == 0 else INDUSTRIES[min(int(rng.expovariate(0.18)), len(INDUSTRIES) - 1)]
            pe = "" if i % 29 == 0 else f"{rng.uniform(-80, 260):.2f}"
            roe = "" if i % 37 == 0 else f"{rng.uniform(-25, 45):.2f}"
            name = ("*ST" if i % 211 == 0 else "") + f"样本{i:05d}"
            w.writerow([_code(i), name, industry, pe, roe])
    return path


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    work = tmp_path_factory.mktemp("charts")
    out = work / "out"
    screen(ScreenOptions(pool=_pool(work / "pool.csv"), out=out, no_llm=True, progress=False))
    return out


def _figure(html: str, name: str) -> tuple[ET.Element, str]:
    """The chart's SVG, parsed, and its caption."""
    m = re.search(
        rf'<figure class="chart[^"]*" id="chart-{name}">(<svg.*?</svg>)<figcaption>(.*?)</figcaption>',
        html,
        re.S,
    )
    assert m, f"chart {name} missing"
    return ET.fromstring(m.group(1)), m.group(2)


def _bars(svg: ET.Element) -> list[tuple[str, str, int]]:
    """(series title, bar label, value) of every bar, from the text pygal writes beside each bar."""
    out = []
    for series in svg.iter(f"{SVG}g"):
        if "series" not in (series.get("class") or "").split():
            continue
        for bar in series.iter(f"{SVG}g"):
            if bar.get("class") != "bar":
                continue
            descs = {d.get("class"): d.text for d in bar.iter(f"{SVG}desc")}
            value = int(descs["value"].replace(",", ""))
            out.append((series.get("class"), descs.get("x_label", ""), value))
    return out


def _results(out: Path) -> list[dict[str, str]]:
    with (out / "results.csv").open(encoding="utf-8-sig", newline="") as fh:
        return list(csv.DictReader(fh))


def _number(text: str) -> int:
    return int(text.replace(",", ""))


def test_charts_count_every_row_of_a_run_larger_than_the_table(run: Path) -> None:
    html = (run / "report.html").read_text(encoding="utf-8")
    counts = json.loads((run / "run.json").read_text(encoding="utf-8"))["counts"]
    assert counts["screened"] == ROWS > MAX_ROWS_SHOWN
    results = _results(run)
    assert len(results) == ROWS

    levels, caption = _figure(html, "levels")
    drawn = {label: value for _, label, value in _bars(levels)}
    assert drawn == counts["risk_levels"], "the level chart must equal run.json's counts, level by level"
    assert f"{ROWS:,}" in caption and "只含前" not in caption

    scores, _ = _figure(html, "scores")
    scored = Counter(r["risk_level"] for r in results if r["score"] != "")
    by_level: Counter[str] = Counter()
    for series, _, value in _bars(scores):
        by_level[series] += value
    assert sum(by_level.values()) == sum(scored.values()) > MAX_ROWS_SHOWN

    industry, caption = _figure(html, "industry")
    bars = _bars(industry)
    assert sum(v for _, _, v in bars) == ROWS
    per_industry = Counter(r["industry"] for r in results)
    other = sum(n for _, n in per_industry.most_common()[12:])
    assert other > 0 and sum(v for _, label, v in bars if label == "其他") == other
    assert f"其余 {len(per_industry) - 12} 个行业合并为「其他」" in caption

    scatter, caption = _figure(html, "scatter")
    both = [r for r in results if r["pe_ttm"] != "" and r["roe"] != ""]
    m = re.search(r"画出 ([\d,]+) / ([\d,]+) 只", caption)
    assert m, caption
    shown, of = _number(m.group(1)), _number(m.group(2))
    dots = list(scatter.iter(f"{SVG}circle"))
    assert of == len(both) and shown == len(dots)
    assert 0 < shown <= 1000 < len(both)
    assert f"共 {ROWS:,} 只" in caption


def test_every_risk_level_with_values_shows_in_the_scatter_sample(run: Path) -> None:
    html = (run / "report.html").read_text(encoding="utf-8")
    scatter, _ = _figure(html, "scatter")
    levels_with_values = {r["risk_level"] for r in _results(run) if r["pe_ttm"] != "" and r["roe"] != ""}
    series_with_dots = [
        g
        for g in scatter.iter(f"{SVG}g")
        if "series" in (g.get("class") or "") and g.find(f".//{SVG}circle") is not None
    ]
    assert len(series_with_dots) == len(levels_with_values) >= 2


def test_rerendered_from_the_history_or_results_csv_draws_the_same_charts(
    run: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = (run / "report.html").read_text(encoding="utf-8")
    copy = tmp_path / "copy"
    shutil.copytree(run, copy)
    write_report(copy)  # `lmscreen report`: the verdicts come back from the history
    again = (copy / "report.html").read_text(encoding="utf-8")
    for name in ("levels", "scores", "industry", "scatter"):
        assert ET.tostring(_figure(again, name)[0]) == ET.tostring(_figure(first, name)[0]), name

    monkeypatch.setenv("LMSCREEN_HOME", str(tmp_path / "empty-home"))  # no history: results.csv
    write_report(copy)
    from_csv = (copy / "report.html").read_text(encoding="utf-8")
    for name in ("levels", "scores", "industry", "scatter"):
        assert _figure(from_csv, name)[1] == _figure(first, name)[1], name
        assert ET.tostring(_figure(from_csv, name)[0]) == ET.tostring(_figure(first, name)[0]), name


def test_an_old_folder_without_results_csv_says_what_share_its_charts_show(
    run: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    copy = tmp_path / "old"
    shutil.copytree(run, copy)
    (copy / "results.csv").unlink()
    monkeypatch.setenv("LMSCREEN_HOME", str(tmp_path / "empty-home"))
    write_report(copy)
    html = (copy / "report.html").read_text(encoding="utf-8")
    levels, caption = _figure(html, "levels")
    assert f"只含前 {MAX_ROWS_SHOWN:,} 只（共 {ROWS:,} 只）" in caption
    assert sum(v for _, _, v in _bars(levels)) == MAX_ROWS_SHOWN
    _, caption = _figure(html, "scatter")
    assert f"只含前 {MAX_ROWS_SHOWN:,} 只" in caption


def test_scatter_sample_keeps_rare_levels_and_is_the_same_every_time() -> None:
    n = 50_000
    frame = pl.DataFrame(
        {
            "risk_level": ["高" if i % 10_000 == 0 else "低" for i in range(n)],
            "score": [50] * n,
            "industry": ["银行"] * n,
            "pe_ttm": [float(i % 300) for i in range(n)],
            "roe": [float(i % 40) - 10 for i in range(n)],
        }
    )
    marks = [Threshold("pe_ttm", 50.0, "pe_gt_50"), Threshold("roe", 5.0, "roe_lt_5")]
    data = chart_data(frame, n, marks, max_points=400)
    sc = data.scatter
    assert len(sc.points["高"]) == 5  # all five rare rows
    assert len(sc.points["低"]) == 395
    assert sc.shown == 400 and sc.with_values == n
    assert sc.x_range[0] <= 50 <= sc.x_range[1] and sc.y_range[0] <= 5 <= sc.y_range[1]
    assert chart_data(frame, n, marks, max_points=400).scatter == sc
    assert data.levels == {"高": 5, "低": n - 5}
    assert sum(sum(v) for v in data.scores.values()) == n


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("no_roe.csv", "代码,名称\n600000.SH,甲\n600001.SH,乙\n"),  # no score, no industry, no dot
        (
            "all_rejected.csv",
            "代码,名称,行业,市盈率TTM,净资产收益率\nbad,甲,银行,10,20\n",
        ),  # nothing screened
    ],
)
def test_runs_with_nothing_to_draw_still_write_every_chart(tmp_path: Path, name: str, text: str) -> None:
    pool = tmp_path / name
    pool.write_text(text, encoding="utf-8")
    summary = screen(ScreenOptions(pool=pool, out=tmp_path / "out", no_llm=True, progress=False))
    html = (tmp_path / "out" / "report.html").read_text(encoding="utf-8")
    for chart in ("levels", "scores", "industry", "scatter"):
        _figure(html, chart)
    _, caption = _figure(html, "scatter")
    assert "画出 0 / 0 只" in caption and f"共 {summary.rows} 只" in caption


def _svgs(html: str) -> list[bytes]:
    return [ET.tostring(_figure(html, name)[0]) for name in ("levels", "scores", "industry", "scatter")]


def test_charts_given_by_the_runner_are_not_read_back(
    run: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the runner's totals, the report draws every row even where none of them could be read back."""
    from lmscreen.report.run_view import load_run

    first = (run / "report.html").read_text(encoding="utf-8")
    charts = load_run(run).charts
    assert charts is not None and not charts.partial
    copy = tmp_path / "copy"
    shutil.copytree(run, copy)
    (copy / "results.csv").unlink()
    monkeypatch.setenv("LMSCREEN_HOME", str(tmp_path / "empty-home"))
    write_report(copy, charts=charts)
    again = (copy / "report.html").read_text(encoding="utf-8")
    assert _svgs(again) == _svgs(first)
    assert "只含前" not in _figure(again, "levels")[1]


def test_rerendered_from_a_history_of_many_parts_draws_the_same_charts(run: Path, tmp_path: Path) -> None:
    """A streamed run is recorded a chunk at a time: re-rendering reads its parts one by one."""
    from lmscreen.outputs import history

    first = (run / "report.html").read_text(encoding="utf-8")
    run_id = json.loads((run / "run.json").read_text(encoding="utf-8"))["history"]["run_id"]
    whole = history.verdict_frame(run_id)
    with history.VerdictParts() as parts:
        for start, size in ((0, 1), (1, 4999), (5000, 7), (5007, 6993)):
            parts.add(whole.slice(start, size))
        blobs = list(parts.blobs())
    with history.connect() as con:
        con.execute("DELETE FROM verdict_parts WHERE run_id = ?", (run_id,))
        for i, (blob, rows) in enumerate(blobs):
            con.execute("INSERT INTO verdict_parts VALUES (?, ?, ?, ?)", (run_id, i, rows, blob))
    assert [c.height for c in history.verdict_chunks(run_id)] == [1, 4999, 7, 6993]
    copy = tmp_path / "copy"
    shutil.copytree(run, copy)
    (copy / "results.csv").unlink()  # so the charts can only come from the history
    write_report(copy)
    assert _svgs((copy / "report.html").read_text(encoding="utf-8")) == _svgs(first)


def test_a_big_runs_changes_are_found_chunk_by_chunk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two 12,000-row runs of one pool, compared with both spilled to disk in buckets: the report lists
    exactly what `lmscreen diff`'s whole-frame comparison finds."""
    from lmscreen.outputs import history
    from lmscreen.report import diff

    monkeypatch.setenv("LMSCREEN_HOME", str(tmp_path / "home"))
    monkeypatch.setattr(diff, "SPILL_ROWS", 1000)
    pool = _pool(tmp_path / "pool.csv")
    screen(ScreenOptions(pool=pool, out=tmp_path / "night1", no_llm=True, progress=False))
    lines = pool.read_text(encoding="utf-8").splitlines()
    lines[5001] = ",".join(lines[5001].split(",")[:4] + ["-20"])  # ROE of the 5,001st row: now 高
    lines[7001] = ",".join(lines[7001].split(",")[:4] + ["44"])
    del lines[11001]
    lines.append(f"{_code(ROWS)},新股,行业01,12,20")
    pool.write_text("\n".join(lines) + "\n", encoding="utf-8")
    screen(ScreenOptions(pool=pool, out=tmp_path / "night2", no_llm=True, progress=False))

    expected = diff.diff_verdicts(history.verdict_frame(1), history.verdict_frame(2))
    assert [e["code"] for e in expected.added] == [_code(ROWS)]
    assert [e["code"] for e in expected.dropped] == [_code(11000)]
    assert {_code(5000), _code(7000)} <= {e["code"] for e in expected.changed}
    md = (tmp_path / "night2" / "report.md").read_text(encoding="utf-8")
    changes = md.split("## 与上次运行相比", 1)[1]
    for e in expected.changed + expected.added + expected.dropped:
        assert e["code"] in changes
    assert changes.count(".SH") == len(expected.changed) + 2


def test_a_run_larger_than_the_table_shows_its_first_rows_in_both_reports(run: Path) -> None:
    """The table, the details and report.md's 高 list come from a walk of results.jsonl that stops at
    MAX_ROWS_SHOWN rows, in file order, whatever the run's size."""
    html = (run / "report.html").read_text(encoding="utf-8")
    data = json.loads(re.search(r'id="lmscreen-data">(.*?)</script>', html, re.S).group(1))
    packed_details = re.search(r'id="lmscreen-details">(.*?)</script>', html, re.S).group(1)
    details = json.loads(gzip.decompress(base64.b64decode(packed_details)))
    first = _results(run)[:MAX_ROWS_SHOWN]
    assert [r[1] for r in data["rows"]] == [r["code"] for r in first]
    assert [r[4] for r in data["rows"]] == [r["risk_level"] for r in first]
    assert len(details) == MAX_ROWS_SHOWN
    high = [r for r in first if r["risk_level"] == "高"]
    md = (run / "report.md").read_text(encoding="utf-8")
    assert f"({len(high)})" in md and len(high) > MAX_HIGH_ROWS
    listed = [line.split(" | ")[0].removeprefix("| ") for line in md.splitlines() if line.startswith("| 6")]
    assert listed == [r["code"] for r in high[:MAX_HIGH_ROWS]]
    assert f"… {len(high) - MAX_HIGH_ROWS} more in results.csv" in md


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_scatter_skips_building_tooltips_and_writes_the_same_svg(
    lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The scatter's dots are drawn without pygal's per-dot tooltip nodes (its filter drops them): the SVG
    must be byte for byte what pygal writes when it builds them and the filter removes them."""
    from lmscreen.report import charts

    n = 6_000
    frame = pl.DataFrame(
        {
            "risk_level": [["高", "中", "低", "未知"][i % 4] for i in range(n)],
            "score": [i % 100 for i in range(n)],
            "industry": [INDUSTRIES[i % 5] for i in range(n)],
            "pe_ttm": [float(i % 300) - 20 for i in range(n)],
            "roe": [float(i % 53) - 10.5 for i in range(n)],
        }
    )
    marks = [Threshold("pe_ttm", 50.0, "pe_gt_50"), Threshold("roe", 5.0, "roe_lt_5")]
    data = chart_data(frame, n, marks)
    quick = charts.scatter_chart(data, marks, lang)
    import pygal

    assert charts._fast(pygal.XY, tooltips=False)._tooltip_data is charts._no_tooltip_data
    fast = charts._fast
    monkeypatch.setattr(charts, "_fast", lambda cls, tooltips=True: fast(cls, True))
    with_tooltips = charts.scatter_chart(data, marks, lang)
    assert with_tooltips.svg == quick.svg and with_tooltips.note == quick.note
    assert quick.svg.count("<circle") >= 1_000 and "<desc" not in quick.svg


def test_charts_drawn_ahead_give_the_same_report_bytes(run: Path, tmp_path: Path) -> None:
    """screen draws the charts while the history insert runs and hands them to write_report (`drawn`):
    the page must be byte for byte the one write_report draws itself from the same aggregates."""
    from lmscreen.report.chart_data import chart_totals
    from lmscreen.report.html import draw_charts
    from lmscreen.report.run_view import load_run

    view = load_run(run)
    assert view.charts is not None and view.rules is not None
    totals = chart_totals(view.rules)
    for part in pl.read_csv(run / "results.csv", infer_schema_length=None).iter_slices(5_000):
        totals.add(part)
    data = totals.result(view.total_rows)
    pages = []
    for name, drawn in (("itself", None), ("ahead", draw_charts(data, view.rules, "zh"))):
        copy = tmp_path / name
        shutil.copytree(run, copy)
        write_report(copy, charts=data, drawn=drawn)
        pages.append((copy / "report.html").read_bytes())
    assert pages[0] == pages[1]
    assert b'id="chart-scatter"' in pages[0]
