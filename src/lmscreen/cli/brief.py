"""`lmscreen brief`: earnings-highlight scripts where every number is checked."""

from __future__ import annotations

from pathlib import Path

import typer

from lmscreen.errors import InputError


def register(app: typer.Typer) -> None:
    @app.command("brief")
    def brief(
        pool: Path = typer.Argument(..., help="Stock pool: CSV, TSV or XLSX (the same as screen's)."),
        reports: Path | None = typer.Option(None, "--reports", help="Folder of <code>.txt/.md/.pdf filings."),
        style: str = typer.Option("video", "--style", help="video | post | plain"),
        length: str = typer.Option("60s", "--length", help="60s, 90s or N字 (characters as read aloud)."),
        out: Path = typer.Option(Path("out"), "--out", help="Output folder (resumes a run found there)."),
        rules: Path | None = typer.Option(None, "--rules", help="Rules YAML replacing the default rules."),
        engine: str = typer.Option("embedded", "--engine", help="embedded | openai | vllm | ray"),
        model: str | None = typer.Option(None, "--model", help="GGUF path (embedded) or served model name."),
        base_url: str | None = typer.Option(None, "--base-url", envvar="OPENAI_BASE_URL"),
        api_key: str | None = typer.Option(None, "--api-key", envvar="OPENAI_API_KEY", show_default=False),
        concurrency: int = typer.Option(4, "--concurrency", min=1, help="Requests in flight (openai)."),
        lang: str = typer.Option("zh", "--lang", help="zh (scripts are written in Chinese)."),
        fresh: bool = typer.Option(False, "--fresh", help="Forget stored answers and start over."),
        limit: int | None = typer.Option(None, "--limit", min=1, help="Only the first N rows."),
        quiet: bool = typer.Option(False, "--quiet", help="No progress bar."),
    ) -> None:
        """Write a short 财报亮点 script per company from its filing's own figures."""
        from rich.console import Console

        from lmscreen.run.brief import brief as run_brief
        from lmscreen.run.options import ScreenOptions
        from lmscreen.run.screen import check_out_dir

        if not pool.exists():
            raise InputError(f"{pool}: no such file")
        if lang != "zh":
            raise InputError(f"--lang: {lang!r}: scripts are written in Chinese only (zh)")
        check_out_dir(out)
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
            fresh=fresh,
            limit=limit,
            progress=not quiet,
            lang=lang,
        )
        summary = run_brief(opts, style=style, length=length)
        console = Console(stderr=True)
        for notice in summary.notices:
            console.print(f"note: {notice}", markup=False, highlight=False)
        sources = " ".join(f"{k}:{v}" for k, v in sorted(summary.sources.items()))
        console.print(
            f"briefs {summary.written} written, {summary.skipped} skipped ({sources}); outputs in {out}",
            markup=False,
            highlight=False,
        )
