"""Text of a PDF filing, page by page, with tables kept as `a | b | c` rows; extracted once per file.

Why tables are rebuilt: annual reports print their figures in 万元 tables (`单位：万元` above, one row per
item); plain text extraction runs the cells together with the neighbouring text, and the extractor and the
grounding check then cannot tell which number belongs to which item. A row per line with ` | ` between
cells keeps each figure beside its item, and a `单位：万元` line above keeps its unit.

Why page offsets: every figure's evidence must say where in the filing it was printed, and for a PDF that
means the page (a character offset into extracted text helps nobody holding the PDF).

Why sections: an annual report runs to 200 pages; the figures the task asks for sit in
主要会计数据和财务指标 and the 利润表. For a long filing only the pages holding those headings (and the page
after each, where a table runs on) are sent; which pages, out of how many, is recorded.
A PDF with no text layer (a scan) cannot be read without OCR: it is refused per row, never guessed.

Why two passes: pdfplumber lays out every character and finds tables (about 0.1 s of CPU a page), which a
200-page annual report pays 20 s for although only its section pages are sent. So every page's plain text
is read first with PDFium (`pypdfium2`, pdfplumber's own renderer; half a second for 200 pages), and that
scan alone decides whether the file has a text layer, how long it is and which pages hold the sections;
pdfplumber then lays out only the pages that are sent. (On the two real annual reports of the benchmark the
scan picks exactly the pages a full pdfplumber pass picks.) A file PDFium cannot open is laid out whole by
pdfplumber, as before.

Why a disk cache (`read_pdf`): extraction is the slow part of reading a filing, so its result, or its
refusal, is stored under the file's SHA-256 and `EXTRACTOR_VERSION` (filings/cache.py). A resumed or
repeated run never extracts a PDF again; a fresh one at most once.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from lmscreen.errors import InputError
from lmscreen.filings import cache
from lmscreen.filings.sections import SECTION_HEADINGS, is_toc_line

EXTRACTOR_VERSION = 4
"""Bump on any change to what `extract_pdf` returns for a file: old cache entries are then never read."""
LONG_REPORT_CHARS = 30_000
"""Above this many characters, only the pages holding the figures' sections are sent."""
_MIN_TEXT_CHARS = 20
"""Fewer visible characters than this in the whole file: no text layer (a scanned filing)."""


class FilingUnreadable(InputError):
    """A filing the run cannot read; fails its own row only.

    `reason` is the message without the file name (what the cache keeps); `lasting` is False for a cause
    that is not the file's own (memory ran out), which is never cached."""

    def __init__(self, reason: str, *, file: str | None = None, lasting: bool = True) -> None:
        super().__init__(reason, file=file)
        self.reason = reason
        self.lasting = lasting


@dataclass(frozen=True)
class PdfText:
    """The text sent for one PDF and how it maps back to pages."""

    text: str
    page_starts: list[int]
    """Offset in `text` where each sent page begins (ascending), parallel to `pages_sent`."""
    pages_sent: list[int]
    pages_total: int
    chars_total: int
    """Characters of the whole text layer (PDFium's plain text of every page, where PDFium reads the file)."""
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
        """What results.jsonl records about the filing that was sent."""
        return {
            "format": "pdf",
            "pages_total": self.pages_total,
            "pages_sent": self.pages_sent,
            "chars_total": self.chars_total,
            "chars_sent": len(self.text),
            "sections_only": self.sections_only,
            "sections": self.sections,
        }


_NUMBER_RE = re.compile(r"[-−]?(?:[0-9]{1,3}(?:,[0-9]{3})+|[0-9]+)(?:\.[0-9]+)?[%％]?")
_PIECE_RE = re.compile(r"[-−]?[0-9,.]*[%％]?")


def _cell(value: object) -> str:
    """A cell's text on one line. A number the cell's width wrapped (`110,394,5` over `69.50`, a narrow
    column of a quarterly report) is joined again without a blank: it is one figure, and a blank in it
    would read as two."""
    if value is None:
        return ""
    pieces = str(value).split()
    if len(pieces) > 1 and all(_PIECE_RE.fullmatch(p) for p in pieces):
        joined = "".join(pieces)
        digits = [p for p in pieces if p not in ("-", "−")]
        cut = any(p[0] in ",." or not _NUMBER_RE.fullmatch(p) for p in digits)
        if cut and _NUMBER_RE.fullmatch(joined) and ("," in joined or "." in joined):
            return joined  # two whole numbers (`1.5 2`, `2023 2024`) stay two
    return " ".join(pieces)


