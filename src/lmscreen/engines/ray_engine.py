"""The Ray engine: a Ray Data pipeline whose workers each hold a real engine, answers streamed to the driver.

Why it is built the way it is:
- The rows that need the LLM become one dataset; `map_batches` runs over a fixed actor pool
  (`compute=ActorPoolStrategy(size=workers)`) in which each actor loads one engine once: the embedded
  llama.cpp engine on CPU workers for a GGUF model, vLLM on GPU workers (`num_gpus` = its tensor parallel
  size) for a Hugging Face model. Loading per actor, not per batch, is what makes a pool worth having.
- Answers come back to the driver as batches finish (`iter_batches` streams, order not preserved) and are
  yielded at once, so the runner commits each to the checkpoint: a crash loses only the batches in flight,
  and a rerun sends only rows the checkpoint lacks (the runner filters them before calling `run`).
- A worker that dies is restarted by Ray Data and its batch retried (actor pool defaults: unlimited
  restarts and task retries). The driver passes each key on once, so a retried batch never yields a row
  twice; a row that never came back is yielded as an error, so it is retried on the next run.
- The driver never loads the model: it counts tokens with a vocabulary-only load (GGUF) or the model's
  tokenizer files (Hugging Face), and the run's identity is computed from the model file, not from a
  worker, so checkpoint keys are known before any worker starts.
"""

from __future__ import annotations

import json
import logging
import os
import socket
import sys
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from lmscreen.engines.protocol import LLMRequest, LLMResult
from lmscreen.errors import InputError

EXTRA_HINT = "pip install 'lmscreen[ray]'"
BATCH_ROWS = {"embedded": 1, "vllm": 256}
"""Rows per map_batches call: one on CPU (a row takes seconds there, so a Ray task per row costs nothing
and each answer is checkpointed the moment it exists), many on a GPU (vLLM is fast only with many
requests at once)."""
RESULT_FIELDS = (
    "text",
    "error",
    "finish_reason",
    "prompt_tokens",
    "completion_tokens",
    "cached_prompt_tokens",
    "seconds",
)


def inner_kind(model: str | None) -> str:
    """Which engine the workers hold: embedded for a GGUF file (or the bundled model), vLLM otherwise."""
    if model is None or str(model).lower().endswith(".gguf"):
        return "embedded"
    return "vllm"


@dataclass
class RayPlan:
    """How the pipeline is laid out on the cluster (recorded in run.json)."""

    workers: int
    batch_rows: int
    num_cpus: float
    num_gpus: float
    threads: int
    cluster_cpus: float
    cluster_gpus: float


