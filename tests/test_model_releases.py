"""Issue 25: plans for the vLLM release a user runs, pipeline stages, models named bare, hybrid state limits.

Every number here is a logged start-up or a real config.json (sources in bench/data/*.csv and the catalog).
"""

from __future__ import annotations

import json
import subprocess
from dataclasses import replace

import pytest

from inproc import run_lmscreen
from lmscreen.errors import InputError
from lmscreen.model.arch.estimate import spec_from_name
from lmscreen.model.catalog import spec_for
from lmscreen.model.hardware import gpu
from lmscreen.model.memory import plan
from lmscreen.model.memory.releases import (
    LAST_PATCH,
    NEWEST_VERSION,
    RELEASES,
    SORT_CONSTANT_GIB,
    SORT_SAMPLER_COPIES,
    TRITON_SAMPLER_FROM,
    release_for,
    uses_v2_runner,
)
from lmscreen.model.memory.weights import pp_partition, weights
from lmscreen.model.names import decode
from lmscreen.model.resolve import resolve

GIB = 1 << 30


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return run_lmscreen(["model", *args])  # in this process, fd 1 and 2 captured (tests/inproc.py)


def test_release_ranges_cover_0_10_to_the_newest_without_gaps() -> None:
    spans = [(r.first, r.last) for r in RELEASES]
    assert spans[0][0] == (0, 10, 0) and f"{spans[-1][1][0]}.{spans[-1][1][1]}" == NEWEST_VERSION
    for (_, last), (first, _) in zip(spans, spans[1:], strict=False):
        # the next range starts at the next patch, or at the next minor after an open-ended one
        assert first in ((last[0], last[1], last[2] + 1), (last[0], last[1] + 1, 0))
        assert (first == (last[0], last[1] + 1, 0)) == (last[2] == LAST_PATCH)
    assert all(r.sources for r in RELEASES)
    assert (
        release_for("0.11.2").span == "0.10.2–0.11"
        and release_for("0.15.2rc1.dev93+g11a4c9d30").span == "0.14–0.15"
    )
    # 0.10.2 keeps 0.11's profile, 0.10.1 its own (both logged; memory.releases)
    assert release_for("0.10.2") is release_for("0.11") is not release_for("0.10.1.1")
    assert release_for("0.10").span == "0.10–0.10.1"
    assert release_for(None) is release_for(NEWEST_VERSION)
    with pytest.raises(InputError, match="V1 engine from 0.10"):
        release_for("0.8.5")
    with pytest.raises(InputError, match="newer than the newest"):
        release_for("1.4")


def test_vllm_version_changes_the_plan_and_says_so() -> None:
    """Qwen3-32B on one H100 at 0.90 and 16,000 tokens: vLLM 0.11 logged 4.45 GiB of KV (llm-d); newer
    releases profile a smaller sampler peak but take the CUDA-graph estimate out of the pool."""
    spec = spec_for("Qwen/Qwen3-32B")
    args = {
        "vram_gib": 79.18,
        "gpu_memory_utilization": 0.9,
        "context": 16000,
        "engine": "vllm",
        "table": False,
    }
    old = plan(spec, gpu("H100"), vllm_version="0.11.0", **args)
    new = plan(spec, gpu("H100"), **args)
    assert old.available_kv_gib == pytest.approx(4.45, rel=0.03)
    assert abs(new.available_kv_gib - old.available_kv_gib) > 0.3
    assert old.vllm_version == "0.11.0" and new.vllm_version == NEWEST_VERSION
    assert "release range 0.10.2–0.11" in old.engine_version_modelled
    assert any(n.startswith(f"modelled on vLLM {NEWEST_VERSION}") for n in new.notes)
    graphs_old = next(c for c in old.breakdown if c.name.startswith("CUDA graphs"))
    graphs_new = next(c for c in new.breakdown if c.name.startswith("CUDA graphs"))
    assert "outside the pool" in graphs_old.name and "in the pool" in graphs_new.name
    # the default utilization is the release's own
    assert plan(spec, gpu("H100"), context=16000, vllm_version="0.11").gpu_memory_utilization == 0.9
    assert plan(spec, gpu("H100"), context=16000).gpu_memory_utilization == 0.92


def test_cli_fit_names_the_release_and_takes_vllm_version() -> None:
    out = _cli("fit", "Qwen/Qwen3-32B", "--gpu", "H100", "--context", "16000", "--vllm-version", "0.11")
    assert out.returncode == 0, out.stderr
    assert "planned for vLLM 0.11 (release range 0.10.2–0.11" in out.stdout
    data = json.loads(_cli("fit", "Qwen/Qwen3-32B", "--gpu", "H100", "--json").stdout)
    assert data["vllm_version"] == NEWEST_VERSION and data["engine_version_modelled"].startswith("vLLM")
    bad = _cli("fit", "Qwen/Qwen3-32B", "--gpu", "H100", "--vllm-version", "0.6")
    assert bad.returncode == 2 and "0.10" in bad.stderr


def test_pp2_plans_two_stages_and_the_busier_one_binds() -> None:
    """PP=2: each stage holds half the layers (vLLM's get_pp_indices), the embedding on the first, the lm_head
    and the sampler on the last; every stage gets the smallest block count."""
    assert pp_partition(27, 2) == [14, 13] and pp_partition(61, 8) == [7, 7, 8, 8, 8, 8, 8, 7]
    spec = replace(spec_for("Qwen/Qwen3-32B"), **{"quantization": "awq"})
    two = plan(spec, gpu("RTX 3090"), pp=2, context=16384, engine="vllm")
    assert two.gpus == 2 and two.pp == 2 and two.tp == 1 and two.stage in (1, 2)
    stages = [weights(spec, pp=2, stage=i).per_gpu_gib for i in range(2)]
    whole = weights(spec).per_gpu_gib
    assert sum(stages) == pytest.approx(whole, rel=0.01)  # untied: embedding first, lm_head last
    assert max(stages) < 0.55 * whole
    assert any("pipeline parallel: layers 32/32 per stage" in n for n in two.notes)
    # one card holds the weights but not a 16k request; two stages split both
    one = plan(spec, gpu("RTX 3090"), context=16384, engine="vllm")
    assert not one.fits and two.fits
    assert two.kv_bytes_per_token == one.kv_bytes_per_token // 2
    # TP2 × PP2 on four cards
    four = plan(spec, gpu("RTX 3090"), gpus=4, pp=2, context=8192, engine="vllm")
    assert (four.tp, four.pp, four.gpus) == (2, 2, 4)
    with pytest.raises(InputError, match="must equal"):
        plan(spec, gpu("RTX 3090"), gpus=3, pp=2)


