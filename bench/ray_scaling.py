"""Ray engine scaling: rows/s with 1 and 2 local Ray workers on the embedded engine, beside the plain
embedded engine, measured side by side in one run (these machines are noisy: only ratios mean anything).

Each pass answers the same requests (the example pool's, repeated to --rows with distinct keys) and
includes loading its model(s), as a real run does: the plain pass loads one engine, each Ray pass starts
its actor pool (one model load per worker) and hands rows out and results back; starting Ray itself is
not counted (a cluster is already up, or starts once per run). Prints rows/s per pass, 2-worker ÷
1-worker (ideal: 2 when each worker has its own cores), and 1-worker Ray ÷ plain embedded (the pipeline's
own overhead; ideal 1.0).

Usage: python bench/ray_scaling.py [--rows N] [--cpus N]
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import asdict, replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

from embedded_throughput import example_requests  # noqa: E402


def requests(n: int) -> list:
    base = example_requests()
    return [replace(base[i % len(base)], key=f"{i}:{base[i % len(base)].key}") for i in range(n)]


def timed(engine, reqs) -> float:
    t = time.perf_counter()
    got = {r.key for r in engine.run(reqs)}
    seconds = time.perf_counter() - t
    missing = {r.key for r in reqs} - got
    if missing:
        raise SystemExit(f"{engine.name}: {len(missing)} rows without an answer")
    return len(reqs) / seconds


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=16)
    parser.add_argument("--cpus", type=int, default=None, help="CPUs for the local Ray (default: usable)")
    args = parser.parse_args()

    import ray

    from lmscreen.engines.embedded import EmbeddedEngine
    from lmscreen.engines.ray_engine import RayEngine
    from lmscreen.engines.ray_engine import plugin as ray_plugin
    from lmscreen.engines.threads import usable_cores
    from lmscreen.run.options import ScreenOptions

    cpus = args.cpus or usable_cores()
    reqs = requests(args.rows)
    opts = ScreenOptions(pool=ROOT / "examples" / "pool.csv", out=Path("."), progress=False)

    t = time.perf_counter()
    plain = EmbeddedEngine(n_ctx=opts.n_ctx)
    load = time.perf_counter() - t
    plain_rate = len(reqs) / (len(reqs) / timed(plain, reqs) + load)
    plain.close()

    ray.init(num_cpus=cpus, include_dashboard=False, logging_level="WARNING")
    rates = {}
    try:
        for workers in (1, 2):
            settings = ray_plugin.settings(asdict(opts))
            batch_rows = max(1, args.rows // (4 * workers))
            engine = RayEngine(replace(settings, workers=workers, batch_rows=batch_rows, progress=False))
            rates[workers] = timed(engine, reqs)
            threads = engine.layout.threads
            print(f"ray, {workers} worker(s) × up to {threads} thread(s): {rates[workers]:.3f} rows/s")
    finally:
        ray.shutdown()
    print(f"plain embedded: {plain_rate:.3f} rows/s ({cpus} CPUs)")
    print(f"2 workers ÷ 1 worker:   {rates[2] / rates[1]:.2f}")
    print(f"ray 1 worker ÷ plain:   {rates[1] / plain_rate:.2f}")


if __name__ == "__main__":
    main()
