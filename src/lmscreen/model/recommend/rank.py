"""Catalog models a card runs for a task, by expected quality among those that finish the job in time.

For each catalog model tagged with the task (a screen reads text), the best format is chosen that fits with at
least a 32k context AND finishes the job within the time budget: the checkpoint's own, then FP8, then AWQ
int4 on vLLM (a smaller format is also a faster one); a GGUF Q4_K_M on llama.cpp for Apple silicon or as the
last resort. The job defaults to the screening pass this product runs (5,500 rows of 2,000 prompt tokens,
1,000 of them a shared instruction prefix, 300 output tokens) and the budget to one night (8 h); its time is
workload.estimate's (KV-cache concurrency, prefill and decode rates on the card).

The models that finish in time are ranked by expected quality (recommend/quality.py): a published benchmark
score from the catalog, the benchmark chosen per task (C-Eval / CMMLU for screening Chinese filings where
enough models publish them, else MMLU-Pro), and an estimate — marked as one — where a model publishes none.
Ties go to the higher-precision format, then the faster. Models whose time cannot be modelled (llama.cpp, or
no card named) follow, ranked the same way; models that fit but need longer than the budget are listed apart.

Decode speed per request (tok/s) stays a column: every token reads the active weights and the KV cache of
the context so far, so tokens/s ≈ bandwidth × 0.70 × TP / (active weight bytes + KV bytes at 4k tokens).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from lmscreen.errors import InputError
from lmscreen.model.launch.families import TASKS
from lmscreen.model.memory.kv import kv_layout
from lmscreen.model.memory.plan import plan
from lmscreen.model.memory.weights import active_bytes_per_token, normalize_quantization, reformatted
from lmscreen.model.recommend.quality import choose_benchmark, expected_quality, published
from lmscreen.model.recommend.workload import (
    DECODE_EFFICIENCY,
    DEFAULT_JOB,
    DEFAULT_MAX_NUM_SEQS,
    DEFAULT_WITHIN_HOURS,
    Workload,
    estimate,
)
from lmscreen.model.spec import ModelSpec

if TYPE_CHECKING:
    from lmscreen.model.catalog.models import Score
    from lmscreen.model.hardware import GPU
    from lmscreen.model.memory.common import Plan
    from lmscreen.model.recommend.workload import Throughput

MIN_CONTEXT = 32768
SPEED_CONTEXT = 4096

FOUR_BIT = ("awq", "gptq", "nvfp4", "mxfp4", "q4_k_m")
PRECISION_RANK = {"bf16": 0, "fp16": 0, "fp8": 1, "int8": 1, "w8a8": 1, "q8_0": 1}
"""Tie-break between equal expected quality: the higher-precision format first (4-bit formats rank 2)."""


@dataclass(frozen=True)
class Candidate:
    """A model to rank: its id, the tasks it is tagged for, its architecture and published scores."""

    id: str
    tasks: tuple[str, ...]
    spec: ModelSpec
    scores: tuple[Score, ...] = ()
    releases: tuple[str, ...] = ()
    """The publisher's own quantized releases (catalog `quantized_releases`), named when one is chosen."""
    thinking: str | None = None
    """Catalog `thinking` (always | never | hybrid) when recorded."""

    @property
    def reasons_first(self) -> bool:
        """A reasoning model that always thinks before answering (by the catalog or its name)."""
        if self.thinking:
            return self.thinking == "always"
        return re.search(r"Thinking|QwQ|gpt-oss|(?:^|[-/])R1(?:-|$)", self.id) is not None


@dataclass(kw_only=True)
class Recommendation:
    model: str
    quantization: str
    engine: str
    weights_gib: float
    max_context: int
    max_concurrency_at_min_context: float
    decode_tokens_per_s: float
    total_params_b: float | None
    active_params_b: float | None
    score: float
    """Expected quality on `quality_benchmark` (the ranking key): published, converted or estimated."""
    quality_benchmark: str
    quality_basis: str
    """published | converted (from another benchmark) | size (from the parameter count) | unknown."""
    quality_source: str | None = None
    reason: str = ""
    """Why this row is where it is: its quality and where that comes from, and its time for the job."""
    rows_per_hour: float | None = None
    """Rows per hour for the job (recommend/workload.py); None where not modelled (llama.cpp, no card)."""
    hours: float | None = None
    """Hours for all the job's rows."""
    concurrency: int | None = None
    in_time: bool | None = None
    """True when the job finishes within the budget; None when its time is not modelled."""
    notes: list[str]


@dataclass
class Ranking:
    """`model recommend`'s answer: the ranked models and what the ranking used."""

    models: list[Recommendation]
    too_slow: list[Recommendation]
    """Models that fit but need longer than the budget in every format that fits (fastest format shown)."""
    benchmark: str
    benchmark_why: str
    within_hours: float
    job: Workload
    task: str
    considered: int = 0
    """Models that fit with the minimum context (ranked + too slow)."""
    finished: int = 0
    """Models that finish the job within the budget (before `limit`)."""
    notes: list[str] = field(default_factory=list)


