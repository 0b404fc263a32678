"""The compare job: DOCS → (documents on the durable runner) → points → series and trends → the written
comparison (a second runner task) → trends.csv, series.csv, compare.md, compare.html, compare.json.

Bad input is said in one line each: an empty folder, an unknown metric or a bad range stop the run before
anything is read (InputError, exit 2); an unreadable PDF, a document whose company has no industry and a
report whose industry cannot be told are listed in compare.json and on stderr, and the rest is compared.
When nothing can be compared (no company has an industry, the range holds no fact) everything that was
read is still written, and then the run fails with the line saying why.
"""

from __future__ import annotations

import csv
import io
import json
import re
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from lmscreen.engines.protocol import Engine
from lmscreen.errors import InputError
from lmscreen.filings import FILING_SUFFIXES
from lmscreen.run import checkpoint as ckpt_mod
from lmscreen.run import outdir
from lmscreen.run.brief import TemplateEngine
from lmscreen.run.engine_source import engine_source
from lmscreen.run.options import ScreenOptions
from lmscreen.run.runner import EngineSource, run_items
from lmscreen.task.compare.aggregate import Comparison, Placed
from lmscreen.task.compare.aggregate import compare as aggregate
from lmscreen.task.compare.metrics import DEFAULT, MetricSpec, metric_spec
from lmscreen.task.compare.spans import Span, parse_span
from lmscreen.task.compare.task import DocItem, DocumentTask, Narrative, NarrativeTask
from lmscreen.task.points import DocPoints

_CODE_RE = re.compile(r"^(?P<code>\d{6})(?:\.(?:SH|SZ|BJ))?(?=$|[ _\-.])", re.IGNORECASE)
_HEADER_WORDS = {"industry", "行业", "所属行业", "申万行业", "sector"}


@dataclass
class CompareOptions:
    docs: Path
    out: Path
    pool: Path | None = None
    industries: Path | None = None
    metrics: list[str] = field(default_factory=lambda: [DEFAULT])
    periods: str | None = None
    period_kind: str = "FY"
    include_forecasts: bool = False
    engine: str = "embedded"
    model: str | None = None
    base_url: str | None = None
    api_key: str | None = field(default=None, repr=False)
    concurrency: int = 4
    lang: str = "zh"
    fresh: bool = False
    progress: bool = True

    def public(self) -> dict[str, Any]:
        data = {k: (str(v) if isinstance(v, Path) else v) for k, v in self.__dict__.items()}
        data["api_key"] = "set" if self.api_key else None
        return data

    def engine_options(self) -> ScreenOptions:
        return ScreenOptions(
            pool=self.docs,
            out=self.out,
            engine=self.engine,
            model=self.model,
            base_url=self.base_url,
            api_key=self.api_key,
            concurrency=self.concurrency,
            progress=self.progress,
        )


@dataclass
class CompareSummary:
    out_dir: Path
    documents: int = 0
    companies: int = 0
    reports: int = 0
    narrative_source: str = "template"
    notices: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Company:
    code: str
    name: str
    industry: str


def company_code(path: Path) -> str | None:
    """The code a company document is named by (`601012.pdf`, `601012.SH_2023.pdf`); None: a report."""
    found = _CODE_RE.match(path.stem.strip())
    return found.group("code") if found else None


def list_documents(docs: Path) -> list[Path]:
    if not docs.is_dir():
        raise InputError(f"{docs}: DOCS must be a folder of .pdf, .txt and .md documents")
    found = sorted(p for p in docs.iterdir() if p.is_file() and p.suffix.lower() in FILING_SUFFIXES)
    if not found:
        raise InputError(f"{docs}: no .pdf, .txt or .md document in the folder")
    return found


