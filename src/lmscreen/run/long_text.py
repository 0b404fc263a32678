"""Moved to `lmscreen.filings`; this name stays only until run/screen.py imports from there."""

from lmscreen.filings.encoding import text_chunks

__all__ = ["text_chunks"]
