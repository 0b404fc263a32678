"""`lmscreen notify OUT --test` and the delivery `screen --notify` makes after a run.

Why here and not in the run: delivery comes after the run's files are complete and never changes its
outcome; the exit code stays the screening's. Each target's outcome goes to the console and to run.json
(`notify`), with the URLs only ever shown redacted.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime, timezone
from pathlib import Path

import click

from lmscreen.errors import InputError

_PATH = click.Path(path_type=Path)


def send_run(
    out_dir: Path, flag_urls: Sequence[str] | None, echo: Callable[[str], None] | None = None
) -> dict | None:
    """Send the finished run's message to every configured URL; record the outcome in run.json.
    Returns run.json's `notify` entry, or None when no URL is configured."""
    import json

    from lmscreen.notify import config

    settings = config.load(list(flag_urls) if flag_urls else None)
    if not settings.urls:  # the common case: nothing to send, and no delivery or message code loaded
        return None
    from lmscreen.notify import deliver, message
    from lmscreen.outputs.results import write_json

    say = echo or (lambda text: click.echo(text, err=True))
    msg = message.build(out_dir)
    policy = deliver.Policy(retries=settings.retries, backoff_s=settings.backoff_s)
    results = deliver.deliver(settings.urls, msg, policy)
    entry = deliver.record(results, datetime.now(timezone.utc).isoformat(timespec="seconds"))
    for d in results:
        if d.ok:
            tries = f" ({d.attempts} tries)" if d.attempts > 1 else ""
            say(f"notify: delivered to {d.target}{tries}")
        else:
            say(f"warning: notify: {d.target} not delivered after {d.attempts} tries: {d.error}")
    path = out_dir / "run.json"
    run = json.loads(path.read_text(encoding="utf-8"))
    run["notify"] = entry
    write_json(run, path)
    return entry


def register(app: click.Group) -> None:
    @app.command("notify")
    @click.argument("out_dir", type=_PATH)
    @click.option("--test", is_flag=True, help="Send the run's message again (check the setup).")
    @click.option(
        "--notify",
        "url",
        multiple=True,
        help="apprise URL (repeatable), beside config.toml's `notify`.",
    )
    def notify(out_dir: Path, test: bool, url: tuple[str, ...]) -> None:
        """Send a finished run's summary to the configured targets (apprise URLs).

        OUT_DIR: a finished run's output folder.
        """
        if not test:
            raise InputError("notify: give --test to send the last run's message again")
        if not (out_dir / "run.json").is_file():
            raise InputError(f"{out_dir}: no run.json (not a finished run's folder)")
        entry = send_run(out_dir, url)
        if entry is None:
            from lmscreen.notify.config import config_path

            raise InputError(
                f"no notification URL: give --notify URL or set notify = [...] in {config_path()}"
            )
        if entry["failed"]:
            raise click.exceptions.Exit(1)
