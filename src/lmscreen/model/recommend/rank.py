"""Which catalog models a card runs for a task, with at least a 32k context, ranked, with a decode speed.

For each catalog model tagged with the task, the best format that fits is chosen (the checkpoint's own, then
FP8, then AWQ int4 on vLLM; a GGUF Q4_K_M on llama.cpp for Apple silicon or as the last resort), planned with
`memory.plan` at the minimum context. Decode is memory-bound: every token reads the active weights and the
KV cache of the context so far, so

    tokens/s ≈ bandwidth × efficiency × TP / (active weight bytes + KV bytes at a 4k-token context)

with the efficiency calibrated in workload.py on four published vLLM single-stream rates (0.70). Ranking:
a larger model first (the geometric mean of total and active parameters, a common dense-equivalent size for
MoE models, times 0.95 for 4-bit formats), then the faster one.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pydantic import BaseModel

from lmscreen.errors import InputError
from lmscreen.model.launch.families import TASKS
from lmscreen.model.memory.kv import kv_layout
from lmscreen.model.memory.plan import plan
from lmscreen.model.memory.weights import active_bytes_per_token, normalize_quantization
from lmscreen.model.recommend.workload import DECODE_EFFICIENCY
from lmscreen.model.spec import ModelSpec

if TYPE_CHECKING:
    from lmscreen.model.hardware import GPU
    from lmscreen.model.recommend.workload import Workload

MIN_CONTEXT = 32768
SPEED_CONTEXT = 4096

FOUR_BIT = ("awq", "gptq", "nvfp4", "mxfp4", "q4_k_m")


@dataclass(frozen=True)
class Candidate:
    """A catalog model: its id, the tasks it is tagged for, and its architecture."""

    id: str
    tasks: tuple[str, ...]
    spec: ModelSpec


class Recommendation(BaseModel):
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
    rows_per_hour: float | None = None
    """--task screen: rows per hour for the batch job (recommend/workload.py); None where not modelled."""
    hours: float | None = None
    """--task screen: hours for all the job's rows."""
    concurrency: int | None = None
    notes: list[str]


def catalog_candidates() -> list[Candidate]:
    """Every catalog model with its spec (the built-in catalog; no network)."""
    from lmscreen.model.catalog.models import all_models, spec_for

    return [Candidate(id=e.id, tasks=tuple(e.tasks), spec=spec_for(e.id)) for e in all_models()]


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


def _score(spec: ModelSpec, quant: str) -> float:
    total = (spec.total_params or 0) / 1e9
    active = (spec.active_params or spec.total_params or 0) / 1e9
    size = math.sqrt(total * active) if total and active else 0.0
    return size * (0.95 if quant in FOUR_BIT else 1.0)


def recommend(
    gpu: GPU | None = None,
    vram_gib: float | None = None,
    task: str = "text",
    gpus: int = 1,
    min_context: int = MIN_CONTEXT,
    candidates: Iterable[Candidate] | None = None,
    limit: int | None = None,
    job: Workload | None = None,
) -> list[Recommendation]:
    """Catalog models that fit with at least `min_context` tokens for `task`, best first.

    task "screen" ranks text models by rows per hour for `job` (a batch with a shared prefix) instead.
    """
    screen = task == "screen"
    if screen:
        from lmscreen.model.recommend.workload import Workload as _Workload
        from lmscreen.model.recommend.workload import estimate

        job = job or _Workload(rows=5500, prompt_tokens=2000, output_tokens=300, prefix_tokens=1000)
        job.check()
        task = "text"
    if task not in TASKS:
        raise InputError(f"--task {task!r}: use one of {', '.join((*TASKS, 'screen'))}")
    if gpu is None and vram_gib is None:
        raise InputError("say which GPU: --gpu NAME or --vram-gib X")
    bandwidth = gpu.bandwidth_gbs if gpu is not None else None
    apple = bool(gpu is not None and gpu.unified_memory)
    found: list[Recommendation] = []
    for cand in candidates if candidates is not None else catalog_candidates():
        if task not in cand.tasks:
            continue
        spec = cand.spec
        if (spec.max_position_embeddings or 0) < min_context:
            continue
        own = normalize_quantization(spec.quantization)
        for quant, engine in _variants(spec, apple):
            variant = spec if quant == own else spec.model_copy(update={"quantization": quant})
            p = plan(variant, gpu, vram_gib, gpus=gpus, context=min_context, engine=engine, table=False)
            if not p.fits:
                continue
            notes = [] if quant == own else [f"as {quant.upper()} (the catalog checkpoint is {own})"]
            speed = (
                decode_tokens_per_s(variant, p.quantization, bandwidth, p.tp, p.kv_cache_dtype)
                if bandwidth
                else 0.0
            )
            if not bandwidth:
                notes.append("no bandwidth for --vram-gib: speed unknown")
            batch = None
            if screen and gpu is not None and engine == "vllm":
                batch = estimate(variant, gpu, p, job, kv_cache_dtype=p.kv_cache_dtype)
                notes += batch.notes
            found.append(
                Recommendation(
                    model=cand.id,
                    quantization=p.quantization,
                    engine=engine,
                    weights_gib=round(p.weights_gib, 2),
                    max_context=p.max_context,
                    max_concurrency_at_min_context=p.max_concurrency,
                    decode_tokens_per_s=round(speed, 1),
                    total_params_b=round(spec.total_params / 1e9, 2) if spec.total_params else None,
                    active_params_b=round((spec.active_params or spec.total_params) / 1e9, 2)
                    if spec.total_params
                    else None,
                    score=round(_score(spec, p.quantization), 2),
                    notes=notes,
                    rows_per_hour=round(batch.rows_per_hour) if batch else None,
                    hours=round(batch.hours, 2) if batch else None,
                    concurrency=batch.concurrency if batch else None,
                )
            )
            break
    if screen:
        found.sort(key=lambda r: (-(r.rows_per_hour or 0), -r.score, r.model))
        return found[:limit] if limit else found
    found.sort(key=lambda r: (-r.score, -r.decode_tokens_per_s, r.model))
    return found[:limit] if limit else found
