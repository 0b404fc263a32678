"""Parameters of an audio encoder from its `audio_config`: the Gemma 4 E2B / E4B Conformer tower, and the
Whisper-style encoder of Qwen2-Audio / Qwen2.5-Omni (`whisper_audio_params`).

vLLM loads the audio tower of a Gemma 4 E-series checkpoint with the language model, as it does the vision
tower (arch.vision): both stay 16 bit in quantized checkpoints and `--language-model-only` drops both. Left
out, every full gemma-4-E2B/E4B plan came out ~0.9 GiB under the weights vLLM logs (issue 25, heldout-21: a
T4 logged 9.80 GiB for gemma-4-E2B-it in fp16, 8.89 GiB for the same model with --language-model-only).

The count follows transformers' modeling_gemma4 (v5.25.0), Gemma4AudioModel:

- Gemma4AudioSubSampleConvProjection: two 3×3 Conv2d without bias (1 → c0, c0 → c1 channels, each with a
  LayerNorm of its channels, no bias) and `input_proj_linear` of (c0 // 4) · c1 → hidden;
- per Gemma4AudioLayer (Conformer block): two feed-forward halves (hidden → 4·hidden → hidden, a pre and a
  post RMS norm each); attention with q / k / v / post projections of hidden², a `relative_k_proj` of
  hidden² and a `per_dim_scale` of one head; a light conv (`linear_start` hidden → 2·hidden, a depthwise
  Conv1d of `conv_kernel_size` taps, `linear_end` hidden², two RMS norms); three RMS norms; and the four
  clip scalars of each of its ten Gemma4ClippableLinear when `use_clipped_linears`;
- `output_proj`: hidden → output_proj_dims with bias;
- Gemma4MultimodalEmbedder (`embed_audio`): output_proj_dims → the text width, no bias (its norm has no
  scale).

Google's config (hidden 1024, 12 layers, 8 heads, channels [128, 32], kernel 5, output 1536) gives 0.305 B
for the tower and 0.307 B with the embedder into E2B's 1536 (Google's model card: "~300M" audio encoder).
A config missing depth or width, or of another model_type, gives 0: nothing is guessed.
"""

from __future__ import annotations

from typing import Any

from lmscreen.model.arch.vision import config_int


def gemma4_audio_params(audio: dict[str, Any], text_hidden: int | None = None) -> int:
    """Parameters of a Gemma 4 audio tower (`model_type` gemma4_audio) and its embedder into the text
    width."""
    depth = config_int(audio, "num_hidden_layers")
    h = config_int(audio, "hidden_size")
    if not (depth and h):
        return 0
    heads = config_int(audio, "num_attention_heads") or 8  # Gemma4AudioConfig's defaults
    channels = audio.get("subsampling_conv_channels")
    c0, c1 = (
        (int(channels[0]), int(channels[1]))
        if isinstance(channels, list | tuple) and len(channels) == 2
        else (128, 32)
    )
    kernel = config_int(audio, "conv_kernel_size") or 5
    out = config_int(audio, "output_proj_dims") or 1536
    subsample = c0 * 9 + c0 + c0 * c1 * 9 + c1 + (c0 // 4) * c1 * h
    feed_forward = 2 * (2 * h * 4 * h + 2 * h)
    attention = 5 * h * h + h // heads
    light_conv = 3 * h * h + h * kernel + 2 * h
    clipped = 4 * 10 if audio.get("use_clipped_linears") else 0
    layer = feed_forward + attention + light_conv + 3 * h + clipped
    return subsample + depth * layer + h * out + out + out * (text_hidden or out)


WHISPER_ENCODERS = frozenset({"qwen2_5_omni_audio_encoder", "qwen2_audio_encoder", "whisper"})
"""model_types of a Whisper-style audio encoder (Qwen2-Audio's, Qwen2.5-Omni's thinker's)."""


def whisper_audio_params(audio: dict[str, Any], text_hidden: int | None = None) -> int:
    """Parameters of a Whisper-style audio encoder and its projection into the text width.

    The shapes of transformers' Qwen2_5OmniAudioEncoder (modeling_qwen2_5_omni, the layers of
    Qwen2AudioEncoderLayer): two Conv1d of kernel 3 with biases (mel bins → d, d → d); per layer q / k / v / o
    of d² (k without bias), fc1 d → ffn and fc2 ffn → d with biases, two LayerNorms; `ln_post`; `proj` d →
    output_dim with bias; the two `audio_bos_eos_token` rows of output_dim. Its position table is a computed
    sinusoid, not a parameter.
    """
    depth = config_int(audio, "encoder_layers", "num_hidden_layers")
    d = config_int(audio, "d_model", "hidden_size")
    ffn = config_int(audio, "encoder_ffn_dim", "intermediate_size")
    if not (depth and d and ffn):
        return 0
    mels = config_int(audio, "num_mel_bins") or 128
    out = config_int(audio, "output_dim") or text_hidden or d
    convs = mels * d * 3 + d + d * d * 3 + d
    layer = 4 * d * d + 3 * d + 2 * d * ffn + ffn + d + 4 * d
    return convs + depth * layer + 2 * d + d * out + out + 2 * out


def audio_params(audio: Any, text_hidden: int | None = None) -> int:
    """Parameters of the audio encoder described by `audio` (an audio_config dict); 0 when unknown."""
    if not isinstance(audio, dict):
        return 0
    kind = str(audio.get("model_type") or "")
    if kind == "gemma4_audio":
        return gemma4_audio_params(audio, text_hidden)
    if kind in WHISPER_ENCODERS:
        return whisper_audio_params(audio, text_hidden)
    return 0


QWEN_OMNI_AUDIO: dict[str, Any] = {
    "model_type": "qwen2_5_omni_audio_encoder",
    "num_mel_bins": 128,
    "encoder_layers": 32,
    "encoder_attention_heads": 20,
    "encoder_ffn_dim": 5120,
    "d_model": 1280,
    "max_source_positions": 1500,
}
"""The audio encoder of Qwen2.5-Omni's thinker: transformers' Qwen2_5OmniAudioEncoderConfig defaults
(`@auto_docstring(checkpoint="Qwen/Qwen2.5-Omni-7B")`: 32 layers of 1280, 20 heads, FFN 5120, 128 mel bins),
the Whisper-large-v3 encoder shape Qwen2-Audio carries too; 0.64 B with its projection into a 3584-wide model.
An Omni name whose catalog template has no audio tower (Qwen2.5-Omni-7B estimated like Qwen2.5-VL-7B) gets it
(arch.estimate); its output width is the language model's."""
