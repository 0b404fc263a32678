"""Rules throughput: vectorised `evaluate` vs a plain row-by-row loop, and `screen --no-llm` end to end.

Generates N rows (default 1,000,000; seeded, so every run screens the same pool) and measures, in one run:
 (a) `lmscreen.rules.evaluate` (polars; median of 3 calls) against the `evaluate_row` loop over the same
     rows and rules (target: at least 20x), checking on the way that both give the same verdict, score and
     fired rules on every row. The loop is timed on rows already turned into dicts, chunk by chunk, so it
     pays for the rules only and not for reading the frame: the ratio is, if anything, kind to the loop.
 (b) `lmscreen screen POOL.csv --no-llm --out DIR` as a child process: wall time (target < 3 s), peak
     resident memory of the child (target < 600 MiB), that it exits 0, and that results.csv holds every row
     in input order with the verdict and score `evaluate` gives.
 (c) `bench/simple_screen.py`, the script a user would write instead (csv module in, the default rules,
     code/risk/score out), on the same file right after (b): its output must agree with results.csv on
     every row, and screen must be at least 3x faster (wall; CPU seconds are printed beside it, since the
     machine may be shared).
 (d) the floor of the output contract, right after (c): a child that only starts Python, imports polars,
     reads the pool with polars and writes the very bytes (b) wrote to results.csv and results.jsonl
     (from frames prepared beforehand, untimed; the bytes are compared). No cleaning, rules, history or
     report: no implementation of `screen` that writes those files can be faster than this, so it shows
     what the target against (c) asks of the write alone.
Prints PASS/FAIL per target and exits 1 if any failed.

Peak RSS comes from wait4()'s rusage. Linux carries a process's peak RSS across exec(), so a child forked
from a process holding a million-row frame would report at least that process's size. Generation and (a)
therefore run in a worker process, and the CLI is launched from this launcher, which imports no polars
(about 15 MiB) and so cannot inflate the child's figure.

Usage: python bench/rules_throughput.py [--rows N] [--seed S] [--skip-cli] [--skip-loop] [--skip-floor]
       [--keep DIR]
"""

from __future__ import annotations

import argparse
import filecmp
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the launcher must stay small: polars and lmscreen load in the worker only
    import polars as pl

    from lmscreen.rules import RuleSet

GIB = 1024**3
TARGET_RATIO = 20.0
TARGET_WALL_S = 3.0
TARGET_RSS = 600 * 2**20
TARGET_VS_SCRIPT = 3.0
SIMPLE_SCRIPT = Path(__file__).resolve().parent / "simple_screen.py"
CHUNK = 50_000
CLI_TIMEOUT_S = 300
WORKER_TIMEOUT_S = 600

ST_PREFIXES = ["ST", "*ST", "S*ST", "SST"]
INDUSTRIES = ["白酒", "银行", "半导体", "光伏设备", "医疗器械", "房地产开发", "软件开发", "汽车整车"]

# Broker-style headers (DESIGN.md aliases), so the CLI run goes through the real alias matching.
CSV_HEADERS = {
    "code": "代码",
    "name": "名称",
    "industry": "所属行业",
    "pe_raw": "市盈率TTM",
    "roe_raw": "净资产收益率",
    "eps": "每股收益",
    "net_profit_2023": "净利润_2023",
    "net_profit_2024": "净利润_2024",
}


@dataclass
class Check:
    name: str
    ok: bool
    detail: str


def rss_bytes(ru_maxrss: int) -> int:
    """ru_maxrss is KiB on Linux, bytes on macOS."""
    return ru_maxrss if sys.platform == "darwin" else ru_maxrss * 1024


def exchange(number: int) -> str:
    """A suffix that matches the code's first digits, so a million codes are unique and plausible."""
    code = f"{number:06d}"
    if code.startswith("92") or code[0] in "48":
        return "BJ"
    return "SZ" if code[0] in "0123" else "SH"


