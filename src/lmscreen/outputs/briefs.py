"""`brief`'s outputs: briefs.jsonl, briefs.md, one <code>.txt per company and briefs.html.

Each file is written whole to a temp name and renamed (outputs/atomic.py), so a killed run never leaves
half a file. The page is outputs/briefs_html.py's; briefs.md and the page speak the run's language.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from lmscreen.outputs.atomic import write_pieces, write_text
from lmscreen.outputs.briefs_html import LABELS, render_html

BRIEFS_JSONL = "briefs.jsonl"
BRIEFS_MD = "briefs.md"
BRIEFS_HTML = "briefs.html"


def text_name(code: str) -> str:
    """A code as a safe file name (`600519.SH.txt`)."""
    return re.sub(r"[^A-Za-z0-9._-]", "_", code).lstrip(".") + ".txt"


def write_briefs(out: Path, rows: list[dict[str, Any]], lang: str = "zh") -> None:
    t = LABELS.get(lang, LABELS["zh"])
    write_pieces(out / BRIEFS_JSONL, (json.dumps(r, ensure_ascii=False, sort_keys=True) + "\n" for r in rows))
    md = [f"# {t['title']}\n"]
    for r in rows:
        md.append(
            f"\n## {r.get('name') or ''}（{r['code']}）\n\n"
            if lang == "zh"
            else f"\n## {r.get('name') or ''} ({r['code']})\n\n"
        )
        if r.get("text"):
            md.append(r["text"].replace("\n", "  \n") + "\n")
            md.append(
                f"\n<sub>source: {r['source']}"
                + (
                    f"; {t['rejected']}: {'; '.join(r['model_rejected']['reasons'])}"
                    if r.get("model_rejected")
                    else ""
                )
                + "</sub>\n"
            )
        else:
            md.append(f"*{t['skipped']}: {r.get('reason')}*\n")
    write_text(out / BRIEFS_MD, "".join(md))
    for r in rows:
        if r.get("text"):
            write_text(out / text_name(r["code"]), r["text"] + "\n")
    write_text(out / BRIEFS_HTML, render_html(rows, lang))
