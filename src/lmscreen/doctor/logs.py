"""Why did the server not start? Read a vLLM / SGLang / llama.cpp / Ollama start-up or crash log, name the
cause in one line and print the fix with numbers (the engine's own where the log has them, the planner's
otherwise).

Causes are recognised by the engines' own error texts (each rule names the engine message it keys on), most
specific first: an out-of-memory inside CUDA-graph capture is not a weights problem, and a KV-cache error is
not an out-of-memory. Facts (model, --max-model-len, utilisation, card size, KV needed/available) are read
from the same log so the fix is sized for the run that failed, not for a default.
"""

from __future__ import annotations

import math
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path

from lmscreen.errors import InputError

GIB = 1 << 30

CAUSES = {
    "kv_cache_too_small": "KV cache too small for --max-model-len",
    "weights_too_large": "weights larger than the card",
    "cuda_graph_oom": "CUDA out of memory during CUDA-graph capture",
    "no_chat_template": "no chat template",
    "unknown_architecture": "unknown architecture",
    "broken_install": "architecture is supported but its model code failed to import",
    "wrong_model_name": "wrong served model name",
}


@dataclass
class LogFacts:
    """What the log says about the run, each None when the log does not say it."""

    engine: str | None = None
    model: str | None = None
    served_names: list[str] = field(default_factory=list)
    requested_name: str | None = None
    max_model_len: int | None = None
    gpu_memory_utilization: float | None = None
    mem_fraction_static: float | None = None
    total_gpu_gib: float | None = None
    tp: int | None = None
    kv_cache_dtype: str | None = None
    weights_gib: float | None = None
    available_kv_gib: float | None = None
    needed_kv_gib: float | None = None
    kv_tokens: int | None = None
    estimated_max_len: int | None = None
    alloc_gib: float | None = None
    architecture: str | None = None


@dataclass
class Diagnosis:
    cause: str | None
    """Key of CAUSES, or None when no known failure is in the log."""
    summary: str
    evidence: str | None
    """The log line the cause was read from."""
    fixes: list[str]
    facts: LogFacts

    def to_dict(self) -> dict:
        return {
            "cause": self.cause,
            "summary": self.summary,
            "evidence": self.evidence,
            "fixes": self.fixes,
            "facts": asdict(self.facts),
        }

    def render_text(self) -> str:
        lines = [self.summary]
        if self.evidence:
            lines.append(f"  log: {self.evidence.strip()[:240]}")
        lines += [f"  fix: {fix}" for fix in self.fixes]
        return "\n".join(lines)


def _num(pattern: str, text: str, cast=float, flags: int = 0):
    m = re.search(pattern, text, flags)
    if not m:
        return None
    try:
        return cast(m.group(1).replace(",", ""))
    except ValueError:
        return None


def _engine(text: str) -> str | None:
    if re.search(r"vllm|EngineCore|llm_engine\.py|gpu_worker\.py", text, re.I):
        return "vllm"
    if re.search(r"sglang|mem-fraction-static|mem_fraction_static", text, re.I):
        return "sglang"
    if re.search(r"ollama|\[GIN\]", text, re.I):
        return "ollama"
    if re.search(r"llama_model_load|ggml_|load_tensors|llm_load_|llama-server|llama_new_context", text):
        return "llamacpp"
    return None


def _model(text: str) -> str | None:
    for pattern in (
        r"(?:vllm serve|--model(?:-path)?[ =])\s*['\"]?([^\s'\"\\]+)",
        r"\bmodel='([^']+)'",
        r"\bmodel_tag='([^']+)'",
        r"LLM\(model=['\"]([^'\"]+)",
    ):
        m = re.search(pattern, text)
        if m and not m.group(1).startswith("-"):
            return m.group(1).rstrip(",")
    return None


