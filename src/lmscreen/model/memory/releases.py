"""What each vLLM release range does to the memory plan, and where each fact was read.

vLLM's KV pool is `util × total − weights − profiled activation peak − non-torch (− CUDA graphs)`, but the
terms changed across releases: which part of the profile run peaks and by how much, whether CUDA-graph memory
is taken out of the pool, the default `--gpu-memory-utilization`, and how the start-up check counts the KV of
a pipeline-parallel stage. A plan made with the newest release's rules for a user on 0.11 promises the wrong
pool (Qwen3-32B on one H100 at 0.90: 0.11 logged 4.45 GiB, newer rules give more), so every plan names the
release range it used and `--vllm-version` picks another.

The activation peak is modelled as the largest of three profiled peaks, plus a constant:

- the logits of the profile run: `sampler_copies × rows × vocab × 4 B` (fp32 logits and the sort/softmax
  copies top-k/top-p make; every TP rank holds the full vocabulary), rows being the dummy batch's requests,
  `min(max_num_seqs, max_num_batched_tokens)`: `_dummy_run` makes that many requests
  (vllm/v1/worker/gpu_model_runner.py: `num_reqs = min(num_tokens, max_num_reqs)`) and the sampler sees one
  last-token row each. vLLM's defaults batch 8 tokens per sequence on every card (8192 / 1024, 2048 / 256),
  so a fit of "8 c copies over the sequences" and one of "c copies over the batched tokens" are the same
  on default runs; a run with a few sequences and a large batch tells them apart (two RTX 3090 at 2 seqs
  and 8,192 tokens keep ~2 GiB besides weights and KV, not the 6 GiB a token-wide logits peak would take);
- the forward pass of `max_num_batched_tokens` tokens: `f × tokens × MLP width per rank × 2 B`, f 1.6 for
  dense MLPs and 3.3 for fused MoE (top-k experts) (overhead.py);
- on 0.10.2–0.11, for Qwen2-VL / Qwen2.5-VL / Qwen3-VL, the dummy encoder outputs the profile keeps
  through the text run (memory.multimodal), added to the larger of the two below;
- for Qwen2-VL / Qwen2.5-VL / Qwen3-VL, the vision tower's own peak on the dummy items, counted from the
  vision config (memory.multimodal encoder_peak_bytes_per_patch: pixels + the block's MLP-time tensors per
  patch), a peak of its own: the encoder runs before the text profile (VllmRelease.mm_encoder_peak; not
  counted on 0.12–0.13). A 14-frame Qwen2.5-VL-7B video (max_model_len 128,000) is 458,752 patches, 15.2
  GiB; `--limit-mm-per-prompt '{"image": 0, "video": 0}'` or `--skip-mm-profiling` drop it (and the two
  terms around it). For these families the count replaces the fitted per-parameter term below, and Model
  Runner V2 adds their dummy outputs (as counted) to the text peak instead of that term;
- from 0.16, for checkpoints with a vision tower, the encoder's profile (one image of the maximum feature
  size): `vision_profile_gib_per_b × vision parameters` (3.13 GiB per billion: club-3090#1087 logs 1.59 GiB
  of peak activation for Qwen3.8-27B at TP2); what keeps a few-sequence multimodal run from profiling
  almost nothing.

Fitted, release range by release range (overhead.py has the arithmetic; bench/planner_accuracy.py reruns it
and prints the error per range):

- 0.10.0–0.10.1: copies 1.5, constant 0; non-torch 0.32 GiB at TP1, 0.45 with TP/PP —
  dennislee22/vLLM-benchmarking logs (0.10.1.1, A100 80GB, Qwen2-7B-Instruct TP1/TP2/TP4). The 1.5 copies
  are FlashInfer's fused top-k / top-p sampler; a run without it (not installed, or
  VLLM_USE_FLASHINFER_SAMPLER=0; its log says "FlashInfer is not available. Falling back to the
  PyTorch-native implementation") profiles the full-vocabulary sort instead (VllmRelease.
  native_sampler_copies, read in the 0.10.1 wheel's v1/sample/ops/topk_topp_sampler.py): Qwen3-30B-A3B-2507
  at TP4 × PP2 on two GH200 nodes (0.10.1.2.dev0, 1,024 sequences, bench heldout-27) keeps 5.57 GiB less
  pool on its last stage, which runs the sampler, than on its first; the sort's 8.85 copies of 1,024 ×
  151,936 are 5.13 GiB, FlashInfer's 1.5 copies 0.87.
- 0.10.2–0.11: copies 8.85 (3.38 for checkpoints with a vision tower), constant 0.43 (0.41 since the
  weights count the rotary tables the fit had absorbed: SORT_CONSTANT_GIB);
  non-torch 0.13 / 0.55 — llm-d H100 table (0.11.0, 1024 seqs: Llama-3.1-8B 4.76, Qwen3-0.6B 5.56,
  Qwen3-32B 5.64, gpt-oss 7.38 GiB; Mistral-Small-3.2 2.12 GiB). The boundary is a patch release: both
  logged 0.10.2 start-ups keep what 0.11 keeps, not what 0.10.1.1 keeps — Qwen3-Next-80B-A3B on two H200
  at the 1024-sequence default (LegalAI-DataPipeline log: 44.59 GiB of KV, 51.08 with 0.10.1's sampler,
  46.29 with 0.11's) and Qwen3-235B-A22B-2507-FP8 TP8+EP on L40S (10.65 logged, 11.30 / 10.21). Both rows
  had been scored blind before this boundary was moved (bench/planner_accuracy.py keeps those scores);
  which 0.10.2 change grew the profiled sampler is not read in vLLM's source here (the repository snapshot
  was too large to fetch at the tags), so the range is set by the logs alone.
- 0.12–0.15: 0.11's sampler (SORT_SAMPLER_COPIES, SORT_CONSTANT_GIB) and no per-parameter encoder term:
  V1's dummy sampler still filters top-k / top-p by PyTorch's full-vocabulary sort, whose size
  vllm-project/vllm#32558 measures (1.25 GB for 256 × 131,072 fp32 logits, ~9.3 copies). The 0.13.0 logs
  agree: a Qwen3-VL-30B-A3B on an H100 NVL at 1,024 sequences keeps 6.5 GiB besides weights and KV (the
  sort-size sampler gives 5.6, the 4.96-copy one 3.0), and Qwen2-VL-7B on an RTX 3090 at 256 sequences
  profiles 1.39 GiB in all, below the per-parameter encoder term alone (2.1 GiB, fitted on a 2026-08
  build): that term is not applied before 0.16. Both logs were held out and looked at for this change.
- 0.16: the sort of 0.12–0.15 (SORT_SAMPLER_COPIES, SORT_CONSTANT_GIB), the PP check per stage again
  (#33698): vllm-0.16.0's sdist has no topk_topp_triton.py and `apply_top_k_top_p` sorts the vocabulary.
- 0.17–0.20: the Triton top-k / top-p kernel of vllm-project/vllm#33538 (first in the 0.17.0 sdist,
  TRITON_SAMPLER_FROM), and the sampler's peak is counted tensor by tensor from vllm-0.17.1's code instead
  of fitted (overhead.triton_sampler_gib): `_dummy_sampler_run` keeps the bf16 logits while
  `Sampler.forward` makes the fp32 copy, the kernel masks in place with a cached buffer of one vocabulary
  row per SM (`min(next_power_of_2(min(num_sm, rows)), num_sm)` rows), then `softmax` and `random_sample`'s
  `empty_like` add two more copies (TRITON_SAMPLER_COPIES 3.5 + the buffer), while `profile_run` still
  holds the dummy forward's hidden states; no constant besides non-torch 0.13 / 0.55 (llm-d's logged
  non-torch). The fit it replaces (4.96 copies + 0.15 GiB on the myoceane.fr 0.19.0 A100 log) left one
  RTX 3090 on 0.17.1 0.31–0.35 GiB short of five logged pools (bench/data/vllm-logs-heldout-13.csv, looked
  at for this change); counted, those come within 0.2–7.4% (the small pools), the gpt-oss-20b A100 log
  within 0.3% and Qwen2.5-72B at TP4 on four L40S (0.19.0) within 3.2%. The same tensors in 0.19.0 and
  0.20.0 (`_dummy_sampler_run` gains only `logprob_token_ids=None`).
- 0.21–0.33: copies 6.16, constant 0.15 (0.115 net of the rotary tables, V21_CONSTANT_GIB), non-torch 0.13
  at any TP, and the
  CUDA-graph estimate is subtracted from the pool ("CUDA graph memory profiling is enabled (default since
  v0.21.0)" in 0.2x start-up logs; `VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS` "Enabled by default as of
  v0.21.0", vllm-project/vllm#41099) by the V1 runner — the 4×L40S log (0.24.0, Qwen3-Coder-30B-A3B TP4
  at 0.90: 23.74 GiB). Model Runner V2 takes none out before 0.29 (V2_CUDAGRAPH_ESTIMATE_FROM): the RTX 4080
  log (0.26.0, Qwen2.5-7B-AWQ on V2: 8.00 GiB = budget − 5.29 − 1.04 − 0.06, its 0.48 GiB of graphs beside).

Model Runner V2 (uses_v2_runner: Qwen3 dense unquantized from 0.22, Llama / Mistral too from 0.23, those and
three MoE architectures with any weights on 0.24, every dense non-hybrid model from 0.25, every model from
0.29, as each release's config/vllm.py `_is_default_v2_model_runner_model` reads): its profile run
samples the dummy logits without top-k / top-p (SAMPLER_COPIES_V2, ~1 fp32 copy) and keeps the dummy encoder
outputs through the text run, so the encoder term adds to the forward/sampler peak instead of competing with
it (overhead.activation_gib). Logged: Qwen3.8-27B on an RTX PRO 6000 at 0.29.0 keeps 652 state blocks at 256
sequences and 635 at 1,024 (V1's sampler planned 570), Qwen2.5-0.5B on an RTX 4090 at 0.27.1 profiles 0.31
GiB at 256 sequences (V1: 1.04). A dated nightly ("2026-08 build") is planned as the newest release logged by
that month (RELEASED_BY).

What these terms leave out: a first boot's compile. With torch >= 2.10 vLLM AOT-compiles the model inside the
profile run on a compile-cache miss (compilation/decorators.py of the 0.24.0-0.26.0 wheels: `aot_compile`,
then the profiling forward, both inside gpu_worker's `memory_profiling` with no peak reset between them), so
the compiler's temporaries count as peak activation until a restart finds the cache (vllm-project/vllm#54122,
#54383). The logs the constants above were fitted on do not say whether their cache was warm; 0.26-0.31 dense
models on V2 keep 0.4-1.3 GiB more than the V2 terms plan, and two 0.24.0 logs of one command 0.95. The size
is Inductor's and Triton's scratch, which vLLM's code does not bound, so it is not planned
(bench/planner_accuracy.py, s36-pl2 pass).

The sampler warm-up (read in 0.11.0 and 0.19.0 gpu_worker.py `compile_or_warm_up_model`): after the KV
pool is allocated the worker runs the compile-size warm-ups, `kernel_warmup` (FlashInfer autotune on sm90+:
a `_dummy_run(max_num_batched_tokens)`) and `capture_model` (which measures the graphs as the drop in free
memory, no `empty_cache` around it), then on the last pipeline rank
`_dummy_run(num_tokens=min(max_num_seqs, max_num_batched_tokens))` and `_dummy_sampler_run` again ("This is
called after `capture_model` on purpose to prevent memory buffers from being cleared by ... empty_cache"); an
OOM there is raised as "CUDA out of memory occurred when warming up sampler with N dummy requests". Those are
the rows of the profile's own sampler run, so its tensors are the ones the profiled peak already counts (the
sampler term here). What is free for them: `memory_profiling` (utils/mem_utils.py) ends with
`gc.collect(); empty_cache()`, so after the pool `(1 − util) × total + the profiled peak` is free less the
CUDA context of the init snapshot (outside `requested_memory`: 0.51 GiB on an H100, 0.19.0), and through
0.20 the graphs come out of that (cudagraph_in_pool False; 0.19.0 computes `profile_cudagraph_memory` but
subtracts it only under VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS). llm-d-planner's gpt-oss-20b at 0.95 on
0.19.0 (TP1) failed at `random_sample`'s `torch.empty_like(probs)` (786 MiB = 1,024 × 201,088 × 4 B, the
fourth fp32 copy) with 74.91 GiB allocated by PyTorch, 0.61 GiB in graph pools, 1.78 GiB reserved but
unallocated and 1.95 GiB outside PyTorch: the warm-up had the memory in sum and lost it to the caching
allocator's split blocks. Checked on every planned row with a logged outcome (191), no rule in these terms
predicts the warm-up failures without failing start-ups that came up: with the planned graphs, the spare
`(1 − util) × total + peak − graphs − sampler` is 3.55 GiB for both gpt-oss-20b failures and 8.35 for
GLM-4.7 NVFP4 at TP4 (0.90, 0.15.1), where 89 planned start-ups with the graphs outside the pool came up
keeping 1.24 GiB or more; with the logged graphs gpt-oss-20b TP2 at 0.95 (graphs 1.55) keeps more than
Qwen2.5-72B TP2 at 0.95 (1.61), which started; and the RTX 3090 Llama-3.1-8B run at 0.90 on 0.17.1 is logged
once starting and once failing the warm-up with the same command (pools 5.68 / 5.61). The plan gives the
graph estimate as a warning, not a verdict.

Start-up checks that changed:

- 0.14.0–0.15.x check a pipeline stage's pool against the KV of the *whole* model (regression of
  vllm-project/vllm#29431, fixed by #33698 on 2026-02-03; logged by #32105 on a nightly and #34076 on
  0.15.2rc1): a PP plan that fits per stage still fails to start there.
- From 0.21 a hybrid (Mamba / gated-delta) model fails at CUDA-graph capture when `max_num_seqs` exceeds the
  pool's blocks ("max_num_seqs (256) exceeds available Mamba cache blocks (134)", aws-samples
  sample-claude-code-multi-model on 0.24.0; vllm-project/vllm#49064). The release that added the check is
  not logged; 0.21 is assumed.

Default utilization: 0.90 through 0.20 (llm-d's 0.11 runs log "0.9 (default)"; dennislee22 0.10 runs),
0.92 in the 0.33 argument parser (research engine-flags). Where in 0.21–0.33 it moved is not logged.

Known gaps, left unmodelled rather than patched with a constant per row:

- Workstation/consumer Blackwell (sm120) at vLLM's 8192 / 1024 defaults keeps 13–15 GiB outside weights and
  KV for Qwen3.8-27B (recipes#831 on an RTX PRO 6000: 939 / 1011 / 556 state blocks for FP8 / NVFP4 / BF16),
  where these terms give 7.2 and the same model class on an H100 logs ~6 (recipes#551, Qwen3.6-27B-FP8, 0.95:
  856 blocks). Read in vLLM's gpu_model_runner.py (profile_run, profile_cudagraph_memory): the profile keeps
  the dummy encoder outputs in the encoder cache while the text dummy run and the sampler run (so the encoder
  term adds rather than maxes, but at an image budget of 16,384 tokens × 5,120 × 2 B that is 0.16 GiB), and
  from 0.21 the CUDA-graph estimate is the first capture of each mode plus the second capture's size × the
  remaining graphs (FULL and PIECEWISE, up to 67 each at 1024 sequences), which is measured, not derivable
  from the config. Which of these grows on sm120 is not shown by any log found; recipes#854 adds
  `--skip-mm-profiling` to every SM120 profile, which points at the multimodal profile. A later log narrows
  it to the context, not the card: the same model in bf16 on an RTX PRO 6000 at 0.29.0 with
  `--max-model-len 8192` keeps 652 / 635 state blocks at 256 / 1,024 sequences, which these terms reproduce
  within 2% (bench/data/vllm-logs-heldout-6.csv), so the 6–9 GiB the recipe runs keep beyond the plan come
  with their default 262,144-token context. vLLM sizes the multimodal dummy (a video of as many frames as
  the sequence length allows, up to the processor's limit) from max_model_len, and encodes it in the
  profile; the catalog holds no processor limits (frames, pixels), so that peak is not modelled.
- gpt-oss-120b on 0.11 with the default max-model-len (vllm#27508: 1.71 GiB at 0.95, −2.28 at 0.90) keeps
  ~9.15 GiB besides the weights where llm-d's 16,000-token runs of the same release keep 7.5; both logs of
  #27508 agree with each other at 1024 and 8192 batched tokens, so the extra sits in the sampler-sized part,
  not the forward pass. vLLM falls back to PyTorch top-k/top-p (a full sort: values, int64 indices and a
  scatter copy) when FlashInfer is missing, which would add about two fp32 copies of the 1024 × 201,088
  logits; the #27508 log does not say which sampler ran. Nothing in 0.11.0's profile of a text model
  depends on max_model_len (gpu_model_runner.py: the profile's `_dummy_run` builds no attention metadata;
  InputBatch's max_model_len-wide token buffers are on the CPU), so the two setups differ elsewhere. A
  reading that fits both #27508 logs: their environment is a conda pip install (collect_env: Python 3.13.9
  conda-forge, torch 2.8.0+cu128), and 0.11.0's `get_mxfp4_backend` (quantization/mxfp4.py) gives Hopper
  the Triton MoE only when the `triton_kernels` package is present (vLLM's docker image ships it, the pip
  wheel does not require it), else Marlin, whose repacked weights are 65.97 GiB (vllm#23278, 0.10.1)
  against Triton's 64.38 (llm-d, #33155): 1.59 GiB less pool, which would plan 1.92 / −2.04 against the
  logged 1.71 / −2.28. The #27508 excerpts print neither the backend line nor the weights, so this is not
  modelled (the planner cannot know which packages a user installed).
- The multimodal encoder's profile: from 0.16 a per-parameter term (VISION_PROFILE_GIB_PER_B, one log). On
  0.10.2–0.11 the plan counts what vLLM's code keeps instead (memory.multimodal, read in the 0.10.2, 0.11.0,
  0.12.0, 0.13.0 and 0.19.1 wheels): profile_run encodes the largest dummy item of the encoder budget
  (max(max_num_batched_tokens, the item's tokens)) and keeps its outputs in the encoder cache through the
  text dummy run and the sampler. 0.11.0 first pads every output shorter than the budget to the budget
  (`output.new_zeros((encoder_budget, width))`, gpu_model_runner.py line 3366), and the loop variable keeps
  the unpadded output alive too. Qwen3-VL's 153,600-token budget at 0.11 (bench heldout-4's 4×RTX 3090 log)
  is 12,288 × 12.5 (through 0.12.x qwen3_vl.py counts each visual token of a dummy video as 12.5 prompt
  tokens for its timestamp text), so the cache holds 153,600 padded rows × 2,048 × 4 DeepStack levels × 2 B
  = 2.34 GiB plus the 12,288-row output (0.19 GiB) on every TP rank: that log's pool is planned 2.69 GiB
  (5.04 before the padding was read; 2.31 logged, 0.24 of the difference being its weights, logged 14.77
  per GPU, planned 14.53). One A100 at 262,144 tokens (file-qwen3vl-30b-a3b-a100-0.11, heldout-18) still
  keeps ~1.8 GiB more than planned (9.83 / 8.04); what TP1 adds there (the tower unsharded: the encoder's
  own peak precedes the padding and is not a term here) is not shown by any log with its weights.
  On 0.12–0.15 the held outputs are not counted though the code keeps them (0.12.0 pads to the item's
  tokens instead of the budget): see VllmRelease.mm_held_outputs.
- Pipeline parallel on Model Runner V2 (Qwen3-32B PP2 at 0.27.1, bench/data/vllm-logs-heldout-7.csv): each
  stage keeps 3.03 GiB besides weights and KV (the same tutorial's TP2 run: 1.66), where these terms give
  2.07. Read in vllm/v1/worker/gpu/model_runner.py (profile_run): the encoder is profiled on the first rank
  only, the dummy sampler runs on the last rank only, non-first ranks hold a max_num_batched_tokens
  IntermediateTensors buffer (0.16 GiB here; modelled since, overhead.pp_receive_buffer_gib, so the second
  stage binds the plan at 7.69 GiB), and `profile_cudagraph_memory` returns 0 in one V2 snapshot; none of
  these adds ~1 GiB to the first stage, whose log (PP0) sets the block count (3,540 blocks of 2 MiB = the
  6.92 GiB it prints), so that term is not modelled. After start-up nvidia-smi shows 40,701 / 43,667 MiB on
  the two stages (TP2: 45,171 each).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from lmscreen.errors import InputError

LAST_PATCH = 99
"""Stands for "every patch release" in a range's upper bound."""


