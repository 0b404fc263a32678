"""vLLM start-up flags that change what a model holds on the GPU, applied to its ModelSpec.

- `--language-model-only`: a multimodal checkpoint is served from its text branch, without loading the
  vision tower (nor Gemma 4 E2B / E4B's audio tower, arch.audio) or profiling the encoder (arch.vision; the
  A10 write-up below logs 18.83 GiB loaded for QuantTrio/Qwen3.6-27B-AWQ, "--language-model-only skips
  ~1.5 GiB visual branch"; a T4 logs 9.80 GiB for gemma-4-E2B-it served whole, an L4 8.89 GiB for
  gemma-4-E2B text-only). The planner counts the towers in the weights and the vision profile in the
  overhead (memory.overhead); all go. A text-only checkpoint is unchanged.
- `--limit-mm-per-prompt`: items per prompt by modality; a modality at 0 is left out of the encoder's
  start-up profile, all at 0 profile none (memory.multimodal). The tower stays loaded.
- `--mm-processor-kwargs '{"max_pixels": N}'`: the largest image the processor makes, which sizes the dummy
  image (and a Qwen2-VL video's frames) of the encoder's profile (memory.multimodal).
- `--skip-mm-profiling`: the start-up profile runs no encoder and caches no dummy outputs (profile_run's
  `skip_mm_profiling`, 0.10.2 on); the tower stays loaded, and a real image larger than the pool left for
  activations fails at serving time instead of at start-up.
- `--mamba-ssm-cache-dtype`: the dtype of the recurrent (SSM) state of gated-delta / Mamba layers, "auto"
  keeping the model's `mamba_ssm_dtype` (float32 in the Qwen3.5 / 3.6 / 3.8 configs, which is what
  memory.kv sizes by default). `float16` / `bfloat16` halve it; the state a sequence holds sizes vLLM's
  state blocks and, with prefix caching, the attention block that must match their page.

A public A10 deployment of QuantTrio/Qwen3.6-27B-AWQ (bench heldout-18) runs with both flags at 64,000
tokens; its write-up measures the FP16 state lifting the no-offload ceiling from 54.9k to 72.5k tokens.
"""

from __future__ import annotations

from dataclasses import replace

from lmscreen.errors import InputError
from lmscreen.model.spec import ModelSpec

_STATE_BYTES = {
    "float16": 2,
    "half": 2,
    "fp16": 2,
    "bfloat16": 2,
    "bf16": 2,
    "float32": 4,
    "fp32": 4,
    "float": 4,
}


def with_vllm_flags(
    spec: ModelSpec,
    *,
    language_model_only: bool = False,
    mamba_ssm_cache_dtype: str | None = None,
    limit_mm_per_prompt: dict[str, int] | None = None,
    skip_mm_profiling: bool = False,
    mm_max_pixels: int | None = None,
) -> ModelSpec:
    """`spec` as vLLM holds it under `--language-model-only`, `--mamba-ssm-cache-dtype` and
    `--limit-mm-per-prompt` (the items per prompt of each modality, which size the multimodal part of the
    start-up profile: memory.multimodal), `--skip-mm-profiling` (no encoder in that profile) and the
    `max_pixels` of `--mm-processor-kwargs` (the dummy image's size)."""
    if language_model_only and (spec.is_vision or spec.vision_params or spec.audio_params):
        towers = (spec.vision_params or 0) + (spec.audio_params or 0)
        total = spec.total_params - towers if spec.total_params else spec.total_params
        spec = replace(
            spec, is_vision=False, vision_params=0, audio_params=0, total_params=total, vision_config=None
        )
    if limit_mm_per_prompt is not None:
        spec = replace(spec, mm_limits=dict(limit_mm_per_prompt))
    if skip_mm_profiling:
        spec = replace(spec, skip_mm_profiling=True)
    if mm_max_pixels:
        spec = replace(spec, mm_max_pixels=int(mm_max_pixels))
    dtype = (mamba_ssm_cache_dtype or "auto").strip().lower()
    if dtype != "auto":
        if dtype not in _STATE_BYTES:
            raise InputError(
                f"--mamba-ssm-cache-dtype {mamba_ssm_cache_dtype!r}: auto, float32, float16 or bfloat16"
            )
        if spec.linear_attention is not None:
            la = replace(spec.linear_attention, state_dtype_bytes=_STATE_BYTES[dtype])
            spec = replace(spec, linear_attention=la)
    return spec
