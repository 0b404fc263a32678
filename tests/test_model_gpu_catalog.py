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


def test_ampere_geforce_cards_resolve_and_stay_apart():
    """RTX 3070 / 3080 (10 GB) / 3080 12GB as nvidia-smi names them; the 3080 is not the 3080 12GB or 3090."""
    from lmscreen.model.hardware import gpu

    assert gpu("NVIDIA GeForce RTX 3080").name == "RTX 3080" and gpu("3080").memory_gib == 10.0
    assert gpu("RTX 3080 12GB").sm_count == 70 and gpu("RTX 3080").sm_count == 68
    assert gpu("NVIDIA GeForce RTX 3070").visible_gib == pytest.approx(7.78)
    assert gpu("RTX 3090").name == "RTX 3090"
    ti = gpu("NVIDIA GeForce RTX 3080 Ti")  # its own card (80 SMs, 12 GB on 384-bit), not the 3080
    assert ti.name == "RTX 3080 Ti" and ti.sm_count == 80 and ti.memory_gib == 12.0


def test_volta_and_turing_cards_resolve_with_their_arch():
    """V100 (compute capability 7.0, vLLM's floor) and the RTX 2080 Ti (7.5): FP16 tensor cores, no FP8."""
    from lmscreen.model.hardware import gpu

    sxm32 = gpu("Tesla V100-SXM2-32GB")
    assert sxm32.name == "V100 SXM2 32GB" and sxm32.arch == "volta" and sxm32.sm_count == 80
    assert sxm32.visible_gib == pytest.approx(31.74) and not sxm32.fp8
    assert gpu("Tesla V100-SXM2-16GB").memory_gib == 16.0
    assert gpu("Tesla V100-PCIE-16GB").name == "V100 PCIe 16GB"
    ti = gpu("NVIDIA GeForce RTX 2080 Ti")
    assert ti.arch == "turing" and ti.sm_count == 68 and ti.visible_gib == pytest.approx(10.73)


def test_data_center_ampere_and_ada_cards_stay_apart():
    """A30 / A40 / L40 / L20 / RTX 6000 Ada by their torch names; the L40 is not the L40S, nor the RTX 6000
    Ada the RTX PRO 6000 Blackwell."""
    from lmscreen.model.hardware import gpu

    assert gpu("NVIDIA A40").sm_count == 84 and gpu("NVIDIA A30").memory_gib == 24.0
    assert gpu("NVIDIA L40").name == "L40" and gpu("NVIDIA L40S").name == "L40S"
    assert gpu("NVIDIA L40").bf16_tflops == pytest.approx(181.05) != gpu("L40S").bf16_tflops
    assert gpu("NVIDIA L20").sm_count == 92 and gpu("NVIDIA L20").fp8
    assert gpu("NVIDIA RTX 6000 Ada Generation").name == "RTX 6000 Ada"
    assert gpu("RTX 6000 Pro").name == "RTX PRO 6000 Blackwell"
    assert gpu("NVIDIA RTX A4000").sm_count == 48


def test_hopper_export_and_superchip_cards():
    """The H800 is its own card (not the H100 SXM, which now also resolves by its torch name); the GH200's
    GPU plans on its 96 GB of HBM3."""
    from lmscreen.model.hardware import gpu

    assert gpu("NVIDIA H800").name == "H800" and gpu("NVIDIA H800").arch == "hopper"
    assert gpu("NVIDIA H100 80GB HBM3").name == "H100 SXM"
    assert gpu("H100").name == "H100 SXM"
    gh = gpu("NVIDIA GH200 480GB")
    assert gh.name == "GH200" and gh.memory_gib == 96.0 and gh.fp8


def test_amd_instinct_cards_record_compute_units():
    """MI210 / MI250X (one GCD, as ROCm shows it) / MI325X / MI355X: compute units in sm_count, as MI300X."""
    from lmscreen.model.hardware import gpu

    assert gpu("AMD Instinct MI210").sm_count == 104 and gpu("MI210").arch == "cdna2"
    assert gpu("AMD Instinct MI250X").memory_gib == 64.0 and gpu("MI250X").sm_count == 110
    assert gpu("AMD Instinct MI325X").sm_count == 304 and gpu("MI325X").memory_gib == 256.0
    mi355 = gpu("AMD Instinct MI355X")
    assert mi355.arch == "cdna4" and mi355.fp4 and mi355.memory_gib == 288.0
    assert gpu("MI300X").name == "MI300X"


