"""The screening job: pool → rules → (the screen task on the durable runner) → outputs in input order.

The deterministic part (load, rules, output) is vectorised over the whole pool; only rows with a filing go
to the runner (run/runner.py), which commits every answer before the next and derives each row's columns
from what is committed, so a rerun after a kill produces exactly the rows of an uninterrupted run. While the
model works, the judged chunks wait on disk (run/spill.py); afterwards each chunk is merged with the answers
(run/merge.py) and written.
"""

from __future__ import annotations

import hashlib
import platform
import time
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import date, datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any

import polars as pl

from lmscreen import __version__
from lmscreen.errors import InputError
from lmscreen.outputs.atomic import folder_sync_once
from lmscreen.pool.freshness import freshness_for, is_active, mark_stale, stale_counts
from lmscreen.pool.notes import input_notes
from lmscreen.run import outdir
from lmscreen.run.judged import Judged
from lmscreen.run.merge import merge, without_llm
from lmscreen.run.options import ScreenOptions
from lmscreen.run.spill import Spill, remove_stale

if TYPE_CHECKING:  # the LLM step's stack (task, filings, runner, engines) loads only on a run that asks
    from lmscreen.engines.protocol import Engine
    from lmscreen.report.chart_data import ChartData, ChartTotals
    from lmscreen.report.charts import Chart
    from lmscreen.rules import RuleSet
    from lmscreen.task.screen import ScreenItem

RULES_ONLY_CHUNK_ROWS = 131_072
LLM_CHUNK_ROWS = 8_192
"""Rows read, judged and written at a time. A rules-only run is done in seconds and spends them in polars
calls whose fixed cost (~40 ms a chunk) is paid per chunk: large chunks. A run with the LLM step waits on
the model for minutes to hours, holds the engine and the answers beside the rows, and is the one left
unattended overnight: small chunks keep its memory near a small run's."""


@dataclass
class RunSummary:
    out_dir: Path
    rows: int
    errors: int
    llm_sent: int = 0
    llm_resumed: int = 0
    llm_failed: int = 0
    risk_counts: dict[str, int] = field(default_factory=dict)
    run: dict[str, Any] = field(default_factory=dict)
    notices: list[str] = field(default_factory=list)
    """What the user must read about the input (PE basis, partial-year ROE), said on the console too."""


def screen(opts: ScreenOptions, engine: Engine | None = None) -> RunSummary:
    """Run one screening job end to end; `engine` lets a caller lend an already loaded one.

    The OUT folder is locked for the whole run (a second run on it exits 2 naming this one's pid) and
    proven writable before anything slow starts.
    """
    try:
        opts.out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InputError(f"{opts.out}: cannot create the output folder ({exc.strerror or exc})") from exc
    # polars' in-memory engine for every collect() of the run: the chunks are already small, and the
    # default (streaming) engine's executor buffers cost a million-row run with filings ~15 MiB more peak
    # memory for no speed (measured side by side, bench/reliability.py --only memory).
    # The outputs (results.*, errors.csv, run.json, the reports, facts.jsonl) are the run's only atomic
    # writes: each is fsynced before its rename, and OUT's folder once at the end, not after every file.
    with outdir.hold(opts.out), pl.Config(engine_affinity="in-memory"), folder_sync_once():
        outdir.probe_writable(opts.out)
        remove_stale(opts.out)
        return _screen(opts, engine)


def check_out_dir(out: Path) -> None:
    if out.exists() and not out.is_dir():
        raise InputError(f"{out}: --out must be a folder")


