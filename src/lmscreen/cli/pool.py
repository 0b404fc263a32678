"""`lmscreen pool fetch` and `lmscreen pool enrich`: build or complete a pool from akshare or tushare."""

from __future__ import annotations

import os
from datetime import date
from pathlib import Path

import typer

from lmscreen.errors import InputError

pool_app = typer.Typer(help="Build a stock pool from akshare/tushare, or fill the columns a pool lacks.")


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


_SOURCE = typer.Option(
    "akshare", "--source", help="akshare (default, no account) or tushare (needs a token)."
)
_TOKEN = typer.Option(None, "--token", envvar="TUSHARE_TOKEN", show_default=False, help="tushare token.")
_AS_OF = typer.Option(None, "--as-of", help="Build as of this date (YYYY-MM-DD; default today).")
_CACHE = typer.Option(None, "--cache", help="Cache folder (default ~/.cache/lmscreen/pool, LMSCREEN_CACHE).")
_NO_CACHE = typer.Option(False, "--no-cache", help="Always ask the vendor.")
_INTERVAL = typer.Option(
    None, "--min-interval", min=0.0, help="Seconds between calls (akshare 1.0, tushare 0.35)."
)
_RETRIES = typer.Option(3, "--retries", min=1, help="Tries per call.")
_BACKOFF = typer.Option(2.0, "--backoff", min=0.0, help="First wait before a retry, doubled each time (s).")
_ROE_PERIOD = typer.Option("full_year", "--roe-period", help="full_year (default) or latest (partial year).")


@pool_app.command("fetch")
def fetch(
    out: Path = typer.Option(
        Path("pool.csv"), "--out", help="Pool file to write (a .sources.json sidecar beside it)."
    ),
    source: str = _SOURCE,
    token: str | None = _TOKEN,
    as_of: str | None = _AS_OF,
    cache: Path | None = _CACHE,
    no_cache: bool = _NO_CACHE,
    min_interval: float | None = _INTERVAL,
    retries: int = _RETRIES,
    backoff: float = _BACKOFF,
    roe_period: str = _ROE_PERIOD,
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
        typer.echo(f"note: {note}", err=True)
    typer.echo(f"wrote {table.frame.height} stocks to {out} (sources per column: {sidecar})", err=True)


@pool_app.command("enrich")
def enrich(
    pool: Path = typer.Argument(..., help="Your pool file (any format `screen` reads)."),
    out: Path | None = typer.Option(None, "--out", help="Output file (default POOL.enriched.csv)."),
    overwrite: bool = typer.Option(
        False, "--overwrite", help="Replace your PE/ROE/profit cells where the vendor has a value."
    ),
    source: str = _SOURCE,
    token: str | None = _TOKEN,
    as_of: str | None = _AS_OF,
    cache: Path | None = _CACHE,
    no_cache: bool = _NO_CACHE,
    min_interval: float | None = _INTERVAL,
    retries: int = _RETRIES,
    backoff: float = _BACKOFF,
    roe_period: str = _ROE_PERIOD,
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
    typer.echo(
        f"wrote {target}: {result.matched_rows} of {result.rows} rows matched; added {added}{kept}{replaced} "
        f"(sources: {result.sidecar})",
        err=True,
    )


def register(app: typer.Typer) -> None:
    app.add_typer(pool_app, name="pool")
