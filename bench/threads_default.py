"""The default thread count right after another job ends, against `--threads $(nproc)`, in one run.

Why: the default used to subtract the 1-minute load average, which lags. Seconds after a job that kept the
cores busy had ended, an idle 2-core machine still read ~1.1 and a default run took one thread: 0.47 LLM
rows/s on the example pool where `--threads 2` gave 0.73. The default now samples what is busy now
(engines/threads.py), so right after a busy job it should be within 10% of the fixed count.

Each of the two runs starts right after the same busy job: every usable core spun by a child process for
--spin seconds (20), then stopped. Then `lmscreen screen examples/pool.csv --reports examples/reports
--limit 14` runs once with the default thread count and once with `--threads $(nproc)`, each into a fresh
--out (nothing resumed). A --limit 1 run first puts the model file in the page cache, so neither measured
run pays for reading it. Prints each run's LLM rows/s (run.json `llm.rows_per_s_this_run`), the threads it
used, the load average it started under and how many cores other processes kept busy during it (the
comparison means something only where that is near 0), and the ratio default / fixed (target: at least
0.9).

The runs use the real bundled model: run it alone on the machine.

Usage: python bench/threads_default.py [--spin 20] [--limit 14]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
POOL = ROOT / "examples" / "pool.csv"
REPORTS = ROOT / "examples" / "reports"
TARGET_RATIO = 0.9


def nproc() -> int:
    """What `nproc` prints: the cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def busy_job(seconds: float, cores: int) -> None:
    """Keep `cores` cores busy for `seconds` (one spinning child process each), then stop them."""
    spinners = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(cores)]
    try:
        time.sleep(seconds)
    finally:
        for proc in spinners:
            proc.kill()
        for proc in spinners:
            proc.wait()


def _busy_seconds() -> float:
    """CPU seconds every process has spent busy on this machine so far (/proc/stat, all cores)."""
    fields = [int(x) for x in Path("/proc/stat").read_text().splitlines()[0].split()[1:9]]
    return (sum(fields) - fields[3] - fields[4]) / os.sysconf("SC_CLK_TCK")


def _children_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def screen(out: Path, home: Path, limit: int, *extra: str) -> dict[str, object]:
    """One `screen` run; what its run.json says about the LLM stage."""
    env = {k: v for k, v in os.environ.items() if k != "LMSCREEN_THREADS"}
    env["LMSCREEN_HOME"] = str(home)  # a scratch history: the bench's runs stay out of the user's
    cmd = [sys.executable, "-m", "lmscreen", "screen", str(POOL), "--reports", str(REPORTS)]
    cmd += ["--limit", str(limit), "--out", str(out), *extra]
    load = os.getloadavg()[0]
    busy, mine = _busy_seconds(), _children_seconds()
    started = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=3600)
    wall = time.perf_counter() - started
    others = max(0.0, (_busy_seconds() - busy) - (_children_seconds() - mine)) / wall
    if done.returncode != 0:
        raise SystemExit(f"screen failed (exit {done.returncode}): {done.stderr.strip()[-2000:]}")
    llm = json.loads((out / "run.json").read_text(encoding="utf-8"))["llm"]
    return {
        "rows_per_s": float(llm["rows_per_s_this_run"]),
        "sent": int(llm["sent"]),
        "threads": int(llm["engine"].get("n_threads", 0)),
        "load_at_start": load,
        "wall_s": wall,
        "others_busy": others,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spin", type=float, default=20.0, help="seconds of the busy job before each run")
    parser.add_argument("--limit", type=int, default=14, help="rows of the example pool to screen")
    args = parser.parse_args(argv)
    cores = nproc()
    with tempfile.TemporaryDirectory(prefix="lmscreen-threads-bench-") as scratch:
        root = Path(scratch)
        screen(root / "warm", root / "home", 1)
        runs: dict[str, dict[str, object]] = {}
        for name, extra in (("default", ()), (f"--threads {cores}", ("--threads", str(cores)))):
            busy_job(args.spin, cores)
            runs[name] = screen(root / name.replace(" ", "_"), root / "home", args.limit, *extra)
    print(
        f"{cores} cores; each run started right after {args.spin:.0f} s of all cores busy; "
        f"--limit {args.limit}"
    )
    for name, run in runs.items():
        print(
            f"  {name:<12} {run['rows_per_s']:.3f} LLM rows/s ({run['sent']} rows, "
            f"{run['threads']} thread(s), load average {run['load_at_start']:.2f} at start, "
            f"{run['wall_s']:.1f} s; other processes kept {run['others_busy']:.2f} cores busy meanwhile)"
        )
    default, fixed = runs.values()
    ratio = float(default["rows_per_s"]) / float(fixed["rows_per_s"])  # type: ignore[arg-type]
    verdict = "ok" if ratio >= TARGET_RATIO else f"below the {TARGET_RATIO:.0%} target"
    print(f"  default / fixed = {ratio:.2f} ({verdict})")


if __name__ == "__main__":
    main()
