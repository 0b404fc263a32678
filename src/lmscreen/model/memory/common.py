"""What every engine's plan shares: the Plan model (`model fit --json`), its inputs and small helpers."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from lmscreen.model.memory.kv import KVLayout
from lmscreen.model.spec import ModelSpec

if TYPE_CHECKING:
    from lmscreen.model.hardware import GPU

GIB = 1 << 30
MIB = 1 << 20

ENGINES = ("vllm", "llamacpp", "ollama")
ENGINE_VERSIONS = {
    "vllm": "vLLM 0.33 (newest release range modelled; --vllm-version picks another, memory.releases)",
    "llamacpp": "llama.cpp 0c1e57098 (llama-cpp-python 0.3.36)",
    "ollama": "Ollama 0.33.0-rc2 (fb30760, llama.cpp runner)",
}
VLLM_BLOCK_SIZE = 16
MIN_USEFUL_CONTEXT = 4096
"""A plan whose longest request is shorter than this (or the model's own limit) does not count as fitting."""
FALLBACK_NATIVE_CONTEXT = 32768
"""Context cap when the spec does not know the model's own limit."""
TABLE_CONTEXTS = (4096, 8192, 16384, 32768, 65536, 131072, 262144, 524288, 1048576)
KV_TYPES = {
    "vllm": (
        "auto",
        "bfloat16",
        "float16",
        "fp8",
        "fp8_e4m3",
        "fp8_e5m2",
        "fp8_inc",
        "fp8_ds_mla",
        "int8_per_token_head",
        "int4_per_token_head",
        "fp8_per_token_head",
        "nvfp4",
    ),
    "llamacpp": ("auto", "f32", "f16", "bf16", "q8_0", "q4_0", "q4_1", "iq4_nl", "q5_0", "q5_1"),
    "ollama": ("auto", "f16", "q8_0", "q4_0"),
}
OLLAMA_DEFAULT_QUANT = "q4_k_m"
"""Ollama library tags without a quantization suffix are Q4_K_M."""


@dataclass(kw_only=True, frozen=True)
class Component:
    """One line of the breakdown: a number and where it comes from."""

    name: str
    gib: float
    source: str


@dataclass(kw_only=True, frozen=True)
class ContextRow:
    """One row of the context × concurrency table."""

    context: int
    max_concurrency: float
    """Requests of this length that fit at once (vLLM's definition: all reach the full length)."""
    kv_gib_per_request: float
    fits: bool


@dataclass(kw_only=True)
class Plan:
    """The plan for one model, GPU and engine (`model fit --json`)."""

    model: str
    gpu: str | None
    gpu_total_gib: float
    """Memory per GPU the plan counts on (driver-visible total; Apple: the GPU-wirable share)."""
    gpus: int
    tp: int
    pp: int
    engine: str
    engine_version_modelled: str
    vllm_version: str | None = None
    """vLLM release the plan was made for (`--vllm-version`, default the newest modelled); None otherwise."""
    quantization: str
    kv_cache_dtype: str
    context: int
    """The context the plan is for: --max-model-len (vLLM), per-slot context (llama.cpp), num_ctx (Ollama)."""
    concurrency: int
    """Parallel requests planned for (--max-num-seqs / -np / OLLAMA_NUM_PARALLEL)."""
    gpu_memory_utilization: float | None

    weights_gib: float
    kv_bytes_per_token: int
    kv_state_bytes_per_seq: int
    """Fixed cache per sequence: recurrent state of linear-attention layers plus a full sliding window."""
    overhead_gib: float
    available_kv_gib: float
    kv_cache_tokens: int
    max_concurrency: float
    max_context: int
    fits: bool
    notes: list[str] = field(default_factory=list)

    block_size: int | None = None
    num_blocks: int | None = None
    blocks_per_request: int | None = None
    gpu_layers: int | None = None
    """llama.cpp -ngl: transformer layers on the GPU (all of them when everything fits)."""
    n_cpu_moe: int | None = None
    cpu_ram_gib: float = 0.0
    max_num_batched_tokens: int | None = None
    max_num_seqs: int | None = None
    """vLLM --max-num-seqs the plan counts on (lowered below the default where hybrid state blocks bind)."""
    stage: int | None = None
    """PP > 1: the pipeline stage (1-based) whose memory binds the plan."""
    expert_parallel: bool = False
    """vLLM --enable-expert-parallel planned and in effect (a MoE model; a dense one ignores the flag)."""
    breakdown: list[Component] = field(default_factory=list)
    table: list[ContextRow] = field(default_factory=list)


def cdiv(a: int, b: int) -> int:
    return -(-a // b)


def largest(fits: Callable[[int], bool], cap: int) -> int:
    """Largest L in [0, cap] with fits(L) true, for a monotone predicate (0 when even 1 fails)."""
    if cap <= 0 or not fits(1):
        return 0
    if fits(cap):
        return cap
    lo, hi = 1, cap
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if fits(mid):
            lo = mid
        else:
            hi = mid
    return lo


def round_context(context: int) -> int:
    """A context chosen for the user is rounded down to a multiple of 1024 (256 below 4096)."""
    step = 1024 if context >= 4096 else 256
    return max(context // step * step, min(context, step))


@dataclass(frozen=True)
class PlanInputs:
    spec: ModelSpec
    gpu: GPU | None
    total_gib: float
    gpus: int
    tp: int
    pp: int
    native: int
    context: int | None
    concurrency: int | None
    kv_cache_dtype: str


def layout_notes(spec: ModelSpec, layout: KVLayout, context: int) -> list[str]:
    notes = []
    if layout.kind == "mla":
        notes.append("MLA: one compressed latent per token per layer, replicated on every TP rank")
    if layout.replicated and layout.kind != "mla":
        notes.append(f"TP exceeds the {spec.num_kv_heads} KV heads: each rank stores one head, replicated")
    if layout.linear_layers:
        notes.append(
            f"hybrid: only {layout.full_layers} full-attention layers grow with context; "
            f"{layout.linear_layers} linear-attention layers keep "
            f"{layout.state_bytes_per_seq / MIB:.1f} MiB of recurrent state per sequence"
        )
    if layout.swa_layers:
        notes.append(
            f"sliding window: {layout.swa_layers} layers hold at most {layout.sliding_window:,} tokens "
            f"({layout.swa_bytes_per_seq(context) / MIB:.0f} MiB per sequence at {context:,})"
        )
    return notes


def table_contexts(native: int) -> list[int]:
    contexts = [c for c in TABLE_CONTEXTS if c < native]
    return [*contexts, native]
