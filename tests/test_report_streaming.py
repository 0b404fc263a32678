"""The report's charts, the history and the diff, a chunk at a time: a streamed run never holds every row.

ChartTotals fed in chunks of any size gives the same charts as one whole frame, holds a bounded amount
whatever the rows, and counts the dots outside the axis range exactly for the range it draws. VerdictParts
spills each chunk to a file nobody else sees and the history reads the parts back, old one-blob databases
included. diff_chunks gives diff_verdicts' answer with both runs spilled to disk.
"""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import polars as pl
import pytest

from lmscreen.outputs import history
from lmscreen.outputs.columns import DIFF_COLUMNS
from lmscreen.report.chart_data import (
    _GRID_EDGES,
    MAX_SCATTER_POINTS,
    SAMPLE_POINTS,
    ChartData,
    ChartTotals,
    Threshold,
    chart_data,
)
from lmscreen.report.diff import diff_chunks, diff_verdicts

MARKS = [Threshold("pe_ttm", 50.0, "pe_gt_50"), Threshold("roe", 5.0, "roe_lt_5")]
LEVELS = ["高", "中", "低", "未知", None]


def _frame(n: int, seed: int, industries: int = 20) -> pl.DataFrame:
    """Verdict rows with every kind of value the charts meet: nulls, NaN, inf, -0.0, values on the PE/ROE
    grid's edges, a skewed industry mix."""
    rng = random.Random(seed)
    edges = _GRID_EDGES[200:300]

    def pe() -> float | None:
        return (
            rng.choice([None, float("nan"), float("inf"), -0.0, 0.0, 100.0, rng.choice(edges)])
            if (rng.random() < 0.3)
            else rng.lognormvariate(3, 1.5) * rng.choice([1, 1, 1, -1])
        )

    return pl.DataFrame(
        {
            "row": range(1, n + 1),
            "code": [f"{600000 + i}.SH" for i in range(n)],
            "name": [f"样本{i}" for i in range(n)],
            "risk_level": [rng.choice(LEVELS) for _ in range(n)],
            "score": [rng.choice([None, *range(0, 101, 3)]) for _ in range(n)],
            "industry": [
                None if rng.random() < 0.05 else f"行业{min(int(rng.expovariate(0.2)), industries - 1)}"
                for _ in range(n)
            ],
            "pe_ttm": [pe() for _ in range(n)],
            "roe": [
                rng.choice([None, 5.0, rng.choice(edges)]) if rng.random() < 0.2 else rng.gauss(8, 15)
                for _ in range(n)
            ],
        },
        strict=False,
    )


def _chunked(frame: pl.DataFrame, size: int, **kw: object) -> ChartData:
    totals = ChartTotals(MARKS, **kw)  # type: ignore[arg-type]
    for start in range(0, frame.height, size):
        totals.add(frame.slice(start, size))
    return totals.result(frame.height)


def _outside(frame: pl.DataFrame, data: ChartData) -> int:
    """Rows with both values outside the drawn range, counted here row by row."""
    sc = data.scatter
    (xa, xb), (ya, yb) = sc.x_range, sc.y_range
    n = 0
    for x, y in frame.select("pe_ttm", "roe").iter_rows():
        if x is None or y is None or x != x or y != y or abs(x) == float("inf") or abs(y) == float("inf"):
            continue
        n += not (xa <= x <= xb and ya <= y <= yb)
    return n


def test_chunks_of_any_size_give_the_whole_frames_charts() -> None:
    frame = _frame(3000, seed=1)
    whole = chart_data(frame, frame.height, MARKS)
    for size in (1, 7, 1000):
        assert _chunked(frame, size) == whole, size
    assert sum(whole.levels.values()) == 3000 and whole.rows == 3000
    assert whole.scatter.outside == _outside(frame, whole)
    assert whole.other_industries > 0, "the 其他 bar is exercised"


