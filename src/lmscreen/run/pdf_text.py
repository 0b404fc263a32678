"""Text of a PDF report, page by page, with tables kept as `a | b | c` rows.

Why tables are rebuilt: annual reports print their figures in 万元 tables (`单位：万元` above, one row per
item); plain text extraction runs the cells together with the neighbouring text, and the extractor and the
grounding check then cannot tell which number belongs to which item. A row per line with ` | ` between
cells keeps each figure beside its item, and a `单位：万元` line above keeps its unit.

Why page offsets: every figure's evidence must say where in the report it was printed, and for a PDF that
means the page (a character offset into extracted text helps nobody holding the PDF).

Why sections: an annual report runs to 200 pages; the figures the task asks for sit in
主要会计数据和财务指标 and the 利润表. For a long report only the pages holding those headings (and the page
after each, where a table runs on) are sent; which pages, out of how many, is recorded.
A PDF with no text layer (a scan) cannot be read without OCR: it is refused per row, never guessed.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from lmscreen.errors import InputError

LONG_REPORT_CHARS = 30_000
"""Above this many characters, only the pages holding the figures' sections are sent."""
SECTION_HEADINGS = re.compile(
    r"主要会计数据和财务指标|主要会计数据|主要财务指标|合并利润表|母公司利润表|利润表"
)
_TOC_LINE = re.compile(r"[.．·…\s]{4,}\d+\s*$")  # `主要会计数据和财务指标 ........ 8` in a table of contents
_MIN_TEXT_CHARS = 20
"""Fewer visible characters than this in the whole file: no text layer (a scanned report)."""


class ReportUnreadable(InputError):
    """A report file the run cannot read; fails its own row only."""


@dataclass(frozen=True)
class PdfText:
    """The text sent for one PDF and how it maps back to pages."""

    text: str
    page_starts: list[int]
    """Offset in `text` where each sent page begins (ascending), parallel to `pages_sent`."""
    pages_sent: list[int]
    pages_total: int
    chars_total: int
    sections: list[str] = field(default_factory=list)
    """Headings found when only sections were sent; empty when the whole text was sent."""

    def page_at(self, offset: int) -> int | None:
        """1-based page number of the character at `offset` in `text`."""
        if not self.page_starts or offset < 0:
            return None
        return self.pages_sent[max(0, bisect.bisect_right(self.page_starts, offset) - 1)]

    @property
    def sections_only(self) -> bool:
        return bool(self.sections)

    def info(self) -> dict[str, Any]:
        """What results.jsonl records about the report that was sent."""
        return {
            "format": "pdf",
            "pages_total": self.pages_total,
            "pages_sent": self.pages_sent,
            "chars_total": self.chars_total,
            "chars_sent": len(self.text),
            "sections_only": self.sections_only,
            "sections": self.sections,
        }


def _cell(value: object) -> str:
    return " ".join(str(value).split()) if value is not None else ""


def _page_text(page: Any) -> str:
    """Lines outside tables and table rows as `a | b | c`, in their order down the page."""
    tables = page.find_tables()
    boxes = [t.bbox for t in tables]

    def outside(obj: dict[str, Any]) -> bool:
        x = (obj.get("x0", 0) + obj.get("x1", 0)) / 2
        y = (obj.get("top", 0) + obj.get("bottom", 0)) / 2
        return not any(b[0] <= x <= b[2] and b[1] <= y <= b[3] for b in boxes)

    pieces: list[tuple[float, str]] = []
    for line in page.filter(outside).extract_text_lines() if boxes else page.extract_text_lines():
        pieces.append((float(line["top"]), line["text"]))
    for table in tables:
        rows = [" | ".join(_cell(c) for c in row) for row in table.extract() if any(c for c in row)]
        pieces.append((float(table.bbox[1]), "\n".join(rows)))
    pieces.sort(key=lambda p: p[0])
    return "\n".join(text for _, text in pieces if text.strip())


def _sections(pages: list[str]) -> tuple[list[int], list[str]]:
    """0-based pages to send (heading pages and the page after each) and the headings found."""
    keep: set[int] = set()
    found: list[str] = []
    for index, text in enumerate(pages):
        for line in text.splitlines():
            match = SECTION_HEADINGS.search(line)
            if match is None or _TOC_LINE.search(line):
                continue
            keep.update({index, min(index + 1, len(pages) - 1)})
            if match.group(0) not in found:
                found.append(match.group(0))
    return sorted(keep), found


def extract_pdf(path: Path) -> PdfText:
    """Read `path`; raise ReportUnreadable (naming the file) for a scan, an encrypted or a broken PDF."""
    stat = path.stat()
    return _extract(str(path), stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=8)
def _extract(name: str, _mtime_ns: int, _size: int) -> PdfText:
    """Cached per file version: the runner reads a row's report up to three times (key, prompt, grounding)."""
    try:
        import pdfplumber
    except ImportError as exc:  # pragma: no cover - a core dependency; kept for a broken install
        raise ReportUnreadable("report_unreadable: PDF support needs pdfplumber", file=name) from exc
    try:
        with pdfplumber.open(name) as pdf:
            pages = [_page_text(page) for page in pdf.pages]
    except Exception as exc:  # noqa: BLE001 - pdfminer raises many types for broken or encrypted files
        why = f"report_unreadable: not a readable PDF ({type(exc).__name__})"
        raise ReportUnreadable(why, file=name) from exc
    total = sum(len(p) for p in pages)
    if sum(len("".join(p.split())) for p in pages) < _MIN_TEXT_CHARS:
        raise ReportUnreadable("report_unreadable: no text layer (a scanned PDF needs OCR first)", file=name)
    chosen = list(range(len(pages)))
    headings: list[str] = []
    if total > LONG_REPORT_CHARS:
        keep, found = _sections(pages)
        if keep:
            chosen, headings = keep, found
    starts: list[int] = []
    parts: list[str] = []
    offset = 0
    for index in chosen:
        starts.append(offset)
        parts.append(pages[index])
        offset += len(pages[index]) + 1  # the "\n" that joins pages
    return PdfText(
        text="\n".join(parts),
        page_starts=starts,
        pages_sent=[i + 1 for i in chosen],
        pages_total=len(pages),
        chars_total=total,
        sections=headings,
    )