@dataclass(frozen=True)
class VllmRelease:
    """One range of vLLM releases that share the memory accounting."""

    label: str
    first: tuple[int, int, int]
    last: tuple[int, int, int]
    """(major, minor, patch) bounds, both included; LAST_PATCH stands for every patch of the minor release."""
    default_utilization: float
    sampler_copies: float
    """fp32 copies of (rows × vocab) at the peak, rows = min(max_num_seqs, max_num_batched_tokens): the
    profile run's dummy batch has that many requests and the sampler sees one row per request."""
    sampler_copies_multimodal: float | None
    """The same for checkpoints with a vision tower, where the release profiles them differently."""
    vision_profile_gib_per_b: float | None
    """Profiled multimodal-encoder peak per billion vision-tower parameters (the profile run also encodes
    one image of the maximum feature size); None where the release's rows carry no such term."""
    activation_constant_gib: float
    non_torch_tp1_gib: float
    non_torch_tp_gib: float
    """Per GPU when TP > 1 (NCCL and custom all-reduce buffers; PP alone keeps the TP1 figure)."""
    cudagraph_in_pool: bool
    """True when the profiled CUDA-graph estimate is taken out of the KV pool."""
    pp_check_whole_model: bool
    """True when the start-up check compares a PP stage's pool with the whole model's KV."""
    mamba_seq_check: bool
    """True when max_num_seqs above the pool's blocks fails at start-up for hybrid models."""
    tokens_per_group: bool
    """True when "GPU KV cache size" reports blocks // groups × block size (vllm#40691); later releases report
    max concurrency × max-model-len (vllm#51041). The switch falls inside the 0.17–0.20 range, at 0.20.1
    (TOKENS_FROM_CONCURRENCY_FROM): ask `reports_tokens_per_group(version)`, not this field alone."""
    sources: tuple[str, ...]
    mm_held_outputs: bool = False
    """True where the plan counts the dummy encoder outputs V1's profile run keeps through the text profile,
    sized by the model's processor limits (memory.multimodal). Read the same in 0.11.0, 0.12.0, 0.13.0 and
    0.19.1 (profile_run), but counted on 0.10.2–0.11 only: on 0.12–0.15 the 0.11-fitted sort sampler already
    plans a 256-sequence profile ~0.3–0.4 GiB high (heldout-11's 0.15.1 A100, heldout-5's two Qwen2-VL-7B
    RTX 3090 pools), and adding Qwen2-VL's 0.11 GiB of held outputs on top takes its bf16 pool from 8.2% to
    10.7% (H100 NVL Qwen3-VL-30B-A3B: 3.6% -> 2.3%); that sampler is to be fixed first. From 0.16 the
    fitted per-parameter term (vision_profile_gib_per_b) stands for the whole multimodal profile."""
    mm_encoder_peak: bool = False
    """True where the plan counts the vision tower's own activation peak on the profile's dummy items
    (memory.multimodal encoder_peak_bytes_per_patch) as a peak of its own beside the text profile's.
    profile_run encodes the dummy items before the text run in every V1 release read (0.10.1, 0.10.2, 0.11.0,
    0.13.0, 0.14.0, 0.16.0, 0.17.1, 0.19.0, 0.20.0, 0.21.0-0.23.0, 0.26.0, 0.27.1), and the count meets the
    logs where the tower outweighs the text profile: Qwen2.5-VL-7B's 14-frame video at 0.23.0 (A100,
    heldout-29: -14.28 GiB logged, -14.09 planned; -1.01 without it), Qwen3-VL-30B-A3B-FP8's first PP stage
    at 0.14 (heldout-27: 9.05 / 9.61; 10.91 without it). Off on 0.12–0.13 although the code is the same:
    the two Qwen2-VL-7B logs there (heldout-5, RTX 3090 at 0.13.0) profile 1.26 GiB in all, less than the
    pixels and two MLP-wide tensors of a 16,384-token image alone (1.39 GiB); they are a fine-tune whose
    preprocessor_config (max_pixels, which sizes the dummy image) is not known, so the count is left out
    there rather than fitted to them."""
    non_torch_tp_multicast_gib: float | None = None
    """Per GPU under TP > 1 on NVSwitch cards (GPU.nvlink_multicast), where the release's profile counts
    the multicast all-reduce buffers the first forward allocates; None where no log shows it (then
    non_torch_tp_gib)."""
    triton_sampler: bool = False
    """True when the profile's sampler peak is counted tensor by tensor from the release's code (the Triton
    top-k/top-p kernel of 0.17–0.20: overhead.triton_sampler_gib) instead of by sampler_copies."""
    native_sampler_copies: float | None = None
    """fp32 (rows × vocab) copies when the run does not use FlashInfer's sampler, where `sampler_copies` are
    FlashInfer's; None where `sampler_copies` already describe the PyTorch path. On 0.10.0–0.10.1 V1's
    TopKTopPSampler (v1/sample/ops/topk_topp_sampler.py, vllm-0.10.1 wheel) samples top-k / top-p with
    FlashInfer's fused kernel only when `flashinfer` >= 0.2.3 imports and VLLM_USE_FLASHINFER_SAMPLER is not
    0; otherwise it logs "FlashInfer is not available. Falling back to the PyTorch-native implementation"
    (or "... is available, but it is not enabled") and `forward_native` runs `apply_top_k_top_p`, the
    full-vocabulary sort of 0.10.2–0.16 (SORT_SAMPLER_COPIES). The profile's `_dummy_sampler_run` sets top-k
    (vocab − 1) and top-p (0.9) for every dummy request, so the path taken is the one profiled."""

    @property
    def span(self) -> str:
        a, b = self.first, self.last
        start = f"{a[0]}.{a[1]}" + (f".{a[2]}" if a[2] else "")
        end = f"{b[0]}.{b[1]}" + (f".{b[2]}" if b[2] != LAST_PATCH else "")
        if a[:2] == b[:2] and a[2] == 0 and b[2] == LAST_PATCH:
            return start
        return start if start == end else f"{start}–{end}"

    def describe(self, version: str) -> str:
        return f"vLLM {version} (release range {self.span}: {self.label})"


