"""The one protocol every engine speaks: requests in, results out.

Nothing above `engines/` knows which backend runs. A request carries the chat messages, the JSON schema the
answer must satisfy and a token budget; a result carries the raw text (or the error) and the token counts
that run.json and the benchmarks need. Engines may finish requests in any order: the runner matches them by
`key` and restores input order itself.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
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

    def describe(self) -> dict[str, Any]:
        """Settings that make a result reproducible (model file hash or name, sampling, context)."""
        ...

    def close(self) -> None: ...
