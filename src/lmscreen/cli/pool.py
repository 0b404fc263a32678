"""`lmscreen pool fetch` and `lmscreen pool enrich`: build or complete a pool from akshare or tushare."""

from __future__ import annotations

import os
from collections.abc import Callable
from datetime import date
from pathlib import Path

import click

from lmscreen.errors import InputError


@click.group("pool", no_args_is_help=True)
def pool_app() -> None:
    """Build a stock pool from akshare/tushare, or fill the columns a pool lacks."""


def _default_cache() -> Path:
    base = os.environ.get("LMSCREEN_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "lmscreen"
    )
    return Path(base) / "pool"


def _as_of(text: str | None) -> date:
    if text is None:
        return date.today()
    try:
        return date.fromisoformat(text)
    except ValueError as exc:
        raise InputError(f"--as-of: not a date (YYYY-MM-DD): {text!r}") from exc


def _fetch_table(
    source: str,
    token: str | None,
    as_of: date,
    cache: Path | None,
    interval: float | None,
    retries: int,
    backoff: float,
    roe_period: str,
):
    from lmscreen.pool.fetch.calls import Caller, CallPolicy
    from lmscreen.pool.fetch.periods import periods_due

    if source not in ("akshare", "tushare"):
        raise InputError(f"--source: expected akshare or tushare, got {source!r}")
    if roe_period not in ("full_year", "latest"):
        raise InputError(f"--roe-period: expected full_year or latest, got {roe_period!r}")
    default_interval = 1.0 if source == "akshare" else 0.35  # Eastmoney bans fast callers; tushare: 200/min
    policy = CallPolicy(
        min_interval_s=default_interval if interval is None else interval, retries=retries, backoff_s=backoff
    )
    caller = Caller(source, policy, cache, as_of.isoformat())
    periods = periods_due(as_of)
    if source == "akshare":
        from lmscreen.pool.fetch import akshare_source

        return akshare_source.fetch(caller, periods, roe_period)
    from lmscreen.pool.fetch import tushare_source

    if roe_period != "full_year":
        raise InputError("--roe-period latest is available with --source akshare only")
    return tushare_source.fetch(caller, periods, as_of, token)


_PATH = click.Path(path_type=Path)


def _vendor_options(command: Callable[..., None]) -> Callable[..., None]:
    """The options `fetch` and `enrich` share (how to ask the vendor)."""
    options = [
        click.option(
            "--source", default="akshare", help="akshare (default, no account) or tushare (needs a token)."
        ),
        click.option("--token", envvar="TUSHARE_TOKEN", show_default=False, help="tushare token."),
        click.option("--as-of", help="Build as of this date (YYYY-MM-DD; default today)."),
        click.option(
            "--cache", type=_PATH, help="Cache folder (default ~/.cache/lmscreen/pool, LMSCREEN_CACHE)."
        ),
        click.option("--no-cache", is_flag=True, help="Always ask the vendor."),
        click.option(
            "--min-interval",
            type=click.FloatRange(min=0.0),
            help="Seconds between calls (akshare 1.0, tushare 0.35).",
        ),
        click.option("--retries", type=click.IntRange(min=1), default=3, help="Tries per call."),
        click.option(
            "--backoff",
            type=click.FloatRange(min=0.0),
            default=2.0,
            help="First wait before a retry, doubled each time (s).",
        ),
        click.option(
            "--roe-period", default="full_year", help="full_year (default) or latest (partial year)."
        ),
    ]
    for option in reversed(options):
        command = option(command)
    return command


@pool_app.command("fetch")
@click.option(
    "--out",
    type=_PATH,
    default=Path("pool.csv"),
    help="Pool file to write (a .sources.json sidecar beside it).",
)
@_vendor_options
def fetch(
    out: Path,
    source: str,
    token: str | None,
    as_of: str | None,
    cache: Path | None,
    no_cache: bool,
    min_interval: float | None,
    retries: int,
    backoff: float,
    roe_period: str,
) -> None:
    """Build a pool: code, name, industry, PE-TTM, ROE, EPS, ST flag, net profit of the last two years."""
    from lmscreen.pool.fetch.build import write_pool

    day = _as_of(as_of)
    table = _fetch_table(
        source,
        token,
        day,
        None if no_cache else cache or _default_cache(),
        min_interval,
        retries,
        backoff,
        roe_period,
    )
    if table.frame.is_empty():
        raise InputError(f"{source} returned no stocks")
    sidecar = write_pool(table, out, source, day.isoformat())
    for note in table.notes:
        click.echo(f"note: {note}", err=True)
    click.echo(f"wrote {table.frame.height} stocks to {out} (sources per column: {sidecar})", err=True)


@pool_app.command("enrich")
@click.argument("pool", type=_PATH)
@click.option("--out", type=_PATH, help="Output file (default POOL.enriched.csv).")
@click.option(
    "--overwrite", is_flag=True, help="Replace your PE/ROE/profit cells where the vendor has a value."
)
@_vendor_options
def enrich(
    pool: Path,
    out: Path | None,
    overwrite: bool,
    source: str,
    token: str | None,
    as_of: str | None,
    cache: Path | None,
    no_cache: bool,
    min_interval: float | None,
    retries: int,
    backoff: float,
    roe_period: str,
) -> None:
    """Fill the PE / ROE / EPS / net-profit columns your pool lacks; your own columns stay as they are."""
    from lmscreen.pool.fetch.enrich import enrich as run_enrich

    if not pool.is_file():
        raise InputError(f"{pool}: no such file")
    target = out or pool.with_name(pool.stem + ".enriched.csv")
    if target.resolve() == pool.resolve():
        raise InputError(f"{target}: --out must not be the input pool")
    day = _as_of(as_of)
    table = _fetch_table(
        source,
        token,
        day,
        None if no_cache else cache or _default_cache(),
        min_interval,
        retries,
        backoff,
        roe_period,
    )
    result = run_enrich(pool, table, target, source, day.isoformat(), overwrite)
    added = ", ".join(result.added) or "none"
    kept = f"; kept yours: {', '.join(result.kept)}" if result.kept else ""
    replaced = f"; overwritten: {', '.join(result.overwritten)}" if result.overwritten else ""
    click.echo(
        f"wrote {target}: {result.matched_rows} of {result.rows} rows matched; added {added}{kept}{replaced} "
        f"(sources: {result.sidecar})",
        err=True,
    )


def register(app: click.Group) -> None:
    app.add_command(pool_app)
