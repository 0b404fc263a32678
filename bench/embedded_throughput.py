"""Embedded engine: pipeline vs raw llama.cpp speed, prefix reuse, and memory vs pool size.

Prints, measured side by side in one run (these machines are noisy, so only ratios are meaningful):
 (a) pipeline tokens/s ÷ raw llama-cpp-python tokens/s on the same model, prompts and grammar
     (target >= 0.9). "Tokens" are prompt + completion tokens of each request; the raw side calls
     `Llama.create_completion` on the full prompt after a reset, as a plain llama-cpp-python user would.
 (b) share of prompt tokens not recomputed thanks to the shared system-prompt state (target >= 50%).
 (c) peak RSS of `lmscreen screen` on a pool of N report rows vs 10 N rows, each in its own process
     (target: the larger within 10% of the smaller).

Usage: python bench/embedded_throughput.py [--rows N] [--skip-memory] [--skip-speed]
"""

from __future__ import annotations

import argparse
import csv
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"


def example_requests() -> list:
    """The example pool's LLM requests exactly as the runner builds them."""
    from lmscreen.engines.embedded import EmbeddedEngine
    from lmscreen.engines.protocol import LLMRequest
    from lmscreen.filings import index_filings
    from lmscreen.pool.load import load_pool
    from lmscreen.run.options import ScreenOptions
    from lmscreen.run.screen import _items
    from lmscreen.task import prepare_request

    out = Path(tempfile.mkdtemp())
    opts = ScreenOptions(pool=EXAMPLES / "pool.csv", out=out, reports=EXAMPLES / "reports")
    rows = _items(load_pool(opts.pool).frame, index_filings(opts.reports))
    counter = EmbeddedEngine(n_ctx=opts.n_ctx)
    reqs = []
    for r in rows:
        question, _ = prepare_request(
            r.code, r.name, r.source.read(), opts.report_token_budget, counter.count_tokens
        )
        reqs.append(
            LLMRequest(
                key=r.code, messages=question.messages, schema=question.schema, max_tokens=opts.max_tokens
            )
        )
    counter.close()
    return reqs


def pipeline_pass(engine, reqs) -> tuple[float, int, int, int]:
    t = time.perf_counter()
    tokens = cached = prompt = 0
    for res in engine.run(reqs):
        tokens += res.prompt_tokens + res.completion_tokens
        prompt += res.prompt_tokens
        cached += res.cached_prompt_tokens
    return time.perf_counter() - t, tokens, prompt, cached


def raw_pass(llm, engine, reqs) -> tuple[float, int]:
    import json

    from llama_cpp import LlamaGrammar

    t = time.perf_counter()
    tokens = 0
    for req in reqs:
        prefix, rest = engine.split_prompt(req.messages)
        grammar = LlamaGrammar.from_json_schema(json.dumps(req.schema, ensure_ascii=False), verbose=False)
        llm.reset()
        out = llm.create_completion(
            prompt=prefix + rest, max_tokens=req.max_tokens, temperature=0.0, grammar=grammar
        )
        tokens += out["usage"]["prompt_tokens"] + out["usage"]["completion_tokens"]
    return time.perf_counter() - t, tokens


def make_pool(path: Path, reports_dir: Path, n: int) -> None:
    """n rows with unique codes, each with one of the example report texts."""
    texts = sorted((EXAMPLES / "reports").glob("*.txt"))
    reports_dir.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["代码", "名称", "市盈率TTM", "ROE"])
        for i in range(n):
            code = f"{600000 + i:06d}"
            w.writerow([code, f"样本{i}", "20.5", "12.3"])
            src = texts[i % len(texts)].read_text(encoding="utf-8")
            (reports_dir / f"{code}.txt").write_text(src, encoding="utf-8")


def peak_rss_mib(n: int) -> tuple[float, float]:
    with tempfile.TemporaryDirectory() as tmp:
        pool = Path(tmp) / "pool.csv"
        make_pool(pool, Path(tmp) / "reports", n)
        t = time.perf_counter()
        # VmHWM, not getrusage: Linux carries ru_maxrss across exec, so a child of this (large) process
        # would report at least this process's peak.
        code = (
            "import sys; from lmscreen.cli import main\n"
            "try:\n    main(sys.argv[1:])\nexcept SystemExit as e:\n    rc = e.code\n"
            "hwm = [l for l in open('/proc/self/status') if l.startswith('VmHWM')][0]\n"
            "print('MAXRSS', hwm.split()[1])\n"
        )
        proc = subprocess.run(
            [
                sys.executable,
                "-c",
                code,
                "screen",
                str(pool),
                "--reports",
                str(Path(tmp) / "reports"),
                "--out",
                str(Path(tmp) / "out"),
                "--quiet",
            ],
            capture_output=True,
            text=True,
            check=True,
        )
        kib = int(proc.stdout.strip().split()[-1])
        return kib / 1024, time.perf_counter() - t


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=6, help="report rows in the small pool for (c)")
    ap.add_argument("--skip-memory", action="store_true")
    ap.add_argument("--skip-speed", action="store_true", help="only (c)")
    args = ap.parse_args()

    ok = True
    if not args.skip_speed:
        from llama_cpp import Llama

        from lmscreen.engines.embedded import EmbeddedEngine, default_model_path
        from lmscreen.engines.llama_cpu import safe_model_params

        reqs = example_requests()
        engine = EmbeddedEngine()
        with safe_model_params():  # as the engine loads it (engines/llama_cpu.py)
            raw = Llama(
                model_path=str(default_model_path()),
                n_ctx=engine.n_ctx,
                n_batch=engine.n_ctx,
                n_ubatch=engine.n_ctx,
                verbose=False,
            )
        best_pipe = best_raw = 0.0
        prompt = cached = 0
        for _ in range(2):  # interleaved: both sides see the same machine noise
            secs, tokens, prompt, cached = pipeline_pass(engine, reqs)
            best_pipe = max(best_pipe, tokens / secs)
            secs, tokens = raw_pass(raw, engine, reqs)
            best_raw = max(best_raw, tokens / secs)
        ratio = best_pipe / best_raw
        share = cached / prompt if prompt else 0.0
        print(f"requests: {len(reqs)} (example pool rows with a report)")
        print(
            f"(a) pipeline {best_pipe:.0f} tok/s vs raw llama.cpp {best_raw:.0f} tok/s: ratio {ratio:.2f} "
            f"(target >= 0.90) {'PASS' if ratio >= 0.9 else 'FAIL'}"
        )
        ok &= ratio >= 0.9
        print(
            f"(b) prompt tokens not recomputed: {cached}/{prompt} = {share:.1%} (target >= 50%) "
            f"{'PASS' if share >= 0.5 else 'FAIL'}"
        )
        ok &= share >= 0.5
        engine.close()
        raw.close()
    if not args.skip_memory:
        small, t_small = peak_rss_mib(args.rows)
        large, t_large = peak_rss_mib(args.rows * 10)
        growth = large / small
        print(
            f"(c) peak RSS: {args.rows} rows {small:.0f} MiB ({t_small:.0f} s), {args.rows * 10} rows "
            f"{large:.0f} MiB ({t_large:.0f} s): ratio {growth:.3f} (target <= 1.10) "
            f"{'PASS' if growth <= 1.10 else 'FAIL'}"
        )
        ok &= growth <= 1.10
    print(f"this process peak RSS: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
