"""Catalog entries added for issue 25 (deliverable 3), planned named bare as a user names them.

Each expectation is worked out here from the entry's config.json (layer widths, vocabulary, tying), from the
publisher's parameter count, or from a logged vLLM start-up, never from the planner's own output: a model the
catalog lacks is planned from its name, and these are the cases where the name hides what vLLM loads (a vision
tower, a tied head, half the layers windowed, a size unlike the name's).
"""

from __future__ import annotations

import pytest

from lmscreen.model.catalog import lookup, spec_for
from lmscreen.model.memory.kv import kv_layout
from lmscreen.model.memory.weights import weights


def _dense_params(
    *, vocab: int, hidden: int, layers: int, q: int, kv: int, mlp: int, tied: bool, qkv_bias: bool, norms: int
) -> int:
    """A Llama-style decoder from its config: q/k/v/o, a gated MLP, `norms` RMSNorms a layer, the final
    norm, the embedding and (untied) the LM head."""
    attn = hidden * q + 2 * hidden * kv + q * hidden + ((q + 2 * kv) if qkv_bias else 0)
    layer = attn + 3 * hidden * mlp + norms * hidden
    return layers * layer + hidden + vocab * hidden * (1 if tied else 2)


def test_gemma_2_ties_its_head_and_windows_every_other_layer() -> None:
    """google/gemma-2-9b-it: 42 layers of 3584, 16 query heads and 8 KV heads of 256, MLP 14336, four norms a
    layer, a 256,000-token vocabulary the config leaves tied (Gemma2Config's default: the key is absent),
    sliding_window 4096 on every other layer. Google publishes 9.24 B parameters; an untied head would add
    0.92 B."""
    spec = spec_for("google/gemma-2-9b-it")
    expected = _dense_params(
        vocab=256000,
        hidden=3584,
        layers=42,
        q=16 * 256,
        kv=8 * 256,
        mlp=14336,
        tied=True,
        qkv_bias=False,
        norms=4,
    )
    assert expected == pytest.approx(9.24e9, rel=0.001)
    assert spec.total_params == pytest.approx(expected, rel=0.002)
    layout = kv_layout(spec, "auto", 1, 1, "vllm")
    assert layout.full_layers == 21 and layout.swa_layers == 21 and layout.sliding_window == 4096
    assert layout.bytes_per_token == 21 * 8 * 256 * 2 * 2  # K and V, bf16, the 21 global layers
    assert lookup("gemma2:9b").id == "google/gemma-2-9b-it"


def test_gemma_2_2b_is_2_6_b_not_3_2() -> None:
    """google/gemma-2-2b-it (26 layers of 2304, 8/4 heads of 256, MLP 9216): 2.61 B with the tied embedding;
    counting the 590 M-parameter head twice planned 3.2 B (5.96 GiB of bf16 weights)."""
    spec = spec_for("google/gemma-2-2b-it")
    expected = _dense_params(
        vocab=256000,
        hidden=2304,
        layers=26,
        q=8 * 256,
        kv=4 * 256,
        mlp=9216,
        tied=True,
        qkv_bias=False,
        norms=4,
    )
    assert spec.total_params == pytest.approx(expected, rel=0.002)
    assert weights(spec).per_gpu_gib == pytest.approx(expected * 2 / (1 << 30), rel=0.01)


def test_qwen2_vl_7b_loads_its_vision_tower() -> None:
    """Qwen/Qwen2-VL-7B-Instruct: the language model of its config is 7.62 B (28 layers of 3584, 28/4 heads
    with q/k/v bias, MLP 18944, 152,064-token untied vocabulary); the release is 8.29 B with its 675 M ViT
    (vision_config embed_dim 1280, mlp_ratio 4, depth 32). A vLLM 0.13 start-up on an RTX 3090 logged 'Model
    loading took 15.5320 GiB' (bench/data/vllm-logs-heldout-7.csv, zhuoyuan-qwen2vl-7b-bf16-rtx3090)."""
    spec = spec_for("Qwen/Qwen2-VL-7B-Instruct")
    language = _dense_params(
        vocab=152064, hidden=3584, layers=28, q=3584, kv=512, mlp=18944, tied=False, qkv_bias=True, norms=2
    )
    assert language == pytest.approx(7.62e9, rel=0.001)
    assert spec.is_vision
    assert (spec.total_params or 0) - language == pytest.approx(0.675e9, rel=0.02)
    assert weights(spec).per_gpu_gib == pytest.approx(15.532, rel=0.02)
    assert lookup("Qwen/Qwen2-VL-7B-Instruct-AWQ").id == "Qwen/Qwen2-VL-7B-Instruct"