def test_a_later_pipeline_stage_keeps_a_receive_buffer_for_the_batched_tokens() -> None:
    """vLLM sizes one persistent buffer for the hidden states and residual a non-first stage receives, at
    max_num_batched_tokens rows (gpu_model_runner `_dummy_run` / V2 `load_model`), and keeps it for the CUDA
    graphs: it is live when the pool is sized, on every stage but the first."""
    spec = spec_for("Qwen/Qwen3-32B")
    card = gpu("RTX PRO 6000 Blackwell")
    args = {"gpus": 2, "pp": 2, "tp": 1, "context": 32768, "gpu_memory_utilization": 0.426}
    small = plan(spec, card, 95.0, max_num_batched_tokens=2048, vllm_version="0.27.1", **args)
    large = plan(spec, card, 95.0, max_num_batched_tokens=8192, vllm_version="0.27.1", **args)
    buffers = [c for c in large.breakdown if c.name == "PP receive buffer"]
    assert large.stage == 2 and len(buffers) == 1
    # hidden 5120 × 2 tensors × 8192 rows × 2 bytes
    assert buffers[0].gib == pytest.approx(2 * 8192 * 5120 * 2 / GIB)
    small_buffer = next(c.gib for c in small.breakdown if c.name == "PP receive buffer")
    assert small_buffer == pytest.approx(buffers[0].gib / 4)
    # the pool is what the stage leaves after every part, the buffer included
    parts = {c.name: c.gib for c in large.breakdown}
    budget = parts.pop("gpu memory × utilization")
    assert large.available_kv_gib == pytest.approx(
        budget - sum(v for k, v in parts.items() if k != "KV cache pool" and "outside the pool" not in k)
    )
    single = plan(spec, card, 95.0, max_num_batched_tokens=8192, vllm_version="0.27.1", context=32768)
    assert not any(c.name == "PP receive buffer" for c in single.breakdown)


def test_pp_start_up_check_of_0_14_counts_the_whole_model() -> None:
    """vllm-project/vllm#32105: GLM-4.7-FP8 on eight A100 at PP8, 0.925, 202,752 tokens: '71.16 GiB KV cache
    is needed, which is larger than the available KV cache memory (28.57 GiB)' on a January 2026 nightly;
    fixed by #33698 (0.16)."""
    spec = resolve("zai-org/GLM-4.7-FP8").spec  # FP8 from the name: the catalog config has no quant block
    args = {"gpus": 8, "pp": 8, "context": 202752, "gpu_memory_utilization": 0.925, "max_num_seqs": 128}
    nightly = plan(spec, gpu("A100 80GB"), vllm_version="0.15", **args)
    assert not nightly.fits
    assert nightly.available_kv_gib == pytest.approx(28.57, rel=0.05)
    assert any("whole model's KV" in n and "#32105" in n for n in nightly.notes)
    fixed = plan(spec, gpu("A100 80GB"), vllm_version="0.16", **args)
    assert fixed.fits


def test_qwen2_7b_named_bare_plans_its_real_weights() -> None:
    """vLLM 0.10.1.1 logs 'Model loading took 14.2488 GiB' for Qwen2-7B-Instruct (dennislee22); the issue's
    planner took the 7 in the name literally (13.04 GiB)."""
    found = resolve("Qwen/Qwen2-7B-Instruct")
    p = plan(found.spec, gpu("A100 80GB"), context=16384, engine="vllm")
    assert p.weights_gib == pytest.approx(14.2488, rel=0.05)
    # and with no catalog entry at all, the name-only estimate borrows a sibling's layout at that size (the
    # Qwen2-VL entries are left out too: the nearest same-prefix sibling, Qwen2-VL-7B, would bring its tower)
    no_qwen2_7b = frozenset(
        {"Qwen/Qwen2-7B-Instruct", "Qwen/Qwen2-VL-7B-Instruct", "Qwen/Qwen2-VL-2B-Instruct"}
    )
    estimate = spec_from_name("Qwen/Qwen2-7B-Instruct", exclude=no_qwen2_7b)
    assert estimate.sources["num_layers"].startswith("estimate: like")
    assert weights(estimate).per_gpu_gib == pytest.approx(14.2488, rel=0.05)


def test_gemma_4_e2b_named_bare_decodes_and_plans() -> None:
    """`E2B` is a size (about 2 B effective; 4.65 B with the per-layer embedding tables, from the real
    config.json, 5.12 B with its vision and audio towers: "5.1B with embeddings"). Named bare it plans the
    real weights; estimated from its E4B sibling scaled to 2 B, within 5% of them."""
    d = decode("google/gemma-4-E2B")
    assert d.effective_params_b == 2 and d.source["effective_params_b"] == "name"
    real = weights(spec_for("google/gemma-4-E2B")).per_gpu_gib
    p = plan(resolve("google/gemma-4-E2B").spec, gpu("RTX 4090"), engine="vllm", table=False)
    assert p.fits and p.weights_gib == pytest.approx(real, rel=0.05)
    assert real == pytest.approx(5.12e9 * 2 / GIB, rel=0.02)
    estimate = spec_from_name("google/gemma-4-E2B", exclude=frozenset({"google/gemma-4-E2B"}))
    assert "gemma-4-E4B" in estimate.sources["num_layers"] and "scaled" in estimate.sources["num_layers"]
    assert weights(estimate).per_gpu_gib == pytest.approx(real, rel=0.05)


def test_vision_language_names_estimate_from_a_vision_sibling() -> None:
    """A VL name outside the catalog takes its layout and vision tower from a vision sibling, and a llava
    release from the language model it names. Logged (bench/data/vllm-logs-heldout-5.csv): a Qwen2-VL-7B
    fine-tune loads 15.53 GiB bf16 on vLLM 0.13 (its text-only Qwen2-7B sibling gives 14.19);
    llava-v1.6-mistral-7b-hf loads 14.08 GiB fp16 on 0.10.2 with Mistral's 32 × 8 KV heads (a Qwen-7B
    layout, the former plain fallback, plans twice the tokens per GiB)."""
    # the catalog now holds Qwen2-VL-7B and -2B (issue 25): leave both out to estimate from a vision sibling
    qwen2_vl_entries = frozenset({"Qwen/Qwen2-VL-7B-Instruct", "Qwen/Qwen2-VL-2B-Instruct"})
    qwen2_vl = spec_from_name("Qwen/Qwen2-VL-7B-Instruct", exclude=qwen2_vl_entries)
    assert "Qwen2.5-VL-7B" in qwen2_vl.sources["num_layers"] and qwen2_vl.is_vision
    assert weights(qwen2_vl).per_gpu_gib == pytest.approx(15.532, rel=0.05)
    assert weights(spec_for("Qwen/Qwen2-VL-7B-Instruct")).per_gpu_gib == pytest.approx(15.532, rel=0.02)
    llava = spec_from_name("llava-hf/llava-v1.6-mistral-7b-hf")
    assert "Mistral-7B" in llava.sources["num_layers"]
    assert weights(llava).per_gpu_gib == pytest.approx(14.0786, rel=0.05)
    assert (llava.num_layers, llava.num_kv_heads) == (32, 8)
    # a text name keeps its text sibling (the Qwen2-VL entries, same prefix and size, are left out: the
    # estimate takes the nearest sibling whether or not it carries a tower)
    text = spec_from_name(
        "Qwen/Qwen2-7B-Instruct", exclude=frozenset({"Qwen/Qwen2-7B-Instruct"}) | qwen2_vl_entries
    )
    assert not text.is_vision