def read_facts(text: str) -> LogFacts:
    """Every number the log states that the diagnosis or the fix needs."""
    facts = LogFacts(engine=_engine(text), model=_model(text))
    served = re.findall(r"--served-model-name[ =]+['\"]?([^\s'\"\\]+)", text)
    served += re.findall(r"served_model_name=([^,\s)]+)", text)
    facts.served_names = list(dict.fromkeys(s for s in served if s != "None"))
    m = re.search(r"The model [`'\"]([^`'\"]+)[`'\"] does not exist", text)
    facts.requested_name = m.group(1) if m else None
    facts.max_model_len = (
        _num(r"--max[-_]model[-_]len[ =]+['\"]?(\d+)", text, int)
        or _num(r"max seq len \((\d+)\)", text, int)
        or _num(r"max_seq_len=(\d+)", text, int)
    )
    facts.gpu_memory_utilization = _num(r"gpu[-_]memory[-_]utilization[ =(\"']+([01]?\.\d+)", text) or _num(
        r"gpu_memory_utilization=([01]?\.\d+)", text
    )
    facts.mem_fraction_static = _num(r"mem[-_]fraction[-_]static[ =]+([01]?\.\d+)", text)
    facts.total_gpu_gib = (
        _num(r"total_gpu_memory \(([\d.]+)\s*GiB\)", text)
        or _num(r"total_gpu_memory=([\d.]+)\s*GiB", text)
        or _num(r"total capacity of ([\d.]+) GiB", text)
    )
    facts.tp = _num(r"tensor_parallel_size=(\d+)", text, int) or _num(
        r"(?:--tensor-parallel-size|-tp)[ =]+(\d+)", text, int
    )
    facts.kv_cache_dtype = (
        re.search(r"--kv-cache-dtype[ =]+(\S+)", text)
        or re.search(r"kv_cache_dtype=(\w+)", text)
        or [None, None]
    )[1]
    weights = _num(r"(?:Loading model weights took|Model loading took) ([\d.]+) ?GB", text) or _num(
        r"model weights take ([\d.]+)\s*GiB", text
    )
    facts.weights_gib = weights
    facts.available_kv_gib = _num(r"available KV cache memory \(([\d.]+) GiB\)", text) or _num(
        r"Available KV cache memory: ([\d.]+) GiB", text
    )
    facts.needed_kv_gib = _num(r"\(([\d.]+) GiB KV cache is needed", text)
    facts.kv_tokens = _num(r"can be stored in KV cache \((\d+)\)", text, int) or _num(
        r"GPU KV cache size: ([\d,]+) tokens", text, int
    )
    facts.estimated_max_len = _num(r"estimated maximum model length is (\d+)", text, int)
    mib = _num(r"allocating ([\d.]+) MiB on device", text)
    facts.alloc_gib = round(mib / 1024, 2) if mib else None
    arch = re.search(r"Model architectures \[['\"]([^'\"]+)['\"]\] are not supported", text) or re.search(
        r"unknown model architecture: '([^']+)'", text
    )
    facts.architecture = arch.group(1) if arch else None
    return facts


# (cause, engine message the rule keys on). First match wins; the order puts the specific before the general.
_RULES: list[tuple[str, str]] = [
    ("wrong_model_name", r"The model [`'\"][^`'\"]+[`'\"] does not exist"),
    (
        "no_chat_template",
        r"default chat template is no longer allowed|chat_template is not set|no chat template",
    ),
    ("unknown_architecture", r"are not supported for now|unknown model architecture"),
    (
        "kv_cache_too_small",
        r"larger than the maximum number of tokens that can be stored in KV cache"
        r"|KV cache is needed, which is larger than the available KV cache memory"
        r"|No available memory for the cache blocks"
        r"|is larger than the profiled value -\d+",
    ),
    (
        "cuda_graph_oom",
        r"(?s)(?:[Cc]apturing (?:cuda ?graph|CUDA graph|the model for CUDA graphs)|capture_model|"
        r"cuda_graph|cudagraph|torch\.cuda\.graph).{0,6000}?(?:out of memory|OutOfMemoryError)",
    ),
    (
        "weights_too_large",
        r"(?s)(?:unable to allocate CUDA\d* buffer|failed to allocate CUDA\d* buffer"
        r"|Not enough memory\. Please try to increase --mem-fraction-static"
        r"|(?:load_model|make_layers|model_loader|_initialize_model|Starting to load model)"
        r".{0,6000}?(?:OutOfMemoryError|CUDA out of memory|CUDA error: out of memory))",
    ),
    ("weights_too_large", r"OutOfMemoryError: CUDA out of memory"),
]


