"""Rank models for a card and a task."""

from lmscreen.model.recommend.rank import (
    MIN_CONTEXT,
    Candidate,
    Recommendation,
    decode_tokens_per_s,
    recommend,
)

__all__ = ["MIN_CONTEXT", "Candidate", "Recommendation", "decode_tokens_per_s", "recommend"]