def catalog_candidates() -> list[Candidate]:
    """Every catalog model with its spec and published scores (the built-in catalog; no network)."""
    from lmscreen.model.catalog.models import all_models, spec_for

    return [
        Candidate(
            id=e.id,
            tasks=tuple(e.tasks),
            spec=spec_for(e.id),
            scores=tuple(e.scores),
            releases=tuple(e.quantized_releases),
            thinking=e.thinking,
        )
        for e in all_models()
    ]


def decode_tokens_per_s(
    spec: ModelSpec,
    quantization: str,
    bandwidth_gbs: float,
    tp: int = 1,
    kv_cache_dtype: str = "auto",
    context: int = SPEED_CONTEXT,
) -> float:
    """Expected single-request decode speed: bytes read per token over effective bandwidth."""
    weight_bytes = active_bytes_per_token(spec, quantization)
    layout = kv_layout(spec, kv_cache_dtype, 1, 1)
    kv_bytes = layout.bytes_per_seq(context)
    return bandwidth_gbs * 1e9 * DECODE_EFFICIENCY * tp / (weight_bytes + kv_bytes)


def _variants(spec: ModelSpec, apple: bool) -> list[tuple[str, str]]:
    """(quantization, engine) to try, best quality first."""
    own = normalize_quantization(spec.quantization)
    if apple:
        return [("q8_0", "llamacpp"), ("q4_k_m", "llamacpp")]
    order = [own]
    if own == "bf16":
        order += ["fp8", "awq"]
    elif own in ("fp8", "int8", "w8a8"):
        order += ["awq"]
    return [(q, "vllm") for q in order] + [("q4_k_m", "llamacpp")]


@dataclass
class _Fit:
    cand: Candidate
    spec: ModelSpec
    plan: Plan
    engine: str
    speed: float
    batch: Throughput | None
    notes: list[str]


def _release_named(cand: Candidate, quant: str) -> str | None:
    """The publisher's own release in this format, when the catalog records one (AWQ, GPTQ-Int4, FP8)."""
    tags = {"awq": ("-AWQ",), "gptq": ("-GPTQ-Int4",), "fp8": ("-FP8",)}.get(quant, ())
    return next((r for r in cand.releases if any(r.upper().endswith(t.upper()) for t in tags)), None)


def _fit(
    cand: Candidate,
    gpu: GPU | None,
    vram_gib: float | None,
    gpus: int,
    min_context: int,
    job: Workload,
    within_hours: float,
    vllm_version: str | None,
    apple: bool,
) -> tuple[_Fit | None, _Fit | None]:
    """(best format that fits and finishes in time or is not timed, fastest format that fits but is late)."""
    spec = cand.spec
    own = normalize_quantization(spec.quantization)
    bandwidth = gpu.bandwidth_gbs if gpu is not None else None
    late: _Fit | None = None
    for quant, engine in _variants(spec, apple):
        if late is not None and engine != "vllm":
            break  # runs on vLLM, only too slowly: llama.cpp (untimed, no faster for a batch) is no way out
        variant = spec if quant == own else reformatted(spec, quant)
        version = vllm_version if engine == "vllm" else None
        p = plan(
            variant,
            gpu,
            vram_gib,
            gpus=gpus,
            context=min_context,
            engine=engine,
            table=False,
            vllm_version=version,
        )
        if not p.fits:
            continue
        notes = [] if quant == own else [f"as {quant.upper()} (the catalog checkpoint is {own})"]
        release = _release_named(cand, quant) if quant != own else None
        if release:
            notes.append(f"publisher release: {release}")
        speed = (
            decode_tokens_per_s(variant, p.quantization, bandwidth, p.tp, p.kv_cache_dtype)
            if bandwidth
            else 0.0
        )
        if cand.reasons_first:
            notes.append(
                "a reasoning model writes its thinking before the answer: the time counts "
                f"{job.output_tokens} output tokens a row (pass --output-tokens with the thinking)"
            )
        batch = None
        if gpu is not None and engine == "vllm":
            seqs = p.max_num_seqs or DEFAULT_MAX_NUM_SEQS
            batch = estimate(variant, gpu, p, job, max_num_seqs=seqs, kv_cache_dtype=p.kv_cache_dtype)
            notes += batch.notes
        found = _Fit(cand, variant, p, engine, speed, batch, notes)
        if batch is None or batch.hours <= within_hours:
            return found, None
        if late is None or batch.hours < (late.batch.hours if late.batch else float("inf")):
            late = found
    return None, late


