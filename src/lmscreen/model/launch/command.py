"""Launch commands for vLLM, SGLang, llama.cpp (llama-server), Ollama and Transformers, sized by the plan.

Every flag used here exists in the engine version named in `ENGINE_VERSIONS` (checked by the tests against
the flag lists in research/engine-flags/, read from the engines' own argument parsers). Parser names and
sampling presets per family live in lmscreen.model.launch.families.

Safety: servers bind 127.0.0.1 unless asked otherwise; asked for any other address, the command gets a
generated API key (vLLM, SGLang and llama-server all take `--api-key`) and a warning. Ollama has no API key,
so it only gets the warning.
"""

from __future__ import annotations

import json
import re
import secrets
import shlex
from dataclasses import dataclass, field

from lmscreen.errors import InputError
from lmscreen.model.launch.families import GENERIC, Family, family_for, sampling_preset
from lmscreen.model.memory.plan import Plan
from lmscreen.model.memory.releases import NEWEST_VERSION
from lmscreen.model.memory.weights import is_gguf, normalize_quantization
from lmscreen.model.spec import ModelSpec

ENGINES = ("vllm", "sglang", "llamacpp", "ollama", "transformers")
ENGINE_VERSIONS = {
    "vllm": "vLLM 0.33.0",
    "sglang": "SGLang 0.5.23",
    "llamacpp": "llama.cpp 0c1e57098 (llama-server)",
    "ollama": "Ollama 0.33.0-rc2",
    "transformers": "Transformers (Python API, no server flags)",
}
DEFAULT_PORTS = {"vllm": 8000, "sglang": 30000, "llamacpp": 8080, "ollama": 11434}
LOOPBACK = ("127.0.0.1", "localhost", "::1")
VLLM_GENERATION_KEYS = ("temperature", "top_p", "top_k", "min_p", "repetition_penalty")
"""Keys vLLM takes from generation_config / --override-generation-config as request defaults."""


@dataclass(kw_only=True)
class LaunchCommand:
    """A ready-to-run launch: the command, its environment, any file it needs, and why each part is there."""

    engine: str
    engine_version: str
    argv: list[str]
    env: dict[str, str] = field(default_factory=dict)
    setup: list[list[str]] = field(default_factory=list)
    """Commands to run first (e.g. `ollama create`)."""
    files: dict[str, str] = field(default_factory=dict)
    """File name → content the command reads (Ollama Modelfile, Transformers script)."""
    served_model_name: str
    host: str | None
    port: int | None
    api_key: str | None = None
    sampling: dict[str, float] = field(default_factory=dict)
    sampling_source: str = ""
    warnings: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def shell(self) -> str:
        """The whole launch as shell text: files as heredocs, then setup commands, then the command."""
        parts: list[str] = []
        for name, content in self.files.items():
            parts.append(f"cat > {shlex.quote(name)} <<'EOF'\n{content.rstrip()}\nEOF")
        parts.extend(shlex.join(cmd) for cmd in self.setup)
        env = " ".join(f"{k}={shlex.quote(v)}" for k, v in self.env.items())
        parts.append(f"{env} {shlex.join(self.argv)}".strip())
        return "\n".join(parts)


def short_name(spec: ModelSpec, model_ref: str | None = None) -> str:
    """The name clients ask for: the last path component, without a .gguf suffix."""
    base = (model_ref or spec.name).rstrip("/").split("/")[-1]
    return re.sub(r"\.gguf$", "", base, flags=re.I)


def _host_and_key(host: str, api_key: str | None, engine: str) -> tuple[str | None, list[str]]:
    if host in LOOPBACK:
        return api_key, []
    key = api_key or secrets.token_urlsafe(24)
    if engine == "ollama":
        return None, [
            f"binding {host} exposes the server to the network and Ollama has no API key: put it "
            "behind a reverse proxy with authentication, or keep 127.0.0.1"
        ]
    return key, [
        f"binding {host} exposes the server to the network: an API key was added "
        "(clients send it as `Authorization: Bearer <key>`)"
    ]


def _fmt(value: float) -> str:
    return f"{value:g}"


