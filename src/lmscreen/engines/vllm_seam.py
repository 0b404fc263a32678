"""The seam between the vLLM engine and vLLM itself: what the engine asks, what it gets back.

Its own module so that vllm_engine.py (the logic, tested without a GPU) and vllm_backend.py (the only
importer of vLLM) both depend on it and never on each other.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol


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
