"""Where a row's report text comes from: the pool's own column, or `--reports DIR/<code>.txt|.md|.pdf`.

A PDF is read through `pdf_text` (tables as `a | b | c` rows, pages tracked); its figures' evidence then
carries the page they were printed on (`annotate_pages`).

Texts are located up front but read only when their row is sent, so a large pool with long reports never
sits in memory at once. A text longer than `long_text.LONG_TEXT_CHARS` is streamed and only its opening and
the parts that can hold the figures are read (run/long_text.py); its figures' evidence offsets are mapped
back to the whole text, and the cut is recorded like a long PDF's.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lmscreen.errors import InputError
from lmscreen.run.long_text import (
    LONG_TEXT_CHARS,
    LongText,
    file_chunks,
    read_long_file,
    shorten_text,
    text_chunks,
    text_sha256,
)
from lmscreen.run.pdf_text import PdfText, extract_pdf

_SUFFIXES = (".txt", ".md", ".pdf")


@dataclass(frozen=True)
class ReportSource:
    """A row's report: inline text or a file path (never both)."""

    text: str | None = None
    path: Path | None = None

    def read(self) -> str:
        """The text the task reads: the whole report, or a long text's kept parts (`long()`)."""
        pdf = self.pdf()
        if pdf is not None:
            return pdf.text
        whole = self._whole()
        return whole if isinstance(whole, str) else whole.text

    def _whole(self) -> str | LongText:
        if self.text is not None:
            return self.text if self._short() else shorten_text(self.text)
        assert self.path is not None
        return decode_text(self.path.read_bytes(), self.path) if self._short() else read_long_file(self.path)

    def _short(self) -> bool:
        """Certainly read whole, told without reading: a text file's bytes are at least its characters in
        every encoding read, so a file this small is never a long text (a larger one may still be)."""
        if self.text is not None:
            return len(self.text) <= LONG_TEXT_CHARS
        assert self.path is not None
        return self.path.stat().st_size <= LONG_TEXT_CHARS

    def pdf(self) -> PdfText | None:
        """The extracted PDF (cached), or None for a text report."""
        if self.path is None or self.path.suffix.lower() != ".pdf":
            return None
        return extract_pdf(self.path)

    def long(self) -> LongText | None:
        """The kept parts of a text report too long to read whole, or None."""
        if self.pdf() is not None or self._short():  # a short text is not read just to answer None
            return None
        whole = self._whole()
        return None if isinstance(whole, str) else whole

    def quote_text(self) -> str | None:
        """The whole text a figure's sentence is quoted from (evidence offsets refer to it), or None where
        it is not read again and the evidence context is shown instead: a PDF (extracting it again per row
        would make rendering as slow as the run) or a text too long to hold (`long()`)."""
        if self.text is not None:
            return self.text
        if self.path is None or self.path.suffix.lower() not in (".txt", ".md"):
            return None
        whole = self._whole()
        return whole if isinstance(whole, str) else None

    def digest(self) -> str:
        """SHA-256 of the whole report's text (UTF-8), streamed: a long text is never held at once."""
        if self.path is not None and self.path.suffix.lower() != ".pdf":
            if self.path.stat().st_size > LONG_TEXT_CHARS:
                return text_sha256(file_chunks(self.path))
        if self.text is not None:
            return text_sha256(text_chunks(self.text))
        return hashlib.sha256(self.read().encode("utf-8")).hexdigest()


def decode_text(data: bytes, path: Path) -> str:
    """BOM (UTF-8/UTF-16), then UTF-8, then GB18030 — the order broker and vendor files need."""
    if data.startswith(b"\xef\xbb\xbf"):
        encodings: tuple[str, ...] = ("utf-8-sig",)
    elif data.startswith((b"\xff\xfe", b"\xfe\xff")):
        encodings = ("utf-16",)
    else:
        encodings = ("utf-8", "gb18030")
    for encoding in encodings:
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    raise InputError(f"{path}: not valid {' or '.join(encodings)} text")


def index_reports(directory: Path) -> dict[str, Path]:
    """Map both `600519.SH` and bare `600519` (upper-cased stems) to their files."""
    if not directory.is_dir():
        raise InputError(f"{directory}: --reports must be a folder of <code>.txt / .md / .pdf files")
    found: dict[str, Path] = {}
    for path in sorted(directory.iterdir()):
        if path.suffix.lower() in _SUFFIXES and path.is_file():
            found.setdefault(path.stem.strip().upper(), path)
    return found


def report_for(code: str, inline: str | None, index: dict[str, Path] | None) -> ReportSource | None:
    """The report file wins over an empty inline cell; an inline text wins over nothing."""
    if index:
        bare = code.split(".")[0]
        path = index.get(code.upper()) or index.get(bare)
        if path is not None:
            return ReportSource(path=path)
    if inline is not None and inline.strip():
        return ReportSource(text=inline)
    return None


def annotate_pages(source: ReportSource, detail: dict[str, Any]) -> list[str]:
    """Add `page` to each figure's evidence (PDF reports) and the report's page record; return flags.

    `detail` is the task's JSON detail (`fields` -> name -> `evidence` {start, end, ...}); offsets refer to
    the text that `source.read()` returned, which is what the PDF page offsets describe. For a long text
    report they are mapped back to the whole text (`long_text`), so the span is the file's own.
    """
    pdf = source.pdf()
    if pdf is None:
        return _annotate_long(source.long(), detail)
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
