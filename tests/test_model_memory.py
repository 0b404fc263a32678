"""The memory plan against real engine logs (research/vllm-measurements-calibration.csv, fit-planners.md 2.6,
2.7) and the `model fit` command contract (offline, < 1 s, no torch/vLLM/Transformers, one JSON object)."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from lmscreen.errors import InputError
from lmscreen.model.hardware import gpu
from lmscreen.model.memory import VllmBlocks, plan
from lmscreen.model.memory.kv import kv_layout
from lmscreen.model.memory.weights import hf_bits, weights
from lmscreen.model.spec import MLA, LinearAttention, ModelSpec

GIB = 1 << 30
MIB = 1 << 20
REPO = Path(__file__).resolve().parents[1]
CALIBRATION = REPO / "tests" / "data" / "research" / "vllm-measurements-calibration.csv"
DESIGN_FIELDS = {
    "weights_gib",
    "kv_bytes_per_token",
    "kv_state_bytes_per_seq",
    "overhead_gib",
    "available_kv_gib",
    "kv_cache_tokens",
    "max_concurrency",
    "max_context",
    "fits",
    "engine",
    "engine_version_modelled",
    "notes",
}


def gdn(layers: int, v_heads: int) -> LinearAttention:
    return LinearAttention(
        num_layers=layers,
        num_key_heads=16,
        key_head_dim=128,
        num_value_heads=v_heads,
        value_head_dim=128,
        conv_kernel=4,
    )


def qwen36_35b(quant: str | None = None) -> ModelSpec:
    return ModelSpec(
        name="Qwen/Qwen3.6-35B-A3B",
        num_layers=40,
        hidden_size=2048,
        num_attention_heads=16,
        num_kv_heads=2,
        head_dim=256,
        vocab_size=248320,
        tie_word_embeddings=False,
        max_position_embeddings=262144,
        full_attention_layers=10,
        linear_attention=gdn(30, 32),
        num_experts=256,
        num_experts_per_tok=8,
        moe_intermediate_size=512,
        total_params=35_000_000_000,
        active_params=3_000_000_000,
        quantization=quant,
        is_vision=True,
    )


def qwen36_27b(quant: str | None = None) -> ModelSpec:
    return ModelSpec(
        name="Qwen/Qwen3.6-27B",
        num_layers=64,
        hidden_size=5120,
        intermediate_size=17408,
        num_attention_heads=24,
        num_kv_heads=4,
        head_dim=256,
        vocab_size=248320,
        tie_word_embeddings=False,
        max_position_embeddings=262144,
        full_attention_layers=16,
        linear_attention=gdn(48, 48),
        total_params=27_000_000_000,
        quantization=quant,
    )


def qwen25_7b(quant: str | None = None) -> ModelSpec:
    return ModelSpec(
        name="Qwen/Qwen2.5-7B-Instruct",
        num_layers=28,
        hidden_size=3584,
        intermediate_size=18944,
        num_attention_heads=28,
        num_kv_heads=4,
        vocab_size=152064,
        tie_word_embeddings=False,
        max_position_embeddings=32768,
        total_params=7_620_000_000,
        quantization=quant,
    )


def qwen3_32b() -> ModelSpec:
    return ModelSpec(
        name="Qwen/Qwen3-32B",
        num_layers=64,
        hidden_size=5120,
        intermediate_size=25600,
        num_attention_heads=64,
        num_kv_heads=8,
        head_dim=128,
        vocab_size=151936,
        tie_word_embeddings=False,
        max_position_embeddings=40960,
        total_params=32_800_000_000,
    )


def gpt_oss(big: bool) -> ModelSpec:
    layers, experts, total, active = (
        (36, 128, 116_830_000_000, 5_130_000_000) if big else (24, 32, 20_910_000_000, 3_610_000_000)
    )
    return ModelSpec(
        name=f"openai/gpt-oss-{'120b' if big else '20b'}",
        num_layers=layers,
        hidden_size=2880,
        intermediate_size=2880,
        num_attention_heads=64,
        num_kv_heads=8,
        head_dim=64,
        vocab_size=201088,
        tie_word_embeddings=False,
        max_position_embeddings=131072,
        full_attention_layers=layers // 2,
        sliding_window_layers=layers // 2,
        sliding_window=128,
        num_experts=experts,
        num_experts_per_tok=4,
        total_params=total,
        active_params=active,
        quantization="mxfp4",
    )


def mistral_small_32() -> ModelSpec:
    return ModelSpec(
        name="mistralai/Mistral-Small-3.2-24B-Instruct-2506",
        num_layers=40,
        hidden_size=5120,
        intermediate_size=32768,
        num_attention_heads=32,
        num_kv_heads=8,
        head_dim=128,
        vocab_size=131072,
        tie_word_embeddings=False,
        max_position_embeddings=131072,
        total_params=24_010_000_000,
        is_vision=True,
    )


# ------------------------------------------------------------------------------- vLLM block accounting


@pytest.mark.parametrize(
    ("spec", "tp", "available_gib", "block", "blocks", "tokens"),
    [
        (qwen36_35b("nvfp4"), 1, 5.98, 2096, 299, 567_978),  # club-3090#612, RTX 5090
        (qwen36_35b("nvfp4"), 1, 6.01, 2096, 300, 569_878),  # club-3090#652
        (qwen36_27b("fp8"), 2, 4.99, 1568, 208, 302_921),  # 2×RTX 3090, TP2
    ],
)
def test_hybrid_block_model_reproduces_logged_token_counts(
    spec: ModelSpec, tp: int, available_gib: float, block: int, blocks: int, tokens: int
) -> None:
    layout = kv_layout(spec, "fp8", tp=tp)
    model = VllmBlocks.from_layout(layout)
    assert model.block_tokens == block
    assert model.num_blocks(available_gib * GIB) == blocks
    assert model.tokens(blocks, 131072) == tokens
    assert model.blocks_per_request(131072) == -(-131072 // block) + 2 * 3  # two blocks per GDN group


def test_full_attention_capacity_is_blocks_times_block_size() -> None:
    # RTX 4080 log: 8.0 GiB pool, 149,712 tokens (9357 blocks of 16) for Qwen2.5-7B-AWQ.
    model = VllmBlocks.from_layout(kv_layout(qwen25_7b("awq")))
    assert model.single_group and model.block_tokens == 16
    assert abs(model.tokens(model.num_blocks(8.0 * GIB), 32768) - 149_712) / 149_712 < 0.001


def test_budget_identity_on_rtx_4080_log() -> None:
    # vLLM 0.26 log: weights 5.29, activation 1.04, non-torch 0.06, KV 8.0 GiB, 149,712 tokens. KV equals
    # budget − consumed − activation: a dense Qwen2 runs on Model Runner V2 there, which estimates no CUDA
    # graphs before 0.29 (memory.releases.V2_CUDAGRAPH_ESTIMATE_FROM), so its 0.48 GiB of graphs stay in the
    # budget. The activation V2 profiled (1.04 GiB) is above the planned ~0.35 (not traced in vLLM's code),
    # which leaves the planned pool ~0.7 GiB high: within 10% here, not within 2%.
    p = plan(
        qwen25_7b("awq"),
        gpu("RTX 4080"),
        gpu_memory_utilization=0.9,
        context=32768,
        vllm_version="0.26.0",
    )
    parts = {c.name: c.gib for c in p.breakdown}
    assert "CUDA graphs (outside the pool)" in parts
    assert p.gpu_total_gib == pytest.approx(15.99)
    assert p.weights_gib == pytest.approx(5.29, rel=0.03)
    budget = parts["gpu memory × utilization"]
    identity = budget - p.weights_gib - parts["activation peak"] - parts["non-torch memory"]
    assert p.available_kv_gib == pytest.approx(identity)
    assert p.available_kv_gib == pytest.approx(8.0, rel=0.10)
    assert p.fits and p.max_concurrency == pytest.approx(4.57, rel=0.10)


@pytest.mark.parametrize(
    ("spec", "util", "logged_weights", "logged_kv", "block", "tokens"),
    [
        (gpt_oss(False), 0.90, 13.47, 50.28, 128, None),
        (gpt_oss(True), 0.95, 64.38, 3.33, 128, None),
        (mistral_small_32(), 0.95, 44.76, 28.20, 128, 184_832),
    ],
)
def test_h100_logs_of_vllm_011(
    spec: ModelSpec, util: float, logged_weights: float, logged_kv: float, block: int, tokens: int | None
) -> None:
    p = plan(
        spec,
        gpu("H100"),
        vram_gib=79.18,
        gpu_memory_utilization=util,
        context=16000,
        vllm_version="0.11.0",
        block_size=block,
    )
    assert p.weights_gib == pytest.approx(logged_weights, rel=0.01)
    assert p.available_kv_gib == pytest.approx(logged_kv, abs=0.25)
    assert p.fits
    if tokens:
        assert p.kv_cache_tokens == pytest.approx(tokens, rel=0.005)


def test_failure_boundaries() -> None:
    h100 = gpu("H100")
    # gpt-oss-120b at the default 131072 on one H100 with vLLM 0.14.1: OOM (vllm#33155).
    assert not plan(
        gpt_oss(True), h100, gpu_memory_utilization=0.9, context=131072, vllm_version="0.14.1"
    ).fits
    # Qwen3-32B bf16 at 32000 on one H100 does not fit; TP2 does.
    assert not plan(qwen3_32b(), h100, gpu_memory_utilization=0.9, context=32000, vllm_version="0.11.0").fits
    assert plan(
        qwen3_32b(), h100, gpus=2, gpu_memory_utilization=0.9, context=32000, vllm_version="0.11.0"
    ).fits
    # Qwen2.5-7B 4-bit on an 8 GB card at utilization 0.7: no room for the cache.
    small = plan(qwen25_7b("awq"), vram_gib=8.0, gpu_memory_utilization=0.7, context=4096)
    assert not small.fits and small.available_kv_gib < 0


def test_notes_name_the_knobs() -> None:
    p = plan(qwen3_32b(), gpu("RTX 3090"))
    assert not p.fits
    text = " ".join(p.notes)
    assert "quantize" in text and "AWQ" in text and "TP=4" in text  # TP=2 is still 30.5 GiB per GPU
    assert any(n.startswith("modelled on vLLM 0.33") for n in p.notes)
    tight = plan(qwen3_32b(), gpu("H100"), context=40960, concurrency=8)
    assert "--kv-cache-dtype fp8" in " ".join(tight.notes)
    assert not tight.fits and tight.max_concurrency < 8


def test_default_context_is_the_longest_that_fits() -> None:
    p = plan(qwen25_7b(), vram_gib=17.5)
    assert p.fits and p.context <= p.max_context < 32768
    exact = plan(qwen25_7b(), vram_gib=17.5, context=p.max_context)
    assert exact.fits and exact.blocks_per_request <= exact.num_blocks
    over = plan(qwen25_7b(), vram_gib=17.5, context=p.max_context + 64)
    assert over.max_context == p.max_context and not over.fits
    assert plan(qwen25_7b(), gpu("RTX 3090")).context == 32768  # the model's own limit
    beyond = plan(qwen25_7b(), gpu("H100"), context=65536)
    assert not beyond.fits and any("exceeds the model's 32,768" in n for n in beyond.notes)


def test_context_by_concurrency_table_is_monotone() -> None:
    p = plan(qwen36_27b("fp8"), gpu("RTX 5090"), gpus=2, kv_cache_dtype="fp8")
    contexts = [row.context for row in p.table]
    assert contexts == sorted(contexts) and contexts[-1] == 262144
    concurrency = [row.max_concurrency for row in p.table]
    assert concurrency == sorted(concurrency, reverse=True)
    assert p.kv_state_bytes_per_seq > 0  # recurrent state per sequence
    assert any("hybrid" in n for n in p.notes)


def test_mla_plan_on_eight_gpus() -> None:
    spec = ModelSpec(
        name="deepseek-ai/DeepSeek-V3",
        num_layers=61,
        hidden_size=7168,
        intermediate_size=18432,
        num_attention_heads=128,
        num_kv_heads=128,
        head_dim=128,
        vocab_size=129280,
        max_position_embeddings=163840,
        num_experts=256,
        num_experts_per_tok=8,
        moe_intermediate_size=2048,
        total_params=671_000_000_000,
        active_params=37_000_000_000,
        quantization="fp8",
        mla=MLA(kv_lora_rank=512, qk_rope_head_dim=64),
    )
    p = plan(spec, gpu("H200"), gpus=8)
    assert p.tp == 8 and p.kv_bytes_per_token == 70_272
    assert p.weights_gib == pytest.approx(671e9 / 8 / GIB, rel=0.02)
    assert p.fits
    assert not plan(spec, gpu("H100"), gpus=8).fits


# ------------------------------------------------------------------------------------- llama.cpp / Ollama


def test_llamacpp_cells_shared_by_slots_match_log() -> None:
    # "llama_kv_cache: size = 16384.00 MiB (262144 cells, 16 layers, 4/1 seqs)" + recurrent 598.50 MiB.
    p = plan(qwen36_27b("q8_0"), vram_gib=96.0, context=65536, concurrency=4, engine="llamacpp")
    assert p.kv_cache_tokens == 262144
    kv = next(c for c in p.breakdown if c.name == "KV cache")
    assert kv.gib * GIB == pytest.approx(16384 * MIB + 598.5 * MIB)
    assert p.fits and p.gpu_layers == 64


def test_llamacpp_offloads_moe_experts_then_layers() -> None:
    moe = plan(qwen36_35b("q4_k_m"), gpu("RTX 4060"), context=32768, engine="llamacpp")
    assert not moe.fits and moe.n_cpu_moe and moe.gpu_layers == 40 and moe.cpu_ram_gib > 5
    assert any("--n-cpu-moe" in n for n in moe.notes)
    dense = plan(
        replace(qwen3_32b(), **{"quantization": "q4_k_m"}),
        gpu("RTX 4060"),
        context=8192,
        engine="llamacpp",
    )
    assert not dense.fits and dense.n_cpu_moe is None and 0 < dense.gpu_layers < 64


def test_ollama_context_times_parallel_and_kv_types() -> None:
    p = plan(qwen25_7b(), gpu("RTX 4090"), engine="ollama", concurrency=2)
    assert p.quantization == "q4_k_m"  # library tags without a suffix
    assert p.context == 32768 and p.kv_cache_tokens == 32768 * 2  # OLLAMA_CONTEXT_LENGTH auto for 24 GiB
    with pytest.raises(InputError, match="ollama KV cache type"):
        plan(qwen25_7b(), gpu("RTX 4090"), engine="ollama", kv_cache_dtype="fp8")
    with pytest.raises(InputError, match="vllm KV cache type"):
        plan(qwen25_7b(), gpu("RTX 4090"), kv_cache_dtype="q8_0")


def test_weights_by_format() -> None:
    base = qwen25_7b()
    emb = 2 * 152064 * 3584
    body = 7_620_000_000 - emb
    assert weights(base).total_bytes == 7_620_000_000 * 2
    awq = weights(qwen25_7b("awq"))
    assert awq.total_bytes == round(body * (4 + 20 / 128) / 8 + emb * 2)  # scales + zeros per group of 128
    per_channel = replace(qwen25_7b("gptq"), **{"quantization_bits": 8, "quantization_group_size": -1})
    assert weights(per_channel).total_bytes == round(body + emb * 2)
    assert weights(qwen25_7b("fp8")).total_bytes == round(body * (8 + 32 / 16384) / 8 + emb * 2)
    assert weights(qwen25_7b("nvfp4")).total_bytes == round(body * 4.5 / 8 + emb * 2)
    assert weights(qwen25_7b("q4_k_m")).bits_per_weight == pytest.approx(4.90)
    assert weights(qwen25_7b("UD-Q4_K_XL")).quantization == "q4_k_m"
    # gpt-oss-120b: MXFP4 experts padded 2880 → 3072 by vLLM, the rest bf16 (logged 64.38 GiB).
    assert weights(gpt_oss(True)).per_gpu_gib == pytest.approx(64.38, rel=0.01)
    assert weights(gpt_oss(True), engine="llamacpp").total_bytes < weights(gpt_oss(True)).total_bytes
    with pytest.raises(InputError, match="cannot size"):
        weights(qwen25_7b("compressed-tensors"))


def test_header_bytes_are_used_and_split_per_gpu() -> None:
    exact = replace(
        qwen25_7b("compressed-tensors"),
        **{"weights_bytes": 6 * GIB, "sources": {"weights_bytes": "safetensors"}},
    )
    one, two = weights(exact), weights(exact, tp=2)
    assert one.total_bytes == 6 * GIB and one.source == "safetensors"
    assert two.per_gpu_bytes == 3 * GIB
    staged = weights(exact, pp=2)  # each stage: half the layers + the larger of embedding / lm_head
    assert staged.per_gpu_bytes == pytest.approx((6 * GIB - 2 * 152064 * 3584 * 2) / 2 + 152064 * 3584 * 2)


def test_llamacpp_keeps_input_embedding_in_host_memory() -> None:
    w = weights(qwen25_7b("q8_0"), engine="llamacpp")
    assert w.host_bytes == pytest.approx(152064 * 3584 * 8.51 / 8, rel=0.001)
    assert w.per_gpu_bytes == w.total_bytes - w.host_bytes


def test_bad_arguments_are_input_errors() -> None:
    with pytest.raises(InputError, match="divide"):
        plan(qwen25_7b(), gpu("H100"), gpus=3, tp=2)
    with pytest.raises(InputError, match="--gpu"):
        plan(qwen25_7b())
    with pytest.raises(InputError, match="engine"):
        plan(qwen25_7b(), gpu("H100"), engine="tgi")


# --------------------------------------------------------------------------------------------- the CLI

FORBIDDEN = ("torch", "vllm", "transformers")
_PROBE = f"""
import json, sys, time
t = time.perf_counter()
from lmscreen.cli import main
code = 0
try:
    main(sys.argv[1:])
