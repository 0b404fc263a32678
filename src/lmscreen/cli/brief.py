"""`lmscreen brief`: earnings-highlight scripts where every number is checked."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from lmscreen.cli.engine_options import engine_options
from lmscreen.errors import InputError

_PATH = click.Path(path_type=Path)


def register(app: click.Group) -> None:
    @app.command("brief")
    @click.argument("pool", type=_PATH)
    @click.option("--reports", type=_PATH, help="Folder of <code>.txt/.md/.pdf filings.")
    @click.option("--style", default="video", help="video | post | plain")
    @click.option(
        "--length",
        default="60s",
        help="60s, 90s or N字: Chinese characters as read aloud; with --lang en, 60s, 90s or N words "
        "(English is counted in words, about 150 a minute).",
    )
    @click.option("--out", type=_PATH, default=Path("out"), help="Output folder (resumes a run found there).")
    @click.option("--rules", type=_PATH, help="Rules YAML replacing the default rules.")
    @engine_options()
    @click.option(
        "--lang",
        type=click.Choice(["zh", "en"]),
        default="zh",
        help="zh (Chinese scripts) or en (English scripts; a served model is asked for English).",
    )
    @click.option("--fresh", is_flag=True, help="Forget stored answers and start over.")
    @click.option("--limit", type=click.IntRange(min=1), help="Only the first N rows.")
    @click.option("--quiet", is_flag=True, help="No progress bar.")
    def brief(
        pool: Path,
        reports: Path | None,
        style: str,
        length: str,
        out: Path,
        rules: Path | None,
        engine: str,
        model: str | None,
        base_url: str | None,
        api_key: str | None,
        concurrency: int,
        lang: str,
        fresh: bool,
        limit: int | None,
        quiet: bool,
    ) -> None:
        """Write a short 财报亮点 script per company from its filing's own figures.

        POOL: stock pool, CSV, TSV or XLSX (the same as screen's).
        """
        from lmscreen.run.brief import brief as run_brief
        from lmscreen.run.options import ScreenOptions
        from lmscreen.run.screen import check_out_dir

        if not pool.exists():
            raise InputError(f"{pool}: no such file")
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
        # Plain lines on stderr, as `screen` writes them (no rich console to import).
        for notice in summary.notices:
            print(f"note: {notice}", file=sys.stderr)
        sources = " ".join(f"{k}:{v}" for k, v in sorted(summary.sources.items()))
        print(
            f"briefs {summary.written} written, {summary.skipped} skipped ({sources}); outputs in {out}",
            file=sys.stderr,
        )
