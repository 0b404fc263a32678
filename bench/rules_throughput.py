"""Rules throughput: vectorised `evaluate` vs a plain row-by-row loop, and `screen --no-llm` end to end.

Generates N rows (default 1,000,000; seeded, so every run screens the same pool) and measures, in one run:
 (a) `lmscreen.rules.evaluate` (polars; median of 3 calls) against the `evaluate_row` loop over the same
     rows and rules (target: at least 20x), checking on the way that both give the same verdict, score and
     fired rules on every row. The loop is timed on rows already turned into dicts, chunk by chunk, so it
     pays for the rules only and not for reading the frame: the ratio is, if anything, kind to the loop.
 (b) `lmscreen screen POOL.csv --no-llm --out DIR` as a child process: wall time (target <= 2.5 s), peak
     resident memory of the child (target < 600 MiB), that it exits 0, and that results.csv and
     results.parquet hold every row in input order with the verdict and score `evaluate` gives (every row
     accounted for: results plus errors.csv is the input).
 (c) `bench/simple_screen.py`, the script a user would write instead (csv module in, the default rules,
     code/risk/score out), on the same file right after (b): its output must agree with results.csv on
     every row, and screen must be at least 2x faster (wall; CPU seconds are printed beside it, since the
     machine may be shared).
 (d) the floor of the output contract, right after (c): a child that only starts Python, imports polars,
     reads the pool with polars and writes results.csv and results.parquet with the content (b) wrote
     (from frames prepared beforehand, untimed; results.csv's bytes and results.parquet's rows are
     compared). No cleaning, rules, history or report: no implementation of `screen` that writes those
     files can be faster than this.
 (e) the whole market as a user screens it every night: the first 5,500 rows of the same pool, screened
     into one OUT folder after a run that seeded the history (so the report compares with it, as it does
     each night), against `python -c "import polars"` (target: at most 2x), and
     `lmscreen model fit Qwen/Qwen3-8B --gpu "RTX 4090"` (target: at most 0.25 s). Medians of 5, the
     commands taking turns so both see the same load.
lmscreen's modules are compiled to bytecode first (`compileall`, what `pip install` does for a user): with
PYTHONDONTWRITEBYTECODE set, as on the shared dev machines, every child would otherwise compile the
package from source on each start, a cost no installed copy pays.
The children get a history of their own ($LMSCREEN_HOME in the work folder): a bench run never writes a
million rows into the user's history. Prints the figures side by side, then PASS/FAIL per target, and
exits 1 if any failed.

Peak RSS comes from wait4()'s rusage. Linux carries a process's peak RSS across exec(), so a child forked
from a process holding a million-row frame would report at least that process's size. Generation and (a)
therefore run in a worker process, and the CLI is launched from this launcher, which imports no polars
(about 15 MiB) and so cannot inflate the child's figure.

Usage: python bench/rules_throughput.py [--rows N] [--seed S] [--skip-cli] [--skip-loop] [--skip-floor]
       [--skip-small] [--keep DIR]
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
TARGET_WALL_S = 2.5
TARGET_RSS = 600 * 2**20
TARGET_VS_SCRIPT = 2.0
SMALL_ROWS = 5_500
"""The whole A-share market."""
TARGET_VS_IMPORT = 2.0
TARGET_FIT_S = 0.25
SMALL_REPEATS = 5
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
    """Generate the pool, run (a), and leave pool.csv, small.csv, expected.parquet and checks.json in
    `work`."""
    from lmscreen.rules import evaluate, load_rules

    rules = load_rules(None)
    started = time.perf_counter()
    frame, csv_frame = generate(rows, seed)
    print(f"generated {rows:,} rows in {time.perf_counter() - started:.1f} s (seed {seed})", flush=True)
    checks = [] if skip_loop else bench_rules(frame, rules)
    if write_pool:
        csv_frame.write_csv(work / "pool.csv")
        csv_frame.head(SMALL_ROWS).write_csv(work / "small.csv")
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


def screen_command(pool: Path, out: Path) -> list[str]:
    """`lmscreen screen POOL --no-llm --out OUT --quiet`, as a user runs it."""
    return [sys.executable, "-m", "lmscreen", "screen", str(pool), "--no-llm", "--out", str(out), "--quiet"]


def run_child(command: list[str], env: dict[str, str] | None = None) -> ChildRun:
    """Run `command`; exit code, wall s, peak RSS bytes, CPU s (user + system) and the stderr tail."""
    with tempfile.TemporaryFile() as err:
        started = time.perf_counter()
        child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=err, env=env)
        while True:
            pid, status, usage = os.wait4(child.pid, os.WNOHANG)
            if pid:
                break
            if time.perf_counter() - started > CLI_TIMEOUT_S:
                child.kill()
                pid, status, usage = os.wait4(child.pid, 0)
                break
            time.sleep(0.002)
        wall = time.perf_counter() - started
        child.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        tail = err.read().decode("utf-8", "replace").strip().splitlines()[-2:]
    cpu = usage.ru_utime + usage.ru_stime
    return ChildRun(child.returncode, wall, rss_bytes(usage.ru_maxrss), cpu, " | ".join(tail))


def child_env(work: Path) -> dict[str, str]:
    """The children's environment: a history and a cache of their own in the work folder."""
    return {**os.environ, "LMSCREEN_HOME": str(work / "home"), "LMSCREEN_CACHE": str(work / "cache")}