except SystemExit as exc:
    code = exc.code
loaded = [m for m in {FORBIDDEN!r} if m in sys.modules]
sys.stderr.write("PROBE " + json.dumps({{"seconds": time.perf_counter() - t, "loaded": loaded}}) + "\\n")
sys.exit(code)
"""


def _run_probe(*args: str) -> tuple[subprocess.CompletedProcess[str], dict]:
    proc = subprocess.run([sys.executable, "-c", _PROBE, *args], capture_output=True, text=True, timeout=600)
    line = next(x for x in proc.stderr.splitlines() if x.startswith("PROBE "))
    return proc, json.loads(line[6:])


def test_fit_cli_is_fast_offline_and_imports_no_ml_stack() -> None:
    # What keeps `model fit` fast is what it does not import: no ML stack, no dataframe or GGUF/numpy
    # reader. Checked by module, not by seconds (a busy CI machine must not turn this red).
    proc, probe = _run_probe("model", "fit", "Qwen/Qwen3-8B", "--gpu", "RTX 3090")
    assert proc.returncode == 0, proc.stderr
    assert probe["loaded"] == []
    assert "RTX 3090" in proc.stdout and "fits" in proc.stdout
    assert [
        m for m in _heavy("model", "fit", "Qwen/Qwen3-8B", "--gpu", "RTX 3090") if m not in HELP_ALSO
    ] == []


# The screening stack and what only some commands need: none of it for `--help` or `model fit`. (model/'s
# records are plain dataclasses and pydantic checks only a user's files, in model.validate, so `model fit`
# on a catalog name loads no pydantic; `--help` loads nothing but click and lmscreen.cli.)
SCREENING_STACK = (
    "pydantic",
    "pydantic_core",
    "polars",
    "numpy",
    "pyarrow",
    "llama_cpp",
    "gguf",
    "httpx",
    "jinja2",
    "pygal",
    "jsonschema",
    "typer",
    "lmscreen.report",
    "lmscreen.outputs.history",
    "lmscreen.run",
    "lmscreen.rules",
    "lmscreen.task",
    "lmscreen.pool",
)
HELP_ALSO = ("rich", "yaml", "lmscreen.model")
EDGE_ONLY = ("lmscreen.model.validate",)
"""pydantic's checks of a user's files: loaded by no command on a catalog name (not in HELP_ALSO)."""
_HEAVY_PROBE = f"""
import json, sys
from lmscreen.cli import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
sys.stderr.write(json.dumps([m for m in {SCREENING_STACK + HELP_ALSO + EDGE_ONLY!r} if m in sys.modules]))
"""


def _heavy(*argv: str) -> list[str]:
    """The SCREENING_STACK, HELP_ALSO and EDGE_ONLY modules loaded by `lmscreen ARGV`."""
    whole = subprocess.run(
        [sys.executable, "-c", _HEAVY_PROBE, *argv], capture_output=True, text=True, timeout=600
    )
    assert whole.returncode in (0, 2), whole.stderr
    return json.loads(whole.stderr.splitlines()[-1])


def test_help_and_fit_load_none_of_the_screening_stack() -> None:
    """`lmscreen --help` and `model fit` (table and --json) start without pydantic, polars, the rules, the
    report, the history store or a chart library; `--help` without rich, YAML and the model package too."""
    for argv in (["--help"], ["model", "--help"], ["model", "fit", "--help"]):
        assert _heavy(*argv) == [], argv
    fit = ["model", "fit", "Qwen/Qwen3-8B", "--gpu", "RTX 4090"]
    for argv in (fit, [*fit, "--json"]):
        loaded = _heavy(*argv)
        assert not [m for m in loaded if m not in HELP_ALSO], (argv, loaded)
    assert "rich" not in _heavy(*fit, "--json"), "--json prints JSON: no table library"


def test_every_model_command_runs_without_pydantic() -> None:
    """model/'s records are plain dataclasses: decode, inspect, launch and recommend on catalog names load
    neither pydantic nor the screening stack either (pydantic's import and schemas were half of `model
    fit`); a user's config.json is read through model.validate, so that command does load pydantic."""
    for argv in (
        ["model", "decode", "Qwen3-30B-A3B-Instruct-2507-AWQ", "--json"],
        ["model", "inspect", "Qwen/Qwen3-8B", "--json"],
        ["model", "launch", "Qwen/Qwen3-8B", "--gpu", "RTX 4090", "--engine", "vllm"],
        ["model", "recommend", "--gpu", "RTX 4090", "--json"],
    ):
        loaded = _heavy(*argv)
        assert not [m for m in loaded if m not in HELP_ALSO], (argv, loaded)
    users = Path(__file__).parent / "data" / "configs" / "Qwen3-8B" / "config.json"
    loaded = _heavy("model", "inspect", str(users), "--json")
    assert {"pydantic", "lmscreen.model.validate"} <= set(loaded), loaded


def test_fit_cli_json_is_one_object_with_the_design_fields() -> None:
    proc, probe = _run_probe("model", "fit", "Qwen/Qwen3-8B", "--gpu", "RTX 3090", "--json")
    assert proc.returncode == 0, proc.stderr
    assert len(proc.stdout.strip().splitlines()) == 1
    data = json.loads(proc.stdout)
    assert DESIGN_FIELDS <= data.keys()
    assert data["kv_bytes_per_token"] == 147_456 and data["engine"] == "vllm" and data["fits"] is True


def test_fit_cli_engines_and_errors() -> None:
    proc, _ = _run_probe(
        "model",
        "fit",
        "Qwen/Qwen3.6-35B-A3B",
        "--vram-gib",
        "16",
        "--engine",
        "llamacpp",
        "--context",
        "32768",
        "--json",
    )
    data = json.loads(proc.stdout)
    assert data["engine"] == "llamacpp" and data["kv_bytes_per_token"] == 20 * 1024
    bad, _ = _run_probe("model", "fit", "Qwen/Qwen3-8B", "--gpu", "RTX 9999")
    assert bad.returncode == 2 and bad.stdout == ""
    assert len([x for x in bad.stderr.splitlines() if not x.startswith("PROBE ")]) == 1
    missing, _ = _run_probe("model", "fit", "Qwen/Qwen3-8B")
    assert missing.returncode == 2 and "--gpu" in missing.stderr


def test_planner_accuracy_bench_meets_its_targets() -> None:
    proc = subprocess.run(
        [sys.executable, str(REPO / "bench" / "planner_accuracy.py"), "--csv", str(CALIBRATION), "--json"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(proc.stdout)["calibration"]["summary"]
    assert summary["available_kv_rows"] >= 5 and summary["available_kv_median_rel_error"] <= 0.03
    assert summary["tokens_from_logged_pool_rows"] >= 4
    assert summary["tokens_from_logged_pool_median_rel_error"] < 0.10
    assert summary["tokens_median_rel_error"] < 0.10
    assert summary["verdicts"] >= 8 and summary["verdicts_right"] == summary["verdicts"]


def test_planner_accuracy_bench_on_the_public_llm_d_rows() -> None:
    """The default run adds llm-d's public H100 table (Qwen3-32B, Llama-3.1-8B, Qwen3-0.6B, Llama-3.3-70B-FP8
    at TP1/TP2): every verdict right, median KV error within 3%, and no row planned above its log by >3%."""
    proc = subprocess.run(
        [sys.executable, str(REPO / "bench" / "planner_accuracy.py"), "--json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)["calibration"]
    summary = out["summary"]
    assert summary["verdicts"] >= 15 and summary["verdicts_right"] == summary["verdicts"]
    assert summary["available_kv_rows"] >= 12 and summary["available_kv_median_rel_error"] <= 0.03
    dense_32b = next(r for r in out["rows"] if r["id"] == "llmd-Qwen3-32B-tp1-16000")
    assert dense_32b["avail_planned"] <= 1.03 * dense_32b["avail_logged"]


def test_nvfp4_of_a_hybrid_model_without_its_layer_list_keeps_the_gated_delta_layers_16_bit() -> None:
    """llm-compressor's Qwen3.5/3.6 NVFP4 recipes ignore `linear_attn` (and Inferact's export lists every
    gated-delta projection), so an NVFP4 release sized from the base architecture keeps those 1.0 B
    parameters and the vision tower 16 bit: RedHatAI/Qwen3.6-35B-A3B-NVFP4 loads 21.86 GiB (vLLM 0.20 log,
    bench/data/vllm-logs-heldout-6.csv); 4.5 bpw everywhere gives 19.7. A dense model is unchanged."""
    from lmscreen.model.arch.params import linear_attention_params
    from lmscreen.model.catalog import spec_for

    base = spec_for("Qwen/Qwen3.6-35B-A3B")
    nvfp4 = replace(base, **{"quantization": "nvfp4"})
    assert 0.9e9 < linear_attention_params(base) < 1.1e9
    assert weights(nvfp4).per_gpu_gib == pytest.approx(21.86, rel=0.05)
    flat = (
        base.total_params - 2 * base.vocab_size * base.hidden_size
    ) * 4.5 / 8 + 4 * base.vocab_size * base.hidden_size
    assert weights(nvfp4).total_bytes > flat + 1.0e9 * (2 - 4.5 / 8) * 0.95
    dense = qwen25_7b("nvfp4")
    emb = 2 * 152064 * 3584
    assert weights(dense).total_bytes == round((7_620_000_000 - emb) * 4.5 / 8 + emb * 2)


def test_int4_of_a_gated_delta_moe_without_its_layer_list_keeps_what_its_exporters_ignore() -> None:
    """A W4A16 / AWQ / GPTQ release of Qwen3-Next named without its config keeps the gated-delta layers, the
    router and the shared expert 16 bit, as llm-compressor's Qwen3.5-MoE recipes and cyankiwi's Qwen3-Next
    AWQ list them: 1.41 B parameters, about 1 GiB more per GPU at TP2 than 4-bit everywhere. A dense
    hybrid (Qwen3.6-27B, whose AutoRound/AWQ releases quantize the recurrent layers) and a checkpoint whose
    own list was read are sized as before."""
    from lmscreen.model.arch.unquantized import unquantized_params
    from lmscreen.model.catalog import spec_for
    from lmscreen.model.memory.weights import INT4_HYBRID_KEPT, rope_cache_bytes

    nxt = spec_for("Qwen/Qwen3-Next-80B-A3B-Instruct")
    kept = unquantized_params(nxt, list(INT4_HYBRID_KEPT))
    assert 1.35e9 < kept < 1.45e9
    w4 = weights(nxt, tp=2, quantization="w4a16")
    emb = 2 * nxt.vocab_size * nxt.hidden_size
    four_bit_everywhere = ((nxt.total_params - emb) * hf_bits(nxt, "gptq") / 8 + emb * 2) / 2
    four_bit_everywhere += rope_cache_bytes(nxt)  # the rotary table every rank holds whole
    assert w4.per_gpu_bytes - four_bit_everywhere == pytest.approx(
        kept * (2 - hf_bits(nxt, "gptq") / 8) / 2, rel=0.01
    )
    assert "left unquantized" in w4.detail and "INT4_HYBRID_KEPT" in w4.detail
    # an AWQ release keeps the full attention too (AWQ_HYBRID_ATTENTION_KEPT): 12 layers of q_proj with its
    # output gate (2048 × 2 × 16 × 256), k/v (2048 × 2 × 256 each) and o_proj (16 × 256 × 2048) = 0.327 B
    awq = weights(nxt, tp=2, quantization="awq")
    extra = (awq.total_bytes - w4.total_bytes) / (2 - hf_bits(nxt, "awq") / 8)
    assert extra == pytest.approx(
        12 * (2048 * 2 * 16 * 256 + 2 * 2048 * 2 * 256 + 16 * 256 * 2048), rel=0.001
    )
    dense = spec_for("Qwen/Qwen3.6-27B")
    assert "left unquantized" not in weights(dense, quantization="gptq").detail


def test_per_layer_embeddings_stay_16_bit_in_a_quantized_e_series_checkpoint() -> None:
    """Gemma 4 E2B's per-layer embedding tables (2.35 of its 4.65 B parameters) are embeddings: a W4A16
    export quantizes the linear layers only, so at least 2.79 B parameters stay 16 bit (5.2 GiB); sizing them
    4-bit put the QAT release at 2.8 GiB where vLLM loads 8.0 with its towers (heldout-7's T4 log)."""
    from lmscreen.model.catalog import spec_for

    e2b = spec_for("google/gemma-4-E2B")
    w4 = weights(replace(e2b, **{"quantization": "gptq"}))
    assert w4.total_bytes >= 2.79e9 * 2
    assert 5.5 < w4.per_gpu_gib < 8.02
    dense = weights(qwen25_7b("gptq"))  # no per-layer tables: only the token embedding stays 16 bit
    emb = 2 * 152064 * 3584
    assert dense.total_bytes == round((7_620_000_000 - emb) * (4 + 20 / 128) / 8 + emb * 2)


def test_an_estimated_context_limit_does_not_refuse_a_longer_context() -> None:
    """A name estimate borrows its template's context limit; vLLM refuses only above the model's own
    config's limit, so the planner plans the length asked for (Seed-OSS-36B named bare started at 65,536 on
    two A100, bench heldout-17) and says the limit was estimated. A config's own limit still refuses."""
    from lmscreen.model.arch.estimate import spec_from_name
    from lmscreen.model.catalog import spec_for

    seed = spec_from_name("ByteDance-Seed/Seed-OSS-36B-Instruct")
    assert seed.max_position_embeddings == 4096  # the template's (Yi-1.5-34B, the nearest generic size)
    p = plan(seed, gpu("A100 80GB"), gpus=2, context=65536, vllm_version="0.11.2")
    assert p.fits
    assert any("context limit is estimated" in n for n in p.notes)
    real = spec_for("Qwen/Qwen2.5-32B-Instruct")
    q = plan(real, gpu("A100 80GB"), gpus=2, context=65536, vllm_version="0.11.2")
    assert not q.fits
    assert any("exceeds the model's 32,768" in r for r in q.notes + list(getattr(q, "reasons", [])))
    # with no --context the plan stops at the borrowed limit, and says the limit is only the template's
    default = plan(seed, gpu("A100 80GB"), gpus=2, vllm_version="0.11.2")
    assert any("context limit is estimated (4,096 tokens" in n and "--context" in n for n in default.notes)
    assert not any("context limit is estimated" in n for n in plan(real, gpu("A100 80GB"), gpus=2).notes)


def test_a_tensor_parallel_size_that_does_not_split_the_vocabulary_or_kv_heads_is_refused() -> None:
    """vLLM shards the 64-padded vocabulary and the KV heads over the TP ranks and asserts divisibility
    before loading (vocab_parallel_embedding.py, linear.py QKVParallelLinear): llm-d-planner's Qwen3-14B at
    TP5 on H100s stopped on '151936 is not divisible by 5' (bench heldout-20). TP2/4/8 still plan."""
    from lmscreen.model.catalog import spec_for

    qwen = spec_for("Qwen/Qwen3-14B")  # 40 heads (divisible by 5), 8 KV heads, vocabulary 151,936
    h100 = gpu("H100")
    tp5 = plan(qwen, h100, gpus=5, gpu_memory_utilization=0.95, context=8192, vllm_version="0.19.0")
    assert not tp5.fits
    said = " ".join(tp5.notes + list(getattr(tp5, "reasons", [])))
    assert "151,936 is not divisible by 5" in said
    for tp in (2, 4, 8):
        ok = plan(qwen, h100, gpus=tp, gpu_memory_utilization=0.95, context=8192, vllm_version="0.19.0")
        assert ok.fits
    # Eight KV heads at TP6 (heads 48 divide by 6): vLLM cannot split 8 heads six ways.
    six = replace(qwen, num_attention_heads=48, vocab_size=151680)
    p6 = plan(six, h100, gpus=6, gpu_memory_utilization=0.95, context=8192, vllm_version="0.19.0")
    assert not p6.fits
    assert "8 KV heads" in " ".join(p6.notes + list(getattr(p6, "reasons", [])))


def test_name_only_hybrid_releases_keep_what_their_tool_keeps() -> None:
    """Per-tool defaults for a gated-delta hybrid named without its config (memory.weights.name_default_kept).

    AWQ: the full-attention `self_attn` stays 16 bit (cyankiwi's Qwen3-Next AWQ recipe, a public Qwen3-Coder-
    Next AWQ script, redashes/QwenPaw-Flash-9B-heretic-AWQ-INT4-MTP's card); on dense Qwen3.6-27B that is
    16 layers × 104.9 M = 1.68 B parameters. The A10 log of QuantTrio/Qwen3.6-27B-AWQ (bench heldout-18,
    --language-model-only) loads 18.83 GiB: 16.55 planned with everything 4 bit, 18.87 with the attention
    16 bit (its q_proj with the output gate). Intel AutoRound (Intel/Qwen3-Coder-Next-int4-AutoRound,
    Intel/Qwen3.5-397B-A17B-int4-AutoRound quantization_config.json `extra_config`): only the router and
    shared-expert gate, so a name saying AutoRound is not sized with the llm-compressor list. GPTQ / W4A16
    of a dense hybrid keeps nothing more
    (btbtyler09/Qwen3.6-27B-GPTQ-8bit and LibertAIDAI/Qwen3.6-27B-W4A16-G128 quantize the gated-delta
    in_proj_qkv / in_proj_z / out_proj); a hybrid with MLA (Kimi-Linear) has no default."""
    from lmscreen.model.arch.unquantized import unquantized_params
    from lmscreen.model.catalog import spec_for
    from lmscreen.model.memory.weights import (
        AUTOROUND_KEPT,
        AWQ_HYBRID_ATTENTION_KEPT,
        INT4_HYBRID_KEPT,
        name_default_kept,
    )

    dense = spec_for("Qwen/Qwen3.6-27B")
    attn = unquantized_params(dense, list(AWQ_HYBRID_ATTENTION_KEPT))
    assert attn == pytest.approx(1.68e9, rel=0.01)  # q_proj with its output gate: 104.9 M per layer
    awq = replace(dense, **{"quantization": "awq", "name": "QuantTrio/Qwen3.6-27B-AWQ"})
    patterns, why = name_default_kept(awq, "awq")
    assert patterns == AWQ_HYBRID_ATTENTION_KEPT and "AWQ" in why
    four_bit = weights(replace(dense, **{"quantization": "gptq"}))
    assert weights(awq).total_bytes - four_bit.total_bytes == pytest.approx(
        attn * (2 - hf_bits(dense, "awq") / 8), rel=0.001
    )
    assert "no layer list read" in weights(awq).detail
    nxt = spec_for("Qwen/Qwen3-Next-80B-A3B-Instruct")
    ar = replace(nxt, **{"name": "Intel/Qwen3-Coder-Next-int4-AutoRound", "quantization": "gptq"})
    assert name_default_kept(ar, "gptq")[0] == AUTOROUND_KEPT
    assert unquantized_params(nxt, list(AUTOROUND_KEPT)) < 0.06e9  # 48 routers of 2048 × 512: small
    assert name_default_kept(replace(nxt, **{"quantization": "gptq"}), "gptq")[0] == tuple(INT4_HYBRID_KEPT)
    assert name_default_kept(replace(dense, **{"quantization": "gptq"}), "gptq") == ((), "")
    kimi = spec_for("moonshotai/Kimi-Linear-48B-A3B-Instruct")
    assert name_default_kept(replace(kimi, **{"name": "cyankiwi/Kimi-Linear-AWQ"}), "awq") == ((), "")
