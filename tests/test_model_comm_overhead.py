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
