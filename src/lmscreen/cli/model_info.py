"""`lmscreen model decode` and `lmscreen model inspect`."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    @app.command("decode")
    def decode(name: str, json_out: bool = typer.Option(False, "--json")) -> None:
        """What a model name says: family, size, active params, variant, quantization."""
        raise NotImplementedError("model decode is not implemented yet (issue 3)")

    @app.command("inspect")
    def inspect(path_or_id: str, json_out: bool = typer.Option(False, "--json")) -> None:
        """The real architecture from config.json, safetensors headers or a GGUF header."""
        raise NotImplementedError("model inspect is not implemented yet (issue 3)")
