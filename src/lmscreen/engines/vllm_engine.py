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
- Every call into vLLM goes through one small seam (`VllmCalls`, implemented in vllm_backend.py), so the
  request building, chunking and error handling here are tested without vLLM or a GPU.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol

from lmscreen.engines.protocol import LLMRequest, LLMResult
from lmscreen.engines.vllm_schema import SchemaRejected, grammar_schema
from lmscreen.errors import InputError

DEFAULT_CHUNK_ROWS = 256
"""Rows per `LLM.chat` call: enough to keep a GPU's batch full, few enough that a crash costs little."""
DEFAULT_CHAT_TEMPLATE_KWARGS: dict[str, Any] = {"enable_thinking": False}
"""Thinking models would be forced straight into the JSON grammar anyway; templates without the switch
ignore it."""


@dataclass
class ChatOutput:
    """What the engine needs from one vLLM `RequestOutput`."""

    text: str | None
    finish_reason: str | None
    prompt_tokens: int
    completion_tokens: int
    cached_tokens: int


class VllmCalls(Protocol):
    """The seam: everything the engine asks of vLLM."""

    def chat(
        self,
        conversations: list[list[dict[str, str]]],
        sampling: list[dict[str, Any]],
        chat_template_kwargs: dict[str, Any] | None,
    ) -> list[ChatOutput]:
        """One `LLM.chat` call; outputs in input order. Raises ValueError for invalid input."""
        ...

    def count_tokens(self, text: str) -> int: ...

    def describe(self) -> dict[str, Any]: ...

    def close(self) -> None: ...


@dataclass
class VllmSettings:
    model: str
    gpu_memory_utilization: float | None = None
    max_model_len: int | None = None
    tp: int | None = None
    backend: str = "xgrammar"
    enable_prefix_caching: bool = True
    seed: int = 0
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


def sampling_for(request: LLMRequest, grammar: dict[str, Any], seed: int) -> dict[str, Any]:
    """The SamplingParams of one request, as plain data (vllm_backend turns it into the real object)."""
    if request.max_tokens < 1:
        raise ValueError(f"max_tokens must be positive (got {request.max_tokens})")
    return {
        "temperature": 0.0,
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

            calls = load_vllm(settings)
        self._calls = calls
        self.relaxed: set[str] = set()
        self.chunks_done = 0

    # -- protocol -------------------------------------------------------------------------------------
    def count_tokens(self, text: str) -> int:
        return self._calls.count_tokens(text)

    def describe(self) -> dict[str, Any]:
        s = self.settings
        identity = {
            "engine": self.name,
            "model": self.model,
            "temperature": 0.0,
            "seed": s.seed,
            "structured_output_backend": s.backend,
            "chat_template_kwargs": s.chat_template_kwargs,
            **self._calls.describe(),
        }
        return {
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
                sampling = sampling_for(request, grammar.schema, self.settings.seed)
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


def settings_from_options(opts: Any) -> VllmSettings:
    """VllmSettings for `--engine vllm`: the user's flags win, `model fit`'s plan fills the rest."""
    if not opts.model:
        raise InputError("--engine vllm needs --model (a Hugging Face model folder or id in the local cache)")
    settings = VllmSettings(
        model=str(opts.model),
        gpu_memory_utilization=getattr(opts, "gpu_memory_utilization", None),
        max_model_len=getattr(opts, "max_model_len", None),
        tp=getattr(opts, "tp", None),
        chat_template_kwargs=(
            opts.chat_template_kwargs
            if opts.chat_template_kwargs is not None
            else dict(DEFAULT_CHAT_TEMPLATE_KWARGS)
        ),
    )
    util = settings.gpu_memory_utilization
    if util is not None and not 0 < util <= 1:
        raise InputError(f"--gpu-memory-utilization must be in (0, 1] (got {util})")
    chunk = getattr(opts, "vllm_chunk_rows", None)
    if chunk:
        settings.chunk_rows = int(chunk)
    return settings


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


def planned_defaults(
    model: str, vram_gib: float, gpus: int, tp: int | None, util: float | None
) -> dict[str, Any]:
    """The adapter to the model planner (`lmscreen model fit`): the only place this engine imports it.

    Tries one GPU first (tensor parallelism costs speed), then every visible GPU when one is too small.
    A model the planner cannot read is not an error: vLLM's own defaults apply and the reason is recorded.
    """
    from lmscreen.model.arch import inspect
    from lmscreen.model.memory import plan

    try:
        spec = inspect(model)
    except (InputError, OSError, ValueError) as exc:
        return {"planned": False, "why": f"model fit could not read {model}: {exc}"}
    candidates = [tp] if tp else sorted({1, gpus})
    result = None
    for n in candidates:
        result = plan(
            spec,
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
        "fits": result.fits,
        "tp": result.tp,
        "gpu_memory_utilization": result.gpu_memory_utilization,
        "max_model_len": result.context,
        "max_concurrency": result.max_concurrency,
        "notes": list(result.notes),
    }


def make_vllm_engine(opts: Any) -> VllmEngine:
    """`--engine vllm`: check the extra and the GPU, plan defaults, load the model."""
    from lmscreen.engines.vllm_backend import visible_gpus

    settings = settings_from_options(opts)
    gpus, vram_gib = visible_gpus()
    fill_from_plan(settings, vram_gib, gpus)
    if settings.planned.get("planned") and not settings.planned.get("fits"):
        print(
            f"lmscreen: warning: model fit says {settings.model} does not fit {gpus} × {vram_gib:.0f} GiB "
            f"as planned; trying anyway ({'; '.join(settings.planned.get('notes', [])[:2])})",
            file=sys.stderr,
        )
    return VllmEngine(settings)