def _row(f: _Fit, benchmark: str, within_hours: float, job: Workload) -> Recommendation:
    """One ranked row: the fit's plan and batch time with its expected quality on `benchmark`.

    The ranked list and the too-slow list are built by this one function, so a row means the same in both
    (quality from the same published scores, the same timing sentence)."""
    spec, p, batch = f.spec, f.plan, f.batch
    quality = expected_quality(published(f.cand.scores), f.cand.spec, benchmark)
    if batch is not None:
        timing = f"{round(batch.hours, 2):.1f} h for {job.rows:,} rows"
        timing += f" (≤ {within_hours:g} h)" if batch.hours <= within_hours else f" (> {within_hours:g} h)"
    elif f.engine != "vllm":
        timing = "time not modelled on llama.cpp"
    else:
        timing = "time not modelled: no card named"
    return Recommendation(
        model=f.cand.id,
        quantization=p.quantization,
        engine=f.engine,
        weights_gib=round(p.weights_gib, 2),
        max_context=p.max_context,
        max_concurrency_at_min_context=p.max_concurrency,
        decode_tokens_per_s=round(f.speed, 1),
        total_params_b=round(spec.total_params / 1e9, 2) if spec.total_params else None,
        active_params_b=round((spec.active_params or spec.total_params) / 1e9, 2)
        if spec.total_params
        else None,
        score=quality.value,
        quality_benchmark=quality.benchmark,
        quality_basis=quality.basis,
        quality_source=quality.source,
        reason=f"{quality.detail}; {timing}",
        rows_per_hour=float(round(batch.rows_per_hour)) if batch else None,  # whole rows, a float field
        hours=round(batch.hours, 2) if batch else None,
        concurrency=batch.concurrency if batch else None,
        in_time=(batch.hours <= within_hours) if batch else None,
        notes=f.notes,
    )


def rank(
    gpu: GPU | None = None,
    vram_gib: float | None = None,
    task: str = "text",
    gpus: int = 1,
    min_context: int = MIN_CONTEXT,
    candidates: Iterable[Candidate] | None = None,
    limit: int | None = None,
    job: Workload | None = None,
    *,
    within_hours: float = DEFAULT_WITHIN_HOURS,
    vllm_version: str | None = None,
) -> Ranking:
    """Models for `task` that fit with `min_context` tokens and finish `job` in `within_hours`, best first."""
    if task not in (*TASKS, "screen"):
        raise InputError(f"--task {task!r}: use one of {', '.join((*TASKS, 'screen'))}")
    if gpu is None and vram_gib is None:
        raise InputError("say which GPU: --gpu NAME or --vram-gib X")
    if not within_hours > 0:
        raise InputError(f"--within must be a positive time (got {within_hours:g} h)")
    job = job or DEFAULT_JOB
    job.check()
    tag = "text" if task == "screen" else task
    apple = bool(gpu is not None and gpu.unified_memory)
    fits: list[_Fit] = []
    late: list[_Fit] = []
    for cand in candidates if candidates is not None else catalog_candidates():
        if tag not in cand.tasks or "base" in cand.tasks:
            continue
        if (cand.spec.max_position_embeddings or 0) < min_context:
            continue
        good, slow = _fit(cand, gpu, vram_gib, gpus, min_context, job, within_hours, vllm_version, apple)
        if good is not None:
            fits.append(good)
        elif slow is not None:
            late.append(slow)
    benchmark, why = choose_benchmark(task, [published(f.cand.scores) for f in fits])
    rows = [_row(f, benchmark, within_hours, job) for f in fits]
    rows.sort(
        key=lambda r: (
            r.in_time is None,
            -r.score,
            PRECISION_RANK.get(r.quantization, 2),
            r.hours if r.hours is not None else float("inf"),
            r.model,
        )
    )
    timed = sum(1 for r in rows if r.in_time)
    if rows and rows[0].in_time:
        rows[0].reason = f"best expected quality of the {timed} that finish in time: {rows[0].reason}"
    slow_rows = [_row(f, benchmark, within_hours, job) for f in late]
    slow_rows.sort(key=lambda r: (-r.score, r.hours or 0.0, r.model))
    notes = []
    if gpu is None:
        notes.append("no card named (--vram-gib): batch time not modelled, ranked by expected quality alone")
    return Ranking(
        models=rows[:limit] if limit else rows,
        too_slow=slow_rows,
        benchmark=benchmark,
        benchmark_why=why,
        within_hours=within_hours,
        job=job,
        task=task,
        considered=len(rows) + len(slow_rows),
        finished=timed,
        notes=notes,
    )


def recommend(
    gpu: GPU | None = None,
    vram_gib: float | None = None,
    task: str = "text",
    gpus: int = 1,
    min_context: int = MIN_CONTEXT,
    candidates: Iterable[Candidate] | None = None,
    limit: int | None = None,
    job: Workload | None = None,
    *,
    within_hours: float = DEFAULT_WITHIN_HOURS,
    vllm_version: str | None = None,
) -> list[Recommendation]:
    """The ranked models of `rank` (those that finish in time first, then those not timed)."""
    return rank(
        gpu,
        vram_gib,
        task,
        gpus,
        min_context,
        candidates,
        limit,
        job,
        within_hours=within_hours,
        vllm_version=vllm_version,
    ).models
