"""Parameters of a vision encoder from its `vision_config` (ViT tower + patch merger / projector).

vLLM loads the vision tower of a multimodal checkpoint with the language model (unless started with
--language-model-only / a zero image limit), shards it under tensor parallelism, and keeps it 16-bit in
quantized checkpoints (Qwen FP8 and NVIDIA ModelOpt NVFP4 releases list `visual` / `vision_tower` among the
modules left unquantized). Leaving it out made Qwen3.6/3.8-27B-FP8 on two GPUs plan ~0.4 GiB more KV per GPU
than vLLM found (club-3090#1087; vllm-project/recipes#810 logs 14.28 GiB weights per GPU at TP2).

The count follows the tensors of the towers the checkpoints hold (Qwen2.5/3-VL, Qwen3.5, SigLIP in Gemma 3,
Pixtral, Llama 4): per block q/k/v/o with biases, an MLP (gated when the activation is SiLU), two norms; a
patch embedding; learned position embeddings; and the merger that maps `spatial_merge_size²` patches to the
text hidden size (plus one per DeepStack layer). Kimi's MoonViT names them `vt_num_hidden_layers`,
`vt_hidden_size`, `vt_intermediate_size` and `merge_kernel_size`. A config missing depth or widths gives 0:
nothing is guessed.
"""

from __future__ import annotations

from typing import Any


def config_int(cfg: dict[str, Any], *keys: str) -> int:
    """The first of `keys` that `cfg` gives as a positive number, as an int; 0 when none does (a tower's
    config missing a size is not guessed)."""
    for key in keys:
        value = cfg.get(key)
        if isinstance(value, int | float) and value > 0:
            return int(value)
    return 0


def gemma4_vision_params(vision: dict[str, Any], text_hidden: int | None = None) -> int:
    """Parameters of a Gemma 4 vision tower (`model_type` gemma4_vision) and its embedder into the text width.

    The shapes of transformers' modeling_gemma4 (v5.25.0): Gemma4VisionPatchEmbedder (`input_proj` 3·p² → h,
    no bias; a `position_embedding_table` of 2 × position_embedding_size × h), per Gemma4VisionEncoderLayer
    q / k / v / o without biases (heads, key-value heads × head_dim), RMS q / k norms of head_dim (v's has no
    scale), a gated MLP (gate, up, down) and four RMS norms; the `std_bias` / `std_scale` pair when
    `standardize`; the four clip scalars of each Gemma4ClippableLinear when `use_clipped_linears`; and
    Gemma4MultimodalEmbedder's `embedding_projection` h → text width (its norm has no scale). For the 31B
    tower (27 × 1152, MLP 4304, 16 heads of 72, standardize) this gives 569,550,384 without the embedder,
    the count rnagabh/gemma4-vision-encoder's config.json records (`_verified_total_params`) for the tower
    extracted from google/gemma-4-31B-it.
    """
    depth = config_int(vision, "num_hidden_layers")
    h = config_int(vision, "hidden_size")
    inter = config_int(vision, "intermediate_size")
    if not (depth and h and inter):
        return 0
    heads = config_int(vision, "num_attention_heads") or 12  # Gemma4VisionConfig's defaults
    kv = config_int(vision, "num_key_value_heads") or heads
    dim = config_int(vision, "head_dim") or 64
    patch = config_int(vision, "patch_size") or 16
    positions = config_int(vision, "position_embedding_size") or 10 * 1024
    clipped = 4 * 7 if vision.get("use_clipped_linears") else 0
    block = h * heads * dim * 2 + h * kv * dim * 2 + 2 * dim + 3 * h * inter + 4 * h + clipped
    standardize = 2 * h if vision.get("standardize") else 0
    return 3 * patch * patch * h + 2 * positions * h + depth * block + standardize + h * (text_hidden or h)


def minicpmv_resampler_params(text_hidden: int, vision_hidden: int, query_num: int) -> int:
    """Parameters of MiniCPM-V's perceiver resampler (vLLM resampler.py BaseResampler, Resampler2_5 for
    MiniCPM-V 2.5 / 2.6): `query_num` learned queries of the text width, a kv_proj from the vision width
    (no bias, absent when the widths match), one nn.MultiheadAttention of the text width (in_proj and out_proj
    with biases), LayerNorms ln_q / ln_kv / ln_post and the square output `proj`; its 2-D sin-cos position
    table is computed, not stored."""
    e = text_hidden
    kv_proj = vision_hidden * e if vision_hidden != e else 0
    attention = 3 * e * e + 3 * e + e * e + e
    return query_num * e + kv_proj + attention + 3 * 2 * e + e * e


