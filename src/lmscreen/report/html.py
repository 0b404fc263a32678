"""report.html: one self-contained page (no network, no external file) that a reader opens the morning after.

Re-rendered from the run's own files (run.json, results.jsonl, errors.csv) plus the history database, so
`lmscreen report OUT_DIR` rebuilds it at any time without the LLM. Nothing from the input or the model is
ever interpreted as markup or script:
- server-side text goes through Jinja's autoescape;
- the row data travels as JSON in a `<script type="application/json">` block with `<`, `>`, `&` and the
  JS line separators written as `\\uXXXX`, so `</script>` in a name cannot close the block;
- the page script only ever sets `textContent`, never HTML;
- a Content-Security-Policy allows no network request at all and runs only the page's own script
  (pinned by its sha256), so even a missed escape could not load or run anything.
"""

from __future__ import annotations

import base64
import gc
import gzip
import hashlib
import json
import math
import zlib
from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from jinja2 import Environment, FileSystemBytecodeCache, FunctionLoader, select_autoescape
from jinja2.bccache import Bucket

from lmscreen.errors import InputError
from lmscreen.outputs.atomic import write_pieces, write_text
from lmscreen.outputs.levels import LevelScale
from lmscreen.report import labels
from lmscreen.report.chart_data import ChartData, thresholds_of
from lmscreen.report.evidence import sentence_quote
from lmscreen.report.run_view import RowsDigest, RunView, load_run
from lmscreen.rules.ruleset import COMPARISON_OPS, Rule, RuleSet

if TYPE_CHECKING:
    import polars as pl

    from lmscreen.report.charts import Chart

FIGURE_ORDER = ("revenue", "net_profit", "gross_margin", "roe", "pe_ttm")
MAX_CHANGES_SHOWN = 500
"""Entries per change list (changed / added / dropped) in report.html; `lmscreen diff` lists them all."""


def _asset(name: str) -> str:
    return resources.files("lmscreen.report").joinpath("templates", name).read_text(encoding="utf-8")


def json_for_script(data: Any) -> str:
    """JSON safe inside a <script> element: no `<`, `>` or `&` (so no `</script>` or `<!--`), and no
    U+2028/U+2029, which old JS parsers treat as line ends."""
    return _script_safe(json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False))


def _script_safe(text: str) -> str:
    for ch, esc in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"), ("\u2028", "\\u2028")):
        text = text.replace(ch, esc)
    return text.replace("\u2029", "\\u2029")


def _num(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value) if math.isfinite(value) else None


def _fmt(value: float | None) -> str:
    return "" if value is None else f"{value:,.2f}".rstrip("0").rstrip(".")


def money(value: float, lang: str) -> str:
    if lang == "zh":
        if abs(value) >= 1e8:
            return f"{_fmt(value / 1e8)} 亿元"
        if abs(value) >= 1e4:
            return f"{_fmt(value / 1e4)} 万元"
        return f"{_fmt(value)} 元"
    if abs(value) >= 1e9:
        return f"CNY {_fmt(value / 1e9)} bn"
    if abs(value) >= 1e6:
        return f"CNY {_fmt(value / 1e6)} m"
    return f"CNY {_fmt(value)}"


def figure_value(f: dict[str, Any], lang: str) -> str:
    base, unit = _num(f.get("value_base")), f.get("base_unit")
    if base is not None:
        if unit == "yuan":
            return money(base, lang)
        if unit == "percent":
            return f"{_fmt(base)}%"
        return _fmt(base)
    raw = f.get("raw_value") if f.get("raw_value") is not None else f.get("value")
    return " ".join(str(x) for x in (raw, f.get("unit")) if x not in (None, ""))


def _value_text(value: Any, lang: str) -> str:
    if value is None:
        return "缺失" if lang == "zh" else "missing"
    return str(value)


def rule_text(rule: Rule, shown: Any, level: str, lang: str) -> str:
    """`roe_lt_5: ROE 2.49 < 5 → 高` — the rule, the value that crossed it and the threshold."""
    column = labels.field_name(rule.shown_column, lang)
    return f"{rule.id}: {column} {_value_text(shown, lang)}{_op_text(rule, lang)} → {level}"


def _op_text(rule: Rule, lang: str) -> str:
    if rule.op in COMPARISON_OPS or rule.op == "eq":
        value = f"{rule.value:g}" if isinstance(rule.value, float) else str(rule.value)
        return f" {labels.OPS[rule.op]} {value}"
    return ""


