"""The screening run: pool → rules → (LLM per row, checkpointed) → outputs in input order.

The deterministic part (load, rules, output) is vectorised over the whole pool; only rows with a report
text go to the LLM, one request per row, streamed through the engine so memory does not grow with the
pool. Every LLM answer is committed to the checkpoint before the next is taken, and the outputs are
re-derived from the checkpoint at the end, so a rerun after a kill produces exactly the rows of an
uninterrupted run.
"""

from __future__ import annotations

import hashlib
import platform
import time
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any

import polars as pl

from lmscreen import __version__
from lmscreen.engines.protocol import Engine, LLMRequest, LLMResult
from lmscreen.errors import InputError
from lmscreen.pool.notes import input_notes
from lmscreen.pool.periods import annualize_roe, record_annualized
from lmscreen.pool.ragged import empty_errors
from lmscreen.report.writers import DETAIL_JSON, detail_json
from lmscreen.run import checkpoint as ckpt_mod
from lmscreen.run import outdir
from lmscreen.run.keys import row_key, run_signature
from lmscreen.run.options import ScreenOptions
from lmscreen.run.progress import RowProgress
from lmscreen.run.reports import ReportSource, annotate_pages, index_reports, report_for

if TYPE_CHECKING:
    from lmscreen.pool.load import PoolReader
    from lmscreen.rules import RuleSet


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


@dataclass
class _LLMRow:
    row: int
    code: str
    name: str
    roe: float | None
    pe: float | None
    source: ReportSource
    rules_fired: str | None = None
    key: str = ""


def screen(opts: ScreenOptions, engine: Engine | None = None) -> RunSummary:
    """Run one screening job end to end; `engine` lets a caller reuse an already loaded one.

    The OUT folder is locked for the whole run (a second run on it exits 2 naming this one's pid) and
    proven writable before anything slow starts.
    """
    try:
        opts.out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InputError(f"{opts.out}: cannot create the output folder ({exc.strerror or exc})") from exc
    # polars' in-memory engine for every collect() of the run: the chunks are already small, and the
    # default (streaming) engine's executor buffers cost a million-row run with reports ~15 MiB more peak
    # memory for no speed (measured side by side, bench/reliability.py --only memory).
    with outdir.hold(opts.out), pl.Config(engine_affinity="in-memory"):
        outdir.probe_writable(opts.out)
        _remove_stale_spills(opts.out)
        return _screen(opts, engine)


def _remove_stale_spills(out_dir: Path) -> None:
    """This run holds OUT's lock, so a spill folder already there is a killed run's: it goes."""
    import shutil

    for stale in out_dir.glob(f"{_SPILL_PREFIX}*"):
        shutil.rmtree(stale, ignore_errors=True)


