"""Moved to `lmscreen.filings`; these names stay only until run/screen.py imports from there."""

from lmscreen.filings import Filing as ReportSource
from lmscreen.filings import annotate_pages
from lmscreen.filings import filing_for as report_for
from lmscreen.filings import index_filings as index_reports

__all__ = ["ReportSource", "annotate_pages", "index_reports", "report_for"]
