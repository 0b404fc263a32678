"""Catalog entries for families heldout-22 could not plan or mis-sized (issue 25), and the two-matrix MLP.

Each expectation is worked out here by hand from the entry's config.json (layer widths, biases, vocabulary,
tying) and held against the publisher's parameter count, never taken from the planner's own output.
"""

from __future__ import annotations

import pytest

from lmscreen.model.arch.config import spec_from_config
from lmscreen.model.catalog import lookup, spec_for


def test_phi_2_counts_a_two_matrix_mlp_with_biases() -> None:
    """microsoft/phi-2: 32 layers of 2560, MLP 10240 as fc1 / fc2 (no gate), q / k / v / dense and fc1 / fc2
    all with biases, one LayerNorm (weight + bias) a layer and a final one, an untied 51,200-token head with a
    bias. Published: 2.7 B (model card), 2.78 B (the unquantized GGUF conversion's size). Counting the MLP as
    gated, as every text MLP was counted before, gave 3.62 B."""
    h, inter, layers, vocab = 2560, 10240, 32, 51200
    attention = 4 * h * h + 4 * h
    mlp = 2 * h * inter + inter + h
    expected = layers * (attention + mlp + 2 * h) + 2 * h + 2 * vocab * h + vocab
    assert expected == pytest.approx(2.78e9, rel=0.002)
    spec = spec_for("microsoft/phi-2")
    assert spec.total_params == pytest.approx(expected, rel=0.001)
    assert spec.rotary_dim == 32  # partial_rotary_factor 0.4 of a 80-wide head


def test_two_matrix_mlp_is_keyed_on_the_family_and_its_bias_flag() -> None:
    """The same widths count 2 matrices for GPT-NeoX / Falcon-style families and 3 for a Llama-style one;
    Falcon's linears carry biases only when its config says `bias: true`; a GPT-2 style config without an
    MLP width gets transformers' 4 × hidden."""
    base = {
        "hidden_size": 1024,
        "intermediate_size": 4096,
        "num_hidden_layers": 2,
        "num_attention_heads": 8,
        "vocab_size": 1000,
        "tie_word_embeddings": True,
    }
    llama = spec_from_config({**base, "model_type": "llama"}, "x")
    neox = spec_from_config({**base, "model_type": "gpt_neox"}, "x")
    falcon = spec_from_config({**base, "model_type": "falcon"}, "x")
    falcon_bias = spec_from_config({**base, "model_type": "falcon", "bias": True}, "x")
    assert llama.total_params - falcon.total_params == 2 * 1024 * 4096
    assert neox.total_params - falcon_bias.total_params == 0
    assert falcon_bias.total_params - falcon.total_params == 2 * (4 * 1024 + 4096 + 1024)
    gpt2 = {k: v for k, v in base.items() if k != "intermediate_size"} | {"model_type": "gpt2"}
    assert spec_from_config(gpt2, "x").total_params == neox.total_params


def test_qwen1_5_moe_a2_7b_is_14_3_b_with_2_7_b_active() -> None:
    """Qwen/Qwen1.5-MoE-A2.7B: 24 layers of 2048, 16 heads of 128 with q/k/v biases, 60 experts of 1408 (4 a
    token), one shared expert of 5632 with its sigmoid gate, an untied 151,936-token head. Published: 14.3 B
    total, 2.7 B active."""
    h, layers, vocab, expert = 2048, 24, 151936, 3 * 2048 * 1408
    attention = 4 * h * h + 3 * h
    moe = 60 * expert + 60 * h + 3 * h * 5632 + h
    expected = layers * (attention + moe + 2 * h) + h + 2 * vocab * h
    assert expected == pytest.approx(14.3e9, rel=0.002)
    entry = lookup("Qwen/Qwen1.5-MoE-A2.7B")
    assert entry is not None and (entry.total_params_b, entry.active_params_b) == (14.3, 2.7)
    spec = spec_from_config(entry.config, entry.id)  # the count from the config, not the stated headline
    assert spec.total_params == pytest.approx(expected, rel=0.001)
    assert spec.active_params == pytest.approx(expected - layers * 56 * expert, rel=0.001)
    assert spec.active_params == pytest.approx(2.7e9, rel=0.01)