def test_kimi_linear_at_120000_tokens_fits_two_24_gb_cards() -> None:
    """vllm-project/vllm#28228: cyankiwi/Kimi-Linear-48B-A3B-Instruct-AWQ-4bit, TP2 on two RTX 3090 at 0.95,
    --max-model-len 120000: started with 2.30 GiB per card. MLA latents on 7 layers, KDA state on 20."""
    spec = resolve("cyankiwi/Kimi-Linear-48B-A3B-Instruct-AWQ-4bit").spec
    assert spec.mla is not None and spec.linear_attention is not None
    assert spec.full_attention_layers == 7 and spec.linear_attention.num_layers == 20
    p = plan(spec, gpu("RTX 3090"), gpus=2, context=120000, gpu_memory_utilization=0.95, engine="vllm")
    assert p.fits and p.max_context >= 120000
    # the logged run: 64,000 batched tokens and 8 sequences on 0.11 leave 2.30 GiB
    logged = plan(
        spec,
        gpu("RTX 3090"),
        23.56,
        gpus=2,
        context=120000,
        gpu_memory_utilization=0.95,
        vllm_version="0.11",
        max_num_batched_tokens=64000,
        max_num_seqs=8,
    )
    assert logged.fits and logged.available_kv_gib == pytest.approx(2.30, rel=0.10)


def test_hybrid_state_blocks_cap_max_num_seqs() -> None:
    """aws-samples sample-claude-code-multi-model (vLLM 0.24.0, 4×L40S, Qwen3-Coder-Next at 16384):
    'max_num_seqs (256) exceeds available Mamba cache blocks (134)'; 128 starts."""
    spec = spec_for("Qwen/Qwen3-Next-80B-A3B-Instruct")
    args = {"gpus": 4, "context": 16384, "gpu_memory_utilization": 0.9, "vllm_version": "0.24.0"}
    refused = plan(spec, gpu("L40S"), max_num_seqs=256, **args)
    assert not refused.fits and any("state blocks" in n for n in refused.notes)
    assert plan(spec, gpu("L40S"), max_num_seqs=128, **args).fits
    chosen = plan(spec, gpu("L40S"), **args)
    assert chosen.fits and chosen.max_num_seqs is not None and chosen.max_num_seqs < 256
    assert chosen.max_concurrency <= chosen.max_num_seqs
    assert any("--max-num-seqs" in n for n in chosen.notes)
    # the launch command carries the limit
    from lmscreen.model.launch import launch_command

    cmd = launch_command(spec, "vllm", chosen)
    assert cmd.argv[cmd.argv.index("--max-num-seqs") + 1] == str(chosen.max_num_seqs)


def test_an_mtp_draft_head_is_sized_and_named_but_not_planned() -> None:
    """DeepSeek-V3's card: 671B main model + 14B MTP module, of which ~1.8B are a second embedding and head
    that vLLM shares; the rest (~12B, FP8 here) loads only with --speculative-config (method mtp)."""
    from lmscreen.model.memory.weights import mtp_draft_gib

    spec = spec_for("deepseek-ai/DeepSeek-V3")
    draft = mtp_draft_gib(spec)
    assert 12e9 * 0.85 < draft * (1 << 30) < 12e9 * 1.15
    assert mtp_draft_gib(spec, tp=8) == pytest.approx(draft / 8)
    assert mtp_draft_gib(spec_for("Qwen/Qwen3-8B")) == 0.0
    p = plan(spec, gpu("H200"), gpus=8, context=32768, table=False)
    assert any("MTP layer" in n and "--speculative-config" in n for n in p.notes)


def test_expert_parallel_keeps_whole_experts_in_the_fused_moe_workspace():
    """Qwen3-235B-A22B at TP8 with --enable-expert-parallel: each rank runs whole experts, so the profiled
    fused-MoE caches are 8× the TP-sharded ones and the pool is smaller (L40S log: 1.4 GiB activation).
    Planned with 0.10.1's small sampler peak, where the forward pass sets the peak; from 0.10.2 the sampler's
    1024-row peak is larger than either."""
    from lmscreen.model.catalog import spec_for
    from lmscreen.model.hardware import gpu
    from lmscreen.model.memory import plan

    spec = replace(spec_for("Qwen/Qwen3-235B-A22B"), **{"quantization": "fp8"})
    card = gpu("L40S")
    args = dict(gpus=8, tp=8, context=32768, gpu_memory_utilization=0.9, engine="vllm", vllm_version="0.10.1")
    tp_only = plan(spec, card, 44.42, **args, table=False)
    with_ep = plan(spec, card, 44.42, **args, expert_parallel=True, table=False)
    assert with_ep.available_kv_gib < tp_only.available_kv_gib - 0.4
    assert with_ep.weights_gib == tp_only.weights_gib


def test_fit_and_launch_cli_enable_expert_parallel() -> None:
    """`model fit --enable-expert-parallel`: a MoE model at TP4 keeps whole experts per rank (a larger
    profiled fused-MoE workspace, so less KV) and the plan says so; a dense model gets the same plan and a
    note that the flag is ignored; `model launch` puts vLLM's flag in the command."""
    base = ["--gpu", "L40S", "--gpus", "4", "--context", "32768", "--vllm-version", "0.10.1", "--json"]

    def fit(model: str, *extra: str) -> dict:
        out = _cli("fit", model, *base, *extra)
        assert out.returncode == 0, out.stderr
        return json.loads(out.stdout)

    tp_only = fit("Qwen/Qwen3-30B-A3B")
    with_ep = fit("Qwen/Qwen3-30B-A3B", "--enable-expert-parallel")
    assert not tp_only["expert_parallel"] and with_ep["expert_parallel"]
    assert with_ep["available_kv_gib"] < tp_only["available_kv_gib"]
    assert with_ep["weights_gib"] == tp_only["weights_gib"]
    assert any("32 of the 128 experts whole" in n for n in with_ep["notes"])
    assert not any("expert parallel" in n for n in tp_only["notes"])
    dense, dense_ep = fit("Qwen/Qwen3-8B"), fit("Qwen/Qwen3-8B", "--enable-expert-parallel")
    assert dense_ep["available_kv_gib"] == dense["available_kv_gib"] and not dense_ep["expert_parallel"]
    assert any("ignored" in n and "dense model" in n for n in dense_ep["notes"])
    launch = _cli("launch", "Qwen/Qwen3-30B-A3B", "--engine", "vllm", *base[:4], "--enable-expert-parallel")
    assert launch.returncode == 0, launch.stderr
    command = next(x for x in launch.stdout.splitlines() if x.startswith("vllm serve"))
    assert "--enable-expert-parallel" in command.split() and "--tensor-parallel-size 4" in command
    refused = _cli(
        "launch", "Qwen/Qwen3-30B-A3B", "--engine", "llamacpp", *base[:2], "--enable-expert-parallel"
    )
    assert refused.returncode == 2 and "vLLM flag" in refused.stderr


