"""GPU names as logs and users write them: AWS's A10G, Blackwell laptop / workstation cards, remarks."""

import pytest

from lmscreen.errors import InputError
from lmscreen.model import hardware


def test_a10g_is_its_own_card_not_the_a10():
    a10g = hardware.gpu("NVIDIA A10G")
    assert a10g.name == "A10G"
    assert a10g.visible_gib == pytest.approx(21.98)  # vllm#9367, a g5.2xlarge
    assert a10g.sm_count == 80 and hardware.gpu("A10").sm_count == 72
    assert hardware.gpu("A10").name == "A10"


def test_a_bracketed_remark_after_the_name_is_read_past():
    assert hardware.gpu("RTX 5090 Laptop GPU (24 GB, SM12x)").name == "RTX 5090 Laptop"
    card = hardware.gpu("RTX PRO 4500 Blackwell Server Edition (32 GB, sm120)")
    assert card.name == "RTX PRO 4500 Blackwell"
    assert card.memory_gib == 32.0 and card.fp4


def test_the_laptop_5090_is_not_the_desktop_card():
    assert hardware.gpu("NVIDIA GeForce RTX 5090 Laptop GPU").memory_gib == 24.0
    assert hardware.gpu("RTX 5090").memory_gib == 32.0


def test_an_unknown_card_with_a_remark_is_still_refused():
    with pytest.raises(InputError):
        hardware.gpu("Foo 9000 (48 GB)")


def test_a_board_edition_after_the_name_is_the_same_card():
    # nvidia.com sells the RTX PRO Blackwell boards as Workstation / Max-Q Workstation / Server Editions
    for name in (
        "RTX PRO 6000 Blackwell Server Edition",
        "NVIDIA RTX PRO 6000 Blackwell Max-Q Workstation Edition",
        "RTX PRO 6000 Blackwell Workstation Edition",
        "RTX PRO 6000 Blackwell Max-Q",
        "RTX PRO 6000 Blackwell (Max-Q Workstation Edition)",
    ):
        card = hardware.gpu(name)
        assert card.name == "RTX PRO 6000 Blackwell" and card.memory_gib == 96.0
    assert hardware.gpu("RTX PRO 4500 Blackwell Server Edition").name == "RTX PRO 4500 Blackwell"


def test_an_unknown_card_with_an_edition_is_still_refused():
    with pytest.raises(InputError):
        hardware.gpu("Foo 9000 Server Edition")


def test_rtx_a5000_is_a_catalog_card() -> None:
    """The RTX A5000 (Ampere GA102, 24 GB GDDR6, 768 GB/s, 64 SMs; nvidia-smi 24564 MiB) resolves, so a log
    naming it is planned (vLLM#22177: Qwen3-Coder-30B-A3B at TP8 + expert parallel, bench heldout-20)."""
    from lmscreen.model.hardware import gpu

    card = gpu("NVIDIA RTX A5000")
    assert card.name == "RTX A5000" and card.arch == "ampere"
    assert card.memory_gib == 24.0 and card.sm_count == 64 and not card.fp8


def test_rtx_4090_d_is_its_own_card():
    """NVIDIA's China-market RTX 4090 D (114 SMs, 24 GB) is not the RTX 4090 (128 SMs); heldout-21's log ran
    on one ('NVIDIA GeForce RTX 4090 D, 24,564 MiB')."""
    from lmscreen.model.hardware import gpu

    card = gpu("RTX 4090 D")
    assert card.name == "RTX 4090 D" and card.sm_count == 114 and card.memory_gib == 24.0
    assert gpu("GeForce RTX 4090").name == "RTX 4090"


def test_a800_is_its_own_card():
    """NVIDIA's export A800 (the A100 80GB's GA100 with NVLink cut to 400 GB/s) is named as such in logs
    ('NVIDIA A800-SXM4-80GB'; heldout-21's MiniMax-M2 at TP4 ran on four): it plans, and it is not an A100."""
    from lmscreen.model.hardware import gpu

    card = gpu("NVIDIA A800-SXM4-80GB")
    assert card.name == "A800 80GB" and card.sm_count == 108 and card.memory_gib == 80.0
    assert gpu("A800").name == "A800 80GB"
    assert gpu("A100").name == "A100 80GB"