def test_a_run_beyond_the_sample_counts_exactly_in_chunks_of_any_size() -> None:
    n = 150_000
    frame = _frame(n, seed=2, industries=40)
    whole = chart_data(frame, n, MARKS)
    assert whole.scatter.with_values > SAMPLE_POINTS, "the sampled range and the grid count are exercised"
    for size in (997, 50_000):
        assert _chunked(frame, size) == whole, size
    # Counts as one pass over every row gives them, not from the sample.
    assert whole.levels == {lv: n for lv, n in frame.group_by("risk_level").len().iter_rows()}
    assert whole.scatter.outside == _outside(frame, whole) > 0
    sc = whole.scatter
    assert sc.x_range[0] <= 50 <= sc.x_range[1] and sc.y_range[0] <= 5 <= sc.y_range[1]
    assert sc.shown == MAX_SCATTER_POINTS


def test_what_chart_totals_hold_stops_growing_with_the_rows() -> None:
    """A million rows in 50,000-row chunks: the state held (counts, samples, dots) after each chunk stays
    under one bound, and the last chunks hold no more than the first ones did."""
    i = pl.int_range(0, 1_000_000, eager=True)
    frame = pl.DataFrame(
        {
            "risk_level": pl.Series(["高", "中", "低", "未知", None]).gather(i * 7 % 5),
            "score": i * 7919 % 101,
            "industry": "行业" + (i % 37).cast(pl.String),
            "pe_ttm": (i * 104729 % 3_000_003).cast(pl.Float64) / 100 - 500,
            "roe": (i * 15485863 % 700_001).cast(pl.Float64) / 1000 - 250,
        }
    )
    totals = ChartTotals(MARKS)
    held = []
    for start in range(0, frame.height, 50_000):
        totals.add(frame.slice(start, 50_000))
        held.append(totals.held())
    assert max(held) <= 4 * SAMPLE_POINTS, held
    assert max(held[-5:]) <= 1.2 * max(held[:5]), held
    assert totals.result(frame.height).rows == 1_000_000


def test_dots_are_spread_over_each_level_and_the_same_every_time() -> None:
    n = 60_000
    # x is the row's position (the range covers every row), so the dots show which rows were picked.
    frame = pl.DataFrame(
        {
            "risk_level": ["高" if i % 1000 == 0 else "低" for i in range(n)],
            "score": [50] * n,
            "industry": ["银行"] * n,
            "pe_ttm": [float(i) for i in range(n)],
            "roe": [1.0] * n,
        }
    )
    marks = [Threshold("pe_ttm", -1.0, "a"), Threshold("pe_ttm", float(n), "b")]
    data = ChartTotals(marks, max_points=400)
    for start in range(0, n, 7_000):
        data.add(frame.slice(start, 7_000))
    sc = data.result(n).scatter
    assert [x for x, _ in sc.points["高"]] == [float(i) for i in range(0, n, 1000)], "a rare level: every row"
    xs = [x for x, _ in sc.points["低"]]
    assert len(xs) == 400 - 60 and xs == sorted(xs)
    gaps = [b - a for a, b in zip(xs, xs[1:], strict=False)]
    assert xs[0] < n / 100 and xs[-1] > n * 0.98 and max(gaps) <= 2.05 * min(gaps), "evenly over the run"
    assert chart_data(frame, n, marks, max_points=400).scatter == sc


