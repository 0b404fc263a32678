"""Built-in model catalog and GPU catalog: coverage, lookups, sources, and fast light imports."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from lmscreen.errors import InputError
from lmscreen.model.catalog import all_models, lookup, spec_for
from lmscreen.model.hardware import all_gpus, gpu
from lmscreen.model.memory import plan


def test_catalog_size_sources_and_unique_names() -> None:
    models = all_models()
    assert len(models) >= 150  # issue 12: the models people run today
    assert all(m.source for m in models)
    keys = [k.lower() for m in models for k in (m.id, *m.aliases, *m.ollama)]
    assert len(keys) == len(set(keys)), "an id, alias or ollama tag points at two entries"


@pytest.mark.parametrize(
    "family",
    [
        "qwen2.5",
        "qwen2.5-coder",
        "qwen3",
        "qwen3-next",
        "qwen3.5",
        "qwen3.6",
        "llama",
        "mistral",
        "mistral-small",
        "mixtral",
        "deepseek",
        "deepseek-r1",
        "deepseek-r1-distill-qwen",
        "deepseek-r1-distill-llama",
        "glm-4",
        "glm-4.5",
        "gpt-oss",
        "gemma-3",
        "phi",
        "smollm2",
    ],
)
def test_required_families_present(family: str) -> None:
    assert any(m.family == family for m in all_models())


def test_every_entry_builds_a_plannable_spec() -> None:
    for entry in all_models():
        spec = spec_for(entry.id)
        assert spec.num_layers and spec.hidden_size and spec.vocab_size and spec.max_position_embeddings, (
            entry.id
        )
        # attention layers: full ones, or (Phi-3-mini / -medium) only windowed ones, one vLLM group
        assert spec.full_attention_layers is not None, entry.id
        windowed = spec.sliding_window_layers if spec.sliding_window else 0
        assert spec.full_attention_layers + windowed > 0, entry.id
        assert spec.mla or (spec.num_kv_heads and spec.head_dim), entry.id
        assert spec.total_params == round(entry.total_params_b * 1e9)
        assert 0 < spec.active_params <= spec.total_params
        assert spec.sources["num_layers"] == "catalog"


@pytest.mark.parametrize(
    "query,expected",
    [
        ("Qwen/Qwen3-8B", "Qwen/Qwen3-8B"),
        ("qwen/qwen3-8b", "Qwen/Qwen3-8B"),
        ("Qwen3-8B", "Qwen/Qwen3-8B"),
        ("qwen3:8b", "Qwen/Qwen3-8B"),
        ("Qwen3-8B-Q4_K_M.gguf", "Qwen/Qwen3-8B"),
        ("Qwen/Qwen2.5-7B-Instruct-AWQ", "Qwen/Qwen2.5-7B-Instruct"),
        ("llama3.1:70b-instruct-q4_K_M", "meta-llama/Llama-3.1-70B-Instruct"),
        ("meta-llama/Meta-Llama-3.1-8B-Instruct", "meta-llama/Llama-3.1-8B-Instruct"),
        ("Qwen/Qwen3-30B-A3B-Instruct-2507-AWQ", "Qwen/Qwen3-30B-A3B-Instruct-2507"),
        ("gemma3:27b", "google/gemma-3-27b-it"),
        ("gemma-3-27b", "google/gemma-3-27b-it"),
        ("GLM-4-9B-Chat", "THUDM/glm-4-9b-chat"),
        ("deepseek-v3", "deepseek-ai/DeepSeek-V3"),
        ("mixtral:8x7b", "mistralai/Mixtral-8x7B-Instruct-v0.1"),
    ],
)
def test_lookup_is_forgiving(query: str, expected: str) -> None:
    entry = lookup(query)
    assert entry is not None and entry.id == expected


def test_unknown_model_lists_close_matches() -> None:
    assert lookup("qwen3.5:13b") is None
    with pytest.raises(InputError, match="close matches: .*Qwen3-8B"):
        spec_for("Qwen3-9B")


def test_hybrid_and_mla_facts_in_catalog() -> None:
    spec = spec_for("Qwen/Qwen3.6-35B-A3B")
    assert spec.full_attention_layers == 10 and spec.linear_attention.num_layers == 30
    assert spec.active_params == 3_000_000_000 and spec.num_experts == 256
    ds = spec_for("deepseek-ai/DeepSeek-V3")
    assert ds.mla.kv_lora_rank == 512 and ds.num_layers * 576 * 2 == 70272
    gemma = spec_for("google/gemma-3-1b-it")
    assert (gemma.sliding_window, gemma.sliding_window_layers, gemma.full_attention_layers) == (512, 22, 4)


@pytest.mark.parametrize(
    "name,expected",
    [
        ("RTX 3090", "RTX 3090"),
        ("3090", "RTX 3090"),
        ("rtx4090", "RTX 4090"),
        ("GeForce RTX 4090", "RTX 4090"),
        ("H100", "H100 SXM"),
        ("H100 SXM", "H100 SXM"),
        ("h100-pcie", "H100 PCIe"),
        ("A100 80GB", "A100 80GB"),
        ("a100-40g", "A100 40GB"),
        ("4060 Ti 16GB", "RTX 4060 Ti 16GB"),
        ("RTX 5090", "RTX 5090"),
        ("RTX PRO 6000", "RTX PRO 6000 Blackwell"),
        ("mi300x", "MI300X"),
        ("M3 Max 128GB", "M3 Max 128GB"),
        ("m4 max 36gb", "M4 Max 36GB"),
        ("L40S", "L40S"),
        ("H20", "H20"),
        ("H200", "H200"),
        ("B200", "B200"),
    ],
)
def test_gpu_lookup(name: str, expected: str) -> None:
    assert gpu(name).name == expected


def test_gpu_facts() -> None:
    rtx3090 = gpu("RTX 3090")
    assert (rtx3090.memory_gib, rtx3090.bandwidth_gbs, rtx3090.fp8, rtx3090.arch) == (
        24,
        936,
        False,
        "ampere",
    )
    assert rtx3090.visible_gib == pytest.approx(23.56) and rtx3090.usable_gib < rtx3090.memory_gib
    assert gpu("RTX 4090").fp8 and not gpu("RTX 4090").fp4
    assert gpu("RTX 5090").fp4 and gpu("B200").fp4 and gpu("H100").fp8
    mac = gpu("M3 Max 128GB")
    assert mac.unified_memory and mac.usable_gib == pytest.approx(96.0)
    required = [
        "RTX 3090",
        "RTX 4060",
        "RTX 4060 Ti 8GB",
        "RTX 4060 Ti 16GB",
        "RTX 4070",
        "RTX 4070 Ti",
        "RTX 4070 Ti Super",
        "RTX 4080",
        "RTX 4080 Super",
        "RTX 4090",
        "RTX 5070",
        "RTX 5070 Ti",
        "RTX 5080",
        "RTX 5090",
        "A10",
        "L4",
        "L40S",
        "A100 40GB",
        "A100 80GB",
        "H100 PCIe",
        "H100 SXM",
        "H20",
        "H200",
        "B200",
        "RTX PRO 6000 Blackwell",
        "MI300X",
    ]
    names = {g.name for g in all_gpus()}
    assert set(required) <= names
    assert all(g.source and g.bandwidth_gbs > 0 and g.memory_gib > 0 for g in all_gpus())


def test_gpu_unknown_and_apple_without_size() -> None:
    with pytest.raises(InputError, match="close matches: RTX 5090"):
        gpu("RTX 9090")
    with pytest.raises(InputError, match="M3 Max 128GB"):
        gpu("M3 Max")


def test_model_modules_import_light() -> None:
    """Catalog, decode and GPU lookups never pull numpy / gguf / torch / transformers / vllm."""
    code = (
        "import sys\n"
        "from lmscreen.model import catalog, hardware, names, arch\n"
        "catalog.spec_for('Qwen/Qwen3-8B'); names.decode('qwen3:8b'); hardware.gpu('RTX 3090')\n"
        "print(','.join(m for m in ('numpy', 'gguf', 'torch', 'transformers', 'vllm') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == ""


def test_every_catalog_entry_records_its_source() -> None:
    """No fact without its origin: each entry names the URL or file its config was read from."""
    root = Path(__file__).resolve().parents[1]
    for entry in all_models():
        assert entry.source.strip(), entry.id
        assert entry.source.startswith("https://") or (root / entry.source.split()[0]).is_file(), entry.id
        if entry.generation:
            assert entry.generation_source, entry.id
        folder = root / "catalog" / "models" / entry.id.replace("/", "--")
        assert (folder / "config.json").is_file() and (folder / "entry.yaml").is_file(), entry.id
        if (folder / "hf_quant_config.json").is_file():
            assert entry.quant_source, entry.id
        if entry.params_source and entry.params_source != "config":
            assert entry.params_source.startswith("https://"), entry.id


def test_catalog_is_regenerated_from_its_folder(tmp_path: Path) -> None:
    """scripts/build_catalog.py turns catalog/models/ into exactly the shipped models.yaml, and refuses a
    model folder without a source."""
    root = Path(__file__).resolve().parents[1]
    script = root / "scripts" / "build_catalog.py"
    check = subprocess.run(
        [sys.executable, str(script), "--check"], capture_output=True, text=True, timeout=600
    )
    assert check.returncode == 0, check.stdout + check.stderr
    folder = tmp_path / "models"
    shutil.copytree(root / "catalog" / "models" / "Qwen--Qwen3-8B", folder / "Qwen--Qwen3-8B")
    new = folder / "acme--Tiny-8B"
    new.mkdir()
    shutil.copy(root / "catalog" / "models" / "Qwen--Qwen3-8B" / "config.json", new / "config.json")
    (new / "entry.yaml").write_text("id: acme/Tiny-8B\n", encoding="utf-8")
    out = tmp_path / "models.yaml"
    bad = subprocess.run(
        [sys.executable, str(script), "--from", str(folder), "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert bad.returncode == 2 and "source" in bad.stderr and not out.exists()
    (new / "entry.yaml").write_text("id: acme/Tiny-8B\nsource: https://example.org/config.json\n", "utf-8")
    good = subprocess.run(
        [sys.executable, str(script), "--from", str(folder), "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert good.returncode == 0, good.stderr
    import yaml

    models = yaml.safe_load(out.read_text(encoding="utf-8"))["models"]
    tiny = next(m for m in models if m["id"] == "acme/Tiny-8B")
    assert tiny["params_source"] == "config" and tiny["total_params_b"] > 0 and tiny["org"] == "acme"
    # a count derived from the config that contradicts the size in the name is refused, not recorded
    wrong = folder / "acme--Wrong-1B"
    shutil.copytree(new, wrong)
    (wrong / "entry.yaml").write_text("id: acme/Wrong-1B\nsource: https://example.org/config.json\n", "utf-8")
    refused = subprocess.run(
        [sys.executable, str(script), "--from", str(folder), "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert refused.returncode == 2 and "acme--Wrong-1B" in refused.stderr
    assert "name says 1 B" in refused.stderr
    shutil.rmtree(wrong)
    # a release's generation_config.json becomes its sampling preset, but only with its source recorded
    (new / "generation_config.json").write_text('{"temperature": 0.7, "top_p": 0.8, "top_k": 20}', "utf-8")
    unsourced = subprocess.run(
        [sys.executable, str(script), "--from", str(folder), "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert unsourced.returncode == 2 and "generation_source" in unsourced.stderr
    (new / "entry.yaml").write_text(
        "id: acme/Tiny-8B\nsource: https://example.org/config.json\n"
        "generation_source: https://example.org/generation_config.json\n",
        "utf-8",
    )
    sourced = subprocess.run(
        [sys.executable, str(script), "--from", str(folder), "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert sourced.returncode == 0, sourced.stderr
    models = yaml.safe_load(out.read_text(encoding="utf-8"))["models"]
    tiny = next(m for m in models if m["id"] == "acme/Tiny-8B")
    assert tiny["generation"] == {"temperature": 0.7, "top_p": 0.8, "top_k": 20}


def test_modelopt_quantization_file_is_read_like_vllm_reads_it() -> None:
    """nvidia/*-NVFP4 checkpoints ship hf_quant_config.json instead of a quantization_config (vLLM reads
    that file); the catalog does too, and records where it came from."""
    spec = spec_for("nvidia/Qwen3-235B-A22B-NVFP4")
    assert spec.quantization == "nvfp4" and spec.quantization_bits == 4
    entry = next(e for e in all_models() if e.id == "nvidia/Qwen3-235B-A22B-NVFP4")
    assert entry.quant_source and "hf_quant_config.json" in entry.quant_source
    # a MIXED_PRECISION file is sized by the algorithm most of its layers use
    mixed = spec_for("nvidia/Qwen3.6-35B-A3B-NVFP4")
    assert mixed.quantization in ("nvfp4", "fp8")


def test_pretrained_checkpoints_are_marked_base_and_never_recommended() -> None:
    """A base checkpoint cannot follow a chat template or a JSON schema: `-Base` in its name, or a chat twin
    in the catalog (X beside X-Instruct / X-it / X-chat), marks it `base`, and `recommend` (a screening job
    ranks by rows per hour, where the smallest base model would otherwise come first) never offers it."""
    import re

    from lmscreen.model.hardware import gpu
    from lmscreen.model.recommend import recommend

    chat = re.compile(r"-(Instruct|it|chat|Chat)(?=-|$)")
    ids = {m.id for m in all_models()}
    stems = {chat.sub("", i) for i in ids if chat.search(i)}
    for entry in all_models():
        named_base = re.search(r"-Base(-|$)", entry.id) is not None
        has_chat_twin = not chat.search(entry.id) and entry.id in stems
        if named_base or has_chat_twin:
            assert "base" in entry.tasks, entry.id
    offered = {r.model for r in recommend(gpu=gpu("RTX 4090"), task="screen")}
    offered |= {r.model for r in recommend(gpu=gpu("H100"), task="text")}
    marked = {m.id for m in all_models() if "base" in m.tasks}
    assert offered and not offered & marked


def test_another_exporters_quantized_release_resolves_to_the_base_model() -> None:
    """A quantized checkpoint in the catalog is one exporter's layout: NVIDIA's ModelOpt NVFP4 of
    Qwen3.6-35B-A3B keeps attention FP8, RedHatAI's llm-compressor release keeps the gated-delta layers 16
    bit. RedHatAI's name resolves to the base model, NVIDIA's (and a bare short name) to NVIDIA's entry, and
    a publisher's own quantized release still to its own entry."""
    assert lookup("RedHatAI/Qwen3.6-35B-A3B-NVFP4").id == "Qwen/Qwen3.6-35B-A3B"
    assert lookup("nvidia/Qwen3.6-35B-A3B-NVFP4").id == "nvidia/Qwen3.6-35B-A3B-NVFP4"
    assert lookup("Qwen3.6-35B-A3B-NVFP4").id == "nvidia/Qwen3.6-35B-A3B-NVFP4"
    assert lookup("RedHatAI/gemma-4-26B-A4B-it-NVFP4").id == "google/gemma-4-26B-A4B"
    assert lookup("Inferact/Qwen3.8-27B-NVFP4").id == "Inferact/Qwen3.8-27B-NVFP4"


def test_qat_and_compressed_tensors_tags_do_not_hide_the_architecture() -> None:
    """google/gemma-4-E2B-it-qat-w4a16-ct is a quantization-aware-trained W4A16 export of gemma-4-E2B: the
    `-qat` and `-ct` tags name the training and the format, not another layout."""
    assert lookup("google/gemma-4-E2B-it-qat-w4a16-ct").id == "google/gemma-4-E2B"
    assert lookup("google/gemma-3-27b-it-qat-q4_0-gguf").id == "google/gemma-3-27b-it"


def test_qwen35_small_release_carries_its_vision_tower() -> None:
    """Qwen3.5-0.8B's name says nothing of images, but its config.json is Qwen3_5ForConditionalGeneration
    with a 12-layer, 768-wide ViT that vLLM loads with the language model; the name estimate (a 27B layout
    scaled by 0.03) planned 1.46 GiB of weights where a vLLM 0.23 start-up logged 1.72."""
    spec = spec_for("Qwen/Qwen3.5-0.8B")
    assert spec.is_vision
    assert 0.09e9 < (spec.vision_params or 0) < 0.11e9
    assert spec.num_layers == 24 and spec.vocab_size == 248320
    assert lookup("Qwen/Qwen3.5-0.8B-Instruct").id == "Qwen/Qwen3.5-0.8B"


def test_qwen35_4b_is_planned_from_its_own_layout_not_the_27b_scaled() -> None:
    """Named bare before it had an entry, Qwen3.5-4B was the 27B hybrid layout scaled by 0.15: on an L4 at
    vLLM 0.29 that planned 981,315 tokens where a start-up logged 267,842. Its config.json (24 gated-delta +
    8 full-attention layers, 4 KV heads of 256, a 24-layer 1024-wide ViT) gives its own layout."""
    spec = spec_for("Qwen/Qwen3.5-4B")
    assert spec.num_layers == 32 and spec.is_vision
    assert 0.30e9 < (spec.vision_params or 0) < 0.36e9
    card = gpu("L4")
    p = plan(spec, card, 22.03, context=32768, engine="vllm", vllm_version="0.29.0", table=False)
    assert 200_000 < p.kv_cache_tokens < 330_000


def test_h100_nvl_plans_on_what_cuda_reports_not_nvidia_smi() -> None:
    card = gpu("H100 NVL")
    assert card.visible_gib == 93.00 and card.memory_gib == 94


@pytest.mark.parametrize(
    ("name", "visible"),
    [
        ("L4", 22.03),
        ("T4", 14.56),
        ("A10", 21.99),
        ("H200", 139.81),
        ("RTX PRO 6000", 95.0),
        ("MI300X", 191.69),
        ("A40", 44.42),
    ],
)
def test_visible_totals_are_the_driver_reported_ones(name: str, visible: float) -> None:
    """vLLM budgets util × the total cudaMemGetInfo reports, which is below the marketed size: an L4 planned
    on 24 GiB at 0.9 gets ~1.8 GiB of KV that is not there."""
    card = gpu(name)
    assert card.visible_gib == pytest.approx(visible)
    assert card.usable_gib == card.visible_gib < card.memory_gib


def test_every_catalog_card_with_a_visible_total_sits_below_its_marketed_memory() -> None:
    from lmscreen.model.hardware import all_gpus

    cards = [c for c in all_gpus() if c.visible_gib is not None]
    assert len(cards) >= 15
    for card in cards:
        assert 0.85 * card.memory_gib < card.visible_gib < card.memory_gib, card.name
        assert "visible" in card.source, card.name


def test_discrete_cards_record_their_sm_count() -> None:
    from lmscreen.model.hardware import all_gpus

    assert gpu("RTX 3090").sm_count == 82 and gpu("A100 80GB").sm_count == 108 and gpu("L40S").sm_count == 142
    for card in all_gpus():
        if not card.unified_memory and card.name != "H20":
            assert card.sm_count and 20 <= card.sm_count <= 320, card.name


def test_granite_33_2b_is_planned_from_its_config_not_a_qwen_sibling() -> None:
    """Named bare before it had an entry, ibm-granite/granite-3.3-2b-instruct was Qwen3-1.7B scaled to the
    '2b' of the name: 3.74 GiB of bf16 weights where a vLLM 0.10.2 start-up on an L40S logged 4.74. Its
    config.json (40 layers of 2048, an 8192-wide MLP, 8 KV heads, a 49,159-token vocabulary tied to the LM
    head) is 2.53 B parameters."""
    from lmscreen.model.memory.weights import weights

    spec = spec_for("ibm-granite/granite-3.3-2b-instruct")
    assert spec.num_layers == 40 and spec.hidden_size == 2048 and spec.num_kv_heads == 8
    assert 2.50e9 < (spec.total_params or 0) < 2.56e9
    assert abs(weights(spec).per_gpu_gib - 4.74) / 4.74 < 0.05
    assert lookup("granite-3.3-2b-instruct").id == "ibm-granite/granite-3.3-2b-instruct"


def test_qwen35_9b_entry_matches_its_checkpoint() -> None:
    """The Qwen3.5-9B config.json copied in public test code; its checkpoint holds 9.653 B parameters, ~0.24 B
    of them the MTP layer vLLM does not load without a speculative config."""
    from lmscreen.model.memory.weights import weights

    spec = spec_for("Qwen/Qwen3.5-9B")
    assert spec.num_layers == 32 and spec.hidden_size == 4096 and spec.vocab_size == 248320
    assert spec.is_vision and 0.40e9 < (spec.vision_params or 0) < 0.50e9
    assert spec.total_params + 0.24e9 == pytest.approx(9.653e9, rel=0.02)
    bf16 = weights(spec, engine="vllm").per_gpu_gib
    int8 = weights(spec, engine="vllm", quantization="int8").per_gpu_gib
    int4 = weights(spec, engine="vllm", quantization="awq").per_gpu_gib
    assert bf16 > int8 > int4 and int8 - int4 > 2.5  # the INT8 release is not sized as the 4-bit one


def test_granite_40_micro_entry_reproduces_its_logged_kv_per_token() -> None:
    """IBM's Code Engine tutorial (vLLM 0.11.0, one L40S) logs 463,136 tokens in a 35.34 GiB pool: 81,935
    bytes a token, which 40 layers × 8 KV heads × 64 × 2 (K and V) × 2 B of the config give (81,920)."""
    from lmscreen.model.memory.kv import kv_layout

    spec = spec_for("ibm-granite/granite-4.0-micro")
    assert spec.num_layers == 40 and spec.head_dim == 64 and not spec.num_experts
    layout = kv_layout(spec, "auto", 1, 1, "vllm")
    logged = 35.34 * (1 << 30) / 463_136
    assert layout.bytes_per_token == pytest.approx(logged, rel=0.01)


@pytest.mark.parametrize("name", ["ibm-granite/granite-4.0-h-tiny", "ibm-granite/granite-4.0-h-small"])
def test_a_size_tier_name_is_refused_saying_the_size_is_unknown(name: str) -> None:
    from lmscreen.errors import InputError
    from lmscreen.model.arch.estimate import spec_from_name

    with pytest.raises(InputError, match=r"is a tier name, not a parameter count, so its size is unknown"):
        spec_from_name(name)


def test_an_a40_plan_is_budgeted_on_its_visible_total() -> None:
    """An A40 start-up at 0.90 budgets 0.90 × 44.42 GiB (what CUDA reports for its 46,068 MiB board), not
    0.90 × the marketed 48: on 48 the pool came out 3.9 GiB above an 0.26.0 log's (bench heldout-29)."""
    card = gpu("A40")
    spec = spec_for("meta-llama/Llama-3.1-8B-Instruct")
    p = plan(spec, card, gpu_memory_utilization=0.9, context=4096, engine="vllm", table=False)
    budget = next(c for c in p.breakdown if c.name.startswith("gpu memory"))
    assert p.gpu_total_gib == pytest.approx(44.42)
    assert budget.gib == pytest.approx(0.9 * 44.42)
