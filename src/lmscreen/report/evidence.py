"""The sentence a figure came from, cut into (before, number, after) so the report can highlight the number
where it stands.

Grounding records the span of the number in the original report text (`start`, `end`) and a short
`context`. When the original text is still readable (inline column, or a .txt/.md file whose span still
holds the same characters) the whole sentence around the span is shown; otherwise the recorded context
is. A PDF source (whose evidence may carry `page`) is never re-read here: extracting a PDF again per row
would make rendering a report as slow as the run.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

_ENDS = "。！？!?；;\n"
_SENTENCE_END = re.compile(f"[{_ENDS}]")
MAX_SIDE = 60
"""Characters kept either side of the number inside a long sentence (the rest becomes `…`)."""


@dataclass(frozen=True)
class Quote:
    before: str
    hit: str
    after: str
    page: int | None = None

    def to_json(self) -> list[Any]:
        out: list[Any] = [self.before, self.hit, self.after]
        if self.page is not None:
            out.append(self.page)
        return out


def _squash(text: str) -> str:
    return " ".join(text.split())


def _clip_left(text: str) -> str:
    return text if len(text) <= MAX_SIDE else "…" + text[-MAX_SIDE:]


def _clip_right(text: str) -> str:
    return text if len(text) <= MAX_SIDE else text[:MAX_SIDE] + "…"


def _page(evidence: dict[str, Any]) -> int | None:
    page = evidence.get("page")
    try:
        return int(page) if page is not None else None
    except (TypeError, ValueError):
        return None


def sentence_quote(evidence: dict[str, Any], source: str | None) -> Quote | None:
    """The quote for one grounded figure; None when the evidence names no number at all."""
    hit = evidence.get("text")
    if not isinstance(hit, str) or not hit:
        return None
    page = _page(evidence)
    start, end = evidence.get("start"), evidence.get("end")
    if (
        source is not None
        and isinstance(start, int)
        and isinstance(end, int)
        and 0 <= start < end <= len(source)
        and source[start:end] == hit
    ):
        cut = max(source.rfind(ch, 0, start) for ch in _ENDS) + 1
        m = _SENTENCE_END.search(source, end)
        stop = m.end() if m else len(source)
        before = _squash(source[cut:start]).lstrip()
        after = _squash(source[end:stop]).rstrip()
        # _squash drops a space next to the number; keep one so "revenue 1,234" reads as printed.
        if source[cut:start][-1:].isspace() and before:
            before += " "
        if source[end:stop][:1].isspace() and after:
            after = " " + after
        return Quote(_clip_left(before), hit, _clip_right(after), page)
    context = evidence.get("context")
    if isinstance(context, str):
        at = context.find(_squash(hit))
        if at >= 0:
            shown = _squash(hit)
            return Quote(_clip_left(context[:at]), shown, _clip_right(context[at + len(shown) :]), page)
    return Quote("", hit, "", page)
