"""The `lmscreen` command line: one click group, the commands registered from their own modules.

Exit codes follow DESIGN.md: 0 done, 2 unusable input (one line on stderr), 1 internal error.

Why click and not Typer: Typer 0.2x builds a pydantic TypeAdapter for every parameter of the command it
runs, so `lmscreen model fit` paid ~0.15 s (and the pydantic import) before its first line of work, and
importing Typer cost twice click's. Every command module imports only click at the top; what a command
needs (polars, the rules, the report, rich tables) is imported inside it, so `--help` and `model fit`
load none of the screening stack (tests/test_model_memory.py holds this).
"""

from __future__ import annotations

import sys

import click

from lmscreen.errors import InputError

CONTEXT = {"help_option_names": ["-h", "--help"], "show_default": True, "max_content_width": 110}


@click.group(
    name="lmscreen",
    help="Screen an A-share stock pool with a local LLM; plan which model fits your GPU.",
    no_args_is_help=True,
    context_settings=CONTEXT,
)
def app() -> None:
    pass


_registered = False


def _register() -> None:
    global _registered
    if _registered:  # main() may be called more than once in one process (tests)
        return
    _registered = True
    from lmscreen.cli import brief, compare, doctor, history, model, notify, pool, screen

    # \b: click keeps the paragraph as written, so a long database path is never broken across lines.
    app.help = f"{app.help}\n\n\b\n{history.history_help()}"
    screen.register(app)
    brief.register(app)
    compare.register(app)
    pool.register(app)
    history.register(app)
    model.register(app)
    doctor.register(app)
    notify.register(app)


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point: maps our exceptions onto the exit-code contract."""
    _register()
    try:
        rc = app.main(args=argv, prog_name="lmscreen", standalone_mode=False)
        sys.exit(rc if isinstance(rc, int) else 0)
    except InputError as exc:
        print(f"lmscreen: error: {exc}", file=sys.stderr)
        sys.exit(2)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except click.ClickException as exc:
        # Usage mistakes (unknown command, missing or bad argument): click's usage line, hint and error.
        exc.show()
        sys.exit(exc.exit_code)
    except (click.exceptions.Abort, KeyboardInterrupt):
        print("lmscreen: aborted", file=sys.stderr)
        sys.exit(130)
    except SystemExit:
        raise
    except Exception as exc:  # noqa: BLE001 - the contract: anything else is an internal error, exit 1
        print(f"lmscreen: internal error: {type(exc).__name__}: {exc}", file=sys.stderr)
        sys.exit(1)