LLMD = "llm-d/llm-d-benchmark config_explorer/empirical-vllm-memory-results.md (0.11.0, H100)"
DENNISLEE = "https://github.com/dennislee22/vLLM-benchmarking (0.10.1.1 start-up logs, A100)"
MYOCEANE = "https://myoceane.fr/index.php/ai-vllm-a100-gemma-4/ (0.19.0 start-up log, A100)"
LLMD_PLANNER = (
    "https://github.com/llm-d-incubation/llm-d-planner/tree/d3121e059da88662db39a926a3ead964be97359b/"
    "accuracy/results/v0.19.0/logs (0.19.0 start-up logs, H100 SXM, TP1-TP4, PP2-PP4)"
)
AWS_L40S = (
    "https://github.com/aws-samples/sample-claude-code-multi-model/blob/main/self-hosted/vllm/README.md "
    "(0.24.0, 4×L40S)"
)
RTX4080 = "research/vllm-measurements-calibration.csv file-4080-qwen25awq (0.26.0)"

CLUB3090_1087 = "https://github.com/noonghunna/club-3090/issues/1087 (2026-08 build)"
V21_CONSTANT_GIB = 0.15 - 0.035
"""0.21–0.33's activation constant fitted on the RTX 4080 and 4×L40S logs (0.15 GiB), less their rotary
tables (Qwen2.5-7B 0.008, Qwen3-Coder-30B-A3B 0.0625 GiB), which the weights now count."""
VISION_PROFILE_GIB_PER_B = (1.59 - V21_CONSTANT_GIB) / 0.4607
"""GiB of profiled encoder peak per billion vision-tower parameters: club-3090#1087 logs "1.59 GiB for peak
activation" for Qwen3.8-27B-FP8 at TP2 (0.46 B vision parameters) less the release's constant
(V21_CONSTANT_GIB)."""