def test_kimi_vl_a3b_is_16_b_with_a_moonvit_tower() -> None:
    """moonshotai/Kimi-VL-A3B-Instruct: a DeepSeek-V3-style MLA + MoE text model (27 layers of 2048, the first
    dense with MLP 11264, 64 routed experts of 1408 with 6 a token and 2 shared) and MoonViT (27 blocks of
    1152, MLP 4304, a 64 × 64 position grid, 2 × 2 patch merge). Published: 16 B total, 3 B activated;
    MoonViT-SO-400M 0.4 B."""
    spec = spec_for("moonshotai/Kimi-VL-A3B-Instruct")
    assert spec.mla is not None and spec.mla.kv_lora_rank == 512 and spec.mla.q_lora_rank is None
    assert spec.num_experts == 64 and spec.num_shared_experts == 2
    assert spec.vision_params == pytest.approx(0.41e9, rel=0.1)
    assert spec.total_params == pytest.approx(16.4e9, rel=0.01)
    assert spec.active_params == pytest.approx(3e9, rel=0.05)
    assert lookup("moonshotai/Kimi-VL-A3B-Thinking-2506").id == "moonshotai/Kimi-VL-A3B-Instruct"


@pytest.mark.parametrize(
    ("name", "hidden", "layers", "mlp", "reference", "rel"),
    [
        ("allenai/OLMo-2-1124-7B-Instruct", 4096, 32, 11008, 13.5958 * 2**30 / 2, 0.005),
        ("allenai/OLMo-2-1124-13B-Instruct", 5120, 40, 13824, 13.7e9, 0.005),
    ],
)
def test_olmo_2_counts_its_untied_100k_vocabulary(
    name: str, hidden: int, layers: int, mlp: int, reference: float, rel: float
) -> None:
    """OLMo 2 (Olmo2ForCausalLM): multi-head attention, a gated MLP, q / k norms over the full width, an
    untied 100,352-token head. The 7B loads 13.60 GiB of bf16 weights (heldout-22's RTX 4080 start-up):
    7.30 B parameters, where the generic 7B template the name estimate used gave 6.91 B. Published (the
    Hugging Face pages' safetensors counts): 7.3B and 13.7B."""
    vocab = 100352
    expected = layers * (4 * hidden * hidden + 3 * hidden * mlp) + 2 * vocab * hidden
    assert expected == pytest.approx(reference, rel=rel)
    spec = spec_for(name)
    assert spec.model_type == "olmo2"
    assert spec.total_params == pytest.approx(expected, rel=0.002)


@pytest.mark.parametrize(
    ("name", "hidden", "layers", "q", "kv", "mlp", "vocab", "tied", "published", "rel"),
    [
        # the Hugging Face pages' safetensors counts
        ("01-ai/Yi-1.5-9B-Chat", 4096, 48, 32 * 128, 4 * 128, 11008, 64000, False, 8.83e9, 0.003),
        ("01-ai/Yi-1.5-34B-Chat", 7168, 60, 56 * 128, 8 * 128, 20480, 64000, False, 34.4e9, 0.003),
        # the granite-3.1-8b-base card: "# Parameters 8.1B"
        ("ibm-granite/granite-3.1-8b-instruct", 4096, 40, 32 * 128, 8 * 128, 12800, 49155, True, 8.1e9, 0.01),
    ],
)
def test_llama_style_entries_count_their_published_size(
    name: str,
    hidden: int,
    layers: int,
    q: int,
    kv: int,
    mlp: int,
    vocab: int,
    tied: bool,
    published: float,
    rel: float,
) -> None:
    """Yi-1.5 (LlamaForCausalLM) and Granite 3.1 (a tied 49k head): q / k / v / o, a gated MLP, two RMSNorms a
    layer, the embedding and the head."""
    expected = layers * (2 * hidden * q + 2 * hidden * kv + 3 * hidden * mlp + 2 * hidden) + hidden
    expected += vocab * hidden * (1 if tied else 2)
    assert expected == pytest.approx(published, rel=rel)
    assert spec_for(name).total_params == pytest.approx(expected, rel=0.001)