def generate(rows: int, seed: int) -> tuple[pl.DataFrame, pl.DataFrame]:
    """(pool frame as `pool.load_pool` would give it, the same rows as a broker CSV would hold them)."""
    import polars as pl

    rng = random.Random(seed)
    numbers = list(range(1_000_000))
    rng.shuffle(numbers)
    pe_ttm: list[float | None] = []
    pe_raw: list[str] = []
    roe: list[float | None] = []
    roe_raw: list[str] = []
    names: list[str] = []
    is_st: list[bool] = []
    np23: list[float] = []
    np24: list[float] = []
    for index in range(rows):
        draw = rng.random()
        if draw < 0.08:
            pe, raw = None, "亏损"
        elif draw < 0.12:
            pe, raw = None, "--"
        elif draw < 0.16:
            pe, raw = None, ""
        elif draw < 0.21:
            pe = round(rng.uniform(-300, -0.5), 2)
            raw = f"{pe:.2f}"
        else:
            pe = round(rng.uniform(2, 150), 2)
            raw = f"{pe:.2f}"
        pe_ttm.append(pe)
        pe_raw.append(raw)
        if rng.random() < 0.05:
            roe.append(None)
            roe_raw.append("")
        else:
            value = round(rng.uniform(-20, 40), 2)
            roe.append(value)
            roe_raw.append(f"{value:.2f}%" if rng.random() < 0.3 else f"{value:.2f}")
        st = rng.random() < 0.03
        is_st.append(st)
        names.append(f"{rng.choice(ST_PREFIXES) if st else ''}股票{index}")
        np23.append(round(rng.uniform(-2e9, 5e9), 2))
        np24.append(round(rng.uniform(-2e9, 5e9), 2))
    codes = [f"{n:06d}.{exchange(n)}" for n in numbers[:rows]]
    industries = [INDUSTRIES[i % len(INDUSTRIES)] for i in range(rows)]
    eps = [round((i % 997) / 100 - 1, 2) for i in range(rows)]
    frame = pl.DataFrame(
        {
            "row": pl.int_range(2, rows + 2, eager=True),
            "code": codes,
            "code_raw": codes,
            "name": names,
            "industry": industries,
            "is_st": is_st,
            "pe_ttm": pl.Series(pe_ttm, dtype=pl.Float64),
            "pe_raw": pe_raw,
            "roe": pl.Series(roe, dtype=pl.Float64),
            "eps": pl.Series(eps, dtype=pl.Float64),
            "report_text": pl.Series([None] * rows, dtype=pl.String),
            "net_profit_2023": np23,
            "net_profit_2024": np24,
        }
    ).with_columns(loss_two_years=(pl.col("net_profit_2023") < 0) & (pl.col("net_profit_2024") < 0))
    csv_frame = frame.with_columns(roe_raw=pl.Series(roe_raw)).select(
        [pl.col(column).alias(header) for column, header in CSV_HEADERS.items()]
    )
    return frame, csv_frame