SORT_SAMPLER_COPIES = 8.85
"""fp32 copies of (rows × vocab) V1's profile keeps while its dummy sampler applies top-k / top-p (set to
vocab − 1 and 0.9 for every dummy request) by PyTorch's full-vocabulary sort: the sorted values, their int64
indices, the mask and scatter copies, softmax and the exponential draw. Fitted with the 0.43 GiB constant
(SORT_CONSTANT_GIB) on llm-d's 0.11.0 H100 table; the sort's own size is measured in vllm-project/vllm#32558
(njhill, 2026-01-18: 1.25 GB for 256 × 131,072 fp32 logits, ~9.3 copies; its Triton kernel 0.38 GB)."""
SORT_CONSTANT_GIB = 0.43 - 0.02
"""The constant fitted with SORT_SAMPLER_COPIES (llm-d, 0.11.0: 0.43 GiB), less the rotary cos/sin tables
of the rows it was fitted on (0.01–0.03 GiB, 0.02 on average), which the weights now count
(memory.weights.rope_cache_bytes): the fit had absorbed them, as its weights did not hold them."""
TRITON_SAMPLER_COPIES = 3.5
"""fp32 (rows × vocab) copies alive at the peak of 0.17–0.20's dummy sampler run, counted in its code
(vllm-0.17.1 sdist): `_dummy_sampler_run` keeps the model-dtype logits (bf16: half a copy) while
`Sampler.forward` makes the fp32 copy (`logits.to(torch.float32)`), temperature divides in place, the Triton
kernel masks top-k / top-p in place, and `forward_native` then allocates the probabilities (`softmax`) and
`random_sample` the exponential draw (`torch.empty_like(probs)`): 0.5 + 1 + 1 + 1. The kernel's per-SM row
buffer comes on top (overhead.triton_sampler_gib)."""
TRITON_SAMPLER_FROM = (0, 17, 0)
"""First release that filters top-k / top-p with the Triton kernel of vllm-project/vllm#33538 instead of the
sort, which `apply_top_k_top_p_pytorch` keeps only for batches under 8 rows: read in the released sources
(PyPI sdists): vllm-0.16.0 has no vllm/v1/sample/ops/topk_topp_triton.py and its `apply_top_k_top_p` sorts;
vllm-0.17.0 ships the file and `apply_top_k_top_p` calls `apply_top_k_top_p_triton` for
`logits.shape[0] >= 8` (the same in 0.17.1, 0.19.0 and 0.20.0)."""
NON_TORCH_TP_MULTICAST_GIB = 2.1
"""Non-torch memory per H100 SXM under TP on 0.19.0: the profile's "non-torch forward increase memory" is
2.06-2.11 GiB at TP2 over ten models (Llama-3.1-8B, Qwen2.5-7B / 72B, Mixtral-8x7B, gpt-oss-20b, Llama-3.3-70B
FP8 / W8A8 ...) and 2.13-2.21 at TP4, where one H100 logs 0.25, PP2 / PP4 0.07, and TP4 on PCIe L40S (0.19,
bench heldout-8) fits the 0.55 of non_torch_tp_gib: the first all-reduce over NVLink multicast allocates it
(VLLM_ALLREDUCE_USE_SYMM_MEM on in those logs; LLMD_PLANNER). 0.11.0's llm-d H100 TP2 row logs 0.55 and
0.12-0.16 have no such log, so only 0.17-0.20 carry it; from 0.21 vLLM prints the non-torch memory apart and
its H100 TP4 log shows 0.13 (vllm-project/vllm#50722)."""


