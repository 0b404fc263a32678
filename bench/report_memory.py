"""Peak memory of the report's side of a run (charts, history, diff with the previous run), streamed vs whole.

Each case runs in a fresh process with its own history database and prints its peak RSS: the verdicts of
N rows arrive in 50,000-row chunks (as `screen`'s streaming loop hands them over) and go
- streamed: through ChartTotals and VerdictParts, recorded, then compared with the previous run of the same
  pool by diff_chunks reading both runs back from the history a chunk at a time;
- whole (before issue #10): concatenated into one frame, then chart_data, verdict_blob and diff_verdicts
  of the two whole frames.
The first run of each pair is recorded beforehand in the same process (not timed); one row in 1,000 changes
level between the two runs. Ratios against 100 rows are printed side by side: the target is that a million
rows stay within 20% of 100 rows in the streamed case.

    python bench/report_memory.py [--rows 1000000]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile

CHUNK = 50_000


def _child(mode: str, rows: int) -> None:
    import resource

    import polars as pl

    from lmscreen.outputs import history
    from lmscreen.report.chart_data import ChartTotals, chart_data
    from lmscreen.report.diff import DIFF_COLUMNS, diff_chunks, diff_verdicts

    def chunk(start: int, night: int) -> pl.DataFrame:
        i = pl.int_range(start, min(start + CHUNK, rows), eager=True)
        moved = (i % 1000 == 0).cast(pl.Int64) * night
        return pl.DataFrame({"row": i + 1}).with_columns(
            code=(i + 600000).cast(pl.String) + ".SH",
            name=pl.lit("样本") + i.cast(pl.String),
            industry=pl.lit("行业") + (i % 37).cast(pl.String),
            risk_level=pl.Series(["高", "中", "低", "未知"]).gather((i + moved) % 4),
            score=(i * 7919 % 101).cast(pl.Int64),
            pe_ttm=((i * 104729) % 300000).cast(pl.Float64) / 1000 - 50,
            roe=((i * 15485863) % 70000).cast(pl.Float64) / 1000 - 25,
            flags=pl.lit("no_report"),
            status=pl.lit("ok"),
            reason=pl.lit(None, pl.String),
        )

    run = {"input": {"path": "/bench/pool.csv"}, "options": {}, "counts": {"screened": rows}}
    with history.VerdictParts() as parts:
        for start in range(0, rows, CHUNK):
            parts.add(chunk(start, 0))
        first = history.record_run(run, parts=parts)
    if mode == "streamed":
        totals = ChartTotals()
        with history.VerdictParts() as parts:
            for start in range(0, rows, CHUNK):
                part = chunk(start, 1)
                totals.add(part)
                parts.add(part)
                del part
            data = totals.result(rows)
            second = history.record_run(run, parts=parts)
        changes = diff_chunks(
            lambda: history.verdict_chunks(first, columns=DIFF_COLUMNS),
            lambda: history.verdict_chunks(second, columns=DIFF_COLUMNS),
        )
    else:
        frame = pl.concat([chunk(start, 1) for start in range(0, rows, CHUNK)])
        data = chart_data(frame, rows, [])
        history.record_run(run, frame, blob=history.verdict_blob(frame))
        changes = diff_verdicts(history.verdict_frame(first, columns=DIFF_COLUMNS), frame)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"peak_mib": peak, "rows": data.rows, "changed": len(changes.changed)}))


def _measure(mode: str, rows: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as home:
        env = {**os.environ, "LMSCREEN_HOME": home}
        out = subprocess.run(
            [sys.executable, __file__, "--child", mode, "--rows", str(rows)],
            capture_output=True,
            text=True,
            env=env,
            check=True,
        )
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--child", choices=("streamed", "whole"))
    args = parser.parse_args()
    if args.child:
        _child(args.child, args.rows)
        return 0
    for mode in ("streamed", "whole"):
        small, big = _measure(mode, 100), _measure(mode, args.rows)
        assert big["rows"] == args.rows and big["changed"] == -(-args.rows // 1000), big
        print(
            f"{mode:8s}: peak {small['peak_mib']:6.1f} MiB at 100 rows, {big['peak_mib']:6.1f} MiB at "
            f"{args.rows:,} rows: x{big['peak_mib'] / small['peak_mib']:.2f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
