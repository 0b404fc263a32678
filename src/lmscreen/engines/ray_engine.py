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
- The driver never loads the model: it counts tokens with the inner plugin's `token_counter` (a
  vocabulary-only load for GGUF, the tokenizer files for Hugging Face), and the run's identity is the
  inner plugin's own `identity(settings)`, asked for, never written out here: a changed default of the
  embedded or vLLM engine changes the Ray run's identity with it, so old checkpoint answers are not reused.
  Every worker checks that the engine it created says the same identity (another llama.cpp or vLLM version
  on that node would not); a worker that differs answers every row with an error, never with text.
- This module imports only the registry and the protocol from the other engines (no private names, no
  import cycle): the inner engine is created on each worker by `plugin(inner).create(settings)`.
"""

from __future__ import annotations

import json
import logging
import os
import socket
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from lmscreen.engines.options import opt_int, opt_str
from lmscreen.engines.protocol import CountsTokens, LLMRequest, LLMResult
from lmscreen.engines.registry import plugin as find_plugin
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
    """One Ray Data actor: creates its engine once, answers a batch of requests per call."""

    def __init__(self, inner: str, settings: Any, threads: int, identity: dict[str, Any]) -> None:
        from lmscreen.engines.threads import THREADS_ENV, choose_threads

        if THREADS_ENV not in os.environ:
            # The actor's share of the node, and no more than the node's idle cores: llama.cpp threads
            # busy-wait, so on a loaded node extra threads slow every process down.
            os.environ[THREADS_ENV] = str(min(threads, choose_threads()))

        self.engine = find_plugin(inner).create(settings)
        self.worker = f"{socket.gethostname()}:{os.getpid()}"
        self.mismatch = identity_mismatch(identity, self.engine.identity())

    def __call__(self, batch: dict[str, Any]) -> dict[str, list[str]]:
        """Results travel as one JSON string per row: columns that are all None in one batch and text in
        another would give blocks of different Arrow types."""
        requests = [
            LLMRequest(key=str(k), **json.loads(str(payload)))
            for k, payload in zip(batch["key"], batch["request"], strict=True)
        ]
        if self.mismatch:
            error = f"ray worker {self.worker}: its engine's identity is not the driver's ({self.mismatch})"
            results: Iterable[LLMResult] = (LLMResult(key=r.key, text=None, error=error) for r in requests)
        else:
            results = self.engine.run(requests)
        out: dict[str, list[str]] = {"key": [], "result": []}
        for result in results:
            fields = {name: getattr(result, name) for name in RESULT_FIELDS}
            fields["worker"] = self.worker
            out["key"].append(result.key)
            out["result"].append(json.dumps(fields, ensure_ascii=False))
        return out


def identity_mismatch(expected: dict[str, Any], got: dict[str, Any]) -> str:
    """Empty when equal, else the differing keys with both values (for the row's error)."""
    keys = sorted(set(expected) | set(got))
    diffs = [f"{k}: {expected.get(k)!r} vs {got.get(k)!r}" for k in keys if expected.get(k) != got.get(k)]
    return "; ".join(diffs)


@dataclass(frozen=True)
class RaySettings:
    """What `--engine ray` runs with: the inner engine's own settings, and how to lay out the pool."""

    inner: str
    """embedded (a .gguf model or the bundled one) or vllm (a Hugging Face model)."""
    inner_settings: Any
    """The inner plugin's typed settings, built by that plugin from the same CLI options."""
    address: str | None = None
    workers: int | None = None
    batch_rows: int | None = None
    """Rows per map_batches call; None: BATCH_ROWS of the inner engine."""
    progress: bool = True


class RayPlugin:
    """The `ray` entry point: another engine's plugin, run on every worker of a Ray Data actor pool."""

    name = "ray"

    def settings(self, options: Mapping[str, Any]) -> RaySettings:
        kind = inner_kind(opt_str(options, "model"))
        inner_settings = find_plugin(kind).settings({**options, "engine": kind})
        return RaySettings(
            inner=kind,
            inner_settings=inner_settings,
            address=opt_str(options, "ray_address"),
            workers=opt_int(options, "workers", None),
            progress=bool(options.get("progress", True)),
        )

    def identity(self, settings: RaySettings) -> dict[str, Any]:
        """The inner engine's identity, as its own plugin says it (the pool's layout changes no answer)."""
        return {"engine": self.name, "inner": find_plugin(settings.inner).identity(settings.inner_settings)}

    def create(self, settings: RaySettings) -> RayEngine:
        return RayEngine(settings)


plugin = RayPlugin()


class RayEngine:
    """Requests fanned out over a Ray Data actor pool; results streamed back as batches finish."""

    name = "ray"

    def __init__(self, settings: RaySettings) -> None:
        self.settings = settings
        self.kind = settings.inner
        inner = find_plugin(self.kind)
        if not isinstance(inner, CountsTokens):
            raise InputError(f"--engine ray cannot run {self.kind}: its plugin has no token_counter()")
        self.model = str(getattr(settings.inner_settings, "model", "") or "")
        self._identity = plugin.identity(settings)
        self._count: Callable[[str], int] = inner.token_counter(settings.inner_settings)
        self._ray = _import_ray()
        self._own_ray = False
        self._connect(settings.address)
        resources = self._ray.cluster_resources()
        self.layout = plan_workers(
            self.kind,
            float(resources.get("CPU", 1)),
            float(resources.get("GPU", 0)),
            settings.workers,
            getattr(settings.inner_settings, "tp", None),
        )
        if settings.batch_rows:
            self.layout.batch_rows = settings.batch_rows
        if self.kind == "vllm" and self.layout.cluster_gpus < self.layout.num_gpus:
            raise InputError(
                f"--engine ray with a Hugging Face model runs vLLM on GPU workers, but the Ray cluster "
                f"has {self.layout.cluster_gpus:g} GPUs (use a .gguf model for CPU workers)"
            )
        self._progress = settings.progress
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
        return self._count(text)

    def identity(self) -> dict[str, Any]:
        """Computed once, from the inner plugin, when the engine was created (see RayPlugin.identity)."""
        return self._identity

    def describe(self) -> dict[str, Any]:
        identity = self.identity()
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
            fn_constructor_kwargs={
                "inner": self.kind,
                "settings": self.settings.inner_settings,
                "threads": lay.threads,
                "identity": self._identity["inner"],
            },
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