def _activation(p) -> float:
    return next(c.gib for c in p.breakdown if c.name == "activation peak")


def test_the_profiled_logits_span_the_dummy_requests_not_the_batched_tokens() -> None:
    """vLLM's profile run makes min(max_num_seqs, batched tokens) dummy requests and samples one row each, so
    two sequences do not profile logits for 8,192 rows. club-3090#104 (two RTX 3090, Qwen3.6-27B AutoRound
    int4, 2 seqs, 8,192 batched tokens, 0.88) kept 9.84 GiB of KV per card; a token-wide logits peak left 6.02
    GiB in the plan. A multimodal checkpoint still profiles its vision encoder (one largest image)."""
    spec = replace(spec_for("Qwen/Qwen3.6-27B"), **{"quantization": "gptq"})
    args = {"gpus": 2, "context": 262144, "gpu_memory_utilization": 0.88, "kv_cache_dtype": "fp8"}
    args |= {"vllm_version": "0.21", "table": False}
    few = plan(spec, gpu("RTX 3090"), max_num_seqs=2, max_num_batched_tokens=8192, **args)
    few_small_batch = plan(spec, gpu("RTX 3090"), max_num_seqs=2, max_num_batched_tokens=2048, **args)
    many = plan(spec, gpu("RTX 3090"), max_num_seqs=1024, max_num_batched_tokens=8192, **args)
    assert _activation(few) == pytest.approx(_activation(few_small_batch), abs=0.05)  # the encoder binds
    assert 1.3 < _activation(few) < 2.0 and _activation(many) > 3.0 + _activation(few)
    assert 9.84 * 0.9 < few.available_kv_gib < 9.84 * 1.1
    # a text-only model with two sequences profiles its forward pass, far below 1,024 sequences' logits
    text = spec_for("Qwen/Qwen3-8B")
    v1 = {"max_num_batched_tokens": 8192, "context": 32768, "table": False, "vllm_version": "0.21"}
    two = plan(text, gpu("H100"), max_num_seqs=2, **v1)
    full = plan(text, gpu("H100"), max_num_seqs=1024, **v1)
    assert _activation(two) < 1.0 and _activation(full) > 3 * _activation(two)


def test_model_runner_v2_profiles_its_sampler_without_top_k_and_keeps_the_encoder_outputs() -> None:
    """From the releases that run Model Runner V2 (a dense Qwen3 from 0.22, all from 0.29; memory.releases)
    the profile samples its dummy logits without top-k / top-p, about one fp32 copy, and the dummy encoder
    outputs stay alive through the text run. Logged on one RTX PRO 6000 (vLLM 0.29.0, Qwen3.8-27B bf16,
    8,192 tokens, 0.90; bench/data/vllm-logs-heldout-6.csv): 652 blocks at 256 sequences, 635 at the
    default 1,024 (where V1's sort-size sampler planned 570), and 2.58 GiB of peak activation."""
    spec = spec_for("Qwen/Qwen3.6-27B")  # the Qwen3.8-27B layout
    args = {"context": 8192, "gpu_memory_utilization": 0.9, "vllm_version": "0.29.0", "table": False}
    card = gpu("RTX PRO 6000 Blackwell")
    few = plan(spec, card, 94.97, max_num_seqs=256, max_num_batched_tokens=8192, **args)
    many = plan(spec, card, 94.97, max_num_seqs=1024, max_num_batched_tokens=8192, **args)
    assert _activation(few) == pytest.approx(2.58, abs=0.25)
    assert few.num_blocks == pytest.approx(652, rel=0.03) and many.num_blocks == pytest.approx(635, rel=0.03)
    assert not many.fits  # 1,024 sequences exceed the state blocks: vLLM refuses to start
    older = plan(
        spec, card, 94.97, max_num_seqs=1024, max_num_batched_tokens=8192, **(args | {"vllm_version": "0.26"})
    )
    assert older.num_blocks < many.num_blocks  # V1 (0.26) sorts for top-k / top-p: a larger peak
    dense = spec_for("Qwen/Qwen3-8B")  # a dense Qwen3 is on V2 from 0.22, a hybrid only from 0.29
    v2 = plan(dense, gpu("H100"), max_num_seqs=1024, **(args | {"vllm_version": "0.27.1", "context": 32768}))
    v1 = plan(dense, gpu("H100"), max_num_seqs=1024, **(args | {"vllm_version": "0.21", "context": 32768}))
    assert _activation(v2) < _activation(v1) - 1.5
    assert release_for("2026-08 build") is release_for("0.27.1")  # a dated nightly: that month's release


def test_model_runner_v2_is_chosen_per_release_by_architecture_moe_hybrid_and_quantization() -> None:
    """`_is_default_v2_model_runner_model` as each wheel reads it: opt-in only on 0.21, a dense unquantized
    Qwen3 on 0.22, a listed architecture with any weights on 0.24, every dense non-hybrid model from 0.25
    (MoE only for the listed ones), everything from 0.29."""
    qwen2 = spec_for("Qwen/Qwen2.5-7B-Instruct")
    qwen3 = spec_for("Qwen/Qwen3-8B")
    moe = spec_for("Qwen/Qwen3-30B-A3B")
    hybrid = spec_for("Qwen/Qwen3.6-27B")
    assert not uses_v2_runner("0.21.0", qwen3) and uses_v2_runner("0.22.0", qwen3)
    assert not uses_v2_runner("0.22.0", qwen3, quantized=True)
    assert uses_v2_runner("0.24.0", qwen3, quantized=True)
    assert not uses_v2_runner("0.24.0", qwen2) and uses_v2_runner("0.25.0", qwen2)
    assert not uses_v2_runner("0.28.0", moe) and uses_v2_runner("0.29.0", moe)
    assert not uses_v2_runner("0.28.0", hybrid) and uses_v2_runner("0.29.0", hybrid)


def _graphs_in_pool(p) -> bool:
    return any(c.name.startswith("CUDA graphs (in the pool") for c in p.breakdown)