def _evidence(text: str, pattern: str) -> str | None:
    m = re.search(pattern, text)
    if not m:
        return None
    end = text.find("\n", m.end() - 1)
    start = text.rfind("\n", 0, m.end() - 1) + 1
    return text[start : end if end != -1 else len(text)].strip()


def diagnose(text: str, gpu_name: str | None = None) -> Diagnosis:
    """The cause of a failed start named in one line, with fixes sized from the log and the planner."""
    facts = read_facts(text)
    for cause, pattern in _RULES:
        if re.search(pattern, text):
            if cause == "unknown_architecture" and _supported_but_listed(text, facts.architecture):
                cause = "broken_install"
            fixes = _FIXES[cause](facts, gpu_name)
            fixes += _planner_lines(facts, gpu_name, cause)
            engine = f"{facts.engine}: " if facts.engine else ""
            return Diagnosis(
                cause,
                f"{engine}{CAUSES[cause]}{_detail(cause, facts)}",
                _evidence(text, pattern),
                fixes,
                facts,
            )
    return Diagnosis(None, "no known start-up failure in this log", None, [], facts)


def diagnose_file(path: str, gpu_name: str | None = None) -> Diagnosis:
    file = Path(path).expanduser()
    try:
        text = file.read_text(encoding="utf-8", errors="replace")
    except OSError as exc:
        raise InputError(f"cannot read log: {exc.strerror or exc}", file=str(file)) from None
    return diagnose(text, gpu_name)


def _supported_but_listed(text: str, arch: str | None) -> bool:
    """vLLM lists the supported architectures after the error: when ours is in that list, the model code
    failed to import (a broken install), it is not an unsupported model."""
    if not arch:
        return False
    m = re.search(r"Supported architectures: \[(.*?)\]", text, re.S)
    return bool(m and re.search(rf"['\"]{re.escape(arch)}['\"]", m.group(1)))


def _detail(cause: str, f: LogFacts) -> str:
    if cause == "kv_cache_too_small" and f.max_model_len:
        have = (
            f"{f.kv_tokens:,} tokens fit"
            if f.kv_tokens
            else f"{f.available_kv_gib} GiB available, {f.needed_kv_gib} GiB needed"
            if f.available_kv_gib is not None and f.needed_kv_gib is not None
            else "less fits"
        )
        return f" ({f.max_model_len:,} tokens asked, {have})"
    if cause in ("unknown_architecture", "broken_install") and f.architecture:
        return f" ({f.architecture})"
    if cause == "wrong_model_name" and f.requested_name:
        return f" (client asked for {f.requested_name!r})"
    if cause == "weights_too_large" and f.alloc_gib:
        return f" (one buffer of {f.alloc_gib:,.1f} GiB)"
    return ""


# ------------------------------------------------------------------------------------------------- fixes


def _spec(f: LogFacts):
    """The planner's spec for the log's model, or None when the name resolves to nothing."""
    if not f.model:
        return None
    from lmscreen.model.resolve import resolve

    try:
        return resolve(f.model).spec
    except InputError:
        return None


def _card(f: LogFacts, gpu_name: str | None) -> tuple[object | None, float | None]:
    if gpu_name:
        from lmscreen.model.hardware import gpu

        return gpu(gpu_name), None
    return None, f.total_gpu_gib


def _plan(f: LogFacts, gpu_name: str | None, **changes):
    """The planner's plan for the log's model on the log's card and settings; None when either is unknown."""
    spec = _spec(f)
    card, vram = _card(f, gpu_name)
    if spec is None or (card is None and not vram):
        return None
    from lmscreen.model.memory import plan

    args = {
        "gpus": f.tp or 1,
        "gpu_memory_utilization": f.gpu_memory_utilization,
        "kv_cache_dtype": f.kv_cache_dtype or "auto",
        "engine": "vllm" if f.engine in (None, "vllm", "sglang") else "llamacpp",
        "table": False,
    }
    args.update(changes)
    try:
        return plan(spec, card, vram, **args)
    except InputError:
        return None


