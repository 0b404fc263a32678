"""The planner bench reads a logged weight format the way `model fit` reads a quantization name.

A log cell says what vLLM or the exporter printed (`w4a16 (compressed-tensors WNA16 …)`, `int4`,
`w8a16`); the bench once knew only five spellings and planned a W4A16 Qwen3-Next-80B as bf16 (74.51 GiB of
weights per L40S against 22.53 logged, heldout-8). These cases run the bench's own function on such cells.
"""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

from bench_scripts import load_bench

REPO = Path(__file__).resolve().parents[1]


def _bench() -> ModuleType:
    return load_bench("planner_accuracy")


def test_llm_compressor_spellings_are_weight_only_int4() -> None:
    bench = _bench()
    cell = "w4a16 (compressed-tensors WNA16, Marlin MoE; non-quantized schemes fall back to bf16)"
    assert bench.logged_quantization(cell, "Qwen/Qwen3-Next-80B-A3B-Instruct") == "gptq"
    assert bench.logged_quantization("int4 group 128", "x") == "gptq"
    assert bench.logged_quantization("w8a16", "x") == "int8"
    assert bench.logged_quantization("", "org/Model-W4A16") == "gptq"


def test_named_formats_and_plain_precision_are_unchanged() -> None:
    bench = _bench()
    assert bench.logged_quantization("NVFP4 (ModelOpt)", "x") == "nvfp4"
    assert bench.logged_quantization("fp8 dynamic", "x") == "fp8"
    assert bench.logged_quantization("bf16", "Qwen/Qwen3-32B") == "bf16"
    assert bench.logged_quantization("", "Qwen/Qwen3-32B") is None


def test_a_w4a16_cell_is_planned_at_4_bit() -> None:
    bench = _bench()
    spec, _ = bench.resolve_spec("Qwen/Qwen3-Next-80B-A3B-Instruct", "w4a16 (compressed-tensors WNA16)")
    bf16, _ = bench.resolve_spec("Qwen/Qwen3-Next-80B-A3B-Instruct", "bf16")
    w4 = bench.weights(spec, tp=2).per_gpu_gib
    w16 = bench.weights(bf16, tp=2).per_gpu_gib
    assert spec.quantization == "gptq"
    assert w4 < 0.35 * w16


def test_the_log_cell_wins_over_the_checkpoint_name() -> None:
    """cyankiwi/Qwen3.5-9B-AWQ-BF16-INT8 is an 8-bit checkpoint made with the AWQ method; its log says
    'int8 (compressed-tensors WNA16, Marlin)'. Reading "AWQ" in the name first sized its body 4-bit."""
    bench = _bench()
    name = "cyankiwi/Qwen3.5-9B-AWQ-BF16-INT8"
    assert bench.logged_quantization("int8 (compressed-tensors WNA16, Marlin)", name) == "int8"
    assert bench.logged_quantization("", name) == "awq"  # no cell: the name is all there is
    assert (
        bench.logged_quantization(
            "awq 4-bit (compressed-tensors WNA16, Marlin)", "cyankiwi/Qwen3.5-4B-AWQ-4bit"
        )
        == "awq"
    )


def test_a_float32_dtype_cell_is_planned_at_4_bytes() -> None:
    """A start-up run with `--dtype float32` is planned with fp32 weights, not read as no format (bf16)."""
    bench = _bench()
    assert bench.logged_quantization("fp32 (--dtype float32)", "meta-llama/Llama-3.1-8B-Instruct") == "fp32"
    assert bench.logged_quantization("float32", "x") == "fp32"


def test_a_note_quoting_another_runs_language_model_only_plans_the_towers() -> None:
    """heldout-21's T4 gemma-4-E2B-it row quotes the article's --language-model-only, which was for its own
    text-only repack ('The two Google builds were served as multimodal checkpoints, so their figures include
    the vision and audio towers'): planned with both towers, its 9.80 GiB of weights come out within 5%."""
    bench = _bench()
    rows = bench.load_rows(REPO / "bench" / "data" / "vllm-logs-heldout-21.csv")
    row = next(r for r in rows if r["id"] == "t4-gemma4-e2b-it-bf16-0.29.0")
    assert "--language-model-only" in row["notes"]
    res = bench.evaluate(row, "heldout")
    assert abs(res.weights_planned - 9.80) / 9.80 < 0.05
    assert any(note.startswith("served multimodal") for note in res.notes)


def test_a_shell_quoted_json_mm_limit_is_read() -> None:
    """A note quoting `--limit-mm-per-prompt '{"video": 0}'` as typed in a shell (heldout-25's Qwen3-VL-235B
    rows) drops the video from the 0.11 encoder profile; the pattern once stopped at the quote."""
    bench = _bench()
    from lmscreen.model.memory.multimodal import parse_limits

    for note, want in (
        ("vllm serve X --limit-mm-per-prompt '{\"video\": 0}' --max-model-len 32K", {"video": 0}),
        ("--limit-mm-per-prompt image=4,video=0, KV auto", {"image": 4, "video": 0}),
        ('--limit-mm-per-prompt={"image": 2, "video": 0}', {"image": 2, "video": 0}),
    ):
        found = bench.MM_LIMITS.search(note)
        assert found is not None, note
        assert parse_limits(found.group(1)) == want, note


