"""The vLLM engine: `vllm.LLM` in-process on a GPU, answering requests chunk by chunk.

Why it is built the way it is:
- Requests go to vLLM in chunks, not in one call: vLLM returns nothing until a call finishes, so a crash or
  kill mid-call loses that call. Each chunk's answers are yielded as soon as the chunk returns and the
  runner commits them, so at most one chunk is ever lost. Within a chunk, requests are sorted by prompt
  length so that the batches vLLM schedules pad and preempt less.
- One bad request fails a whole `LLM.chat` call, so every schema is checked against the pinned backend
  first (vllm_schema.py) and a chunk that vLLM still rejects as invalid input is split in halves until the
  offending row is alone; that row fails, the others are answered.
- Settings that vLLM picks silently are pinned: `max_tokens` (its default is 16, which cuts every JSON
  answer), prefix caching (hybrid models default it off; every row shares our system prompt), one
  structured-output backend (mixing backends under "auto" crashes the engine), greedy decoding and a seed.
- Every call into vLLM goes through one small seam (`VllmCalls` in vllm_seam.py, implemented in
  vllm_backend.py), so the
  request building, chunking and error handling here are tested without vLLM or a GPU.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from lmscreen.engines.options import opt_dict, opt_fraction, opt_int, opt_str
from lmscreen.engines.protocol import LLMRequest, LLMResult
from lmscreen.engines.vllm_schema import SchemaRejected, grammar_schema
from lmscreen.engines.vllm_seam import ChatOutput, VllmCalls
from lmscreen.errors import InputError

DEFAULT_CHUNK_ROWS = 256
"""Rows per `LLM.chat` call: enough to keep a GPU's batch full, few enough that a crash costs little."""
DEFAULT_CHAT_TEMPLATE_KWARGS: dict[str, Any] = {"enable_thinking": False}
"""Thinking models would be forced straight into the JSON grammar anyway; templates without the switch
ignore it."""
DEFAULT_SEED = 0
TEMPERATURE = 0.0
DEFAULT_BACKEND = "xgrammar"
"""One pinned structured-output backend: mixing backends under "auto" crashes the engine."""


@dataclass
class VllmSettings:
    model: str
    gpu_memory_utilization: float | None = None
    max_model_len: int | None = None
    tp: int | None = None
    backend: str = DEFAULT_BACKEND
    enable_prefix_caching: bool = True
    seed: int = DEFAULT_SEED
    temperature: float = TEMPERATURE
    chunk_rows: int = DEFAULT_CHUNK_ROWS
    chat_template_kwargs: dict[str, Any] = field(default_factory=lambda: dict(DEFAULT_CHAT_TEMPLATE_KWARGS))
    planned: dict[str, Any] = field(default_factory=dict)
    """What `lmscreen model fit` chose for this GPU (recorded in run.json)."""

    def llm_kwargs(self) -> dict[str, Any]:
        """Keyword arguments for `vllm.LLM(...)`: every setting that changes answers or memory, explicit."""
        kwargs: dict[str, Any] = {
            "model": self.model,
            "seed": self.seed,
            "enable_prefix_caching": self.enable_prefix_caching,
            "structured_outputs_config": {"backend": self.backend},
            "tensor_parallel_size": self.tp or 1,
        }
        if self.gpu_memory_utilization is not None:
            kwargs["gpu_memory_utilization"] = self.gpu_memory_utilization
        if self.max_model_len is not None:
            kwargs["max_model_len"] = self.max_model_len
        return kwargs


def sampling_for(
    request: LLMRequest, grammar: dict[str, Any], seed: int, temperature: float = TEMPERATURE
) -> dict[str, Any]:
    """The SamplingParams of one request, as plain data (vllm_backend turns it into the real object)."""
    if request.max_tokens < 1:
        raise ValueError(f"max_tokens must be positive (got {request.max_tokens})")
    return {
        "temperature": temperature,
        "max_tokens": int(request.max_tokens),
        "seed": seed,
        "structured_outputs": {"json": grammar},
    }


