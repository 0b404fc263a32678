"""The `lmscreen` command line: one Typer app, sub-apps registered from their own modules.

Exit codes follow DESIGN.md: 0 done, 2 unusable input (one line on stderr), 1 internal error.
"""

from __future__ import annotations

import sys

import typer

from lmscreen.errors import InputError

app = typer.Typer(
    name="lmscreen",
    help="Screen an A-share stock pool with a local LLM; plan which model fits your GPU.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


_registered = False


def _register() -> None:
    global _registered
    if _registered:  # main() may be called more than once in one process (tests)
        return
    _registered = True
    # Imported here so that `lmscreen model fit` never pays for the screening stack and vice versa:
    # each module imports its heavy dependencies inside its command functions.
    from lmscreen.cli import brief, doctor, history, model, notify, pool, screen

    app.info.help = f"{app.info.help}\n\n{history.history_help()}"
    screen.register(app)
    brief.register(app)
    pool.register(app)
    history.register(app)
    model.register(app)
    doctor.register(app)
    notify.register(app)


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point: maps our exceptions onto the exit-code contract."""
    _register()
    try:
        # With standalone_mode=False click returns (not raises) a typer.Exit's code: keep it.
        rc = app(args=argv, prog_name="lmscreen", standalone_mode=False)
        sys.exit(rc if isinstance(rc, int) else 0)
    except InputError as exc:
        print(f"lmscreen: error: {exc}", file=sys.stderr)
        sys.exit(2)
    except typer.Exit as exc:
        sys.exit(exc.exit_code)
    except (typer.Abort, KeyboardInterrupt):
        print("lmscreen: aborted", file=sys.stderr)
        sys.exit(130)
    except SystemExit:
        raise
    except Exception as exc:  # noqa: BLE001 - the contract: anything else is an internal error, exit 1
        if _is_click_exception(exc):
            # Usage mistakes (unknown command, missing or bad argument): click's own usage line, hint and
            # error, exit 2. Typer >= 0.2x vendors click, so its exceptions are not `click.*` ones.
            exc.show()  # type: ignore[attr-defined]
            sys.exit(int(getattr(exc, "exit_code", 2)))
        print(f"lmscreen: internal error: {type(exc).__name__}: {exc}", file=sys.stderr)
        sys.exit(1)


def _is_click_exception(exc: BaseException) -> bool:
    """True for click's (or typer's vendored click's) ClickException family, whichever module holds it."""
    return any(c.__name__ == "ClickException" for c in type(exc).__mro__) and hasattr(exc, "show")
