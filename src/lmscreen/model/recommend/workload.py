"""Rows per hour for a batch job with a shared prompt prefix: the screening pass this product runs.

A screen sends N rows, each `prompt_tokens` long of which `prefix_tokens` (instructions, schema) are the same
for every row, and reads back about `output_tokens`. With vLLM's prefix caching the shared prefix is
computed and stored once, so per row the engine prefills `prompt − prefix` tokens and decodes `output`.

    concurrency C   = min(max_num_seqs, N, (KV cache tokens − prefix) / (prompt − prefix + output))
    prefill rate    = η_prefill × TP × dense BF16 FLOPs / (2 × active parameters)          tokens/s
    decode step     = max(bytes read per step / (η_decode × TP × bandwidth),
                          2 × active parameters × C / (η_prefill × TP × FLOPs))
    bytes per step  = weights touched (dense: all; MoE: shared part + experts × (1 − (1 − k/E)^C))
                      + C × KV bytes of a sequence at its mean length (prompt + output / 2)
    time for N rows = N × (prompt − prefix) / prefill rate + N × output / (C / decode step)

Calibration (η), each from a published vLLM measurement (bench/planner_accuracy.py prints the comparison):

    decode, single stream (η_decode = mean of 4 points, 0.70):
      Llama-3.1-8B bf16, 1 × H100 SXM, vLLM 0.21: TPOT 6.48 ms → 154 tok/s              η 0.74
        https://yobitelcomm.github.io/bench/recipes/concurrency-sweep/
      Llama-3.1-8B bf16, 1 × A100 40GB, vLLM 0.23, 1024 in / 128 out: ≈ 75 tok/s         η 0.77
        https://johnmusgrave.com/p/vllm-throughput-latency-sweep-on
      Qwen2.5-72B-Instruct bf16, 2 × H100, 1024 in / 128 out: TPOT 31.0 ms → 32.3 tok/s  η 0.70
        https://github.com/tenstorrent/tt-inference-server/issues/143
      Qwen3-4B-Instruct-2507 fp8, 1 × RTX 4090, single stream ≈ 138 tok/s                 η 0.60
        https://github.com/noonghunna/club-3090/issues/697
    prefill (η_prefill = mean of 2 points, 0.50):
      Qwen2.5-72B-Instruct bf16, 2 × H100, 1024-token prompt: 7,924 tok/s                 η 0.58
        https://github.com/tenstorrent/tt-inference-server/issues/143
      Qwen3-14B-AWQ, 1 × A100 80GB, vLLM 0.9.1, 16,000-token prompt: TTFT 3,345 ms       η 0.45
        https://github.com/vllm-project/vllm/issues/20469

Not modelled: chunked-prefill interleaving stalls and scheduler overhead at high concurrency (published
serving sweeps show per-token latency rising faster than this model with C), speculative decoding, and
thinking tokens (a reasoning model's output is its answer plus its thinking: pass the total).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from lmscreen.errors import InputError
from lmscreen.model.memory.kv import kv_layout
from lmscreen.model.memory.weights import (
    active_bytes_per_token,
    estimate_total_bytes,
    expert_params,
    reformatted,
)
from lmscreen.model.spec import ModelSpec

if TYPE_CHECKING:
    from lmscreen.model.hardware import GPU
    from lmscreen.model.memory.common import Plan

DECODE_EFFICIENCY = 0.70
PREFILL_EFFICIENCY = 0.50
DEFAULT_MAX_NUM_SEQS = 256
DEFAULT_WITHIN_HOURS = 8.0
"""`model recommend --within`: one night."""


@dataclass(frozen=True)
class Workload:
    rows: int
    prompt_tokens: int
    output_tokens: int
    prefix_tokens: int = 0
    """Tokens every row shares at the start of its prompt (cached once by prefix caching)."""

    def check(self) -> None:
        if self.rows < 1 or self.prompt_tokens < 1 or self.output_tokens < 1:
            raise InputError("--rows, --prompt-tokens and --output-tokens must be at least 1")
        if not 0 <= self.prefix_tokens < self.prompt_tokens:
            raise InputError("--prefix-tokens must be below --prompt-tokens (the row's own text follows it)")


DEFAULT_JOB = Workload(rows=5500, prompt_tokens=2000, output_tokens=300, prefix_tokens=1000)
"""The screening pass this product runs by default: the 5,500-row market, 2,000 prompt tokens a row of which
1,000 are the shared instructions and schema, about 300 output tokens."""


def parse_hours(text: str) -> float:
    """'8h', '90m', '1.5h', '45min' or a bare number of hours → hours; InputError otherwise."""
    import re

    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*(h|hr|hrs|hours?|m|min|mins|minutes?)?\s*", str(text), re.I)
    if not m:
        raise InputError(f"--within {text!r}: give a time such as 8h, 90m or 1.5 (hours)")
    value = float(m.group(1))
    unit = (m.group(2) or "h").lower()
    hours = value / 60 if unit.startswith("m") else value
    if hours <= 0:
        raise InputError(f"--within {text!r}: must be more than zero")
    return hours


@dataclass
class Throughput:
    concurrency: int
    prefill_tokens_per_s: float
    """inf when the card has no FLOPs figure (prefill not counted)."""
    decode_tokens_per_s: float
    rows_per_hour: float
    hours: float
    bound: str
    """memory | compute: what limits a decode step at this concurrency."""
    notes: list[str] = field(default_factory=list)


def prefill_tokens_per_s(spec: ModelSpec, tflops: float, tp: int = 1) -> float:
    """Compute-bound prompt processing: 2 FLOPs per active parameter per token."""
    active = spec.active_params or spec.total_params
    if not active:
        raise InputError(f"{spec.name}: parameter count unknown")
    return PREFILL_EFFICIENCY * tp * tflops * 1e12 / (2 * active)


def _weight_bytes_per_step(spec: ModelSpec, quantization: str | None, concurrency: int) -> float:
    """Weight bytes one decode step reads for `concurrency` sequences (MoE: the experts they touch)."""
    if not spec.num_experts or not spec.num_experts_per_tok:
        return float(active_bytes_per_token(spec, quantization))
    total_bytes, _ = estimate_total_bytes(spec, quantization, engine="none")
    total = spec.total_params or 1
    experts = expert_params(spec)
    expert_bytes = total_bytes * experts / total
    shared = total_bytes - expert_bytes
    touched = 1 - (1 - spec.num_experts_per_tok / spec.num_experts) ** concurrency
    return shared + expert_bytes * touched


def decode_step_seconds(
    spec: ModelSpec,
    gpu_bandwidth_gbs: float,
    tflops: float | None,
    concurrency: int,
    context: int,
    tp: int = 1,
    kv_cache_dtype: str = "auto",
    quantization: str | None = None,
) -> tuple[float, str]:
    """Seconds per decode step for `concurrency` sequences of mean length `context`, and the bound."""
    layout = kv_layout(spec, kv_cache_dtype, tp, 1, "vllm")
    kv = concurrency * layout.bytes_per_seq(context)  # per GPU
    weights = _weight_bytes_per_step(spec, quantization, concurrency) / tp
    memory = (weights + kv) / (DECODE_EFFICIENCY * gpu_bandwidth_gbs * 1e9)
    if not tflops:
        return memory, "memory"
    active = spec.active_params or spec.total_params or 0
    compute = 2 * active * concurrency / (PREFILL_EFFICIENCY * tp * tflops * 1e12)
    return (compute, "compute") if compute > memory else (memory, "memory")


def estimate(
    spec: ModelSpec,
    gpu: GPU,
    plan: Plan,
    job: Workload,
    *,
    max_num_seqs: int = DEFAULT_MAX_NUM_SEQS,
    kv_cache_dtype: str = "auto",
) -> Throughput:
    """Rows per hour of `job` on the deployment `plan` describes (its KV cache sets the concurrency)."""
    job.check()
    notes: list[str] = []
    tp = plan.tp
    per_row = job.prompt_tokens - job.prefix_tokens + job.output_tokens
    room = max(plan.kv_cache_tokens - job.prefix_tokens, 0)
    by_kv = room // per_row
    concurrency = max(1, min(max_num_seqs, job.rows, by_kv))
    if by_kv < 1:
        notes.append("the KV cache holds less than one row: rows run one at a time with preemption")
    elif by_kv < max_num_seqs and by_kv < job.rows:
        notes.append(f"concurrency {concurrency} is set by the KV cache ({plan.kv_cache_tokens:,} tokens)")
    tflops = gpu.bf16_tflops
    if tflops:
        prefill = prefill_tokens_per_s(spec, tflops, tp)
    else:
        prefill = float("inf")
        notes.append(
            f"no BF16 FLOPs recorded for {gpu.name}: prompt processing not counted, "
            "rows/hour is an upper bound"
        )
    mean_len = job.prompt_tokens + job.output_tokens // 2
    step, bound = decode_step_seconds(
        spec, gpu.bandwidth_gbs, tflops, concurrency, mean_len, tp, kv_cache_dtype, spec.quantization
    )
    decode = concurrency / step
    seconds = (
        job.prefix_tokens / prefill
        + job.rows * (job.prompt_tokens - job.prefix_tokens) / prefill
        + job.rows * job.output_tokens / decode
    )
    return Throughput(
        concurrency=concurrency,
        prefill_tokens_per_s=prefill,
        decode_tokens_per_s=decode,
        rows_per_hour=job.rows / seconds * 3600,
        hours=seconds / 3600,
        bound=bound,
        notes=notes,
    )


@dataclass(frozen=True)
class Published:
    """A published vLLM rate the formulas above are calibrated and checked on."""

    model: str
    """Catalog id whose architecture the measured checkpoint has."""
    quantization: str | None
    gpu: str
    tp: int
    kind: str
    """decode (single stream, tokens/s) | prefill (prompt tokens/s)."""
    context: int
    """Tokens in context during the measurement (decode: prompt + half the output; prefill: prompt)."""
    tokens_per_s: float
    source: str
    what: str


PUBLISHED: list[Published] = [
    Published(
        "meta-llama/Llama-3.1-8B-Instruct",
        None,
        "H100 SXM",
        1,
        "decode",
        500,
        1000 / 6.48,
        "https://yobitelcomm.github.io/bench/recipes/concurrency-sweep/",
        "vLLM 0.21.0 fp16, concurrency 1: TPOT p50 6.48 ms",
    ),
    Published(
        "meta-llama/Llama-3.1-8B-Instruct",
        None,
        "A100 40GB",
        1,
        "decode",
        1024 + 64,
        75.0,
        "https://johnmusgrave.com/p/vllm-throughput-latency-sweep-on",
        "vLLM 0.23.0 bf16, 1024 in / 128 out, concurrency 1: about 75 tokens/s",
    ),
    Published(
        "Qwen/Qwen2.5-72B-Instruct",
        None,
        "H100 SXM",
        2,
        "decode",
        1024 + 64,
        1000 / 31.0,
        "https://github.com/tenstorrent/tt-inference-server/issues/143",
        "2 × H100, ISL 1024 / OSL 128, concurrency 1: TPOT 31.0 ms",
    ),
    Published(
        "Qwen/Qwen3-4B",
        "fp8",
        "RTX 4090",
        1,
        "decode",
        500,
        138.0,
        "https://github.com/noonghunna/club-3090/issues/697",
        "Qwen3-4B-Instruct-2507 fp8 (Qwen3-4B layout), vLLM single stream: ~138 TPS",
    ),
    Published(
        "Qwen/Qwen2.5-72B-Instruct",
        None,
        "H100 SXM",
        2,
        "prefill",
        1024,
        7924.4,
        "https://github.com/tenstorrent/tt-inference-server/issues/143",
        "2 × H100, ISL 1024: prefill 7,924 tokens/s",
    ),
    Published(
        "Qwen/Qwen3-14B",
        "awq",
        "A100 80GB",
        1,
        "prefill",
        16000,
        16000 / 3.34537,
        "https://github.com/vllm-project/vllm/issues/20469",
        "Qwen3-14B-AWQ, vLLM 0.9.1, 16,000-token prompt: mean TTFT 3,345 ms",
    ),
]


def estimate_published(point: Published) -> float:
    """This module's estimate for the conditions of a published measurement."""
    from lmscreen.model.catalog.models import spec_for
    from lmscreen.model.hardware import gpu as gpu_named

    spec = spec_for(point.model)
    if point.quantization:
        spec = reformatted(spec, point.quantization)
    card = gpu_named(point.gpu)
    if point.kind == "prefill":
        if not card.bf16_tflops:
            raise InputError(f"{card.name}: no FLOPs figure")
        return prefill_tokens_per_s(spec, card.bf16_tflops, point.tp)
    step, _ = decode_step_seconds(
        spec, card.bandwidth_gbs, card.bf16_tflops, 1, point.context, point.tp, "auto", spec.quantization
    )
    return 1 / step
