"""vLLM's side of the plan: the KV pool left after weights and overhead, cut into paged blocks.

The pool is `util × total − weights − activation peak − non-torch` (memory.overhead). vLLM groups
layers by kind (full, sliding window, linear attention) into groups of equal size (the smallest kind's layer
count, or the largest when within 25% of it; kv_cache_utils.py) and all groups share one page size: with
linear attention the attention block grows until one attention page holds one layer's recurrent state
(`B = roundup16(state / attention bytes per token)`, "Setting attention block size to 1568 tokens"). The pool
holds `available // (page × group_size)` blocks; a request needs `cdiv(L, B)` per full-attention group,
`cdiv(min(window − 1 + max_num_batched_tokens, L), B) + 1` per sliding group and two per linear group (prefix
caching on). This reproduces the three hybrid logs of fit-planners.md 2.6 to the token. vLLM refuses to start
when one max-model-len request does not fit, and its "maximum concurrency" assumes every request reaches it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from lmscreen.errors import InputError
from lmscreen.model.hardware import gpu as find_gpu
from lmscreen.model.memory import overhead
from lmscreen.model.memory.common import (
    ENGINE_VERSIONS,
    GIB,
    MIN_USEFUL_CONTEXT,
    VLLM_BLOCK_SIZE,
    Component,
    ContextRow,
    Plan,
    PlanInputs,
    cdiv,
    largest,
    layout_notes,
    round_context,
    table_contexts,
)
from lmscreen.model.memory.kv import KV_DTYPE_BYTES, KVLayout, kv_layout
from lmscreen.model.memory.weights import is_gguf, normalize_quantization, vllm_repack_factor, weights
from lmscreen.model.spec import ModelSpec


@dataclass(frozen=True)
class VllmBlocks:
    """vLLM's paged KV layout for one model on one GPU (kv_cache_interface.py / kv_cache_utils.py)."""

    block_tokens: int
    page_bytes: float
    """Bytes of one block of one layer (all groups share this page size)."""
    group_size: int
    full_groups: int
    swa_groups: int
    linear_groups: int
    window: int | None
    max_num_batched_tokens: int
    linear_blocks_per_group: int

    @classmethod
    def from_layout(
        cls,
        layout: KVLayout,
        block_size: int = VLLM_BLOCK_SIZE,
        max_num_batched_tokens: int = 2048,
        prefix_caching: bool = True,
    ) -> VllmBlocks:
        counts = {
            k: n
            for k, n in (
                ("full", layout.full_layers),
                ("swa", layout.swa_layers),
                ("linear", layout.linear_layers),
            )
            if n
        }
        if not counts:
            raise InputError("model has no attention or recurrent layers to cache")
        per_token = layout.layer_token_bytes
        block = block_size
        if layout.linear_layers and per_token:
            # Attention block grows until one attention page holds one layer's recurrent state.
            block = max(block_size, cdiv(cdiv(layout.state_bytes_per_layer, math.ceil(per_token)), 16) * 16)
        page = block * per_token if per_token else float(layout.state_bytes_per_layer)
        smallest, largest = min(counts.values()), max(counts.values())
        group = largest if largest < smallest * 1.25 else smallest
        return cls(
            block_tokens=block,
            page_bytes=page,
            group_size=group,
            full_groups=cdiv(counts.get("full", 0), group),
            swa_groups=cdiv(counts.get("swa", 0), group),
            linear_groups=cdiv(counts.get("linear", 0), group),
            window=layout.sliding_window,
            max_num_batched_tokens=max_num_batched_tokens,
            linear_blocks_per_group=2 if prefix_caching else 1,
        )

    @property
    def single_group(self) -> bool:
        return self.full_groups + self.swa_groups + self.linear_groups == 1

    def num_blocks(self, available_bytes: float) -> int:
        return max(int(available_bytes // self.page_bytes // self.group_size), 0)

    def blocks_per_request(self, context: int) -> int:
        blocks = self.full_groups * cdiv(context, self.block_tokens)
        if self.swa_groups:
            held = min((self.window or context) - 1 + self.max_num_batched_tokens, context)
            blocks += self.swa_groups * (cdiv(held, self.block_tokens) + 1)
        return blocks + self.linear_groups * self.linear_blocks_per_group

    def tokens(self, num_blocks: int, context: int) -> int:
        """vLLM's "GPU KV cache size": blocks × block size, or max_concurrency × L for grouped layouts."""
        if self.single_group and self.full_groups:
            return num_blocks * self.block_tokens
        return int(num_blocks / self.blocks_per_request(context) * context)


@dataclass(frozen=True)
class _VllmCore:
    weights_gib: float
    weights_detail: str
    weights_source: str
    activation_gib: float
    non_torch_gib: float
    available_gib: float
    layout: KVLayout
    blocks: VllmBlocks
    num_blocks: int

    def max_context(self, concurrency: int, cap: int) -> int:
        if self.num_blocks <= 0:
            return 0
        return largest(lambda n: concurrency * self.blocks.blocks_per_request(n) <= self.num_blocks, cap)

    def max_concurrency(self, context: int) -> float:
        return self.num_blocks / self.blocks.blocks_per_request(context) if self.num_blocks else 0.0


def _vllm_core(
    spec: ModelSpec,
    total_gib: float,
    gpu_name: str | None,
    tp: int,
    pp: int,
    util: float,
    kv_dtype: str,
    version: str | None,
    block_size: int,
    mnbt: int,
    prefix_caching: bool,
    quantization: str | None = None,
) -> _VllmCore:
    w = weights(spec, tp=tp, pp=pp, engine="vllm", quantization=quantization)
    repack = vllm_repack_factor(w.quantization, _arch(gpu_name))
    weights_gib = w.per_gpu_gib * repack
    detail = w.detail + (f" × {repack:.3f} (Marlin weight-only repack on this GPU)" if repack != 1 else "")
    act = overhead.activation_gib(spec, tp, mnbt, version)
    nt = overhead.non_torch_gib(tp)
    available = util * total_gib - weights_gib - act - nt
    layout = kv_layout(spec, kv_dtype, tp, pp, "vllm")
    blocks = VllmBlocks.from_layout(layout, block_size, mnbt, prefix_caching)
    return _VllmCore(
        weights_gib=weights_gib,
        weights_detail=detail,
        weights_source=w.source,
        activation_gib=act,
        non_torch_gib=nt,
        available_gib=available,
        layout=layout,
        blocks=blocks,
        num_blocks=blocks.num_blocks(available * GIB) if available > 0 else 0,
    )


def _arch(gpu_name: str | None) -> str | None:
    """Architecture of a catalog GPU (None for a bare memory size)."""
    if not gpu_name:
        return None
    try:
        return find_gpu(gpu_name).arch
    except InputError:
        return None


def _choose_context(reach: int, native: int) -> int:
    """The context to plan for when the user gave none: the model's own, else the longest that fits."""
    if reach >= native:
        return native
    return round_context(reach) if reach else min(native, MIN_USEFUL_CONTEXT)


def _vllm_blockers(inp: PlanInputs) -> list[str]:
    """Reasons vLLM refuses the deployment whatever the memory says."""
    spec = inp.spec
    reasons = []
    if inp.context is not None and inp.context > inp.native:
        reasons.append(
            f"--max-model-len {inp.context:,} exceeds the model's {inp.native:,}: vLLM refuses it "
            "(VLLM_ALLOW_LONG_MAX_MODEL_LEN=1 overrides, at the model's own risk)"
        )
    if spec.num_attention_heads and spec.num_attention_heads % inp.tp:
        reasons.append(
            f"vLLM needs the {spec.num_attention_heads} attention heads divisible by the tensor "
            f"parallel size {inp.tp}"
        )
    if is_gguf(normalize_quantization(spec.quantization)):
        reasons.append("vLLM 0.33 does not load GGUF files: plan with --engine llamacpp or --engine ollama")
    if inp.gpu is not None and inp.gpu.unified_memory:
        reasons.append("vLLM does not run on Apple silicon; plan with --engine llamacpp or --engine ollama")
    return reasons


def _vllm_breakdown(inp: PlanInputs, core: _VllmCore, util: float, mnbt: int) -> list[Component]:
    parallel = (f", / TP {inp.tp}" if inp.tp > 1 else "") + (f", / PP {inp.pp}" if inp.pp > 1 else "")
    return [
        Component(
            name="gpu memory × utilization",
            gib=util * inp.total_gib,
            source=f"{inp.total_gib:.2f} GiB × {util:.2f} (fraction of total, not of free memory)",
        ),
        Component(name="weights", gib=core.weights_gib, source=core.weights_detail + parallel),
        Component(
            name="activation peak",
            gib=core.activation_gib,
            source=f"profiled batch of {mnbt} tokens, calibrated (lmscreen.model.memory.overhead)",
        ),
        Component(
            name="non-torch memory",
            gib=core.non_torch_gib,
            source="CUDA context" + (" + NCCL buffers (TP)" if inp.tp > 1 else "") + ", calibrated",
        ),
        Component(
            name="KV cache pool",
            gib=core.available_gib,
            source="the rest: util × total − weights − activation − non-torch",
        ),
        Component(
            name="CUDA graphs (outside the pool)",
            gib=overhead.cuda_graph_gib(),
            source="typical; logged 0.09–1.03 GiB, must fit in the (1 − util) headroom",
        ),
    ]


def _vllm_table(core: _VllmCore, native: int) -> list[ContextRow]:
    rows = []
    for ctx in table_contexts(native):
        conc = core.max_concurrency(ctx)
        per_request = core.blocks.blocks_per_request(ctx) * core.blocks.page_bytes * core.blocks.group_size
        rows.append(
            ContextRow(
                context=ctx,
                max_concurrency=round(conc, 2),
                kv_gib_per_request=per_request / GIB,
                fits=conc >= 1,
            )
        )
    return rows


def plan_vllm(
    inp: PlanInputs,
    util: float | None,
    version: str | None,
    block_size: int,
    max_num_batched_tokens: int | None,
    max_num_seqs: int | None,
    prefix_caching: bool,
    with_table: bool,
) -> Plan:
    spec = inp.spec
    util = overhead.vllm_default_utilization(version) if util is None else util
    if not 0 < util <= 1:
        raise InputError(f"--gpu-memory-utilization must be in (0, 1] (got {util})")
    gpu_name = inp.gpu.name if inp.gpu else None
    default_mnbt, default_seqs = overhead.vllm_batch_defaults(inp.total_gib, gpu_name)
    mnbt = max_num_batched_tokens or default_mnbt
    core = _vllm_core(
        spec,
        inp.total_gib,
        gpu_name,
        inp.tp,
        inp.pp,
        util,
        inp.kv_cache_dtype,
        version,
        block_size,
        mnbt,
        prefix_caching,
    )
    want = inp.concurrency or 1
    max_ctx = core.max_context(1, inp.native)
    context = (
        inp.context
        if inp.context is not None
        else _choose_context(core.max_context(want, inp.native), inp.native)
    )
    bpr = core.blocks.blocks_per_request(context)
    notes = _vllm_blockers(inp)
    fits = not notes and core.available_gib > 0 and core.num_blocks >= bpr * want
    if inp.context is None and context < min(inp.native, MIN_USEFUL_CONTEXT):
        fits = False
    notes.extend(layout_notes(spec, core.layout, context))
    headroom, graphs = (1 - util) * inp.total_gib, overhead.cuda_graph_gib()
    if headroom < graphs + 0.2:
        notes.append(
            f"only {headroom:.2f} GiB stays outside the pool for CUDA graphs (~{graphs:.1f} GiB): "
            "lower --gpu-memory-utilization or add --enforce-eager if start-up OOMs"
        )
    if inp.concurrency and max_num_seqs is None and inp.concurrency > default_seqs:
        notes.append(
            f"vLLM runs at most --max-num-seqs requests at once (default {default_seqs} here); "
            f"the launch command sets it to {inp.concurrency}"
        )
    notes.extend(
        _vllm_knobs(inp, core, util, version, block_size, mnbt, prefix_caching, context, want, fits, max_ctx)
    )
    return Plan(
        model=spec.name,
        gpu=gpu_name,
        gpu_total_gib=inp.total_gib,
        gpus=inp.gpus,
        tp=inp.tp,
        pp=inp.pp,
        engine="vllm",
        engine_version_modelled=ENGINE_VERSIONS["vllm"],
        quantization=normalize_quantization(spec.quantization),
        kv_cache_dtype=inp.kv_cache_dtype,
        context=context,
        concurrency=want,
        gpu_memory_utilization=util,
        weights_gib=core.weights_gib,
        kv_bytes_per_token=round(core.layout.bytes_per_token),
        kv_state_bytes_per_seq=core.layout.state_bytes_per_seq
        + round(core.layout.swa_bytes_per_seq(context)),
        overhead_gib=core.activation_gib + core.non_torch_gib,
        available_kv_gib=core.available_gib,
        kv_cache_tokens=core.blocks.tokens(core.num_blocks, context) if core.num_blocks else 0,
        max_concurrency=round(core.max_concurrency(context), 2),
        max_context=max_ctx,
        fits=fits,
        notes=notes,
        block_size=core.blocks.block_tokens,
        num_blocks=core.num_blocks,
        blocks_per_request=bpr,
        max_num_batched_tokens=mnbt,
        breakdown=_vllm_breakdown(inp, core, util, mnbt),
        table=_vllm_table(core, inp.native) if with_table and core.num_blocks else [],
    )


def _vllm_knobs(
    inp: PlanInputs,
    core: _VllmCore,
    util: float,
    version: str | None,
    block_size: int,
    mnbt: int,
    prefix_caching: bool,
    context: int,
    want: int,
    fits: bool,
    max_ctx: int,
) -> list[str]:
    """Which knob to turn, with the number it would give."""
    notes: list[str] = []
    spec = inp.spec
    gpu_name = inp.gpu.name if inp.gpu else None

    def alt(tp: int = inp.tp, kv: str = inp.kv_cache_dtype, quant: str | None = None) -> _VllmCore:
        return _vllm_core(
            spec,
            inp.total_gib,
            gpu_name,
            tp,
            inp.pp,
            util,
            kv,
            version,
            block_size,
            mnbt,
            prefix_caching,
            quant,
        )

    if core.available_gib <= 0:
        notes.append(
            f"weights ({core.weights_gib:.1f} GiB) + overhead leave no room for the KV cache on "
            f"{inp.total_gib:.1f} GiB × {util:.2f}"
        )
        current = normalize_quantization(spec.quantization)
        for quant in ("fp8", "awq"):
            if quant == current or (current in ("awq", "gptq", "nvfp4", "mxfp4") and quant == "fp8"):
                continue
            other = alt(quant=quant)
            if other.num_blocks and other.max_context(1, inp.native) >= min(inp.native, MIN_USEFUL_CONTEXT):
                notes.append(
                    f"quantize: an {quant.upper()} checkpoint takes {other.weights_gib:.1f} GiB per GPU "
                    f"and fits {other.max_context(1, inp.native):,} tokens of context"
                )
                break
        notes.append("or a GGUF Q4_K_M with --engine llamacpp (offloads what does not fit to CPU RAM)")
    elif not fits or (inp.context is None and context < inp.native):
        if max_ctx and inp.context is not None and max_ctx < inp.context:
            notes.append(
                f"lower the context: one request of at most {max_ctx:,} tokens fits "
                f"(--max-model-len {round_context(max_ctx)})"
            )
        elif inp.context is None and context < inp.native:
            notes.append(
                f"context lowered from the model's {inp.native:,} to {context:,} tokens so that "
                f"{want} request(s) fit"
            )
        if want > 1 and inp.context is not None and core.max_concurrency(context) < want:
            notes.append(
                f"at {context:,} tokens only {core.max_concurrency(context):.2f} requests fit at once "
                f"(asked {want})"
            )
    if (
        core.available_gib > 0
        and (not fits or context < inp.native)
        and not inp.kv_cache_dtype.startswith("fp8")
    ):
        if KV_DTYPE_BYTES.get(inp.kv_cache_dtype, 2) > 1:
            other = alt(kv="fp8")
            notes.append(
                f"--kv-cache-dtype fp8 halves the cache: {other.blocks.tokens(other.num_blocks, context):,}"
                f" tokens, one request up to {other.max_context(1, inp.native):,}"
            )
    if core.available_gib <= 0 or not fits:
        heads = spec.num_attention_heads or 0
        for tp in (2 * inp.tp, 4 * inp.tp, 8 * inp.tp):
            if heads and heads % tp:
                continue
            other = alt(tp=tp)
            if other.max_context(want, inp.native) >= min(context, inp.native):
                notes.append(
                    f"TP={tp} ({tp * inp.pp} GPUs, --tensor-parallel-size {tp}): "
                    f"{other.weights_gib:.1f} GiB weights per GPU, one request up to "
                    f"{other.max_context(1, inp.native):,} tokens"
                )
                break
    return notes