def chunked(requests: Iterable[LLMRequest], size: int) -> Iterator[list[LLMRequest]]:
    chunk: list[LLMRequest] = []
    for request in requests:
        chunk.append(request)
        if len(chunk) >= size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


class VllmEngine:
    """vLLM in-process; one `LLM.chat` call per chunk of requests."""

    name = "vllm"

    def __init__(self, settings: VllmSettings, calls: VllmCalls | None = None) -> None:
        if settings.chunk_rows < 1:
            raise InputError(f"vLLM chunk size must be positive (got {settings.chunk_rows})")
        self.settings = settings
        self.model = settings.model
        if calls is None:
            from lmscreen.engines.vllm_backend import load_vllm

            calls = load_vllm(settings.llm_kwargs())
        self._calls = calls
        self.relaxed: set[str] = set()
        self.chunks_done = 0

    # -- protocol -------------------------------------------------------------------------------------
    def count_tokens(self, text: str) -> int:
        return self._calls.count_tokens(text)

    def identity(self) -> dict[str, Any]:
        """The same function the plugin answers with before any load (see `vllm_identity`)."""
        return vllm_identity(self.settings)

    def describe(self) -> dict[str, Any]:
        s = self.settings
        identity = self.identity()
        return {
            **self._calls.describe(),
            **identity,
            "identity": identity,
            "enable_prefix_caching": s.enable_prefix_caching,
            "gpu_memory_utilization": s.gpu_memory_utilization,
            "max_model_len": s.max_model_len,
            "tensor_parallel_size": s.tp or 1,
            "chunk_rows": s.chunk_rows,
            "planned": s.planned,
            "grammar_relaxed": sorted(self.relaxed),
        }

    def run(self, requests: Iterable[LLMRequest]) -> Iterator[LLMResult]:
        for chunk in chunked(requests, self.settings.chunk_rows):
            yield from self._run_chunk(chunk)
            self.chunks_done += 1

    def close(self) -> None:
        self._calls.close()

    # -- internals ------------------------------------------------------------------------------------
    def _run_chunk(self, chunk: list[LLMRequest]) -> Iterator[LLMResult]:
        ready: list[tuple[int, LLMRequest, dict[str, Any]]] = []
        for request in chunk:
            try:
                grammar = grammar_schema(request.schema, self.settings.backend)
                sampling = sampling_for(
                    request, grammar.schema, self.settings.seed, self.settings.temperature
                )
            except (SchemaRejected, ValueError) as exc:
                yield LLMResult(key=request.key, text=None, error=f"request rejected before vLLM: {exc}")
                continue
            self.relaxed.update(grammar.relaxed)
            ready.append((self._prompt_size(request), request, sampling))
        ready.sort(key=lambda item: item[0])
        yield from self._call([(r, sp) for _, r, sp in ready])

    def _prompt_size(self, request: LLMRequest) -> int:
        return sum(self._calls.count_tokens(m.get("content", "")) for m in request.messages)

    def _call(self, batch: list[tuple[LLMRequest, dict[str, Any]]]) -> Iterator[LLMResult]:
        """One `LLM.chat`; on invalid input, halves until the bad request is alone and fails by itself."""
        if not batch:
            return
        started = time.perf_counter()
        try:
            outputs = self._calls.chat(
                [r.messages for r, _ in batch],
                [sp for _, sp in batch],
                self.settings.chat_template_kwargs or None,
            )
        except (ValueError, TypeError) as exc:
            if len(batch) == 1:
                yield LLMResult(
                    key=batch[0][0].key,
                    text=None,
                    error=f"vLLM rejected the request: {type(exc).__name__}: {exc}",
                    seconds=time.perf_counter() - started,
                )
                return
            half = len(batch) // 2
            print(
                f"lmscreen: vLLM rejected a chunk of {len(batch)} ({exc}); retrying in halves",
                file=sys.stderr,
            )
            yield from self._call(batch[:half])
            yield from self._call(batch[half:])
            return
        if len(outputs) != len(batch):
            raise RuntimeError(f"vLLM returned {len(outputs)} outputs for {len(batch)} requests")
        seconds = (time.perf_counter() - started) / len(batch)
        for (request, _), out in zip(batch, outputs, strict=True):
            yield _result(request, out, seconds)