RELEASES: tuple[VllmRelease, ...] = (
    VllmRelease(
        label="small sampler peak over max_num_seqs rows",
        first=(0, 10, 0),
        last=(0, 10, 1),
        default_utilization=0.90,
        sampler_copies=1.5,
        sampler_copies_multimodal=None,
        vision_profile_gib_per_b=None,
        activation_constant_gib=0.0,
        non_torch_tp1_gib=0.32,
        non_torch_tp_gib=0.45,
        cudagraph_in_pool=False,
        pp_check_whole_model=False,
        mamba_seq_check=False,
        tokens_per_group=True,
        mm_encoder_peak=True,
        sources=(DENNISLEE,),
        native_sampler_copies=SORT_SAMPLER_COPIES,
    ),
    VllmRelease(
        label="sampler peak ~9 fp32 copies over max_num_seqs rows",
        first=(0, 10, 2),
        last=(0, 11, LAST_PATCH),
        default_utilization=0.90,
        sampler_copies=SORT_SAMPLER_COPIES,
        sampler_copies_multimodal=3.38,
        vision_profile_gib_per_b=None,
        activation_constant_gib=SORT_CONSTANT_GIB,
        non_torch_tp1_gib=0.13,
        non_torch_tp_gib=0.55,
        cudagraph_in_pool=False,
        pp_check_whole_model=False,
        mamba_seq_check=False,
        tokens_per_group=True,
        mm_held_outputs=True,
        mm_encoder_peak=True,
        sources=(
            LLMD,
            "https://github.com/vllm-project/vllm/issues/28228 (Kimi-Linear, 0.11.x)",
            "LegalAI-DataPipeline vLLM start-up log (0.10.2, Qwen3-Next-80B-A3B, 2×H200)",
            "bench/data/vllm-logs-heldout.csv l40s-qwen3-235b-2507-fp8-tp8-ep (0.10.2, 8×L40S)",
        ),
    ),
    VllmRelease(
        label="sort-based top-k/top-p sampler peak, CUDA graphs outside the pool",
        first=(0, 12, 0),
        last=(0, 13, LAST_PATCH),
        default_utilization=0.90,
        sampler_copies=SORT_SAMPLER_COPIES,
        sampler_copies_multimodal=None,
        vision_profile_gib_per_b=None,
        activation_constant_gib=SORT_CONSTANT_GIB,
        non_torch_tp1_gib=0.13,
        non_torch_tp_gib=0.55,
        cudagraph_in_pool=False,
        pp_check_whole_model=False,
        mamba_seq_check=False,
        tokens_per_group=True,
        mm_encoder_peak=False,  # see VllmRelease.mm_encoder_peak
        sources=(
            "https://github.com/vllm-project/vllm/pull/32558 (the sort's memory; Triton kernel: #33538)",
            "bench/data/vllm-logs-heldout-5.csv zhuoyuan-qwen2vl-7b-* (0.13.0, RTX 3090)",
            "bench/data/vllm-logs-heldout-8.csv h100nvl-qwen3-vl-30b-a3b-bf16-0.13 (0.13.0)",
        ),
    ),
    VllmRelease(
        label="PP start-up check counts the whole model's KV (vllm#29431)",
        first=(0, 14, 0),
        last=(0, 15, LAST_PATCH),
        default_utilization=0.90,
        sampler_copies=SORT_SAMPLER_COPIES,
        sampler_copies_multimodal=None,
        vision_profile_gib_per_b=None,
        activation_constant_gib=SORT_CONSTANT_GIB,
        non_torch_tp1_gib=0.13,
        non_torch_tp_gib=0.55,
        cudagraph_in_pool=False,
        pp_check_whole_model=True,
        mamba_seq_check=False,
        tokens_per_group=True,
        mm_encoder_peak=True,
        sources=(
            "https://github.com/vllm-project/vllm/pull/33698 (fix of #32105, regression of #29431)",
            "https://github.com/vllm-project/vllm/issues/34076 (0.15.2rc1)",
            "https://github.com/vllm-project/vllm/issues/33155 (0.14.1)",
        ),
    ),
    VllmRelease(
        label="sort-based top-k/top-p sampler, PP check per stage again (vllm#33698)",
        first=(0, 16, 0),
        last=(0, 16, LAST_PATCH),
        default_utilization=0.90,
        sampler_copies=SORT_SAMPLER_COPIES,
        sampler_copies_multimodal=None,
        vision_profile_gib_per_b=VISION_PROFILE_GIB_PER_B,
        activation_constant_gib=SORT_CONSTANT_GIB,
        non_torch_tp1_gib=0.13,
        non_torch_tp_gib=0.55,
        cudagraph_in_pool=False,
        pp_check_whole_model=False,
        mamba_seq_check=False,
        tokens_per_group=True,
        mm_encoder_peak=True,
        sources=(
            "vllm-0.16.0 sdist: v1/sample/ops/topk_topp_sampler.py apply_top_k_top_p (full-vocabulary sort)",
            "https://github.com/vllm-project/vllm/pull/33698",
        ),
    ),
    VllmRelease(
        label="Triton top-k/top-p sampler (vllm#33538), its peak counted from the code",
        first=TRITON_SAMPLER_FROM,
        last=(0, 20, LAST_PATCH),
        default_utilization=0.90,
        sampler_copies=TRITON_SAMPLER_COPIES,
        sampler_copies_multimodal=None,
        vision_profile_gib_per_b=VISION_PROFILE_GIB_PER_B,
        activation_constant_gib=0.0,
        non_torch_tp1_gib=0.13,
        non_torch_tp_gib=0.55,
        non_torch_tp_multicast_gib=NON_TORCH_TP_MULTICAST_GIB,
        cudagraph_in_pool=False,
        pp_check_whole_model=False,
        mamba_seq_check=False,
        tokens_per_group=True,
        mm_encoder_peak=True,
        sources=(
            "vllm-0.17.1 sdist: gpu_model_runner.py _dummy_sampler_run / profile_run, v1/sample/sampler.py, "
            "v1/sample/ops/topk_topp_sampler.py, topk_topp_triton.py (the same in 0.19.0 and 0.20.0)",
            MYOCEANE,
            "https://github.com/vllm-project/vllm/pull/33538 (Triton top-k/top-p kernels)",
            LLMD_PLANNER,
        ),
        triton_sampler=True,
    ),
    VllmRelease(
        label="CUDA-graph memory profiled and taken out of the pool",
        first=(0, 21, 0),
        last=(0, 33, LAST_PATCH),
        default_utilization=0.92,
        sampler_copies=6.16,
        sampler_copies_multimodal=None,
        vision_profile_gib_per_b=VISION_PROFILE_GIB_PER_B,
        activation_constant_gib=V21_CONSTANT_GIB,
        non_torch_tp1_gib=0.13,
        non_torch_tp_gib=0.13,
        cudagraph_in_pool=True,
        pp_check_whole_model=False,
        mamba_seq_check=True,
        tokens_per_group=False,
        mm_encoder_peak=True,
        sources=(
            "https://github.com/vllm-project/vllm/pull/41099 (VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS)",
            AWS_L40S,
            RTX4080,
            CLUB3090_1087,
        ),
    ),
)
NEWEST = RELEASES[-1]
NEWEST_VERSION = f"{NEWEST.last[0]}.{NEWEST.last[1]}"
"""The newest release modelled, as major.minor (every patch of it)."""
OLDEST = RELEASES[0]