def _screen(opts: ScreenOptions, engine: Engine | None) -> RunSummary:
    from lmscreen.pool.load import open_pool
    from lmscreen.report.chart_data import chart_totals
    from lmscreen.report.history import VERDICT_COLUMNS, VerdictParts, record_run_safely
    from lmscreen.report.writers import SPARSE_JSONL_COLUMNS, ResultWriter, write_errors, write_json
    from lmscreen.rules import load_rules, rules_hash

    started = time.time()
    timings: dict[str, float] = {}
    # The input's hash (a full read of the file) runs beside the load; hashlib releases the GIL.
    hasher = ThreadPoolExecutor(max_workers=1)
    input_hash = hasher.submit(_file_hash, opts.pool)
    hasher.shutdown(wait=False)
    rules = load_rules(opts.rules)
    reader = open_pool(opts.pool, chunk_rows=RULES_ONLY_CHUNK_ROWS if opts.no_llm else LLM_CHUNK_ROWS)
    judged = _Judged(reader, rules, opts)

    opts.out.mkdir(parents=True, exist_ok=True)
    if opts.fresh:
        ckpt_mod.remove(opts.out)

    has_text_column = "report_text" in reader.match.fields
    llm_info: dict[str, Any] = {"enabled": not opts.no_llm}
    spill: _Spill | None = None
    if opts.no_llm:
        chunks: Iterator[list[pl.DataFrame]] = ([_without_llm(c, "no_llm")] for c in judged)
        empty = [c for c in SPARSE_JSONL_COLUMNS if not (c == "report_text" and has_text_column)]
    else:
        spill = _Spill(opts.out)
        try:
            candidates: list[_LLMRow] = []
            index = index_reports(opts.reports) if opts.reports else None
            for chunk in judged:
                spill.add(chunk)
                candidates.extend(_llm_rows(chunk, opts, index))
            timings["load_s"], timings["rules_s"] = judged.load_s, judged.rules_s
            t_llm = time.perf_counter()
            answers, llm_info = _llm_stage(candidates, opts, engine)
            timings["llm_s"] = time.perf_counter() - t_llm
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
        chunks = (_merge(c, answers) for c in spill.chunks())  # type: ignore[assignment]

    t_write = time.perf_counter()
    risk_counts: Counter[str] = Counter()
    flag_counts: Counter[str] = Counter()
    # What the history and the charts keep of each chunk (Parquet parts spilled to a temp file, bounded
    # counts and a sample): a million-row run never holds every row's verdicts.
    parts, charts = VerdictParts(opts.out), chart_totals(rules)
    screened = 0
    try:
        with ResultWriter(opts.out, drop_from_jsonl=empty) as writer:
            for pieces in chunks:
                writer.write(pieces)
                verdicts = pl.concat([_verdicts(p, VERDICT_COLUMNS) for p in pieces])
                screened += verdicts.height
                risk_counts.update(_counts(verdicts.get_column("risk_level")))
                flag_counts.update(
                    _counts(verdicts.get_column("flags").str.split(";").explode().drop_nulls())
                )
                parts.add(verdicts)
                charts.add(verdicts)
                del pieces, verdicts
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
            },
            "llm": llm_info,
            "timings": timings,
            "host": {"python": platform.python_version(), "platform": platform.platform()},
        }
        # Recorded before run.json is written so run.json can name its history id (the reports use it to
        # find the previous run of the same pool); a broken history is noted there, never fatal.
        run["history"] = record_run_safely(run, parts=parts)
    finally:
        parts.close()
        if spill is not None:
            spill.close()
    write_json(run, opts.out / "run.json")
    from lmscreen.report.html import write_report

    write_report(opts.out, lang=opts.lang, charts=charts.result(screened))
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


class _Judged:
    """The pool's chunks with the rules applied (and --limit, --annualize-roe), in input order.

    Iterated once. The rejected rows are gathered on the way (`errors()`), cut at the last screened row
    when --limit stops the run early; `load_s` / `rules_s` sum the time spent in each step.
    """

    def __init__(self, reader: PoolReader, rules: RuleSet, opts: ScreenOptions) -> None:
        self.reader, self.rules, self.opts = reader, rules, opts
        self._errors: list[pl.DataFrame] = []
        self.load_s = self.rules_s = 0.0
        self._last_row: int | None = None

    def __iter__(self) -> Iterator[pl.DataFrame]:
        from lmscreen.rules import evaluate

        left = self.opts.limit
        chunks = iter(self.reader)
        while True:
            t = time.perf_counter()
            chunk = next(chunks, None)
            self.load_s += time.perf_counter() - t
            if chunk is None:
                break
            if left is not None and left <= 0:
                continue  # past --limit: the rest is read only for the file-level facts (warnings, notes)
            frame = chunk.frame
            self._errors.append(chunk.errors)
            if left is not None:
                frame = frame.head(left)
                left -= frame.height
            if not frame.height:
                continue
            self._last_row = int(frame.get_column("row").max())  # type: ignore[arg-type]
            t = time.perf_counter()
            if self.opts.annualize_roe:
                frame = annualize_roe(frame)
            frame = evaluate(frame, self.rules)
            if self.opts.annualize_roe:
                frame = record_annualized(frame)
            self.rules_s += time.perf_counter() - t
            yield frame

    def errors(self) -> pl.DataFrame:
        errors = pl.concat(self._errors) if self._errors else empty_errors()
        if self.opts.limit is not None:
            # Rows past the limit were not screened, so their load errors are not this run's either.
            errors = errors.filter(pl.col("row") <= (self._last_row or 0))
        return errors