def _planner_lines(f: LogFacts, gpu_name: str | None, cause: str) -> list[str]:
    """What the planner says for this model and card: the largest --max-model-len that fits, or that nothing
    does (then a quantized checkpoint or more GPUs that would)."""
    planned = _plan(f, gpu_name)
    if planned is None:
        return []
    where = f"{planned.gpus} × {planned.gpu or f'{planned.gpu_total_gib:.1f} GiB card'}"
    spec = _spec(f)
    if spec is not None:
        from lmscreen.model.arch.estimate import is_estimated

        if is_estimated(spec):
            where += ", layout estimated from the name"
    util = (
        f" --gpu-memory-utilization {planned.gpu_memory_utilization:.2f}"
        if planned.gpu_memory_utilization
        else ""
    )
    if planned.fits and planned.max_context:
        return [
            f"planner ({planned.model} on {where}): --max-model-len {planned.max_context}{util} fits "
            f"(weights {planned.weights_gib:.1f} GiB, KV {planned.available_kv_gib:.1f} GiB per GPU)"
        ]
    lines = [
        f"planner ({planned.model} on {where}): does not fit (weights {planned.weights_gib:.1f} GiB per GPU)"
    ]
    if cause != "weights_too_large" and spec is not None:
        card, vram = _card(f, gpu_name)
        lines += _quantized_alternatives(spec, card, vram, f.tp or 1)
    return lines


def _fix_kv(f: LogFacts, gpu_name: str | None) -> list[str]:
    fixes = []
    longest = f.estimated_max_len or f.kv_tokens
    source = "the engine's own estimate" if f.estimated_max_len else "the KV cache the log reports"
    planned = _plan(f, gpu_name)
    if longest:
        fixes.append(f"--max-model-len {longest} (largest that fits, from {source})")
    util = f.gpu_memory_utilization
    total = f.total_gpu_gib or (planned.gpu_total_gib if planned else None)
    if f.needed_kv_gib and f.available_kv_gib is not None and total and util:
        want = util + (f.needed_kv_gib - f.available_kv_gib) / total
        if want <= 0.95:
            fixes.append(
                f"or keep --max-model-len {f.max_model_len} with --gpu-memory-utilization "
                f"{math.ceil(want * 100) / 100:.2f} "
                f"({f.needed_kv_gib} GiB KV needed, {f.available_kv_gib} GiB available, "
                f"card {total:.1f} GiB)"
            )
        else:
            fixes.append(
                f"--gpu-memory-utilization alone cannot reach {f.needed_kv_gib} GiB of KV "
                f"(would need {want:.2f}); use --kv-cache-dtype fp8 (halves KV) or more GPUs"
            )
    if f.engine == "sglang":
        fixes.append("SGLang: raise --mem-fraction-static or lower --context-length")
    fixes.append("or --kv-cache-dtype fp8: twice the tokens in the same memory")
    return fixes


def _quantized_alternatives(spec, card, vram: float | None, tp: int) -> list[str]:
    from lmscreen.model.memory import plan
    from lmscreen.model.memory.weights import reformatted

    out = []
    for quant, label in (("fp8", "an FP8"), ("awq", "a 4-bit AWQ/GPTQ")):
        if spec.quantization in (quant, "awq", "gptq", "nvfp4", "mxfp4"):
            continue
        trial = reformatted(spec, quant)
        try:
            result = plan(trial, card, vram, gpus=tp, engine="vllm", table=False)
        except InputError:
            continue
        if result.fits:
            out.append(
                f"{label} checkpoint of this model fits: weights {result.weights_gib:.1f} GiB per GPU, "
                f"--max-model-len up to {result.max_context:,}"
            )
            break
    for n in (2, 4, 8):
        if n <= tp:
            continue
        try:
            result = plan(spec, card, vram, gpus=n, engine="vllm", table=False)
        except InputError:
            continue
        if result.fits:
            out.append(
                f"or --tensor-parallel-size {n}: {result.weights_gib:.1f} GiB of weights per GPU, "
                f"--max-model-len up to {result.max_context:,}"
            )
            break
    return out