V2_DEFAULT_FROM = (0, 22, 0)
"""First release that runs Model Runner V2 without VLLM_USE_V2_MODEL_RUNNER: vllm-0.21.0's wheel selects it
only when the variable is set (config/vllm.py); 0.22.0 has `use_v2_model_runner` pick it by architecture."""
V2_DEFAULT_ARCHITECTURES: tuple[tuple[tuple[int, int, int], frozenset[str], bool], ...] = (
    ((0, 22, 0), frozenset({"Qwen3ForCausalLM"}), True),
    ((0, 23, 0), frozenset({"Qwen3ForCausalLM", "LlamaForCausalLM", "MistralForCausalLM"}), True),
    (
        (0, 24, 0),
        frozenset(
            {
                "Qwen3ForCausalLM",
                "LlamaForCausalLM",
                "MistralForCausalLM",
                "DeepseekV2ForCausalLM",
                "Qwen2MoeForCausalLM",
                "GraniteMoeForCausalLM",
            }
        ),
        False,
    ),
)
"""Releases that run V2 by default for a listed architecture only, each with its list
(DEFAULT_V2_MODEL_RUNNER_ARCHITECTURES) and whether the model must be dense and unquantized, as
`_is_default_v2_model_runner_model` reads in the vllm-0.22.0, 0.23.0 and 0.24.0 wheels (config/vllm.py):
0.22.0 and 0.23.0 return `not model_config.is_moe and not model_config.is_quantized` for a listed
architecture, 0.24.0 any listed architecture."""
V2_DENSE_FROM = (0, 25, 0)
"""From here V2 is the default for every model that is neither MoE nor hybrid (Mamba / gated-delta) nor
attention-free, and for the MoE architectures of V2_MOE_ARCHITECTURES: vllm-0.25.0, 0.26.0, 0.27.1 and
0.28.0 wheels, config/vllm.py `_is_default_v2_model_runner_model`."""
V2_MOE_ARCHITECTURES = frozenset(
    {
        "DeepseekV2ForCausalLM",
        "DeepseekV4ForCausalLM",
        "Qwen2MoeForCausalLM",
        "GraniteMoeForCausalLM",
        "InklingForCausalLM",
        "InklingForConditionalGeneration",
        "KimiK3ForConditionalGeneration",
        "LongcatFlashNgramForCausalLM",
    }
)
"""MoE architectures 0.25–0.28 still run on V2 (the union of those releases' lists)."""
V2_RUNNER_ALL_FROM = (0, 29, 0)
"""First release whose `use_v2_model_runner` picks V2 for every model on CUDA unless a feature it lacks is
asked for (vllm-0.29.0 wheel, config/vllm.py; logged: "Using V2 Model Runner" for Qwen3.8-27B on vLLM 0.29.0,
bench/data/vllm-logs-heldout-6.csv)."""
V2_CUDAGRAPH_ESTIMATE_FROM = (0, 29, 0)
"""First release whose V2 runner estimates its CUDA graphs before the pool is sized: V2's
`profile_cudagraph_memory` returns 0 in the vllm-0.21.0 to 0.28.0 wheels (v1/worker/gpu/model_runner.py,
"It is TBD whether we keep this API or not"), and 0.29.0 calls `_profile_cudagraph_memory`. Before it a V2
start-up captures its graphs after the pool is allocated, inside the (1 − util) headroom, so nothing comes
out of the pool for them (logged: Qwen2.5-7B-AWQ on an RTX 4080 at 0.26.0, 8.00 GiB = 15.99 × 0.9 − 5.29
weights − 1.04 activation − 0.06 non-torch with 0.48 GiB of graphs beside; gemma-4-E4B on an L4 at 0.28.0,
3.10 = budget − 10.29 − 0.27 with 0.78 GiB of graphs beside)."""
SAMPLER_COPIES_V2 = 1.2
"""fp32 copies of (rows × vocab) V2's profile keeps for the sampler: its `_dummy_sampler_run` computes the
logits and samples without top-k / top-p ("During the initial memory profiling, the sampler may skip top_k,
top_p, and logprobs", vllm/v1/worker/gpu/model_runner.py), where V1's dummy sampler sorts for them."""


