"""Input documents ("filings"): txt, md and PDF turned into text with a page map, read once per run.

A leaf package: it imports only `lmscreen.errors`, the standard library and pdfplumber, never run/, task/,
report/ or cli/. Modules: `source` (the per-document `Filing`), `folder` (index a `--reports` folder, find a
code's filing), `pdf` (extraction, page map, disk-cached by file hash), `long_text` (texts too long to read
whole), `encoding` (bytes to text), `evidence` (pages and spans of a figure's evidence), `cache` (the disk
cache), `sections` (the headings where the figures are printed).
"""

from lmscreen.filings.encoding import decode_text
from lmscreen.filings.evidence import annotate_pages
from lmscreen.filings.folder import FILING_SUFFIXES, filing_for, index_filings
from lmscreen.filings.long_text import LongText
from lmscreen.filings.pdf import FilingUnreadable, PdfText
from lmscreen.filings.source import Filing

__all__ = [
    "FILING_SUFFIXES",
    "Filing",
    "FilingUnreadable",
    "LongText",
    "PdfText",
    "annotate_pages",
    "decode_text",
    "filing_for",
    "index_filings",
]
