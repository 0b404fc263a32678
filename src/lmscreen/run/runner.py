"""The one durable runner every task runs on: keyed items in, each item's result out, in item order.

A task (screen, compare, brief …) says three things: what an item's answer depends on (`key_parts`), how
to ask about it (`request`), and what an answer means (`result`). The runner owns everything between:
the checkpoint signature (task settings + the engine's identity), the checkpoint itself (one committed
answer per item, so a SIGKILL loses nothing finished and never duplicates), resume, sorting by length for
batching engines, progress with ETA, and the engine's life.

Why the engine is created so late: building it can cost minutes (vLLM's GPU start-up, a Ray cluster) or
fail (a server that is down), and a run whose items are all answered already, or that has no item at all,
must not pay for or fail on it. The checkpoint is opened first, so a damaged or locked one is reported
before anything slow; then the engine's identity is asked for (cheap: a file fingerprint, a version), the
keys computed, and the engine created only if some item still needs an answer.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, Protocol, TypeVar

from lmscreen.engines.protocol import Engine, LLMRequest, LLMResult
from lmscreen.errors import InputError
from lmscreen.run import checkpoint as ckpt_mod
from lmscreen.run.keys import item_key, run_signature
from lmscreen.run.progress import RowProgress

ItemT = TypeVar("ItemT")
ResultT = TypeVar("ResultT", covariant=True)


class Prompt(Protocol):
    """What a task's question must carry: the chat messages and the JSON schema of a valid answer."""

    messages: list[dict[str, str]]
    schema: dict[str, Any]


class Task(Protocol[ItemT, ResultT]):
    """One kind of question asked of many items. A new command is a new task; the runner never changes."""

    name: str
    max_tokens: int

    def signature(self) -> dict[str, Any]:
        """What every answer depends on besides the item and the engine (prompt hash, budgets, version)."""
        ...

    def key(self, item: ItemT) -> tuple[int, str, tuple[str, ...]]:
        """(ordinal, label, parts): the item's place as the user knows it (a pool row, a document's index)
        and a short name for it (a code, a file name), both stored beside the answer so a person can read a
        checkpoint; and everything of the item its answer depends on (code, name, the filing's digest),
        hashed into the key. InputError / OSError marks the item unreadable (it fails alone)."""
        ...

    def size(self, item: ItemT) -> int:
        """A length measure for bucketing (bytes of its text): similar lengths batch with less padding."""
        ...

    def request(
        self, item: ItemT, count_tokens: Callable[[str], int]
    ) -> tuple[Prompt, dict[str, Any] | None]:
        """The question for one item, and what the runner should keep beside its answer (`extra`)."""
        ...

    def result(self, item: ItemT, answer: LLMResult) -> ResultT:
        """What an answer (fresh or from the checkpoint, or an error) means for the item. Never raises on
        model output: re-derived on every run, so changed rules never need the model again."""
        ...


@dataclass
class EngineSource:
    """An engine that is not built yet: its identity now, the engine itself only when an item needs it."""

    name: str
    identity: Callable[[], dict[str, Any]]
    """Everything that changes an answer, known without loading the model."""
    create: Callable[[], Engine]
    owned: bool = True
    """Whether the runner closes the engine it created (False for one the caller lent, already loaded)."""

    @classmethod
    def of(cls, engine: Engine) -> EngineSource:
        """A caller's already loaded engine (benchmarks, tests, a long-lived process)."""
        return cls(engine.name, engine.identity, lambda: engine, owned=False)


@dataclass
class Outcome(Generic[ResultT]):
    """Every item's result in item order, the unreadable items, and what run.json records."""

    results: list[Any]
    unreadable: list[tuple[Any, str]]
    info: dict[str, Any] = field(default_factory=dict)


@dataclass
class _Keyed(Generic[ItemT]):
    item: ItemT
    ordinal: int
    label: str
    key: str


def run_items(
    task: Task[ItemT, ResultT],
    items: Sequence[ItemT],
    engine: EngineSource,
    out_dir: Path,
    *,
    progress: bool = True,
) -> Outcome[ResultT]:
    """Answer every item (reusing committed answers), then derive each item's result in item order.

    The caller holds OUT's lock (run/outdir.py) for the whole run; `--fresh` is the caller's removal of the
    checkpoint before this is called.
    """
    if not items:  # nothing to ask: no checkpoint, no identity, no engine
        return Outcome([], [], {"items": 0, "resumed": 0, "sent": 0, "failed": 0, "engine_created": False})
    store = ckpt_mod.Checkpoint(out_dir)  # damage and locks are reported before anything slow
    try:
        return _run(task, items, engine, store, progress)
    finally:
        store.close()