@pytest.mark.parametrize(
    ("name", "hidden", "layers", "q", "kv", "mlp", "vocab", "published", "rel"),
    [
        # "Phi-3-mini, a 3.8B parameter language model" (Phi-3CookBook); Phi-3 medium "a 14B parameter model"
        ("microsoft/Phi-3-mini-4k-instruct", 3072, 32, 3072, 3072, 8192, 32064, 3.8e9, 0.01),
        ("microsoft/Phi-3-medium-4k-instruct", 5120, 40, 5120, 1280, 17920, 32064, 14e9, 0.005),
        # the Instruct release's four bf16 shards: 4.94 + 4.94 + 4.22 + 0.805 GB
        ("tiiuae/Falcon3-7B-Instruct", 3072, 28, 12 * 256, 4 * 256, 23040, 131072, 14.905e9 / 2, 0.002),
        # the Falcon3 card: "ranging from 1B to 10B parameters"
        ("tiiuae/Falcon3-10B-Instruct", 3072, 40, 12 * 256, 4 * 256, 23040, 131072, 10e9, 0.035),
        # 22.247 and 8.02 (leaderboard request files), "Parameters 8,019,808,256" (the Ministral card)
        ("mistralai/Codestral-22B-v0.1", 6144, 56, 6144, 1024, 16384, 32768, 22.247e9, 0.001),
        ("mistralai/Ministral-8B-Instruct-2410", 4096, 36, 4096, 1024, 12288, 131072, 8_019_808_256, 0.001),
        # "a dense Large Language Model (LLM) of 123B parameters"
        ("mistralai/Mistral-Large-Instruct-2411", 12288, 88, 12288, 1024, 28672, 32768, 123e9, 0.005),
        # model.safetensors.index.json of the release: "total_parameters": 23572403200
        ("mistralai/Devstral-Small-2507", 5120, 40, 32 * 128, 8 * 128, 32768, 131072, 23_572_403_200, 0.001),
    ],
)
def test_untied_gated_entries_count_their_published_size(
    name: str, hidden: int, layers: int, q: int, kv: int, mlp: int, vocab: int, published: float, rel: float
) -> None:
    """Phi-3, Falcon3, Codestral, Ministral 8B, Mistral Large, Devstral Small: q / k / v / o without biases, a
    gated MLP, two RMSNorms a layer, an untied head."""
    expected = layers * (2 * hidden * q + 2 * hidden * kv + 3 * hidden * mlp + 2 * hidden) + hidden
    expected += 2 * vocab * hidden
    assert expected == pytest.approx(published, rel=rel)
    entry = lookup(name)
    assert entry is not None
    assert spec_from_config(entry.config, entry.id).total_params == pytest.approx(expected, rel=0.001)


def test_command_r_ties_its_256k_head_as_cohere_config_defaults() -> None:
    """CohereLabs/c4ai-command-r-v01: 40 layers of 8192, 64 heads with 64 KV heads, MLP 22528 (gated), one
    LayerNorm (weight only) a layer, a 256,000-token embedding the head shares: its config.json leaves
    tie_word_embeddings to CohereConfig's default (true). Published: 35 B (card), 34.981 (leaderboard)."""
    h, layers, vocab, mlp = 8192, 40, 256000, 22528
    expected = layers * (4 * h * h + 3 * h * mlp + h) + h + vocab * h
    assert expected == pytest.approx(34.981e9, rel=0.001)
    entry = lookup("CohereForAI/c4ai-command-r-v01")
    assert entry is not None and entry.id == "CohereLabs/c4ai-command-r-v01"
    spec = spec_from_config(entry.config, entry.id)
    assert spec.tie_word_embeddings
    assert spec.total_params == pytest.approx(expected, rel=0.001)


def test_phi_3_windows_every_layer_as_vllm_does() -> None:
    """Phi-3-mini / -medium 4k ship sliding_window 2047 under 4096 positions; vLLM's Attention takes the
    model-level window for every layer (no per-layer list), so every layer is windowed and the pool is one
    sliding-window group."""
    for name, layers in (
        ("microsoft/Phi-3-mini-4k-instruct", 32),
        ("microsoft/Phi-3-medium-4k-instruct", 40),
    ):
        spec = spec_for(name)
        assert (spec.full_attention_layers, spec.sliding_window_layers) == (0, layers)
        assert spec.sliding_window == 2047
        assert spec.max_position_embeddings == 4096


def test_qwen2_57b_a14b_counts_its_shared_expert() -> None:
    """Qwen/Qwen2-57B-A14B-Instruct: 28 layers of 3584, 28 query / 4 KV heads of 128 with q/k/v biases,
    64 experts of 2560 (8 a token), one shared expert of 20480 with its sigmoid gate, an untied 151,936-token
    head. Published: 57 B total, 14 B activated (the release name)."""
    h, layers, vocab, expert = 3584, 28, 151936, 3 * 3584 * 2560
    attention = 2 * h * h + 2 * h * 512 + h + 2 * 512
    moe = 64 * expert + 64 * h + 3 * h * 20480 + h
    expected = layers * (attention + moe + 2 * h) + h + 2 * vocab * h
    assert expected == pytest.approx(57.4e9, rel=0.002)
    entry = lookup("Qwen/Qwen2-57B-A14B-Instruct")
    assert entry is not None
    spec = spec_from_config(entry.config, entry.id)
    assert spec.total_params == pytest.approx(expected, rel=0.001)
    assert spec.active_params == pytest.approx(expected - layers * 56 * expert, rel=0.001)
    assert spec.active_params == pytest.approx(14e9, rel=0.02)
    assert spec.max_position_embeddings == 32768


