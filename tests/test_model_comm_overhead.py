"""Per-GPU communication memory outside torch's allocator, by parallel layout (overhead.non_torch_gib)."""

from __future__ import annotations

from lmscreen.model.catalog import spec_for
from lmscreen.model.hardware import gpu
from lmscreen.model.memory import plan
from lmscreen.model.memory.overhead import non_torch_gib


def _non_torch(p) -> float:
    return next(c.gib for c in p.breakdown if c.name == "non-torch memory")


def test_pipeline_stages_all_reduce_nothing_so_keep_the_tp1_figure() -> None:
    """PP alone sends hidden states point to point; only a tensor-parallel group keeps all-reduce buffers
    (vLLM 0.19.0 logs 0.07 GiB of non-torch memory per H100 at PP2 and PP4, 2.1 at TP2 and TP4)."""
    for version in ("0.10.1", "0.15.1", "0.19.0", "0.24.0"):
        assert non_torch_gib(1, version, pp=2) == non_torch_gib(1, version, pp=1)
        assert non_torch_gib(1, version, pp=4) == non_torch_gib(1, version)
        assert non_torch_gib(2, version, pp=2) == non_torch_gib(2, version)
    assert non_torch_gib(2, "0.19.0") > non_torch_gib(1, "0.19.0", pp=2)

    spec, card = spec_for("meta-llama/Llama-3.1-8B-Instruct"), gpu("H100 SXM")
    args = dict(context=8192, gpu_memory_utilization=0.95, engine="vllm", vllm_version="0.19.0", table=False)
    tp1 = plan(spec, card, 79.19, gpus=1, tp=1, **args)
    pp2 = plan(spec, card, 79.19, gpus=2, tp=1, pp=2, **args)
    tp2 = plan(spec, card, 79.19, gpus=2, tp=2, **args)
    assert _non_torch(pp2) == _non_torch(tp1) < _non_torch(tp2)


def test_tp_on_nvswitch_cards_counts_the_multicast_all_reduce_buffers_on_0_17_to_0_20() -> None:
    """vLLM 0.19.0 profiles ~2.1 GiB of non-torch memory per H100 SXM at TP2 / TP4 (NVLink multicast over
    the NVSwitch); a PCIe card at the same TP, one card, a PP stage and other releases keep their figures."""
    assert non_torch_gib(2, "0.19.0", nvlink_multicast=True) == 2.1
    assert non_torch_gib(4, "0.17.1", nvlink_multicast=True) == 2.1
    assert non_torch_gib(2, "0.19.0") == non_torch_gib(2, "0.19.0", nvlink_multicast=False) < 1.0
    assert non_torch_gib(1, "0.19.0", nvlink_multicast=True) == non_torch_gib(1, "0.19.0")
    assert non_torch_gib(1, "0.19.0", pp=2, nvlink_multicast=True) == non_torch_gib(1, "0.19.0")
    for version in ("0.11.0", "0.15.1", "0.24.0"):
        assert non_torch_gib(2, version, nvlink_multicast=True) == non_torch_gib(2, version)
    assert gpu("H100 SXM").nvlink_multicast and gpu("H200").nvlink_multicast
    assert not gpu("H100 PCIe").nvlink_multicast and not gpu("L40S").nvlink_multicast

    spec = spec_for("Qwen/Qwen2.5-72B-Instruct")
    args = dict(gpus=2, tp=2, context=8192, gpu_memory_utilization=0.95, engine="vllm", table=False)
    sxm = plan(spec, gpu("H100 SXM"), 79.19, vllm_version="0.19.0", **args)
    pcie = plan(spec, gpu("H100 PCIe"), 79.19, vllm_version="0.19.0", **args)
    assert _non_torch(sxm) == 2.1 and "multicast" in next(
        c.source for c in sxm.breakdown if c.name == "non-torch memory"
    )
    assert sxm.available_kv_gib < pcie.available_kv_gib - 1.0
    later = plan(spec, gpu("H100 SXM"), 79.19, vllm_version="0.24.0", **args)
    assert _non_torch(later) == non_torch_gib(2, "0.24.0")