def _vllm(
    spec: ModelSpec,
    plan: Plan | None,
    model_ref: str,
    name: str,
    host: str,
    port: int,
    key: str | None,
    preset: dict[str, float],
    fam: Family,
) -> tuple[list[str], list[str]]:
    argv = ["vllm", "serve", model_ref, "--served-model-name", name, "--host", host, "--port", str(port)]
    notes: list[str] = []
    if plan is not None:
        argv += [
            "--max-model-len",
            str(plan.context),
            "--gpu-memory-utilization",
            _fmt(plan.gpu_memory_utilization or 0.92),
        ]
        if plan.tp > 1:
            argv += ["--tensor-parallel-size", str(plan.tp)]
        if plan.pp > 1:
            argv += ["--pipeline-parallel-size", str(plan.pp)]
        if plan.expert_parallel:
            argv.append("--enable-expert-parallel")
        if plan.kv_cache_dtype != "auto":
            argv += ["--kv-cache-dtype", plan.kv_cache_dtype]
        seqs = plan.max_num_seqs or (plan.concurrency if plan.concurrency > 1 else None)
        if seqs:
            argv += ["--max-num-seqs", str(seqs)]
        if plan.max_num_seqs and plan.max_num_seqs < plan.concurrency:
            notes.append(
                f"--max-num-seqs {plan.max_num_seqs}: the hybrid model's state blocks hold no more sequences"
            )
    if fam.vllm_reasoning:
        argv += ["--reasoning-parser", fam.vllm_reasoning]
    if fam.vllm_tool:
        argv += ["--enable-auto-tool-choice", "--tool-call-parser", fam.vllm_tool]
    overrides = {k: v for k, v in preset.items() if k in VLLM_GENERATION_KEYS}
    if overrides:
        argv += ["--override-generation-config", json.dumps(overrides, separators=(",", ":"))]
    rest = sorted(set(preset) - set(overrides))
    if rest:
        notes.append(
            f"send {', '.join(f'{k}={_fmt(preset[k])}' for k in rest)} with each request "
            "(not a vLLM generation-config default)"
        )
    if key:
        argv += ["--api-key", key]
    if fam.key == "llama3":
        notes.append(
            "vLLM's docs pair llama3_json with examples/tool_chat_template_llama3.1_json.jinja "
            "from the vLLM repository (--chat-template PATH) for better tool calls"
        )
    return argv, notes


def _sglang(
    spec: ModelSpec,
    plan: Plan | None,
    model_ref: str,
    name: str,
    host: str,
    port: int,
    key: str | None,
    preset: dict[str, float],
    fam: Family,
) -> tuple[list[str], list[str]]:
    argv = [
        "python",
        "-m",
        "sglang.launch_server",
        "--model-path",
        model_ref,
        "--served-model-name",
        name,
        "--host",
        host,
        "--port",
        str(port),
    ]
    notes = ["SGLang sizes its pool itself: the context and memory fraction come from the vLLM plan"]
    if plan is not None:
        static = plan.gpu_memory_utilization or 0.92
        static -= plan.overhead_gib / plan.gpu_total_gib
        argv += [
            "--context-length",
            str(plan.context),
            "--mem-fraction-static",
            f"{int(static * 100) / 100:.2f}",
        ]
        if plan.tp > 1:
            argv += ["--tp-size", str(plan.tp)]
        if plan.pp > 1:
            argv += ["--pp-size", str(plan.pp)]
        kv = {
            "fp8": "fp8_e4m3",
            "fp8_e4m3": "fp8_e4m3",
            "fp8_e5m2": "fp8_e5m2",
            "bfloat16": "bf16",
            "nvfp4": "nvfp4",
        }.get(plan.kv_cache_dtype)
        if kv:
            argv += ["--kv-cache-dtype", kv]
        if plan.concurrency > 1:
            argv += ["--max-running-requests", str(plan.concurrency)]
    if fam.sglang_reasoning:
        argv += ["--reasoning-parser", fam.sglang_reasoning]
    if fam.sglang_tool:
        argv += ["--tool-call-parser", fam.sglang_tool]
    if key:
        argv += ["--api-key", key]
    if preset:
        notes.append(
            "SGLang applies the model's generation_config.json (--sampling-defaults model); send "
            f"{', '.join(f'{k}={_fmt(v)}' for k, v in preset.items())} with each request"
        )
    return argv, notes


def _gguf_type(spec: ModelSpec, plan: Plan | None) -> str:
    if plan is not None:
        return plan.quantization
    own = normalize_quantization(spec.quantization)
    return own if is_gguf(own) else "q4_k_m"


_LLAMA_SAMPLING = {
    "temperature": "--temp",
    "top_k": "--top-k",
    "top_p": "--top-p",
    "min_p": "--min-p",
    "presence_penalty": "--presence-penalty",
    "repetition_penalty": "--repeat-penalty",
}