def test_rtx_2000_ada_is_a_small_ada_workstation_card_under_its_own_names():
    """RTX 2000 Ada Generation (AD107, 22 SMs, 16 GB GDDR6 on 128-bit, 224 GB/s): the workstation card a vLLM
    tutorial samples Qwen2.5-1.5B on; its names resolve to it and not to a GeForce card."""
    from lmscreen.model.hardware import gpu

    card = gpu("NVIDIA RTX 2000 Ada Generation")
    assert (card.name, card.arch, card.sm_count, card.memory_gib) == ("RTX 2000 Ada", "ada", 22, 16.0)
    assert card.fp8 and not card.fp4 and card.bandwidth_gbs == 224.0
    assert gpu("RTX 2000 Ada Generation") is card and gpu("RTX 2000 Ada").visible_gib is None


def test_no_two_catalog_cards_share_a_name_or_alias():
    """Every name and alias (and its form without "RTX") resolves to one card: the index keeps the first card
    a key was seen on, so a clash would silently send one card's name to another (a 3060 8GB to the 12 GB)."""
    import re

    from lmscreen.model.hardware import _key, all_gpus

    owner: dict[str, str] = {}
    for card in all_gpus():
        for label in [card.name, *card.aliases]:
            for key in {_key(label), _key(re.sub(r"^(rtx|gtx)\s*", "", label, flags=re.I))}:
                assert owner.setdefault(key, card.name) == card.name, (label, owner[key], card.name)


def test_rtx_3060_family_resolves_as_users_and_nvidia_smi_name_it():
    """The bare "RTX 3060" is NVIDIA's 12 GB launch card (28 SMs, 360 GB/s; vLLM logs 11.63 GiB); the later
    8 GB board (128-bit, 240 GB/s) and the 3060 Ti (GA104, 38 SMs) are cards of their own."""
    from lmscreen.model.hardware import gpu

    card = gpu("NVIDIA GeForce RTX 3060")
    assert (card.name, card.memory_gib, card.sm_count, card.bandwidth_gbs) == ("RTX 3060", 12.0, 28, 360.0)
    assert card.visible_gib == pytest.approx(11.63) and not card.fp8
    for name in ("3060", "RTX 3060", "GeForce RTX 3060 12GB", "rtx3060"):
        assert gpu(name) is card
    small = gpu("GeForce RTX 3060 8GB")
    assert small.name == "RTX 3060 8GB" and small.memory_gib == 8.0 and small.bandwidth_gbs == 240.0
    ti = gpu("NVIDIA GeForce RTX 3060 Ti")
    assert ti.name == "RTX 3060 Ti" and ti.sm_count == 38 and ti.memory_gib == 8.0
    assert gpu("3070 Ti").sm_count == 48 and gpu("RTX 3070").sm_count == 46


def test_rtx_3060_plans_qwen3_8b_awq_on_its_driver_total():
    """A planned start-up on an RTX 3060 budgets util × the 11.63 GiB the driver reports (not 12):
    Qwen3-8B-AWQ at 0.9 logged a 3.66 GiB pool, which holds one 26,608-token request but not the 4.50 GiB
    32,768 need (its release is not stated). On a release that profiles a first start's compile (0.24-0.28,
    graphs outside the pool) the pool is planned within 5% and the longest request within 2% of 26,608; a
    warm restart's pool is larger."""
    from lmscreen.model.hardware import gpu
    from lmscreen.model.memory import plan
    from lmscreen.model.resolve import resolve

    spec = resolve("Qwen/Qwen3-8B-AWQ").spec
    card = gpu("RTX 3060")
    args = {"context": 26608, "gpu_memory_utilization": 0.9, "vllm_version": "0.28", "table": False}
    first = plan(spec, card, **args)
    assert first.gpu_total_gib == pytest.approx(11.63)
    assert 5.0 < first.weights_gib < 6.5 and first.available_kv_gib == pytest.approx(3.66, rel=0.05)
    assert first.max_context == pytest.approx(26608, rel=0.02)
    assert plan(spec, card, compile_cache_warm=True, **args).fits
    assert not plan(spec, card, **(args | {"context": 32768})).fits