def read_industries(path: Path) -> tuple[dict[str, Company], dict[str, str]]:
    """A two-column file: code or name → industry. (by code, by name); InputError naming the row."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise InputError(f"{path}: cannot be read ({exc.strerror or exc})") from exc
    from lmscreen.filings import decode_text

    text = decode_text(raw, path)
    dialect = "excel-tab" if "\t" in text.split("\n", 1)[0] else "excel"
    by_code: dict[str, Company] = {}
    by_name: dict[str, str] = {}
    for number, row in enumerate(csv.reader(io.StringIO(text), dialect=dialect), start=1):
        cells = [c.strip() for c in row]
        if not any(cells):
            continue
        if len(cells) < 2 or not cells[0] or not cells[1]:
            raise InputError(f"{path}: row {number}: expected two columns, code or name, then industry")
        if number == 1 and cells[1].lower() in _HEADER_WORDS:
            continue
        code = _CODE_RE.match(cells[0])
        if code:
            by_code[code.group("code")] = Company(code.group("code"), "", cells[1])
        else:
            by_name[cells[0]] = cells[1]
    if not by_code and not by_name:
        raise InputError(f"{path}: no code or name → industry row")
    return by_code, by_name


def pool_industries(path: Path) -> dict[str, Company]:
    """code → (name, industry) from any pool `screen` reads (its industry column)."""
    from lmscreen.pool.load import load_pool

    pool = load_pool(path)
    if "industry" not in pool.frame.columns:
        raise InputError(f"{path}: the pool has no industry column")
    out: dict[str, Company] = {}
    for row in pool.frame.select("code", "name", "industry").iter_rows(named=True):
        code = _CODE_RE.match(str(row["code"]))
        if code and row["industry"]:
            out[code.group("code")] = Company(code.group("code"), row["name"] or "", row["industry"])
    return out


def compare(
    opts: CompareOptions, *, engine: Engine | None = None, doc_engine: Engine | None = None
) -> CompareSummary:
    """Compare every document of DOCS into OUT (locked for the run). `engine` lends a loaded model for the
    narrative, `doc_engine` the documents' engine (tests: one that kills its process mid-run)."""
    specs = [metric_spec(m) for m in dict.fromkeys(opts.metrics or [DEFAULT])]
    span = parse_span(opts.periods, opts.period_kind, opts.include_forecasts)
    if opts.lang not in ("zh", "en"):
        raise InputError(f"--lang: {opts.lang!r} is not one of zh, en")
    if opts.pool is not None and opts.industries is not None:
        raise InputError("--pool and --industries: give one of them")
    paths = list_documents(opts.docs)
    if opts.pool is not None:
        by_code, by_name = pool_industries(opts.pool), {}
    elif opts.industries is not None:
        by_code, by_name = read_industries(opts.industries)
    else:
        raise InputError("no industries: give --pool POOL (its industry column) or --industries FILE")
    try:
        opts.out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InputError(f"{opts.out}: cannot create the output folder ({exc.strerror or exc})") from exc
    with outdir.hold(opts.out):
        outdir.probe_writable(opts.out)
        return _compare(opts, specs, span, paths, by_code, by_name, engine, doc_engine)


def _compare(
    opts: CompareOptions,
    specs: list[MetricSpec],
    span: Span,
    paths: list[Path],
    by_code: dict[str, Company],
    by_name: dict[str, str],
    engine: Engine | None,
    doc_engine: Engine | None,
) -> CompareSummary:
    started = time.time()
    if opts.fresh:
        ckpt_mod.remove(opts.out)
    summary = CompareSummary(opts.out, documents=len(paths))
    items: list[DocItem] = []
    for i, path in enumerate(paths):
        code = company_code(path)
        known = by_code.get(code) if code else None
        items.append(DocItem(i, path, (known.name,) if known and known.name else ()))
    source = EngineSource.of(doc_engine or TemplateEngine())
    outcome = run_items(DocumentTask(), items, source, opts.out, progress=opts.progress)
    read: dict[int, DocPoints | str] = {}
    unreadable_items = {id(item): why for item, why in outcome.unreadable}
    answered = [it for it in items if id(it) not in unreadable_items]
    for item, result in zip(answered, outcome.results, strict=True):
        read[item.ordinal] = result
    industries = sorted({c.industry for c in by_code.values()} | set(by_name.values()))
    placed: list[Placed] = []
    documents: list[dict[str, Any]] = []
    for item in items:
        result = read.get(item.ordinal, unreadable_items.get(id(item), "not read"))
        entry: dict[str, Any] = {"document": item.path.name}
        documents.append(entry)
        if isinstance(result, str):
            entry.update(kind="unreadable", reason=result)
            summary.notices.append(f"{item.path.name}: unreadable: {result}")
            continue
        code = company_code(item.path)
        if code is not None:
            company = by_code.get(code) or _by_name(code, result, by_name)
            entry.update(kind="company", code=code, period=result.period, points=len(result.points))
            if company is None:
                entry.update(kind="unplaced", reason=f"no industry for {code}")
                summary.notices.append(
                    f"{item.path.name}: no industry for {code} (not in the pool or --industries)"
                )
                continue
            entry.update(name=company.name, industry=company.industry)
            placed.append(Placed(item.path.name, result, code, company.name, company.industry))
            continue
        subject = tuple(i for i in industries if i in item.path.stem or i in result.title)
        entry.update(kind="industry_report", industries=list(subject), points=len(result.points))
        placed.append(Placed(item.path.name, result, report_industries=subject))
    summary.companies = len({p.code for p in placed if p.code})
    summary.reports = sum(1 for p in placed if p.code is None)
    comparison = aggregate(placed, industries, specs, span)
    narrative, told = _narrative(opts, comparison, engine)
    summary.narrative_source = narrative.source
    runner = {"documents": outcome.info, "narrative": told}
    _write(opts, comparison, narrative, documents, summary, started, runner)
    if not summary.companies:
        raise InputError(f"{opts.docs}: no document's company has an industry (give --pool or --industries)")
    if not any(c.n or c.stated is not None for c in comparison.trends):
        asked = opts.periods or "any period"
        raise InputError(f"--periods {asked}: no document states {', '.join(s.name for s in specs)} for it")
    return summary