def _fix_weights(f: LogFacts, gpu_name: str | None) -> list[str]:
    fixes = []
    spec = _spec(f)
    card, vram = _card(f, gpu_name)
    if spec is not None and (card is not None or vram):
        fixes += _quantized_alternatives(spec, card, vram, f.tp or 1)
    if f.engine in ("llamacpp", "ollama"):
        size = f" ({f.alloc_gib:,.1f} GiB asked in one buffer)" if f.alloc_gib else ""
        fixes.append(
            f"llama.cpp{size}: fewer layers on the GPU (-ngl), --n-cpu-moe for MoE experts, "
            "or a smaller quant; "
            "`lmscreen model fit MODEL --engine llamacpp --gpu NAME` sizes -ngl"
        )
    elif f.engine == "sglang":
        fixes.append(
            "SGLang: the weights leave no room for a KV cache; a quantized checkpoint or more GPUs (--tp)"
        )
    if not fixes:
        fixes.append(
            "a quantized checkpoint (FP8 halves bf16 weights, 4-bit quarters them) or more GPUs (TP)"
        )
    return fixes


def _fix_graph(f: LogFacts, gpu_name: str | None) -> list[str]:
    util = f.gpu_memory_utilization or 0.9
    return [
        f"--gpu-memory-utilization {max(util - 0.05, 0.5):.2f} (now {util:.2f}): leaves room for the graphs "
        "captured after the KV cache is allocated",
        "or --enforce-eager (no CUDA graphs; slower decode), or fewer capture sizes (--max-num-seqs 64)",
    ]


def _fix_template(f: LogFacts, gpu_name: str | None) -> list[str]:
    model = f.model or "MODEL"
    return [
        f"{model} ships no chat template (a base model, or a tokenizer_config.json without one): use its "
        "-Instruct / -Chat release, or pass --chat-template FILE (vLLM / SGLang) / --chat-template NAME "
        "(llama.cpp)",
        f"`lmscreen model launch {model} --engine vllm` prints the command with the family's template flags",
    ]


def _fix_arch(f: LogFacts, gpu_name: str | None) -> list[str]:
    arch = f.architecture or "this architecture"
    if f.engine in ("llamacpp", "ollama"):
        return [
            f"this llama.cpp / Ollama build does not know {arch}: upgrade it, "
            "or use a GGUF of a supported model"
        ]
    return [
        f"this vLLM does not implement {arch}: upgrade vLLM (`lmscreen model launch` names the version it "
        "targets), pass --trust-remote-code if the model ships its own code, "
        "or serve it with SGLang / llama.cpp"
    ]


def _fix_broken(f: LogFacts, gpu_name: str | None) -> list[str]:
    return [
        f"{f.architecture} is in vLLM's own supported list: its model code failed to import; read the first "
        "traceback above this error (a mismatched torch / flash-attn / transformers build) and "
        "reinstall vLLM in a clean environment"
    ]


def _fix_name(f: LogFacts, gpu_name: str | None) -> list[str]:
    served = f.served_names or ([f.model] if f.model else [])
    if served:
        return [
            f"ask for model {served[0]!r} (what the server serves), or start it with --served-model-name "
            f"{f.requested_name or 'NAME'}",
            "`lmscreen doctor --base-url URL` lists the names the server really serves",
        ]
    return ["call GET /v1/models for the served name, or start the server with --served-model-name NAME"]


_FIXES = {
    "kv_cache_too_small": _fix_kv,
    "weights_too_large": _fix_weights,
    "cuda_graph_oom": _fix_graph,
    "no_chat_template": _fix_template,
    "unknown_architecture": _fix_arch,
    "broken_install": _fix_broken,
    "wrong_model_name": _fix_name,
}
