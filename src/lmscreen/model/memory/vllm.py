"""vLLM's side of the plan: the KV pool left after weights and overhead, cut into paged blocks.

The pool is `util × total − weights − activation peak − non-torch (− CUDA graphs from 0.21)`, with the
terms of the vLLM release range the plan is for (memory.releases, memory.overhead). vLLM groups layers by
kind (full, sliding window, linear attention) into groups of equal size (the smallest kind's layer count, or
the largest when within 25% of it; kv_cache_utils.py) and all groups share one page size: with linear
attention the attention block grows until one attention page holds one layer's recurrent state
(`B = roundup16(state / attention bytes per token)`, "Setting attention block size to 1568 tokens"). The pool
holds `available // (page × group_size)` blocks; a request needs `cdiv(L, B)` per full-attention group,
`cdiv(min(window − 1 + max_num_batched_tokens, L), B) + 1` per sliding group and two per linear group
(prefix caching on). This reproduces the three hybrid logs of fit-planners.md 2.6 to the token.

Pipeline parallelism: every stage sizes its own pool (its layers, the embedding on the first stage, the
lm_head and the sampler on the last, the receive buffer on all but the first) and vLLM gives every
stage the smallest block count (get_kv_cache_configs), so the busier stage sets the KV of all. vLLM
refuses to start when one max-model-len request does not fit (0.14–0.15: counted with the whole model's KV
per token, vllm#32105), and, from 0.21, when a hybrid model's max_num_seqs exceeds the pool's blocks (one
state block per decoding sequence). Its "maximum concurrency" assumes every request reaches max-model-len.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from lmscreen.errors import InputError
from lmscreen.model.hardware import GPU
from lmscreen.model.hardware import gpu as find_gpu
from lmscreen.model.memory import overhead
from lmscreen.model.memory.common import (
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
from lmscreen.model.memory.kv import KV_DTYPE_BYTES, KVLayout, kv_layout, vllm_auto_kv_dtype
from lmscreen.model.memory.releases import (
    VllmRelease,
    check_version,
    compile_scratch_gib,
    mamba_speculative_blocks,
    release_for,
    reports_tokens_per_group,
    uses_v2_runner,
    v2_estimates_cudagraphs,
)
from lmscreen.model.memory.weights import (
    is_gguf,
    mtp_draft_gib,
    mtp_draft_weights_gib,
    normalize_quantization,
    pp_partition,
    vllm_repack_factor,
    weights,
)
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
    full_block_tokens: int | None = None
    """Tokens per block of the full-attention groups when their layers are narrower than the sliding ones
    (one page size for all: a narrower layer packs more tokens into it)."""

    @property
    def full_block(self) -> int:
        return self.full_block_tokens or self.block_tokens

    @classmethod
    def from_layout(
        cls,
        layout: KVLayout,
        block_size: int = VLLM_BLOCK_SIZE,
        max_num_batched_tokens: int = 2048,
        prefix_caching: bool = True,
        speculative_blocks: int = 0,
    ) -> VllmBlocks:
        """`speculative_blocks`: the extra blocks a request holds per Mamba group for its draft tokens
        (releases.mamba_speculative_blocks)."""
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
        full_block = None
        if layout.full_layer_token_bytes and per_token and layout.swa_layers:
            widest = max(per_token, layout.full_layer_token_bytes)
            page = block * widest
            block = int(page // per_token)
            full_block = int(page // layout.full_layer_token_bytes)
        elif layout.full_layer_token_bytes and per_token:
            per_token = layout.full_layer_token_bytes
            page = block * per_token
        else:
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
            linear_blocks_per_group=(2 if prefix_caching else 1) + speculative_blocks,
            full_block_tokens=full_block,
        )

    @property
    def single_group(self) -> bool:
        return self.full_groups + self.swa_groups + self.linear_groups == 1

    def num_blocks(self, available_bytes: float) -> int:
        return max(int(available_bytes // self.page_bytes // self.group_size), 0)

    def blocks_per_request(self, context: int) -> int:
        blocks = self.full_groups * cdiv(context, self.full_block)
        if self.swa_groups:
            held = min((self.window or context) - 1 + self.max_num_batched_tokens, context)
            blocks += self.swa_groups * (cdiv(held, self.block_tokens) + 1)
        return blocks + self.linear_groups * self.linear_blocks_per_group

    def request_bytes(self, context: int) -> float:
        """Pool bytes one request of `context` tokens takes."""
        return self.blocks_per_request(context) * self.page_bytes * self.group_size

    def tokens(self, num_blocks: int, context: int, per_group: bool = False) -> int:
        """vLLM's "GPU KV cache size": blocks × block size, or for grouped layouts max_concurrency × L
        (`per_group`: blocks // groups × block size, what releases through 0.20.0 printed)."""
        if self.single_group and self.full_groups:
            return num_blocks * self.full_block
        if per_group:
            groups = self.full_groups + self.swa_groups + self.linear_groups
            return num_blocks // groups * min(self.block_tokens, self.full_block)
        return int(num_blocks / self.blocks_per_request(context) * context)


@dataclass(frozen=True)
class _VllmCore:
    """One GPU of the binding pipeline stage (the only stage without PP)."""

    stage: int
    weights_gib: float
    weights_detail: str
    weights_source: str
    activation_gib: float
    non_torch_gib: float
    cuda_graph_gib: float
    graphs_in_pool: bool
    pp_buffer_gib: float
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


@dataclass(frozen=True)
class _Setup:
    """Everything a core depends on besides the model and the parallel layout."""

    total_gib: float
    gpu_name: str | None
    util: float
    kv_dtype: str
    version: str
    release: VllmRelease
    block_size: int
    mnbt: int
    max_num_seqs: int
    prefix_caching: bool
    cudagraph_profiling: bool | None = None
    """VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS as the run had it (None: the release's default)."""
    expert_parallel: bool = False
    """--enable-expert-parallel: MoE ranks hold whole experts (overhead.forward_bytes_per_token)."""
    mtp_draft: bool = False
    """--speculative-config method mtp: the checkpoint's MTP layers are loaded as the draft model."""
    speculative_tokens: int = 0
    """num_speculative_tokens of that draft (0 without one)."""
    max_model_len: int | None = None
    """--max-model-len as planned (the user's context, else the model's): sizes the multimodal profile."""
    flashinfer_sampler: bool | None = None
    """False when the run samples top-k / top-p without FlashInfer (releases.VllmRelease.
    native_sampler_copies); None: the release's own sampler."""
    enforce_eager: bool = False
    """--enforce-eager: no torch.compile (-O0) and no CUDA graphs."""
    compile_cache_warm: bool = False
    """A restart that finds vLLM's compile cache: no compile peak in the profile
    (releases.compile_scratch_gib)."""


def _stage_core(
    spec: ModelSpec, s: _Setup, tp: int, pp: int, stage: int, quantization: str | None = None
) -> _VllmCore:
    w = weights(spec, tp=tp, pp=pp, engine="vllm", quantization=quantization, stage=stage if pp > 1 else None)
    repack = vllm_repack_factor(w.quantization, _arch(s.gpu_name))
    weights_gib = w.per_gpu_gib * repack
    detail = w.detail + (f" × {repack:.3f} (Marlin weight-only repack on this GPU)" if repack != 1 else "")
    draft = mtp_draft_weights_gib(spec, tp) if s.mtp_draft and stage == pp - 1 else 0.0
    if draft:
        weights_gib += draft
        detail += f" + {draft:.2f} GiB MTP draft layer(s) (--speculative-config method mtp)"
    last = stage == pp - 1
    # the MTP draft's attention layers share the pool (on the stage that runs the drafter, the last)
    draft_layers = spec.mtp_layers if s.mtp_draft and last else 0
    layout = kv_layout(
        spec, s.kv_dtype, tp, pp, "vllm", stage=stage if pp > 1 else None, draft_layers=draft_layers
    )
    v2 = uses_v2_runner(s.version, spec, quantized=w.quantization not in ("bf16", "fp32"))
    act = overhead.activation_gib(
        spec,
        tp,
        s.mnbt,
        s.version,
        s.max_num_seqs,
        last_stage=last,
        expert_parallel=s.expert_parallel,
        sm_count=_sm_count(s.gpu_name),
        max_model_len=s.max_model_len,
        first_stage=stage == 0,
        v2_runner=v2,
        flashinfer_sampler=s.flashinfer_sampler,
        enforce_eager=s.enforce_eager,
        compile_cache_warm=s.compile_cache_warm,
    )
    nt = overhead.non_torch_gib(tp, s.version, pp, nvlink_multicast=_nvlink_multicast(s.gpu_name))
    received = overhead.pp_receive_buffer_gib(spec, s.mnbt, stage) if pp > 1 else 0.0
    layers = pp_partition(spec.num_layers, pp)[stage] if pp > 1 and spec.num_layers else spec.num_layers or 32
    # --enforce-eager captures no graphs (config/vllm.py: "Cudagraph is disabled under eager mode")
    graphs = 0.0 if s.enforce_eager else overhead.cuda_graph_gib(layers, s.max_num_seqs)
    in_pool = s.release.cudagraph_in_pool if s.cudagraph_profiling is None else s.cudagraph_profiling
    in_pool = in_pool and not s.enforce_eager
    # V2 before 0.29 estimates no graphs, whatever the profiler flag: they are captured after the pool
    # (releases.V2_CUDAGRAPH_ESTIMATE_FROM)
    in_pool = in_pool and not (v2 and not v2_estimates_cudagraphs(s.version))
    available = s.util * s.total_gib - weights_gib - act - nt - received - (graphs if in_pool else 0.0)
    blocks = VllmBlocks.from_layout(
        layout,
        s.block_size,
        s.mnbt,
        s.prefix_caching,
        mamba_speculative_blocks(s.version, s.speculative_tokens),
    )
    return _VllmCore(
        stage=stage,
        weights_gib=weights_gib,
        weights_detail=detail,
        weights_source=w.source,
        activation_gib=act,
        non_torch_gib=nt,
        cuda_graph_gib=graphs,
        graphs_in_pool=in_pool,
        pp_buffer_gib=received,
        available_gib=available,
        layout=layout,
        blocks=blocks,
        num_blocks=blocks.num_blocks(available * GIB) if available > 0 else 0,
    )


def _vllm_core(spec: ModelSpec, s: _Setup, tp: int, pp: int, quantization: str | None = None) -> _VllmCore:
    """The binding stage: every stage gets the smallest block count vLLM finds on any of them."""
    cores = [_stage_core(spec, s, tp, pp, i, quantization) for i in range(pp)]
    return min(cores, key=lambda c: (c.num_blocks, c.available_gib))


def _catalog_gpu(gpu_name: str | None) -> GPU | None:
    """The catalog GPU of that name (None for a bare memory size or a card the catalog does not hold)."""
    if not gpu_name:
        return None
    try:
        return find_gpu(gpu_name)
    except InputError:
        return None


def _arch(gpu_name: str | None) -> str | None:
    """Architecture of a catalog GPU (None for a bare memory size)."""
    gpu = _catalog_gpu(gpu_name)
    return gpu.arch if gpu is not None else None


def _nvlink_multicast(gpu_name: str | None) -> bool:
    """Whether a catalog GPU sits on an NVSwitch baseboard (its TP all-reduce uses NVLink multicast)."""
    gpu = _catalog_gpu(gpu_name)
    return gpu.nvlink_multicast if gpu is not None else False


def _sm_count(gpu_name: str | None) -> int | None:
    """Streaming multiprocessors of a catalog GPU (None when unknown): sizes the Triton sampler's buffer."""
    gpu = _catalog_gpu(gpu_name)
    return gpu.sm_count if gpu is not None else None


def _choose_context(reach: int, native: int) -> int:
    """The context to plan for when the user gave none: the model's own, else the longest that fits."""
    if reach >= native:
        return native
    return round_context(reach) if reach else min(native, MIN_USEFUL_CONTEXT)


VOCAB_PADDING = 64
"""vLLM pads the vocabulary to a multiple of 64 before it shards it over the TP ranks
(vllm/model_executor/layers/vocab_parallel_embedding.py: DEFAULT_VOCAB_PADDING_SIZE, pad_vocab_size)."""


def _tp_shard_refusals(spec: ModelSpec, tp: int) -> list[str]:
    """Layers vLLM cannot split over `tp` ranks: it asserts before any weight loads.

    VocabParallelEmbedding takes `divide(pad_vocab_size(vocab, 64), tp)` and QKVParallelLinear takes
    `divide(kv_heads, tp)` (or `divide(tp, kv_heads)` once tp ≥ kv_heads), and `divide` asserts
    "{numerator} is not divisible by {denominator}" (vllm/distributed/utils.py ensure_divisibility;
    vllm/model_executor/layers/linear.py QKVParallelLinear). A TP size that is not a power of two trips them:
    llm-d-planner's Qwen3-14B at TP5 stopped on "151936 is not divisible by 5". MLA layers do not go through
    QKVParallelLinear, so their KV-head count is not checked.
    """
    if tp <= 1:
        return []
    reasons = []
    if spec.vocab_size:
        padded = -(-spec.vocab_size // VOCAB_PADDING) * VOCAB_PADDING
        if padded % tp:
            reasons.append(
                f"vLLM shards the {padded:,}-entry padded vocabulary over the tensor parallel ranks and "
                f"{padded:,} is not divisible by {tp}"
            )
    kv_heads = spec.num_kv_heads
    if kv_heads and spec.mla is None and (tp % kv_heads if tp >= kv_heads else kv_heads % tp):
        reasons.append(
            f"vLLM splits (or replicates) the {kv_heads} KV heads over the tensor parallel ranks and "
            f"{max(tp, kv_heads)} is not divisible by {min(tp, kv_heads)}"
        )
    return reasons


def _vllm_blockers(inp: PlanInputs, release: VllmRelease, version: str) -> list[str]:
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
    reasons.extend(_tp_shard_refusals(spec, inp.tp))
    if inp.pp > 1 and spec.num_layers and spec.num_layers < inp.pp:
        reasons.append(f"--pp {inp.pp} exceeds the model's {spec.num_layers} layers")
    if is_gguf(normalize_quantization(spec.quantization)):
        reasons.append(
            f"vLLM {version} does not load GGUF files: plan with --engine llamacpp or --engine ollama"
        )
    if inp.gpu is not None and inp.gpu.unified_memory:
        reasons.append("vLLM does not run on Apple silicon; plan with --engine llamacpp or --engine ollama")
    return reasons


def _startup_checks(
    inp: PlanInputs, s: _Setup, core: _VllmCore, context: int, seqs_given: bool
) -> tuple[list[str], int | None]:
    """Checks vLLM makes at start-up beyond one request fitting; returns (refusals, max_num_seqs to use)."""
    refusals: list[str] = []
    seqs = s.max_num_seqs
    if s.release.pp_check_whole_model and inp.pp > 1 and core.num_blocks:
        whole = VllmBlocks.from_layout(
            kv_layout(inp.spec, s.kv_dtype, inp.tp, 1, "vllm"), s.block_size, s.mnbt, s.prefix_caching
        )
        need = whole.request_bytes(context) / GIB
        if need > core.available_gib:
            refusals.append(
                f"vLLM {s.release.span} checks a pipeline stage against the whole model's KV: one "
                f"{context:,}-token request counts {need:.2f} GiB against this stage's "
                f"{core.available_gib:.2f} GiB and start-up fails (vllm-project/vllm#32105, fixed in 0.16 by "
                "#33698); plan with --vllm-version 0.16 or later, or lower --max-model-len"
            )
    if s.release.mamba_seq_check and core.layout.linear_layers and core.num_blocks:
        if seqs > core.num_blocks:
            if seqs_given:
                refusals.append(
                    f"max_num_seqs ({seqs}) exceeds the {core.num_blocks} state blocks of the pool: each "
                    "decoding sequence of a hybrid model needs one, and vLLM fails at CUDA-graph capture; "
                    f"set --max-num-seqs {core.num_blocks} or less"
                )
            else:
                seqs = core.num_blocks
    return refusals, seqs


def _encoder_note(inp: PlanInputs, s: _Setup) -> str:
    """The activation row's word on the vision encoder's part of the profile (first stage only)."""
    return overhead.encoder_note(inp.spec, s.version, s.mnbt, s.max_num_seqs, s.max_model_len, inp.tp)


def _compile_note(s: _Setup) -> str:
    """The activation row's word on a first start's compile peak, where the release has one
    (releases.compile_scratch_gib): it is why a restart keeps more KV than the first start."""
    compiled = compile_scratch_gib(s.version, s.enforce_eager, s.compile_cache_warm)
    if not compiled:
        return ""
    return (
        f"; at least {compiled:.2f} GiB on a first start, which compiles the model inside the profile "
        "(a restart with a warm compile cache, or --enforce-eager, profiles without it)"
    )


def _vllm_breakdown(inp: PlanInputs, core: _VllmCore, s: _Setup) -> list[Component]:
    parallel = (f", / TP {inp.tp}" if inp.tp > 1 else "") + (
        f", PP stage {core.stage + 1}" if inp.pp > 1 else ""
    )
    graphs = Component(
        name="CUDA graphs" + (" (in the pool budget)" if core.graphs_in_pool else " (outside the pool)"),
        gib=core.cuda_graph_gib,
        source=(
            f"estimated for {s.max_num_seqs} sequences; vLLM {s.release.span} "
            + (
                "profiles it and takes it out of the pool"
                if core.graphs_in_pool
                else "captures it after the pool"
            )
        ),
    )
    return [
        Component(
            name="gpu memory × utilization",
            gib=s.util * inp.total_gib,
            source=f"{inp.total_gib:.2f} GiB × {s.util:.2f} (fraction of total, not of free memory)",
        ),
        Component(name="weights", gib=core.weights_gib, source=core.weights_detail + parallel),
        Component(
            name="activation peak",
            gib=core.activation_gib,
            source=(
                f"profiled {s.mnbt}-token batch and {s.max_num_seqs}-sequence sampler, vLLM {s.release.span} "
                "constants (lmscreen.model.memory.overhead)"
                + ("" if core.stage == inp.pp - 1 else "; no sampler on this stage")
                + (_encoder_note(inp, s) if core.stage == 0 else "")
                + _compile_note(s)
            ),
        ),
        Component(
            name="non-torch memory",
            gib=core.non_torch_gib,
            source="CUDA context"
            + (" + NCCL buffers" if inp.tp * inp.pp > 1 else "")
            + (
                " + NVLink-multicast all-reduce buffers (NVSwitch)"
                if overhead.counts_multicast(inp.tp, s.version, _nvlink_multicast(s.gpu_name))
                else ""
            )
            + ", calibrated",
        ),
        *([graphs] if core.graphs_in_pool else []),
        *(
            [
                Component(
                    name="PP receive buffer",
                    gib=core.pp_buffer_gib,
                    source=f"hidden states + residual for {s.mnbt} batched tokens from the stage "
                    "before, kept for the CUDA graphs (memory.overhead.pp_receive_buffer_gib)",
                )
            ]
            if core.pp_buffer_gib
            else []
        ),
        Component(
            name="KV cache pool",
            gib=core.available_gib,
            source="the rest: util × total − weights − activation − non-torch"
            + (" − PP receive buffer" if core.pp_buffer_gib else "")
            + (" − CUDA graphs" if core.graphs_in_pool else ""),
        ),
        *([] if core.graphs_in_pool or s.enforce_eager else [graphs]),
    ]


def _vllm_table(core: _VllmCore, native: int) -> list[ContextRow]:
    rows = []
    for ctx in table_contexts(native):
        conc = core.max_concurrency(ctx)
        rows.append(
            ContextRow(
                context=ctx,
                max_concurrency=round(conc, 2),
                kv_gib_per_request=core.blocks.request_bytes(ctx) / GIB,
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
    cudagraph_profiling: bool | None = None,
    expert_parallel: bool = False,
    mtp_draft: bool = False,
    speculative_tokens: int | None = None,
    flashinfer_sampler: bool | None = None,
    enforce_eager: bool = False,
    compile_cache_warm: bool = False,
) -> Plan:
    spec = inp.spec
    version = check_version(version)
    release = release_for(version)
    util = release.default_utilization if util is None else util
    if not 0 < util <= 1:
        raise InputError(f"--gpu-memory-utilization must be in (0, 1] (got {util})")
    gpu_name = inp.gpu.name if inp.gpu else None
    default_mnbt, default_seqs = overhead.vllm_batch_defaults(inp.total_gib, gpu_name, version)
    # The launch command sets --max-num-seqs to the planned concurrency when it is above one.
    seqs_given = max_num_seqs is not None or (inp.concurrency or 0) > 1
    seqs = max_num_seqs or (inp.concurrency if (inp.concurrency or 0) > 1 else default_seqs)
    setup = _Setup(
        total_gib=inp.total_gib,
        gpu_name=gpu_name,
        util=util,
        # what vLLM stores: --kv-cache-dtype auto is the model dtype (4 bytes for a float32 checkpoint)
        kv_dtype=vllm_auto_kv_dtype(spec, inp.kv_cache_dtype),
        version=version,
        release=release,
        block_size=block_size,
        mnbt=max_num_batched_tokens or default_mnbt,
        max_num_seqs=seqs,
        prefix_caching=prefix_caching,
        cudagraph_profiling=cudagraph_profiling,
        expert_parallel=expert_parallel,
        mtp_draft=mtp_draft and spec.mtp_layers > 0,
        # vLLM's num_speculative_tokens defaults to the draft's own layer count (n_predict)
        speculative_tokens=(speculative_tokens or spec.mtp_layers)
        if mtp_draft and spec.mtp_layers > 0
        else 0,
        max_model_len=inp.context or inp.native,
        flashinfer_sampler=flashinfer_sampler,
        enforce_eager=enforce_eager,
        compile_cache_warm=compile_cache_warm,
    )
    core = _vllm_core(spec, setup, inp.tp, inp.pp)
    want = inp.concurrency or 1
    max_ctx = core.max_context(1, inp.native)
    context = (
        inp.context
        if inp.context is not None
        else _choose_context(core.max_context(want, inp.native), inp.native)
    )
    bpr = core.blocks.blocks_per_request(context)
    notes = _vllm_blockers(inp, release, version)
    refusals, seqs_used = _startup_checks(inp, setup, core, context, seqs_given)
    notes.extend(refusals)
    fits = not notes and core.available_gib > 0 and core.num_blocks >= bpr * want
    if inp.context is None and context < min(inp.native, MIN_USEFUL_CONTEXT):
        fits = False
    notes.extend(layout_notes(spec, core.layout, context))
    draft = mtp_draft_gib(spec, inp.tp)
    if setup.mtp_draft:
        notes.append(
            f"MTP speculative decoding: the checkpoint's {spec.mtp_layers} MTP layer(s) are loaded as the "
            f"draft model, {mtp_draft_weights_gib(spec, inp.tp):.2f} GiB per GPU counted in the weights"
        )
    elif draft >= 0.01:
        notes.append(
            f"the checkpoint carries {spec.mtp_layers} MTP layer(s) for speculative decoding: vLLM loads "
            f"them only with --speculative-config (method mtp), ~{draft:.2f} GiB more per GPU, not planned"
        )
    if inp.pp > 1:
        parts = pp_partition(spec.num_layers, inp.pp) if spec.num_layers else []
        notes.append(
            f"pipeline parallel: layers {'/'.join(map(str, parts))} per stage; stage {core.stage + 1} binds "
            f"({core.available_gib:.2f} GiB of KV per GPU) and every stage gets its "
            f"{core.num_blocks:,} blocks"
        )
    if seqs_used is not None and seqs_used < seqs:
        notes.append(
            f"hybrid state: the pool holds {core.num_blocks:,} blocks and each decoding sequence needs "
            "one, so "
            f"at most {seqs_used} sequences run at once: the launch command sets --max-num-seqs {seqs_used} "
            f"(vLLM's default {seqs} fails at CUDA-graph capture)"
        )
    headroom = (1 - util) * inp.total_gib
    if not core.graphs_in_pool and not setup.enforce_eager and headroom < core.cuda_graph_gib + 0.2:
        notes.append(
            f"only {headroom:.2f} GiB stays outside the pool for CUDA graphs "
            f"(~{core.cuda_graph_gib:.1f} GiB): "
            "lower --gpu-memory-utilization or add --enforce-eager if start-up OOMs"
        )
    if inp.concurrency and max_num_seqs is None and inp.concurrency > default_seqs:
        notes.append(
            f"vLLM runs at most --max-num-seqs requests at once (default {default_seqs} here); "
            f"the launch command sets it to {inp.concurrency}"
        )
    notes.extend(_vllm_knobs(inp, core, setup, context, want, fits, max_ctx))
    return Plan(
        model=spec.name,
        gpu=gpu_name,
        gpu_total_gib=inp.total_gib,
        gpus=inp.gpus,
        tp=inp.tp,
        pp=inp.pp,
        engine="vllm",
        engine_version_modelled=release.describe(version),
        vllm_version=version,
        quantization=normalize_quantization(spec.quantization),
        kv_cache_dtype=inp.kv_cache_dtype,
        context=context,
        concurrency=want,
        gpu_memory_utilization=util,
        weights_gib=core.weights_gib,
        kv_bytes_per_token=round(core.layout.bytes_per_token),
        kv_state_bytes_per_seq=core.layout.state_bytes_per_seq
        + round(core.layout.swa_bytes_per_seq(context)),
        overhead_gib=core.activation_gib
        + core.non_torch_gib
        + core.pp_buffer_gib
        + (core.cuda_graph_gib if core.graphs_in_pool else 0),
        available_kv_gib=core.available_gib,
        kv_cache_tokens=core.blocks.tokens(core.num_blocks, context, reports_tokens_per_group(version))
        if core.num_blocks
        else 0,
        max_concurrency=round(min(core.max_concurrency(context), seqs_used or math.inf), 2),
        max_context=max_ctx,
        fits=fits,
        notes=notes,
        block_size=core.blocks.block_tokens,
        num_blocks=core.num_blocks,
        blocks_per_request=bpr,
        max_num_batched_tokens=setup.mnbt,
        max_num_seqs=seqs_used if seqs_used != default_seqs or seqs_given else None,
        stage=core.stage + 1 if inp.pp > 1 else None,
        breakdown=_vllm_breakdown(inp, core, setup),
        table=_vllm_table(core, inp.native) if with_table and core.num_blocks else [],
    )


def _one_request_reach(core: _VllmCore, native: int) -> str:
    """What a knob's pool lets one request reach, as the knob notes say it."""
    return f"one request up to {core.max_context(1, native):,} tokens" if core.num_blocks else "no KV"


def _encoder_knob(inp: PlanInputs, core: _VllmCore, s: _Setup) -> str | None:
    """Where the vision encoder's start-up profile is what leaves the KV short (a long max_model_len makes
    Qwen2-VL's dummy video 14 frames: memory.multimodal), the vLLM flags that take it out and the pool
    they leave; None where the profile costs little (under 0.5 GiB) or is not run."""
    if not overhead.profiles_encoder(inp.spec):
        return None
    text = _vllm_core(replace(inp.spec, skip_mm_profiling=True), s, inp.tp, inp.pp)
    freed = text.available_gib - core.available_gib
    if freed < 0.5:
        return None
    reach = _one_request_reach(text, inp.native)
    return (
        f"the vision encoder's start-up profile takes {freed:.1f} GiB: text-only "
        """(--limit-mm-per-prompt '{"image": 0, "video": 0}') or --skip-mm-profiling leaves """
        f"{text.available_gib:.1f} GiB of KV, {reach}"
    )


def _compile_knob(inp: PlanInputs, core: _VllmCore, s: _Setup) -> str | None:
    """Where a first start's compile peak (releases.compile_scratch_gib) is what the plan is short by: the
    pool --enforce-eager leaves (no compile, no CUDA graphs; slower decode) and that a restart that finds
    the compile cache profiles without it. None where the compile is not the profile's peak."""
    if not compile_scratch_gib(s.version, s.enforce_eager, s.compile_cache_warm):
        return None
    eager = _vllm_core(inp.spec, replace(s, enforce_eager=True), inp.tp, inp.pp)
    freed = eager.available_gib - core.available_gib
    if freed < 0.1:
        return None
    reach = _one_request_reach(eager, inp.native)
    return (
        f"a first start compiles the model inside vLLM's start-up profile, {freed:.2f} GiB of KV here: "
        f"--enforce-eager leaves {eager.available_gib:.2f} GiB of KV, {reach} (slower decode); a restart "
        "that finds the compile cache profiles without it"
    )


def _vllm_knobs(
    inp: PlanInputs,
    core: _VllmCore,
    s: _Setup,
    context: int,
    want: int,
    fits: bool,
    max_ctx: int,
) -> list[str]:
    """Which knob to turn, with the number it would give."""
    notes: list[str] = []
    spec = inp.spec

    def alt(tp: int = inp.tp, kv: str = s.kv_dtype, quant: str | None = None) -> _VllmCore:
        other = _Setup(**{**s.__dict__, "kv_dtype": kv})
        return _vllm_core(spec, other, tp, inp.pp, quant)

    if core.available_gib <= 0:
        notes.append(
            f"weights ({core.weights_gib:.1f} GiB) + overhead leave no room for the KV cache on "
            f"{inp.total_gib:.1f} GiB × {s.util:.2f}"
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
        encoder = _encoder_knob(inp, core, s)
        if encoder:
            # the cause first, beside "leave no room"
            notes.insert(1 if core.available_gib <= 0 else 0, encoder)
        compiled = _compile_knob(inp, core, s)
        if compiled:
            notes.append(compiled)
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
