"""Memory an engine needs besides weights and KV: activation peak, non-torch memory, CUDA graphs, buffers.

vLLM sizes its KV pool as `util × total − weights − activation_peak − non_torch` and, from 0.21, also minus
the CUDA-graph estimate it now profiles (memory.releases holds which release does what, with sources). The
pieces, per GPU:

- activation peak (Model Runner V1) = the largest of the profiled logits, the profiled forward pass and (from
  0.16, with a vision tower) the encoder's profile, plus a constant (on V2, memory.releases: the encoder term
  plus the larger of the other two, with a top-k-free sampler of ~1 copy): `max(copies × rows × vocab × 4 B, f
  × max_num_batched_tokens × MLP width per rank × 2 B, k × vision params) + constant`, rows being the profile
  batch's requests, min(max_num_seqs, max_num_batched_tokens), copies 1.5 / 8.85 (0.10.2–0.16, the sort) /
  counted from the code on 0.17–0.20 (triton_sampler_gib: 3.5 copies + one row per SM + the held hidden
  states) / 6.16 by release range, f 1.6 for dense MLPs and 3.3 for fused MoE, k 3.13 GiB per billion
  (memory.releases); on 0.10.2–0.11 the dummy encoder outputs V1 keeps through the text profile add to the
  forward / logits peak (multimodal_held_gib, memory.multimodal). The logits term is what makes Qwen
  models (vocab 151,936) heavier than Llama (128,256) at equal size and gpt-oss (201,088) heavier still on
  llm-d's H100 runs; the forward term is what makes Kimi-Linear at `--max-num-batched-tokens 64000` leave
  only 2.30 GiB on two RTX 3090 (vllm-project/vllm#28228). Under pipeline parallelism only the last
  stage computes logits.
- non-torch (CUDA context, NCCL): per release range, 0.32 / 0.45 GiB (TP1 / TP > 1) on 0.10 (dennislee22
  TP1–TP4), 0.13 / 0.55 on 0.11–0.20 (llm-d TP1 and TP2), 0.13 at any TP from 0.21, where the logs print it
  apart (vllm-project/vllm#50722, TP4). PP alone all-reduces nothing and keeps the TP1 figure (0.07 GiB
  logged at PP2 / PP4 on 0.19.0). Under TP on NVSwitch cards (H100 SXM, H200, B200) 0.17–0.20 count ~2.1 GiB
  of NVLink-multicast all-reduce buffers (llm-d-planner's 0.19.0 H100 logs, TP2 and TP4).
- PP receive buffer: every pipeline stage but the first keeps one persistent buffer for the hidden states
  and residual it receives, `2 × max_num_batched_tokens × hidden × 2 B` (pp_receive_buffer_gib; 0.16 GiB for
  Qwen3-32B at 8,192 tokens), allocated before the pool is sized.
- CUDA graphs: `0.017 GiB × layers on the GPU × min(1, 2 × max_num_seqs / 512)`, at least 0.03 GiB (logged:
  Qwen2-7B 0.50–0.65, Qwen3.5-35B-A3B TP4 1.34, gpt-oss-120b TP4 1.88, Qwen3-235B TP4+EP 3.45 at default
  batch sizes; 0.04–0.14 GiB with two or four sequences). Taken out of the pool from 0.21, before that it must
  fit in the `(1 − util)` headroom.

`max_num_batched_tokens` and `max_num_seqs` are vLLM's API-server defaults: 8192 / 1024 on GPUs with at least
70 GiB that are not A100, otherwise 2048 / 256 (vllm/engine/arg_utils.py; the A100 logs print 2048).

llama.cpp: the compute buffer is dominated by the logits of one micro-batch, `vocab × n_ubatch × 4 B` (a
Qwen3.5-9B-class hybrid at 64K logged 493 MiB; 248320 × 512 × 4 B = 485 MiB), plus small per-token
activations; each device keeps a 250 MiB platform footprint (gguf-parser's default). Ollama adds its minimum
of 457 MiB per CUDA/ROCm device (512 MiB on Metal, ml/device.go) on top of the llama.cpp graph.
"""

from __future__ import annotations

