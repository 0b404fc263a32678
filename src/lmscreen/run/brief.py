"""The brief job: pool → rules → (the brief task on the durable runner) → briefs.jsonl/.md/.html, <code>.txt.

The same pool and filings as `screen` (so a nightly job runs both on one export): the rules give each row
its risk level and the rules fired; every row with a filing is an item of the brief task. With the
embedded 135M default no model writes (it cannot write a script worth keeping): a `TemplateEngine`
answers every item with no text, so the runner still gives resume and exactly-once while the template is
the script. A served model (`--engine openai …`, or `--model` a GGUF of the user's) writes, and its text is
kept only when every number in it checks out (task/brief/check.py). A row with no filing is no item of the
runner: its script is written from the pool row's own fields (task/brief/pool_fields.py), which is cheap
and the same on every run, so a resumed run still writes the same briefs.jsonl; a row whose fields give
nothing to say is listed as skipped with the reason. `opts.lang` (`zh`, `en`) is the script's language.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from lmscreen.engines.protocol import Engine, LLMRequest, LLMResult
from lmscreen.errors import InputError
from lmscreen.filings import filing_for, index_filings
from lmscreen.run import checkpoint as ckpt_mod
from lmscreen.run import outdir
from lmscreen.run.engine_source import engine_source
from lmscreen.run.judged import Judged
from lmscreen.run.options import ScreenOptions
from lmscreen.run.runner import EngineSource, run_items
from lmscreen.task.brief.pool_fields import USABLE, PoolColumns, from_pool
from lmscreen.task.brief.script import STYLES, parse_length
from lmscreen.task.brief.task import Brief, BriefItem, BriefTask, pool_brief

LANGS = ("zh", "en")


class TemplateEngine:
    """The engine of a run where the template is the script: answers every request with no text at once."""

    name = "template"
    model = "none"

    def count_tokens(self, text: str) -> int:
        return len(text)

    def run(self, requests: Iterable[LLMRequest]) -> Iterator[LLMResult]:
        for request in requests:
            yield LLMResult(key=request.key, text=None, finish_reason="template")

    def identity(self) -> dict[str, Any]:
        return {"engine": "template"}

    def describe(self) -> dict[str, Any]:
        return {"name": self.name, "identity": self.identity(), "note": "the embedded model does not write"}

    def close(self) -> None:
        return None


@dataclass
class BriefSummary:
    out_dir: Path
    written: int = 0
    skipped: int = 0
    sources: dict[str, int] = field(default_factory=dict)
    notices: list[str] = field(default_factory=list)


def uses_model(opts: ScreenOptions) -> bool:
    """Whether a model writes: a served one, or a GGUF the user named; never the 135M default."""
    return opts.engine != "embedded" or opts.model is not None


def brief(
    opts: ScreenOptions, *, style: str = "video", length: str = "60s", engine: Engine | None = None
) -> BriefSummary:
    """Write every company's script into OUT (locked for the run); `engine` lends a loaded one (tests)."""
    if style not in STYLES:
        raise InputError(f"--style: {style!r} is not one of {', '.join(STYLES)}")
    if opts.lang not in LANGS:
        raise InputError(f"--lang: {opts.lang!r} is not one of {', '.join(LANGS)}")
    try:
        limit = parse_length(length, opts.lang)
    except ValueError as exc:
        raise InputError(str(exc)) from exc
    try:
        opts.out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InputError(f"{opts.out}: cannot create the output folder ({exc.strerror or exc})") from exc
    with outdir.hold(opts.out):
        outdir.probe_writable(opts.out)
        return _brief(opts, style, limit, engine)


