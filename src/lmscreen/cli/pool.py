"""`lmscreen pool fetch` and `lmscreen pool enrich`: build or complete a pool from akshare or tushare."""

from __future__ import annotations

import os
from collections.abc import Callable
from datetime import date, datetime, timezone
from pathlib import Path
from typing import Any

import click

from lmscreen.errors import InputError

BAOSTOCK_INTERVAL_S = 0.1
"""baostock's default spacing: a whole-market build asks per stock, some 15,000 calls (about half an hour)."""


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
) -> tuple[Any, str, dict[str, Any]]:
    """The fetched table, the vendor the sidecar names (`akshare`, or `akshare+efinance` when mixed) and
    the sidecar's extra keys (each source's attempt, the rows of mixed columns)."""
    from lmscreen.pool.fetch.calls import Breaker, Caller, CallPolicy
    from lmscreen.pool.fetch.periods import periods_due

    if source not in ("auto", "akshare", "efinance", "baostock", "tushare"):
        raise InputError(f"--source: expected auto, akshare, efinance, baostock or tushare, got {source!r}")
    if roe_period not in ("full_year", "latest"):
        raise InputError(f"--roe-period: expected full_year or latest, got {roe_period!r}")
    breaker = Breaker() if source == "auto" else None

    def caller(vendor: str) -> Caller:
        # Eastmoney bans fast callers; tushare: 200/min; baostock: its own servers, ~3 calls per stock
        default_interval = {"tushare": 0.35, "baostock": BAOSTOCK_INTERVAL_S}.get(vendor, 1.0)
        policy = CallPolicy(
            min_interval_s=default_interval if interval is None else interval,
            retries=retries,
            backoff_s=backoff,
        )
        return Caller(vendor, policy, cache, as_of.isoformat(), breaker=breaker)

    periods = periods_due(as_of)

    def akshare() -> Any:
        from lmscreen.pool.fetch import akshare_source

        return akshare_source.fetch(caller("akshare"), periods, roe_period)

    def efinance() -> Any:
        from lmscreen.pool.fetch import efinance_source

        return efinance_source.fetch(caller("efinance"), periods)

    def baostock(wanted: frozenset[str] | None = None) -> Any:
        from lmscreen.pool.fetch import baostock_source

        return baostock_source.fetch(caller("baostock"), periods, as_of, wanted)

    def tushare() -> Any:
        from lmscreen.pool.fetch import tushare_source

        return tushare_source.fetch(caller("tushare"), periods, as_of, token)

    if roe_period != "full_year" and source not in ("akshare", "auto"):
        raise InputError("--roe-period latest is available with --source akshare (or auto) only")
    single = {"akshare": akshare, "efinance": efinance, "baostock": baostock, "tushare": tushare}
    if source != "auto":
        return single[source](), source, {}
    from lmscreen.pool.fetch.failover import Fetcher, Targeted, fetch_auto

    fetchers: dict[str, Fetcher] = {"akshare": akshare, "efinance": efinance, "baostock": Targeted(baostock)}
    skipped: dict[str, str] = {}
    if token:
        fetchers["tushare"] = tushare
    else:
        skipped["tushare"] = "skipped (no token: --token or TUSHARE_TOKEN)"
    assert breaker is not None
    result = fetch_auto(fetchers, breaker, skipped)
    extra = {
        "sources_tried": [
            {"vendor": a.vendor, "ok": a.ok, "error": a.error, "filled": a.filled} for a in result.attempts
        ],
        "rows_by_vendor": result.by_row,
    }
    extra["requested_source"] = "auto"
    return result.table, "+".join(result.vendors), extra


_PATH = click.Path(path_type=Path)


def _vendor_options(command: Callable[..., None]) -> Callable[..., None]:
    """The options `fetch` and `enrich` share (how to ask the vendor)."""
    options = [
        click.option(
            "--source",
            default="auto",
            help="auto (default: akshare, then efinance, then baostock, then tushare with a token, per "
            "field), akshare, efinance, baostock or tushare.",
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
            help="Seconds between calls "
            f"(akshare/efinance 1.0, baostock {BAOSTOCK_INTERVAL_S}, tushare 0.35).",
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
@click.option(
    "--allow-stale", is_flag=True, help="With every source down, keep the pool already at --out (and say so)."
)
@click.option(
    "--trading-days-only",
    is_flag=True,
    help="On a day the exchanges are closed (--as-of), do nothing (exit 0).",
)
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
    allow_stale: bool,
    trading_days_only: bool,
) -> None:
    """Build a pool: code, name, industry, PE-TTM, ROE, EPS, ST flag, net profit of the last two years."""
    from lmscreen.pool.fetch.build import write_pool
    from lmscreen.pool.fetch.calls import FetchError

    day = _as_of(as_of)
    if trading_days_only:
        from lmscreen.pool.trading import closed_day_line

        closed = closed_day_line(day)
        if closed is not None:
            click.echo(closed, err=True)
            return
    try:
        table, vendor, extra = _fetch_table(
            source,
            token,
            day,
            None if no_cache else cache or _default_cache(),
            min_interval,
            retries,
            backoff,
            roe_period,
        )
    except FetchError as exc:
        if not (allow_stale and out.is_file()):
            raise
        click.echo(f"warning: {exc}", err=True)
        click.echo(f"--allow-stale: kept {out} as it was ({_written(out)}); it is NOT today's pool", err=True)
        return
    if table.frame.is_empty():
        raise InputError(f"{source} returned no stocks")
    sidecar = write_pool(table, out, vendor, day.isoformat(), **extra)
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
    table, vendor, _ = _fetch_table(
        source,
        token,
        day,
        None if no_cache else cache or _default_cache(),
        min_interval,
        retries,
        backoff,
        roe_period,
    )
    result = run_enrich(pool, table, target, vendor, day.isoformat(), overwrite)
    added = ", ".join(result.added) or "none"
    kept = f"; kept yours: {', '.join(result.kept)}" if result.kept else ""
    replaced = f"; overwritten: {', '.join(result.overwritten)}" if result.overwritten else ""
    click.echo(
        f"wrote {target}: {result.matched_rows} of {result.rows} rows matched; added {added}{kept}{replaced} "
        f"(sources: {result.sidecar})",
        err=True,
    )


def _written(pool: Path) -> str:
    """When the kept pool was built, by its sidecar (or the file's time)."""
    import json

    from lmscreen.pool.fetch.build import sidecar_path

    try:
        data = json.loads(sidecar_path(pool).read_text(encoding="utf-8"))
        return f"as of {data['as_of']}, by {data['vendor']}"
    except (OSError, ValueError, KeyError, TypeError):
        stamp = datetime.fromtimestamp(pool.stat().st_mtime, timezone.utc)
        return f"file written {stamp.isoformat(timespec='minutes')}"


def register(app: click.Group) -> None:
    app.add_command(pool_app)