from lmscreen.model.memory.multimodal import DEFAULT_LIMIT, MultimodalProfile, multimodal_profile
from lmscreen.model.memory.releases import (
    SAMPLER_COPIES_V2,
    TRITON_SAMPLER_COPIES,
    VllmRelease,
    parse_version,
    release_for,
    uses_v2_runner,
)
from lmscreen.model.spec import ModelSpec

GIB = 1 << 30
MIB = 1 << 20

FORWARD_FACTOR = 1.6
"""Live copies of a dense MLP intermediate at the profiled forward peak (bound: Mistral-Small-24B on llm-d's
H100, 8192 tokens, 2.12 GiB in all)."""
MOE_FORWARD_FACTOR = 3.3
"""The same for fused-MoE layers, whose kernels keep top-k intermediate caches (fit: Kimi-Linear at 64,000
batched tokens on two RTX 3090, vllm-project/vllm#28228).

Kept, not yet replaced by a count. What the profile's MoE forward allocates, read in the released wheels (T
batched tokens, k = top-k, H hidden, I the expert width per rank (I/TP, whole I under expert parallelism),
bf16 caches): weight-only int checkpoints (AWQ / GPTQ / compressed-tensors W4A16, 0.11.0 and 0.15.1
fused_moe/fused_marlin_moe.py, direct `fused_marlin_moe` whatever the release, unchunked) keep
`T·k·max(2I, H)` (cache13, shared by the gate-up output and the down output) plus `T·k·I` (cache2, the
activation); the unquantized Triton path of 0.10.2–0.13 (fused_moe.py `fused_experts_impl`, called in place)
the same with T chunked at VLLM_FUSED_MOE_CHUNK_SIZE (envs.py: 32,768 on 0.10.2 / 0.11.0, 16,384 from
0.13.0); from 0.15 the modular kernel (modular_kernel.py `_allocate_buffers`, TritonExperts.workspace_shapes)
takes `T·k·max(I, H)` and `T·k·max(2I, H)` from the persistent v1/worker/workspace.py WorkspaceManager
(chunked at 16,384 on 0.15.1 / 0.17.1, unchunked from 0.19.0; the output aliases workspace13 when there is
one chunk); FlashInfer CUTLASS (`(T, H)` only), TRT-LLM (none) and gpt-oss's triton_kernels path size theirs
otherwise. moe_align's sorted ids (`T·k + E·(block − 1)` int32) are small. Tried as the forward term
(bench/planner_accuracy.py, the s36-pl3 pass): it fits the Marlin Kimi-K2.5 TP8 0.15 pools (−3.35 / −3.32,
0.61 / 0.64 GiB logged) but plans Kimi-Linear's fitted row's pool 2.6–3.9 GiB too large and flips
gpt-oss-120b's 0.10.1 refusal, so the factor still carries activation the count has not found."""
CUDA_GRAPH_PER_LAYER_GIB = 0.017
CUDA_GRAPH_MIN_GIB = 0.03
CUDA_GRAPH_FULL_CAPTURE = 512

LLAMACPP_UBATCH = 512
LLAMACPP_PLATFORM_GIB = 250 / 1024
OLLAMA_MINIMUM_GIB = 457 / 1024
OLLAMA_MINIMUM_METAL_GIB = 512 / 1024


def vllm_default_utilization(version: str | None) -> float:
    """vLLM's default --gpu-memory-utilization for a release (memory.releases)."""
    return release_for(version).default_utilization


LARGE_DEVICE_DEFAULTS_FROM = (0, 28, 0)
"""First release whose API-server defaults give a device of 160 GiB or more 16,384 batched tokens
(`EngineArgs.get_batch_defaults`, vllm/engine/arg_utils.py: "for GPUs like B200/B300 with >= 160GB memory,
use the largest defaults", 16,384 tokens and 1,024 sequences for the LLM class and the API server alike;
vllm-project/vllm#51726, merged 2026-08-10). Read in the released wheels: 0.28.0 has the tier, 0.27.0 and
0.27.1 give every device of 70 GiB or more (but an A100) 8,192 / 1,024."""
LARGE_DEVICE_GIB = 160


