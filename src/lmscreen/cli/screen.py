"""`lmscreen screen` and `lmscreen report`."""

from __future__ import annotations

import sys
from datetime import date
from pathlib import Path

import click

from lmscreen.cli.engine_options import engine_options
from lmscreen.errors import InputError

_PATH = click.Path(path_type=Path)


def register(app: click.Group) -> None:
    @app.command("screen")
    @click.argument("pool", type=_PATH)
    @click.option("--reports", type=_PATH, help="Folder of <code>.txt/.md texts.")
    @click.option("--rules", type=_PATH, help="Rules YAML replacing the default rules.")
    @click.option("--out", type=_PATH, default=Path("out"), help="Output folder (resumes a run found there).")
    @engine_options()
    @click.option(
        "--threads",
        type=click.IntRange(min=1),
        help="llama.cpp threads (embedded; default: idle usable cores).",
    )
    @click.option(
        "--chat-template-kwargs",
        help='JSON for the server\'s chat template, e.g. {"enable_thinking": false}.',
    )
    @click.option("--no-llm", is_flag=True, help="Rules only; no model is loaded.")
    @click.option(
        "--jsonl", is_flag=True, help="Write results.jsonl on a rules-only run too (an LLM run always does)."
    )
    @click.option("--fresh", is_flag=True, help="Forget stored LLM answers and start over.")
    @click.option("--limit", type=click.IntRange(min=1), help="Screen only the first N rows.")
    @click.option(
        "--annualize-roe", is_flag=True, help="Scale partial-year ROE to a year (Q1 x4, H1 x2, Q1-Q3 x4/3)."
    )
    @click.option(
        "--max-age",
        type=click.IntRange(min=0),
        default=3,
        help="Flag stale:<field> when a price field is older than N trading days, or an ROE's "
        "period was due more than N days ago and a later one is out.",
    )
    @click.option("--as-of", help="The run's date (YYYY-MM-DD; default today): freshness and trading day.")
    @click.option(
        "--trading-days-only", is_flag=True, help="On a day the exchanges are closed, do nothing (exit 0)."
    )
    @click.option(
        "--notify",
        multiple=True,
        help="apprise URL to send the summary to (repeatable; also config.toml).",
    )
    @click.option("--quiet", is_flag=True, help="No progress bar.")
    @click.option("--lang", default="zh", help="Language of report.html / report.md: zh or en.")
    @click.option(
        "--gpu-memory-utilization",
        type=float,
        help="vLLM: share of GPU memory (default: model fit's plan).",
    )
    @click.option(
        "--max-model-len",
        type=click.IntRange(min=1),
        help="vLLM: context length (default: model fit's plan).",
    )
    @click.option("--tp", type=click.IntRange(min=1), help="vLLM: tensor parallel size per engine.")
    @click.option("--ray-address", help="Ray: join this cluster (default: a local Ray on this machine).")
    @click.option("--workers", type=click.IntRange(min=1), help="Ray: engine actors in the pool.")
    def screen(
        pool: Path,
        reports: Path | None,
        rules: Path | None,
        out: Path,
        engine: str,
        model: str | None,
        base_url: str | None,
        api_key: str | None,
        concurrency: int,
        threads: int | None,
        chat_template_kwargs: str | None,
        no_llm: bool,
        jsonl: bool,
        fresh: bool,
        limit: int | None,
        annualize_roe: bool,
        max_age: int,
        as_of: str | None,
        trading_days_only: bool,
        notify: tuple[str, ...],
        quiet: bool,
        lang: str,
        gpu_memory_utilization: float | None,
        max_model_len: int | None,
        tp: int | None,
        ray_address: str | None,
        workers: int | None,
    ) -> None:
        """Screen a stock pool: deterministic rules, LLM extraction checked against the text, reports."""
        if not no_llm:  # before polars loads: the long, unattended runs keep their memory low
            from lmscreen.run.allocator import return_freed_memory_at_once

            return_freed_memory_at_once()
        from lmscreen.run.options import ScreenOptions
        from lmscreen.run.screen import check_out_dir
        from lmscreen.run.screen import screen as run_screen

        day = _day(as_of)
        if trading_days_only:
            from lmscreen.pool.trading import closed_day_line

            closed = closed_day_line(day)
            if closed is not None:
                click.echo(closed, err=True)
                return
        if not pool.exists():
            raise InputError(f"{pool}: no such file")
        check_out_dir(out)
        _check_lang(lang)
        template_kwargs = _json_object(chat_template_kwargs, "--chat-template-kwargs")
        opts = ScreenOptions(
            pool=pool,
            out=out,
            reports=reports,
            rules=rules,
            engine=engine,
            model=model,
            base_url=base_url,
            api_key=api_key,
            concurrency=concurrency,
            threads=threads,
            chat_template_kwargs=template_kwargs,
            no_llm=no_llm,
            jsonl=jsonl,
            fresh=fresh,
            limit=limit,
            annualize_roe=annualize_roe,
            max_age_days=max_age,
            as_of=day.isoformat(),
            progress=not quiet,
            lang=lang,
            gpu_memory_utilization=gpu_memory_utilization,
            max_model_len=max_model_len,
            tp=tp,
            ray_address=ray_address,
            workers=workers,
        )
        summary = run_screen(opts)
        levels = " ".join(f"{k}:{v}" for k, v in sorted(summary.risk_counts.items()))
        llm = (
            "LLM off"
            if no_llm
            else f"LLM sent {summary.llm_sent}, resumed {summary.llm_resumed}, failed {summary.llm_failed}"
        )
        # Plain lines on stderr (no rich console: its import was a fifth of a small run's start-up).
        stale = summary.run.get("counts", {}).get("stale") or {}
        if stale:
            said = ", ".join(f"{field} {n}" for field, n in stale.items())
            print(f"note: stale fields (rows): {said}; see flags stale:<field>", file=sys.stderr)
        for notice in summary.notices:
            print(f"note: {notice}", file=sys.stderr)
        print(
            f"screened {summary.rows} rows ({levels}); {summary.errors} rejected; {llm}; "
            f"outputs in {summary.out_dir}",
            file=sys.stderr,
        )
        history = summary.run.get("history") or {}
        if history.get("error"):
            print(
                f"warning: run not recorded in the history {history.get('db')}: {history['error']}",
                file=sys.stderr,
            )
        from lmscreen.cli.notify import send_run

        try:  # the run is done and on disk: a delivery problem is a warning, never the run's exit code
            send_run(summary.out_dir, notify, lambda text: print(text, file=sys.stderr))
        except Exception as exc:  # noqa: BLE001
            print(f"warning: notify: {type(exc).__name__}: {exc}", file=sys.stderr)

    @app.command("report")
    @click.argument("out_dir", type=_PATH)
    @click.option("--lang", default="zh", help="Language of report.html / report.md: zh or en.")
    def report(out_dir: Path, lang: str) -> None:
        """Re-render report.html and report.md from a finished run (no model needed)."""
        from lmscreen.report.html import write_report

        _check_lang(lang)
        path = write_report(out_dir, lang=lang)
        click.echo(str(path))


def _day(text: str | None) -> date:
    """--as-of, or today."""
    if text is None:
        return date.today()
    try:
        return date.fromisoformat(text)
    except ValueError as exc:
        raise InputError(f"--as-of: not a date (YYYY-MM-DD): {text!r}") from exc


def _check_lang(lang: str) -> None:
    from lmscreen.report.labels import LANGS

    if lang not in LANGS:
        raise InputError(f"--lang: {lang!r} is not one of {', '.join(LANGS)}")


def _json_object(text: str | None, option: str) -> dict | None:
    import json

    if text is None:
        return None
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"{option}: not JSON ({exc.msg} at character {exc.pos})") from exc
    if not isinstance(value, dict):
        raise InputError(f'{option}: expected a JSON object such as {{"enable_thinking": false}}')
    return value