def _llamacpp(
    spec: ModelSpec,
    plan: Plan | None,
    model_ref: str,
    name: str,
    host: str,
    port: int,
    key: str | None,
    preset: dict[str, float],
    fam: Family,
) -> tuple[list[str], list[str]]:
    notes: list[str] = []
    if model_ref.lower().endswith(".gguf"):
        model_args = ["-m", model_ref]
    else:
        quant = _gguf_type(spec, plan).upper()
        model_args = ["-m", f"{short_name(spec, model_ref)}-{quant}.gguf"]
        notes.append(f"-m takes the path of your {quant} GGUF file of {spec.name}")
    argv = [
        "llama-server",
        *model_args,
        "--alias",
        name,
        "--host",
        host,
        "--port",
        str(port),
        "--jinja",
        "-fa",
        "on",
    ]
    if plan is not None:
        argv += ["-c", str(plan.kv_cache_tokens), "-np", str(plan.concurrency)]
        argv += [
            "-ngl",
            "all" if plan.gpu_layers in (None, spec.num_layers) or plan.n_cpu_moe else str(plan.gpu_layers),
        ]
        if plan.n_cpu_moe:
            argv += ["--n-cpu-moe", str(plan.n_cpu_moe)]
        if plan.kv_cache_dtype not in ("f16", "auto"):
            argv += ["-ctk", plan.kv_cache_dtype, "-ctv", plan.kv_cache_dtype]
        if plan.concurrency > 1:
            notes.append(
                f"-c {plan.kv_cache_tokens} cells are shared by the {plan.concurrency} slots "
                f"({plan.context} tokens each)"
            )
    if fam.llamacpp_reasoning_format:
        argv += ["--reasoning-format", fam.llamacpp_reasoning_format]
    for k, v in preset.items():
        if k in _LLAMA_SAMPLING:
            argv += [_LLAMA_SAMPLING[k], _fmt(v)]
    if key:
        argv += ["--api-key", key]
    return argv, notes


def _ollama(
    spec: ModelSpec,
    plan: Plan | None,
    model_ref: str,
    name: str,
    host: str,
    port: int,
    preset: dict[str, float],
    fam: Family,
    ollama_tag: str | None,
) -> LaunchCommand:
    source = ollama_tag or (model_ref if model_ref.lower().endswith(".gguf") else None)
    notes: list[str] = []
    if source is None:
        source = f"./{short_name(spec, model_ref)}-{_gguf_type(spec, plan).upper()}.gguf"
        notes.append(f"FROM takes an Ollama tag or the path of a GGUF file of {spec.name}")
    lines = [f"FROM {source}"]
    env = {"OLLAMA_HOST": f"{host}:{port}"}
    if plan is not None:
        lines.append(f"PARAMETER num_ctx {plan.context}")
        env["OLLAMA_NUM_PARALLEL"] = str(plan.concurrency)
        if plan.kv_cache_dtype not in ("f16", "auto"):
            env["OLLAMA_KV_CACHE_TYPE"] = plan.kv_cache_dtype
            env["OLLAMA_FLASH_ATTENTION"] = "1"
    names = {"repetition_penalty": "repeat_penalty"}
    for k, v in preset.items():
        lines.append(f"PARAMETER {names.get(k, k)} {_fmt(v)}")
    if fam.ollama_parser and ollama_tag is None:
        notes.append(
            f"Ollama's built-in parser for this family is {fam.ollama_parser!r} (PARSER/RENDERER lines); "
            "library tags already carry it"
        )
    tag = re.sub(r"[^a-z0-9._-]+", "-", name.lower())
    return LaunchCommand(
        engine="ollama",
        engine_version=ENGINE_VERSIONS["ollama"],
        argv=["ollama", "serve"],
        env=env,
        setup=[["ollama", "create", tag, "-f", "Modelfile"]],
        files={"Modelfile": "\n".join(lines) + "\n"},
        served_model_name=tag,
        host=host,
        port=port,
        notes=notes,
    )


_TRANSFORMERS_SCRIPT = '''\
"""Chat with {model} through Transformers (no server; use vLLM or SGLang to serve an API)."""
from transformers import AutoModelForCausalLM, AutoTokenizer

model_id = {model!r}
tokenizer = AutoTokenizer.from_pretrained(model_id)
model = AutoModelForCausalLM.from_pretrained(model_id, torch_dtype="auto", device_map="auto")
messages = [{{"role": "user", "content": "Hello"}}]
inputs = tokenizer.apply_chat_template(messages, add_generation_prompt=True, return_tensors="pt")
inputs = inputs.to(model.device)
out = model.generate(inputs, max_new_tokens={max_new}, do_sample=True{sampling})
print(tokenizer.decode(out[0][inputs.shape[-1]:], skip_special_tokens=True))
'''


