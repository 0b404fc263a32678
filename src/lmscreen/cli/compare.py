"""`lmscreen compare`: industry trends from the user's own filings, every point traceable."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from lmscreen.cli.engine_options import ENGINE_HELP, engine_options

_PATH = click.Path(path_type=Path)


def register(app: click.Group) -> None:
    @app.command("compare")
    @click.argument("docs", type=_PATH)
    @click.option("--pool", type=_PATH, help="A pool file whose industry column places each company.")
    @click.option("--industries", type=_PATH, help="Two columns: code or name, then industry.")
    @click.option(
        "--metric",
        "metrics",
        multiple=True,
        help="gross_margin_pct (default), net_margin_pct, roe_pct, revenue_growth_pct, …",
    )
    @click.option("--periods", help="Years, e.g. 2021:2024 (default: every year found).")
    @click.option("--period-kind", default="FY", help="FY | H1 | Q")
    @click.option("--include-forecasts", is_flag=True, help="Also compare forecasts (2025E), drawn apart.")
    @click.option(
        "--out", type=_PATH, default=Path("out-compare"), help="Output folder (resumes a run found there)."
    )
    @engine_options(f"{ENGINE_HELP} (a served model may write the comparison).")
    @click.option("--lang", default="zh", help="zh | en")
    @click.option("--fresh", is_flag=True, help="Forget stored answers and start over.")
    @click.option("--quiet", is_flag=True, help="No progress bar.")
    def compare(
        docs: Path,
        pool: Path | None,
        industries: Path | None,
        metrics: tuple[str, ...],
        periods: str | None,
        period_kind: str,
        include_forecasts: bool,
        out: Path,
        engine: str,
        model: str | None,
        base_url: str | None,
        api_key: str | None,
        concurrency: int,
        lang: str,
        fresh: bool,
        quiet: bool,
    ) -> None:
        """Compare how a metric moved across industries, from a folder of PDFs, .txt and .md.

        DOCS: company documents named by code (600519.pdf, 600519_2023.pdf) and industry reports (any name).
        """
        from lmscreen.run.compare import CompareOptions
        from lmscreen.run.compare import compare as run_compare
        from lmscreen.run.screen import check_out_dir

        check_out_dir(out)
        opts = CompareOptions(
            docs=docs, out=out, pool=pool, industries=industries,
            metrics=list(metrics) or ["gross_margin_pct"], periods=periods, period_kind=period_kind,
            include_forecasts=include_forecasts, engine=engine, model=model, base_url=base_url,
            api_key=api_key, concurrency=concurrency, lang=lang, fresh=fresh, progress=not quiet,
        )  # fmt: skip
        summary = run_compare(opts)
        for notice in _console_notices(summary.notices):
            print(f"note: {notice}", file=sys.stderr)
        print(
            f"compared {summary.companies} companies and {summary.reports} industry reports "
            f"({summary.documents} documents; comparison written by {summary.narrative_source}); "
            f"outputs in {out}",
            file=sys.stderr,
        )


_UNPLACED = ": no industry for "
_LISTED = 3


def _console_notices(notices: list[str]) -> list[str]:
    """A folder of many companies' filings with a short industries file would print one line per
    unplaced document; past a few they are one line (compare.json keeps every one)."""
    unplaced = [n.split(_UNPLACED, 1)[0] for n in notices if _UNPLACED in n]
    if len(unplaced) <= _LISTED:
        return notices
    rest = [n for n in notices if _UNPLACED not in n]
    shown = ", ".join(unplaced[:_LISTED])
    return rest + [
        f"{len(unplaced)} documents have no industry (not in the pool or --industries): {shown} and "
        f"{len(unplaced) - _LISTED} more, all listed in compare.json"
    ]