def bench_rules(frame: pl.DataFrame, rules: RuleSet) -> list[Check]:
    """(a): the same rows through both evaluators, timed in the same run.

    This machine is shared, so the load can change during the loop's many seconds: `evaluate` is timed
    before, halfway through and after the loop and the median is kept, so both sides see the same
    conditions. CPU seconds are printed too: polars may use several cores, the loop uses one.
    """
    from lmscreen.rules import OUTPUT_COLUMNS, evaluate, evaluate_row

    rows = frame.height
    vector: list[tuple[float, float]] = []

    def time_evaluate() -> pl.DataFrame:
        wall, cpu = time.perf_counter(), time.process_time()
        result = evaluate(frame, rules)
        vector.append((time.perf_counter() - wall, time.process_time() - cpu))
        return result

    evaluated = time_evaluate()
    offsets = list(range(0, rows, CHUNK))
    loop_s = loop_cpu = to_dicts_s = 0.0
    mismatches = 0
    first_mismatch: Any = None
    for offset in offsets:
        if offset == offsets[len(offsets) // 2]:
            time_evaluate()
        wall = time.perf_counter()
        chunk = frame.slice(offset, CHUNK).to_dicts()
        to_dicts_s += time.perf_counter() - wall
        wall, cpu = time.perf_counter(), time.process_time()
        verdicts = [evaluate_row(row, rules) for row in chunk]
        loop_s += time.perf_counter() - wall
        loop_cpu += time.process_time() - cpu
        expected = evaluated.slice(offset, CHUNK).select(OUTPUT_COLUMNS).to_dicts()
        for row, mine, theirs in zip(chunk, verdicts, expected, strict=True):
            if mine != theirs:
                mismatches += 1
                first_mismatch = first_mismatch or (row, mine, theirs)
    time_evaluate()

    vector_s, vector_cpu = sorted(vector)[1]
    ratio = loop_s / vector_s
    print(
        f"(a) evaluate (polars):      {vector_s:8.3f} s  {rows / vector_s:14,.0f} rows/s  "
        f"({vector_cpu:.3f} CPU s; median of 3)"
    )
    print(
        f"    evaluate_row loop:      {loop_s:8.3f} s  {rows / loop_s:14,.0f} rows/s  ({loop_cpu:.3f} CPU s)"
    )
    print(
        f"    speed-up:               {ratio:8.1f}x  (target >= {TARGET_RATIO:.0f}x; "
        f"{loop_cpu / vector_cpu:.1f}x in CPU seconds)"
    )
    peak = rss_bytes(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
    print(f"    worker peak RSS:        {peak / 2**20:8.0f} MiB")
    detail = f"{mismatches} of {rows:,} rows differ" + (f"; first: {first_mismatch}" if mismatches else "")
    return [
        Check("rules speed-up vs row loop", ratio >= TARGET_RATIO, f"{ratio:.1f}x >= {TARGET_RATIO:.0f}x"),
        Check("evaluate == evaluate_row on every row", mismatches == 0, detail),
    ]


def worker(rows: int, seed: int, work: Path, write_pool: bool, skip_loop: bool = False) -> None:
    """Generate the pool, run (a), and leave pool.csv, expected.parquet and checks.json in `work`."""
    from lmscreen.rules import evaluate, load_rules

    rules = load_rules(None)
    started = time.perf_counter()
    frame, csv_frame = generate(rows, seed)
    print(f"generated {rows:,} rows in {time.perf_counter() - started:.1f} s (seed {seed})", flush=True)
    checks = [] if skip_loop else bench_rules(frame, rules)
    if write_pool:
        csv_frame.write_csv(work / "pool.csv")
        evaluate(frame, rules).select("code", "risk_level", "score").write_parquet(work / "expected.parquet")
    (work / "checks.json").write_text(json.dumps([asdict(c) for c in checks]), encoding="utf-8")


def run_worker(args: argparse.Namespace, work: Path) -> list[Check]:
    command = [
        sys.executable,
        str(Path(__file__).resolve()),
        "--worker",
        str(work),
        "--rows",
        str(args.rows),
        "--seed",
        str(args.seed),
    ]
    if args.skip_cli:
        command.append("--skip-cli")
    if args.skip_loop:
        command.append("--skip-loop")
    done = subprocess.run(command, timeout=WORKER_TIMEOUT_S, check=False)
    checks_file = work / "checks.json"
    if done.returncode != 0 or not checks_file.is_file():
        return [Check("generation and (a)", False, f"worker exited {done.returncode}")]
    return [Check(**c) for c in json.loads(checks_file.read_text(encoding="utf-8"))]


@dataclass
class ChildRun:
    code: int
    wall: float
    peak: int
    cpu: float
    tail: str


def run_cli(pool: Path, out: Path) -> ChildRun:
    """Run `lmscreen screen POOL --no-llm --out OUT --quiet` as a child and measure it."""
    command = [
        sys.executable,
        "-m",
        "lmscreen",
        "screen",
        str(pool),
        "--no-llm",
        "--out",
        str(out),
        "--quiet",
    ]
    print("    $ lmscreen", " ".join(command[3:]), flush=True)
    return run_child(command)


def run_child(command: list[str]) -> ChildRun:
    """Run `command`; exit code, wall s, peak RSS bytes, CPU s (user + system) and the stderr tail."""
    with tempfile.TemporaryFile() as err:
        started = time.perf_counter()
        child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=err)
        while True:
            pid, status, usage = os.wait4(child.pid, os.WNOHANG)
            if pid:
                break
            if time.perf_counter() - started > CLI_TIMEOUT_S:
                child.kill()
                pid, status, usage = os.wait4(child.pid, 0)
                break
            time.sleep(0.005)
        wall = time.perf_counter() - started
        child.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        tail = err.read().decode("utf-8", "replace").strip().splitlines()[-2:]
    cpu = usage.ru_utime + usage.ru_stime
    return ChildRun(child.returncode, wall, rss_bytes(usage.ru_maxrss), cpu, " | ".join(tail))


FLOOR_CHILD = """
import sys
import polars as pl
pool, frames, out = sys.argv[1:4]
pl.read_csv(pool, infer_schema=False)
csv = pl.read_ipc(frames + "/csv.arrow")
jsonl = pl.read_ipc(frames + "/jsonl.arrow")
csv.write_csv(out + "/results.csv", include_bom=True)
jsonl.write_ndjson(out + "/results.jsonl")
"""


def floor_prep(out: Path, frames: Path) -> None:
    """(d)'s input, untimed: screen's two result files as frames (Arrow, uncompressed, so loading them
    costs the floor child a copy and no decoding)."""
    import polars as pl

    csv = pl.read_csv(out / "results.csv", infer_schema_length=None)
    csv.write_ipc(frames / "csv.arrow", compression="uncompressed")
    jsonl = pl.read_ndjson(out / "results.jsonl", infer_schema_length=None)
    jsonl.write_ipc(frames / "jsonl.arrow", compression="uncompressed")


def bench_floor(work: Path, script: ChildRun, screen: ChildRun) -> list[Check]:
    """(d): the output contract's floor, beside (b) and (c) of the same run."""
    out, frames, floor_out = work / "out", work / "floor-frames", work / "floor-out"
    frames.mkdir(exist_ok=True)
    floor_out.mkdir(exist_ok=True)
    prep = [sys.executable, str(Path(__file__).resolve()), "--floor-prep", str(out), str(frames)]
    if subprocess.run(prep, timeout=WORKER_TIMEOUT_S, check=False).returncode != 0:
        return [Check("floor frames prepared", False, "the prep worker failed")]
    pool = work / "pool.csv"
    floor = run_child([sys.executable, "-c", FLOOR_CHILD, str(pool), str(frames), str(floor_out)])
    if floor.code != 0:
        return [Check("floor child ran", False, f"exit {floor.code}: {floor.tail}")]
    names = ("results.csv", "results.jsonl")
    same = all(filecmp.cmp(out / name, floor_out / name, shallow=False) for name in names)
    sizes = sum((out / name).stat().st_size for name in names)
    print(f"(d) contract floor:         {floor.wall:8.3f} s  exit {floor.code}")
    print(
        f"    start, import polars, read the pool, write the {sizes / 2**20:,.0f} MiB of results: "
        + ("the same bytes as (b)" if same else "bytes DIFFER from (b)")
    )
    print(f"    CPU s (user+sys):       {floor.cpu:8.3f}")
    need = script.wall / TARGET_VS_SCRIPT
    print(f"    script / {TARGET_VS_SCRIPT:.0f}:             {need:8.3f} s  (what the target leaves screen)")
    print(
        f"    the floor takes {floor.wall / script.wall:.2f}x the script's time; "
        f"screen takes {screen.wall / floor.wall:.2f}x the floor's"
    )
    return [Check("floor wrote the same bytes as screen", same, "results.csv and results.jsonl")]


def compare_results(results: Path, expected_file: Path) -> Check:
    """results.csv must list every row in input order with the verdict `evaluate` gives."""
    import polars as pl

    name = "results.csv == evaluate (order, risk level, score)"
    got = pl.read_csv(results, columns=["code", "risk_level", "score"], infer_schema_length=0)
    got = got.with_columns(pl.col("score").cast(pl.Int64, strict=False))
    want = pl.read_parquet(expected_file)
    if got.height != want.height:
        return Check(name, False, f"{got.height:,} rows, expected {want.height:,}")
    differ = got.with_row_index().filter(
        (pl.col("code") != want["code"])
        | (pl.col("risk_level") != want["risk_level"])
        | pl.col("score").ne_missing(want["score"])
    )
    if differ.is_empty():
        return Check(name, True, f"all {got.height:,} rows agree")
    return Check(name, False, f"{differ.height:,} rows differ, first {differ.row(0)}")


def compare_script(results: Path, script_out: Path) -> Check:
    """The user's script and screen must give the same verdict and score on every row (a fair race)."""
    import polars as pl

    name = "simple script == screen (order, risk level, score)"
    got = pl.read_csv(results, columns=["code", "risk_level", "score"], infer_schema_length=0)
    theirs = pl.read_csv(script_out, infer_schema_length=0)
    if got.height != theirs.height:
        return Check(name, False, f"{theirs.height:,} rows from the script, {got.height:,} from screen")
    differ = (
        (got["code"] != theirs["code"])
        | (got["risk_level"] != theirs["risk_level"])
        | got["score"].ne_missing(theirs["score"])
    ).sum()
    return Check(name, differ == 0, f"{differ:,} of {got.height:,} rows differ")


def bench_cli(work: Path, rows: int, floor: bool = True) -> list[Check]:
    """(b) the whole screen command as a user runs it, then (c) the user's own script on the same file."""
    pool, out = work / "pool.csv", work / "out"
    print(f"    pool: {pool} ({pool.stat().st_size / 2**20:.0f} MiB)")
    screen = run_cli(pool, out)
    print(
        f"(b) screen --no-llm:        {screen.wall:8.3f} s  {rows / screen.wall:14,.0f} rows/s  "
        f"exit {screen.code}"
    )
    print(f"    CPU s (user+sys):       {screen.cpu:8.3f}")
    print(f"    peak RSS of the child:  {screen.peak / 2**20:8.0f} MiB")
    script_out = work / "simple.csv"
    print(f"    $ python {SIMPLE_SCRIPT.name} {pool.name} {script_out.name}", flush=True)
    script = run_child([sys.executable, str(SIMPLE_SCRIPT), str(pool), str(script_out)])
    print(
        f"(c) simple csv script:      {script.wall:8.3f} s  {rows / script.wall:14,.0f} rows/s  "
        f"exit {script.code}"
    )
    print(f"    CPU s (user+sys):       {script.cpu:8.3f}")
    ratio = script.wall / screen.wall if screen.wall > 0 else 0.0
    cpu_ratio = script.cpu / screen.cpu if screen.cpu > 0 else 0.0
    print(
        f"    screen vs script:       {ratio:8.2f}x wall, {cpu_ratio:.2f}x CPU "
        f"(target >= {TARGET_VS_SCRIPT:.0f}x)"
    )
    ok = screen.code == 0
    checks = [
        Check("screen exits 0", ok, f"exit {screen.code}" + (f": {screen.tail}" if screen.code else "")),
        Check(
            "screen --no-llm wall time",
            ok and screen.wall < TARGET_WALL_S,
            f"{screen.wall:.2f} s < {TARGET_WALL_S:.0f} s",
        ),
        Check(
            "screen --no-llm peak RSS",
            ok and screen.peak < TARGET_RSS,
            f"{screen.peak / 2**20:.0f} MiB < {TARGET_RSS / 2**20:.0f} MiB",
        ),
        Check(
            "screen vs the simple csv script",
            ok and script.code == 0 and ratio >= TARGET_VS_SCRIPT,
            f"{ratio:.2f}x >= {TARGET_VS_SCRIPT:.0f}x (wall; {cpu_ratio:.2f}x in CPU seconds)",
        ),
    ]
    if ok:
        results = out / "results.csv"
        if results.is_file():
            checks.append(compare_results(results, work / "expected.parquet"))
            if script.code == 0:
                checks.append(compare_script(results, script_out))
                if floor:
                    checks += bench_floor(work, script, screen)
        else:
            checks.append(Check("results.csv written", False, f"{results} is missing"))
    return checks


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000, help="rows to generate (default 1,000,000)")
    parser.add_argument("--seed", type=int, default=20240611)
    parser.add_argument("--skip-cli", action="store_true", help="only (a): evaluate vs the row loop")
    parser.add_argument("--skip-loop", action="store_true", help="skip (a): only screen vs the simple script")
    parser.add_argument("--skip-floor", action="store_true", help="skip (d): the output contract's floor")
    parser.add_argument("--keep", type=Path, help="write the pool and the CLI output here, and keep them")
    parser.add_argument("--floor-prep", type=Path, nargs=2, help=argparse.SUPPRESS)
    parser.add_argument("--worker", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if not 1 <= args.rows <= 1_000_000:
        parser.error("--rows must be between 1 and 1,000,000 (one row per six-digit code)")
    if args.floor_prep:
        floor_prep(*args.floor_prep)
        return 0
    if args.worker:
        worker(args.rows, args.seed, args.worker, write_pool=not args.skip_cli, skip_loop=args.skip_loop)
        return 0

    with tempfile.TemporaryDirectory(prefix="lmscreen-bench-") as tmp:
        work = args.keep or Path(tmp)
        work.mkdir(parents=True, exist_ok=True)
        checks = run_worker(args, work)
        if not args.skip_cli and (work / "pool.csv").is_file():
            checks += bench_cli(work, args.rows, floor=not args.skip_floor)
    print()
    for check in checks:
        print(f"{'PASS' if check.ok else 'FAIL'}  {check.name}: {check.detail}")
    return 0 if all(check.ok for check in checks) else 1


if __name__ == "__main__":
    sys.exit(main())
