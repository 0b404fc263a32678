"""`lmscreen model …`: decode / inspect (model_info.py) and fit / launch / recommend (model_plan.py)."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    from lmscreen.cli import model_info, model_plan

    model_app = typer.Typer(
        help="Decode model names, read architectures, plan GPU memory, launch engines.", no_args_is_help=True
    )
    model_info.register(model_app)
    model_plan.register(model_app)
    app.add_typer(model_app, name="model")