def vllm_batch_defaults(
    total_gib: float, gpu_name: str | None, vllm_version: str | None = None
) -> tuple[int, int]:
    """vLLM API-server defaults (max_num_batched_tokens, max_num_seqs) for a device of `total_gib` (the CUDA
    total vLLM reads with `get_device_total_memory`) on the release `vllm_version` (None: the newest)."""
    if total_gib >= LARGE_DEVICE_GIB and parse_version(vllm_version) >= LARGE_DEVICE_DEFAULTS_FROM:
        return 16384, 1024
    if total_gib >= 70 and "a100" not in (gpu_name or "").lower():
        return 8192, 1024
    return 2048, 256


def forward_bytes_per_token(spec: ModelSpec, tp: int = 1, expert_parallel: bool = False) -> int:
    """Largest MLP intermediate per token per rank (bf16): what the profiled forward pass peaks on.

    Fused MoE keeps top-k caches of (2 × expert width + hidden) per token; under tensor parallelism each
    rank holds 1/TP of every expert's width, under expert parallelism (--enable-expert-parallel) whole
    experts, so the caches are not divided: Qwen3-235B-A22B at TP8+EP on L40S logged 1.4 GiB of peak
    activation for 2,048 tokens where the TP-sharded width gives 0.09."""
    expert = spec.moe_intermediate_size or spec.intermediate_size
    if spec.num_experts and expert and spec.num_experts_per_tok:
        width = spec.num_experts_per_tok * (2 * expert + (spec.hidden_size or 0))
        return width * 2 // (1 if expert_parallel else tp)
    width = 2 * (spec.intermediate_size or 4 * (spec.hidden_size or 0))
    return width * 2 // tp


TRITON_MIN_ROWS = 8
"""`apply_top_k_top_p` (0.17–0.20) uses the Triton kernel for `logits.shape[0] >= 8` and the PyTorch sort
below that."""
SMALL_BATCH_SORT_COPIES = 6.0
"""fp32 (rows × vocab) copies at the peak of 0.17–0.20's `apply_top_k_top_p_pytorch` (batches under 8 rows):
the bf16 logits (0.5) and their fp32 copy (1), the sorted values (1) and int64 indices (2), the top-k and
top-p bool masks (0.25 each) and the top-p softmax (1); its `scatter_` writes back in place."""


def _next_power_of_2(n: int) -> int:
    return 1 << max(0, (n - 1).bit_length())


def triton_buffer_rows(rows: int, sm_count: int | None) -> int:
    """Vocabulary-wide fp32 rows of the Triton top-k/top-p kernel's buffer (topk_topp_triton.py:
    `NUM_PROGRAMS = min(num_sm, batch_size)`, `size = min(next_power_of_2(NUM_PROGRAMS), num_sm)`,
    `logits.new_empty((size, vocab_size))`, cached for the life of the process). An unknown card is taken
    to have at least as many SMs as rows."""
    sms = sm_count or rows
    return min(_next_power_of_2(min(sms, rows)), sms)


def triton_sampler_gib(
    spec: ModelSpec, rows: int, max_num_batched_tokens: int, sm_count: int | None
) -> float:
    """The dummy sampler's peak on 0.17–0.20 (V1), tensor by tensor from the release's code: the copies of
    releases.TRITON_SAMPLER_COPIES plus the kernel's per-SM buffer (or the small-batch sort), plus what
    `profile_run` still holds from the dummy forward while the sampler runs: its hidden states for every
    batched token, the last-token rows and their `torch.rand_like` copy (model dtype, 2 B)."""
    row_bytes = (spec.vocab_size or 32000) * 4
    if rows < TRITON_MIN_ROWS:
        logits = SMALL_BATCH_SORT_COPIES * rows * row_bytes
    else:
        logits = (TRITON_SAMPLER_COPIES * rows + triton_buffer_rows(rows, sm_count)) * row_bytes
    held = (max_num_batched_tokens + 2 * rows) * (spec.hidden_size or 0) * 2
    return (logits + held) / GIB


