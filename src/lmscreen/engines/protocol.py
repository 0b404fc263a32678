"""The one protocol every engine speaks: requests in, results out, and what an answer depends on.

Nothing above `engines/` knows which backend runs. A request carries the chat messages, the JSON schema the
answer must satisfy and a token budget; a result carries the raw text (or the error) and the token counts
that run.json and the benchmarks need. Engines may finish requests in any order: the runner matches them by
`key` and restores input order itself.

Each backend is a plugin (`EnginePlugin`, found by registry.py): it turns the generic CLI options into its
own typed settings, says the answer's identity from those settings alone, and only then, when a row really
needs the model, creates the engine. Identity before creation is what lets a runner key its checkpoint and
find every row already answered without loading a model; `Engine.identity()` must equal
`EnginePlugin.identity(settings)` for the settings it was created from.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable


@dataclass(frozen=True)
class LLMRequest:
    key: str
    """Stable identity of the row's request (the checkpoint key)."""
    messages: list[dict[str, str]]
    """Chat messages: the shared system prompt first, then the row's own user message."""
    schema: dict[str, Any]
    """JSON schema the completion must satisfy (enforced by the engine's grammar where it can)."""
    max_tokens: int = 256


@dataclass
class LLMResult:
    key: str
    text: str | None
    """The completion text (already stripped of <think> blocks / reasoning), or None on failure."""
    error: str | None = None
    """Why the call failed (`llm_error: …` goes into the row's status)."""
    finish_reason: str | None = None
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached_prompt_tokens: int = 0
    """Prompt tokens not recomputed thanks to prefix reuse (0 when the engine cannot tell)."""
    seconds: float = 0.0
    extra: dict[str, Any] = field(default_factory=dict)


@runtime_checkable
class Engine(Protocol):
    name: str
    """Engine kind as shown in run.json: embedded, openai, vllm, ray."""
    model: str
    """Model identity as shown in run.json (path or served name)."""

    def count_tokens(self, text: str) -> int:
        """Tokens `text` takes in this model (used for the prompt budget and length bucketing)."""
        ...

    def run(self, requests: Iterable[LLMRequest]) -> Iterator[LLMResult]:
        """Answer every request, yielding each result as soon as it is finished (any order)."""
        ...

    def identity(self) -> dict[str, Any]:
        """Everything an answer depends on (model fingerprint, sampling, seed, grammar backend, runtime
        version, context): the checkpoint is keyed on it, so nothing that only changes speed belongs here
        (threads, concurrency, URL, workers)."""
        ...

    def describe(self) -> dict[str, Any]:
        """What run.json records about the engine: the identity (under "identity" and spread at the top
        level) plus settings that only change speed or memory."""
        ...

    def close(self) -> None: ...


@runtime_checkable
class EnginePlugin(Protocol):
    """One backend, as the registry finds it (entry-point group `lmscreen.engines`)."""

    name: str
    """The `--engine` value: embedded, openai, vllm, ray, or a third-party name."""

    def settings(self, options: Mapping[str, Any]) -> Any:
        """Typed settings built by the engine itself from the generic CLI options (the fields of
        run/options.py ScreenOptions as a dict; unknown keys are ignored). InputError on a bad value."""
        ...

    def identity(self, settings: Any) -> dict[str, Any]:
        """`create(settings).identity()`, computed without loading the model: a file fingerprint, package
        versions, at most a short probe of a server."""
        ...

    def create(self, settings: Any) -> Engine:
        """The expensive part: load the model, connect, start workers."""
        ...


@runtime_checkable
class CountsTokens(Protocol):
    """A plugin that can count tokens without creating its engine (a vocabulary-only load): what the Ray
    driver needs to size prompts while the model lives only on the workers."""

    def token_counter(self, settings: Any) -> Callable[[str], int]: ...