def _result(request: LLMRequest, out: ChatOutput, seconds: float) -> LLMResult:
    truncated = out.finish_reason == "length"
    return LLMResult(
        key=request.key,
        text=out.text,
        error="truncated: the answer hit max_tokens" if truncated else None,
        finish_reason=out.finish_reason,
        prompt_tokens=out.prompt_tokens,
        completion_tokens=out.completion_tokens,
        cached_prompt_tokens=out.cached_tokens,
        seconds=seconds,
    )


# -- settings from the CLI, with `lmscreen model fit` defaults ------------------------------------------


def runtime_version() -> str:
    """The installed vLLM version, from its metadata (importing vLLM takes seconds and wants a GPU)."""
    from importlib import metadata

    try:
        return metadata.version("vllm")
    except metadata.PackageNotFoundError:
        return "unknown"


def vllm_identity(settings: VllmSettings) -> dict[str, Any]:
    """What an answer depends on, from the settings alone: the runner keys its checkpoint on it before
    any GPU is touched. Memory settings (utilization, max_model_len, tp, chunking) only change speed."""
    return {
        "engine": "vllm",
        "model": settings.model,
        "temperature": settings.temperature,
        "seed": settings.seed,
        "structured_output_backend": settings.backend,
        "chat_template_kwargs": settings.chat_template_kwargs,
        "vllm": runtime_version(),
    }


def settings_from_options(options: Mapping[str, Any]) -> VllmSettings:
    """VllmSettings for `--engine vllm` from the generic options; `model fit`'s plan fills the rest at
    creation, when the GPU is known."""
    model = opt_str(options, "model")
    if not model:
        raise InputError("--engine vllm needs --model (a Hugging Face model folder or id in the local cache)")
    kwargs = opt_dict(options, "chat_template_kwargs")
    return VllmSettings(
        model=model,
        gpu_memory_utilization=opt_fraction(options, "gpu_memory_utilization"),
        max_model_len=opt_int(options, "max_model_len", None, minimum=16),
        tp=opt_int(options, "tp", None),
        backend=DEFAULT_BACKEND,
        seed=DEFAULT_SEED,
        temperature=TEMPERATURE,
        chunk_rows=opt_int(options, "vllm_chunk_rows", None) or DEFAULT_CHUNK_ROWS,
        chat_template_kwargs=kwargs if kwargs is not None else dict(DEFAULT_CHAT_TEMPLATE_KWARGS),
    )


def fill_from_plan(settings: VllmSettings, vram_gib: float, gpus: int) -> VllmSettings:
    """Fill unset --tp / --gpu-memory-utilization / --max-model-len with what `model fit` would choose."""
    planned = planned_defaults(settings.model, vram_gib, gpus, settings.tp, settings.gpu_memory_utilization)
    settings.planned = planned
    if not planned.get("planned"):
        return settings
    if settings.tp is None:
        settings.tp = planned["tp"]
    if settings.gpu_memory_utilization is None:
        settings.gpu_memory_utilization = planned["gpu_memory_utilization"]
    if settings.max_model_len is None:
        settings.max_model_len = planned["max_model_len"]
    return settings


ESTIMATED = ("name-estimate", "name-only")
"""Resolutions that guessed the architecture from the name: fine for a printed plan with a warning, not for
settings vLLM is started with (a guessed max_model_len above the model's own stops vLLM at start-up)."""