def uses_v2_runner(version: str | None, spec: object, quantized: bool | None = None) -> bool:
    """True when the release runs `spec` on Model Runner V2 by default (V2_DEFAULT_*, V2_DENSE_FROM,
    V2_RUNNER_ALL_FROM): by architecture, MoE and hybrid layers, and (0.22–0.23) whether the weights are
    quantized; `quantized` None reads the spec's own quantization."""
    key = parse_version(version)
    if key >= V2_RUNNER_ALL_FROM:
        return True
    if key < V2_DEFAULT_FROM:
        return False
    arch = getattr(spec, "architecture", None) or ""
    moe = bool(getattr(spec, "num_experts", None))
    hybrid = getattr(spec, "linear_attention", None) is not None
    if key >= V2_DENSE_FROM:
        return not hybrid and (not moe or arch in V2_MOE_ARCHITECTURES)
    listed = [entry for entry in V2_DEFAULT_ARCHITECTURES if entry[0] <= key][-1]
    _, architectures, dense_unquantized_only = listed
    if arch not in architectures:
        return False
    if quantized is None:
        quantized = getattr(spec, "quantization", None) is not None
    return not (dense_unquantized_only and (moe or quantized))


def v2_estimates_cudagraphs(version: str | None) -> bool:
    """True when Model Runner V2 takes its CUDA-graph estimate out of the pool
    (V2_CUDAGRAPH_ESTIMATE_FROM)."""
    return parse_version(version) >= V2_CUDAGRAPH_ESTIMATE_FROM


