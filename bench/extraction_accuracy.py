"""Extraction accuracy and speed: the free-form question vs numbered candidates, side by side in one run.

On the labelled corpus in bench/data/extraction (report texts in the styles A-share users feed in, each
with the accepted value(s) of the five figures in base units, or none), both questions are put to the same
engine and model, and every answer goes through its own path's full checks (grounding included):
- old: the model writes each value, unit and period (bench/freeform_question.py: build_messages,
  row_schema, process_completion);
- new: the model picks candidate ids, the label reader settles standard labels first (task.prepare_request /
  process_choice); `labels` shows what the label reader alone keeps (no model). A text whose fields the
  labels all settle (or that has no candidates) asks the model only for a reason, so its figures cannot
  depend on the answer: by default only the texts with an open field are sent (`--send-all` sends all).
Printed, per field and per trap category: recall (labelled figures kept with an accepted value), wrong
(kept values that are not accepted, including any value kept where the label is none), and rows/s with
completion tokens per row; then the same speed comparison on the example pool (examples/reports), the
two questions alternating row by row on two engines so that a shared machine's load weighs on both alike.
Machines are shared: compare the ratios, and note the load average printed at the start and end.

On real filings (bench/real_texts.py: ../shared/data/real-reports and real-reports-more, labelled in
bench/data/real/, skipped with a note when the folders are absent) it prints the same recall and wrong
figures per field, per kind of filing and per trap, for the texts the reader was built on (`seen`) and for
those it never was (`heldout`) apart, read by the deterministic reader alone: what the default install keeps
(with the 135M model the facts carry the figures; the model only writes the reason).

Usage: python bench/extraction_accuracy.py [--model PATH.gguf] [--limit N] [--skip-pool] [--skip-old]
       [--old-limit N] [--pool-limit N] [--send-all] [--labels-only [--real-set SET ...]]
`--labels-only` runs no model at all: the reader on the written corpus and on the real texts.
The speed comparison (rows/s, completion tokens/row) is made on the example pool, both questions on the same
rows in one run; with --send-all the corpus is timed too.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))
CORPUS = ROOT / "bench" / "data" / "extraction"
EXAMPLES = ROOT / "examples" / "reports"
FIELDS = ("revenue", "net_profit", "gross_margin", "roe", "pe_ttm")
COLUMN = {
    "revenue": "revenue_yuan",
    "net_profit": "net_profit_yuan",
    "gross_margin": "gross_margin_pct",
    "roe": "roe_extracted_pct",
    "pe_ttm": "pe_extracted",
}
TOLERANCE = 0.005
OLD_MAX_TOKENS = 448
CODE = "600000.SH"


@dataclass
class Case:
    id: str
    text: str
    categories: list[str]
    labels: dict[str, list[float] | None]


@dataclass
class Score:
    labelled: int = 0
    kept_right: int = 0
    wrong: int = 0

    @property
    def recall(self) -> float:
        return self.kept_right / self.labelled if self.labelled else float("nan")


@dataclass
class PathResult:
    values: dict[str, dict[str, float | None]] = field(default_factory=dict)
    seconds: float = 0.0
    rows: int = 0
    completion_tokens: int = 0
    reasons: dict[str, str] = field(default_factory=dict)


def load_corpus(limit: int | None) -> list[Case]:
    cases = []
    for line in (CORPUS / "labels.jsonl").read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        text = (CORPUS / row["file"]).read_text(encoding="utf-8")
        cases.append(Case(row["id"], text, row["categories"], {f: row[f] for f in FIELDS}))
    return cases[:limit] if limit else cases


def accepted(value: float, allowed: list[float]) -> bool:
    return any(math.isclose(value, a, rel_tol=TOLERANCE) or value == a for a in allowed)


def score(cases: list[Case], values: dict[str, dict[str, float | None]]) -> tuple[dict, dict, Score, list]:
    per_field: dict[str, Score] = defaultdict(Score)
    per_cat: dict[str, Score] = defaultdict(Score)
    total = Score()
    wrong_list = []
    for case in cases:
        got = values.get(case.id, {})
        for f in FIELDS:
            allowed = case.labels[f]
            value = got.get(f)
            right = value is not None and allowed is not None and accepted(value, allowed)
            wrong = value is not None and not right
            buckets = [per_field[f], total] + [per_cat[c] for c in case.categories]
            for s in buckets:
                s.labelled += bool(allowed)
                s.kept_right += right
                s.wrong += wrong
            if wrong:
                wrong_list.append((case.id, f, value, allowed))
    return per_field, per_cat, total, wrong_list


def run_path(
    engine: Any,
    items: list[tuple[str, str]],
    make: Callable[[str, str], tuple[Any, Any]],
    finish: Callable[[str, str, Any, Any], Any],
) -> PathResult:
    """Send every item's request through the engine; `finish` turns (id, text, result, extra) → outcome."""
    from lmscreen.engines.protocol import LLMRequest

    extras: dict[str, Any] = {}
    requests = []
    texts = dict(items)
    for key, text in items:
        request, extra = make(key, text)
        extras[key] = extra
        requests.append(LLMRequest(key=key, **request))
    out = PathResult()
    t = time.perf_counter()
    results = list(engine.run(requests))
    out.seconds = time.perf_counter() - t
    out.rows = len(results)
    for res in results:
        out.completion_tokens += res.completion_tokens
        outcome = finish(res.key, texts[res.key], res, extras[res.key])
        out.values[res.key] = {f: outcome.columns[COLUMN[f]] for f in FIELDS}
        out.reasons[res.key] = f"{outcome.columns.get('reason_source')}: {outcome.reason}"
    return out


