"""`model recommend`: catalog models that fit a card with >= 32k context, ranked, with decode speed."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from lmscreen.errors import InputError
from lmscreen.model.catalog import all_models, spec_for
from lmscreen.model.hardware import gpu
from lmscreen.model.memory import plan
from lmscreen.model.recommend import Candidate, decode_tokens_per_s, recommend
from lmscreen.model.recommend.workload import DECODE_EFFICIENCY
from lmscreen.model.spec import ModelSpec


def dense(name: str, params_b: float, layers: int, hidden: int, kv_heads: int, native: int) -> ModelSpec:
    return ModelSpec(
        name=name,
        num_layers=layers,
        hidden_size=hidden,
        intermediate_size=3 * hidden,
        num_attention_heads=hidden // 128,
        num_kv_heads=kv_heads,
        head_dim=128,
        vocab_size=151936,
        tie_word_embeddings=False,
        max_position_embeddings=native,
        total_params=int(params_b * 1e9),
        active_params=int(params_b * 1e9),
    )


def test_rtx_3090_text_models_fit_with_32k_and_are_ranked() -> None:
    card = gpu("RTX 3090")
    found = recommend(card, task="text")
    assert len(found) >= 10
    scores = [r.score for r in found]
    assert scores == sorted(scores, reverse=True)
    for r in found:
        assert r.max_context >= 32768 and r.decode_tokens_per_s > 0
        spec = spec_for(r.model).model_copy(update={"quantization": r.quantization})
        check = plan(spec, card, context=32768, engine=r.engine, table=False)
        assert check.fits, r.model
    names = {r.model for r in found}
    assert "openai/gpt-oss-20b" in names  # 13 GiB MXFP4 on 24 GiB
    assert "deepseek-ai/DeepSeek-V3" not in names  # 671B never fits one card
    assert "meta-llama/Meta-Llama-3-8B-Instruct" not in names  # native context 8192 < 32k


def test_tasks_filter_on_catalog_tags() -> None:
    card = gpu("H100")
    vision = recommend(card, task="vision")
    tagged = {e.id for e in all_models() if "vision" in e.tasks}
    assert vision and {r.model for r in vision} <= tagged
    agent = recommend(card, task="agent")
    assert {r.model for r in agent} <= {e.id for e in all_models() if "agent" in e.tasks}
    with pytest.raises(InputError, match="task"):
        recommend(card, task="audio")
    with pytest.raises(InputError, match="--gpu"):
        recommend()


def test_best_format_that_fits_is_chosen() -> None:
    small = Candidate("x/Small-8B", ("text",), dense("x/Small-8B", 8, 36, 4096, 8, 131072))
    big = Candidate("x/Big-24B", ("text",), dense("x/Big-24B", 24, 40, 5120, 8, 131072))
    short = Candidate("x/Short-8B", ("text",), dense("x/Short-8B", 8, 36, 4096, 8, 8192))
    found = recommend(gpu("RTX 4090"), candidates=[small, big, short])
    by_name = {r.model: r for r in found}
    assert "x/Short-8B" not in by_name
    assert by_name["x/Small-8B"].quantization == "bf16"
    assert by_name["x/Big-24B"].quantization == "awq"  # neither bf16 (45 GiB) nor FP8 (23 GiB) fits 24 GiB
    assert [r.model for r in found] == ["x/Big-24B", "x/Small-8B"]
    mac = recommend(gpu("M3 Max 128GB"), candidates=[small, big])
    assert {r.engine for r in mac} == {"llamacpp"}


def test_decode_speed_follows_bandwidth_and_active_bytes() -> None:
    card = gpu("RTX 3090")
    dense8 = spec_for("Qwen/Qwen3-8B")
    moe = spec_for("Qwen/Qwen3-30B-A3B")
    bf16 = decode_tokens_per_s(dense8, "bf16", card.bandwidth_gbs)
    expected = card.bandwidth_gbs * 1e9 * DECODE_EFFICIENCY / (8.2e9 * 2 + 4096 * 147456)
    assert bf16 == pytest.approx(expected, rel=0.02)
    assert decode_tokens_per_s(dense8, "awq", card.bandwidth_gbs) > 2 * bf16
    assert decode_tokens_per_s(moe, "bf16", card.bandwidth_gbs) > 2 * bf16  # 3.3B active of 30.5B
    assert decode_tokens_per_s(dense8, "bf16", gpu("H100").bandwidth_gbs) > 3 * bf16


def test_recommend_cli_json_is_one_object() -> None:
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "lmscreen",
            "model",
            "recommend",
            "--gpu",
            "RTX 4090",
            "--task",
            "agent",
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr
    assert len(proc.stdout.strip().splitlines()) == 1
    data = json.loads(proc.stdout)
    assert data["gpu"] == "RTX 4090" and data["min_context"] == 32768 and data["models"]
    text = subprocess.run(
        [sys.executable, "-m", "lmscreen", "model", "recommend", "--vram-gib", "12"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert text.returncode == 0 and "max context" in text.stdout