def test_qwen2_vl_2b_is_larger_than_its_name() -> None:
    """Qwen/Qwen2-VL-2B-Instruct: a 1.54 B language model (28 layers of 1536, 12/2 heads, MLP 8960, tied
    151,936-token vocabulary) plus the same 32-block ViT as the 7B, 2.21 B in all. Named bare before it had an
    entry it was the 7B scaled to the name's 2 B without a tower (3.67 GiB); a vLLM 0.11 start-up on an RTX
    5080 logged 'Model loading took 4.1513 GiB' (vllm-logs-heldout-5.csv, rtx5080-qwen2vl-2b-u080)."""
    spec = spec_for("Qwen/Qwen2-VL-2B-Instruct")
    language = _dense_params(
        vocab=151936, hidden=1536, layers=28, q=1536, kv=256, mlp=8960, tied=True, qkv_bias=True, norms=2
    )
    assert (spec.total_params or 0) - language == pytest.approx(0.665e9, rel=0.02)
    assert weights(spec).per_gpu_gib == pytest.approx(4.1513, rel=0.02)
    assert "estimate" not in spec.sources.get("total_params", "")


def test_mistral_small_3_x_carries_the_pixtral_tower() -> None:
    """Mistral-Small-3.1/3.2 (Mistral3ForConditionalGeneration): the 40-layer text model of 5120 (32/8 heads
    of 128, MLP 32768, untied 131,072-token vocabulary) is 23,572,403,200 parameters, the count keras-hub
    gives for Devstral Small 1.1, the same text model; the 24-layer Pixtral ViT adds about 0.4 B. llm-d
    logged 44.76 GiB of weights and 163,840 KV bytes a token for 3.2 on an H100 (tests/data/research
    calibration row)."""
    for name in (
        "mistralai/Mistral-Small-3.1-24B-Instruct-2503",
        "mistralai/Mistral-Small-3.2-24B-Instruct-2506",
    ):
        spec = spec_for(name)
        language = _dense_params(
            vocab=131072,
            hidden=5120,
            layers=40,
            q=4096,
            kv=1024,
            mlp=32768,
            tied=False,
            qkv_bias=False,
            norms=2,
        )
        assert language == 23_572_403_200
        assert spec.is_vision and 0.38e9 < (spec.total_params or 0) - language < 0.46e9
        assert kv_layout(spec, "auto", 1, 1, "vllm").bytes_per_token == 40 * 8 * 128 * 2 * 2
        assert weights(spec).per_gpu_gib == pytest.approx(44.76, rel=0.01)
    assert lookup("mistral-small3.1:24b").id == "mistralai/Mistral-Small-3.1-24B-Instruct-2503"
    assert lookup("mistral-small:24b").id == "mistralai/Mistral-Small-24B-Instruct-2501"


def test_ministral_3_3b_is_3_4_b_plus_a_0_4_b_encoder() -> None:
    """Mistral's card for Ministral 3 3B: a 3.4 B language model and a 0.4 B vision encoder. Its config: 26
    layers of 3072, 32/8 heads of 128, MLP 9216, a tied 131,072-token vocabulary inside text_config."""
    spec = spec_for("mistralai/Ministral-3-3B-Reasoning-2512")
    language = _dense_params(
        vocab=131072, hidden=3072, layers=26, q=4096, kv=1024, mlp=9216, tied=True, qkv_bias=False, norms=2
    )
    assert language == pytest.approx(3.4e9, rel=0.02)
    assert spec.active_params == pytest.approx(language, rel=0.002)
    assert 0.38e9 < (spec.total_params or 0) - language < 0.46e9