def sampler_gib(
    spec: ModelSpec,
    max_num_seqs: int,
    release: VllmRelease,
    max_num_batched_tokens: int,
    v2_runner: bool = False,
    sm_count: int | None = None,
    flashinfer_sampler: bool | None = None,
) -> float:
    """The profiled logits peak: fp32 copies of (rows × vocab), every rank holding the whole vocabulary;
    rows are the profile batch's requests, one sampled row each: min(max_num_seqs, batched tokens).
    `flashinfer_sampler` False is a run whose top-k / top-p falls back to PyTorch's sort (FlashInfer not
    installed, or VLLM_USE_FLASHINFER_SAMPLER=0): releases whose copies are FlashInfer's then profile the
    sort's (VllmRelease.native_sampler_copies); None keeps the release's own copies."""
    if release.triton_sampler and not v2_runner:
        return triton_sampler_gib(
            spec, min(max_num_seqs, max_num_batched_tokens), max_num_batched_tokens, sm_count
        )
    copies = release.sampler_copies
    if flashinfer_sampler is False and release.native_sampler_copies is not None:
        copies = release.native_sampler_copies
    if spec.is_vision and release.sampler_copies_multimodal is not None:
        copies = release.sampler_copies_multimodal
    if v2_runner:
        copies = SAMPLER_COPIES_V2
    rows = min(max_num_seqs, max_num_batched_tokens)
    return copies * rows * (spec.vocab_size or 32000) * 4 / GIB


def profiles_encoder(spec: ModelSpec) -> bool:
    """Whether vLLM's start-up profile runs the vision encoder at all: not under `--skip-mm-profiling`
    (profile_run's `mm_config.skip_mm_profiling`, 0.10.2-0.27.1), nor with every modality limited to 0
    (the budget then has no item: `get_encoder_budget()` 0, or 0.23.0's "embedding-only mode"). A modality
    the limits do not name keeps vLLM's default of 999 (multimodal.DEFAULT_LIMIT), so text-only is image
    and video both at 0, as vLLM's own `{"image": 0, "video": 0}`."""
    if not spec.is_vision or spec.skip_mm_profiling:
        return False
    limits = {k.lower(): int(v) for k, v in (spec.mm_limits or {}).items()}
    visual = (limits.get(m, DEFAULT_LIMIT) for m in ("image", "video"))
    return any(n > 0 for n in visual) or any(n > 0 for n in limits.values())


def vision_profile_gib(spec: ModelSpec, release: VllmRelease) -> float:
    """The profiled multimodal-encoder peak (one image of the maximum feature size), where the release has
    one; it is what a multimodal run with a few sequences still profiles (memory.releases)."""
    if not profiles_encoder(spec) or not spec.vision_params or release.vision_profile_gib_per_b is None:
        return 0.0
    return release.vision_profile_gib_per_b * spec.vision_params / 1e9


def activation_gib(
    spec: ModelSpec,
    tp: int = 1,
    max_num_batched_tokens: int = 2048,
    vllm_version: str | None = None,
    max_num_seqs: int = 256,
    *,
    last_stage: bool = True,
    expert_parallel: bool = False,
    sm_count: int | None = None,
    max_model_len: int | None = None,
    first_stage: bool = True,
    v2_runner: bool | None = None,
    flashinfer_sampler: bool | None = None,
) -> float:
    """vLLM's profiled activation peak on one GPU (see the module docstring; constants per release).
    `v2_runner` None asks memory.releases.uses_v2_runner with the spec's own quantization;
    `flashinfer_sampler` as sampler_gib."""
    release = release_for(vllm_version)
    factor = MOE_FORWARD_FACTOR if spec.num_experts and spec.num_experts_per_tok else FORWARD_FACTOR
    forward = factor * max_num_batched_tokens * forward_bytes_per_token(spec, tp, expert_parallel) / GIB
    v2 = uses_v2_runner(vllm_version, spec) if v2_runner is None else v2_runner
    sampler = (
        sampler_gib(spec, max_num_seqs, release, max_num_batched_tokens, v2, sm_count, flashinfer_sampler)
        if last_stage
        else 0.0
    )
    encoder = vision_profile_gib(spec, release)
    # the tower's own peak on the dummy items, counted from the vision config (memory.multimodal), on the
    # first pipeline stage, which runs the encoder; where it is counted it replaces the fitted term
    mm = (
        dummy_multimodal(spec, vllm_version, max_num_batched_tokens, max_num_seqs, max_model_len, tp)
        if first_stage and release.mm_encoder_peak
        else None
    )
    tower = mm.encoder_gib if mm else 0.0
    if mm:
        encoder = 0.0
    if v2:
        # V2 keeps the dummy encoder outputs through the text run and the sampler: the encoder term adds
        # (Qwen3.8-27B on vLLM 0.29, 8,192 batched tokens: 2.58 GiB logged = 1.44 encoder + 0.85 forward
        # + 0.15; the V1 fit's max() gave 1.59); where the items are counted, their outputs
        kept = mm.held_gib if mm else encoder
        return max(kept + max(forward, sampler), tower) + release.activation_constant_gib
    # V1 keeps the dummy encoder outputs in the encoder cache while the text batch and the sampler run
    # (memory.multimodal), on the first pipeline stage, which runs the encoder
    held = (
        multimodal_held_gib(spec, release, vllm_version, max_num_batched_tokens, max_num_seqs, max_model_len)
        if first_stage
        else 0.0
    )
    return max(forward + held, sampler + held, encoder, tower) + release.activation_constant_gib