def rule_summary(rules: RuleSet, lang: str) -> list[dict[str, str]]:
    """The rules in force, thresholds as in the YAML, one line each, most severe level first."""
    names = rules.levels.names
    out = []
    for level in rules.levels.order:
        for rule in rules.rules:
            if rule.level != level:
                continue
            column = labels.field_name(rule.field, lang)
            if rule.op == "is_null":
                cond = f"{column} {'缺失' if lang == 'zh' else 'missing'}"
            elif rule.op == "is_true":
                cond = f"{column} {'为真' if lang == 'zh' else 'is true'}"
            else:
                cond = f"{column}{_op_text(rule, lang)}"
            shown = labels.level_name(names[level], lang)
            out.append({"level": shown, "cls": names[level], "id": rule.id, "cond": cond})
    s = rules.score
    if lang == "zh":
        formula = (
            f"评分 = {s.base} − PE′×{s.pe.weight}/{s.pe.per} − ({s.roe.target} − ROE)×{s.roe.weight}，"
            f"限于 {s.min}–{s.max}；PE 缺失或 ≤ 0 时 PE′ = {s.pe.fallback}；ROE 缺失时无评分"
        )
    else:
        formula = (
            f"score = {s.base} − PE′×{s.pe.weight}/{s.pe.per} − ({s.roe.target} − ROE)×{s.roe.weight}, "
            f"clamped to {s.min}–{s.max}; PE′ = {s.pe.fallback} when PE is missing or ≤ 0; "
            "no score without ROE"
        )
    out.append({"level": "", "cls": "", "id": "score", "cond": formula})
    return out


thresholds = thresholds_of
"""The rules' PE and ROE thresholds (chart_data.thresholds_of), under the name callers know."""


def _fired(rec: dict[str, Any]) -> list[dict[str, Any]]:
    """A row's fired rules as {rule, field, value} entries: results.jsonl's and results.parquet's nested
    `rules_fired`, or a run written before it was nested (`rules_fired_json`, a JSON string of {id, field,
    value})."""
    nested = rec.get("rules_fired")
    if isinstance(nested, list):
        return nested
    raw = rec.get("rules_fired_json")
    if isinstance(raw, str):
        try:
            value = json.loads(raw)
        except json.JSONDecodeError:
            return []
        if not isinstance(value, list):
            return []
        return [{"rule": e.get("id"), **e} for e in value if isinstance(e, dict)]
    return []


