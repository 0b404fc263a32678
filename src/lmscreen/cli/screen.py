"""`lmscreen screen` and `lmscreen report`."""

from __future__ import annotations

from pathlib import Path

import typer

from lmscreen.errors import InputError


def register(app: typer.Typer) -> None:
    @app.command("screen")
    def screen(
        pool: Path = typer.Argument(..., help="Stock pool: CSV, TSV or XLSX (UTF-8, BOM or GBK/GB18030)."),
        reports: Path | None = typer.Option(None, "--reports", help="Folder of <code>.txt/.md texts."),
        rules: Path | None = typer.Option(None, "--rules", help="Rules YAML replacing the default rules."),
        out: Path = typer.Option(Path("out"), "--out", help="Output folder (resumes a run found there)."),
        engine: str = typer.Option("embedded", "--engine", help="embedded | openai | vllm | ray"),
        model: str | None = typer.Option(None, "--model", help="GGUF path (embedded) or served model name."),
        base_url: str | None = typer.Option(None, "--base-url", envvar="OPENAI_BASE_URL"),
        api_key: str | None = typer.Option(None, "--api-key", envvar="OPENAI_API_KEY", show_default=False),
        concurrency: int = typer.Option(4, "--concurrency", min=1, help="Requests in flight (openai)."),
        threads: int | None = typer.Option(
            None, "--threads", min=1, help="llama.cpp threads (embedded; default: idle usable cores)."
        ),
        chat_template_kwargs: str | None = typer.Option(
            None,
            "--chat-template-kwargs",
            help='JSON for the server\'s chat template, e.g. {"enable_thinking": false}.',
        ),
        no_llm: bool = typer.Option(False, "--no-llm", help="Rules only; no model is loaded."),
        jsonl: bool = typer.Option(
            False, "--jsonl", help="Write results.jsonl on a rules-only run too (an LLM run always does)."
        ),
        fresh: bool = typer.Option(False, "--fresh", help="Forget stored LLM answers and start over."),
        limit: int | None = typer.Option(None, "--limit", min=1, help="Screen only the first N rows."),
        annualize_roe: bool = typer.Option(
            False, "--annualize-roe", help="Scale partial-year ROE to a year (Q1 x4, H1 x2, Q1-Q3 x4/3)."
        ),
        quiet: bool = typer.Option(False, "--quiet", help="No progress bar."),
        lang: str = typer.Option("zh", "--lang", help="Language of report.html / report.md: zh or en."),
        gpu_memory_utilization: float | None = typer.Option(
            None, "--gpu-memory-utilization", help="vLLM: share of GPU memory (default: model fit's plan)."
        ),
        max_model_len: int | None = typer.Option(
            None, "--max-model-len", min=1, help="vLLM: context length (default: model fit's plan)."
        ),
        tp: int | None = typer.Option(None, "--tp", min=1, help="vLLM: tensor parallel size per engine."),
        ray_address: str | None = typer.Option(
            None, "--ray-address", help="Ray: join this cluster (default: a local Ray on this machine)."
        ),
        workers: int | None = typer.Option(None, "--workers", min=1, help="Ray: engine actors in the pool."),
    ) -> None:
        """Screen a stock pool: deterministic rules, LLM extraction checked against the text, reports."""
        if not no_llm:  # before polars loads: the long, unattended runs keep their memory low
            from lmscreen.run.allocator import return_freed_memory_at_once

            return_freed_memory_at_once()
        from rich.console import Console

        from lmscreen.run.options import ScreenOptions
        from lmscreen.run.screen import check_out_dir
        from lmscreen.run.screen import screen as run_screen

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
            progress=not quiet,
            lang=lang,
            gpu_memory_utilization=gpu_memory_utilization,
            max_model_len=max_model_len,
            tp=tp,
            ray_address=ray_address,
            workers=workers,
        )
        summary = run_screen(opts)
        console = Console(stderr=True)
        levels = " ".join(f"{k}:{v}" for k, v in sorted(summary.risk_counts.items()))
        llm = (
            "LLM off"
            if no_llm
            else f"LLM sent {summary.llm_sent}, resumed {summary.llm_resumed}, failed {summary.llm_failed}"
        )
        for notice in summary.notices:
            console.print(f"note: {notice}", markup=False, highlight=False)
        console.print(
            f"screened {summary.rows} rows ({levels}); {summary.errors} rejected; {llm}; "
            f"outputs in {summary.out_dir}"
        )
        history = summary.run.get("history") or {}
        if history.get("error"):
            console.print(f"warning: run not recorded in the history {history.get('db')}: {history['error']}")

    @app.command("report")
    def report(
        out_dir: Path = typer.Argument(..., help="A finished run's output folder."),
        lang: str = typer.Option("zh", "--lang", help="Language of report.html / report.md: zh or en."),
    ) -> None:
        """Re-render report.html and report.md from a finished run (no model needed)."""
        from lmscreen.report.html import write_report

        _check_lang(lang)
        path = write_report(out_dir, lang=lang)
        typer.echo(str(path))


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