_GRID_SLACK = 0.5
"""Points a cell's edge may miss a grid line by and still cover that grid column."""
_THIN_COLUMN = 8.0
"""A grid column narrower than this (points) holds no text: narrower than one character of a report's type.
On the benchmark's PDFs such columns are 5-6 points wide, ruling offsets; no cell that narrow holds text."""


_FIGURE_RE = re.compile(r"[-−(（]?[0-9][0-9,.\s]*[%％]?[)）]?")


def _grid_rows(table: Any) -> list[list[str | None]]:
    """The table's rows with a figure whose merged cell begins on a thin column moved to the column of text
    it covers.

    Why: pdfplumber splits a table into the columns of every ruling line any row draws, so a report whose
    header row and body rows rule their cells a few points apart (SZSE templates: `本期发生额` over
    x 246-392, its figures in one merged cell over x 241-397) gets thin 5-point columns beside the real
    ones, and puts a merged cell's text in the first column it covers: the header in column 4, its figures
    in column 3, and every figure read under the wrong header. A thin column holds no text
    (`_THIN_COLUMN`); when no header or label of the table begins on it either, a figure's cell that begins
    there is read under the first column it covers that is wide enough to print in, where its header
    begins. Headers and labels stay where pdfplumber put them; so does a figure on a thin column some
    header begins on (a sub-table below ruled differently: there the thin column is the figures' own).
    A table whose rows do not lay out on one grid is returned as pdfplumber extracted it."""
    extracted = table.extract()
    rows = table.rows
    edges = sorted({x for row in rows for box in row.cells if box for x in (box[0], box[2])})
    width = len(edges) - 1
    if len(rows) != len(extracted) or any(len(row.cells) != width for row in rows):
        return extracted
    heads = [
        box[0]
        for row, texts in zip(rows, extracted, strict=True)
        for box, text in zip(row.cells, texts, strict=True)
        if box is not None and text and not _FIGURE_RE.fullmatch(text.strip())
    ]
    out: list[list[str | None]] = []
    for row, texts in zip(rows, extracted, strict=True):
        laid: list[str | None] = list(texts)
        for i, (box, text) in enumerate(zip(row.cells, texts, strict=True)):
            if box is None or not text or not _FIGURE_RE.fullmatch(text.strip()):
                continue
            if edges[i + 1] - edges[i] >= _THIN_COLUMN or any(abs(h - box[0]) <= _GRID_SLACK for h in heads):
                continue
            target = _first_wide(box, i, edges)
            if target != i and laid[target] is None:
                laid[i], laid[target] = "", text
        out.append(laid)
    return out


def _first_wide(box: tuple[float, float, float, float], first: int, edges: list[float]) -> int:
    """The first grid column of at least `_THIN_COLUMN` that the cell covers; its own first when none."""
    for j in range(first, len(edges) - 1):
        if edges[j + 1] > box[2] + _GRID_SLACK:
            break
        if edges[j + 1] - edges[j] >= _THIN_COLUMN:
            return j
    return first


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
        rows = [" | ".join(_cell(c) for c in row) for row in _grid_rows(table) if any(c for c in row)]
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
            if match is None or is_toc_line(line):
                continue
            keep.update({index, min(index + 1, len(pages) - 1)})
            if match.group(0) not in found:
                found.append(match.group(0))
    return sorted(keep), found


def _scan(name: str) -> list[str] | None:
    """Every page's plain text by PDFium, or None when PDFium cannot read the file (pdfplumber decides)."""
    try:
        import pypdfium2 as pdfium

        doc = pdfium.PdfDocument(name)
    except Exception:  # noqa: BLE001 - PDFium's errors for a broken or encrypted file; pdfplumber words them
        return None
    try:
        pages = []
        for page in doc:
            textpage = page.get_textpage()
            pages.append(textpage.get_text_range().replace("\r\n", "\n").replace("\r", "\n"))
            textpage.close()
            page.close()
        return pages
    except Exception:  # noqa: BLE001 - a page PDFium cannot read: lay the file out with pdfplumber alone
        return None
    finally:
        doc.close()


def _laid_out(name: str, wanted: list[int] | None) -> list[str]:
    """pdfplumber's text with table rows of the `wanted` 0-based pages (every page when None)."""
    try:
        import pdfplumber
    except ImportError as exc:  # pragma: no cover - a core dependency; kept for a broken install
        raise FilingUnreadable(
            "report_unreadable: PDF support needs pdfplumber", file=name, lasting=False
        ) from exc
    try:
        with pdfplumber.open(name) as pdf:
            indices = range(len(pdf.pages)) if wanted is None else wanted
            return [_page_text(pdf.pages[i]) for i in indices]
    except Exception as exc:  # noqa: BLE001 - pdfminer raises many types for broken or encrypted files
        why = f"report_unreadable: not a readable PDF ({type(exc).__name__})"
        raise FilingUnreadable(why, file=name, lasting=not isinstance(exc, (MemoryError, OSError))) from exc


