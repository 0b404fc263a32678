"""`lmscreen model …`: decode / inspect (model_info.py) and fit / launch / recommend (model_plan.py)."""

from __future__ import annotations

import click


def register(app: click.Group) -> None:
    from lmscreen.cli import model_info, model_plan

    @app.group("model", no_args_is_help=True)
    def model_app() -> None:
        """Decode model names, read architectures, plan GPU memory, launch engines."""

    model_info.register(model_app)
    model_plan.register(model_app)