def _transformers(spec: ModelSpec, model_ref: str, name: str, preset: dict[str, float]) -> LaunchCommand:
    keys = {"temperature", "top_p", "top_k", "min_p", "repetition_penalty"}
    sampling = "".join(f", {k}={_fmt(v)}" for k, v in preset.items() if k in keys)
    script = _TRANSFORMERS_SCRIPT.format(model=model_ref, max_new=1024, sampling=sampling)
    return LaunchCommand(
        engine="transformers",
        engine_version=ENGINE_VERSIONS["transformers"],
        argv=["python", "chat_transformers.py"],
        files={"chat_transformers.py": script},
        served_model_name=name,
        host=None,
        port=None,
        notes=["device_map='auto' spreads the weights over the visible GPUs and CPU RAM; no KV planning"],
    )


def _expert_parallel_flag(spec: ModelSpec, plan: Plan | None, asked: bool) -> tuple[bool, str | None]:
    """(append --enable-expert-parallel to the argv here, a note) when `asked`.

    A plan made with expert_parallel=True already carries it (_vllm adds the flag); otherwise the spec
    decides: a dense model has no experts, so the flag is left out and the note says so."""
    if not asked or (plan is not None and plan.expert_parallel):
        return False, None
    if spec.num_experts and spec.num_experts_per_tok:
        return True, None
    return False, f"--enable-expert-parallel left out: {spec.name} is a dense model (no experts to place)"


def launch_command(
    spec: ModelSpec,
    engine: str,
    plan: Plan | None = None,
    *,
    model_ref: str | None = None,
    host: str = "127.0.0.1",
    port: int | None = None,
    task: str = "text",
    api_key: str | None = None,
    ollama_tag: str | None = None,
    expert_parallel: bool = False,
) -> LaunchCommand:
    """The launch command for `spec` on `engine`, sized by `plan` when one is given.

    `model_ref` is what the engine loads (HF id, local folder or .gguf path; default the spec's name);
    `ollama_tag` an Ollama library tag to build from. A host other than loopback adds an API key.
    `expert_parallel` adds vLLM's --enable-expert-parallel for a MoE model; with a plan, the plan decides
    (plan(..., expert_parallel=True) keeps it only where it applies and says why in its notes).
    """
    engine = (engine or "").lower().replace(".", "").replace("-", "")
    if engine not in ENGINES:
        raise InputError(f"--engine {engine!r}: use one of {', '.join(ENGINES)}")
    if expert_parallel and engine != "vllm":
        raise InputError("--enable-expert-parallel is a vLLM flag: use --engine vllm")
    add_ep, ep_note = _expert_parallel_flag(spec, plan, expert_parallel)
    model_ref = model_ref or spec.name
    name = short_name(spec, model_ref)
    preset, preset_source = sampling_preset(spec, task)
    fam = family_for(spec)
    warnings: list[str] = []
    quant = normalize_quantization(spec.quantization)
    if engine in ("vllm", "sglang") and is_gguf(quant):
        warnings.append(
            f"{ENGINE_VERSIONS[engine]} is planned for safetensors checkpoints; for a "
            f"{quant.upper()} GGUF use --engine llamacpp or ollama"
        )
    if plan is None and engine != "transformers":
        warnings.append("no --gpu given: the command carries no context or memory settings from a plan")
    elif plan is not None and not plan.fits:
        warnings.append("the plan says this does not fit; see `lmscreen model fit` for the knobs to turn")
    if engine == "transformers":
        result = _transformers(spec, model_ref, name, preset)
    elif engine == "ollama":
        port = port or DEFAULT_PORTS["ollama"]
        result = _ollama(spec, plan, model_ref, name, host, port, preset, fam, ollama_tag)
        _, host_warnings = _host_and_key(host, api_key, engine)
        warnings += host_warnings
    else:
        port = port or DEFAULT_PORTS[engine]
        key, host_warnings = _host_and_key(host, api_key, engine)
        warnings += host_warnings
        builder = {"vllm": _vllm, "sglang": _sglang, "llamacpp": _llamacpp}[engine]
        argv, notes = builder(spec, plan, model_ref, name, host, port, key, preset, fam)
        if add_ep:
            argv.append("--enable-expert-parallel")
        if ep_note:
            notes.append(ep_note)
        version = ENGINE_VERSIONS[engine]
        if engine == "vllm" and plan is not None and plan.vllm_version not in (None, NEWEST_VERSION):
            version = f"vLLM {plan.vllm_version} (flags checked against {ENGINE_VERSIONS[engine]})"
        result = LaunchCommand(
            engine=engine,
            engine_version=version,
            argv=argv,
            served_model_name=name,
            host=host,
            port=port,
            api_key=key,
            notes=notes,
        )
    result.sampling = {k: float(v) for k, v in preset.items()}  # a preset's top_k 20 is the float 20.0 here
    result.sampling_source = preset_source if preset else GENERIC.source
    result.warnings = warnings + result.warnings
    return result
