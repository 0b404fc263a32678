"""Rows per hour for a screening batch (shared prefix, short answers): concurrency from the KV cache,
prefill from FLOPs, decode from bandwidth; an MoE serves many more rows than a dense model of its size."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from inproc import run_lmscreen
from lmscreen.errors import InputError
from lmscreen.model.catalog import spec_for
from lmscreen.model.hardware import gpu
from lmscreen.model.memory import plan
from lmscreen.model.recommend import recommend
from lmscreen.model.recommend.workload import Workload, decode_step_seconds, estimate

JOB = Workload(rows=5500, prompt_tokens=2000, output_tokens=300, prefix_tokens=1000)


def _rows_per_hour(model: str, card: str, quant: str | None = None) -> tuple[float, int]:
    spec = spec_for(model)
    if quant:
        spec = replace(spec, **{"quantization": quant})
    g = gpu(card)
    p = plan(spec, g, engine="vllm", context=4096, table=False)
    out = estimate(spec, g, p, JOB)
    return out.rows_per_hour, out.concurrency


def test_moe_a3b_serves_many_times_the_rows_of_a_dense_27b() -> None:
    """The issue's claim, from the model itself: same card, same job, A3B MoE vs dense 27B."""
    moe, _ = _rows_per_hour("Qwen/Qwen3.6-35B-A3B", "H100", "fp8")
    dense, _ = _rows_per_hour("Qwen/Qwen3.6-27B", "H100", "fp8")
    assert moe > 2.5 * dense


def test_concurrency_is_bounded_by_kv_cache_and_rows() -> None:
    small = Workload(rows=3, prompt_tokens=2000, output_tokens=300, prefix_tokens=1000)
    spec = spec_for("Qwen/Qwen3-8B")
    g = gpu("RTX 4090")
    p = plan(spec, g, engine="vllm", context=4096, table=False)
    assert estimate(spec, g, p, small).concurrency == 3
    big = estimate(spec, g, p, JOB)
    assert big.concurrency == (p.kv_cache_tokens - 1000) // (1000 + 300)
    assert any("KV cache" in n for n in big.notes)


def test_shared_prefix_raises_rows_per_hour() -> None:
    spec = spec_for("Qwen/Qwen3-8B")
    g = gpu("H100")
    p = plan(spec, g, engine="vllm", context=4096, table=False)
    shared = estimate(spec, g, p, JOB).rows_per_hour
    unshared = estimate(spec, g, p, Workload(5500, 2000, 300, 0)).rows_per_hour
    assert shared > unshared


def test_decode_step_grows_with_concurrency_and_hits_compute_bound() -> None:
    spec = spec_for("meta-llama/Llama-3.1-8B-Instruct")
    g = gpu("H100")
    one, bound1 = decode_step_seconds(spec, g.bandwidth_gbs, g.bf16_tflops, 1, 2000)
    many, bound2 = decode_step_seconds(spec, g.bandwidth_gbs, g.bf16_tflops, 4096, 2000)
    assert bound1 == "memory" and many > one


def test_bad_workload_is_one_line_input_error() -> None:
    with pytest.raises(InputError, match="prefix"):
        Workload(10, 100, 10, 100).check()
    with pytest.raises(InputError, match="at least 1"):
        Workload(0, 100, 10).check()


def test_recommend_screen_times_every_vllm_row_within_the_budget() -> None:
    """Screen rows on vLLM carry the job's rows/hour and hours, and every one finishes within the budget."""
    found = recommend(gpu("H100"), task="screen", job=JOB, within_hours=2.0)
    timed = [r for r in found if r.engine == "vllm"]
    assert timed and all(r.rows_per_hour and r.hours is not None for r in timed)
    assert all(0 < r.hours <= 2.0 and r.in_time for r in timed)
    assert all(r.hours == pytest.approx(JOB.rows / r.rows_per_hour, abs=0.006) for r in timed)


def test_fit_workload_cli() -> None:
    base = ["model", "fit", "Qwen/Qwen3-8B", "--gpu", "H100"]
    job = ["--workload", "screen", "--rows", "5500", "--prompt-tokens", "2000", "--output-tokens", "300"]
    js = run_lmscreen([*base, *job, "--json"])  # in this process, fd 1 and 2 captured (tests/inproc.py)
    assert js.returncode == 0, js.stderr
    work = json.loads(js.stdout)["workload"]
    assert work["rows"] == 5500 and work["rows_per_hour"] > 0
    assert work["hours"] == pytest.approx(5500 / work["rows_per_hour"], rel=1e-2)
    text = run_lmscreen([*base, *job])
    assert "rows/hour" in text.stdout and "h for 5,500 rows" in text.stdout
    missing = run_lmscreen([*base, "--workload", "screen"])
    assert missing.returncode == 2 and "--rows" in missing.stderr


def test_estimate_within_30_percent_of_published_vllm_rates() -> None:
    """Each calibration point is a cited public measurement; five model/GPU pairs at least."""
    from lmscreen.model.recommend.workload import PUBLISHED, estimate_published

    assert len({(p.model, p.gpu) for p in PUBLISHED}) >= 5
    for point in PUBLISHED:
        assert point.source.startswith("https://")
        est = estimate_published(point)
        assert abs(est - point.tokens_per_s) / point.tokens_per_s <= 0.30, point