@pytest.mark.parametrize(
    ("name", "card_name", "memory", "sms", "bandwidth"),
    [
        ("NVIDIA GeForce RTX 4090 Laptop GPU", "RTX 4090 Laptop", 16.0, 76, 576.0),
        ("RTX 4080 Laptop GPU", "RTX 4080 Laptop", 12.0, 58, 432.0),
        ("GeForce RTX 4070 Laptop GPU", "RTX 4070 Laptop", 8.0, 36, 256.0),
        ("RTX 4060 Mobile", "RTX 4060 Laptop", 8.0, 24, 256.0),
        ("NVIDIA GeForce RTX 5060 Ti 8GB", "RTX 5060 Ti 8GB", 8.0, 36, 448.0),
        ("GeForce RTX 5060", "RTX 5060", 8.0, 30, 448.0),
        ("NVIDIA RTX 4000 Ada Generation", "RTX 4000 Ada", 20.0, 48, 360.0),
        ("NVIDIA RTX 4500 Ada Generation", "RTX 4500 Ada", 24.0, 60, 432.0),
        ("NVIDIA RTX 5000 Ada Generation", "RTX 5000 Ada", 32.0, 100, 576.0),
        ("NVIDIA RTX A2000 12GB", "RTX A2000 12GB", 12.0, 26, 288.0),
        ("NVIDIA RTX A2000", "RTX A2000", 6.0, 26, 288.0),
    ],
)
def test_laptop_blackwell_and_workstation_cards_resolve_to_their_own_entry(
    name: str, card_name: str, memory: float, sms: int, bandwidth: float
) -> None:
    """Laptop GPUs are smaller chips than the desktop cards of the same number (the 4090 Laptop is an AD103
    with 16 GB), the 8 GB 5060 Ti is not the 16 GB one, and each Ada / Ampere workstation board is its own."""
    from lmscreen.model.hardware import gpu

    card = gpu(name)
    facts = (card.name, card.memory_gib, card.sm_count, card.bandwidth_gbs)
    assert facts == (card_name, memory, sms, bandwidth)
    assert card.fp8 == (card.arch in ("ada", "blackwell")) and card.fp4 == (card.arch == "blackwell")


def test_bare_names_keep_meaning_the_cards_they_meant_before():
    """Adding variants must not move a bare name: the desktop RTX 4090 / 4060, the 16 GB RTX 5060 Ti, the
    12 GB A2000 only by its own name (nvidia-smi's 'NVIDIA RTX A2000' is the 6 GB launch board)."""
    from lmscreen.model.hardware import gpu

    assert gpu("RTX 4090").memory_gib == 24.0 and gpu("4060").bandwidth_gbs == 272.0
    assert gpu("RTX 5060 Ti").name == "RTX 5060 Ti 16GB"
    assert gpu("A2000").memory_gib == 6.0 and gpu("A2000 12GB").visible_gib == pytest.approx(11.53)
    assert gpu("RTX 6000 Ada").sm_count == 142 and gpu("RTX PRO 4500").name == "RTX PRO 4500 Blackwell"


@pytest.mark.parametrize(
    ("name", "card", "memory"),
    [
        ("RTX 4070 Max-Q", "RTX 4070 Laptop", 8.0),
        ("NVIDIA GeForce RTX 4060 Max-Q", "RTX 4060 Laptop", 8.0),
        ("GeForce RTX 4070 Laptop GPU Max-Q", "RTX 4070 Laptop", 8.0),
        ("RTX PRO 6000 Blackwell Max-Q", "RTX PRO 6000 Blackwell", 96.0),
    ],
)
def test_a_max_q_geforce_is_the_laptop_card(name: str, card: str, memory: float) -> None:
    """Max-Q is NVIDIA's laptop design for GeForce cards: the desktop RTX 4070 has 12 GB, the laptop one 8;
    only an RTX PRO board sells a desktop Max-Q Workstation Edition."""
    found = hardware.gpu(name)
    assert (found.name, found.memory_gib) == (card, memory)


def test_a_max_q_laptop_card_missing_from_the_catalog_is_refused_not_taken_for_the_desktop() -> None:
    with pytest.raises(InputError, match="laptop"):
        hardware.gpu("RTX 3080 Max-Q")