def test_deepseek_v2_5_is_the_236_b_mla_moe() -> None:
    """deepseek-ai/DeepSeek-V2.5: 60 layers of 5120, MLA (q_lora 1536, kv_lora 512, 128 heads of 128 + 64
    rope), the first layer dense (12288), 160 routed experts of 1536 with 6 a token and 2 shared, an untied
    102,400-token head. Published: 236 B total, 21 B activated."""
    spec = spec_for("deepseek-ai/DeepSeek-V2.5-1210")
    assert spec.mla is not None and (spec.mla.kv_lora_rank, spec.mla.q_lora_rank) == (512, 1536)
    assert spec.num_experts == 160 and spec.num_shared_experts == 2
    entry = lookup("deepseek-ai/DeepSeek-V2.5")
    assert entry is not None
    counted = spec_from_config(entry.config, entry.id)
    assert counted.total_params == pytest.approx(236e9, rel=0.005)
    assert counted.active_params == pytest.approx(21e9, rel=0.025)


@pytest.mark.parametrize(("name", "positions"), [("zai-org/GLM-4.5", 131072), ("zai-org/GLM-4.6", 202752)])
def test_glm_4_5_and_4_6_are_355_b_with_their_own_context(name: str, positions: int) -> None:
    """GLM-4.5 / GLM-4.6 (Glm4MoeForCausalLM): 92 layers of 5120, 96 query heads and 8 KV heads of 128 with
    q / k / v biases and q / k norms, the first 3 layers a dense MLP of 12288, the other 89 160 routed experts
    of 1536 (8 a token, sigmoid router with a bias) and one shared expert of 1536, an untied 151,552-token
    head. Published: 355 B total, 32 B active (GLM-4.5; GLM-4.6 keeps the shape), which count the one MTP
    layer vLLM loads only for speculative decoding. Named bare, both planned as GLM-4.7 before, GLM-4.5 with
    GLM-4.7's 202,752 positions instead of its 131,072."""
    h, layers, dense, experts, vocab, expert = 5120, 92, 3, 160, 151552, 3 * 5120 * 1536
    attention = h * 96 * 128 * 2 + 2 * h * 8 * 128 + (96 + 16) * 128 + 2 * 128
    moe = experts * expert + expert + experts * h + experts
    per_dense = attention + 3 * h * 12288 + 2 * h
    per_moe = attention + moe + 2 * h
    expected = dense * per_dense + (layers - dense) * per_moe + h + 2 * vocab * h
    mtp = per_moe + 2 * h * h + 2 * h  # eh_proj, enorm / hnorm (shared head and embedding)
    assert expected + mtp == pytest.approx(355e9, rel=0.01)  # 356.8 B: the headline is rounded
    entry = lookup(name)
    assert entry is not None and entry.id == name
    spec = spec_for(name)
    assert spec.total_params == pytest.approx(expected, rel=0.002)
    active = expected - (layers - dense) * (experts - 8) * expert
    assert spec.active_params == pytest.approx(active, rel=0.005)
    assert spec.max_position_embeddings == positions
    assert lookup("THUDM/" + name.split("/")[1]).id == name


def test_smollm2_1_7b_is_1_7_b() -> None:
    """HuggingFaceTB/SmolLM2-1.7B-Instruct (LlamaForCausalLM): 24 layers of 2048, 32 heads of 64 without GQA,
    MLP 8192, a tied 49,152-token embedding. Published: "135M, 360M, and 1.7B parameters" (the card)."""
    h, layers, vocab = 2048, 24, 49152
    expected = layers * (4 * h * h + 3 * h * 8192 + 2 * h) + h + vocab * h
    assert expected == pytest.approx(1.71e9, rel=0.005)
    spec = spec_for("HuggingFaceTB/SmolLM2-1.7B-Instruct")
    assert spec.total_params == pytest.approx(expected, rel=0.001)
    assert spec.max_position_embeddings == 8192
    assert lookup("HuggingFaceTB/SmolLM2-1.7B").id == "HuggingFaceTB/SmolLM2-1.7B-Instruct"


def test_command_r7b_is_8_b_with_three_sliding_layers_in_four() -> None:
    """CohereLabs/c4ai-command-r7b-12-2024 (Cohere2ForCausalLM): 32 parallel-block layers of 4096 (one
    weight-only LayerNorm each), 32 query / 8 KV heads of 128, a gated MLP of 14336, a 256,000-token embedding
    shared with the head; a 4096-token window on three layers of four, every fourth global. Published: 8.03B
    params (the Hugging Face page)."""
    h, layers, vocab = 4096, 32, 256000
    expected = layers * (2 * h * h + 2 * h * 1024 + 3 * h * 14336 + h) + h + vocab * h
    assert expected == pytest.approx(8.03e9, rel=0.002)
    spec = spec_for("CohereForAI/c4ai-command-r7b-12-2024")
    assert spec.total_params == pytest.approx(expected, rel=0.002)
    assert spec.sliding_window == 4096 and spec.sliding_window_layers == 24
    assert spec.max_position_embeddings == 8192
