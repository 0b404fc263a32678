"""Memory an engine needs besides weights and KV: activation peak, non-torch memory, CUDA graphs, buffers.

vLLM sizes its KV pool as `util × total − weights − activation_peak − non_torch` (exact to 0.01 GiB on every
calibration row that logs the parts: llm-d's H100 runs on 0.11, the RTX 4080 run on 0.26, the RTX 5090 TP2
run of a 2026 build). CUDA-graph memory is *not* subtracted in those versions: it is captured after the pool
is allocated and must fit in the `(1 − util)` headroom, so it is reported but kept out of the pool.

Calibration (research/vllm-measurements-calibration.csv; rows that log an activation peak):

    row                              version  mnbt  vocab   logged act  forward term  factor
    llmd gpt-oss-20b / -120b (H100)  0.11     8192  201088  7.38 GiB    0.53 GiB      1.117
    file-4080 Qwen2.5-7B-AWQ         0.26     2048  152064  1.04 GiB    0.14 GiB      0.772
    club3090-1087 27B hybrid, TP2    2026     2048  248320  1.59 GiB    0.07 GiB      0.805
    llmd Mistral-Small-3.2-24B (VL)  0.11     8192  131072  2.12 GiB    1.00 GiB      0.280

The peak is modelled as `factor × max_num_batched_tokens × vocab × 4 B` (the fp32 logits of the profiled
batch and their copies: the term that makes gpt-oss-20b and -120b identical, and Qwen models heavier than
Llama at equal size) plus a forward term `max_num_batched_tokens × (gate+up width per rank) × 2 B` (dense:
2 × intermediate / TP; MoE: top-k × (2 × moe_intermediate + hidden)). The factor is 1.117 for V1 releases up
to 0.1x and 0.79 (mean of the two rows) from 0.20 on; multimodal models on 0.11 use 0.28 (one row). Checks
against the research notes this was not fitted on: Llama-3.1-8B on H100/0.11 → 4.81 GiB and Qwen3-8B →
5.55 GiB, where llm-d reports 4.8–5.6 GiB for dense models. No row measures 0.12–0.25, so the era boundary at
0.20 is an assumption.

`max_num_batched_tokens` and `max_num_seqs` are vLLM's API-server defaults: 8192 / 1024 on GPUs with at least
70 GiB that are not A100, otherwise 2048 / 256 (vllm/engine/arg_utils.py).

Non-torch memory (CUDA context, NCCL buffers): 0.13 GiB at TP 1 (llm-d rows: 0.13, 0.13, 0.14; the WSL2 RTX
4080 logged 0.06) and 0.55 GiB per GPU with TP > 1 (fit-planners.md 2.6). CUDA graphs: 0.09–1.03 GiB logged
(3.45 GiB on 4×L40S with expert parallelism); 0.5 GiB is used as the typical value for the headroom check.

llama.cpp: the compute buffer is dominated by the logits of one micro-batch, `vocab × n_ubatch × 4 B` (a
Qwen3.5-9B-class hybrid at 64K logged 493 MiB; 248320 × 512 × 4 B = 485 MiB), plus small per-token
activations; each device keeps a 250 MiB platform footprint (gguf-parser's default). Ollama adds its minimum
of 457 MiB per CUDA/ROCm device (512 MiB on Metal, ml/device.go) on top of the llama.cpp graph.
"""

from __future__ import annotations

import re

from lmscreen.model.memory.common import VLLM_DEFAULT_UTILIZATION
from lmscreen.model.spec import ModelSpec

GIB = 1 << 30
MIB = 1 << 20

LOGITS_FACTOR_V011 = 1.117
LOGITS_FACTOR_V020 = 0.79
LOGITS_FACTOR_MULTIMODAL_V011 = 0.28
ERA_BOUNDARY = (0, 20)

NON_TORCH_TP1_GIB = 0.13
NON_TORCH_TP_GIB = 0.55
CUDA_GRAPH_TYPICAL_GIB = 0.5

LLAMACPP_UBATCH = 512
LLAMACPP_PLATFORM_GIB = 250 / 1024
OLLAMA_MINIMUM_GIB = 457 / 1024
OLLAMA_MINIMUM_METAL_GIB = 512 / 1024


def parse_vllm_version(version: str | None) -> tuple[int, int]:
    """(major, minor) of a vLLM version string; dev builds and "2026-08 build" notes count as current."""
    if version:
        match = re.search(r"(\d+)\.(\d+)", version)
        if match and not re.search(r"\.dev|\bbuild\b", version):
            return int(match.group(1)), int(match.group(2))
    return (0, 33)


def vllm_default_utilization(version: str | None) -> float:
    """vLLM's default --gpu-memory-utilization: 0.9 through the 0.1x releases (llm-d's 0.11 H100 runs log
    "gpu-memory-utilization: 0.9 (default)"), 0.92 in current builds (engine-flags research; club-3090#1087
    logs "Desired GPU memory utilization is (0.92, …)"). Where exactly it changed is not logged; 0.20 is the
    same era boundary the activation calibration uses."""
    return 0.9 if parse_vllm_version(version) < ERA_BOUNDARY else VLLM_DEFAULT_UTILIZATION


def vllm_batch_defaults(total_gib: float, gpu_name: str | None) -> tuple[int, int]:
    """vLLM API-server defaults (max_num_batched_tokens, max_num_seqs) for a device of `total_gib`."""
    if total_gib >= 70 and "a100" not in (gpu_name or "").lower():
        return 8192, 1024
    return 2048, 256


def forward_bytes_per_token(spec: ModelSpec, tp: int = 1) -> int:
    """Largest MLP intermediate per token per rank (bf16): what the profiled forward pass peaks on."""
    expert = spec.moe_intermediate_size or spec.intermediate_size
    if spec.num_experts and expert and spec.num_experts_per_tok:
        width = spec.num_experts_per_tok * (2 * expert + (spec.hidden_size or 0))
    else:
        width = 2 * (spec.intermediate_size or 4 * (spec.hidden_size or 0))
    return width * 2 // tp


def activation_gib(
    spec: ModelSpec, tp: int = 1, max_num_batched_tokens: int = 2048, vllm_version: str | None = None
) -> float:
    """vLLM's profiled activation peak per GPU (see the module docstring for the calibration)."""
    era_old = parse_vllm_version(vllm_version) < ERA_BOUNDARY
    if era_old:
        factor = LOGITS_FACTOR_MULTIMODAL_V011 if spec.is_vision else LOGITS_FACTOR_V011
    else:
        factor = LOGITS_FACTOR_V020
    vocab = spec.vocab_size or 32000
    logits = factor * max_num_batched_tokens * vocab * 4
    forward = max_num_batched_tokens * forward_bytes_per_token(spec, tp)
    return (logits + forward) / GIB


def non_torch_gib(tp: int = 1) -> float:
    """CUDA context and communication buffers outside torch's allocator, per GPU."""
    return NON_TORCH_TP1_GIB if tp <= 1 else NON_TORCH_TP_GIB


def cuda_graph_gib() -> float:
    """Typical CUDA-graph memory (outside vLLM's pool; must fit in the (1 − util) headroom)."""
    return CUDA_GRAPH_TYPICAL_GIB


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
