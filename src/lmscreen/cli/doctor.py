"""`lmscreen doctor`: checks a running OpenAI-compatible endpoint (issue 4)."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    @app.command("doctor")
    def doctor(
        base_url: str = typer.Option(..., "--base-url", envvar="OPENAI_BASE_URL", help="Server URL."),
        model: str | None = typer.Option(None, "--model", help="Model name the client will request."),
        json_out: bool = typer.Option(False, "--json", help="Print one JSON object."),
    ) -> None:
        """Tell why an OpenAI-compatible endpoint does or does not work."""
        raise NotImplementedError("doctor is not implemented yet (issue 4)")