RELEASED_BY: tuple[tuple[tuple[int, int], tuple[int, int, int]], ...] = (
    ((2025, 9), (0, 10, 2)),  # 0.10.2 logs of 2025-09-21/24 (bench/data/vllm-logs-heldout.csv, -5.csv)
    ((2025, 10), (0, 11, 0)),  # 0.11.0 logs of 2025-10-18/25 (vllm#27508, vllm-logs-heldout-7.csv)
    ((2025, 11), (0, 11, 2)),  # 0.11.2 log of 2025-11-28 (blog.huikang.dev, 2025-12-28 post)
    ((2026, 1), (0, 13, 0)),  # 0.13.0 run of 2026-01-18 (vllm-logs-heldout-5.csv)
    ((2026, 2), (0, 15, 2)),  # 0.15.2rc1 of 2026-02-08 (vllm#34076)
    ((2026, 4), (0, 19, 0)),  # 0.19.0 log of 2026-04-18 (myoceane.fr)
    ((2026, 5), (0, 21, 0)),  # 0.21.0 log of 2026-05-30 (discuss.vllm.ai 2674)
    ((2026, 7), (0, 24, 0)),  # 0.24.0 log of 2026-07-06 (club-3090#612)
    ((2026, 8), (0, 27, 1)),  # 0.27.1 logs of 2026-08-20/26 (club-3090#1075, #1107)
    ((2026, 9), (0, 29, 0)),  # 0.29.0 logs of 2026-09-14/17 (club-3090#1322, vllm-logs-heldout-6.csv)
)
"""The newest release logged by a month: a dated nightly ("2026-08 build") is planned as at least that
release, where the profile's behaviour changed in between (the V2 model runner's sampler)."""


def parse_version(version: str | None) -> tuple[int, int, int]:
    """(major, minor, patch) of a vLLM version, patch 0 where none is given ("0.11" is 0.11.0; "0.15.2rc1"
    is 0.15.2); a dated "2026-08 build" note is the newest release logged by that month (RELEASED_BY);
    None, an undated dev build or a month past the table is the newest modelled."""
    if not version:
        return NEWEST.last
    text = str(version).strip().lower().lstrip("v")
    match = re.search(r"(\d+)\.(\d+)(?:\.(\d+))?", text)
    if match and not re.search(r"^0\.1\.dev", text):
        return int(match.group(1)), int(match.group(2)), int(match.group(3) or 0)
    dated = re.search(r"(20\d\d)-(\d\d)", text)
    if dated and not match:
        month = (int(dated.group(1)), int(dated.group(2)))
        known = [release for when, release in RELEASED_BY if when <= month]
        if known and month <= RELEASED_BY[-1][0]:
            return known[-1]
    return NEWEST.last


TOKENS_FROM_CONCURRENCY_FROM = (0, 20, 1)
"""First release whose "GPU KV cache size" line is max_concurrency × max_model_len, not
num_blocks // len(kv_cache_groups) × block size: vllm-0.20.0 sdist v1/core/kv_cache_utils.py
_report_kv_cache_config prints the per-group count, vllm-0.20.1 and 0.20.2 the concurrency product ("Sourcing
this from the concurrency calculation handles hybrid layouts correctly"). Logged: the AEON Qwen3.6-27B NVFP4
TP4 run on 0.20.2 (615,468 tokens = 3.13 × 196,608, bench/data/vllm-logs-heldout-24.csv) and club-3090#142's
0.20.2rc1 nightly (623,873), where the per-group count gives 183,456 and 180,320."""


MAMBA_SPECULATIVE_BLOCKS_FROM = (0, 16, 0)
"""First release read whose Mamba (gated-delta) KV spec counts a block per draft token in a request's memory:
MambaSpec.max_memory_usage_bytes is page × (1 + num_speculative_blocks), × (2 + …) in the 'align' mode prefix
caching uses, with num_speculative_blocks = speculative_config.num_speculative_tokens (vllm-0.16.0, 0.17.1,
0.20.0 and 0.20.2 sdists, v1/kv_cache_interface.py and model_executor/layers/mamba/abstract.py); 0.14.1 counts
cdiv(max_model_len, block) pages and 0.10.2 one, without draft tokens (0.15 not read: no sdist)."""


def mamba_speculative_blocks(version: str | None, speculative_tokens: int) -> int:
    """Blocks a hybrid model's request holds per Mamba group for its draft tokens (0 before 0.16)."""
    return speculative_tokens if parse_version(version) >= MAMBA_SPECULATIVE_BLOCKS_FROM else 0


def reports_tokens_per_group(version: str | None) -> bool:
    """True when `version`'s "GPU KV cache size" is blocks // groups × block size (up to 0.20.0 and 0.20.1's
    pre-releases, VllmRelease.tokens_per_group); from 0.20.1 it is max concurrency × max-model-len."""
    return release_for(version).tokens_per_group and _before(version, TOKENS_FROM_CONCURRENCY_FROM)


def _before(version: str | None, first: tuple[int, int, int]) -> bool:
    """True when `version` precedes release `first`; a pre-release of it ("0.20.1rc1.dev16", a nightly cut
    before the release) counts as before, as PEP 440 orders it."""
    key = parse_version(version)
    return key < first or (key == first and bool(re.search(r"rc|dev|a\d|b\d", str(version or "").lower())))


def release_for(version: str | None) -> VllmRelease:
    """The release range that models `version`; an InputError names the ranges for one it does not know."""
    key = parse_version(version)
    for release in RELEASES:
        if release.first <= key <= release.last:
            return release
    known = ", ".join(r.span for r in RELEASES)
    if key < OLDEST.first:
        raise InputError(
            f"--vllm-version {version}: the planner models the V1 engine from 0.10 on ({known}); "
            "older releases profiled memory differently (V0)"
        )
    raise InputError(
        f"--vllm-version {version}: newer than the newest release the planner models ({NEWEST_VERSION}); "
        f"known ranges: {known}"
    )


def check_version(version: str | None) -> str:
    """The version string a plan records: the user's, or the newest modelled release."""
    release_for(version)
    return str(version).strip().lstrip("v") if version else NEWEST_VERSION
