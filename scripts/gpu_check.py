"""The Python half of scripts/gpu_check.sh: lmscreen's vLLM engine against `vllm.LLM` alone, same prompts.

Steps: write a pool of N generated rows (each with its own report text), find a small Qwen instruct model
(a path given, or the local Hugging Face cache: nothing is downloaded), screen the pool with `--engine
vllm` through the real runner while recording the exact requests it sends, then send those same requests
to the same loaded `vllm.LLM` in one plain `chat` call and print both speeds and their ratio.

Everything except `main` runs without a GPU and is tested in tests/test_gpu_check.py.
"""

from __future__ import annotations

import argparse
import csv
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

from lmscreen.model.arch.read import hf_cache_dirs

CODES_SH = 600000


def write_pool(path: Path, rows: int, seed: int = 0) -> Path:
    """A pool of `rows` stocks, each with an inline report text whose figures differ from row to row."""
    rng = random.Random(seed)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["代码", "名称", "行业", "市盈率TTM", "净资产收益率", "财报摘要"])
        for i in range(rows):
            revenue = rng.uniform(5, 3000)
            margin = rng.uniform(5, 70)
            profit = revenue * margin / 100 * rng.uniform(0.1, 0.5)
            roe = rng.uniform(-5, 35)
            pe = rng.uniform(5, 80)
            growth = rng.uniform(-30, 40)
            text = (
                f"公司{2024}年年度报告摘要：报告期内实现营业收入{revenue:.2f}亿元，同比"
                f"{'增长' if growth >= 0 else '下降'}{abs(growth):.2f}%；归属于上市公司股东的净利润"
                f"{profit:.2f}亿元；毛利率{margin:.2f}%；加权平均净资产收益率{roe:.2f}%。"
                f"截至报告期末，公司市盈率(TTM){pe:.2f}倍。" + "主营业务经营稳定，现金流状况良好。" * (i % 4)
            )
            w.writerow([f"{CODES_SH + i:06d}", f"示例股份{i}", "示例行业", f"{pe:.2f}", f"{roe:.2f}", text])
    return path


def _snapshot_bytes(snapshot: Path) -> int:
    return sum(p.stat().st_size for p in snapshot.glob("*.safetensors") if p.exists())


def find_qwen_model(hub_dirs: list[Path] | None = None) -> Path | None:
    """The smallest complete Qwen instruct snapshot in the local cache (config, tokenizer and weights)."""
    best: tuple[int, Path] | None = None
    for hub in hub_dirs if hub_dirs is not None else hf_cache_dirs():
        for repo in sorted(hub.glob("models--Qwen--*")):
            name = repo.name.split("--", 2)[-1].lower()
            if not ("instruct" in name or name.startswith("qwen3-")) or "base" in name:
                continue
            if any(tag in name for tag in ("vl", "coder", "math", "awq", "gptq", "gguf")):
                continue
            for snapshot in sorted((repo / "snapshots").glob("*")):
                if (
                    not (snapshot / "config.json").exists()
                    or not (snapshot / "tokenizer_config.json").exists()
                ):
                    continue
                size = _snapshot_bytes(snapshot)
                if size == 0:
                    continue
                if best is None or size < best[0]:
                    best = (size, snapshot)
    return best[1] if best else None


def summarize(out_dir: Path) -> dict[str, Any]:
    """Speed and quality figures of a finished lmscreen run, from its run.json and results.jsonl."""
    run = json.loads((out_dir / "run.json").read_text(encoding="utf-8"))
    llm = run["llm"]
    seconds = llm["llm_seconds_this_run"]
    usage = llm["usage"]
    answered = parsed = 0
    for line in (out_dir / "results.jsonl").read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        raw = (row.get("llm") or {}).get("raw")
        if not row.get("llm"):
            continue
        answered += 1
        if raw is not None:
            try:
                json.loads(raw)
                parsed += 1
            except json.JSONDecodeError:
                pass
    return {
        "rows": llm["sent"],
        "seconds": seconds,
        "rows_per_s": llm["sent"] / seconds if seconds else None,
        "prompt_tokens_per_s": usage["prompt_tokens"] / seconds if seconds else None,
        "prefix_cache_share": usage["cached_prompt_tokens"] / usage["prompt_tokens"]
        if usage["prompt_tokens"]
        else None,
        "first_try_json_share": parsed / answered if answered else None,
        "failed": llm["failed"],
    }