def test_a_logged_pytorch_sampler_fallback_is_planned_without_flashinfer() -> None:
    """A 0.10.1 log that says "FlashInfer is not available. Falling back to the PyTorch-native
    implementation" (or a run with VLLM_USE_FLASHINFER_SAMPLER=0) profiled the sort sampler; the bench
    passes that to the planner, a row without the line keeps the release's FlashInfer sampler."""
    bench = _bench()
    row = {
        "id": "t",
        "engine_version": "0.10.1",
        "model": "Qwen/Qwen3-8B",
        "weights_format": "bf16",
        "kv_cache_dtype": "auto",
        "gpu": "H100 80GB",
        "gpu_total_gib_per_device": "79.19",
        "tp": "1",
        "pp": "1",
        "gpu_memory_utilization": "0.9",
        "max_model_len": "8192",
        "max_num_seqs": "1024",
        "max_num_batched_tokens": "8192",
        "available_kv_gib": "60",
        "gpu_kv_cache_tokens": "",
        "outcome": "ok",
        "notes": "",
    }
    fused = bench.evaluate(row, "heldout").avail_planned
    for line in ("'FlashInfer is not available. Falling back ...'", "env VLLM_USE_FLASHINFER_SAMPLER=0"):
        native = bench.evaluate({**row, "notes": line}, "heldout").avail_planned
        assert native < fused - 3.0


def test_a_skip_mm_profiling_note_is_read() -> None:
    """A note quoting `--skip-mm-profiling` (or an offline `skip_mm_profiling=True`) plans the start-up
    without the encoder's profile (memory.flags); a note that only names the flag's absence does not."""
    bench = _bench()
    assert bench.SKIP_MM.search("vllm serve X --skip-mm-profiling --max-model-len 8192")
    assert bench.SKIP_MM.search("LLM(model=X, skip_mm_profiling=True)")
    assert not bench.SKIP_MM.search("LLM(model=X, skip_mm_profiling=False)")


def test_an_mm_processor_kwargs_note_is_read() -> None:
    """A note quoting `--mm-processor-kwargs` with a max_pixels (flat or under size) plans that image."""
    bench = _bench()
    from lmscreen.model.memory.multimodal import parse_max_pixels

    for note, want in (
        ("""vllm serve X --mm-processor-kwargs '{"max_pixels": 1003520}' --max-model-len 8192""", 1_003_520),
        ("""--mm-processor-kwargs '{"size": {"longest_edge": 802816}, "fps": 2}'""", 802_816),
    ):
        found = bench.MM_PROCESSOR_KWARGS.search(note)
        assert found is not None, note
        assert parse_max_pixels(found.group(1)) == want, note


def test_a_stated_group_size_is_read_from_the_log_cell() -> None:
    """vLLM prints the scale group of a WNA16 checkpoint ("group_size=32"); at 32 the scales cost 20/32 bit a
    weight, four times the default 128's, so a 120 B MoE at TP2 loads ~3 GiB more a GPU."""
    bench = _bench()
    assert bench.logged_group_size("w4a16 (compressed-tensors int4, group 32)") == 32
    assert bench.logged_group_size("awq int4 (group 128, Marlin)") == 128
    assert bench.logged_group_size("int4 group_size=64") == 64
    assert bench.logged_group_size("bf16") is None
    g32, _ = bench.resolve_spec("Qwen/Qwen3.5-122B-A10B", "w4a16 (compressed-tensors int4, group 32)")
    g128, _ = bench.resolve_spec("Qwen/Qwen3.5-122B-A10B", "w4a16 (compressed-tensors int4)")
    assert g32.quantization == "gptq" and g32.quantization_bits is None
    assert g32.quantization_group_size == 32
    gap = bench.weights(g32, tp=2).per_gpu_gib - bench.weights(g128, tp=2).per_gpu_gib
    assert 2.5 < gap < 4.0


def test_eager_and_warm_compile_cache_notes_leave_out_the_compile_peak() -> None:
    """A row whose notes quote `--enforce-eager` (not "removing --enforce-eager") or say its run had a warm
    compile cache is planned without the first start's compile peak (memory.releases.compile_scratch_gib);
    a plain row on a release that compiles keeps it, so its planned pool is smaller."""
    bench = _bench()
    row = {
        "id": "t",
        "engine_version": "0.28.0",
        "model": "Qwen/Qwen2.5-7B-Instruct-AWQ",
        "weights_format": "awq",
        "kv_cache_dtype": "auto",
        "gpu": "L4",
        "gpu_total_gib_per_device": "22.03",
        "tp": "1",
        "pp": "1",
        "gpu_memory_utilization": "0.6",
        "max_model_len": "32768",
        "max_num_seqs": "",
        "max_num_batched_tokens": "",
        "available_kv_gib": "6",
        "gpu_kv_cache_tokens": "",
        "outcome": "ok",
        "notes": "",
    }
    first = bench.evaluate(row, "heldout").avail_planned
    for note in ("vllm serve X --enforce-eager", "same flags, warm compile cache"):
        assert bench.evaluate({**row, "notes": note}, "heldout").avail_planned > first + 0.5, note
    undone = bench.evaluate({**row, "notes": "CUDA graphs (removing --enforce-eager)"}, "heldout")
    assert undone.avail_planned < first + 0.5
