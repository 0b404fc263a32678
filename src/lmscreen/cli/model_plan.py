"""`lmscreen model fit`, `lmscreen model launch`, `lmscreen model recommend`."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    @app.command("fit")
    def fit(model: str) -> None:
        """Plan GPU memory for a model (issue 3)."""
        raise NotImplementedError("model fit is not implemented yet (issue 3)")
