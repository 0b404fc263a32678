"""OpenAI engine client: does it keep a server busy, and does its memory stay flat as the pool grows?

Against a local fake OpenAI server (tests/servers.py, its own process) that answers every chat completion
after exactly 100 ms and serves any number at once:
 (1) 200 requests at concurrency 16: elapsed time / ideal (ceil(200/16) = 13 rounds x 100 ms = 1.3 s);
     target <= 1.15. Best of 3 runs (the machine is shared; the best run shows what the client can do).
 (2) peak RSS of a 10,000-request run at concurrency 64 vs a 1,000-request run, each in its own process;
     target: the larger within 20% of the smaller. Requests are generated lazily with a unique ~1.5 kB
     report text each, as the runner streams rows, so holding the pool would show.
Prints PASS/FAIL per target and exits 1 when one fails.

Usage: python bench/client_concurrency.py [--skip-memory]
"""

from __future__ import annotations

import argparse
import math
import resource
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from fixed_server import FAKE_MODEL  # noqa: E402
from lmscreen.engines.openai_engine import OpenAIEngine  # noqa: E402
from lmscreen.engines.protocol import LLMRequest  # noqa: E402
from servers import FakeServerProcess  # noqa: E402

LATENCY = 0.1
SCHEMA = {
    "type": "object",
    "properties": {"code": {"type": "string"}, "reason": {"type": "string", "maxLength": 30}},
    "required": ["code", "reason"],
}
SYSTEM = "你是财报信息抽取助手。只输出符合 JSON schema 的对象。" * 8


def requests(n: int) -> Iterator[LLMRequest]:
    """`n` distinct requests, built one at a time."""
    for i in range(n):
        text = (
            f"公司{i:06d} 2024年营业收入{i * 1.7:.2f}亿元，同比增长{i % 37}.5%，净利润{i * 0.3:.2f}亿元。"
            * 20
        )
        yield LLMRequest(
            key=f"{i:06d}.SZ",
            messages=[{"role": "system", "content": SYSTEM}, {"role": "user", "content": text}],
            schema=SCHEMA,
            max_tokens=128,
        )


def timed_run(base_url: str, n: int, concurrency: int) -> float:
    with OpenAIEngine(FAKE_MODEL, base_url=base_url, concurrency=concurrency) as engine:
        engine.describe()  # connect and detect the server before the clock starts
        started = time.perf_counter()
        done = sum(1 for r in engine.run(requests(n)) if r.error is None)
        elapsed = time.perf_counter() - started
    if done != n:
        raise SystemExit(f"only {done} of {n} requests succeeded")
    return elapsed


def peak_rss_mib() -> float:
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / 1024 / (1024 if sys.platform == "darwin" else 1)


def child_memory(base_url: str, n: int, concurrency: int) -> None:
    """Runs in a fresh process: one run of `n` requests, then prints its peak RSS in MiB."""
    timed_run(base_url, n, concurrency)
    print(f"{peak_rss_mib():.3f}")


def measure_memory(base_url: str, n: int, concurrency: int) -> float:
    done = subprocess.run(
        [
            sys.executable,
            __file__,
            "--child-memory",
            str(n),
            "--base-url",
            base_url,
            "--concurrency",
            str(concurrency),
        ],
        capture_output=True,
        text=True,
        check=True,
        timeout=1800,
    )
    return float(done.stdout.strip().splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--skip-memory", action="store_true", help="only the concurrency measurement")
    parser.add_argument("--child-memory", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--base-url", help=argparse.SUPPRESS)
    parser.add_argument("--concurrency", type=int, default=64, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child_memory:
        child_memory(args.base_url, args.child_memory, args.concurrency)
        return 0

    failed = False
    with FakeServerProcess(latency=LATENCY) as server:
        n, concurrency = 200, 16
        ideal = math.ceil(n / concurrency) * LATENCY
        runs = [timed_run(server.base_url, n, concurrency) for _ in range(3)]
        ratio = min(runs) / ideal
        ok = ratio <= 1.15
        failed |= not ok
        print(
            f"(1) {n} requests at concurrency {concurrency}, server latency {LATENCY * 1000:.0f} ms: "
            f"best {min(runs):.3f} s of {', '.join(f'{r:.3f}' for r in runs)}; "
            f"ideal {math.ceil(n / concurrency)} x {LATENCY * 1000:.0f} ms = {ideal:.2f} s; "
            f"ratio {ratio:.3f} (target <= 1.15) {'PASS' if ok else 'FAIL'}"
        )

        if not args.skip_memory:
            small = measure_memory(server.base_url, 1_000, 64)
            large = measure_memory(server.base_url, 10_000, 64)
            mem_ratio = large / small
            ok = mem_ratio <= 1.20
            failed |= not ok
            print(
                f"(2) peak RSS at concurrency 64: 1,000 requests {small:.1f} MiB, 10,000 requests "
                f"{large:.1f} MiB; ratio {mem_ratio:.3f} (target <= 1.20) {'PASS' if ok else 'FAIL'}"
            )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