RULES_ONLY_CHUNK_ROWS = 131_072
LLM_CHUNK_ROWS = 8_192
"""Rows read, judged and written at a time. A rules-only run is done in seconds and spends them in polars
calls whose fixed cost (~40 ms a chunk) is paid per chunk: large chunks. A run with the LLM step waits on
the model for minutes to hours, holds the engine and the answers beside the rows, and is the one left
unattended overnight: small chunks keep its memory near a small run's."""

_SPILL_PREFIX = ".lmscreen-spill-"


class _Spill:
    """The judged chunks of a run with an LLM step, kept on disk (Arrow IPC, compressed) while the model
    answers, then read back a chunk at a time to be merged with the answers and written. Holding them in
    memory instead would cost a million-row pool several hundred MB for the whole LLM step."""

    def __init__(self, out_dir: Path) -> None:
        import tempfile

        self.dir = Path(tempfile.mkdtemp(prefix=_SPILL_PREFIX, dir=out_dir))
        self.count = 0

    def add(self, frame: pl.DataFrame) -> None:
        frame.write_ipc(self.dir / f"{self.count:06d}.arrow", compression="lz4")
        self.count += 1

    def chunks(self) -> Iterator[pl.DataFrame]:
        for i in range(self.count):
            path = self.dir / f"{i:06d}.arrow"
            frame = pl.read_ipc(path.read_bytes())  # not mapped: the file is deleted next
            path.unlink()
            yield frame

    def close(self) -> None:
        import shutil

        shutil.rmtree(self.dir, ignore_errors=True)