def dummy_multimodal(
    spec: ModelSpec,
    vllm_version: str | None,
    max_num_batched_tokens: int,
    max_num_seqs: int,
    max_model_len: int | None,
    tp: int = 1,
) -> MultimodalProfile | None:
    """The dummy multimodal batch of the start-up profile (memory.multimodal) on one of `tp` ranks, None
    where none runs."""
    if not profiles_encoder(spec):
        return None
    seq_len = max_model_len or spec.max_position_embeddings or max_num_batched_tokens
    limits = spec.mm_limits
    return multimodal_profile(spec, vllm_version, max_num_batched_tokens, max_num_seqs, seq_len, limits, tp)


def encoder_run_gib(
    spec: ModelSpec,
    release: VllmRelease,
    vllm_version: str | None,
    max_num_batched_tokens: int,
    max_num_seqs: int,
    max_model_len: int | None,
    tp: int = 1,
) -> float:
    """The vision tower's activation peak while the profile encodes its dummy items, where the release
    counts it (VllmRelease.mm_encoder_peak) and the family's processor limits are known; 0 otherwise. It
    runs before the text profile, so it competes with the text peak rather than adding to it."""
    if not release.mm_encoder_peak:
        return 0.0
    mm = dummy_multimodal(spec, vllm_version, max_num_batched_tokens, max_num_seqs, max_model_len, tp)
    return mm.encoder_gib if mm else 0.0


def encoder_note(
    spec: ModelSpec,
    vllm_version: str | None,
    max_num_batched_tokens: int,
    max_num_seqs: int,
    max_model_len: int | None,
    tp: int = 1,
) -> str:
    """What the plan's activation row says about the encoder's part of the profile: the dummy items and
    the tower's peak where the release counts it, why there is none under the two flags that drop it."""
    if not spec.is_vision:
        return ""
    if not profiles_encoder(spec):
        why = "--skip-mm-profiling" if spec.skip_mm_profiling else "every modality limited to 0"
        return f"; no vision-encoder profile ({why})"
    if not release_for(vllm_version).mm_encoder_peak:
        return ""
    mm = dummy_multimodal(spec, vllm_version, max_num_batched_tokens, max_num_seqs, max_model_len, tp)
    if mm is None:
        return ""
    return (
        f"; vision encoder on {mm.items} dummy {mm.modality} item(s) of {mm.encoded_tokens:,} visual "
        f"tokens: {mm.encoder_gib:.2f} GiB peak (memory.multimodal)"
    )


def multimodal_held_gib(
    spec: ModelSpec,
    release: VllmRelease,
    vllm_version: str | None,
    max_num_batched_tokens: int,
    max_num_seqs: int,
    max_model_len: int | None,
) -> float:
    """The dummy encoder outputs V1's profile run keeps through the text profile, where the release is read
    to do so and the model's processor limits are known (memory.multimodal); 0 otherwise."""
    if not release.mm_held_outputs:
        return 0.0
    mm = dummy_multimodal(spec, vllm_version, max_num_batched_tokens, max_num_seqs, max_model_len)
    return mm.held_gib if mm else 0.0