def planned_defaults(
    model: str, vram_gib: float, gpus: int, tp: int | None, util: float | None
) -> dict[str, Any]:
    """The adapter to the model planner (`lmscreen model fit`): the only place this engine imports it.

    The model is found by the one resolver `model fit` uses (lmscreen.model.resolve), so both plan the
    same spec. Tries one GPU first (tensor parallelism costs speed), then every visible GPU when one is too
    small. A model the planner cannot read is not an error: vLLM's own defaults apply and the reason is
    recorded.
    """
    from lmscreen.model.memory import plan
    from lmscreen.model.resolve import resolve

    try:
        found = resolve(model)
    except (InputError, OSError, ValueError) as exc:
        return {"planned": False, "why": f"model fit could not read {model}: {exc}"}
    if found.how in ESTIMATED:
        return {
            "planned": False,
            "why": f"model fit could only estimate {model} from its name ({found.how}): vLLM's defaults",
        }
    candidates = [tp] if tp else sorted({1, gpus})
    result = None
    for n in candidates:
        result = plan(
            found.spec,
            vram_gib=vram_gib,
            gpus=n,
            tp=n,
            gpu_memory_utilization=util,
            engine="vllm",
            table=False,
        )
        if result.fits:
            break
    assert result is not None
    return {
        "planned": True,
        "resolved": found.how,
        "quantization": result.quantization,
        "fits": result.fits,
        "tp": result.tp,
        "gpu_memory_utilization": result.gpu_memory_utilization,
        "max_model_len": result.context,
        "max_concurrency": result.max_concurrency,
        "notes": list(result.notes),
    }


def make_vllm_engine(opts: Any) -> VllmEngine:
    """`--engine vllm` from a ScreenOptions (kept for scripts/gpu_check.py): settings, then create."""
    from dataclasses import asdict, is_dataclass

    options = asdict(opts) if is_dataclass(opts) else dict(vars(opts))
    return plugin.create(plugin.settings(options))


def hf_token_counter(model: str) -> Callable[[str], int]:
    """Counts as vLLM's tokenizer does, from the tokenizer files alone (local folder or HF cache)."""
    try:
        from transformers import AutoTokenizer
    except ImportError:
        raise InputError(
            "counting tokens for a Hugging Face model without loading it needs transformers "
            "(pip install 'lmscreen[vllm]')"
        ) from None
    try:
        tok = AutoTokenizer.from_pretrained(model, local_files_only=True)
    except OSError as exc:
        raise InputError(f"{model}: no tokenizer in the local folder or HF cache: {exc}") from None
    return lambda text: len(tok.encode(text, add_special_tokens=False))


class VllmPlugin:
    """The `vllm` entry point: vLLM in this process, on a GPU."""

    name = "vllm"

    def settings(self, options: Mapping[str, Any]) -> VllmSettings:
        return settings_from_options(options)

    def identity(self, settings: VllmSettings) -> dict[str, Any]:
        return vllm_identity(settings)

    def create(self, settings: VllmSettings) -> VllmEngine:
        """Check the extra and the GPU, plan what the user left unset, load the model. Works on a copy:
        the caller's settings (and so their identity) stay as they were."""
        from dataclasses import replace

        from lmscreen.engines.vllm_backend import visible_gpus

        settings = replace(settings, planned={})
        gpus, vram_gib = visible_gpus()
        fill_from_plan(settings, vram_gib, gpus)
        if settings.planned.get("planned") and not settings.planned.get("fits"):
            print(
                f"lmscreen: warning: model fit says {settings.model} does not fit {gpus} × {vram_gib:.0f} "
                f"GiB as planned; trying anyway ({'; '.join(settings.planned.get('notes', [])[:2])})",
                file=sys.stderr,
            )
        return VllmEngine(settings)

    def token_counter(self, settings: VllmSettings) -> Callable[[str], int]:
        return hf_token_counter(settings.model)


plugin = VllmPlugin()
