"""What vLLM's start-up profile holds for a multimodal encoder: the dummy items it encodes and keeps.

Read in the released wheels (vllm 0.11.0, 0.12.0, 0.13.0, 0.19.1 from PyPI):

- `GPUModelRunner.profile_run` (vllm/v1/worker/gpu_model_runner.py: 0.13.0 line 4424, 0.19.1 line 5721)
  asks the `MultiModalBudget` (v1/worker/utils.py in 0.13.0, line 25; multimodal/encoder_budget.py in
  0.19.1) for the modality whose item has the most tokens, builds that many dummy items of the maximum
  feature size (`_get_mm_dummy_batch`), runs the vision tower on them (`embed_multimodal`, 0.11.0's
  `get_multimodal_embeddings`) and stores every output in `self.encoder_cache["tmp_i"]`. Only then does it
  run the text dummy batch (`_dummy_run(max_num_tokens)`) and the dummy sampler, and it clears the cache
  after both: the encoder outputs are live at the text profile's peak and add to it.
- The budget: `compute_mm_encoder_budget` (v1/core/encoder_cache_manager.py, 0.13.0 line 302) takes
  `max(max_num_encoder_input_tokens, max tokens of one item)` for both the compute budget and the cache size
  (max_num_encoder_input_tokens defaults to max_num_batched_tokens), and `get_max_items` profiles
  `max(1, min(budget // item_tokens, max_num_seqs × items per prompt))` items, items per prompt being
  `max(1, min(limit, max_model_len // item_tokens))`. A modality limited to 0 by `--limit-mm-per-prompt` is
  dropped; with every modality at 0 (or `--language-model-only`, memory.flags) nothing is profiled.
- `--mm-processor-kwargs '{"max_pixels": N}'` (or `size.longest_edge`) replaces the processor's largest
  image: vllm 0.23.0 qwen2_vl.py / qwen3_vl.py read the override in `get_image_size_with_most_features` and
  `_get_vision_info` (lines 986-998 / 906-913), 0.13.0 builds the HF processor with the merged kwargs, so
  a Qwen2-VL frame and a Qwen3-VL video's total shrink with it (the latter only below its own cap).
- The item sizes come from the model's processor (`get_mm_max_tokens_per_item`): for Qwen2-VL and
  Qwen2.5-VL (qwen2_vl.py) an image of the processor's `max_pixels` (12,845,056 px in their
  preprocessor_config.json: 16,384 tokens of 28 × 28 px) and a video of at most 14 such frames
  (`_MAX_FRAMES_PER_VIDEO`, two frames a token) that fits in max_model_len: the budget asks for one item
  per modality (`mm_counts` 1), whatever the limit, so a 128,000-token max_model_len profiles 14 frames,
  114,688 tokens ("budget of 114688 tokens, and profiled with 1 video items", bench heldout-29's A100
  0.23.0 log); for Qwen3-VL (qwen3_vl.py) an image of 16,777,216 px (16,384 tokens of
  32 × 32 px) and a video whose *total* pixels the video processor caps at 25,165,824 (`video_smart_resize`),
  12,288 tokens. Through 0.12.x Qwen3-VL counts that video as 12.5 tokens per visual token (the timestamp
  text: `formatted_video_soft_tokens = video_soft_tokens * 12.5`, qwen3_vl.py 0.11.0 line 674, 0.12.0 line
  708), 153,600, which outnumbers the image, so the profile encodes one video ("budget of 153600 tokens,
  profiled with 1 video items", bench heldout-4's 4×RTX 3090 log); 0.13.0 drops the factor and profiles
  one 16,384-token image (its H100 NVL log, bench heldout-8). `max()` keeps the first of equal modalities
  in 0.13.0 (image) and the later name in 0.19.1 (`key=(tokens, name)`).
- What an output holds: one row per visual token of the width the language model takes (Qwen2-VL's
  `hidden_size`, Qwen2.5-VL's and Qwen3-VL's `out_hidden_size`), and Qwen3-VL concatenates its DeepStack
  levels to it (`torch.cat([hidden_states] + deepstack_feature_lists, dim=1)`), so 1 + 3 widths, in the
  model dtype (2 B).

- What the cache is given (PADDED_TO_BUDGET_UNTIL, PADDED_TO_ITEM_UNTIL): 0.11.0's profile_run (line 3366,
  "This happens when encoder cache needs to store the embeddings that encoder outputs are scattered onto")
  replaces every output shorter than the encoder budget by `output.new_zeros((encoder_budget, width))` with
  the output copied in; 0.12.0 (line 4340) pads to the modality's tokens per item instead
  (`max_mm_tokens_per_item`); 0.10.2 (line 3026) and 0.13.0 store the outputs as they are. The padding
  loop's variable `output` still names the last original output (a `split` view of the encoder's whole
  output) until `output = self._dummy_sampler_run(...)` rebinds it, so the unpadded outputs stay live
  through the text run and the sampler as well.

So on 0.11 Qwen3-VL-30B-A3B keeps 153,600 × 2,048 × 4 × 2 B = 2.34 GiB of padded rows plus the 12,288-row
output (0.19 GiB) per GPU (every TP rank runs the tower); on 0.13 16,384 × 2,048 × 4 × 2 B = 0.25 GiB;
Qwen2-VL-7B 16,384 × 3,584 × 2 B = 0.11 GiB (its image is its own budget: nothing to pad).

The encoder's own peak, before the text run (encoder_peak_bytes_per_patch; read in vllm 0.23.0 and 0.13.0
qwen2_5_vl.py, qwen2_vl.py, qwen3_vl.py): every dummy item's patches (visual tokens × merge²) pass the
tower at once, so the peak scales with the item: 65,536 patches for a 16,384-token image, 458,752 for
Qwen2.5-VL's 14-frame video at a 128,000-token max_model_len. Qwen2.5-VL-7B's 35,672 B a patch make that
video 15.2 GiB (the A100 0.23.0 log: ~15.2 GiB of peak, bench heldout-29); Qwen3-VL's 1,152-wide tower
27,200 B a patch, 1.66 GiB for its image (under TP each rank holds its share of the MLP-wide tensors, every
rank runs the tower). `--skip-mm-profiling` (profile_run's
`mm_config.skip_mm_profiling`, present from 0.10.2) and every modality at 0 leave the encoder out of the
profile (memory.overhead.profiles_encoder).

The families whose processor limits are known are listed in FAMILIES; any other vision model gets no term
from this module (the release's fitted per-parameter term, memory.releases, still applies from 0.16).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from lmscreen.model.memory.releases import LAST_PATCH, parse_version
from lmscreen.model.spec import ModelSpec

GIB = 1 << 30

DEFAULT_LIMIT = 999
"""Items per prompt of a modality `--limit-mm-per-prompt` does not name (config/multimodal.py
`get_limit_per_prompt`, 0.11.0 and 0.13.0)."""

QWEN3_VL_FORMATTED_VIDEO_UNTIL = (0, 12, LAST_PATCH)
"""Last release whose Qwen3-VL counts a dummy video at 12.5 tokens per visual token (0.12.0 still does,
0.13.0 does not)."""
QWEN3_VL_VIDEO_FORMAT = 12.5
PADDED_FROM = (0, 11, 0)
"""First release whose profile pads the dummy encoder outputs before caching them (0.10.2 does not)."""
PADDED_TO_BUDGET_UNTIL = (0, 11, LAST_PATCH)
"""Through 0.11.x each output is padded to the encoder budget (0.11.0 gpu_model_runner.py profile_run)."""
PADDED_TO_ITEM_UNTIL = (0, 12, LAST_PATCH)
"""Through 0.12.x each output is padded to the modality's tokens per item (0.12.0 profile_run); 0.13.0
caches the outputs as they are."""


@dataclass(frozen=True)
class Family:
    """A vision-language family's processor limits (what `get_mm_max_tokens_per_item` reads) and the
    shape of its vision blocks (what the encoder's profile peak counts: encoder_peak_bytes_per_patch)."""

    model_types: tuple[str, ...]
    image_max_pixels: int
    video_max_total_pixels: int | None
    """A cap on a video's pixels over all frames (Qwen3-VL's video processor); None: per frame."""
    max_frames: int
    deepstack: bool
    architecture: str
    """Start of the lower-cased architecture class (`Qwen2_5_VLForConditionalGeneration`), for a config
    whose model_type is not one of `model_types`."""
    gated_mlp: bool = False
    """Qwen2.5-VL's vision MLP is `gate_up_proj` -> SiluAndMul -> `down_proj` behind an RMSNorm that adds
    the residual out of place; Qwen2-VL's and Qwen3-VL's are `fc1` -> activation -> `fc2` inside
    `x = x + mlp(norm2(x))`."""


FAMILIES: tuple[Family, ...] = (
    Family(("qwen2_5_vl",), 12_845_056, None, 14, False, "qwen2_5_vl", gated_mlp=True),
    Family(("qwen2_vl",), 12_845_056, None, 14, False, "qwen2"),
    Family(("qwen3_vl", "qwen3_vl_moe"), 16_777_216, 25_165_824, 24_576, True, "qwen3vl"),
)

GATED_BLOCK_WIDTHS = (5, 3)
"""Tensors live at a gated vision block's MLP peak, in (tower widths, MLP widths), counted in vllm 0.23.0
qwen2_5_vl.py (`Qwen2_5_VisionBlock.forward`, `Qwen2_5_VisionMLP.forward`; the same code in 0.13.0): the
block's input (the caller's `hidden_states`), `x_attn`, the norm's output and its out-of-place residual,
then `gate_up` (2 MLP widths, a local until the MLP returns), the activation's output (1) and `down_proj`'s
output (1 tower width)."""
PLAIN_BLOCK_WIDTHS = (3, 2)
"""The same for `x = x + mlp(norm2(x))` with `fc1` -> act -> `fc2` (qwen2_vl.py `Qwen2VisionBlock`,
qwen3_vl.py `Qwen3_VisionBlock`): the caller's input, the block's `x` after the attention add, the norm's
output, and `fc1`'s output with the activation's (`fc1`'s is freed before `fc2` runs)."""


@dataclass(frozen=True)
class MultimodalProfile:
    """The dummy multimodal batch of vLLM's start-up profile and the encoder outputs it keeps."""

    modality: str
    item_tokens: int
    """Tokens one item counts in the budget (the prompt tokens it stands for)."""
    encoded_tokens: int
    """Visual tokens one item's encoder output holds."""
    items: int
    budget: int
    held_gib: float
    padded_tokens: int = 0
    """Rows each item's output is padded to before it is cached (0 where the release caches it as is)."""
    encoder_gib: float = 0.0
    """The vision tower's own activation peak on the dummy batch (encoder_peak_bytes_per_patch)."""

    def describe(self) -> str:
        padded = f", padded to {self.padded_tokens:,} rows" if self.padded_tokens else ""
        return (
            f"encoder budget {self.budget:,} tokens, {self.items} {self.modality} item(s) of "
            f"{self.encoded_tokens:,} visual tokens{padded} held through the text profile "
            f"({self.held_gib:.2f} GiB); the tower's peak on them {self.encoder_gib:.2f} GiB"
        )


def _borrowed(spec: ModelSpec) -> bool:
    """A name estimate that took its vision tower from a sibling of another family: the tower's shape is
    the sibling's, its processor is not (Qwen2.5-Omni-7B, estimated like Qwen2.5-VL-7B, is served by
    qwen2_5_omni_thinker.py with the Omni processor: its 0.10.2 log profiles 1.45 GiB in all where a
    Qwen2.5-VL 32,768-token video would take 4.4). A name that says VL (Qwen3-VL-30B-A3B-Thinking-FP8,
    estimated like Qwen3-VL-30B-A3B-Instruct) is of the family it borrowed from."""
    if not str(spec.sources.get("model_type", "")).startswith("estimate"):
        return False
    words = re.split(r"[-_./ ]+", (spec.name or "").lower())
    return "vl" not in words


def _family(spec: ModelSpec) -> Family | None:
    if _borrowed(spec):
        return None
    kind = (spec.model_type or "").lower()
    arch = (spec.architecture or "").lower()
    for family in FAMILIES:
        if kind in family.model_types:
            return family
    for family in FAMILIES:
        if arch.startswith(family.architecture) and "vl" in arch:
            return family
    return None


def _int(cfg: dict[str, Any], *keys: str) -> int:
    for key in keys:
        value = cfg.get(key)
        if isinstance(value, int) and value > 0:
            return value
    return 0


def _qwen2_video_tokens(image_tokens: int, seq_len: int, videos: int, max_frames: int) -> int:
    """qwen2_vl.py `get_num_frames_with_most_features` / `get_max_video_tokens`: frames (two a token row,
    padded to even) while the video fits in `seq_len`, shared over the prompt's videos, at most
    `max_frames`, at least one."""

    def tokens(frames: int) -> int:
        return (frames + frames % 2) // 2 * image_tokens

    total = 1
    while tokens(total + 1) <= seq_len:
        total += 1
        if total > max_frames * max(videos, 1):
            break
    frames = max(min(total // max(videos, 1), max_frames), 1)
    return tokens(frames)


def encoder_peak_bytes_per_patch(vision: dict[str, Any], family: Family, tp: int = 1) -> int:
    """Bytes one input patch holds at the vision tower's peak during the profile's encoder run.

    The dummy pixels stay on the GPU through the run (the batch `profile_run` passes to
    `embed_multimodal`), `in_channels × temporal_patch_size × patch_size²` values a patch in the model
    dtype (the processor's floating outputs are cast to it: multimodal/processing `_postprocess_output`,
    0.11.0-0.23.0); the block's peak is at its MLP (GATED_BLOCK_WIDTHS / PLAIN_BLOCK_WIDTHS). Flash
    attention over `cu_seqlens` keeps no patch × patch scores, and the tower runs eagerly
    (`should_torch_compile_mm_encoder` off by default), so nothing is fused away. Under tensor parallel
    the MLP's column-parallel output is a rank's share (`disable_tp` only with `--mm-encoder-tp-mode data`;
    the default is "weights", config/multimodal.py), the tower-wide tensors whole. 2 B a value."""
    channels = _int(vision, "in_channels", "in_chans") or 3
    temporal = _int(vision, "temporal_patch_size") or 2
    patch = _int(vision, "patch_size", "spatial_patch_size") or 14
    # Qwen2-VL's vision_config names the tower width embed_dim (its hidden_size is the language model's)
    width = _int(vision, "embed_dim", "hidden_size")
    mlp = _int(vision, "intermediate_size") or width * (_int(vision, "mlp_ratio") or 4)
    widths, mlp_widths = GATED_BLOCK_WIDTHS if family.gated_mlp else PLAIN_BLOCK_WIDTHS
    share = -(-mlp // max(tp, 1))
    return 2 * (channels * temporal * patch * patch + widths * width + mlp_widths * share)


def multimodal_profile(
    spec: ModelSpec,
    vllm_version: str | None,
    max_num_batched_tokens: int,
    max_num_seqs: int,
    max_model_len: int,
    limits: dict[str, int] | None = None,
    tp: int = 1,
) -> MultimodalProfile | None:
    """The multimodal part of vLLM's profile run for `spec` on one of `tp` ranks, or None where nothing is
    profiled or the family's processor limits are not known (module docstring)."""
    vision = spec.vision_config
    if not spec.is_vision or not isinstance(vision, dict):
        return None
    family = _family(spec)
    if family is None:
        return None
    patch = _int(vision, "patch_size") or 14
    merge = _int(vision, "spatial_merge_size") or 2
    unit = patch * merge
    # --mm-processor-kwargs '{"max_pixels": N}' resizes the processor's largest image (memory.flags)
    image_pixels = spec.mm_max_pixels or family.image_max_pixels
    image_tokens = image_pixels // (unit * unit)
    limits = {k.lower(): int(v) for k, v in (limits or {}).items()}
    image_limit = limits.get("image", DEFAULT_LIMIT)
    video_limit = limits.get("video", DEFAULT_LIMIT)
    key = parse_version(vllm_version)
    tokens: dict[str, tuple[int, int]] = {}
    if image_limit > 0:
        tokens["image"] = (image_tokens, image_tokens)
    if video_limit > 0:
        if family.video_max_total_pixels:
            # the override caps a video's total pixels too (qwen3_vl.py 0.23.0 `_get_vision_info`)
            total = min(spec.mm_max_pixels or family.video_max_total_pixels, family.video_max_total_pixels)
            encoded = total // (unit * unit) // 2
            formatted = key <= QWEN3_VL_FORMATTED_VIDEO_UNTIL
            counted = int(encoded * QWEN3_VL_VIDEO_FORMAT) if formatted else encoded
        else:
            # the budget asks for one item of each modality (`mm_counts` 1: 0.11.0 multimodal/registry.py
            # get_max_tokens_per_item_by_modality, 0.13.0 line 169, 0.16.0+ encoder_budget.py
            # `dict.fromkeys(active_modalities, 1)`), so a video takes every frame that fits seq_len
            frames = family.max_frames
            encoded = counted = _qwen2_video_tokens(image_tokens, max_model_len, 1, frames)
        tokens["video"] = (counted, encoded)
    if not tokens:
        return None
    # 0.19.1 breaks ties by the later name (encoder_budget.py), earlier releases keep the first (image)
    newer_tie = key >= (0, 19, 0)
    modality = max(tokens, key=lambda m: (tokens[m][0], m if newer_tie else ""))
    item_tokens, encoded = tokens[modality]
    budget = max(max_num_batched_tokens, max(t[0] for t in tokens.values()))
    limit = image_limit if modality == "image" else video_limit
    per_prompt = max(1, min(limit, max_model_len // item_tokens))
    items = max(1, min(budget // item_tokens, max_num_seqs * per_prompt))
    width = _int(vision, "out_hidden_size") or spec.hidden_size or 0
    levels = 1 + (len(vision.get("deepstack_visual_indexes") or []) if family.deepstack else 0)
    rows = items * encoded
    padded = 0
    if PADDED_FROM <= key <= PADDED_TO_ITEM_UNTIL:
        target = budget if key <= PADDED_TO_BUDGET_UNTIL else item_tokens
        if encoded < target:
            # each item padded to `target` rows, and the unpadded outputs kept by the loop variable
            padded = target
            rows = items * padded + items * encoded
    held = rows * width * levels * 2 / GIB
    patches = items * encoded * merge * merge
    peak = patches * encoder_peak_bytes_per_patch(vision, family, tp) / GIB
    return MultimodalProfile(modality, item_tokens, encoded, items, budget, held, padded, peak)


def parse_max_pixels(text: str | None) -> int | None:
    """The image size `--mm-processor-kwargs` (JSON) sets for the processor, in pixels: its `max_pixels`,
    or `size.longest_edge` (the newer processors' name); None when neither is given."""
    if not text:
        return None
    import json

    from lmscreen.errors import InputError

    try:
        data = json.loads(text)
    except ValueError as exc:
        raise InputError(
            f"--mm-processor-kwargs {text!r}: give JSON, e.g. '{{\"max_pixels\": 1003520}}'"
        ) from exc
    if not isinstance(data, dict):
        raise InputError(f"--mm-processor-kwargs {text!r}: give a JSON object")
    size = data.get("size")
    value = data.get("max_pixels", size.get("longest_edge") if isinstance(size, dict) else None)
    if value is None:
        return None
    try:
        return int(value)
    except (TypeError, ValueError) as exc:
        raise InputError(f"--mm-processor-kwargs {text!r}: max_pixels needs a number") from exc


def parse_limits(text: str | None) -> dict[str, int] | None:
    """`--limit-mm-per-prompt` as vLLM takes it: JSON ('{"image": 1, "video": 0}') or the older
    'image=1,video=0' / 'image:1' forms; None when not given."""
    if not text:
        return None
    import json
    import re

    from lmscreen.errors import InputError

    body = text.strip()
    try:
        data = json.loads(body)
    except ValueError:
        data = dict(re.findall(r"(\w+)\s*[=:]\s*(\d+)", body))
    if not isinstance(data, dict) or not data:
        raise InputError(f"--limit-mm-per-prompt {text!r}: give counts per modality, e.g. image=1,video=0")
    out: dict[str, int] = {}
    for name, value in data.items():
        count = value.get("count") if isinstance(value, dict) else value
        try:
            out[str(name).lower()] = int(count)
        except (TypeError, ValueError) as exc:
            raise InputError(f"--limit-mm-per-prompt {text!r}: {name} needs a count") from exc
    return out