def test_model_runner_v2_takes_no_cuda_graph_estimate_out_of_the_pool_before_0_29() -> None:
    """V2's `profile_cudagraph_memory` returns 0 through 0.28 (its graphs are captured after the pool), and
    0.29 estimates them; V1 estimates them from 0.21. Logged on one RTX 4090 (vLLM 0.24.0, Qwen3-8B on V2,
    0.92, 32,768 tokens; bench/data/vllm-logs-heldout-14.csv): 6.03 GiB of KV, which the pool only reaches
    with its ~0.6 GiB of graphs left in it. That log is a re-run of a command that had started on the card
    before, so its compile cache was warm (no first-start compile peak: releases.compile_scratch_gib)."""
    dense = spec_for("Qwen/Qwen3-8B")
    moe = spec_for("Qwen/Qwen3-30B-A3B")
    args = {"context": 32768, "table": False}
    assert not _graphs_in_pool(plan(dense, gpu("RTX 4090"), vllm_version="0.28.0", **args))
    assert _graphs_in_pool(plan(dense, gpu("RTX 4090"), vllm_version="0.29.0", **args))
    assert _graphs_in_pool(plan(moe, gpu("H100"), vllm_version="0.28.0", **args))  # MoE: V1 until 0.29
    logged = plan(
        dense,
        gpu("RTX 4090"),
        vllm_version="0.24.0",
        gpu_memory_utilization=0.92,
        compile_cache_warm=True,
        **args,
    )
    assert logged.available_kv_gib == pytest.approx(6.03, rel=0.05)


def test_fp8_through_marlin_on_ampere_loads_more_than_native_fp8() -> None:
    """The same FP8 Qwen3.6/3.8-27B checkpoint at TP2: 14.68 GiB per RTX 3090 (Marlin weight-only FP8,
    club-3090#751, #602) against 14.28 on RTX 5090 (native FP8, vllm-project/recipes#810)."""
    spec = replace(spec_for("Qwen/Qwen3.6-27B"), **{"quantization": "fp8"})
    args = {"gpus": 2, "context": 32768, "vllm_version": "0.26", "table": False}
    ampere = plan(spec, gpu("RTX 3090"), **args).weights_gib
    blackwell = plan(spec, gpu("RTX 5090"), **args).weights_gib
    assert ampere / blackwell == pytest.approx(14.68 / 14.28, rel=1e-3)
    assert abs(ampere - 14.68) / 14.68 < 0.05 and abs(blackwell - 14.28) / 14.28 < 0.05


def test_a_llava_name_carries_its_clip_tower() -> None:
    """llava-v1.6-mistral-7b-hf is Mistral-7B plus the CLIP ViT-L/14-336 tower and its projector (0.32 B):
    vLLM loads 14.08 GiB for it (0.10.2 and 0.11 logs, bench/data/vllm-logs-heldout-5.csv / -7.csv), where
    the language model alone is 13.5; the estimate is a vision checkpoint, not a text one."""
    from lmscreen.model.memory.weights import weights

    spec = spec_from_name("llava-hf/llava-v1.6-mistral-7b-hf")
    assert spec.is_vision and 0.30e9 < spec.vision_params < 0.34e9
    assert weights(spec).per_gpu_gib == pytest.approx(14.08, rel=0.02)
    assert not spec_from_name("acme/Mistral-7B-Chat-Remix").vision_params  # a text name: no tower


def test_a_far_scaled_name_estimate_keeps_the_size_the_name_states() -> None:
    """Scaling Qwen3.5-27B's layout ×0.03 by the cube-root rule kept 1.43 B parameters (3.4 GiB) for
    Qwen3.5-0.8B: the embedding share grows as a model shrinks. The estimate is rescaled until it holds the
    name's 0.8 B, ties its embeddings as Qwen's catalog models of that size do (Qwen3-0.6B, Qwen2.5-0.5B),
    and takes its layout from Qwen's own release, not from NVIDIA's NVFP4 re-export of the 27B."""
    small = spec_from_name("Qwen/Qwen3.5-0.8B")
    assert small.tie_word_embeddings
    assert small.total_params == pytest.approx(0.8e9, rel=0.15)
    assert "nvidia/" not in small.sources["num_layers"]
    assert small.linear_attention is not None  # still the hybrid gated-delta layout of its family
    same_size = spec_from_name("Qwen/Qwen2-7B-Instruct")  # a same-size template is not rescaled
    assert same_size.total_params == pytest.approx(7.62e9, rel=0.01)


def test_0_12_to_0_16_profile_the_sort_based_sampler_of_0_11() -> None:
    """Through 0.15 V1's dummy sampler filters top-k / top-p by a full-vocabulary sort (~9 fp32 copies of the
    logits, vllm-project/vllm#32558); the Triton kernel of #33538 replaces it from 0.17.0, the first sdist
    that ships topk_topp_triton.py (memory.releases).
    Logged on vLLM 0.13.0 (bench/data/vllm-logs-heldout-8.csv): a Qwen3-VL-30B-A3B on an H100 NVL at the
    1,024-sequence default and 8,192 tokens keeps 19.40 GiB of KV; the smaller sampler planned 23.20."""
    spec = spec_for("Qwen/Qwen3-VL-30B-A3B-Instruct")
    args = {"context": 8192, "gpu_memory_utilization": 0.9, "table": False}
    card = gpu("H100 NVL")
    at = {
        v: plan(spec, card, vllm_version=v, **args)
        for v in ("0.11.0", "0.13.0", "0.15.1", "0.16.0", "0.17.0")
    }
    assert release_for("0.17").first == TRITON_SAMPLER_FROM == (0, 17, 0)
    assert release_for("0.17").triton_sampler and not release_for("0.16.1").triton_sampler
    assert release_for("0.13").sampler_copies == release_for("0.16").sampler_copies == SORT_SAMPLER_COPIES
    sort_peak = SORT_SAMPLER_COPIES * 1024 * (spec.vocab_size or 0) * 4 / GIB
    assert _activation(at["0.13.0"]) == pytest.approx(sort_peak + SORT_CONSTANT_GIB, abs=0.01)
    assert _activation(at["0.15.1"]) == pytest.approx(_activation(at["0.13.0"]), abs=0.01)
    assert _activation(at["0.16.0"]) == pytest.approx(_activation(at["0.13.0"]), abs=0.01)
    assert _activation(at["0.17.0"]) < _activation(at["0.13.0"]) - 2.0
    assert at["0.13.0"].weights_gib == pytest.approx(58.23, rel=0.02)
    assert at["0.13.0"].available_kv_gib == pytest.approx(19.40, rel=0.08)
    # with few sequences the sampler is small, and before 0.16 no per-parameter encoder term takes its place:
    # Qwen2-VL-7B on an RTX 3090 at 256 sequences profiles 1.39 GiB in all on 0.13.0 (heldout-5.csv)
    vl = spec_from_name("Qwen/Qwen2-VL-7B-Instruct")
    small = plan(vl, gpu("RTX 3090"), context=4096, vllm_version="0.13.0", table=False)
    later = plan(vl, gpu("RTX 3090"), context=4096, vllm_version="0.16.0", table=False)
    assert vl.vision_params and _activation(small) < 1.9 < _activation(later)