FLOOR_CHILD = """
import sys
import polars as pl
pool, frames, out = sys.argv[1:4]
pl.read_csv(pool, infer_schema=False)
csv = pl.read_ipc(frames + "/csv.arrow")
typed = pl.read_ipc(frames + "/parquet.arrow")
csv.write_csv(out + "/results.csv", include_bom=True)
typed.write_parquet(out + "/results.parquet", compression="zstd", compression_level=1, statistics=False)
"""


def floor_prep(out: Path, frames: Path) -> None:
    """(d)'s input, untimed: screen's two result files as frames (Arrow, uncompressed, so loading them
    costs the floor child a copy and no decoding)."""
    import polars as pl

    csv = pl.read_csv(out / "results.csv", infer_schema_length=None)
    csv.write_ipc(frames / "csv.arrow", compression="uncompressed")
    typed = pl.read_parquet(out / "results.parquet")
    typed.write_ipc(frames / "parquet.arrow", compression="uncompressed")


def same_rows(a: Path, b: Path) -> bool:
    """Two Parquet files with the same rows, columns and types (the bytes may differ in row groups)."""
    import polars as pl

    return pl.read_parquet(a).equals(pl.read_parquet(b))


def bench_floor(work: Path, script: ChildRun, screen: ChildRun) -> tuple[list[Check], ChildRun | None]:
    """(d): the output contract's floor, beside (b) and (c) of the same run."""
    out, frames, floor_out = work / "out", work / "floor-frames", work / "floor-out"
    frames.mkdir(exist_ok=True)
    floor_out.mkdir(exist_ok=True)
    prep = [sys.executable, str(Path(__file__).resolve()), "--floor-prep", str(out), str(frames)]
    if subprocess.run(prep, timeout=WORKER_TIMEOUT_S, check=False).returncode != 0:
        return [Check("floor frames prepared", False, "the prep worker failed")], None
    pool = work / "pool.csv"
    floor = run_child([sys.executable, "-c", FLOOR_CHILD, str(pool), str(frames), str(floor_out)])
    if floor.code != 0:
        return [Check("floor child ran", False, f"exit {floor.code}: {floor.tail}")], None
    same_csv = filecmp.cmp(out / "results.csv", floor_out / "results.csv", shallow=False)
    same_parquet = same_rows(out / "results.parquet", floor_out / "results.parquet")
    sizes = sum((out / name).stat().st_size for name in ("results.csv", "results.parquet"))
    print(f"(d) contract floor:         {floor.wall:8.3f} s  exit {floor.code}")
    print(
        f"    start, import polars, read the pool, write the {sizes / 2**20:,.0f} MiB of results.csv + "
        "results.parquet: " + ("the same content as (b)" if same_csv and same_parquet else "DIFFERS from (b)")
    )
    print(f"    CPU s (user+sys):       {floor.cpu:8.3f}")
    need = script.wall / TARGET_VS_SCRIPT
    print(f"    script / {TARGET_VS_SCRIPT:.0f}:             {need:8.3f} s  (what the target leaves screen)")
    return [
        Check(
            "floor wrote what screen wrote",
            same_csv and same_parquet,
            f"results.csv bytes {'equal' if same_csv else 'differ'}, "
            f"results.parquet rows {'equal' if same_parquet else 'differ'}",
        )
    ], floor