def _screen(opts: ScreenOptions, engine: Engine | None) -> RunSummary:
    from lmscreen.outputs.columns import SPARSE_JSONL_COLUMNS, VERDICT_COLUMNS
    from lmscreen.outputs.history import VerdictParts, record_run_safely
    from lmscreen.outputs.results import ResultWriter, write_errors, write_json
    from lmscreen.pool.load import open_pool
    from lmscreen.report.chart_data import chart_totals
    from lmscreen.rules import load_rules, rules_hash

    started = time.time()
    timings: dict[str, float] = {}
    # The input's hash (a full read of the file) runs beside the load; hashlib releases the GIL.
    hasher = ThreadPoolExecutor(max_workers=1)
    input_hash = hasher.submit(_file_hash, opts.pool)
    hasher.shutdown(wait=False)
    rules = load_rules(opts.rules)
    reader = open_pool(opts.pool, chunk_rows=RULES_ONLY_CHUNK_ROWS if opts.no_llm else LLM_CHUNK_ROWS)
    judged = Judged(reader, rules, opts)
    today = date.fromisoformat(opts.as_of) if opts.as_of else date.today()
    fresh = freshness_for(opts.pool, today, opts.max_age_days)
    mark = is_active(fresh, ["roe_period"] if _has_period(reader.match) else [])

    if opts.fresh:
        from lmscreen.run import checkpoint  # here: it brings the engine protocol, which --no-llm never uses

        checkpoint.remove(opts.out)

    has_text_column = "report_text" in reader.match.fields
    llm_info: dict[str, Any] = {"enabled": not opts.no_llm}
    spill: Spill | None = None
    jsonl = opts.jsonl
    if opts.no_llm:
        (opts.out / "facts.jsonl").unlink(missing_ok=True)  # no filing is read: a previous run's facts go
        chunks: Iterator[list[pl.DataFrame]] = ([without_llm(c, "no_llm")] for c in judged)
        empty = [c for c in SPARSE_JSONL_COLUMNS if not (c == "report_text" and has_text_column)]
    else:
        from lmscreen.filings import index_filings

        spill = Spill(opts.out)
        try:
            items: list[ScreenItem] = []
            index = index_filings(opts.reports) if opts.reports else None
            for chunk in judged:
                spill.add(chunk)
                items.extend(_items(chunk, index))
            timings["load_s"], timings["rules_s"] = judged.load_s, judged.rules_s
            t_llm = time.perf_counter()
            answers, llm_info = _llm_stage(items, opts, engine)
            timings["llm_s"] = time.perf_counter() - t_llm
            jsonl = jsonl or bool(items)  # a run where no row has a filing is rules-only too
            # results.jsonl leaves out a column no row has a value in, decided before the first chunk
            # is written (a column of the pool itself is kept, empty or not).
            empty = [
                c
                for c in SPARSE_JSONL_COLUMNS
                if (c == "report_text" and not has_text_column)
                or (c in answers.columns and answers.get_column(c).null_count() == answers.height)
            ]
        except BaseException:
            spill.close()
            raise
        chunks = (merge(c, answers) for c in spill.chunks())  # type: ignore[assignment]

    t_write = time.perf_counter()
    risk_counts: Counter[str] = Counter()
    flag_counts: Counter[str] = Counter()
    # What the history and the charts keep of each chunk (Parquet parts spilled to a temp file, bounded
    # counts and a sample): a million-row run never holds every row's verdicts.
    parts, charts = VerdictParts(opts.out), chart_totals(rules)
    screened = 0

    def keep(pieces: list[pl.DataFrame]) -> int:
        """A chunk's counts, history part and chart totals (in chunk order: one thread does them)."""
        verdicts = pl.concat([_verdicts(p, VERDICT_COLUMNS) for p in pieces])
        risk_counts.update(_counts(verdicts.get_column("risk_level")))
        flag_counts.update(flag_tally(verdicts.get_column("flags")))
        parts.add(verdicts)
        charts.add(verdicts)
        return verdicts.height

    try:
        levels = [rules.levels.names[level] for level in rules.levels.order]
        # While a chunk is written and kept (polars releases the GIL), the next one is read and judged:
        # on two cores the run is then bound by its work, not by the sum of its steps.
        with (
            ResultWriter(opts.out, drop_from_jsonl=empty, jsonl=jsonl, levels=levels) as writer,
            ThreadPoolExecutor(max_workers=1, thread_name_prefix="lmscreen-keep") as keeper,
        ):
            kept: Future[int] | None = None
            for pieces in chunks:
                if mark:
                    pieces = [mark_stale(p, fresh) for p in pieces]
                writer.write(pieces)
                if kept is not None:
                    screened += kept.result()
                kept = keeper.submit(keep, pieces)
                del pieces
            if kept is not None:
                screened += kept.result()
        if opts.no_llm:  # read and judged inside the write loop: its time less theirs is the writing's
            timings["load_s"], timings["rules_s"] = judged.load_s, judged.rules_s
            t_write += judged.load_s + judged.rules_s
        pool = reader.pool()
        n_errors = write_errors(judged.errors(), opts.out, str(opts.pool))
        timings["write_s"] = time.perf_counter() - t_write
        timings["total_s"] = time.time() - started
        risk_totals = {str(k): int(v) for k, v in risk_counts.items()}
        flag_totals = {f: n for f, n in sorted(flag_counts.items(), key=lambda kv: (-kv[1], kv[0])) if f}
        run = {
            "lmscreen_version": __version__,
            "started_at": datetime.fromtimestamp(started, timezone.utc).isoformat(),
            "finished_at": datetime.now(timezone.utc).isoformat(),
            "input": {
                "path": str(opts.pool),
                "sha256": input_hash.result(),
                "encoding": pool.encoding,
                "columns": pool.column_map,
                "warnings": pool.warnings,
                **input_notes(pool, opts.annualize_roe),
                "freshness": fresh.record(),
            },
            "rules": {
                "path": str(opts.rules) if opts.rules else "default",
                "hash": rules_hash(rules),
                "spec": rules.model_dump(mode="json"),
            },
            "options": opts.public(),
            "counts": {
                "input_rows": screened + n_errors,
                "screened": screened,
                "errors": n_errors,
                "risk_levels": risk_totals,
                "flags": flag_totals,
                "stale": stale_counts(flag_totals),
            },
            "llm": llm_info,
            "timings": timings,
            "host": {"python": platform.python_version(), "platform": platform.platform()},
        }
        # Recorded before run.json is written so run.json can name its history id (the reports use it to
        # find the previous run of the same pool); a broken history is noted there, never fatal. The
        # insert mostly waits on the disk with the GIL released (~0.4 s wall, 0.08 CPU s for a million
        # rows), so the report's charts, which need neither it nor run.json, are drawn meanwhile.
        with ThreadPoolExecutor(max_workers=1, thread_name_prefix="lmscreen-history") as recorder:
            recorded = recorder.submit(record_run_safely, run, parts=parts)
            chart_data, drawn = _draw(charts, screened, rules, opts.lang)
            run["history"] = recorded.result()
    finally:
        parts.close()
        if spill is not None:
            spill.close()
    write_json(run, opts.out / "run.json")
    from lmscreen.report.html import write_report

    if chart_data is None:
        chart_data = charts.result(screened)
    write_report(opts.out, lang=opts.lang, charts=chart_data, drawn=drawn)
    return RunSummary(
        out_dir=opts.out,
        rows=screened,
        errors=n_errors,
        llm_sent=llm_info.get("sent", 0),
        llm_resumed=llm_info.get("resumed", 0),
        llm_failed=llm_info.get("failed", 0) + llm_info.get("reports_unreadable", 0),
        risk_counts=risk_totals,
        run=run,
        notices=run["input"]["notices"],
    )