def run_interleaved(
    items: list[tuple[str, str]], sides: dict[str, tuple[Any, Callable, Callable]]
) -> dict[str, PathResult]:
    """Both questions row by row, alternating which goes first, each on its own engine (its own cached
    system prefix): a shared machine's load then weighs on both sides alike."""
    from lmscreen.engines.protocol import LLMRequest

    out = {name: PathResult() for name in sides}
    names = list(sides)
    for i, (key, text) in enumerate(items):
        for name in names if i % 2 == 0 else names[::-1]:
            engine, make, finish = sides[name]
            request, extra = make(key, text)
            t = time.perf_counter()
            (res,) = list(engine.run([LLMRequest(key=key, **request)]))
            side = out[name]
            side.seconds += time.perf_counter() - t
            side.rows += 1
            side.completion_tokens += res.completion_tokens
            outcome = finish(key, text, res, extra)
            side.values[key] = {f: outcome.columns[COLUMN[f]] for f in FIELDS}
            side.reasons[key] = f"{outcome.columns.get('reason_source')}: {outcome.reason}"
    return out


def old_path(engine: Any, budget: int) -> tuple[Callable, Callable]:
    from freeform_question import build_messages, process_completion, row_schema
    from lmscreen.task import fit_text

    def make(key: str, text: str) -> tuple[dict, None]:
        fitted, _ = fit_text(text, budget, engine.count_tokens)
        messages = build_messages(CODE, "", fitted)
        return {"messages": messages, "schema": row_schema(CODE), "max_tokens": OLD_MAX_TOKENS}, None

    def finish(key: str, text: str, res: Any, extra: None) -> Any:
        return process_completion(res.text, CODE, text, None, None)

    return make, finish


def new_path(engine: Any, budget: int, max_tokens: int) -> tuple[Callable, Callable]:
    from lmscreen.task import prepare_request, process_choice

    def make(key: str, text: str) -> tuple[dict, None]:
        question, _ = prepare_request(CODE, "", text, budget, engine.count_tokens)
        return {"messages": question.messages, "schema": question.schema, "max_tokens": max_tokens}, None

    def finish(key: str, text: str, res: Any, extra: None) -> Any:
        error = None if res.error is None and res.text is not None else str(res.error)
        return process_choice(res.text, CODE, text, None, None, engine_error=error)

    return make, finish


def labels_only(cases: list[Case]) -> dict[str, dict[str, float | None]]:
    from lmscreen.task import process_choice

    values = {}
    for case in cases:
        outcome = process_choice(None, CODE, case.text, None, None, engine_error="no model")
        values[case.id] = {f: outcome.columns[COLUMN[f]] for f in FIELDS}
    return values


def depends_on_model(text: str) -> bool:
    """Whether any figure of `text` is left to the model (the labels settle all the others)."""
    from lmscreen.task import find_candidates, open_field_ids

    return any(open_field_ids(find_candidates(text)).values())


def fmt_recall(s: Score) -> str:
    return f"{s.kept_right:>3}/{s.labelled:<3} {100 * s.recall:5.1f}%" if s.labelled else "   -/0        "


