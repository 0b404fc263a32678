"""The testable half of scripts/gpu_check.sh (pool generation, model discovery, the summary it prints).

These tests DO NOT EXERCISE vLLM: the screening run goes through the vLLM engine with the scripted seam
from test_vllm_engine.py; scripts/gpu_check.sh itself runs only on an NVIDIA machine.
"""

from __future__ import annotations

import json
import sqlite3
import sys
from pathlib import Path

from lmscreen.engines.vllm_engine import VllmEngine, VllmSettings
from lmscreen.pool.load import load_pool
from lmscreen.run.options import ScreenOptions
from lmscreen.run.screen import screen
from test_vllm_engine import ScriptedVllm

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

import gpu_check  # noqa: E402


def test_generated_pool_loads_clean_with_distinct_reports(tmp_path: Path) -> None:
    path = gpu_check.write_pool(tmp_path / "pool.csv", 200)
    pool = load_pool(path)
    assert pool.frame.height == 200 and pool.error_frame.height == 0
    texts = pool.frame["report_text"].to_list()
    assert len(set(texts)) == 200 and all("营业收入" in t for t in texts)
    assert gpu_check.write_pool(tmp_path / "again.csv", 200).read_bytes() == path.read_bytes()


def _snapshot(hub: Path, repo: str, weight_bytes: int, tokenizer: bool = True) -> Path:
    snap = hub / f"models--{repo.replace('/', '--')}" / "snapshots" / "abc123"
    snap.mkdir(parents=True)
    (snap / "config.json").write_text("{}", encoding="utf-8")
    if tokenizer:
        (snap / "tokenizer_config.json").write_text("{}", encoding="utf-8")
    with (snap / "model.safetensors").open("wb") as fh:
        fh.truncate(weight_bytes)
    return snap


def test_finds_the_smallest_complete_qwen_instruct_in_the_cache(tmp_path: Path) -> None:
    hub = tmp_path / "hub"
    assert gpu_check.find_qwen_model([hub]) is None
    _snapshot(hub, "Qwen/Qwen2.5-0.5B", 10)  # base model
    _snapshot(hub, "Qwen/Qwen2.5-VL-3B-Instruct", 20)  # vision
    _snapshot(hub, "Qwen/Qwen2.5-0.5B-Instruct", 30, tokenizer=False)  # incomplete download
    want = _snapshot(hub, "Qwen/Qwen2.5-1.5B-Instruct", 3000)
    _snapshot(hub, "Qwen/Qwen2.5-7B-Instruct", 15000)
    _snapshot(hub, "meta-llama/Llama-3.2-1B-Instruct", 5)
    assert gpu_check.find_qwen_model([hub]) == want


def test_summary_is_computed_from_the_run_outputs(tmp_path: Path) -> None:
    pool = gpu_check.write_pool(tmp_path / "pool.csv", 12)
    opts = ScreenOptions(pool=pool, out=tmp_path / "out", engine="vllm", progress=False)
    screen(opts, engine=VllmEngine(VllmSettings(model="m", chunk_rows=5), calls=ScriptedVllm()))
    got = gpu_check.summarize(opts.out)
    run = json.loads((opts.out / "run.json").read_text(encoding="utf-8"))
    with sqlite3.connect(opts.out / "checkpoint.sqlite") as con:
        prompt, cached = con.execute(
            "SELECT sum(prompt_tokens), sum(cached_prompt_tokens) FROM llm_results"
        ).fetchone()
    assert got["rows"] == 12 and got["failed"] == 0
    assert got["first_try_json_share"] == 1.0
    assert got["prefix_cache_share"] == cached / prompt
    assert got["rows_per_s"] == 12 / run["llm"]["llm_seconds_this_run"]