def plan_workers(
    kind: str, cluster_cpus: float, cluster_gpus: float, workers: int | None, tp: int | None = None
) -> RayPlan:
    """Size the actor pool. CPU actors leave half a core free: a pool that holds every CPU can starve
    Ray Data's own tasks and hang (ray issue #44687)."""
    if kind == "vllm":
        per = float(tp or 1)
        n = workers or max(1, int(cluster_gpus // per))
        return RayPlan(n, BATCH_ROWS[kind], 1.0, per, 1, cluster_cpus, cluster_gpus)
    n = workers or max(1, int(cluster_cpus) - 1)
    usable = max(0.5, cluster_cpus - 0.5)
    num_cpus = round(min(1.0, usable / n), 3)
    threads = max(1, int(cluster_cpus // n) - (1 if cluster_cpus // n > 2 else 0))
    return RayPlan(n, BATCH_ROWS[kind], num_cpus, 0.0, threads, cluster_cpus, cluster_gpus)


class EngineActor:
    """One Ray Data actor: loads its engine once, answers a batch of requests per call."""

    def __init__(self, inner_opts: Any, threads: int) -> None:
        from lmscreen.engines import make_engine
        from lmscreen.engines.threads import THREADS_ENV, choose_threads

        if THREADS_ENV not in os.environ:
            # The actor's share of the node, and no more than the node's idle cores: llama.cpp threads
            # busy-wait, so on a loaded node extra threads slow every process down.
            os.environ[THREADS_ENV] = str(min(threads, choose_threads()))

        self.engine = make_engine(inner_opts)
        self.worker = f"{socket.gethostname()}:{os.getpid()}"

    def __call__(self, batch: dict[str, Any]) -> dict[str, list[str]]:
        """Results travel as one JSON string per row: columns that are all None in one batch and text in
        another would give blocks of different Arrow types."""
        requests = [
            LLMRequest(key=str(k), **json.loads(str(payload)))
            for k, payload in zip(batch["key"], batch["request"], strict=True)
        ]
        out: dict[str, list[str]] = {"key": [], "result": []}
        for result in self.engine.run(requests):
            fields = {name: getattr(result, name) for name in RESULT_FIELDS}
            fields["worker"] = self.worker
            out["key"].append(result.key)
            out["result"].append(json.dumps(fields, ensure_ascii=False))
        return out


class RayEngine:
    """Requests fanned out over a Ray Data actor pool; results streamed back as batches finish."""

    name = "ray"

    def __init__(
        self,
        inner_opts: Any,
        *,
        address: str | None = None,
        workers: int | None = None,
        batch_rows: int | None = None,
        progress: bool = True,
    ) -> None:
        self.kind = inner_kind(inner_opts.model)
        self._inner_opts = replace(inner_opts, engine=self.kind)
        self.model = str(self._inner_opts.model or "")
        self._counter = _token_counter(self.kind, self._inner_opts)
        self.model = self._counter.model
        self._identity = self._counter.identity
        self._ray = _import_ray()
        self._own_ray = False
        self._connect(address)
        resources = self._ray.cluster_resources()
        self.layout = plan_workers(
            self.kind,
            float(resources.get("CPU", 1)),
            float(resources.get("GPU", 0)),
            workers,
            getattr(inner_opts, "tp", None),
        )
        if batch_rows:
            self.layout.batch_rows = batch_rows
        if self.kind == "vllm" and self.layout.cluster_gpus < self.layout.num_gpus:
            raise InputError(
                f"--engine ray with a Hugging Face model runs vLLM on GPU workers, but the Ray cluster "
                f"has {self.layout.cluster_gpus:g} GPUs (use a .gguf model for CPU workers)"
            )
        self._progress = progress
        self.duplicates_dropped = 0
        self.per_worker: dict[str, int] = {}

    def _connect(self, address: str | None) -> None:
        ray = self._ray
        if ray.is_initialized():
            return
        kwargs: dict[str, Any] = {"include_dashboard": False, "logging_level": "WARNING"}
        if address:
            kwargs["address"] = address
        else:
            from lmscreen.engines.threads import usable_cores

            kwargs["num_cpus"] = usable_cores()
        try:
            ray.init(**kwargs)
        except (ConnectionError, RuntimeError, ValueError) as exc:
            if not address:
                raise
            raise InputError(f"--ray-address {address}: cannot join the Ray cluster: {exc}") from None
        self._own_ray = True

    # -- protocol -------------------------------------------------------------------------------------
    def count_tokens(self, text: str) -> int:
        return self._counter.count(text)

    def describe(self) -> dict[str, Any]:
        identity = {"engine": self.name, "inner": self._identity}
        return {
            **identity,
            "model": self.model,
            "identity": identity,
            "workers": self.layout.workers,
            "batch_rows": self.layout.batch_rows,
            "num_cpus_per_worker": self.layout.num_cpus,
            "num_gpus_per_worker": self.layout.num_gpus,
            "threads_per_worker": self.layout.threads,
            "cluster_cpus": self.layout.cluster_cpus,
            "cluster_gpus": self.layout.cluster_gpus,
            "ray": str(getattr(self._ray, "__version__", "unknown")),
        }

    def run(self, requests: Iterable[LLMRequest]) -> Iterator[LLMResult]:
        items = [
            {
                "key": r.key,
                "request": json.dumps(
                    {"messages": r.messages, "schema": r.schema, "max_tokens": r.max_tokens},
                    ensure_ascii=False,
                ),
            }
            for r in requests
        ]
        if not items:
            return
        ray = self._ray
        # lmscreen's own progress bar shows rows/s across workers; Ray Data's bars and INFO lines would
        # interleave with it on stderr.
        logging.getLogger("ray.data").setLevel(logging.WARNING)
        ctx = ray.data.DataContext.get_current()
        ctx.enable_progress_bars = False
        ctx.verbose_progress = False
        lay = self.layout
        pool = min(lay.workers, max(1, -(-len(items) // lay.batch_rows)))
        blocks = max(1, -(-len(items) // lay.batch_rows))
        ds = ray.data.from_items(items, override_num_blocks=blocks)
        answered = ds.map_batches(
            EngineActor,
            batch_size=lay.batch_rows,
            batch_format="numpy",
            compute=ray.data.ActorPoolStrategy(size=pool),
            fn_constructor_kwargs={"inner_opts": self._inner_opts, "threads": lay.threads},
            num_cpus=lay.num_cpus,
            num_gpus=lay.num_gpus or None,
        )
        expected = {item["key"] for item in items}
        seen: set[str] = set()
        started = time.perf_counter()
        for batch in answered.iter_batches(batch_size=None, batch_format="numpy"):
            for row in _rows(batch):
                key = row["key"]
                if key in seen or key not in expected:
                    self.duplicates_dropped += 1
                    continue
                seen.add(key)
                self.per_worker[row["worker"]] = self.per_worker.get(row["worker"], 0) + 1
                yield _result(row)
        for key in sorted(expected - seen):
            yield LLMResult(key=key, text=None, error="ray: no answer came back for this row")
        if self._progress:
            elapsed = max(time.perf_counter() - started, 1e-9)
            print(
                f"ray: {len(seen)} rows in {elapsed:.1f}s ({len(seen) / elapsed:.2f} rows/s) across "
                f"{len(self.per_worker)} worker process(es)",
                file=sys.stderr,
            )

    def close(self) -> None:
        if self._own_ray and self._ray.is_initialized():
            self._ray.shutdown()
        self._own_ray = False


def _rows(batch: dict[str, Any]) -> Iterator[dict[str, Any]]:
    for key, payload in zip(batch["key"], batch["result"], strict=True):
        yield {"key": str(key), **json.loads(str(payload))}


def _result(row: dict[str, Any]) -> LLMResult:
    return LLMResult(
        key=str(row["key"]),
        text=row["text"],
        error=row["error"],
        finish_reason=row["finish_reason"],
        prompt_tokens=int(row["prompt_tokens"] or 0),
        completion_tokens=int(row["completion_tokens"] or 0),
        cached_prompt_tokens=int(row["cached_prompt_tokens"] or 0),
        seconds=float(row["seconds"] or 0.0),
        extra={"worker": row["worker"]},
    )


def _import_ray() -> Any:
    try:
        import ray
        import ray.data
    except ImportError as exc:
        raise InputError(f"--engine ray needs the optional extra ray ({EXTRA_HINT}): {exc}") from None
    return ray


# -- the driver's token counter and run identity (no model load) ---------------------------------------


@dataclass
class _Counter:
    model: str
    identity: dict[str, Any]
    tokenize: Any

    def count(self, text: str) -> int:
        return len(self.tokenize(text))


def _token_counter(kind: str, opts: Any) -> _Counter:
    if kind == "embedded":
        return _gguf_counter(opts)
    return _hf_counter(opts)


def _gguf_counter(opts: Any) -> _Counter:
    from lmscreen.engines.embedded import _llama_cpp_version, default_model_path, file_fingerprint

    path = Path(opts.model) if opts.model else default_model_path()
    if not path.is_file():
        raise InputError(f"{path}: model file not found")
    from llama_cpp import Llama

    vocab = Llama(model_path=str(path), vocab_only=True, verbose=False)
    identity = {
        "engine": "embedded",
        "model_file": path.name,
        "model_fingerprint": file_fingerprint(str(path)),
        "n_ctx": opts.n_ctx,
        "temperature": 0.0,
        "seed": 0,
        "llama_cpp_python": _llama_cpp_version(),
    }
    return _Counter(
        str(path),
        identity,
        lambda text: vocab.tokenize(text.encode("utf-8"), add_bos=False, special=False),
    )


def _hf_counter(opts: Any) -> _Counter:
    from importlib import metadata

    try:
        from transformers import AutoTokenizer
    except ImportError:
        raise InputError(
            "--engine ray with a Hugging Face model needs transformers on the driver (pip install "
            "'lmscreen[vllm]')"
        ) from None
    try:
        tok = AutoTokenizer.from_pretrained(str(opts.model), local_files_only=True)
    except OSError as exc:
        raise InputError(f"{opts.model}: no tokenizer in the local folder or HF cache: {exc}") from None
    from lmscreen.engines.vllm_engine import DEFAULT_CHAT_TEMPLATE_KWARGS

    try:
        vllm_version = metadata.version("vllm")
    except metadata.PackageNotFoundError:
        vllm_version = "unknown"
    identity = {
        "engine": "vllm",
        "model": str(opts.model),
        "temperature": 0.0,
        "seed": 0,
        "structured_output_backend": "xgrammar",
        "chat_template_kwargs": opts.chat_template_kwargs
        if opts.chat_template_kwargs is not None
        else DEFAULT_CHAT_TEMPLATE_KWARGS,
        "vllm": vllm_version,
    }
    return _Counter(str(opts.model), identity, lambda text: tok.encode(text, add_special_tokens=False))


def make_ray_engine(opts: Any) -> RayEngine:
    return RayEngine(
        opts,
        address=getattr(opts, "ray_address", None),
        workers=getattr(opts, "workers", None),
        progress=getattr(opts, "progress", True),
    )