def test_0_17_to_0_20_sampler_peak_is_counted_from_the_code() -> None:
    """0.17–0.20's dummy sampler (vllm-0.17.1 sdist) holds the bf16 logits, their fp32 copy, the softmax and
    the exponential draw (3.5 fp32 copies of rows × vocab), plus the Triton kernel's buffer of one vocabulary
    row per SM it runs on, plus the dummy forward's hidden states; the fitted 4.96 copies and 0.15 GiB left
    one RTX 3090 on 0.17.1 0.31–0.35 GiB short of every logged pool (bench/data/vllm-logs-heldout-13.csv)."""
    from lmscreen.model.memory.overhead import sampler_gib, triton_buffer_rows

    assert triton_buffer_rows(256, 82) == 82  # RTX 3090: one program per SM
    assert triton_buffer_rows(256, 142) == 142  # L40S
    assert triton_buffer_rows(100, 132) == 128  # next power of two of the 100 programs, under the SM count
    assert triton_buffer_rows(256, None) == 256  # unknown card: as many SMs as rows (an upper bound)
    spec = spec_for("meta-llama/Llama-3.1-8B-Instruct")
    release = release_for("0.17.1")
    row = (spec.vocab_size or 0) * 4
    counted = ((3.5 * 256 + 82) * row + (2048 + 512) * (spec.hidden_size or 0) * 2) / GIB
    assert sampler_gib(spec, 256, release, 2048, sm_count=82) == pytest.approx(counted)
    # a bigger card keeps a bigger buffer; below 8 rows the PyTorch sort runs instead (6 copies, no buffer)
    assert sampler_gib(spec, 256, release, 2048, sm_count=142) > sampler_gib(
        spec, 256, release, 2048, sm_count=82
    )
    few = sampler_gib(spec, 4, release, 2048, sm_count=82)
    assert few == pytest.approx((6.0 * 4 * row + (2048 + 8) * (spec.hidden_size or 0) * 2) / GIB)
    # the release before it still sorts, and costs more at 256 rows
    assert sampler_gib(spec, 256, release_for("0.16.0"), 2048) > 1.5 * sampler_gib(
        spec, 256, release, 2048, sm_count=82
    )


@pytest.mark.parametrize(
    ("model", "util", "logged"),
    [("meta-llama/Llama-3.1-8B-Instruct", 0.90, 5.68), ("Qwen/Qwen2.5-7B-Instruct", 0.90, 6.32)],
)
def test_rtx3090_pool_on_0_17_1_at_the_serve_defaults(model: str, util: float, logged: float) -> None:
    """TheBuccaneer/vllm-offload-profiles: one RTX 3090 (23.54 GiB), vLLM 0.17.1, 8,192 tokens, 256 sequences
    and 2,048 batched tokens (the serve defaults below 70 GiB)."""
    p = plan(
        spec_for(model),
        gpu("RTX 3090"),
        23.54,
        context=8192,
        gpu_memory_utilization=util,
        vllm_version="0.17.1",
        table=False,
    )
    assert p.available_kv_gib == pytest.approx(logged, rel=0.05)


def test_float32_checkpoint_caches_fp32_kv_at_kv_auto() -> None:
    """`--dtype float32` makes vLLM's kv auto 4 bytes an element (its KV dtype is the model dtype): the
    llm-d-planner 0.19.0 log of Llama-3.1-8B at float32 on an H100 holds 175,296 tokens in 42.8 GiB."""
    spec = replace(spec_for("meta-llama/Llama-3.1-8B-Instruct"), **{"quantization": "fp32"})
    p = plan(spec, gpu("H100 80GB"), 79.19, context=8192, gpu_memory_utilization=0.95, vllm_version="0.19.0")
    bf16 = plan(
        spec_for("meta-llama/Llama-3.1-8B-Instruct"),
        gpu("H100 80GB"),
        79.19,
        context=8192,
        gpu_memory_utilization=0.95,
        vllm_version="0.19.0",
    )
    assert p.kv_bytes_per_token == 2 * bf16.kv_bytes_per_token == 256 * 1024
    assert p.kv_cache_dtype == "auto"  # the launch command keeps vLLM's own --kv-cache-dtype auto
    assert abs(p.weights_gib - 29.98) / 29.98 < 0.01
    assert abs(p.available_kv_gib - 42.8) / 42.8 < 0.05


def test_rotary_cos_sin_table_is_loaded_with_the_weights() -> None:
    """vLLM keeps one (max_position × rotary_dim) bf16 cos/sin table per rope configuration on every GPU and
    counts it in "Model loading took": Llama-4-Scout's 10,485,760 positions × 128 make 2.5 GiB per H100 at TP4
    (53.12 GiB logged, llm-d-planner v0.19.0), while a Qwen3.5 head rotates a quarter (64 of 256)."""
    from lmscreen.model.memory.weights import rope_cache_bytes

    scout = spec_for("meta-llama/Llama-4-Scout-17B-16E-Instruct")
    assert rope_cache_bytes(scout) == 10_485_760 * 128 * 2
    per_gpu = weights(scout, tp=4).per_gpu_gib
    assert abs(per_gpu - 53.12) / 53.12 < 0.01
    assert spec_for("Qwen/Qwen3.6-35B-A3B").rotary_dim == 64
    assert rope_cache_bytes(spec_for("Qwen/Qwen3-8B")) == 40960 * 128 * 2


