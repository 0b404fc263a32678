"""`lmscreen history` and `lmscreen diff`: the runs recorded so far, and what changed between two of them."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click


def history_help() -> str:
    """Where the history is (its path without the history store imported: `--help` shows it)."""
    from lmscreen.home import HISTORY_DB, HOME_ENV, home

    return f"Run history database: {home() / HISTORY_DB} (set {HOME_ENV} to move it)."


def register(app: click.Group) -> None:
    where = history_help()

    @app.command("history", help=f"List recorded screening runs, newest first. {where}")
    @click.option("--pool", type=click.Path(path_type=Path), help="Only runs of this pool file.")
    @click.option("--limit", type=click.IntRange(min=1), default=20, help="How many runs to list.")
    @click.option("--json", "as_json", is_flag=True, help="One JSON object on stdout.")
    def history_cmd(pool: Path | None, limit: int, as_json: bool) -> None:
        from rich.console import Console
        from rich.table import Table

        from lmscreen.outputs.history import db_path, list_runs
        from lmscreen.outputs.levels import merged

        runs = list_runs(pool=pool, limit=limit)
        if as_json:
            click.echo(
                json.dumps({"db": str(db_path()), "runs": [r.to_json() for r in runs]}, ensure_ascii=False)
            )
            return
        table = Table(title=f"lmscreen runs ({db_path()}; --json for full paths)")
        table.add_column("id", justify="right", no_wrap=True)
        table.add_column("finished (UTC)", no_wrap=True)
        table.add_column("pool", overflow="fold")
        # One column per level of the listed runs' rules (each run's own names, in its rules' order), so a
        # rules file's own levels are counted like the default 高 / 中 / 低 / 未知.
        levels = merged((r.scale for r in runs), (lv for r in runs for lv in r.levels))
        for col in ("rows", *levels, "rejected"):
            table.add_column(col, justify="right", no_wrap=True)
        table.add_column("model", overflow="fold")
        for r in runs:
            table.add_row(
                str(r.id),
                (r.finished_at or r.recorded_at or "")[:16].replace("T", " "),
                Path(r.pool_path).name,
                str(r.rows),
                *(_count(r.levels, lv, lv in r.scale.shown) for lv in levels),
                str(r.rejected),
                r.model or ("rules only" if r.engine and r.engine.startswith("none") else r.engine or ""),
            )
        # Wider than a terminal's 80 columns when piped, so a log keeps whole dates and names.
        Console(width=None if sys.stdout.isatty() else 140).print(table)

    @app.command(
        "diff",
        help=f"Stocks whose risk level or score changed between two runs, and codes added or "
        f"dropped. A run is an id from `lmscreen history`, `latest`, or an OUT folder. {where}",
    )
    @click.argument("run_a")
    @click.argument("run_b")
    @click.option("--json", "as_json", is_flag=True, help="One JSON object on stdout.")
    def diff_cmd(run_a: str, run_b: str, as_json: bool) -> None:
        from rich.console import Console
        from rich.table import Table

        from lmscreen.outputs.columns import DIFF_COLUMNS
        from lmscreen.outputs.history import resolve_run, verdict_chunks
        from lmscreen.report.diff import diff_chunks

        a, b = resolve_run(run_a), resolve_run(run_b)
        result = diff_chunks(
            lambda: verdict_chunks(a.id, columns=DIFF_COLUMNS),
            lambda: verdict_chunks(b.id, columns=DIFF_COLUMNS),
            a.id,
            b.id,
            scale=b.scale,
        )
        if as_json:
            data = result.to_json()
            data["run_a"], data["run_b"] = a.to_json(), b.to_json()
            click.echo(json.dumps(data, ensure_ascii=False))
            return
        console = Console()
        console.print(
            f"run {a.id} ({a.finished_at}, {a.pool_path}) → run {b.id} ({b.finished_at}, {b.pool_path})"
        )
        if result.empty:
            console.print("no risk level or score changed; no code added or dropped")
            return
        if result.changed:
            table = Table(title=f"changed ({len(result.changed)})")
            for col in ("code", "name", "risk", "score", "ROE %", "PE-TTM"):
                table.add_column(col)
            for c in result.changed:
                table.add_row(
                    c["code"],
                    c["name"] or "",
                    f"{c['risk_level_a']} → {c['risk_level_b']}",
                    f"{_v(c['score_a'])} → {_v(c['score_b'])}",
                    f"{_v(c['roe_a'])} → {_v(c['roe_b'])}",
                    f"{_v(c['pe_ttm_a'])} → {_v(c['pe_ttm_b'])}",
                )
            console.print(table)
        for key in ("added", "dropped"):
            items = getattr(result, key)
            if items:
                table = Table(title=f"{key} ({len(items)})")
                for col in ("code", "name", "risk", "score"):
                    table.add_column(col)
                for c in items:
                    table.add_row(c["code"], c["name"] or "", c["risk_level"] or "", _v(c["score"]))
                console.print(table)


def _count(counts: dict[str, int], level: str | None, in_rules: bool) -> str:
    """A run's count of one level; blank where the run's rules have no such level (another run's)."""
    if level in counts:
        return str(counts[level])  # type: ignore[index]
    return "0" if in_rules else ""


def _v(value: object) -> str:
    if value is None:
        return "—"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)