def _run(
    task: Task[ItemT, ResultT],
    items: Sequence[ItemT],
    source: EngineSource,
    store: ckpt_mod.Checkpoint,
    progress: bool,
) -> Outcome[ResultT]:
    identity = source.identity()
    signature = run_signature({"engine": identity, "task": task.signature()})
    keyed: list[_Keyed[ItemT]] = []
    unreadable: list[tuple[ItemT, str]] = []
    for item in items:
        try:
            ordinal, label, parts = task.key(item)
        except (InputError, OSError) as exc:  # one bad filing must not stop an overnight run
            unreadable.append((item, str(exc)))
            continue
        keyed.append(_Keyed(item, ordinal, label, item_key(signature, parts)))

    done = store.finished_keys(k.key for k in keyed)
    pending = [k for k in keyed if k.key not in done]
    # Similar lengths together let batching engines pad less; answers never depend on the order.
    pending.sort(key=lambda k: (task.size(k.item) // 512, k.ordinal))
    derived: dict[str, Any] = {}
    sent = failed = 0
    seconds = 0.0
    described: dict[str, Any] = {"name": source.name, "identity": identity}
    if pending:
        engine = source.create()
        try:
            described = engine.describe()
            sent, failed, seconds = _ask(task, pending, engine, store, derived, progress)
        finally:
            if source.owned:
                engine.close()

    # Items answered before this run (and any the engine never returned) are derived from the checkpoint
    # too: a resumed run and an uninterrupted one read the very same stored answers.
    rest = [k for k in keyed if k.key not in derived]
    stored = store.get_many([k.key for k in rest])
    for k in rest:
        answer = stored.get(k.key) or LLMResult(key=k.key, text=None, error="no answer recorded")
        derived[k.key] = (task.result(k.item, answer), answer)
    results: list[Any] = []
    usage = {"prompt_tokens": 0, "completion_tokens": 0, "cached_prompt_tokens": 0}
    for k in keyed:
        result, answer = derived[k.key]
        results.append(result)
        for name in usage:
            usage[name] += int(getattr(answer, name))
    info = {
        "engine": described,
        "engine_created": bool(pending),
        "signature": signature,
        "items": len(keyed),
        "unreadable": len(unreadable),
        "resumed": len(done),
        "sent": sent,
        "failed": failed,
        "seconds_this_run": seconds,
        "usage": usage,
        "rows_per_s_this_run": sent / seconds if seconds > 0 else None,
    }
    return Outcome(results, unreadable, info)


def _ask(
    task: Task[ItemT, ResultT],
    pending: list[_Keyed[ItemT]],
    engine: Engine,
    store: ckpt_mod.Checkpoint,
    derived: dict[str, Any],
    progress: bool,
) -> tuple[int, int, float]:
    """Stream the pending items through the engine, committing each answer the moment it arrives.

    Each answer's result is derived at once from what was committed (read back, so it is exactly what a
    resume would read): the task's per-item state (its text, its scan) lives only while the item is in
    flight, never for the whole run.
    """
    inflight: dict[str, tuple[_Keyed[ItemT], dict[str, Any] | None]] = {}

    def requests() -> Iterator[LLMRequest]:
        for k in pending:
            prompt, extra = task.request(k.item, engine.count_tokens)
            inflight[k.key] = (k, extra)
            yield LLMRequest(
                key=k.key, messages=prompt.messages, schema=prompt.schema, max_tokens=task.max_tokens
            )

    sent = failed = 0
    t0 = time.perf_counter()
    with RowProgress(len(pending), enabled=progress, label=f"{task.name} · {engine.name}") as bar:
        for answer in engine.run(requests()):
            k, extra = inflight.pop(answer.key)
            if extra:
                answer.extra = {**answer.extra, **extra}
            store.put(k.ordinal, k.label, answer)
            committed = store.get_many([k.key])[k.key]
            derived[k.key] = (task.result(k.item, committed), committed)
            sent += 1
            failed += answer.error is not None
            bar.advance(answer.prompt_tokens + answer.completion_tokens)
    return sent, failed, time.perf_counter() - t0