def test_qwen2_5_vl_3b_and_phi_4_mini_sizes() -> None:
    """Qwen2.5-VL-3B-Instruct: 36 layers of 2048, 16/2 heads, MLP 11008, tied 151,936 vocabulary, and a
    32-block ViT (hidden 1280, MLP 3420) merged into 2048: 3.75 B as published. Phi-4-mini-instruct: 32 layers
    of 3072, 24/8 heads, MLP 8192, a tied 200,064-token vocabulary: 3.8 B."""
    vl = spec_for("Qwen/Qwen2.5-VL-3B-Instruct")
    language = _dense_params(
        vocab=151936, hidden=2048, layers=36, q=2048, kv=256, mlp=11008, tied=True, qkv_bias=True, norms=2
    )
    assert vl.is_vision and (vl.total_params or 0) == pytest.approx(3.75e9, rel=0.01)
    assert (vl.total_params or 0) - language > 0.6e9
    phi = spec_for("microsoft/Phi-4-mini-instruct")
    expected = _dense_params(
        vocab=200064, hidden=3072, layers=32, q=3072, kv=1024, mlp=8192, tied=True, qkv_bias=False, norms=2
    )
    assert phi.total_params == pytest.approx(expected, rel=0.002)
    assert kv_layout(phi, "auto", 1, 1, "vllm").bytes_per_token == 32 * 8 * 128 * 2 * 2


def test_deepseek_r1_0528_qwen3_8b_is_a_qwen3_8b_not_a_scaled_deepseek_v3() -> None:
    """Named bare before it had an entry, DeepSeek-R1-0528-Qwen3-8B was DeepSeek-V3 scaled ×0.01: an MLA cache
    of 16,128 B a token and 9.31 B parameters. DeepSeek's card: its architecture is identical to Qwen3-8B's
    (36 layers of 4096, 32/8 heads of 128, MLP 12288, untied 151,936-token vocabulary): 147,456 B a token."""
    spec = spec_for("deepseek-ai/DeepSeek-R1-0528-Qwen3-8B")
    assert not spec.mla and spec.num_layers == 36 and spec.max_position_embeddings == 131072
    expected = _dense_params(
        vocab=151936, hidden=4096, layers=36, q=4096, kv=1024, mlp=12288, tied=False, qkv_bias=False, norms=2
    )
    assert spec.total_params == pytest.approx(expected, rel=0.01)  # + Qwen3's q/k norms
    assert kv_layout(spec, "auto", 1, 1, "vllm").bytes_per_token == 36 * 8 * 128 * 2 * 2
    assert lookup("deepseek-r1:8b").id == "deepseek-ai/DeepSeek-R1-0528-Qwen3-8B"


def test_smollm3_is_3_08_b_not_smollm2_135m_scaled() -> None:
    """Named bare before it had an entry, SmolLM3-3B was SmolLM2-135M scaled ×22: 84 layers, 2.58 B. Its
    config: 36 layers of 2048, 16/4 heads of 128, MLP 11008, a tied 128,256-token vocabulary: 3.08 B."""
    spec = spec_for("HuggingFaceTB/SmolLM3-3B")
    expected = _dense_params(
        vocab=128256, hidden=2048, layers=36, q=2048, kv=512, mlp=11008, tied=True, qkv_bias=False, norms=2
    )
    assert expected == pytest.approx(3.08e9, rel=0.005)
    assert spec.num_layers == 36 and spec.total_params == pytest.approx(expected, rel=0.002)
    assert kv_layout(spec, "auto", 1, 1, "vllm").bytes_per_token == 36 * 4 * 128 * 2 * 2


def test_deepseek_llama_layout_releases_are_not_planned_with_mla() -> None:
    """deepseek-llm-7b-chat and deepseek-coder-1.3b-instruct are LlamaForCausalLM with full multi-head
    attention; named bare they were DeepSeek-V3 / DeepSeek-V2-Lite scaled down, with an MLA cache. The 7B: 30
    layers of 4096, 32 KV heads of 128, MLP 11008, untied 102,400 vocabulary (6.91 B); the coder: 24 layers of
    2048, 16 KV heads, MLP 5504, untied 32,256 vocabulary (verl prints 'LlamaForCausalLM contains 1.35B
    parameters')."""
    chat = spec_for("deepseek-ai/deepseek-llm-7b-chat")
    assert not chat.mla
    assert kv_layout(chat, "auto", 1, 1, "vllm").bytes_per_token == 30 * 32 * 128 * 2 * 2
    expected = _dense_params(
        vocab=102400, hidden=4096, layers=30, q=4096, kv=4096, mlp=11008, tied=False, qkv_bias=False, norms=2
    )
    assert chat.total_params == pytest.approx(expected, rel=0.002)
    coder = spec_for("deepseek-ai/deepseek-coder-1.3b-instruct")
    assert not coder.mla and coder.total_params == pytest.approx(1.35e9, rel=0.005)
    assert kv_layout(coder, "auto", 1, 1, "vllm").bytes_per_token == 24 * 16 * 128 * 2 * 2


