"""Rank models for a card and a task: expected quality among those that finish the job in time."""

from lmscreen.model.recommend.rank import (
    MIN_CONTEXT,
    Candidate,
    Ranking,
    Recommendation,
    decode_tokens_per_s,
    rank,
    recommend,
)

__all__ = [
    "MIN_CONTEXT",
    "Candidate",
    "Ranking",
    "Recommendation",
    "decode_tokens_per_s",
    "rank",
    "recommend",
]
