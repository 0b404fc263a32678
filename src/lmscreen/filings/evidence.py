"""Where in its filing each figure was printed: the page of a PDF, the whole file's span of a long text.

`detail` is the task's JSON detail (`fields` -> name -> `evidence` {start, end, ...}); its offsets refer to
the text `Filing.read()` returned. For a PDF that is the text whose page offsets `PdfText` records, so each
figure gets its `page`; for a long text they are mapped back to the whole text (filings/long_text.py), so
the span is the file's own. Either way the filing's own record (pages sent, parts kept) goes in as
`detail["report"]`: the key results.jsonl has always had.
"""

from __future__ import annotations

from typing import Any

from lmscreen.filings.long_text import LongText
from lmscreen.filings.source import Filing


def annotate_pages(filing: Filing, detail: dict[str, Any]) -> list[str]:
    """Add `page` to each figure's evidence (PDF filings) and the filing's record; return the row flags."""
    pdf = filing.pdf()
    if pdf is None:
        return _annotate_long(filing.long(), detail)
    for figure in (detail.get("fields") or {}).values():
        evidence = (figure or {}).get("evidence")
        if isinstance(evidence, dict) and isinstance(evidence.get("start"), int):
            evidence["page"] = pdf.page_at(evidence["start"])
    detail["report"] = pdf.info()
    return ["truncated", "report_sections_only"] if pdf.sections_only else []


def _annotate_long(long: LongText | None, detail: dict[str, Any]) -> list[str]:
    if long is None:
        return []
    for figure in (detail.get("fields") or {}).values():
        evidence = (figure or {}).get("evidence")
        if not isinstance(evidence, dict):
            continue
        start, end = evidence.get("start"), evidence.get("end")
        if isinstance(start, int) and isinstance(end, int):
            # a span never crosses a gap (the gap line holds no digit), so its last character maps too
            evidence["start"] = long.original_offset(start)
            evidence["end"] = long.original_offset(end - 1) + 1 if end > start else evidence["start"]
    detail["report"] = long.info()
    return ["truncated", "report_sections_only"]
