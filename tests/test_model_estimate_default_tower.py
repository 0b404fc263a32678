"""A vision name whose line the catalog holds no vision model of still carries a vision tower.

granite-vision-3.3-2b is estimated from the text-only granite-3.3-2b-instruct: the catalog has no Granite
vision release to lend a tower, so the estimate had none and planned 4.73 GiB where vLLM loads 5.54 (llm-d's
v0.19.0 H100 sweep, bench heldout-22). Its tower is SigLIP so400m/14 (27 layers of 1152, MLP 4304), the shape
most towers in the catalog share; a vision name with no tower of its own line now gets that tower, as a llava
name gets CLIP's.
"""

from __future__ import annotations

import pytest

from lmscreen.model.arch.estimate import spec_from_name
from lmscreen.model.arch.vision import SIGLIP_SO400M_TOWER, projected_tower_params, vision_params
from lmscreen.model.memory.weights import weights


def test_a_vision_name_without_a_vision_sibling_gets_the_siglip_tower() -> None:
    spec = spec_from_name("ibm-granite/granite-vision-3.3-2b")
    text = spec_from_name("ibm-granite/granite-3.3-2b-chat-remix")  # the same line, a text name
    assert spec.is_vision and not text.vision_params
    assert 0.40e9 < spec.vision_params < 0.44e9
    assert spec.total_params == pytest.approx(text.total_params + spec.vision_params, rel=0.001)
    assert "SigLIP" in spec.sources["vision_params"]
    # vLLM loads 5.54 GiB for it (bf16, v0.19.0); the text model alone planned 4.73
    assert weights(spec).per_gpu_gib == pytest.approx(5.54, rel=0.02)


def test_a_line_with_its_own_vision_model_keeps_that_tower() -> None:
    """Qwen2.5-VL names take their line's 0.68 B tower, not the default SigLIP one."""
    spec = spec_from_name("acme/Qwen2.5-VL-7B-Instruct-remix")
    assert spec.vision_params > 0.6e9
    assert "SigLIP" not in spec.sources.get("vision_params", "")


def test_the_projected_tower_counts_a_two_layer_projector() -> None:
    """The tower alone is 0.41 B; the projector adds h × out + out × out (+ biases) into the text width."""
    bare = vision_params(SIGLIP_SO400M_TOWER, merger=False)
    with_projector = projected_tower_params(SIGLIP_SO400M_TOWER, 2048)
    assert 0.40e9 < bare < 0.42e9
    assert with_projector - bare == pytest.approx(1152 * 2048 + 2048 * 2048 + 2 * 2048, rel=0.01)


def test_a_size_the_layout_is_scaled_to_already_counts_the_tower() -> None:
    """Llama-3.2-11B-Vision's 11 B is its whole count (10.67 B with the tower); scaled from Llama-3.1-8B to
    the name's size, the estimate adds no tower on top, where a name at its text sibling's size does."""
    scaled = spec_from_name("meta-llama/Llama-3.2-11B-Vision-Instruct")
    assert not scaled.vision_params
    assert scaled.total_params == pytest.approx(10.67e9, rel=0.10)