def _draw(
    totals: ChartTotals, screened: int, rules: RuleSet, lang: str
) -> tuple[ChartData | None, dict[str, Chart] | None]:
    """The report's chart aggregates and its charts, drawn ahead; (None, None) when either fails, so that
    the report step does them again and fails there as it always did: after run.json is written, which a
    chart must never cost."""
    from lmscreen.report.html import draw_charts

    try:
        data = totals.result(screened)
        return data, draw_charts(data, rules, lang)
    except Exception:  # noqa: BLE001 - raised again, in its place, by the report step
        return None, None


def _verdicts(piece: pl.DataFrame, columns: tuple[str, ...]) -> pl.DataFrame:
    """A piece's verdict columns, the LLM's text ones as String even where the piece has them Null-typed
    (rows without an answer), so every chunk's part of the history has one schema."""
    return piece.select(
        pl.col(c).cast(pl.String) if c in ("reason", "flags", "status") else pl.col(c)
        for c in columns
        if c in piece.columns
    )


def _counts(values: pl.Series) -> dict[str, int]:
    return {str(k): int(n) for k, n in values.value_counts().iter_rows()}


def flag_tally(flags: pl.Series) -> Counter[str]:
    """How many rows carry each flag (`;`-joined cells; an empty piece counts under "", as a split would).

    The distinct cells are counted first and only those few are split: a rules-only million rows hold one
    cell value ("no_llm"), and splitting every cell before counting cost ~20x more than counting them."""
    tally: Counter[str] = Counter()
    for cell, n in flags.value_counts().iter_rows():
        if cell is None:
            continue
        for flag in cell.split(";"):
            tally[flag] += int(n)
    return tally


def _has_period(match: Any) -> bool:
    """Whether the loader gives rows a `roe_period` (pool/load.py `_add_roe_period` reads these)."""
    fields = match.fields
    return "roe" in fields and (
        "report_period" in fields or "announce_date" in fields or "roe" in match.header_dates
    )


