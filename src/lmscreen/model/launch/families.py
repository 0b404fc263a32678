"""Model families: which reasoning and tool-call parsers each engine needs, and the sampling presets per task.

Every entry names its source (research/engine-flags/parsers-and-sampling.md: vLLM recipes, SGLang cookbook,
the publishers' READMEs and model cards; "secondary" marks a card read through a third-party copy). Parser
names differ per engine (vLLM `deepseek_r1`, SGLang `deepseek-r1`), so each engine has its own field.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from lmscreen.errors import InputError
from lmscreen.model.spec import ModelSpec

TASKS = ("text", "vision", "agent")


@dataclass(frozen=True)
class Family:
    """Parser names and sampling presets of one model family, with their sources."""

    key: str
    vllm_reasoning: str | None = None
    vllm_tool: str | None = None
    sglang_reasoning: str | None = None
    sglang_tool: str | None = None
    llamacpp_reasoning_format: str | None = None
    ollama_parser: str | None = None
    sampling: dict[str, dict[str, float]] = field(default_factory=dict)
    """task → preset; "text" is the fallback for tasks without their own."""
    source: str = ""


_QWEN3_THINKING = {"temperature": 0.6, "top_p": 0.95, "top_k": 20, "min_p": 0.0}
_QWEN3_INSTRUCT = {"temperature": 0.7, "top_p": 0.8, "top_k": 20, "min_p": 0.0}

# Most specific pattern first; matched against the lower-cased model name.
FAMILIES: list[tuple[str, Family]] = [
    (
        r"qwen3[.-]?\d*[.-]?coder",
        Family(
            key="qwen3-coder",
            vllm_tool="qwen3_coder",
            sglang_tool="qwen3_coder",
            ollama_parser="qwen3-coder",
            sampling={"text": {"temperature": 0.7, "top_p": 0.8, "top_k": 20, "repetition_penalty": 1.05}},
            source="vLLM recipes Qwen3-Coder-480B-A35B-Instruct.yaml; sgl-cookbook Qwen3-Coder.md; HF card "
            "Best Practices (secondary); non-thinking, no reasoning parser",
        ),
    ),
    (
        r"qwen3\.[5-9]",
        Family(
            key="qwen3.5",
            vllm_reasoning="qwen3",
            vllm_tool="qwen3_coder",
            sglang_reasoning="qwen3",
            sglang_tool="qwen3_coder",
            ollama_parser="qwen3.5",
            sampling={
                "text": {
                    "temperature": 1.0,
                    "top_p": 0.95,
                    "top_k": 20,
                    "min_p": 0.0,
                    "presence_penalty": 1.5,
                    "repetition_penalty": 1.0,
                },
                "agent": {
                    "temperature": 0.6,
                    "top_p": 0.95,
                    "top_k": 20,
                    "min_p": 0.0,
                    "presence_penalty": 0.0,
                    "repetition_penalty": 1.0,
                },
            },
            source="vLLM recipes Qwen3.5-27B.yaml / Qwen3.6-35B-A3B.yaml; sgl-cookbook Qwen3.5.md; HF cards "
            "(secondary): thinking general for text/vision, thinking precise coding for agent",
        ),
    ),
    (
        r"qwen3.*thinking",
        Family(
            key="qwen3-thinking-2507",
            vllm_reasoning="deepseek_r1",
            vllm_tool="hermes",
            sglang_reasoning="deepseek-r1",
            sglang_tool="qwen25",
            llamacpp_reasoning_format="deepseek",
            ollama_parser="qwen3-thinking",
            sampling={"text": _QWEN3_THINKING},
            source="QwenLM/Qwen3 README (template pre-opens <think>) and quickstart.md",
        ),
    ),
    (
        r"qwen3.*(instruct-2507|next.*instruct)",
        Family(
            key="qwen3-instruct-2507",
            vllm_tool="hermes",
            sglang_tool="qwen25",
            ollama_parser="qwen3",
            sampling={"text": _QWEN3_INSTRUCT},
            source="QwenLM/Qwen3 quickstart.md (Instruct-2507: non-thinking); deployment/vllm.md, sglang.md",
        ),
    ),
    (
        r"qwen3",
        Family(
            key="qwen3",
            vllm_reasoning="qwen3",
            vllm_tool="hermes",
            sglang_reasoning="qwen3",
            sglang_tool="qwen25",
            llamacpp_reasoning_format="deepseek",
            ollama_parser="qwen3-thinking",
            sampling={"text": _QWEN3_THINKING},
            source="QwenLM/Qwen3 docs deployment/vllm.md, sglang.md, run_locally/llama.cpp.md; quickstart.md "
            "(thinking mode)",
        ),
    ),
    (
        # The distills are Qwen2 / Llama checkpoints: they think in <think> like R1, but were never trained
        # on DeepSeek-V3's tool-call tokens, and DeepSeek's README serves them with no tool parser.
        r"deepseek-r1-distill",
        Family(
            key="deepseek-r1-distill",
            vllm_reasoning="deepseek_r1",
            sglang_reasoning="deepseek-r1",
            llamacpp_reasoning_format="deepseek",
            sampling={"text": {"temperature": 0.6, "top_p": 0.95}},
            source="deepseek-ai/DeepSeek-R1 README (Distill models: 'used in the same manner as Qwen or "
            "Llama models', vllm serve example without a tool parser; R1-series sampling 0.6 / 0.95)",
        ),
    ),
    (
        r"deepseek-r1",
        Family(
            key="deepseek-r1",
            vllm_reasoning="deepseek_r1",
            vllm_tool="deepseek_v3",
            sglang_reasoning="deepseek-r1",
            sglang_tool="deepseekv3",
            llamacpp_reasoning_format="deepseek",
            sampling={"text": {"temperature": 0.6, "top_p": 0.95}},
            source="deepseek-ai/DeepSeek-R1 README; vLLM recipes DeepSeek-R1.yaml; "
            "sgl-cookbook DeepSeek-R1.md",
        ),
    ),
    (
        r"deepseek-v3",
        Family(
            key="deepseek-v3",
            vllm_tool="deepseek_v3",
            sglang_tool="deepseekv3",
            source="vLLM ToolParserManager / SGLang parser names (deepseek_v3 / deepseekv3)",
        ),
    ),
    (
        r"gpt-oss",
        Family(
            key="gpt-oss",
            vllm_tool="openai",
            sglang_reasoning="gpt-oss",
            sglang_tool="gpt-oss",
            ollama_parser="harmony",
            sampling={"text": {"temperature": 1.0, "top_p": 1.0}},
            source="openai/gpt-oss README; vLLM recipes gpt-oss-*.yaml (no reasoning parser: harmony handled "
            "natively); sgl-cookbook GPT-OSS.md",
        ),
    ),
    (
        r"llama[- ]?3",
        Family(
            key="llama3",
            vllm_tool="llama3_json",
            sglang_tool="llama3",
            sampling={"text": {"temperature": 0.6, "top_p": 0.9}},
            source="meta-llama/llama3 example_chat_completion.py; vLLM tool-calling docs; "
            "sgl-cookbook Llama3.1.md",
        ),
    ),
    (
        r"glm-4\.7",
        Family(
            key="glm-4.7",
            vllm_reasoning="glm45",
            vllm_tool="glm47",
            sglang_reasoning="glm45",
            sglang_tool="glm47",
            ollama_parser="glm-4.7",
            sampling={
                "text": {"temperature": 1.0, "top_p": 0.95},
                "agent": {"temperature": 0.7, "top_p": 1.0},
            },
            source="vLLM recipes GLM-4.7.yaml; zai-org/GLM-4.5 README; "
            "HF card evaluation parameters (secondary)",
        ),
    ),
    (
        r"glm-4\.[56]",
        Family(
            key="glm-4.5",
            vllm_reasoning="glm45",
            vllm_tool="glm45",
            sglang_reasoning="glm45",
            sglang_tool="glm45",
            sampling={
                "text": {"temperature": 1.0},
                "agent": {"temperature": 1.0, "top_p": 0.95, "top_k": 40},
            },
            source="vLLM recipes GLM-4.5.yaml / GLM-4.6.yaml; sgl-cookbook GLM-4.5.md; "
            "GLM-4.6 card (secondary)",
        ),
    ),
    (
        r"mi[sx]tral|magistral|devstral",
        Family(
            key="mistral",
            vllm_tool="mistral",
            sglang_tool="mistral",
            source="vLLM / SGLang parser registries (mistral)",
        ),
    ),
]
GENERIC = Family(
    key="generic", source="no family rule: engine defaults and the model's generation_config.json"
)


def family_for(spec: ModelSpec) -> Family:
    """The parser/sampling family of a model, from its name (most specific rule first)."""
    text = f"{spec.name} {spec.model_type or ''}".lower()
    for pattern, family in FAMILIES:
        if re.search(pattern, text):
            return family
    return GENERIC


def sampling_preset(spec: ModelSpec, task: str = "text") -> tuple[dict[str, float], str]:
    """(preset, source) for a task; an empty preset means "use the model's generation_config.json"."""
    if task not in TASKS:
        raise InputError(f"--task {task!r}: use one of {', '.join(TASKS)}")
    family = family_for(spec)
    if task == "text" and "agent" not in family.sampling:
        from lmscreen.model.catalog.models import lookup

        entry = lookup(spec.name)
        if entry is not None and entry.generation and entry.id.lower() == spec.name.lower():
            return dict(entry.generation), f"{entry.id} generation_config.json ({entry.generation_source})"
    preset = family.sampling.get(task) or family.sampling.get("text") or {}
    return dict(preset), family.source