def _file_hash(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


_LLM_COLUMNS: dict[str, pl.DataType] = {
    "reason": pl.String(),
    "reason_source": pl.String(),
    "flags": pl.String(),
    "status": pl.String(),
    "revenue_yuan": pl.Float64(),
    "net_profit_yuan": pl.Float64(),
    "gross_margin_pct": pl.Float64(),
    "roe_extracted_pct": pl.Float64(),
    "pe_extracted": pl.Float64(),
    "prompt_tokens": pl.Int64(),
    "completion_tokens": pl.Int64(),
}


def _without_llm(frame: pl.DataFrame, flag: str) -> pl.DataFrame:
    """The LLM columns, empty. They are null-typed, which holds no buffer at all: typed nulls cost a
    million-row run about 120 MiB for cells that are written as nothing (results.csv leaves them blank,
    results.jsonl leaves them out)."""
    cols = [pl.lit(None).alias(name) for name in _LLM_COLUMNS if name not in ("flags", "status")]
    # Lazily: an eager with_columns of a literal rechunks every column of a many-chunk frame (a copy of
    # the whole pool); the lazy engine adds the columns beside the existing chunks.
    return (
        frame.lazy().with_columns(*cols, pl.lit(flag).alias("flags"), pl.lit("ok").alias("status")).collect()
    )


def _llm_rows(frame: pl.DataFrame, opts: ScreenOptions, index: dict[str, Path] | None) -> list[_LLMRow]:
    """The rows that have a report, in input order.

    The rows that can have one (a code the report folder names, or a non-empty inline cell) are picked in
    polars first: a million-row pool with reports for a thousand rows must not be walked row by row in
    Python. `report_for` then decides on those rows exactly as before.
    """
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
    rows: list[_LLMRow] = []
    for _, row, code, name, roe, pe, text, rules_fired in picked.iter_rows():
        src = report_for(code, text, index)
        if src is not None:
            rows.append(_LLMRow(row, code, name or "", roe, pe, src, rules_fired))
    return rows


def _llm_stage(
    llm_rows: list[_LLMRow], opts: ScreenOptions, engine: Engine | None
) -> tuple[pl.DataFrame, dict[str, Any]]:
    """Ask the model about every row with a report (answers already in the checkpoint are reused) and
    return the answers as one frame (`row`, the LLM columns, the nested `llm` detail) with the run's info."""
    from lmscreen.task import choice_prompt_hash, prepare_request

    own_engine = engine is None
    if engine is None:
        from lmscreen.engines import make_engine

        engine = make_engine(opts)
    described = engine.describe()
    identity = described.get("identity") or {k: v for k, v in described.items() if k != "model"}
    signature = run_signature(identity, choice_prompt_hash(), opts.report_token_budget, opts.max_tokens)
    unreadable: list[tuple[_LLMRow, str]] = []
    for r in llm_rows:
        try:
            r.key = row_key(signature, r.code, r.name, r.source.digest())
        except (InputError, OSError) as exc:  # one bad report file must not stop an overnight run
            unreadable.append((r, str(exc)))
    if unreadable:
        skip = {id(r) for r, _ in unreadable}
        llm_rows = [r for r in llm_rows if id(r) not in skip]

    store = ckpt_mod.Checkpoint(opts.out)
    done = store.finished_keys(r.key for r in llm_rows)
    pending = [r for r in llm_rows if r.key not in done]
    # Bucket by prompt length: similar lengths together let batching engines pad less; the embedded
    # engine's answers do not depend on order (each row restores the same prefix state).
    pending.sort(key=lambda r: (_source_size(r.source) // 512, r.row))
    inflight: dict[str, tuple[_LLMRow, dict[str, Any] | None]] = {}

    def requests() -> Iterator[LLMRequest]:
        for r in pending:
            question, truncation = prepare_request(
                r.code, r.name, r.source.read(), opts.report_token_budget, engine.count_tokens
            )
            inflight[r.key] = (r, truncation)
            yield LLMRequest(
                key=r.key, messages=question.messages, schema=question.schema, max_tokens=opts.max_tokens
            )

    sent = failed = 0
    t0 = time.perf_counter()
    try:
        with RowProgress(len(pending), enabled=opts.progress, label=f"LLM {engine.name}") as progress:
            for result in engine.run(requests()):
                r, truncation = inflight.pop(result.key)
                if truncation:
                    result.extra = {**result.extra, "truncation": truncation}
                store.put(r.row, r.code, result)
                sent += 1
                failed += result.error is not None
                progress.advance(result.prompt_tokens + result.completion_tokens)
    finally:
        if own_engine:
            engine.close()
    llm_seconds = time.perf_counter() - t0

    stored = store.get_many([r.key for r in llm_rows])
    store.close()
    outcome_rows: list[dict[str, Any]] = []
    details: list[dict[str, Any]] = []
    usage = {"prompt_tokens": 0, "completion_tokens": 0, "cached_prompt_tokens": 0}
    for r in llm_rows:
        res = stored.get(r.key) or LLMResult(key=r.key, text=None, error="no answer recorded")
        row_out, detail = _outcome(r, res)
        outcome_rows.append(row_out)
        details.append(detail)
        for k in usage:
            usage[k] += int(getattr(res, k))
    for r, why in unreadable:
        outcome_rows.append({"row": r.row, "flags": "report_unreadable", "status": f"llm_error: {why}"})
        details.append({"row": r.row, "llm": {"error": why}})
    answers = _answers(outcome_rows, details)
    info = {
        "enabled": True,
        "engine": described,
        "prompt_hash": choice_prompt_hash(),
        "signature": signature,
        "rows_with_report": len(llm_rows),
        "reports_unreadable": len(unreadable),
        "resumed": len(done),
        "sent": sent,
        "failed": failed,
        "llm_seconds_this_run": llm_seconds,
        "usage": usage,
        "rows_per_s_this_run": sent / llm_seconds if llm_seconds > 0 else None,
    }
    return answers, info


def _source_size(src: ReportSource) -> int:
    """Bytes of the report (UTF-8 for an inline text, encoded a chunk at a time: no copy of a long cell)."""
    from lmscreen.run.long_text import text_chunks

    if src.text is not None:
        return sum(len(chunk.encode()) for chunk in text_chunks(src.text))
    return src.path.stat().st_size if src.path else 0


def _outcome(r: _LLMRow, res: LLMResult) -> tuple[dict[str, Any], dict[str, Any]]:
    """Turn a stored raw answer into the row's output columns (re-derived on every run)."""
    from lmscreen.task import process_choice

    truncation = (res.extra or {}).get("truncation")
    base = {"row": r.row, "prompt_tokens": res.prompt_tokens, "completion_tokens": res.completion_tokens}
    engine_error = None if res.error is None and res.text is not None else str(res.error)
    outcome = process_choice(
        res.text, r.code, r.source.read(), r.roe, r.pe, r.rules_fired, engine_error=engine_error
    )
    flags = list(outcome.flags) + annotate_pages(r.source, outcome.detail)
    if truncation and "truncated" not in flags:
        flags.append("truncated")
    out = {**base, **outcome.columns, "flags": ";".join(flags), "status": outcome.status}
    detail = {
        "row": r.row,
        "llm": {
            **outcome.detail,
            "finish_reason": res.finish_reason,
            "truncation": truncation,
            "raw": res.text,
        },
    }
    return out, detail


def _answers(outcome_rows: list[dict[str, Any]], details: list[dict[str, Any]]) -> pl.DataFrame:
    """Every answered row's LLM columns, plus its nested detail as one JSON text (`DETAIL_JSON`) that the
    results.jsonl writer puts in as the line's `llm` object.

    Why text and not a polars struct: building the 81-field struct from a thousand answers' dicts (or
    from their JSON) took 35-60 MB at its peak for a 1 MB result, the largest step of a big run's memory;
    the JSON text of each answer is what the file needs anyway."""
    schema = {"row": pl.Int64(), **_LLM_COLUMNS}
    llm = pl.DataFrame([{k: o.get(k) for k in schema} for o in outcome_rows], schema=schema)
    if details:
        texts = pl.DataFrame(
            {"row": [d["row"] for d in details], DETAIL_JSON: [detail_json(d.get("llm")) for d in details]},
            schema={"row": pl.Int64, DETAIL_JSON: pl.String},
        )
        llm = llm.join(texts, on="row", how="left")
    return llm.with_columns(pl.col("status").fill_null("ok"), pl.col("flags").fill_null("no_report"))


def _merge(frame: pl.DataFrame, answers: pl.DataFrame) -> list[pl.DataFrame]:
    """The chunk with the LLM columns (and the nested `llm` detail) beside it, as consecutive pieces in its
    row order, all with the same column names.

    Answered rows get their answers; runs of rows without one get the LLM columns as Null-typed literals
    (no buffer at all: `flags` = no_report, `status` = ok, the rest null), which results.csv and
    results.jsonl write exactly as typed nulls. Putting both in one frame would build every field of the
    nested detail (81 of them) as long as the chunk: about 90 MB for 120,000 rows, for cells that are null.
    """
    found = (
        frame.lazy()
        .select("row")
        .with_row_index("_pos")
        .filter(pl.col("row").is_in(answers["row"].implode()))
    ).collect()
    placed = found.join(answers, on="row", how="inner").sort("_pos")
    positions = placed["_pos"].to_list()
    values = placed.drop("_pos", "row")
    fill = {"flags": pl.lit("no_report"), "status": pl.lit("ok")}
    # A row without an answer has `llm`: null, written by polars from a Null-typed column in that place.
    unanswered = [
        fill.get(name, pl.lit(None)).alias("llm" if name == DETAIL_JSON else name) for name in values.columns
    ]
    pieces: list[pl.DataFrame] = []

    def gap(start: int, length: int) -> None:
        pieces.append(frame.slice(start, length).lazy().with_columns(unanswered).collect())

    at = k = 0
    while k < len(positions):
        run = 1  # answered rows next to each other go in as one piece
        while k + run < len(positions) and positions[k + run] == positions[k] + run:
            run += 1
        if positions[k] > at:
            gap(at, positions[k] - at)
        pieces.append(frame.slice(positions[k], run).hstack(values.slice(k, run).get_columns()))
        at = positions[k] + run
        k += run
    if at < frame.height or not pieces:
        gap(at, frame.height - at)
    return pieces


def check_out_dir(out: Path) -> None:
    if out.exists() and not out.is_dir():
        raise InputError(f"{out}: --out must be a folder")