def compare_results(out: Path, expected_file: Path, rows: int) -> list[Check]:
    """results.csv and results.parquet must list every row in input order with the verdict `evaluate`
    gives; with errors.csv they account for every input row."""
    import polars as pl

    want = pl.read_parquet(expected_file)
    checks = []
    got_csv = pl.read_csv(out / "results.csv", columns=["code", "risk_level", "score"], infer_schema_length=0)
    got_csv = got_csv.with_columns(pl.col("score").cast(pl.Int64, strict=False))
    got_parquet = pl.read_parquet(out / "results.parquet", columns=["code", "risk_level", "score"])
    for name, got in (("results.csv", got_csv), ("results.parquet", got_parquet)):
        label = f"{name} == evaluate (order, risk level, score)"
        got = got.with_columns(pl.col("risk_level").cast(pl.String))
        if got.height != want.height:
            checks.append(Check(label, False, f"{got.height:,} rows, expected {want.height:,}"))
            continue
        differ = got.with_row_index().filter(
            (pl.col("code") != want["code"])
            | (pl.col("risk_level") != want["risk_level"])
            | pl.col("score").ne_missing(want["score"])
        )
        detail = f"all {got.height:,} rows agree" if differ.is_empty() else f"{differ.height:,} rows differ"
        checks.append(Check(label, differ.is_empty(), detail))
    errors = pl.read_csv(out / "errors.csv", infer_schema_length=0).height
    checks.append(
        Check(
            "every row accounted for",
            got_csv.height + errors == rows,
            f"{got_csv.height:,} results + {errors:,} errors = {got_csv.height + errors:,} of {rows:,}",
        )
    )
    return checks


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


@dataclass
class Figures:
    """What the side-by-side table prints."""

    rows: int = 0
    screen: ChildRun | None = None
    script: ChildRun | None = None
    floor: ChildRun | None = None
    small: ChildRun | None = None
    polars: ChildRun | None = None
    fit: ChildRun | None = None