def test_mtp_speculative_decoding_adds_the_draft_layer_in_16_bit_to_the_weights() -> None:
    """club-3090#104 (two RTX 3090, an int4 AutoRound Qwen3.6-27B, MTP n=3, 0.88, fp8 KV) logged 9.84 GiB
    of KV per GPU; the MTP decoder layer is loaded 16-bit beside the int4 body (transformers drops `mtp.*`,
    so AutoRound copies it as shipped), ~0.40 GiB per GPU at TP2, which the pool loses."""
    from lmscreen.model.memory.weights import mtp_draft_gib, mtp_draft_weights_gib

    spec = replace(spec_for("Qwen/Qwen3.6-27B"), quantization="autoround")
    args = dict(gpus=2, tp=2, context=262144, gpu_memory_utilization=0.88, kv_cache_dtype="fp8")
    args |= dict(vllm_version="0.21", max_num_seqs=2, max_num_batched_tokens=8192)
    base = plan(spec, gpu("RTX 3090"), **args)
    drafted = plan(spec, gpu("RTX 3090"), **args, mtp_draft=True)
    draft = mtp_draft_weights_gib(spec, tp=2)
    assert draft == pytest.approx(mtp_draft_gib(spec, tp=2, quantization="bf16"))
    assert draft > 3 * mtp_draft_gib(spec, tp=2)  # 16 bit, not the body's ~4.5 bpw
    assert drafted.weights_gib == pytest.approx(base.weights_gib + draft, abs=0.01)
    assert drafted.available_kv_gib == pytest.approx(base.available_kv_gib - draft, abs=0.01)
    assert drafted.available_kv_gib == pytest.approx(9.84, rel=0.03)
    assert any("MTP speculative decoding" in n for n in drafted.notes)
    # an FP8 release by the model's authors quantizes its MTP layer like the body
    fp8 = replace(spec, quantization="fp8")
    assert mtp_draft_weights_gib(fp8, tp=2) == pytest.approx(mtp_draft_gib(fp8, tp=2))
    # a checkpoint without MTP layers is planned the same with or without the flag
    plain = spec_for("Qwen/Qwen3-8B")
    with_flag = plan(plain, gpu("RTX 3090"), mtp_draft=True)
    assert with_flag.weights_gib == plan(plain, gpu("RTX 3090")).weights_gib


def test_fit_speculative_mtp_flag_counts_the_draft_layer() -> None:
    args = ("fit", "Qwen/Qwen3.6-27B", "--gpu", "RTX 5090", "--context", "32768", "--json")
    base = json.loads(_cli(*args).stdout)
    mtp = json.loads(_cli(*args, "--speculative-mtp").stdout)
    # one bf16 decoder layer and its 2h × h projection
    assert 0.7 < mtp["weights_gib"] - base["weights_gib"] < 0.9
    assert any("MTP speculative decoding" in n for n in mtp["notes"])


def test_an_mtp_draft_caches_its_layer_and_its_draft_tokens_in_a_hybrid_request() -> None:
    """vLLM's MTP drafter registers its attention layer beside the target's (a Qwen3.6-27B caches 17
    attention layers with 48 gated-delta ones: "Add 3 padding layers"), and from 0.16 a Mamba group counts
    one block per draft token in a request's memory (MambaSpec.max_memory_usage_bytes, page × (2 +
    num_speculative_blocks) in align mode). The AEON Qwen3.6-27B NVFP4 run (4 × RTX 5060 Ti, TP4, fp8 KV,
    196,608 tokens, MTP n=3, 0.20.2) logged 5.61 GiB and 615,468 tokens; the nvidia NVFP4 run (one GPU,
    fp8 KV, 262,144 tokens, MTP n=2, 0.23.1rc1) 48.6 GiB and 1,394,129."""
    from lmscreen.model.memory.kv import kv_layout
    from lmscreen.model.memory.releases import mamba_speculative_blocks
    from lmscreen.model.memory.vllm import VllmBlocks

    spec = spec_for("Qwen/Qwen3.6-27B")
    for tp, pool_gib, context, mnbt, draft_tokens, logged in (
        (4, 5.61, 196_608, 4096, 3, 615_468),
        (1, 48.6, 262_144, 65536, 2, 1_394_129),
    ):
        plain = VllmBlocks.from_layout(kv_layout(spec, "fp8", tp), 16, mnbt, True)
        drafted = VllmBlocks.from_layout(
            kv_layout(spec, "fp8", tp, draft_layers=spec.mtp_layers), 16, mnbt, True, draft_tokens
        )
        assert (drafted.group_size, plain.group_size) == (17, 16)
        assert drafted.linear_blocks_per_group == 2 + draft_tokens
        tokens = drafted.tokens(drafted.num_blocks(pool_gib * 2**30), context)
        assert tokens == pytest.approx(logged, rel=0.005)
        assert plain.tokens(plain.num_blocks(pool_gib * 2**30), context) > logged * 1.08
    assert mamba_speculative_blocks("0.14.1", 3) == 0
    assert mamba_speculative_blocks("0.16.0", 3) == 3


def test_gpu_kv_cache_size_is_max_concurrency_times_max_model_len_from_0_20_1() -> None:
    """vllm-0.20.0's _report_kv_cache_config prints num_blocks // groups × block size; 0.20.1 and 0.20.2 print
    max_concurrency × max_model_len (a nightly cut before 0.20.1, 0.20.1rc1.dev16, still the former)."""
    from lmscreen.model.memory.releases import reports_tokens_per_group

    assert reports_tokens_per_group("0.19.0")
    assert reports_tokens_per_group("0.20.0")
    assert reports_tokens_per_group("0.20.1rc1.dev16+g7a1eb8ac2")
    assert not reports_tokens_per_group("0.20.1")
    assert not reports_tokens_per_group("0.20.2")
    assert not reports_tokens_per_group("0.21")
    spec = replace(spec_for("Qwen/Qwen3.6-27B"), quantization="nvfp4")
    args = dict(gpus=4, tp=4, context=196_608, gpu_memory_utilization=0.92, kv_cache_dtype="fp8")
    args |= dict(max_num_seqs=10, max_num_batched_tokens=4096, mtp_draft=True, speculative_tokens=3)
    old = plan(spec, gpu("RTX 5060 Ti 16GB"), vllm_version="0.20.0", **args)
    new = plan(spec, gpu("RTX 5060 Ti 16GB"), vllm_version="0.20.2", **args)
    assert new.available_kv_gib == pytest.approx(old.available_kv_gib)
    assert new.kv_cache_tokens > 3 * old.kv_cache_tokens  # a hybrid's concurrency, not one group's blocks
    assert new.kv_cache_tokens == pytest.approx(new.max_concurrency * 196_608, rel=0.02)


def test_devices_of_160_gib_batch_16384_tokens_from_0_28() -> None:
    """vllm-0.28.0's EngineArgs.get_batch_defaults gives a device of 160 GiB or more 16,384 batched tokens and
    1,024 sequences (vllm-project/vllm#51726); 0.27.1 gives it the 8,192 / 1,024 of every 70 GiB card."""
    from lmscreen.model.memory.overhead import vllm_batch_defaults

    assert vllm_batch_defaults(191.69, "MI300X", "0.28.0") == (16384, 1024)
    assert vllm_batch_defaults(191.69, "MI300X", "0.29.1rc1.dev187") == (16384, 1024)
    assert vllm_batch_defaults(191.69, "MI300X", "0.27.1") == (8192, 1024)
    assert vllm_batch_defaults(139.81, "H200", "0.29.0") == (8192, 1024)
    assert vllm_batch_defaults(79.19, "A100 80GB", "0.29.0") == (2048, 256)
    spec = spec_for("meta-llama/Llama-3.1-8B-Instruct")
    new = plan(spec, gpu("B200"), vllm_version="0.29.0", context=8192)
    old = plan(spec, gpu("B200"), vllm_version="0.27.1", context=8192)
    assert (new.max_num_batched_tokens, old.max_num_batched_tokens) == (16384, 8192)


