"""Fit a report text into a token budget, keeping its head and tail and saying what was cut.

Why head and tail: Chinese report summaries print the headline figures (营业收入, 净利润, 毛利率) at the top
and the valuation (市盈率) or the outlook at the end; the middle is the least valuable part. The cut is
recorded (the row is flagged `truncated`) so a missing figure is never mistaken for an absent one.

Counting tokens means tokenizing the whole candidate, which costs as much as the text is long, so the kept
length is estimated from the token/character ratio and corrected a few times instead of searched char by
char: typically two or three `count_tokens` calls in all.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypedDict

MARKER = "\n…[中间省略 {n} 字]…\n"
HEAD_SHARE = 0.65
"""Share of the kept characters taken from the start of the text."""
SNAP_CHARS = 40
"""How far a cut may move to land on a line or sentence end instead of mid-sentence."""
_MAX_ROUNDS = 8
_STICKY = set("0123456789０１２３４５６７８９.,．%％万亿千百元倍")
_BREAKS = set("\n。；;！？!?")


class TruncationInfo(TypedDict):
    """What `fit_text` cut (a plain dict, so it can be stored as JSON as is)."""

    original_chars: int
    kept_chars: int
    """Characters of the original kept (head + tail), without the marker."""
    omitted_chars: int
    head_chars: int
    tail_chars: int
    original_tokens: int
    kept_tokens: int
    """Tokens of the returned text, marker included."""
    budget_tokens: int


def _head_end(text: str, n: int) -> int:
    """A cut at most `n` chars into the text, moved back to a sentence end and never inside a number."""
    n = max(0, min(n, len(text)))
    for i in range(n, max(0, n - min(SNAP_CHARS, n // 4)), -1):
        if text[i - 1] in _BREAKS:
            return i
    while 0 < n < len(text) and text[n - 1] in _STICKY and text[n] in _STICKY:
        n -= 1
    return n


def _tail_start(text: str, n: int) -> int:
    """Start of a tail of at most `n` chars, moved forward to a sentence start and never inside a number."""
    n = max(0, min(n, len(text)))
    start = len(text) - n
    for i in range(start, min(len(text), start + min(SNAP_CHARS, n // 4))):
        if i > 0 and text[i - 1] in _BREAKS:
            return i
    while 0 < start < len(text) and text[start - 1] in _STICKY and text[start] in _STICKY:
        start += 1
    return start


def _cut(text: str, keep: int) -> tuple[str, int, int]:
    head = _head_end(text, round(keep * HEAD_SHARE))
    tail = _tail_start(text, keep - head)
    tail = max(tail, head)
    omitted = tail - head
    return text[:head] + MARKER.format(n=omitted) + text[tail:], head, len(text) - tail


def fit_text(
    text: str, budget_tokens: int, count_tokens: Callable[[str], int]
) -> tuple[str, TruncationInfo | None]:
    """Return `text` unchanged (and None) if it fits `budget_tokens`, else its head and tail with a marker.

    The result never exceeds the budget unless the budget is smaller than the marker alone, in which case
    only the marker is returned.
    """
    total = count_tokens(text)
    if total <= budget_tokens:
        return text, None
    keep = int(len(text) * max(budget_tokens, 0) / total * 0.9)
    best: tuple[str, int, int, int] | None = None
    for _ in range(_MAX_ROUNDS):
        candidate, head, tail = _cut(text, keep)
        tokens = count_tokens(candidate)
        if tokens <= budget_tokens:
            if best is None or head + tail > best[1] + best[2]:
                best = (candidate, head, tail, tokens)
            if tokens >= budget_tokens * 0.92 or keep >= len(text):
                break
            grown = int(keep * budget_tokens / max(tokens, 1) * 0.97)
            if grown <= keep:
                break
            keep = grown
        else:
            if best is not None:
                break  # the grown cut overshot: keep the last one that fitted
            if keep == 0:
                best = best or (candidate, head, tail, tokens)
                break
            keep = max(0, int(keep * budget_tokens / tokens * 0.95) - 1)
    if best is None:
        candidate, head, tail = _cut(text, 0)
        best = (candidate, head, tail, count_tokens(candidate))
    candidate, head, tail, tokens = best
    info: TruncationInfo = {
        "original_chars": len(text),
        "kept_chars": head + tail,
        "omitted_chars": len(text) - head - tail,
        "head_chars": head,
        "tail_chars": tail,
        "original_tokens": total,
        "kept_tokens": tokens,
        "budget_tokens": budget_tokens,
    }
    return candidate, info


def head_text(text: str, budget_tokens: int, count_tokens: Callable[[str], int]) -> str:
    """The opening of `text` within `budget_tokens`, cut at a sentence end when one is near (never inside a
    number), with no omission marker.

    Why: when the model is asked only for a one-sentence summary (the labels settled every figure from the
    whole text), what it needs is what the report says first about the company; the tail and the marker
    `fit_text` keeps would be tokens to read on CPU for nothing.
    """
    total = count_tokens(text)
    if total <= budget_tokens:
        return text
    keep = int(len(text) * max(budget_tokens, 0) / total)
    while keep > 0:
        end = _head_end(text, keep)
        tokens = count_tokens(text[:end])
        if tokens <= budget_tokens:
            return text[:end]
        keep = min(end - 1, int(end * budget_tokens / tokens))
    return ""