def _all_fired(recs: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    return [_fired(rec) for rec in recs]


class _Sources:
    """Report texts, read again only for rows whose figures need their sentence."""

    def __init__(self, run: dict[str, Any]) -> None:
        reports = (run.get("options") or {}).get("reports")
        self.index: dict[str, Path] = {}
        if reports:
            from lmscreen.filings import index_filings

            try:
                self.index = index_filings(Path(reports))
            except InputError:
                self.index = {}

    def text(self, rec: dict[str, Any]) -> str | None:
        from lmscreen.filings import filing_for

        src = filing_for(str(rec.get("code") or ""), rec.get("report_text"), self.index)
        if src is None:
            return None
        try:
            return src.quote_text()
        except (OSError, InputError):
            return None


class _Words:
    """Per-report memo of the words a detail repeats on every row (a rule's text around its value, a flag,
    a status): 10,000 details share a few dozen of them."""

    def __init__(self, rules: RuleSet | None, lang: str) -> None:
        self.lang = lang
        self.t = labels.text(lang)
        names = rules.levels.names if rules else {}
        self.rules: dict[str, tuple[str, str]] = {}
        for rule in rules.rules if rules else []:
            level = labels.level_name(names.get(rule.level, rule.level), lang)
            # rule_text() split around the value, so each row only fills its value in.
            before, after = rule_text(rule, "\0", level, lang).split("\0", 1)
            self.rules[rule.id] = (before, after)
        self.sources = {"model": self.t["source_model"], "rules": self.t["source_rules"]}
        self._flags: dict[str, str] = {}
        self._status: dict[str | None, str] = {}

    def fired(self, entry: dict[str, Any]) -> str:
        around = self.rules.get(str(entry.get("rule")))
        value = _value_text(entry.get("value"), self.lang)
        if around is None:
            return f"{entry.get('rule')}: {entry.get('field')} = {value}"
        return around[0] + value + around[1]

    def flag(self, flag: str) -> str:
        words = self._flags.get(flag)
        if words is None:
            said = labels.flag_words(flag, self.lang)
            words = self._flags[flag] = f"{said} ({flag})" if said != flag else flag
        return words

    def status(self, status: str | None) -> str:
        words = self._status.get(status)
        if words is None:
            words = self._status[status] = labels.status_words(status, self.lang)
        return words


def _detail(
    rec: dict[str, Any], fired_entries: list[dict[str, Any]], words: _Words, sources: _Sources
) -> dict[str, Any]:
    lang, t = words.lang, words.t
    fired = [words.fired(entry) for entry in fired_entries]
    figures = []
    fields = ((rec.get("llm") or {}).get("fields")) or {}
    source: str | None = None
    source_read = False
    for name in FIGURE_ORDER if fields else ():
        f = fields.get(name)
        if not isinstance(f, dict) or f.get("verdict") in (None, "absent"):
            continue
        label = labels.field_name(name, lang)
        if f.get("grounded") and isinstance(f.get("evidence"), dict):
            if not source_read:
                source, source_read = sources.text(rec), True
            quote = sentence_quote(f["evidence"], source)
            figures.append(
                [label, figure_value(f, lang), f.get("period") or "", quote.to_json() if quote else None, ""]
            )
        else:
            figures.append([label, figure_value(f, lang), f.get("period") or "", None, t["not_grounded"]])
    reason = rec.get("reason")
    reason_source = rec.get("reason_source") or ("model" if reason else None)
    flags = rec.get("flags")
    return {
        "r": fired,
        "f": figures,
        "rs": words.sources.get(reason_source, reason_source) if reason_source else "",
        "st": words.status(rec.get("status")),
        "fw": [words.flag(f) for f in flags.split(";") if f] if flags else [],
    }


_ROW_BLOCK = 500
"""Records handled at a time: the most whole records the report holds at once."""


def payload(view: RunView, lang: str) -> tuple[str, str]:
    """The page's data block (json_for_script of lang, words, levels, flags and the table's rows) and the
    packed details, built in one walk of the shown rows: each record becomes its compact table row (as
    script-safe JSON text) and its detail (fed to the compressor) and is let go. The text is the same as
    json_for_script / packed of the whole lists would give."""
    words = _Words(view.rules, lang)
    sources = _Sources(view.run)
    flag_index: dict[str, int] = {}
    changed = {
        e["code"]: [e["risk_level_a"], e["score_a"]] for e in (view.changes.changed if view.changes else [])
    }
    added = {e["code"] for e in (view.changes.added if view.changes else [])}
    rows: list[str] = []
    details = Packer()
    digest = RowsDigest(worst=view.levels.worst)
    block: list[dict[str, Any]] = []

    def flush() -> None:
        if not block:
            return
        table: list[list[Any]] = []
        shown: list[dict[str, Any]] = []
        for rec, fired in zip(block, _all_fired(block), strict=True):
            flags = [f for f in (rec.get("flags") or "").split(";") if f]
            code = rec.get("code")
            row = [
                rec.get("row"),
                code,
                rec.get("name"),
                rec.get("industry"),
                rec.get("risk_level"),
                _num(rec.get("score")),
                _num(rec.get("pe_ttm")),
                _num(rec.get("roe")),
                [flag_index.setdefault(f, len(flag_index)) for f in flags],
                (rec.get("status") or "ok") == "ok",
                rec.get("reason") or "",
                changed.get(code) or ("new" if code in added else None),
            ]
            table.append(row)
            shown.append(_detail(rec, fired, words, sources))
            digest.add(rec)
        # A block's rows and details encoded in one call each: the encoder's cost per call, not per
        # byte, was most of it. A list's JSON is its items' JSON joined by commas, so the text is the same.
        rows.append(_script_safe(_ENCODER.encode(table))[1:-1])
        details.add_many(shown)
        block.clear()

    for rec in view.rows:
        block.append(rec)
        if len(block) >= _ROW_BLOCK:
            flush()
    flush()
    view.rows.remember(digest)
    scale = view.levels
    head = json_for_script(
        {
            "lang": lang,
            "t": labels.text(lang),
            "levels": {lv: labels.level_name(lv, lang) for lv in scale.shown},
            # The table sorts by the rules' own order (first fired level wins): the worst first.
            "level_order": list(scale.severity),
            "flags": [[f, labels.flag_words(f, lang)] for f in flag_index],
        }
    )
    return head[:-1] + ',"rows":[' + ",".join(rows) + "]}", details.result()


class Packer:
    """packed() of a list whose items arrive one at a time: each item's JSON goes to the gzip stream as it
    comes (a few pieces buffered), so neither the whole list nor its JSON text exists at once. The bytes are
    packed()'s own (zlib's output does not depend on how its input is cut)."""

    BUFFER = 1 << 16
    """Characters of JSON gathered before they go to the compressor (one call per piece costs more)."""

    def __init__(self) -> None:
        self._zip = zlib.compressobj(6, zlib.DEFLATED, 31)
        self._out: list[bytes] = []
        self._pending: list[str] = ["["]
        self._size = 0
        self._items = 0

    def add(self, item: Any) -> None:
        self._append(_ENCODER.encode(item), 1)

    def add_many(self, items: list[Any]) -> None:
        """add() of each item, encoded in one call (the same text: a list's JSON is its items' joined)."""
        if items:
            self._append(_ENCODER.encode(items)[1:-1], len(items))

    def _append(self, text: str, count: int) -> None:
        if self._items:
            self._pending.append(",")
        self._pending.append(text)
        self._items += count
        self._size += len(text)
        if self._size >= self.BUFFER:
            self._drain()

    def _drain(self) -> None:
        self._out.append(self._zip.compress("".join(self._pending).encode("utf-8")))
        self._pending.clear()
        self._size = 0

    def result(self) -> str:
        self._pending.append("]")
        self._drain()
        self._out.append(self._zip.flush())
        return base64.b64encode(b"".join(self._out)).decode("ascii")


_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def packed(data: Any) -> str:
    """gzip + base64 of compact JSON: the per-stock details are ~90% of a big report's bytes and compress
    about tenfold, which is what keeps 5,000 rows with their quoted sentences under 3 MB. The browser
    unpacks it with its built-in DecompressionStream; base64 cannot contain `<`, so it is inert in HTML."""
    raw = json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode("utf-8")
    return base64.b64encode(gzip.compress(raw, compresslevel=6, mtime=0)).decode("ascii")


def _summary(view: RunView, lang: str) -> dict[str, Any]:
    run = view.run
    counts = run.get("counts") or {}
    llm = run.get("llm") or {}
    usage = llm.get("usage") or {}
    timings = run.get("timings") or {}
    from lmscreen.outputs.history import model_and_engine

    model, engine = model_and_engine(run)
    total_s = _num(timings.get("total_s"))
    screened = counts.get("screened") or len(view.rows)
    flag_counts: dict[str, int] = dict(counts.get("flags") or {})
    if not flag_counts:  # a run.json written before flags were counted there
        flag_counts = dict(view.rows.digest().flags)
    levels = counts.get("risk_levels") or {}
    return {
        # Every level the run counted, in its rules' order: a level a custom rules file names is never
        # left out of the summary.
        "levels": [
            (lv, labels.level_name(lv, lang), levels[lv]) for lv in view.levels.ordered(levels) if levels[lv]
        ],
        "flags": sorted(
            ((f, labels.flag_words(f, lang), n) for f, n in flag_counts.items()), key=lambda x: (-x[2], x[0])
        ),
        "screened": screened,
        "rejected": counts.get("errors", 0),
        "model": model or "—",
        "engine": engine or "—",
        "duration": f"{total_s:.1f} s" if total_s is not None else "—",
        "tokens": (
            f"{usage.get('prompt_tokens', 0):,} + {usage.get('completion_tokens', 0):,}" if usage else "—"
        ),
        "rows_per_s": f"{screened / total_s:,.1f}" if total_s else "—",
        "llm_rows_per_s": _num(llm.get("rows_per_s_this_run")),
        "finished": run.get("finished_at", ""),
        "pool": (run.get("input") or {}).get("path", ""),
        "rules_file": (run.get("rules") or {}).get("path", ""),
        "rules_hash": ((run.get("rules") or {}).get("hash") or "")[:12],
    }


def _css_string(text: str) -> str:
    """A CSS string literal of any text: every character outside letters and digits written as a hex
    escape, so a level name can close neither the string, the rule nor the <style> element."""
    return '"' + "".join(ch if ch.isalnum() else f"\\{ord(ch):x} " for ch in text) + '"'


def level_css(scale: LevelScale) -> str:
    """Colours of the run's levels beyond the four default names (report.css colours those), matched by
    attribute (`[class~="lv-危险"]`) so the name needs no CSS identifier escaping. Empty for the default
    rules, whose page is then byte for byte what it was."""
    out = []
    for lv in scale.custom():
        cls = _css_string(f"lv-{lv}")
        out.append(f".card[class~={cls}] b,[class~={cls}]{{color:{scale.color(lv)}}}")
    return "\n".join(out) + ("\n" if out else "")


def report_charts(view: RunView, lang: str) -> dict[str, Any]:
    """The four charts, from the view's aggregates (over every row of the run when its verdicts could be
    read, the usual case, else over the rows the view holds, and then each caption says so)."""
    from lmscreen.report.charts import all_charts

    assert view.charts is not None, "load_run sets the charts"
    return all_charts(view.charts, thresholds(view.rules), lang)


def draw_charts(data: ChartData, rules: RuleSet | None, lang: str) -> dict[str, Chart]:
    """The four charts of a run under `rules` from its aggregates: what `report_charts` draws for the run's
    view (whose rules are these, as run.json records them), drawn before the view exists."""
    from lmscreen.report.charts import all_charts

    return all_charts(data, thresholds(rules), lang)


class _QuietCache(FileSystemBytecodeCache):
    """Jinja's compiled templates in lmscreen's cache folder, keyed by the template's text: compiling
    report.html's template was a tenth of a small run's report. A folder that cannot be read or written
    only costs the compile."""

    def load_bytecode(self, bucket: Bucket) -> None:
        try:
            super().load_bytecode(bucket)
        except (OSError, ValueError, EOFError):
            bucket.reset()

    def dump_bytecode(self, bucket: Bucket) -> None:
        try:
            super().dump_bytecode(bucket)
        except OSError:
            pass


def _environment() -> Environment:
    from lmscreen.home import cache

    folder = cache() / "templates"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        compiled: _QuietCache | None = _QuietCache(str(folder))
    except OSError:
        compiled = None
    env = Environment(
        loader=FunctionLoader(_asset),
        autoescape=select_autoescape(default=True, default_for_string=True),
        bytecode_cache=compiled,
    )
    env.filters["fmt"] = _fmt
    return env


def page_csp(script: str) -> str:
    """The Content-Security-Policy of an offline page: no network request, only `script` runs (pinned
    by its sha256). report.html and compare.html share it."""
    digest = base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode()
    return (
        "default-src 'none'; "
        f"script-src 'sha256-{digest}'; "
        "style-src 'unsafe-inline'; img-src data:; "
        "base-uri 'none'; form-action 'none'"
    )


def environment() -> Environment:
    """The pages' Jinja environment (autoescape on, templates from report/templates, compiled cached)."""
    return _environment()


def render_html(view: RunView, lang: str = "zh") -> str:
    return "".join(html_pieces(view, lang))


def html_pieces(view: RunView, lang: str = "zh", drawn: dict[str, Chart] | None = None) -> Iterator[str]:
    """report.html as the template's pieces, for writing out without the whole page as one string.

    `drawn`: the four charts already drawn from the view's aggregates (`report_charts`), by a caller that
    drew them while it waited on something else."""
    if lang not in labels.LANGS:
        raise InputError(f"--lang: {lang!r} is not one of {', '.join(labels.LANGS)}")
    data_json, details_packed = payload(view, lang)
    charts = drawn if drawn is not None else report_charts(view, lang)
    script = _asset("report.js")
    csp = page_csp(script)
    template = _environment().get_template("report.html.j2")
    return template.generate(
        lang=lang,
        t=labels.text(lang),
        csp=csp,
        css=_asset("report.css") + level_css(view.levels),
        script=script,
        data_json=data_json,
        details_packed=details_packed,
        s=_summary(view, lang),
        rules=rule_summary(view.rules, lang) if view.rules else [],
        errors=view.errors,
        charts=charts,
        changes=view.changes,
        previous=view.previous,
        history_error=view.history_error,
        level_name=lambda lv: labels.level_name(lv, lang),
        rows_cut=view.rows_cut,
        rows_shown=len(view.rows),
        max_changes=MAX_CHANGES_SHOWN,
    )


def write_report(
    out_dir: Path,
    lang: str = "zh",
    verdicts: pl.DataFrame | None = None,
    charts: ChartData | None = None,
    drawn: dict[str, Chart] | None = None,
) -> Path:
    """Write report.html and report.md of a finished run; returns the html path.

    `charts`: the runner's ChartTotals result, so a streamed run's rows are not read back for the charts;
    `drawn`: those charts already drawn (`draw_charts(charts, rules, lang)`); `verdicts`: a whole frame of
    the run's verdicts a caller still holds. See load_run."""
    from lmscreen.report.markdown import render_markdown

    # The report builds dozens of objects per row it walks (the parsed record, its table row and detail):
    # the cyclic collector would walk them again and again (a fifth of the step's CPU on 10,000 rows), for
    # no cycle to find. Reference counting frees each row's objects once its block is written.
    collecting = gc.isenabled()
    gc.disable()
    try:
        view = load_run(out_dir, verdicts, charts)
        path = out_dir / "report.html"
        write_pieces(path, html_pieces(view, lang, drawn))
        write_text(out_dir / "report.md", render_markdown(view, lang))
    finally:
        if collecting:
            gc.enable()
    return path