def _file_hash(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def _items(frame: pl.DataFrame, index: dict[str, Path] | None) -> list[ScreenItem]:
    """The rows that have a filing, in input order.

    The rows that can have one (a code the filings folder names, or a non-empty inline cell) are picked in
    polars first: a million-row pool with filings for a thousand rows must not be walked row by row in
    Python. `filing_for` then decides on those rows exactly as before.
    """
    from lmscreen.filings import filing_for
    from lmscreen.task.screen import ScreenItem

    has_inline = "report_text" in frame.columns
    may_have: list[pl.Expr] = []
    if index:
        keys = list(index)
        code = pl.col("code").cast(pl.String)
        may_have.append(code.str.to_uppercase().is_in(keys) | code.str.split(".").list.first().is_in(keys))
    if has_inline:
        may_have.append(pl.col("report_text").str.len_chars() > 0)
    if not may_have:
        return []
    inline = pl.col("report_text") if has_inline else pl.lit(None, dtype=pl.String)
    fired = pl.col("rules_fired") if "rules_fired" in frame.columns else pl.lit(None, dtype=pl.String)
    picked = (
        frame.lazy()
        .with_row_index("_idx")
        .filter(pl.any_horizontal(may_have))
        .select("_idx", "row", "code", "name", "roe", "pe_ttm", inline.alias("_text"), fired.alias("_fired"))
        .collect()
    )
    items: list[ScreenItem] = []
    for _, row, code, name, roe, pe, text, rules_fired in picked.iter_rows():
        src = filing_for(code, text, index)
        if src is not None:
            items.append(ScreenItem(row, code, name or "", roe, pe, src, rules_fired))
    return items


def write_facts(out: Path, facts: Iterator[dict[str, Any]] | Any) -> None:
    """facts.jsonl: every row's facts, in row order, written whole to a temp name and renamed."""
    from lmscreen.outputs.atomic import write_pieces
    from lmscreen.outputs.columns import FACTS
    from lmscreen.outputs.results import detail_json

    write_pieces(out / FACTS, (detail_json(f) + "\n" for f in facts))


def _llm_stage(
    items: list[ScreenItem], opts: ScreenOptions, engine: Engine | None
) -> tuple[pl.DataFrame, dict[str, Any]]:
    """Ask about every row with a filing (answers already in the checkpoint are reused) and return the
    answers as one frame (`row`, the LLM columns, the nested `llm` detail) with the run's info."""
    from lmscreen.run.engine_source import engine_source
    from lmscreen.run.merge import answers_frame
    from lmscreen.run.runner import run_items
    from lmscreen.task import choice_prompt_hash
    from lmscreen.task.screen import ScreenAnswer, ScreenTask

    # The 135M default cannot pick among numbered figures reliably: the facts carry them on their own,
    # and it writes only the reason. A served model (or a GGUF of the user's) chooses what they leave open.
    model_picks = opts.engine != "embedded" or opts.model is not None
    task = ScreenTask(
        report_token_budget=opts.report_token_budget, max_tokens=opts.max_tokens, model_picks=model_picks
    )
    outcome = run_items(task, items, engine_source(opts, engine), opts.out, progress=opts.progress)
    rows: list[dict[str, Any]] = []
    details: list[dict[str, Any]] = []
    answer: ScreenAnswer
    for answer in outcome.results:
        rows.append({"row": answer.row, **answer.columns})
        details.append({"row": answer.row, "llm": answer.detail})
    write_facts(opts.out, (f for answer in outcome.results for f in answer.facts))
    for item, why in outcome.unreadable:
        rows.append({"row": item.row, "flags": "report_unreadable", "status": f"llm_error: {why}"})
        details.append({"row": item.row, "llm": {"error": why}})
    ran = outcome.info
    info = {
        "enabled": True,
        "model_picks": model_picks,
        "facts": sum(len(answer.facts) for answer in outcome.results),
        "engine": ran.get("engine"),
        "engine_created": ran["engine_created"],
        "prompt_hash": choice_prompt_hash(),
        "signature": ran.get("signature"),
        "rows_with_report": ran["items"],
        "reports_unreadable": len(outcome.unreadable),
        "resumed": ran["resumed"],
        "sent": ran["sent"],
        "failed": ran["failed"],
        "llm_seconds_this_run": ran.get("seconds_this_run", 0.0),
        "usage": ran.get("usage", {"prompt_tokens": 0, "completion_tokens": 0, "cached_prompt_tokens": 0}),
        "rows_per_s_this_run": ran.get("rows_per_s_this_run"),
    }
    return answers_frame(rows, details), info