def test_verdict_parts_round_trip_through_the_history(tmp_path: Path) -> None:
    db = tmp_path / "history.sqlite"
    frame = _frame(2500, seed=3).with_columns(
        pl.lit("no_report").alias("flags"), pl.lit("ok").alias("status"), pl.lit(None).alias("reason")
    )
    spill = tmp_path / "out"
    spill.mkdir()
    run = {"input": {"path": str(tmp_path / "pool.csv")}, "options": {}, "counts": {"screened": 2500}}
    with history.VerdictParts(spill) as parts:
        for start in range(0, frame.height, 1000):
            parts.add(frame.slice(start, 1000))
        assert len(parts) == 3 and parts.rows == 2500
        assert list(spill.iterdir()) == [], "the spilled parts are on no visible file"
        run_id = history.record_run(run, path=db, parts=parts)
    chunks = list(history.verdict_chunks(run_id, db))
    assert [c.height for c in chunks] == [1000, 1000, 500]
    expected = frame.select(history.VERDICT_COLUMNS)
    assert history.verdict_frame(run_id, db).equals(expected)
    assert history.verdict_frame(run_id, db, columns=DIFF_COLUMNS).equals(frame.select(DIFF_COLUMNS))
    assert history.verdict_rows(run_id, db) == 2500
    # The old parameters still record a run (as one part).
    second = history.record_run(run, frame, db)
    assert history.verdict_frame(second, db).equals(expected)
    assert len(list(history.verdict_chunks(second, db))) == 1
    # A big chunk is stored as parts of at most PART_ROWS rows, so a reader never decodes more at once.
    big = pl.concat([frame] * 16)
    with history.VerdictParts() as parts:
        parts.add(big)
        third = history.record_run(run, path=db, parts=parts)
    sizes = [c.height for c in history.verdict_chunks(third, db)]
    assert sizes == [history.PART_ROWS, history.PART_ROWS, big.height - 2 * history.PART_ROWS]
    assert history.verdict_frame(third, db).equals(big.select(history.VERDICT_COLUMNS))


def test_a_database_from_before_parts_is_migrated_and_still_read(tmp_path: Path) -> None:
    db = tmp_path / "history.sqlite"
    frame = _frame(300, seed=4).select("row", "code", "name", "risk_level", "score", "pe_ttm", "roe")
    con = sqlite3.connect(db)  # the schema and one run as the previous version wrote them
    con.executescript(
        "CREATE TABLE runs (id INTEGER PRIMARY KEY AUTOINCREMENT, recorded_at TEXT NOT NULL, started_at TEXT,"
        " finished_at TEXT, pool_path TEXT NOT NULL, pool_sha256 TEXT, out_dir TEXT, rows INTEGER,"
        " rejected INTEGER, levels_json TEXT, model TEXT, engine TEXT, run_json TEXT);"
        "CREATE TABLE run_verdicts (run_id INTEGER PRIMARY KEY REFERENCES runs (id), parquet BLOB NOT NULL);"
    )
    con.execute("INSERT INTO runs (recorded_at, pool_path, rows) VALUES ('2026-01-01', '/p.csv', 300)")
    con.execute("INSERT INTO run_verdicts VALUES (1, ?)", (history.verdict_blob(frame),))
    con.commit()
    con.close()
    assert history.verdict_frame(1, db).equals(frame)
    assert history.verdict_rows(1, db) == 300
    run = {"input": {"path": "/p.csv"}, "options": {}, "counts": {"screened": 300}}
    new = history.record_run(run, frame, db)  # the new table is added to the old file
    assert new == 2 and history.verdict_frame(new, db).equals(frame)
    assert history.previous_run(new, "/p.csv", path=db).id == 1  # type: ignore[union-attr]
    assert history.verdict_rows(99, db) is None


