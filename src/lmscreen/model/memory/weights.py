"""Weight bytes per GPU for a quantization, the way the engines actually hold them.

Best source: exact tensor bytes from safetensors / GGUF headers (`ModelSpec.weights_bytes`). Otherwise
`parameters × bits per weight`, with the facts of research/fit-planners.md section 3:

- AWQ / GPTQ int4, group 128: 4 bits + an fp16 scale and a 4-bit zero per 128 weights = 4.156 bpw on the
  linear layers; 8-bit GPTQ 8 + 16/128 + 8/128 = 8.19 bpw. Embeddings, lm_head and norms stay 16-bit
  (check: Qwen2.5-7B-Instruct-AWQ → 5.19 GiB vs vLLM's "5.29 GiB").
- FP8 with 128×128 block scales: 8.002 bpw on linear layers; embeddings and lm_head stay bf16.
- NVFP4: 16 FP4 values share one FP8 scale = 4.5 bpw. ModelOpt MIXED_PRECISION exports (nvidia/Qwen3.6-*,
  RadixArk/Qwen3.8-27B-NVFP4) keep attention and linear-attention projections FP8 and often the lm_head NVFP4
  (`ModelSpec.fp8_params`, `lm_head_quantized`); sizing the attention at 4.5 bpw put 7 % too few bytes on an
  RTX A6000 (club-3090#1047: 19.75 GiB logged). MXFP4 (gpt-oss): 32 values in 17 bytes = 4.25 bpw on the
  expert weights only; attention, router, embeddings and lm_head stay bf16. vLLM pads the MXFP4 expert
  dimension to a multiple of 256 for its kernels (2880 → 3072), which is why gpt-oss-120b loads as 64.4 GiB
  while the checkpoint is 60.8 GiB. (What vLLM 0.11.0's `Mxfp4MoEMethod.create_weights` pads is the
  intermediate size *per TP partition*, by backend: Triton `round_up(I / tp, 64)` and no hidden padding,
  Marlin `round_up(I / tp, 128)` and hidden to 256, FlashInfer on SM100 256 / 256, FlashInfer BF16 on SM90
  128 / 128, ROCm 256 / 256. So Triton on an H100 pads nothing at TP1 (2880) yet logs 64.38 GiB: the extra
  comes from the triton_kernels weight layout `_swizzle_mxfp4` converts to, outside vLLM's source; at TP8
  it pads 360 to 384, the same ×1.067. The flat 3072 / 2880 stands for both until a log per TP says more;
  the RTX PRO 4500 TP8 run of vllm#51590 on 0.2x loads 9.98 GiB per GPU, 1.9 above it, in a release whose
  backend choice for sm120 is not read here.) MXFP8 (OCP microscaling, MiniMaxAI/MiniMax-M3-MXFP8): 32 e4m3
  values share one 8-bit e8m0 scale = 8.25 bpw; a name ending in -MXFP8 is the catalog model in that format.
- GGUF: a file mixes block types, so a "Q4_K_M" file averages more than the 4.5 bpw of Q4_K. The averages
  below are the file sizes llama.cpp's quantize tool lists for Llama-3-8B (8.03 B parameters, embeddings and
  output included: Q4_K_M 4.58 GiB → 4.90 bpw, Q8_0 7.96 GiB → 8.51 bpw; gguf-parser's README shows 4.91 bpw
  for a 7B Q4_K_M). Pure block types use their block size (IQ4_XS 136 bytes per 256 values = 4.25 bpw).
- MoE: all experts are resident; active parameters matter for speed only.

Per GPU: tensor parallelism shards every large tensor (vLLM's VocabParallelEmbedding shards the embedding and
lm_head too); pipeline parallelism splits the layers, the first stage adding the embedding and the last the
lm_head. llama.cpp keeps the input embedding in host memory (gguf-parser, llama.cpp model loader).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from lmscreen.errors import InputError
from lmscreen.model.spec import ModelSpec

GIB = 1 << 30

# Bits per weight of the quantized (linear-layer) parameters of HF-style checkpoints.
HF_BITS: dict[str, float] = {
    "bf16": 16.0,
    "fp32": 32.0,
    "fp8": 8.0 + 32 / (128 * 128),
    "int8": 8.0 + 16 / 128 + 8 / 128,
    "w8a8": 8.0 + 32 / 4096,
    "awq": 4.0 + 16 / 128 + 4 / 128,
    "gptq": 4.0 + 16 / 128 + 4 / 128,
    "nvfp4": 4.5,
    "mxfp4": 17 * 8 / 32,
    "mxfp8": 8.0 + 8 / 32,
    "mlx4": 4.0 + 32 / 64,
    "mlx8": 8.0 + 32 / 64,
    "bnb4": 4.0 + 32 / 64 / 4,
}

NVFP4_HYBRID_KEPT = (
    "vllm-project/llm-compressor examples/quantization_w4a4_fp4/qwen3_6_example.py and "
    "qwen3_5_moe_example.py (ignore 're:.*linear_attn.*'); Inferact/Qwen3.8-27B-NVFP4 lists every "
    "gated-delta layer's conv1d and in_proj_* in `ignore`"
)
"""Why an NVFP4 checkpoint of a hybrid (gated-delta-net) model sized without its quantization_config keeps
the linear-attention layers 16 bit: the published recipes and exports do (RedHatAI/Qwen3.6-35B-A3B-NVFP4
loads 21.86 GiB through Marlin where 4.5 bpw everywhere gives 19.7)."""

INT4_HYBRID_KEPT = (
    "re:.*linear_attn.*",
    "re:.*mlp.gate$",
    "re:.*shared_expert_gate$",
    "re:.*mlp\\.shared_expert.*",
)
"""What a weight-only 4-bit release (AWQ, GPTQ, compressed-tensors W4A16) of a hybrid gated-delta-net model
keeps 16 bit when its quantization_config is not at hand: the exporters of these models list the recurrent
layers, the MoE router and the shared expert (and its gate) in `ignore`. Sources: llm-compressor's Qwen3.5-MoE
recipes (`re:.*mlp.gate$`, `re:.*shared_expert_gate$`, `re:.*mlp\\.shared_expert$`, `re:.*linear_attn.*`, as
in a public Qwen3.5-397B-A17B export script), a public Qwen3.5-MoE AWQ script that adds
`re:.*shared_expert\\.[a-z_]+_proj$` beside the router and shared-expert gate, and cyankiwi's (cpatonn's)
Qwen3-Next-80B-A3B-Instruct-AWQ-4bit, whose saved recipe quantizes the routed experts only (a public
Qwen3-Coder-Next AWQ script that follows it lists `re:.*linear_attn.*`, `re:.*self_attn.*`,
`re:.*shared_expert.*` and the gates in `ignore`). vLLM builds the Qwen MoE router with no quant config
whatever the checkpoint says. Full attention is left quantized, as llm-compressor's recipes do (keeping it
too, as cyankiwi's does, is 0.23 B more parameters on Qwen3-Next-80B). The patterns are matched against the
layer modules the config implies (arch.unquantized), the same way a checkpoint's own list is.