def vision_params(vision: Any, text_hidden: int | None = None, merger: bool = True) -> int:
    """Parameters of the vision encoder described by `vision` (a vision_config dict); 0 when unknown.
    merger=False: the tower alone (MiniCPM-V maps it to the text width with a resampler, counted apart)."""
    if not isinstance(vision, dict):
        return 0
    if str(vision.get("model_type") or "") == "gemma4_vision":
        return gemma4_vision_params(vision, text_hidden)
    depth = config_int(vision, "depth", "num_hidden_layers", "vt_num_hidden_layers")
    # Qwen2-VL names the ViT width `embed_dim` and its MLP `mlp_ratio`; its `hidden_size` is the
    # language model's width, which the merger projects to (Qwen2VLVisionConfig).
    embed = config_int(vision, "embed_dim")
    h = embed or config_int(vision, "hidden_size", "vt_hidden_size")
    ratio = vision.get("mlp_ratio")
    inter = config_int(vision, "intermediate_size", "vt_intermediate_size") or (
        int(h * ratio) if embed and isinstance(ratio, int | float) and ratio > 0 else 0
    )
    if not (depth and h and inter):
        return 0
    gated = str(vision.get("hidden_act") or "").lower() in ("silu", "swiglu")
    mlp = (3 if gated else 2) * h * inter + inter + h
    block = 4 * h * h + 4 * h + mlp + 4 * h
    patch = config_int(vision, "patch_size") or 14
    channels = config_int(vision, "in_channels", "num_channels") or 3
    temporal = config_int(vision, "temporal_patch_size") or 1
    patch_embed = channels * temporal * patch * patch * h
    positions = config_int(vision, "num_position_embeddings") or (
        # MoonViT (Kimi-VL): a learnable height × width grid, interpolated to each image's size
        config_int(vision, "init_pos_emb_height") * config_int(vision, "init_pos_emb_width")
    )
    image = config_int(vision, "image_size")
    if not positions and image:
        positions = (image // patch) ** 2
    kernel = vision.get("merge_kernel_size")
    merge = config_int(vision, "spatial_merge_size") or (
        int(kernel[0]) if isinstance(kernel, list) and kernel else 1
    )
    out = (
        config_int(vision, "out_hidden_size", "projection_dim", "text_hidden_size")
        or (config_int(vision, "hidden_size") if embed else 0)
        or text_hidden
        or h
    )
    merged = h * merge * merge
    mapped = merged * merged + merged + merged * out + out + 2 * h if merger else 0
    deepstack = len(vision.get("deepstack_visual_indexes") or [])
    return depth * block + patch_embed + positions * h + mapped * (1 + deepstack) + 2 * h


LLAVA_CLIP_TOWER: dict[str, Any] = {
    "model_type": "clip_vision_model",
    "hidden_size": 1024,
    "intermediate_size": 4096,
    "num_hidden_layers": 24,
    "num_attention_heads": 16,
    "patch_size": 14,
    "image_size": 336,
    "hidden_act": "quick_gelu",
}
"""The vision tower every LLaVA-1.5 / LLaVA-NeXT (v1.6) release carries: CLIP ViT-L/14 at 336 px (the
`vision_config` of llava-hf/llava-1.5-7b-hf and llava-hf/llava-v1.6-mistral-7b-hf), 0.30 B parameters with
the two-layer projector to the language model's width. A llava name sized from its language model
(arch.estimate) adds it: vLLM loads 14.08 GiB for llava-v1.6-mistral-7b-hf where Mistral-7B alone is 13.5."""


SIGLIP_SO400M_TOWER: dict[str, Any] = {
    "model_type": "siglip_vision_model",
    "hidden_size": 1152,
    "intermediate_size": 4304,
    "num_hidden_layers": 27,
    "num_attention_heads": 16,
    "patch_size": 14,
    "image_size": 384,
    "hidden_act": "gelu_pytorch_tanh",
}
"""SigLIP so400m/14 at 384 px, the vision tower of the Granite Vision releases (the SiglipVisionModel config
llama.cpp's README-granitevision writes for granite-vision-3.2-2b: 27 layers of 1152, MLP 4304, patch 14,
384 px), 0.41 B parameters. Its 1152 × 27 × 4304 shape is the one most towers in the catalog share
(MiniCPM-V 2.6's SigLIP, Gemma 4's and Kimi-VL's towers, Qwen3-VL / Qwen3.5's ViT width), so a vision
name whose line the catalog has no vision model of is given this tower (arch.estimate)."""


def projected_tower_params(tower: dict[str, Any], text_hidden: int | None) -> int:
    """Parameters of a ViT `tower` and a LLaVA-style two-layer projector into a `text_hidden`-wide model."""
    params = vision_params(tower, text_hidden)
    h = int(tower["hidden_size"])
    out = text_hidden or h
    # vision_params counts a one-matrix merger; LLaVA's projector is linear(h→out), GELU, linear(out→out)
    return params - (h * h + h + h * out + out + 2 * h) + (h * out + out + out * out + out)


def llava_tower_params(text_hidden: int | None) -> int:
    """Parameters of the LLaVA CLIP tower and its projector into a `text_hidden`-wide language model."""
    return projected_tower_params(LLAVA_CLIP_TOWER, text_hidden)