def test_gemma_1_entries_count_their_published_parameters_with_the_tied_head() -> None:
    """Gemma 1 (google/gemma_pytorch get_config_for_2b / _7b): 2.51 B and 8.54 B with the output head tied to
    the embedding, transformers' GemmaConfig default the published config.json leaves out; a CodeGemma name
    is estimated from them (CodeGemma is built on Gemma), not from Gemma 2's sliding-window layout."""
    from lmscreen.model.arch.estimate import spec_from_name
    from lmscreen.model.catalog import spec_for

    two, seven = spec_for("google/gemma-2b-it"), spec_for("google/gemma-1.1-7b-it")
    assert round(two.total_params / 1e9, 2) == 2.51 and two.num_kv_heads == 1
    assert round(seven.total_params / 1e9, 2) == 8.54 and seven.num_kv_heads == 16
    assert two.tie_word_embeddings and seven.tie_word_embeddings
    code = spec_from_name("google/codegemma-7b-it")
    assert code.num_layers == 28 and round(code.total_params / 1e9, 2) == 8.54


def test_hunyuan_a13b_is_80_b_with_13_b_active_from_its_per_layer_lists() -> None:
    """tencent/Hunyuan-A13B-Instruct (HunYuanMoEV1ForCausalLM): 32 layers of 4096, 32 query and 8 KV heads
    of 128, 64 routed experts of 3072 with top-8 routing and one shared MLP of 3072 on every layer, a
    128,167-token vocabulary tied to the head. Its config.json gives `moe_topk`, `num_shared_expert` and
    `moe_intermediate_size` as one entry a layer; read as lists they broke the count. The model card states
    80 B total and 13 B active."""
    h, layers, vocab, inter = 4096, 32, 128167, 3072
    attention = 2 * h * 32 * 128 + 2 * h * 8 * 128
    expert = 3 * h * inter
    layer = attention + 64 * expert + expert + h * 64 + 2 * h  # routed + shared + router + two norms
    expected = layers * layer + h + vocab * h
    active = expected - layers * (64 - 8) * expert
    assert expected == pytest.approx(80e9, rel=0.01) and active == pytest.approx(13e9, rel=0.03)
    spec = spec_for("tencent/Hunyuan-A13B-Instruct")
    assert (spec.num_experts, spec.num_experts_per_tok, spec.num_shared_experts) == (64, 8, 1)
    assert spec.total_params == pytest.approx(expected, rel=0.001)
    assert spec.active_params == pytest.approx(active, rel=0.001)
    assert kv_layout(spec, "auto", 1, 1, "vllm").bytes_per_token == layers * 8 * 128 * 2 * 2