def print_table(
    title: str, keys: list[str], scored: dict[str, tuple[dict, dict, Score, list]], pick: int
) -> None:
    names = list(scored)
    print(f"\n{title}")
    header = f"{'':22}" + "".join(f"{n + ' recall':>20}{n + ' wrong':>12}" for n in names)
    print(header)
    for key in keys:
        cells = []
        for n in names:
            table = scored[n][pick]
            s = table.get(key, Score())
            cells.append(f"{fmt_recall(s):>20}{s.wrong:>12}")
        print(f"{key:22}" + "".join(cells))


def real_texts_sets() -> tuple[str, ...]:
    import real_texts

    return real_texts.SETS


def load_average() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "n/a"


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--model", default=None, help="GGUF file (default: the bundled SmolLM2-135M)")
    parser.add_argument("--limit", type=int, default=None, help="only the first N corpus texts")
    parser.add_argument("--skip-pool", action="store_true", help="skip the example-pool speed comparison")
    parser.add_argument("--skip-old", action="store_true", help="skip the free-form question (no comparison)")
    parser.add_argument(
        "--old-limit",
        type=int,
        default=None,
        help="put the (slow) free-form question to N texts spread over the corpus",
    )
    parser.add_argument("--pool-limit", type=int, default=None, help="only the first N example reports")
    parser.add_argument(
        "--send-all",
        action="store_true",
        help="send every corpus text to the model on the new path (default: only the texts with a field the "
        "labels leave open; the others' figures cannot depend on the model's answer)",
    )
    parser.add_argument(
        "--labels-only",
        action="store_true",
        help="no model: the reader alone on the written corpus and the real texts (what the default keeps)",
    )
    parser.add_argument(
        "--real-set",
        action="append",
        default=[],
        choices=real_texts_sets(),
        help="with --labels-only: score only this set of real texts (repeatable; a held-out round's first "
        "scoring is made this way, before anything else reads it)",
    )
    args = parser.parse_args()
    if args.labels_only:
        return reader_only(args.limit, tuple(args.real_set))

    from lmscreen.engines.embedded import EmbeddedEngine
    from lmscreen.run.options import ScreenOptions

    defaults = ScreenOptions(pool=Path("-"), out=Path("-"))
    cases = load_corpus(args.limit)
    labelled = sum(bool(v) for c in cases for v in c.labels.values())
    print(f"corpus: {len(cases)} texts, {labelled} labelled figures")
    print(f"load average at start: {load_average()} (cores: {os.cpu_count()})")
    engine = EmbeddedEngine(args.model, n_ctx=defaults.n_ctx)
    print(f"model: {engine.model_path.name}, threads: {engine.n_threads}")
    items = [(c.id, c.text) for c in cases]
    asked = [(key, text) for key, text in items if args.send_all or depends_on_model(text)]
    print(
        f"new path: {len(asked)} of {len(items)} texts have a field the labels leave open and go to the model"
        + (" (--send-all: all are sent)" if args.send_all else "; the others' figures are the label reader's")
    )
    paths: dict[str, PathResult] = {}
    try:
        make, finish = new_path(engine, defaults.report_token_budget, defaults.max_tokens)
        paths["new"] = run_path(engine, asked, make, finish)
        for case_id, values in labels_only([c for c in cases if c.id not in paths["new"].values]).items():
            paths["new"].values[case_id] = values
        if not args.skip_old:
            make, finish = old_path(engine, defaults.report_token_budget)
            step = max(1, len(items) // args.old_limit) if args.old_limit else 1
            paths["old"] = run_path(engine, items[::step][: args.old_limit], make, finish)
        pool: dict[str, PathResult] = {}
        if not args.skip_pool:
            reports = [(p.stem, p.read_text(encoding="utf-8")) for p in sorted(EXAMPLES.glob("*.txt"))]
            reports = reports[: args.pool_limit]
            sides = {"new": (engine, *new_path(engine, defaults.report_token_budget, defaults.max_tokens))}
            if not args.skip_old:
                second = EmbeddedEngine(args.model, n_ctx=defaults.n_ctx)
                sides["old"] = (second, *old_path(second, defaults.report_token_budget))
            try:
                pool = run_interleaved(reports, sides)
            finally:
                if "old" in sides:
                    sides["old"][0].close()
    finally:
        engine.close()

    scored = {"labels": score(cases, labels_only(cases))}
    for name in ("old", "new"):
        if name in paths:
            scored[name] = score(cases, paths[name].values)
    if "old" in paths and len(paths["old"].values) < len(cases):
        subset = [c for c in cases if c.id in paths["old"].values]
        print(f"\n(the free-form question was put to {len(subset)} texts spread over the corpus; on those:)")
        on_subset = {
            "labels": score(subset, labels_only(subset)),
            "old": score(subset, paths["old"].values),
            "new": score(subset, paths["new"].values),
        }
        print_table("per field, those texts only", list(FIELDS), on_subset, 0)
        print(
            f"{'all figures':22}"
            + "".join(f"{fmt_recall(s[2]):>20}{s[2].wrong:>12}" for s in on_subset.values())
        )
        scored.pop("old")
    print_table("per field", list(FIELDS), scored, 0)
    categories = sorted({c for case in cases for c in case.categories})
    print_table("per trap category", categories, scored, 1)
    print(
        f"\n{'all figures':22}" + "".join(f"{fmt_recall(s[2]):>20}{s[2].wrong:>12}" for s in scored.values())
    )
    for name, s in scored.items():
        for case_id, f, value, allowed in s[3]:
            print(f"  wrong ({name}): {case_id} {f} = {value} (accepted: {allowed})")

    print("\nspeed (same engine, same model, one run)")
    speed = {"corpus": paths if args.send_all else {k: v for k, v in paths.items() if k != "new"}}
    speed["example pool"] = pool
    for label, results in speed.items():
        for name, r in results.items():
            rate = r.rows / r.seconds if r.seconds else float("nan")
            tokens = r.completion_tokens / r.rows if r.rows else float("nan")
            print(
                f"  {label:13} {name}: {r.rows} rows in {r.seconds:7.1f} s = {rate:.3f} rows/s, "
                f"{tokens:.0f} completion tokens/row"
            )
        if "old" in results and "new" in results and results["old"].seconds and results["new"].seconds:
            ratio = (results["new"].rows / results["new"].seconds) / (
                results["old"].rows / results["old"].seconds
            )
            print(f"  {label:13} new/old rows/s ratio: {ratio:.2f}x")
    if pool.get("new"):
        print("\nexample pool reasons (new path):")
        for key, reason in pool["new"].reasons.items():
            print(f"  {key}: {reason}")
    real_sections()
    print(f"\nload average at end: {load_average()}")
    return 0


def real_sections(only: tuple[str, ...] = ()) -> None:
    """The real filings, seen and held out, each scored apart (bench/real_texts.py)."""
    import real_texts

    cases, notes = real_texts.load(only or real_texts.SETS)
    for note in notes:
        print(f"\nnote: {note}")
    about = {"seen": "read while the reader was built"} | {
        name: f"held out until its first scoring (bench/data/real/heldout-round{name[8:]}.txt), read since"
        for name in real_texts.SETS
        if name.startswith("heldout-")
    }
    for which in only or real_texts.SETS:
        chosen = [c for c in cases if c.set == which]
        if chosen:
            title = (
                f"real filings, {which}: {about[which]} ({len(chosen)} texts; the reader alone, what the "
                "default install keeps)"
            )
            real_texts.print_report(title, real_texts.score(chosen))


def reader_only(limit: int | None, only: tuple[str, ...] = ()) -> int:
    """The reader on the written corpus and on the real filings; no model is loaded."""
    if only:
        real_sections(only)
        return 0
    cases = load_corpus(limit)
    labelled = sum(bool(v) for c in cases for v in c.labels.values())
    print(f"written corpus: {len(cases)} texts, {labelled} labelled figures (reader alone)")
    scored = {"labels": score(cases, labels_only(cases))}
    print_table("per field", list(FIELDS), scored, 0)
    print_table("per trap category", sorted({c for case in cases for c in case.categories}), scored, 1)
    print(
        f"\n{'all figures':22}" + "".join(f"{fmt_recall(s[2]):>20}{s[2].wrong:>12}" for s in scored.values())
    )
    for case_id, f, value, allowed in scored["labels"][3]:
        print(f"  wrong (labels): {case_id} {f} = {value} (accepted: {allowed})")
    real_sections(only)
    return 0


if __name__ == "__main__":
    sys.exit(main())
