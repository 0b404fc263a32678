"""A folder of filings (`--reports DIR`): `<code>.txt`, `.md` or `.pdf`, found by a row's code.

Why both forms of a code: users name files `600519.SH.pdf`, `600519.sh.txt` or bare `600519.md`; the index
maps the upper-cased stem, and a row's code is looked up as given and bare. Only the folder's listing is
read here; no file is opened until its row asks for it (filings/source.py).
"""

from __future__ import annotations

from pathlib import Path

from lmscreen.errors import InputError
from lmscreen.filings.source import Filing

FILING_SUFFIXES = (".txt", ".md", ".pdf")


def index_filings(directory: Path) -> dict[str, Path]:
    """Map both `600519.SH` and bare `600519` (upper-cased stems) to their files; the first name in
    sorted order wins where two files share a stem."""
    if not directory.is_dir():
        raise InputError(f"{directory}: --reports must be a folder of <code>.txt / .md / .pdf files")
    found: dict[str, Path] = {}
    for path in sorted(directory.iterdir()):
        if path.suffix.lower() in FILING_SUFFIXES and path.is_file():
            found.setdefault(path.stem.strip().upper(), path)
    return found


def filing_for(code: str, inline: str | None, index: dict[str, Path] | None) -> Filing | None:
    """The row's filing: a file in the folder wins over an inline cell, a non-blank inline text over
    nothing."""
    if index:
        bare = code.split(".")[0]
        path = index.get(code.upper()) or index.get(bare)
        if path is not None:
            return Filing(path=path)
    if inline is not None and inline.strip():
        return Filing(text=inline)
    return None