def _brief(opts: ScreenOptions, style: str, limit: int, engine: Engine | None) -> BriefSummary:
    from lmscreen.pool.load import open_pool
    from lmscreen.rules import load_rules

    started = time.time()
    if opts.fresh:
        ckpt_mod.remove(opts.out)
    reader = open_pool(opts.pool)
    judged = Judged(reader, load_rules(opts.rules), opts)
    index = index_filings(opts.reports) if opts.reports else None
    columns = _pool_columns(reader)
    items: list[BriefItem] = []
    no_filing: list[dict[str, Any]] = []  # written from the pool fields, or skipped
    for frame in judged:
        prior_col = sorted(c for c in frame.columns if c.startswith("net_profit_") and c[-4:].isdigit())
        for row in frame.iter_rows(named=True):
            fired = [r["rule"] for r in row.get("rules_fired_list") or []]
            src = filing_for(row["code"], row.get("report_text"), index)
            if src is None:
                no_filing.append(_from_pool(row, columns, fired, style, limit, opts.lang))
                continue
            prior = row.get(prior_col[-2]) if len(prior_col) >= 2 else None
            items.append(
                BriefItem(
                    row["row"], row["code"], row.get("name") or "", src, row.get("risk_level"), fired, prior
                )
            )
    model = uses_model(opts)
    notices = [] if model else ["the embedded model does not write scripts: the template writes them"]
    task = BriefTask(style=style, limit=limit, use_model=model, lang=opts.lang)
    source = engine_source(opts, engine) if model else EngineSource.of(TemplateEngine())
    outcome = run_items(task, items, source, opts.out, progress=opts.progress)
    rows: list[dict[str, Any]] = []
    result: Brief
    for result in outcome.results:
        rows.append({"row": result.row, **result.data})
    for item, why in outcome.unreadable:
        rows.append(
            {
                "row": item.row,
                "code": item.code,
                "name": item.name,
                "text": None,
                "source": "skipped",
                "reason": f"report unreadable: {why}",
            }
        )
    rows.extend(no_filing)
    rows.sort(key=lambda r: r["row"])
    from lmscreen.outputs.briefs import write_briefs

    write_briefs(opts.out, rows, opts.lang)
    summary = BriefSummary(opts.out, notices=notices)
    for r in rows:
        summary.sources[r["source"]] = summary.sources.get(r["source"], 0) + 1
    summary.skipped = summary.sources.get("skipped", 0)
    summary.written = len(rows) - summary.skipped
    _record(opts, style, limit, outcome.info, summary, started)
    return summary


def _pool_columns(reader: Any) -> PoolColumns:
    """The pool file and each column's header as printed, by the name the rules use."""
    headers: list[str] = list(reader.headers or [])
    match = reader.match
    named: dict[str, str] = {}
    if match is not None:
        for field_name, at in match.fields.items():
            if 0 <= at < len(headers):
                named[field_name] = headers[at]
        for year, at in match.net_profit.items():
            if 0 <= at < len(headers):
                named[f"net_profit_{year}"] = headers[at]
    return PoolColumns(str(reader.path), named)


def _from_pool(
    row: dict[str, Any], columns: PoolColumns, fired: list[str], style: str, limit: int, lang: str
) -> dict[str, Any]:
    """A row with no filing: its script from the pool's own fields, or the reason there is none."""
    name = row.get("name") or ""
    hl = from_pool(row, columns, name, risk_level=row.get("risk_level"), rules_fired=fired)
    if hl is None:
        why = f"no report for this code, and the pool row has no usable figure ({USABLE})"
        return {
            "row": row["row"],
            "code": row["code"],
            "name": name,
            "text": None,
            "source": "skipped",
            "reason": why,
        }
    return {
        "row": row["row"],
        **pool_brief(row["row"], row["code"], hl, style=style, limit=limit, lang=lang).data,
    }


def _record(
    opts: ScreenOptions, style: str, limit: int, ran: dict[str, Any], summary: BriefSummary, started: float
) -> None:
    """brief.json: what was asked, which engine answered, how many scripts came from where."""
    from lmscreen import __version__
    from lmscreen.outputs.atomic import write_text

    run = {
        "lmscreen_version": __version__,
        "started_at": datetime.fromtimestamp(started, timezone.utc).isoformat(),
        "finished_at": datetime.now(timezone.utc).isoformat(),
        "options": {**opts.public(), "style": style, "length_limit": limit},
        "model_writes": uses_model(opts),
        "runner": ran,
        "counts": {"written": summary.written, "skipped": summary.skipped, "sources": summary.sources},
        "notices": summary.notices,
    }
    write_text(opts.out / "brief.json", json.dumps(run, ensure_ascii=False, indent=2, default=str) + "\n")