def bench_cli(work: Path, rows: int, figures: Figures, floor: bool = True) -> list[Check]:
    """(b) the whole screen command as a user runs it, then (c) the user's own script on the same file."""
    pool, out = work / "pool.csv", work / "out"
    env = child_env(work)
    print(f"    pool: {pool} ({pool.stat().st_size / 2**20:.0f} MiB)")
    print("    $ lmscreen", " ".join(screen_command(pool, out)[3:]), flush=True)
    screen = figures.screen = run_child(screen_command(pool, out), env)
    print(
        f"(b) screen --no-llm:        {screen.wall:8.3f} s  {rows / screen.wall:14,.0f} rows/s  "
        f"exit {screen.code}"
    )
    print(f"    CPU s (user+sys):       {screen.cpu:8.3f}")
    print(f"    peak RSS of the child:  {screen.peak / 2**20:8.0f} MiB")
    script_out = work / "simple.csv"
    print(f"    $ python {SIMPLE_SCRIPT.name} {pool.name} {script_out.name}", flush=True)
    script = figures.script = run_child([sys.executable, str(SIMPLE_SCRIPT), str(pool), str(script_out)])
    print(
        f"(c) simple csv script:      {script.wall:8.3f} s  {rows / script.wall:14,.0f} rows/s  "
        f"exit {script.code}"
    )
    print(f"    CPU s (user+sys):       {script.cpu:8.3f}")
    ratio = script.wall / screen.wall if screen.wall > 0 else 0.0
    cpu_ratio = script.cpu / screen.cpu if screen.cpu > 0 else 0.0
    ok = screen.code == 0
    checks = [
        Check("screen exits 0", ok, f"exit {screen.code}" + (f": {screen.tail}" if screen.code else "")),
        Check(
            "screen --no-llm wall time",
            ok and screen.wall <= TARGET_WALL_S,
            f"{screen.wall:.2f} s <= {TARGET_WALL_S} s",
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
        if (out / "results.csv").is_file() and (out / "results.parquet").is_file():
            checks += compare_results(out, work / "expected.parquet", rows)
            if script.code == 0:
                checks.append(compare_script(out / "results.csv", script_out))
                if floor:
                    more, figures.floor = bench_floor(work, script, screen)
                    checks += more
        else:
            checks.append(Check("results.csv and results.parquet written", False, f"missing in {out}"))
    return checks


FIT = ["-m", "lmscreen", "model", "fit", "Qwen/Qwen3-8B", "--gpu", "RTX 4090"]


def _median(runs: list[ChildRun]) -> ChildRun:
    ordered = sorted(runs, key=lambda r: r.wall)
    middle = ordered[len(ordered) // 2]
    return ChildRun(
        max(r.code for r in runs), middle.wall, max(r.peak for r in runs), middle.cpu, middle.tail
    )


def bench_small(work: Path, figures: Figures) -> list[Check]:
    """(e) the whole market, screened as each night: against `import polars` and beside `model fit`."""
    pool, out, env = work / "small.csv", work / "small-out", child_env(work)
    seeded = run_child(screen_command(pool, out), env)  # last night's run: the history has one to compare
    if seeded.code != 0:
        return [Check("screen on 5,500 rows exits 0", False, f"exit {seeded.code}: {seeded.tail}")]
    screens, imports, fits = [], [], []
    for _ in range(SMALL_REPEATS):
        imports.append(run_child([sys.executable, "-c", "import polars"], env))
        screens.append(run_child(screen_command(pool, out), env))
        fits.append(run_child([sys.executable, *FIT], env))
    small, polars, fit = figures.small, figures.polars, figures.fit = (
        _median(screens),
        _median(imports),
        _median(fits),
    )
    ratio = small.wall / polars.wall if polars.wall > 0 else float("inf")
    print(f"(e) {SMALL_ROWS:,} rows, medians of {SMALL_REPEATS} (taking turns):")
    print(f"    screen --no-llm:        {small.wall:8.3f} s  ({small.cpu:.3f} CPU s)  exit {small.code}")
    print(f'    python -c "import polars": {polars.wall:5.3f} s  ({polars.cpu:.3f} CPU s)')
    print(f"    screen / import polars: {ratio:8.2f}x  (target <= {TARGET_VS_IMPORT:.0f}x)")
    print(f"    model fit:              {fit.wall:8.3f} s  ({fit.cpu:.3f} CPU s)  exit {fit.code}")
    return [
        Check("screen on 5,500 rows exits 0", small.code == 0, small.tail if small.code else "exit 0"),
        Check(
            "5,500 rows vs import polars",
            small.code == 0 and ratio <= TARGET_VS_IMPORT,
            f"{ratio:.2f}x <= {TARGET_VS_IMPORT:.0f}x ({small.wall:.3f} s vs {polars.wall:.3f} s)",
        ),
        Check(
            "model fit wall time",
            fit.code == 0 and fit.wall <= TARGET_FIT_S,
            f"{fit.wall:.3f} s <= {TARGET_FIT_S} s" + (f" (exit {fit.code}: {fit.tail})" if fit.code else ""),
        ),
    ]


def side_by_side(figures: Figures) -> None:
    """The figures of this run in one table: each command's wall and CPU seconds, and its time over
    screen's (above 1: screen is that many times faster)."""
    print()
    print(f"{'':34s} {'wall s':>8s} {'CPU s':>8s} {'÷ screen':>9s}")

    def line(label: str, run: ChildRun | None, base: ChildRun | None) -> None:
        if run is None:
            return
        ratio = f"{run.wall / base.wall:8.2f}x" if base is not None and base.wall > 0 else ""
        print(f"{label:34s} {run.wall:8.3f} {run.cpu:8.3f} {ratio:>9s}")

    if figures.screen is not None:
        print(f"{figures.rows:,} rows")
        line("  screen --no-llm", figures.screen, figures.screen)
        line("  simple csv script", figures.script, figures.screen)
        line("  contract floor (read + write)", figures.floor, figures.screen)
    if figures.small is not None:
        print(f"{SMALL_ROWS:,} rows")
        line("  screen --no-llm", figures.small, figures.small)
        line('  python -c "import polars"', figures.polars, figures.small)
        line('  model fit Qwen/Qwen3-8B "RTX 4090"', figures.fit, None)


def compile_package() -> None:
    """Bytecode for lmscreen's modules, as an installed copy has (see the module docstring); found without
    importing the package, so this launcher stays free of polars."""
    import importlib.util

    spec = importlib.util.find_spec("lmscreen")
    folders = list(spec.submodule_search_locations or []) if spec is not None else []
    for folder in folders:
        command = [sys.executable, "-m", "compileall", "-q", folder]
        subprocess.run(command, stdout=subprocess.DEVNULL, check=False)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000, help="rows to generate (default 1,000,000)")
    parser.add_argument("--seed", type=int, default=20240611)
    parser.add_argument("--skip-cli", action="store_true", help="only (a): evaluate vs the row loop")
    parser.add_argument("--skip-loop", action="store_true", help="skip (a): only screen vs the simple script")
    parser.add_argument("--skip-floor", action="store_true", help="skip (d): the output contract's floor")
    parser.add_argument("--skip-small", action="store_true", help="skip (e): 5,500 rows and model fit")
    parser.add_argument("--keep", type=Path, help="write the pool and the CLI output here, and keep them")
    parser.add_argument("--floor-prep", type=Path, nargs=2, help=argparse.SUPPRESS)
    parser.add_argument("--worker", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if not SMALL_ROWS <= args.rows <= 1_000_000:
        parser.error(f"--rows must be between {SMALL_ROWS:,} and 1,000,000 (one row per six-digit code)")
    if args.floor_prep:
        floor_prep(*args.floor_prep)
        return 0
    if args.worker:
        worker(args.rows, args.seed, args.worker, write_pool=not args.skip_cli, skip_loop=args.skip_loop)
        return 0

    compile_package()
    figures = Figures(rows=args.rows)
    with tempfile.TemporaryDirectory(prefix="lmscreen-bench-") as tmp:
        work = args.keep or Path(tmp)
        work.mkdir(parents=True, exist_ok=True)
        checks = run_worker(args, work)
        if not args.skip_cli and (work / "pool.csv").is_file():
            checks += bench_cli(work, args.rows, figures, floor=not args.skip_floor)
            if not args.skip_small:
                checks += bench_small(work, figures)
    side_by_side(figures)
    print()
    for check in checks:
        print(f"{'PASS' if check.ok else 'FAIL'}  {check.name}: {check.detail}")
    return 0 if all(check.ok for check in checks) else 1


if __name__ == "__main__":
    sys.exit(main())