class Recording:
    """Wraps the real vLLM engine and keeps the requests the runner sends (for the plain-vLLM baseline)."""

    def __init__(self, engine: Any) -> None:
        self.engine = engine
        self.name, self.model = engine.name, engine.model
        self.requests: list[Any] = []

    def count_tokens(self, text: str) -> int:
        return self.engine.count_tokens(text)

    def describe(self) -> dict[str, Any]:
        return self.engine.describe()

    def run(self, requests: Any) -> Any:
        def kept() -> Any:
            for r in requests:
                self.requests.append(r)
                yield r

        return self.engine.run(kept())

    def close(self) -> None:
        self.engine.close()


def plain_vllm(engine: Any, requests: list[Any]) -> dict[str, Any]:
    """The same requests through `vllm.LLM.chat` alone: one call, the engine's sampling settings."""
    from lmscreen.engines.vllm_engine import sampling_for
    from lmscreen.engines.vllm_schema import grammar_schema

    calls = engine._calls
    calls._llm.reset_prefix_cache()
    convs = [r.messages for r in requests]
    sampling = [
        sampling_for(r, grammar_schema(r.schema, engine.settings.backend).schema, engine.settings.seed)
        for r in requests
    ]
    t0 = time.perf_counter()
    outs = calls.chat(convs, sampling, engine.settings.chat_template_kwargs or None)
    seconds = time.perf_counter() - t0
    prompt = sum(o.prompt_tokens for o in outs)
    return {
        "rows": len(outs),
        "seconds": seconds,
        "rows_per_s": len(outs) / seconds,
        "prompt_tokens_per_s": prompt / seconds,
        "prefix_cache_share": sum(o.cached_tokens for o in outs) / prompt if prompt else None,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("model", nargs="?", help="model folder (default: a Qwen instruct in the HF cache)")
    parser.add_argument("--rows", type=int, default=200)
    parser.add_argument("--work", type=Path, default=Path("gpu_check_out"))
    parser.add_argument("--gpu-memory-utilization", type=float, default=None)
    args = parser.parse_args(argv)
    model = Path(args.model) if args.model else find_qwen_model()
    if model is None:
        print(
            "no Qwen instruct model in the local Hugging Face cache ("
            + ", ".join(str(d) for d in hf_cache_dirs())
            + "); pass a model folder as the first argument",
            file=sys.stderr,
        )
        return 2
    from lmscreen.engines.vllm_engine import make_vllm_engine
    from lmscreen.run.options import ScreenOptions
    from lmscreen.run.screen import screen

    pool = write_pool(args.work / "pool.csv", args.rows)
    opts = ScreenOptions(
        pool=pool,
        out=args.work / "out",
        engine="vllm",
        model=str(model),
        fresh=True,
        progress=False,
        gpu_memory_utilization=args.gpu_memory_utilization,
    )
    t0 = time.perf_counter()
    engine = Recording(make_vllm_engine(opts))
    load_s = time.perf_counter() - t0
    try:
        screen(opts, engine=engine)
        ours = summarize(opts.out)
        alone = plain_vllm(engine.engine, engine.requests)
    finally:
        engine.close()
    print(f"model: {model} (loaded in {load_s:.0f}s)")
    print(
        f"lmscreen --engine vllm: {ours['rows']} rows in {ours['seconds']:.1f}s = "
        f"{ours['rows_per_s']:.2f} rows/s, {ours['prompt_tokens_per_s']:.0f} prompt tok/s, "
        f"prefix-cache share {ours['prefix_cache_share']:.1%}, "
        f"first-try JSON parse share {ours['first_try_json_share']:.1%}, failed {ours['failed']}"
    )
    print(
        f"vllm.LLM alone:         {alone['rows']} rows in {alone['seconds']:.1f}s = "
        f"{alone['rows_per_s']:.2f} rows/s, {alone['prompt_tokens_per_s']:.0f} prompt tok/s, "
        f"prefix-cache share {alone['prefix_cache_share']:.1%}"
    )
    print(f"ratio lmscreen / vllm alone (rows/s): {ours['rows_per_s'] / alone['rows_per_s']:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