PP_RECEIVE_TENSORS = 2
"""Tensors a decoder stage receives from the one before it: hidden_states and residual (the
`make_empty_intermediate_tensors` of vLLM's decoder models)."""


def pp_receive_buffer_gib(spec: ModelSpec, max_num_batched_tokens: int, stage: int) -> float:
    """The persistent buffer a non-first pipeline stage keeps for the tensors it receives.

    vLLM allocates it once for `max_num_batched_tokens` rows and keeps it, so that CUDA graphs replay on
    the same addresses: V1 in `_dummy_run` (gpu_model_runner.py, "if self.intermediate_tensors is None:
    ... make_empty_intermediate_tensors(batch_size=self.max_num_tokens ...)"), V2 in `load_model`
    (gpu/model_runner.py, "For non-first PP ranks, create intermediate tensors sized for the max capture
    size"). It is live when the pool is sized, so it comes out of the pool; the first stage embeds its
    input and holds none. Sized in the model dtype (2 bytes) for the hidden width of the model."""
    if stage <= 0 or not spec.hidden_size:
        return 0.0
    return PP_RECEIVE_TENSORS * max_num_batched_tokens * spec.hidden_size * 2 / GIB


def non_torch_gib(
    tp: int = 1, vllm_version: str | None = None, pp: int = 1, nvlink_multicast: bool = False
) -> float:
    """CUDA context and communication buffers outside torch's allocator, per GPU.

    The all-reduce buffers (NCCL's and vLLM's custom all-reduce) belong to the tensor-parallel group: a
    pipeline stage with TP 1 sends and receives its hidden states point to point and all-reduces nothing,
    so it keeps the TP1 figure whatever `pp` is (logged on vLLM 0.19.0, one H100 per stage: 0.07 GiB of
    non-torch memory at PP2 and PP4, 0.25 at TP1, 2.07–2.13 at TP2 / TP4; llm-d-planner
    accuracy/results/v0.19.0). On NVSwitch cards (`nvlink_multicast`) a TP group's first all-reduce also
    allocates NVLink-multicast buffers, which 0.17–0.20 count here (releases.NON_TORCH_TP_MULTICAST_GIB)."""
    release = release_for(vllm_version)
    if tp <= 1:
        return release.non_torch_tp1_gib
    multicast = release.non_torch_tp_multicast_gib
    if multicast is not None and counts_multicast(tp, vllm_version, nvlink_multicast):
        return multicast
    return release.non_torch_tp_gib


def counts_multicast(tp: int, vllm_version: str | None, nvlink_multicast: bool) -> bool:
    """Whether the non-torch figure holds NVLink-multicast all-reduce buffers: TP > 1 on an NVSwitch card,
    under a release whose logs show them (releases.NON_TORCH_TP_MULTICAST_GIB)."""
    return tp > 1 and nvlink_multicast and release_for(vllm_version).non_torch_tp_multicast_gib is not None


def cuda_graph_gib(layers: int = 32, max_num_seqs: int = 256) -> float:
    """Estimated CUDA-graph memory on one GPU for `layers` decoder layers (module docstring)."""
    capture = min(1.0, 2 * max_num_seqs / CUDA_GRAPH_FULL_CAPTURE)
    return max(CUDA_GRAPH_PER_LAYER_GIB * layers * capture, CUDA_GRAPH_MIN_GIB)


def llamacpp_compute_gib(spec: ModelSpec, ubatch: int = LLAMACPP_UBATCH) -> float:
    """llama.cpp compute buffer per device: logits of one micro-batch plus per-token activations."""
    vocab = spec.vocab_size or 32000
    hidden = spec.hidden_size or 4096
    return (vocab * ubatch * 4 + ubatch * hidden * 4 * 4) / GIB


def llamacpp_reserve_gib(engine: str = "llamacpp", apple: bool = False) -> float:
    """Fixed memory per device besides weights, KV and the compute buffer."""
    if engine == "ollama":
        return LLAMACPP_PLATFORM_GIB + (OLLAMA_MINIMUM_METAL_GIB if apple else OLLAMA_MINIMUM_GIB)
    return LLAMACPP_PLATFORM_GIB