def _visible(pages: list[str]) -> int:
    return sum(len("".join(p.split())) for p in pages)


def extract_pdf(path: Path) -> PdfText:
    """Extract `path` now (no cache); raise FilingUnreadable (naming the file) for a scan, an encrypted or
    a broken PDF."""
    name = str(path)
    scanned = _scan(name)
    pages = scanned if scanned is not None else _laid_out(name, None)
    total = sum(len(p) for p in pages)
    if _visible(pages) < _MIN_TEXT_CHARS:
        raise FilingUnreadable("report_unreadable: no text layer (a scanned PDF needs OCR first)", file=name)
    chosen = list(range(len(pages)))
    headings: list[str] = []
    if total > LONG_REPORT_CHARS:
        keep, found = _sections(pages)
        if keep:
            chosen, headings = keep, found
    parts = _laid_out(name, chosen) if scanned is not None else [pages[i] for i in chosen]
    starts: list[int] = []
    offset = 0
    for part in parts:
        starts.append(offset)
        offset += len(part) + 1  # the "\n" that joins pages
    return PdfText(
        text="\n".join(parts),
        page_starts=starts,
        pages_sent=[i + 1 for i in chosen],
        pages_total=len(pages),
        chars_total=total,
        sections=headings,
    )


def _entry_name(sha256: str) -> str:
    return f"pdf-v{EXTRACTOR_VERSION}-{sha256}"


def _from_entry(entry: Any, sha256: str) -> PdfText | str | None:
    """A cache entry as the PdfText it stores, or the refusal's reason; None for anything damaged."""
    if not isinstance(entry, dict) or entry.get("sha256") != sha256:
        return None
    if entry.get("version") != EXTRACTOR_VERSION:
        return None
    if "unreadable" in entry:
        return entry["unreadable"] if isinstance(entry["unreadable"], str) else None
    pdf = entry.get("pdf")
    if not isinstance(pdf, dict):
        return None

    def ints(value: Any) -> bool:
        return isinstance(value, list) and all(type(v) is int for v in value)

    text, starts, sent = pdf.get("text"), pdf.get("page_starts"), pdf.get("pages_sent")
    sections = pdf.get("sections")
    if not (isinstance(text, str) and ints(starts) and ints(sent) and len(starts) == len(sent)):
        return None
    if not (isinstance(sections, list) and all(isinstance(s, str) for s in sections)):
        return None
    if type(pdf.get("pages_total")) is not int or type(pdf.get("chars_total")) is not int:
        return None
    if starts != sorted(starts) or any(s > len(text) for s in starts):
        return None
    return PdfText(text, starts, sent, pdf["pages_total"], pdf["chars_total"], sections)


def read_pdf(path: Path) -> PdfText:
    """The PDF's text: from the disk cache where this file's bytes were extracted before, else extracted
    now and stored (a refusal too: a scan is never opened again). A damaged entry is extracted again and
    rewritten. An entry is stored only if the file did not change while it was read."""
    try:
        before = path.stat()
        sha256 = cache.file_sha256(path)
    except OSError as exc:  # gone or unreadable since the folder was indexed: this row fails, not the run
        why = f"report_unreadable: not a readable PDF ({type(exc).__name__})"
        raise FilingUnreadable(why, file=str(path), lasting=False) from exc
    name = _entry_name(sha256)
    found = _from_entry(cache.load(name), sha256)
    if isinstance(found, str):
        raise FilingUnreadable(found, file=str(path))
    if found is not None:
        return found
    entry: dict[str, Any] = {"version": EXTRACTOR_VERSION, "sha256": sha256}
    try:
        pdf = extract_pdf(path)
    except FilingUnreadable as exc:
        if exc.lasting and _unchanged(path, before):
            cache.store(name, {**entry, "unreadable": exc.reason})
        raise
    if _unchanged(path, before):
        cache.store(name, {**entry, "pdf": asdict(pdf)})
    return pdf


def _unchanged(path: Path, before: Any) -> bool:
    try:
        after = path.stat()
    except OSError:
        return False
    return (after.st_mtime_ns, after.st_size) == (before.st_mtime_ns, before.st_size)