@pytest.mark.parametrize("spill_rows", [0, 40, None])
def test_diff_chunks_equals_the_whole_frame_diff(spill_rows: int | None, tmp_path: Path) -> None:
    rng = random.Random(5)

    def run(codes: list[str | None]) -> pl.DataFrame:
        return pl.DataFrame(
            {
                "code": codes,
                "name": [f"n{c}" for c in codes],
                "risk_level": [rng.choice(LEVELS) for _ in codes],
                "score": [rng.choice([None, 1, 50]) for _ in codes],
                "pe_ttm": [rng.uniform(1, 80) for _ in codes],
                "roe": [rng.uniform(-5, 30) for _ in codes],
            }
        )

    a = run([f"{i:06d}.SZ" for i in range(600)] + ["000001.SZ", None, ""])
    codes_b: list[str | None] = [f"{i:06d}.SZ" for i in range(100, 700)] + ["000150.SZ"]
    rng.shuffle(codes_b)
    b = run(codes_b)
    expected = diff_verdicts(a, b, 1, 2).to_json()
    assert expected["changed"] and expected["added"] and expected["dropped"]
    # One-row chunks in memory only: spilled, each would be a file write (the runner's chunks are 50,000).
    for size in (1, 7, 1000) if spill_rows is None else (7, 1000):
        got = diff_chunks(
            lambda: (a.slice(i, size) for i in range(0, a.height, size)),  # noqa: B023
            lambda: (b.slice(i, size) for i in range(0, b.height, size)),  # noqa: B023
            1,
            2,
            spill_rows=spill_rows,
            spill_dir=tmp_path,
        )
        assert got.to_json() == expected, size
    assert list(tmp_path.iterdir()) == []
    aligned = run([f"{i:06d}.SZ" for i in range(600)])
    again = aligned.with_columns(pl.col("score").fill_null(3))
    assert (
        diff_chunks(lambda: [aligned], lambda: [again], spill_rows=spill_rows).to_json()
        == diff_verdicts(aligned, again).to_json()
    )


def test_results_csv_is_read_back_in_blocks_cut_between_records(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Quoted cells with newlines, quotes and commas straddle the block edges; a BOM starts the file."""
    from lmscreen.report import run_view

    n = 400
    frame = _frame(n, seed=6).with_columns(
        pl.Series("reason", [f'line one\n"quoted", {i}\r\nend' if i % 3 else None for i in range(n)]),
        pl.Series("name", [f'名"{i}",\n' if i % 5 == 0 else f"样本{i}" for i in range(n)]),
    )
    frame.write_csv(tmp_path / "results.csv", include_bom=True)
    expected = pl.read_csv(tmp_path / "results.csv", infer_schema=False).select(
        pl.col(c)
        if c in ("code", "name", "industry", "risk_level")
        else pl.col(c).cast(pl.Float64, strict=False)
        for c in ("row", *DIFF_COLUMNS, "industry")
    )
    for block in (64, 1000, 1 << 20):
        monkeypatch.setattr(run_view, "CSV_BLOCK_BYTES", block)
        chunks = list(run_view._csv_chunks(tmp_path, (*DIFF_COLUMNS, "industry")))
        assert len(chunks) > 1 or block == 1 << 20
        assert pl.concat(chunks).equals(expected), block


def test_runs_whose_codes_line_up_are_compared_in_step() -> None:
    """The nightly rerun: same codes, same order (a repeated code included, whose later row is not
    compared): read in step, chunk edges anywhere, the answer of the whole-frame diff."""
    rng = random.Random(8)
    codes = [f"{i:06d}.SZ" for i in range(500)] + ["000005.SZ", None, "000007.SZ"]

    def run() -> pl.DataFrame:
        return pl.DataFrame(
            {
                "code": codes,
                "name": [f"n{c}" for c in codes],
                "risk_level": [rng.choice(LEVELS) for _ in codes],
                "score": [rng.choice([None, 1, 50]) for _ in codes],
            }
        )

    a, b = run(), run()
    expected = diff_verdicts(a, b, 1, 2).to_json()
    assert expected["changed"] and not expected["added"]
    for sa, sb in ((1, 7), (7, 1000), (1000, 1000), (33, 1)):
        got = diff_chunks(
            lambda: (a.slice(i, sa) for i in range(0, a.height, sa)),  # noqa: B023
            lambda: (b.slice(i, sb) for i in range(0, b.height, sb)),  # noqa: B023
            1,
            2,
            spill_rows=0,  # a fallback to the bucketed path would spill
        )
        assert got.to_json() == expected, (sa, sb)
