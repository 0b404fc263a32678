"""The memory plan: will a model fit a GPU, with what context and how many parallel requests, per engine.

Each engine sizes its cache its own way and the answer changes with it (research/fit-planners.md 2.5–2.7), so
the arithmetic lives per engine: vllm.py (pool and paged blocks, hybrid block rules), llama.py
(llama.cpp cells shared by slots, -ngl / --n-cpu-moe offload, Ollama). This module checks the arguments,
resolves the GPU memory and dispatches; common.py holds the Plan every engine returns.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lmscreen.errors import InputError
from lmscreen.model.arch.estimate import ESTIMATE
from lmscreen.model.memory.common import (
    ENGINES,
    FALLBACK_NATIVE_CONTEXT,
    KV_TYPES,
    VLLM_BLOCK_SIZE,
    Component,
    ContextRow,
    Plan,
    PlanInputs,
)
from lmscreen.model.memory.llama import plan_llama
from lmscreen.model.memory.vllm import VllmBlocks, plan_vllm
from lmscreen.model.spec import ModelSpec

if TYPE_CHECKING:
    from lmscreen.model.hardware import GPU


def _native_context(spec: ModelSpec) -> tuple[int, bool]:
    if spec.max_position_embeddings:
        return spec.max_position_embeddings, True
    return FALLBACK_NATIVE_CONTEXT, False


def _estimated_limit(spec: ModelSpec) -> bool:
    """Whether the model's context limit is a template's guess (arch.estimate), not its config's.

    vLLM refuses a --max-model-len above the max_position_embeddings of the model's own config.json
    (ModelConfig's derived max length); a name estimate only borrows a sibling's limit, so a requested longer
    context is not a refusal: ByteDance-Seed/Seed-OSS-36B-Instruct, estimated like Qwen2.5-32B (32,768
    positions), started at 65,536 on two A100 (bench heldout-17); the model supports 512K
    (vllm-project/recipes Seed/Seed-OSS-36B.md: "max is 512k"). The name's own context hint (`-1M`,
    `-128k`) is not a guess and still binds."""
    return str(spec.sources.get("max_position_embeddings", "")).startswith(ESTIMATE)


def _total_gib(gpu: GPU | None, vram_gib: float | None, engine: str) -> float:
    if vram_gib is not None:
        if vram_gib <= 0:
            raise InputError(f"--vram-gib must be positive (got {vram_gib})")
        return float(vram_gib)
    if gpu is None:
        raise InputError("say which GPU: --gpu NAME or --vram-gib X")
    if engine == "vllm":
        return float(gpu.visible_gib or gpu.memory_gib)
    return float(gpu.usable_gib)


def _check_kv_type(kv_cache_dtype: str, engine: str) -> str:
    key = (kv_cache_dtype or "auto").strip().lower()
    if key not in KV_TYPES[engine]:
        raise InputError(
            f"--kv-cache-dtype {kv_cache_dtype!r} is not a {engine} KV cache type; "
            f"use one of: {', '.join(KV_TYPES[engine])}"
        )
    return key


def _expert_parallel(spec: ModelSpec, requested: bool, engine: str, tp: int) -> tuple[bool, list[str]]:
    """Whether --enable-expert-parallel takes effect, and the notes that say how.

    vLLM's expert-parallel group is the TP × DP ranks of a stage: each rank then holds whole experts
    (E / TP of them) instead of 1/TP of every expert, while attention stays tensor-parallel. A dense model
    has no experts, so vLLM ignores the flag; it is a vLLM flag only (llama.cpp has no such layout)."""
    if not requested:
        return False, []
    if engine != "vllm":
        raise InputError("--enable-expert-parallel is a vLLM flag: use --engine vllm")
    experts = spec.num_experts or 0
    if not (experts and spec.num_experts_per_tok):
        return False, [
            f"--enable-expert-parallel ignored: {spec.name} is a dense model (no experts to place), "
            "planned as plain tensor parallel"
        ]
    if tp == 1:
        return True, [
            "expert parallel: the expert group is the TP × DP ranks, here one GPU, so every expert stays "
            "on it and the flag changes nothing; it matters from --tp 2"
        ]
    share = f"{experts // tp}" if experts % tp == 0 else f"{experts // tp}–{-(-experts // tp)}"
    return True, [
        f"expert parallel: each of the {tp} ranks holds {share} of the {experts} experts whole (not 1/{tp} "
        "of every expert); attention stays tensor-parallel; the profiled fused-MoE workspace is per "
        "whole expert, so the activation peak is not divided by TP"
    ]


def plan(
    spec: ModelSpec,
    gpu: GPU | None = None,
    vram_gib: float | None = None,
    gpus: int = 1,
    tp: int | None = None,
    context: int | None = None,
    concurrency: int | None = None,
    gpu_memory_utilization: float | None = None,
    kv_cache_dtype: str = "auto",
    engine: str = "vllm",
    *,
    pp: int | None = None,
    vllm_version: str | None = None,
    block_size: int = VLLM_BLOCK_SIZE,
    max_num_batched_tokens: int | None = None,
    max_num_seqs: int | None = None,
    prefix_caching: bool = True,
    cudagraph_profiling: bool | None = None,
    expert_parallel: bool = False,
    mtp_draft: bool = False,
    speculative_tokens: int | None = None,
    flashinfer_sampler: bool | None = None,
    enforce_eager: bool = False,
    compile_cache_warm: bool = False,
    table: bool = True,
) -> Plan:
    """Plan `spec` on `gpus` × (`gpu` or `vram_gib` GiB) for `engine`.

    `context` None picks the longest context that fits (capped at the model's own limit); `concurrency` None
    plans one request and reports how many fit. vLLM: `tp` defaults to `gpus // pp`, `pp` to `gpus // tp`
    (pipeline stages take what tensor parallelism leaves); `--pp 2` alone means two GPUs. `vllm_version`
    picks the release range whose accounting is used (memory.releases; default the newest). The other
    keyword-only arguments pin what a measured run used (the accuracy bench); `expert_parallel` is
    vLLM's --enable-expert-parallel (whole experts per rank: a larger fused-MoE workspace); `mtp_draft`
    is `--speculative-config` method mtp (the checkpoint's MTP layers loaded as the draft model, 16-bit,
    their attention layers caching in the pool), `speculative_tokens` its num_speculative_tokens (default
    the MTP layer count, as vLLM's); `flashinfer_sampler` False a run that samples top-k / top-p without
    FlashInfer (not installed, or VLLM_USE_FLASHINFER_SAMPLER=0), which releases whose profiled sampler is
    FlashInfer's (0.10.0–0.10.1) then profile as PyTorch's full-vocabulary sort. `enforce_eager` is vLLM's
    --enforce-eager (no torch.compile, no CUDA graphs); `compile_cache_warm` a restart that finds the
    compile cache: both leave out the compile peak a first start profiles from 0.24
    (releases.compile_scratch_gib), which is planned by default because the first start is the one that
    must fit.
    """
    engine = (engine or "vllm").lower().replace(".", "").replace("-", "")
    if engine not in ENGINES:
        raise InputError(f"--engine {engine!r}: fit plans vllm, llamacpp or ollama")
    if gpus < 1:
        raise InputError(f"--gpus must be >= 1 (got {gpus})")
    if pp is not None:
        if pp < 1:
            raise InputError(f"--pp must be >= 1 (got {pp})")
        if engine != "vllm" and pp > 1:
            raise InputError("--pp plans vLLM pipeline stages; llama.cpp and Ollama split layers over --gpus")
        if gpus == 1 and pp > 1:
            gpus = pp * (tp or 1)
        tp = gpus // pp if tp is None else tp
        if tp < 1 or tp * pp != gpus:
            raise InputError(f"--tp {tp} × --pp {pp} must equal --gpus {gpus}")
    tp = gpus if tp is None else tp
    if tp < 1 or gpus % tp:
        raise InputError(f"--tp {tp} must divide --gpus {gpus}")
    if context is not None and context < 1:
        raise InputError(f"--context must be positive (got {context})")
    if concurrency is not None and concurrency < 1:
        raise InputError(f"--concurrency must be positive (got {concurrency})")
    kv_type = _check_kv_type(kv_cache_dtype, engine)
    expert_parallel, ep_notes = _expert_parallel(spec, expert_parallel, engine, tp)
    native, known = _native_context(spec)
    limit_note = None
    if context is not None and context > native and _estimated_limit(spec):
        limit_note = (
            f"the model's context limit is estimated ({native:,} tokens, from the template): planned at the "
            f"{context:,} asked for; vLLM refuses a length above the real config's limit"
        )
        native = context
    inp = PlanInputs(
        spec=spec,
        gpu=gpu,
        total_gib=_total_gib(gpu, vram_gib, engine),
        gpus=gpus,
        tp=tp,
        pp=gpus // tp,
        native=native,
        context=context,
        concurrency=concurrency,
        kv_cache_dtype=kv_type,
    )
    if engine == "vllm":
        result = plan_vllm(
            inp,
            gpu_memory_utilization,
            vllm_version,
            block_size,
            max_num_batched_tokens,
            max_num_seqs,
            prefix_caching,
            table,
            cudagraph_profiling,
            expert_parallel,
            mtp_draft,
            speculative_tokens,
            flashinfer_sampler,
            enforce_eager,
            compile_cache_warm,
        )
    else:
        result = plan_llama(inp, engine, table)
    result.expert_parallel = expert_parallel
    result.notes.extend(ep_notes)
    if not known:
        result.notes.append(f"the model's context limit is unknown: capped at {FALLBACK_NATIVE_CONTEXT:,}")
    if limit_note:
        result.notes.append(limit_note)
    elif context is None and _estimated_limit(spec):
        result.notes.append(
            f"the model's context limit is estimated ({native:,} tokens, "
            f"{spec.sources['max_position_embeddings']}): its real limit may be longer; pass --context to "
            "plan another length, or --config for the model's own"
        )
    estimated = [k for k, v in spec.sources.items() if v == "name"]
    if estimated:
        result.notes.append(f"estimated from the name only: {', '.join(sorted(estimated))}")
    result.notes.append(f"modelled on {result.engine_version_modelled}")
    return result


__all__ = ["ContextRow", "Component", "Plan", "VllmBlocks", "plan"]