Only for gated-delta-net MoE models (Qwen3-Next, Qwen3.5/3.6-MoE), whose exporters skip the recurrent layers
(the public scripts say why: vLLM fuses those projections, in_proj_ba is 64 wide on Qwen3-Next): dense
Qwen3.6-27B AutoRound / AWQ releases quantize their gated-delta layers (sized 16 bit, the two club-3090 pools
on two RTX 3090s came out 33 % small), and so does the Kimi-Linear AWQ release (KDA with MLA: its TP2 pool,
vllm#28228, is reproduced at 5 % with the layers 4 bit and missed by 29 % with them 16 bit)."""

AWQ_HYBRID_ATTENTION_KEPT = ("re:.*self_attn.*",)
"""What an AWQ release of a gated-delta hybrid (Qwen3-Next, Qwen3.5/3.6/3.8) keeps 16 bit beyond
INT4_HYBRID_KEPT, when its quantization_config is not at hand: the full-attention layers. The AWQ exports of
these models that say which layers they skip all leave `self_attn` unquantized: cyankiwi's (cpatonn's)
Qwen3-Next-80B-A3B-Instruct-AWQ-4bit saved recipe (routed experts only quantized), a public Qwen3-Coder-Next
AWQ script following it (`ignore`: `re:.*linear_attn.*`, `re:.*self_attn.*`, `re:.*shared_expert.*`, the
gates), and redashes/QwenPaw-Flash-9B-heretic-AWQ-INT4-MTP (llm-compressor AWQ on the Qwen3.5-9B layout;
its card: full attention and linear attention BF16, the MLPs INT4). Dense releases keep their gated-delta
projections quantized in the configs found (a public script has to add `re:.*in_proj_a$` / `in_proj_b$` to
cyankiwi/Qwen3.5-2B-AWQ-4bit's own `ignore`), so a dense hybrid keeps only the attention 16 bit."""

AUTOROUND_KEPT = ("re:.*mlp\\.gate$", "re:.*shared_expert_gate$")
"""What an Intel AutoRound int4 release keeps 16 bit: its `extra_config` gives the MoE router and the
shared-expert gate `bits: 16` and quantizes everything else in the layers, gated-delta projections and
attention included (Intel/Qwen3-Coder-Next-int4-AutoRound and Intel/Qwen3.5-397B-A17B-int4-AutoRound
quantization_config.json: every layer's `mlp.shared_expert_gate` at 16 bits, `block_name_to_quantize`
`model.language_model.layers`; Intel/MiroThinker-1.7-mini-int4-AutoRound: every `mlp.gate`). A name that
says AutoRound is sized this way rather than with INT4_HYBRID_KEPT, the llm-compressor recipes' list."""


def name_default_kept(spec: ModelSpec, quant: str) -> tuple[tuple[str, ...], str]:
    """Module patterns a weight-only int4/int8 release named without its config keeps 16 bit, by the tool
    its name states, and the reason for the plan's notes ((), "" when the default keeps nothing beyond the
    embeddings / lm_head / vision tower every format keeps). Only gated-delta hybrids without MLA have
    per-tool defaults here (the Kimi-Linear AWQ release quantizes its KDA layers, vllm#28228)."""
    if quant not in ("gptq", "awq", "int8") or not spec.linear_attention or spec.mla:
        return (), ""
    name = (spec.name or "").lower()
    if "autoround" in name or "auto-round" in name:
        return AUTOROUND_KEPT, "AutoRound keeps the MoE router and shared-expert gate 16 bit (AUTOROUND_KEPT)"
    moe = tuple(INT4_HYBRID_KEPT) if spec.num_experts else ()
    if "awq" in name or quant == "awq":
        return moe + AWQ_HYBRID_ATTENTION_KEPT, (
            "an AWQ release of a gated-delta hybrid keeps its full-attention layers"
            + (", gated-delta layers, router and shared expert" if moe else "")
            + " 16 bit (AWQ_HYBRID_ATTENTION_KEPT)"
        )
    if moe and quant != "int8":
        return moe, (
            "a 4-bit gated-delta MoE release keeps its gated-delta layers, router and shared expert 16 bit "
            "(INT4_HYBRID_KEPT)"
        )
    return (), ""


MODELOPT_FP8_BITS = 8.0
"""ModelOpt FP8 layers: one e4m3 byte per weight and per-tensor fp32 scales (weight_scale, input_scale), whose
few bytes per module do not show at GiB resolution. NVFP4 (HF_BITS) is two e2m1 values per byte plus one e4m3
scale per 16 (4.5 bpw) and a per-tensor fp32 global scale; vLLM's Marlin path on GPUs without FP4 (Ampere,
Ada) repacks the same bytes (marlin_utils_fp4: tile permutation, scales stay e4m3), so it loads no larger."""

# GGUF file-level averages (bits per weight over the whole file) from llama.cpp's quantize tool sizes for
# Llama-3-8B; pure block types from their block sizes (gguf-parser-go ggml.go).
GGUF_BITS: dict[str, float] = {
    "f32": 32.0,
    "f16": 16.0,
    "bf16": 16.0,
    "q8_0": 8.51,
    "q6_k": 6.57,
    "q5_k_m": 5.70,
    "q5_k_s": 5.57,
    "q5_1": 6.04,
    "q5_0": 5.57,
    "q4_k_m": 4.90,
    "q4_k_s": 4.67,
    "q4_1": 5.11,
    "q4_0": 4.64,
    "q3_k_l": 4.31,
    "q3_k_m": 4.00,
    "q3_k_s": 3.65,
    "q2_k": 3.17,
    "q2_k_s": 3.17,
    "iq4_nl": 4.5,
    "iq4_xs": 4.25,
    "iq3_s": 3.4375,
    "iq3_m": 3.66,
    "iq3_xs": 3.3,
    "iq3_xxs": 3.0625,
    "iq2_m": 2.7,
    "iq2_s": 2.5625,
    "iq2_xs": 2.3125,
    "iq2_xxs": 2.0625,
    "iq1_m": 1.75,
    "iq1_s": 1.5625,
    "tq1_0": 54 * 8 / 256,
    "tq2_0": 66 * 8 / 256,
    "mxfp4_moe": 4.25,
}

_ALIASES: dict[str, str] = {
    "": "bf16", "none": "bf16", "bfloat16": "bf16", "fp16": "bf16", "f16": "bf16", "float16": "bf16",
    "half": "bf16", "auto": "bf16", "16bit": "bf16", "float32": "fp32", "f32": "fp32",
    "fp8_e4m3": "fp8", "fp8_dynamic": "fp8", "w8a8_fp8": "fp8", "fbgemm_fp8": "fp8", "modelopt_fp8": "fp8",
    "gptq_int4": "gptq", "int4": "gptq", "w4a16": "gptq", "gptq_marlin": "gptq", "4bit": "gptq",
    "autoround": "gptq", "auto_round": "gptq",
    "awq_int4": "awq", "awq_marlin": "awq", "auto_awq": "awq",
    "gptq_int8": "int8", "w8a16": "int8", "8bit": "int8", "bnb_8bit": "int8",
    "w8a8_int8": "w8a8",
    "fp4": "nvfp4", "modelopt_fp4": "nvfp4", "w4a4": "nvfp4",
    "gpt_oss_mxfp4": "mxfp4",
    "mlx_4bit": "mlx4", "mlx_8bit": "mlx8", "bnb_4bit": "bnb4", "nf4": "bnb4",
}  # fmt: skip


def normalize_quantization(quantization: str | None) -> str:
    """One canonical name per format: bf16, fp8, awq, gptq, int8, w8a8, nvfp4, mxfp4, mlx4, bnb4, a GGUF type.

    Names it does not know come back cleaned (lower case, `_` for `-`); sizing them needs header bytes or a
    stated bit width (see `hf_bits`). Unsloth-style GGUF mixes (`UD-Q4_K_XL`) map to the K-quant they extend.
    """
    key = (quantization or "").strip().lower().replace("-", "_")
    key = _ALIASES.get(key, key)
    if key in HF_BITS or key in GGUF_BITS:
        return key
    mix = re.fullmatch(r"(?:ud_)?(q[2-6]_k)(?:_\w+)?", key)
    if mix:
        return f"{mix.group(1)}_m" if f"{mix.group(1)}_m" in GGUF_BITS else mix.group(1)
    return key


def reformatted(spec: ModelSpec, quantization: str | None) -> ModelSpec:
    """`spec` planned in another weight format: what its own checkpoint stated about its format is dropped.

    A catalog spec read from a quantized release's config.json carries that release's bit width, group
    size, 16-bit layer list and header bytes. Planning the same model in another format (a logged format, a
    recommender variant, `--quant`) must not inherit them: Qwen/Qwen3.5-122B-A10B's config copy is the FP8
    release's (8-bit), and a group-32 W4A16 checkpoint of it was planned at 8 bits a weight, 59.46 GiB a GPU
    where 36.73 load at TP2 (bench/data/vllm-logs-heldout-28.csv). The same format keeps everything.
    """
    from dataclasses import replace

    quant = None if quantization is None or normalize_quantization(quantization) == "bf16" else quantization
    if normalize_quantization(quant) == normalize_quantization(spec.quantization):
        return replace(spec, quantization=quant) if quant != spec.quantization else spec
    return replace(
        spec,
        quantization=quant,
        quantization_bits=None,
        quantization_group_size=None,
        unquantized_params=None,
        fp8_params=None,
        lm_head_quantized=False,
        weights_bytes=None,
        bytes_by_dtype={},
        sources={**spec.sources, "quantization": "applied"},
    )


def is_gguf(quantization: str) -> bool:
    """True for llama.cpp files (q4_k_m, q8_0, iq4_xs …, or a GGUF of unknown type); bf16 counts as both."""
    return quantization == "gguf" or (quantization in GGUF_BITS and quantization not in HF_BITS)


@dataclass(frozen=True)
class Weights:
    """Weight memory of one model: the whole model, one GPU, and where the number comes from."""

    total_bytes: int
    per_gpu_bytes: int
    host_bytes: int
    """Bytes the engine keeps in host memory even with every layer on the GPU (llama.cpp input embedding)."""
    quantization: str
    bits_per_weight: float
    """Average over every parameter of the model (embeddings included)."""
    source: str
    """`safetensors` / `gguf` header bytes, or `estimate` (parameters × bits per weight)."""
    detail: str

    @property
    def per_gpu_gib(self) -> float:
        return self.per_gpu_bytes / GIB


def embedding_params(spec: ModelSpec) -> tuple[int, int]:
    """(input embeddings, separate lm_head) parameters; the lm_head is 0 when tied to the embedding.

    The input side includes Gemma 3n/4's per-layer embedding tables (PLE, `embedding_params` beyond the
    token embedding): they are embeddings, kept 16 bit by every quantized export and by vLLM, and they are
    most of an E2B/E4B checkpoint (2.35 of gemma-4-E2B's 4.65 B parameters)."""
    if spec.vocab_size and spec.hidden_size:
        one = spec.vocab_size * spec.hidden_size
        out = 0 if spec.tie_word_embeddings else one
        ple = max((spec.embedding_params or 0) - one - out, 0) if _has_ple(spec) else 0
        return one + ple, out
    if spec.embedding_params:
        return spec.embedding_params, 0
    return 0, 0


def _has_ple(spec: ModelSpec) -> bool:
    """Gemma 3n/4 E-series: an `embedding_params` well beyond the token embedding means per-layer tables."""
    if not (spec.embedding_params and spec.vocab_size and spec.hidden_size):
        return False
    tokens = spec.vocab_size * spec.hidden_size * (1 if spec.tie_word_embeddings else 2)
    return spec.embedding_params > 1.5 * tokens and (spec.model_type or "").startswith("gemma")


def expert_width(spec: ModelSpec) -> int | None:
    """Intermediate size of one expert: `moe_intermediate_size`, or `intermediate_size` for configs that
    use it for the experts (gpt-oss, Mixtral); None for dense models."""
    if not spec.num_experts:
        return None
    return spec.moe_intermediate_size or spec.intermediate_size


def expert_params(spec: ModelSpec) -> int:
    """Routed-expert parameters (gate, up, down of every expert of every layer); 0 for dense models."""
    width = expert_width(spec)
    if not (width and spec.hidden_size and spec.num_layers):
        return 0
    experts = spec.num_layers * spec.num_experts * 3 * spec.hidden_size * width
    if spec.total_params:
        emb_in, emb_out = embedding_params(spec)
        experts = min(experts, spec.total_params - emb_in - emb_out)
    return max(experts, 0)


def encoder_params(spec: ModelSpec) -> int:
    """Vision and audio encoder parameters (arch.vision, arch.audio): loaded 16 bit beside the language model,
    outside a GGUF (its mmproj file), on the first pipeline stage."""
    return (spec.vision_params or 0) + (spec.audio_params or 0)


def _total_params(spec: ModelSpec) -> int:
    if spec.total_params:
        return spec.total_params
    raise InputError(f"{spec.name}: parameter count unknown (no weights header, config or catalog entry)")


def hf_bits(spec: ModelSpec, quant: str) -> float:
    """Bits per quantized weight of an HF-style checkpoint.

    AWQ/GPTQ/int use the checkpoint's own bits and group size when known (an fp16 scale and a zero at the
    weight width per group; per-channel groups (-1) cost almost nothing). A format this module does not know
    is sized from the stated bit width, or refused.
    """
    if normalize_quantization(spec.quantization) != quant:
        # the bit width and group size a spec carries describe its own checkpoint's format; asked about
        # another format (an override), they say nothing about it (reformatted())
        spec = reformatted(spec, quant)
    if quant in ("awq", "gptq", "int8") and (spec.quantization_bits or spec.quantization_group_size):
        bits = spec.quantization_bits or (8 if quant == "int8" else 4)
        group = spec.quantization_group_size or 128
        return bits + ((16 + bits) / group if group > 0 else 0.0)
    if quant in HF_BITS:
        return HF_BITS[quant]
    if quant in GGUF_BITS:
        return GGUF_BITS[quant]
    if spec.quantization_bits:
        return spec.quantization_bits + (16 + spec.quantization_bits) / (spec.quantization_group_size or 128)
    raise InputError(
        f"{spec.name}: cannot size {quant!r} weights without header bytes or a bit width; "
        f"known formats: {', '.join(sorted(HF_BITS))}, GGUF {', '.join(sorted(GGUF_BITS))}"
    )


# vLLM runs MXFP4 on GPUs without its FP4 kernels (Ampere, Ada and older) through Marlin's weight-only
# path, whose repacked layout is larger: gpt-oss-120b loads 65.97 GiB that way (vllm-project/vllm#23278:
# "Weight-only FP4 compression will be used leveraging the Marlin kernel", "Model loading took 65.9651 GiB")
# against 64.38 GiB with the Triton kernels of an H100 on 0.11+ (vllm-project/vllm#33155, llm-d's H100 table).
MARLIN_MXFP4_FACTOR = 65.9651 / 64.38
MARLIN_ARCHS = frozenset({"ampere", "ada", "turing", "volta"})
# FP8 checkpoints on GPUs without FP8 tensor cores (before Ada) run through Marlin's weight-only FP8 path
# ("Your GPU does not have native support for FP8 computation ... leveraging the Marlin kernel",
# noonghunna/club-3090#594), which re-lays the 128×128 block scales out per output channel and group: the
# same Qwen3.6/3.8-27B FP8 checkpoint loads 14.68 GiB per GPU on two RTX 3090 (club-3090#751, #602) and
# 14.28 GiB on two RTX 5090 with native FP8 (vllm-project/recipes#810), both at TP2 with the MTP head.
MARLIN_FP8_FACTOR = 14.68 / 14.28
MARLIN_FP8_ARCHS = frozenset({"ampere", "turing", "volta"})


def vllm_repack_factor(quantization: str | None, arch: str | None) -> float:
    """Per-GPU weight growth when vLLM repacks a format for the kernels this GPU architecture gets."""
    quant = normalize_quantization(quantization)
    if quant == "mxfp4" and (arch or "") in MARLIN_ARCHS:
        return MARLIN_MXFP4_FACTOR
    if quant == "fp8" and (arch or "") in MARLIN_FP8_ARCHS:
        return MARLIN_FP8_FACTOR
    return 1.0


def _padding(spec: ModelSpec, quant: str, engine: str) -> float:
    """vLLM pads MXFP4 expert weights to a multiple of 256 in the intermediate dimension."""
    inter = expert_width(spec)
    if engine != "vllm" or quant != "mxfp4" or not inter or inter % 256 == 0:
        return 1.0
    return (-(-inter // 256) * 256) / inter


def estimate_total_bytes(
    spec: ModelSpec, quantization: str | None = None, engine: str = "vllm"
) -> tuple[int, str]:
    """Whole-model weight bytes from parameter counts; returns (bytes, how it was computed)."""
    quant = normalize_quantization(quantization if quantization is not None else spec.quantization)
    total = _total_params(spec)
    emb_in, emb_out = embedding_params(spec)
    vision = encoder_params(spec)
    if is_gguf(quant) or quant in ("bf16", "fp32"):
        bits = GGUF_BITS.get(quant) or HF_BITS.get(quant)
        if bits is None:
            raise InputError(f"{spec.name}: a GGUF of unknown type can only be sized from its header")
        if is_gguf(quant) and quant != "bf16":
            total -= vision  # the vision tower is a separate mmproj file, not part of the GGUF
        return round(total * bits / 8), f"{total / 1e9:.2f} B params × {bits:.2f} bpw ({quant})"
    bits = hf_bits(spec, quant)
    emb = emb_in + emb_out
    if quant == "mxfp4":
        experts = expert_params(spec)
        pad = _padding(spec, quant, engine)
        rest = total - experts
        nbytes = round(experts * pad * bits / 8 + rest * 2)
        how = (
            f"{experts / 1e9:.2f} B expert params × {bits:.2f} bpw"
            f"{f' × {pad:.3f} padding' if pad != 1 else ''} + {rest / 1e9:.2f} B bf16"
        )
        return nbytes, how
    own = quant == normalize_quantization(spec.quantization)
    kept = spec.unquantized_params or 0 if own else 0
    read = spec.sources.get("quantization") in ("config", "catalog", "safetensors", "gguf")
    generic_hybrid = not (own and read)  # the format was applied (a name, a flag), not read with its layers
    if quant == "nvfp4" and generic_hybrid and spec.linear_attention and not spec.fp8_params:
        # an NVFP4 release whose layer list is not at hand keeps its gated-delta layers 16 bit, as the
        # exporters of these models do (NVFP4_HYBRID_KEPT)
        from lmscreen.model.arch.params import linear_attention_params

        kept = max(kept, linear_attention_params(spec))
    default, why = name_default_kept(spec, quant) if generic_hybrid else ((), "")
    if default:
        # a weight-only gated-delta release whose layer list is not at hand: what its tool keeps 16 bit
        from lmscreen.model.arch.unquantized import unquantized_params

        by_tool = unquantized_params(spec, list(default))
        why = why if by_tool > kept else ""
        kept = max(kept, by_tool)
    fp8 = (spec.fp8_params or 0) if own and quant == "nvfp4" else 0
    lm_head_q = emb_out if own and quant == "nvfp4" and spec.lm_head_quantized else 0
    emb -= lm_head_q
    body = max(total - emb - kept - vision - fp8, 0)
    fp8_bytes = fp8 * MODELOPT_FP8_BITS / 8
    nbytes = round(body * bits / 8 + fp8_bytes + (emb + kept + vision) * 2)
    how = f"{body / 1e9:.2f} B params × {bits:.3f} bpw ({quant}) + {emb / 1e9:.2f} B embedding/lm_head bf16"
    if fp8:
        how += f" + {fp8 / 1e9:.2f} B attention params FP8 (ModelOpt mixed precision)"
    if kept:
        how += f" + {kept / 1e9:.2f} B left unquantized by the checkpoint (bf16)"
        how += f"; no layer list read: {why}" if default and why else ""
    if vision:
        what = "vision + audio encoders" if spec.audio_params else "vision encoder"
        how += f" + {vision / 1e9:.2f} B {what} (bf16)"
    return nbytes, how


def mtp_draft_gib(spec: ModelSpec, tp: int = 1, quantization: str | None = None) -> float:
    """Per-GPU weight memory of the checkpoint's multi-token-prediction layers (0 when it has none).

    vLLM loads them only as the draft model of `--speculative-config` (method mtp); a plan without
    speculative decoding does not count them. Each MTP layer is a decoder layer like the others (for
    mixture-of-experts models with its experts) plus a 2h × h projection, in the checkpoint's format; the
    embedding and LM head are shared with the main model."""
    if not spec.mtp_layers or not spec.num_layers or not spec.total_params:
        return 0.0
    quant = normalize_quantization(quantization if quantization is not None else spec.quantization)
    emb_in, emb_out = embedding_params(spec)
    body = max(spec.total_params - emb_in - emb_out - encoder_params(spec), 0)
    per_layer = body / spec.num_layers + 2 * (spec.hidden_size or 0) ** 2
    bits = GGUF_BITS.get(quant) or HF_BITS.get(quant) or hf_bits(spec, quant)
    return spec.mtp_layers * per_layer * bits / 8 / tp / GIB


def mtp_draft_weights_gib(spec: ModelSpec, tp: int = 1) -> float:
    """Per-GPU weight memory vLLM loads for the checkpoint's MTP layers when they draft.

    With `--speculative-config` method mtp, vLLM builds the draft model from the checkpoint's `mtp.*`
    tensors (vllm/model_executor/models/qwen3_5_mtp.py, qwen3_next_mtp.py, deepseek_mtp.py) inside the
    load that "Model loading took" measures. Their format: an FP8 release made by the model's authors
    (DeepSeek-V3, Qwen's -FP8) quantizes them like the body, so they keep the checkpoint's format; a
    post-hoc 4/8-bit release keeps them 16-bit, because Hugging Face transformers drops them on load
    (`_keys_to_ignore_on_load_unexpected = [r"^mtp.*"]`, modeling_qwen3_5.py) and the quantizers that
    load through it (AutoRound, llm-compressor, ModelOpt) copy them as shipped. Logged: nvidia's
    Qwen3.6-27B-NVFP4 with MTP loads 20.57 GiB where its NVFP4 body plans 19.63 (bench heldout-13, the
    arm64 row: one bf16 decoder layer, 0.8 GiB); club-3090#149 checks `mtp.fc.weight` BF16 in an int4
    AutoRound release.
    """
    own = normalize_quantization(spec.quantization)
    return mtp_draft_gib(spec, tp, quantization=own if own == "fp8" else "bf16")


def pp_partition(num_layers: int, pp: int) -> list[int]:
    """Decoder layers per pipeline stage as vLLM splits them (`get_pp_indices`): an even share each, the
    remainder one layer apiece to the stages before the last (the last stage also holds the lm_head and runs
    the sampler). VLLM_PP_LAYER_PARTITION overrides this in vLLM; the planner does not model it."""
    if pp < 1:
        raise InputError(f"--pp must be >= 1 (got {pp})")
    if num_layers < pp:
        raise InputError(f"--pp {pp} exceeds the model's {num_layers} layers")
    parts = [num_layers // pp] * pp
    for i in range(2, num_layers % pp + 2):
        parts[-i] += 1
    return parts


def weights(
    spec: ModelSpec,
    tp: int = 1,
    pp: int = 1,
    engine: str = "vllm",
    quantization: str | None = None,
    stage: int | None = None,
) -> Weights:
    """Weight memory of `spec` on one GPU of a `tp` × `pp` deployment for `engine`.

    `quantization` overrides the spec's own format (used when an engine needs another file, e.g. a GGUF for
    llama.cpp); exact header bytes are used only when the format is the spec's own. `stage` (vLLM, PP > 1)
    asks for one pipeline stage: its layers (pp_partition), the embedding and a vision tower on the first,
    the lm_head (a second copy of a tied embedding) on the last; without it, the most loaded stage.
    """
    if engine not in ("llamacpp", "ollama") and pp > 1 and spec.num_layers:
        stages = [_weights(spec, tp, pp, engine, quantization, i) for i in range(pp)]
        if stage is not None:
            return stages[stage]
        return max(stages, key=lambda w: w.per_gpu_bytes)
    return _weights(spec, tp, pp, engine, quantization, None)


def _weights(
    spec: ModelSpec, tp: int, pp: int, engine: str, quantization: str | None, stage: int | None
) -> Weights:
    own = normalize_quantization(spec.quantization)
    quant = normalize_quantization(quantization) if quantization is not None else own
    total_params = spec.total_params or 0
    if spec.weights_bytes and quant == own:
        total = spec.weights_bytes
        source = spec.sources.get("weights_bytes", "header")
        detail = f"{total / GIB:.2f} GiB of tensors read from the {source} header"
    else:
        total, detail = estimate_total_bytes(spec, quant, engine)
        source = "estimate"
    emb_in, emb_out = embedding_params(spec)
    bpw = total * 8 / total_params if total_params else 0.0
    # HF formats keep embeddings 16-bit; a GGUF quantizes them about like the rest of the file.
    emb_bits = 16.0 if not is_gguf(quant) else GGUF_BITS.get(quant) or bpw or 16.0
    emb_in_bytes = round(emb_in * emb_bits / 8)
    emb_out_bytes = round((emb_out or (emb_in if pp > 1 else 0)) * emb_bits / 8)
    host = 0
    if engine in ("llamacpp", "ollama"):
        # Input embedding stays in host memory; a tied output layer is a second copy on the GPU.
        # Layers are split across GPUs (-sm layer), so `pp` counts the GPUs here.
        host = emb_in_bytes
        gpu_total = total if spec.tie_word_embeddings else total - host
        per_gpu = round(gpu_total / pp)
    elif pp > 1 and stage is not None and spec.num_layers:
        vision = round(encoder_params(spec) * 2) if not is_gguf(quant) else 0
        body = max(total - emb_in_bytes - (emb_out_bytes if emb_out else 0) - vision, 0)
        layers = pp_partition(spec.num_layers, pp)
        share = body * layers[stage] / spec.num_layers
        share += (emb_in_bytes + vision) if stage == 0 else 0
        share += emb_out_bytes if stage == pp - 1 else 0
        per_gpu = round(share / tp)
        detail += f"; stage {stage + 1} of {pp}: {layers[stage]} of {spec.num_layers} layers"
        detail += " + embedding" if stage == 0 else ""
        detail += " + lm_head" if stage == pp - 1 else ""
    else:
        body = max(total - emb_in_bytes - (emb_out_bytes if emb_out else 0), 0)
        share = body / pp + (max(emb_in_bytes, emb_out_bytes) if pp > 1 else total - body)
        per_gpu = round(share / tp)
    if engine not in ("llamacpp", "ollama"):
        rope = rope_cache_bytes(spec)
        if rope >= ROPE_CACHE_SHOWN:
            detail += (
                f" + {rope / GIB:.2f} GiB rotary cos/sin cache ({spec.max_position_embeddings:,} positions)"
            )
        per_gpu += rope
        extra = _mla_replicated_bytes(spec, quant, tp, pp, stage) if tp > 1 else 0
        if extra:
            per_gpu += extra
            detail += f" + {extra / GIB:.2f} GiB of MLA latent projections every TP rank holds whole"
    return Weights(
        total_bytes=total,
        per_gpu_bytes=per_gpu,
        host_bytes=host,
        quantization=quant,
        bits_per_weight=bpw,
        source=source,
        detail=detail,
    )


ROPE_CACHE_BYTES = 2
"""Bytes per element of vLLM's rotary cos/sin cache: RotaryEmbedding builds a (max_position, rotary_dim)
table of cos and sin halves and casts it to the model dtype before `register_buffer("cos_sin_cache", ...,
persistent=False)` (vllm/model_executor/layers/rotary_embedding), so "Model loading took" counts it. It is
one table per distinct rope configuration (`get_rope` keeps them in `_ROPE_DICT`), not one per layer. The
log that shows it: Llama-4-Scout (10,485,760 positions × 128 × 2 B = 2.5 GiB) loads 53.12 GiB per H100 at TP4
where its parameters come to 50.76 (llm-d-planner v0.19.0 logs, bench/data/vllm-logs-heldout-14.csv); at 4
bytes the table would be 5 GiB and the load 55.8."""
ROPE_CACHE_SHOWN = 64 << 20
"""Caches from this size on are named in the weights' detail line (most models' are 8–64 MiB)."""


def rope_cache_bytes(spec: ModelSpec) -> int:
    """Bytes of vLLM's rotary cos/sin table on every GPU (each TP rank and PP stage builds its own)."""
    positions = spec.max_position_embeddings or 0
    if spec.rope_tables:
        return sum(int(positions * rows) * width for rows, width in spec.rope_tables) * ROPE_CACHE_BYTES
    width = spec.rotary_dim or spec.head_dim or 0
    return positions * width * ROPE_CACHE_BYTES


def _mla_replicated_bytes(spec: ModelSpec, quant: str, tp: int, pp: int, stage: int | None) -> int:
    """Bytes one TP rank holds beyond its 1/TP share: vLLM replicates MLA's latent down-projections
    (arch.params.mla_latent_params), so each rank keeps (1 − 1/TP) of them on top of the even split.

    They are 16 bit where the checkpoint keeps its attention unquantized (a compressed-tensors `ignore` of
    `self_attn`, as moonshotai/Kimi-K2.5's INT4 release: its 16-bit parameters then cover every latent
    projection), else in the checkpoint's format. Kimi-K2.5 at TP8 on H100: 72.02 GiB per GPU logged (the
    0.15.0 start-up of bench/data/vllm-logs-heldout-15.csv), ~1.5 GiB of it these projections."""
    if spec.mla is None or not spec.num_layers or is_gguf(quant):
        return 0
    from lmscreen.model.arch.params import mla_latent_params

    per_layer = mla_latent_params(spec)
    layers = pp_partition(spec.num_layers, pp)[stage] if pp > 1 and stage is not None else spec.num_layers
    if not per_layer or not layers:
        return 0
    kept = spec.unquantized_params or 0
    if quant in ("bf16", "fp32") or kept >= per_layer * spec.num_layers:
        bits = HF_BITS.get(quant, 16.0) if quant in ("bf16", "fp32") else 16.0
    else:
        bits = hf_bits(spec, quant)
    return round(per_layer * layers * bits / 8 * (1 - 1 / tp))


def expert_bytes_per_layer(spec: ModelSpec, quantization: str | None = None) -> int:
    """Bytes of one layer's routed experts (what llama.cpp's --n-cpu-moe moves to host memory per layer)."""
    experts = expert_params(spec)
    if not experts or not spec.num_layers:
        return 0
    own = normalize_quantization(spec.quantization)
    quant = normalize_quantization(quantization) if quantization is not None else own
    if spec.weights_bytes and spec.total_params and quant == own:
        return round(spec.weights_bytes * experts / spec.total_params / spec.num_layers)
    bits = GGUF_BITS.get(quant) or hf_bits(spec, quant)
    return round(experts / spec.num_layers * bits / 8)


def active_bytes_per_token(spec: ModelSpec, quantization: str | None = None) -> int:
    """Weight bytes read to decode one token: active parameters at the format's bits per weight.

    Decode is memory-bound, so this (plus the KV read) is what bandwidth divides to give tokens/s.
    """
    quant = normalize_quantization(quantization if quantization is not None else spec.quantization)
    total = _total_params(spec)
    active = spec.active_params or total
    if spec.weights_bytes and quant == normalize_quantization(spec.quantization):
        return round(spec.weights_bytes * active / total)
    nbytes, _ = estimate_total_bytes(spec, quant, engine="none")
    return round(nbytes * active / total)