def test_0_10_1_without_flashinfer_profiles_the_sort_sampler_on_the_last_stage() -> None:
    """On 0.10.0–0.10.1 V1's TopKTopPSampler uses FlashInfer's fused top-k / top-p only when FlashInfer
    imports and VLLM_USE_FLASHINFER_SAMPLER is not 0; otherwise it logs "FlashInfer is not available" and
    sorts the whole vocabulary (v1/sample/ops/topk_topp_sampler.py, vllm-0.10.1 wheel), as 0.10.2–0.16 do.
    The dummy sampler runs on the last pipeline stage only, so only that stage's pool shrinks."""
    spec = spec_for("Qwen/Qwen3-8B")
    card = gpu("H100 80GB")
    args = {"context": 8192, "max_num_seqs": 1024, "max_num_batched_tokens": 8192, "table": False}
    fused = plan(spec, card, vllm_version="0.10.1", **args)
    native = plan(spec, card, vllm_version="0.10.1", flashinfer_sampler=False, **args)
    rows_bytes = 1024 * (spec.vocab_size or 0) * 4 / GIB
    release = release_for("0.10.1")
    assert release.native_sampler_copies == SORT_SAMPLER_COPIES > release.sampler_copies
    assert _activation(native) == pytest.approx(SORT_SAMPLER_COPIES * rows_bytes, abs=0.01)
    assert _activation(native) > _activation(fused) + 3.0
    assert native.available_kv_gib == pytest.approx(
        fused.available_kv_gib - (_activation(native) - _activation(fused)), abs=0.01
    )
    # FlashInfer in use (or unknown) plans as before; 0.11 already profiles the sort either way
    assert plan(spec, card, vllm_version="0.10.1", flashinfer_sampler=True, **args).available_kv_gib == (
        fused.available_kv_gib
    )
    at_011 = [plan(spec, card, vllm_version="0.11.0", flashinfer_sampler=f, **args) for f in (None, False)]
    assert at_011[0].available_kv_gib == at_011[1].available_kv_gib
    # PP2: the first stage runs no sampler, so the last one binds, and by the sort's size
    pp_args = {**args, "gpus": 2, "pp": 2}
    pp_fused = plan(spec, card, vllm_version="0.10.1", **pp_args)
    pp_native = plan(spec, card, vllm_version="0.10.1", flashinfer_sampler=False, **pp_args)
    assert pp_native.stage == 2
    assert pp_native.available_kv_gib < pp_fused.available_kv_gib - 3.0


def test_a_first_start_profiles_the_compile_peak_from_0_24() -> None:
    """From 0.24 (torch >= 2.10: vLLM AOT-compiles the model inside the start-up profile on a compile-cache
    miss) a first start profiles the compiler's temporaries, ~0.92 GiB, as a peak of its own. Logged on one L4
    (vLLM 0.28.0, Qwen2.5-7B-Instruct-AWQ on Model Runner V2, 0.35 of 22.03 GiB, 32,768 tokens; bench/data/
    vllm-logs-heldout-21.csv): 1.04 GiB of peak activation and a 1.10 GiB pool, so vLLM refused the 1.75 GiB
    a 32,768-token request needs. A restart with a warm cache, --enforce-eager (-O0) and 0.23 profile
    without it."""
    spec = resolve("Qwen/Qwen2.5-7B-Instruct-AWQ").spec
    args = {"context": 32768, "gpu_memory_utilization": 0.35, "table": False}
    first = plan(spec, gpu("L4"), vllm_version="0.28.0", **args)
    assert _activation(first) == pytest.approx(1.04, abs=0.1)
    assert not first.fits  # the logged refusal
    assert "first start" in next(c.source for c in first.breakdown if c.name == "activation peak")
    assert any(n.startswith("a first start compiles") and "--enforce-eager leaves" in n for n in first.notes)
    warm = plan(spec, gpu("L4"), vllm_version="0.28.0", compile_cache_warm=True, **args)
    eager = plan(spec, gpu("L4"), vllm_version="0.28.0", enforce_eager=True, **args)
    assert _activation(warm) < 0.5 and _activation(eager) == pytest.approx(_activation(warm))
    assert warm.fits and warm.available_kv_gib > first.available_kv_gib + 0.5
    assert not any(c.name.startswith("CUDA graphs") for c in eager.breakdown)  # eager captures none
    older = plan(spec, gpu("L4"), vllm_version="0.23.0", **args)
    assert _activation(older) == pytest.approx(
        _activation(plan(spec, gpu("L4"), vllm_version="0.23.0", compile_cache_warm=True, **args))
    )


def test_the_compile_peak_is_beside_the_sampler_not_on_top_of_it() -> None:
    """The compile's temporaries are freed before the dummy forward and sampler run, so the profile keeps
    the larger of the two peaks: V1's sort-size sampler at 1,024 sequences (0.28.0 runs a MoE on V1) is
    larger than the compile's ~0.92 GiB and hides it; at 2 sequences (2,048 batched tokens) the compile is
    the peak."""
    moe = spec_for("Qwen/Qwen3-30B-A3B")
    args = {"context": 32768, "vllm_version": "0.28.0", "max_num_batched_tokens": 2048, "table": False}
    for seqs, hidden in ((1024, True), (2, False)):
        cold = plan(moe, gpu("H100"), max_num_seqs=seqs, **args)
        warm = plan(moe, gpu("H100"), max_num_seqs=seqs, compile_cache_warm=True, **args)
        assert (_activation(cold) == pytest.approx(_activation(warm))) is hidden
        assert _activation(cold) >= _activation(warm)


def test_fit_cli_takes_enforce_eager_and_a_warm_compile_cache() -> None:
    """`model fit --enforce-eager` / `--warm-compile-cache` plan a start-up without the first start's compile
    peak (and, eager, without CUDA graphs)."""
    base = ["fit", "Qwen/Qwen2.5-7B-Instruct-AWQ", "--gpu", "L4", "--vllm-version", "0.28.0", "--json"]
    args = ["--gpu-memory-utilization", "0.35", "--context", "32768"]
    first, warm, eager = (
        json.loads(_cli(*base, *args, *extra).stdout)
        for extra in ((), ("--warm-compile-cache",), ("--enforce-eager",))
    )
    assert not first["fits"] and warm["fits"] and eager["fits"]
    assert warm["available_kv_gib"] > first["available_kv_gib"] + 0.5
