"""The headings that mark where an annual report prints the figures the task asks for.

Why one place: a long PDF keeps only the pages holding these headings (filings/pdf.py) and a long text only
the blocks holding them (filings/long_text.py); both must agree on what counts as the figures' section.
"""

from __future__ import annotations

import re

SECTION_HEADINGS = re.compile(
    r"主要会计数据和财务指标|主要会计数据|主要财务指标|合并利润表|母公司利润表|利润表"
)
"""The sections that hold revenue, profit, ROE: 主要会计数据和财务指标 and the 利润表."""
TOC_LINE = re.compile(r"[.．·…\s]{4,}\d+\s*$")
"""`主要会计数据和财务指标 ........ 8` in a table of contents: names a heading, holds no figure."""


def is_toc_line(line: str) -> bool:
    """A table-of-contents line (a heading followed by dot leaders and a page number)."""
    return TOC_LINE.search(line) is not None