def _by_name(code: str, points: DocPoints, by_name: dict[str, str]) -> Company | None:
    named = [(n, ind) for n, ind in by_name.items() if n in points.title]
    return Company(code, named[0][0], named[0][1]) if len(named) == 1 else None


def uses_model(opts: CompareOptions) -> bool:
    """A served model or a GGUF of the user's writes the comparison; the embedded 135M default never."""
    return opts.engine != "embedded" or opts.model is not None


def _narrative(
    opts: CompareOptions, comparison: Comparison, engine: Engine | None
) -> tuple[Narrative, dict[str, Any]]:
    """The written comparison, and what the runner says of its question (sent, resumed, engine)."""
    model = uses_model(opts) or engine is not None
    task = NarrativeTask(comparison, opts.lang, use_model=model)
    if not task.lines:
        return task.result(0, _NoAnswer()), {"items": 0}
    source = engine_source(opts.engine_options(), engine) if model else EngineSource.of(TemplateEngine())
    outcome = run_items(task, [0], source, opts.out, progress=False)
    return outcome.results[0], outcome.info


class _NoAnswer:
    text = None
    error = None
    extra: dict[str, Any] = {}


def _csv(rows: list[dict[str, Any]], columns: list[str]) -> str:
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=columns, lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({k: _cell(row.get(k)) for k in columns})
    return buf.getvalue()


def _cell(value: Any) -> Any:
    """A text cell a spreadsheet would run as a formula gets a leading apostrophe; numbers as they are."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@") and not _is_number(value):
        return "'" + value
    return "" if value is None else value


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _write(
    opts: CompareOptions,
    comparison: Comparison,
    narrative: Narrative,
    documents: list[dict[str, Any]],
    summary: CompareSummary,
    started: float,
    runner: dict[str, Any],
) -> None:
    from lmscreen import __version__
    from lmscreen.outputs.atomic import write_text
    from lmscreen.outputs.columns import SERIES, SERIES_COLUMNS, TRENDS, TRENDS_COLUMNS
    from lmscreen.report.compare import write_compare_report

    trends = [c.row() for c in comparison.trends]
    series = [s.row() for s in comparison.series]
    write_text(opts.out / TRENDS, _csv(trends, list(TRENDS_COLUMNS)))
    write_text(opts.out / SERIES, _csv(series, list(SERIES_COLUMNS)))
    run = {
        "lmscreen_version": __version__,
        "started_at": datetime.fromtimestamp(started, timezone.utc).isoformat(),
        "finished_at": datetime.now(timezone.utc).isoformat(),
        "options": opts.public(),
        "industries": comparison.industries,
        "metrics": [s.name for s in comparison.specs],
        "periods": comparison.periods,
        "narrative": narrative.text,
        "narrative_source": narrative.source,
        "narrative_rejected": narrative.rejected,
        "documents": documents,
        "notices": summary.notices,
        "runner": runner,
    }
    write_text(opts.out / "compare.json", json.dumps(run, ensure_ascii=False, indent=2, default=str) + "\n")
    write_compare_report(opts.out, comparison, narrative.text, narrative.source, documents, opts.lang)