def test_a_per_layer_list_is_read_at_its_widest_layer() -> None:
    """A per-layer MoE list whose entries differ plans every layer at the widest one (never less memory than
    the checkpoint holds); the published Hunyuan lists are uniform."""
    from lmscreen.model.arch.config import spec_from_config

    base = {"model_type": "hunyuan", "hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4}
    base |= {"vocab_size": 100, "intermediate_size": 32, "num_experts": 4, "use_mixed_mlp_moe": True}
    spec = spec_from_config(base | {"moe_topk": [1, 2], "num_shared_expert": [1, 1]}, "x")
    assert (spec.num_experts_per_tok, spec.num_shared_experts) == (2, 1)
    off = {"moe_topk": 2, "num_shared_expert": 1, "use_mixed_mlp_moe": False}
    no_shared = spec_from_config(base | off, "x")
    assert not no_shared.num_shared_experts


def test_minicpm_v_2_6_counts_its_siglip_tower_and_resampler() -> None:
    """openbmb/MiniCPM-V-2_6 (MiniCPMV): a Qwen2-7B language model (28 layers of 3584, 28/4 heads, MLP 18944,
    untied 151,666 vocabulary), a SigLIP tower (27 layers of 1152, MLP 4304, patch 14 at 980 px, position
    table and post-norm) and a 64-query resampler of the text width (vLLM Resampler2_5: kv_proj 1152 -> 3584,
    one multi-head attention, three LayerNorms, a square projection). The release's safetensors index gives
    16,198,350,304 bytes, 8,099,175,152 bf16 parameters; the count leaves out Qwen2's q/k/v biases (129 k)."""
    from lmscreen.model.arch.config import spec_from_config
    from lmscreen.model.arch.vision import minicpmv_resampler_params

    h, v = 3584, 1152
    text = _dense_params(
        vocab=151666, hidden=h, layers=28, q=h, kv=4 * 128, mlp=18944, tied=False, qkv_bias=False, norms=2
    )
    block = 4 * v * v + 4 * v + 2 * v * 4304 + 4304 + v + 4 * v
    tower = 27 * block + 3 * 14 * 14 * v + (980 // 14) ** 2 * v + 2 * v
    resampler = 64 * h + v * h + (4 * h * h + 4 * h) + 6 * h + h * h
    assert minicpmv_resampler_params(h, v, 64) == resampler
    entry = lookup("openbmb/MiniCPM-V-2_6")
    assert entry is not None
    spec = spec_from_config(entry.config, entry.id)  # the count itself, not the catalog's rounded figure
    assert spec.is_vision and spec.vision_params == tower + resampler
    assert spec.total_params == text + tower + resampler
    assert spec.total_params == pytest.approx(16_198_350_304 / 2, rel=1e-4)
    assert kv_layout(spec, "auto", 1, 1, "vllm").bytes_per_token == 28 * 4 * 128 * 2 * 2


def test_ernie_4_5_moe_keys_route_only_the_layers_vllm_routes() -> None:
    """ERNIE 4.5 MoE configs name their experts moe_num_experts / moe_k / moe_num_shared_experts and keep the
    layers before moe_layer_start_index dense (vLLM ernie45_moe.py: MoE where start <= i <= end and
    (i + 1) % interval == 0, end the last layer when absent). A three-layer config with a dense first layer:
    two MoE layers of 4 experts (top 2) plus 2 shared ones of moe_intermediate_size, one dense MLP."""
    from lmscreen.model.arch.config import spec_from_config
    from lmscreen.model.arch.params import moe_layer_flags

    h, inter, moe, vocab = 32, 64, 16, 100
    cfg = {"model_type": "ernie4_5_moe", "hidden_size": h, "intermediate_size": inter, "num_hidden_layers": 3}
    cfg |= {"num_attention_heads": 4, "num_key_value_heads": 2, "head_dim": 8, "vocab_size": vocab}
    cfg |= {"moe_num_experts": 4, "moe_k": 2, "moe_num_shared_experts": 2, "moe_intermediate_size": moe}
    cfg |= {"moe_layer_start_index": 1, "moe_layer_interval": 1, "tie_word_embeddings": True}
    spec = spec_from_config(cfg, "x")
    assert moe_layer_flags(spec, cfg) == [False, True, True]
    assert (spec.num_experts, spec.num_experts_per_tok, spec.num_shared_experts) == (4, 2, 2)
    attention = 2 * h * 4 * 8 + 2 * h * 2 * 8
    expert = 3 * h * moe
    moe_layer = 4 * expert + h * 4 + 2 * expert
    expected = 3 * (attention + 2 * h) + 3 * h * inter + 2 * moe_layer + h + vocab * h
    assert spec.total_params == expected
    assert spec.active_params == expected - 2 * 2 * expert
    assert moe_layer_flags(spec, cfg | {"moe_layer_end_index": 1}) == [False, True, False]


def test_ernie_4_5_21b_a3b_thinking_is_21_8_b_with_3_b_active() -> None:
    """baidu/ERNIE-4.5-21B-A3B-Thinking (Ernie4_5_MoeForCausalLM): 28 layers of 2560, 20/4 heads of 128, a
    dense MLP of 12288 on layer 0 (moe_layer_start_index 1), then 64 routed experts of 1536 (moe_k 6) and two
    shared ones on layers 1-27, a tied 103,424 vocabulary. The Hugging Face API gives 21,825,437,888
    safetensors parameters at revision 960d37ea; the count leaves out only the 27 x 64 expert-bias scalars."""
    from lmscreen.model.arch.config import spec_from_config

    h, vocab = 2560, 103424
    attention = 2 * h * 20 * 128 + 2 * h * 4 * 128
    expert = 3 * h * 1536
    moe_layer = 64 * expert + h * 64 + 2 * expert
    expected = 28 * (attention + 2 * h) + 3 * h * 12288 + 27 * moe_layer + h + vocab * h
    assert expected == pytest.approx(21_825_437_888, abs=27 * 64)
    entry = lookup("baidu/ERNIE-4.5-21B-A3B-Thinking")
    assert entry is not None and entry.thinking == "always"
    spec = spec_from_config(entry.config, entry.id)
    assert spec.total_params == expected
    assert spec.active_params == expected - 27 * (64 - 6) * expert
    assert spec.active_params == pytest.approx(3e9, rel=0.15)  # "A3B": 3.35 B with the embedding
    assert kv_layout(spec_for(entry.id), "auto", 1, 1, "vllm").bytes_per_token == 28 * 4 * 128 * 2 * 2


def test_magistral_small_2509_is_mistral_small_3_2_with_its_pixtral_tower() -> None:
    """mistralai/Magistral-Small-2509 (Mistral3ForConditionalGeneration): the 40-layer text model of 5120
    that Mistral Small 3.2 and Devstral Small share (23,572,403,200 parameters) and the 24-layer Pixtral
    encoder. The Hugging Face API gives 24,011,361,280 safetensors parameters at revision 92ad3595; the count
    is within 0.1 % of it (the multimodal projector's patch merger is counted as the generic merger)."""
    from lmscreen.model.arch.config import spec_from_config

    language = _dense_params(
        vocab=131072, hidden=5120, layers=40, q=4096, kv=1024, mlp=32768, tied=False, qkv_bias=False, norms=2
    )
    entry = lookup("mistralai/Magistral-Small-2509")
    assert entry is not None and entry.generation == {"temperature": 0.7, "top_p": 0.95}
    spec = spec_from_config(entry.config, entry.id)
    assert spec.is_vision and spec.total_params - spec.vision_params == language == 23_572_403_200
    assert spec.total_params == pytest.approx(24_011_361_280, rel=0.001)
    assert kv_layout(spec, "auto", 1, 1, "vllm").bytes_per_token == 40 * 8 * 128 * 2 * 2


def test_exaone_4_0_32b_windows_three_layers_in_four_and_unties_its_102k_head() -> None:
    """LGAI-EXAONE/EXAONE-4.0-32B (Exaone4ForCausalLM): 64 layers of 5120, 40 query and 8 KV heads of 128, MLP
    27392, an untied 102,400-token vocabulary, every fourth layer global and the rest windowed at 4,096
    (sliding_window_pattern 4): 32.0 B parameters. Its own FP8 release loads 30.99 GiB on one L40S (vLLM
    0.11.0, bench/data/vllm-logs-heldout-25.csv), where a generic 32B layout of 152,064 tokens planned
    31.73."""
    from lmscreen.model.arch.config import spec_from_config

    entry = lookup("LGAI-EXAONE/EXAONE-4.0-32B")
    assert entry is not None
    spec = spec_from_config(entry.config, entry.id)
    expected = _dense_params(
        vocab=102400,
        hidden=5120,
        layers=64,
        q=40 * 128,
        kv=8 * 128,
        mlp=27392,
        tied=False,
        qkv_bias=False,
        norms=2,
    )
    assert spec.total_params == expected
    assert (spec.sliding_window_layers, spec.full_attention_layers, spec.sliding_window) == (48, 16, 4096)
    layout = kv_layout(spec, "auto", 1, 1, "vllm")
    assert (layout.layer_token_bytes, layout.full_layers, layout.swa_layers) == (8 * 128 * 2 * 2, 16, 48)
    fp8 = weights(spec, quantization="fp8").per_gpu_gib
    assert fp8 == pytest.approx(30.99, rel=0.03)


def test_a_base_release_does_not_carry_its_fp8_releases_quantization() -> None:
    """alibaba/InferSim vendors the FP8 release's config.json under Qwen/Qwen3.5-122B-A10B's name; the base
    release is bf16 (the FP8 one is its own repository), so only the -FP8 id plans 8-bit weights."""
    base = spec_for("Qwen/Qwen3.5-122B-A10B")
    fp8 = spec_for("Qwen/Qwen3.5-122B-A10B-FP8")
    assert base.quantization is None and fp8.quantization == "fp8"
    assert lookup("Qwen/Qwen3.5-122B-A10B-FP8").id == "Qwen/Qwen3.5-122B-A10B-FP8"
    bf16_gib, fp8_gib = weights(base, tp=2).per_gpu_gib, weights(fp8, tp=2).per_gpu_gib
    assert 105 < bf16_gib < 120 and 0.45 < fp8_gib / bf16_gib < 0.55
