"""The engine options every model-using command takes (`screen`, `brief`, `compare`): one block, so a new
engine setting or a changed default reaches all three at once."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import click

F = TypeVar("F", bound=Callable[..., object])

ENGINE_HELP = "embedded | openai | vllm | ray"
CONCURRENCY_HELP = "Requests in flight (openai)."


def engine_options(engine_help: str = ENGINE_HELP) -> Callable[[F], F]:
    """`--engine --model --base-url --api-key --concurrency`, in that order in `--help`."""
    options = (
        click.option("--engine", default="embedded", help=engine_help),
        click.option("--model", help="GGUF path (embedded) or served model name."),
        click.option("--base-url", envvar="OPENAI_BASE_URL", show_envvar=True),
        click.option("--api-key", envvar="OPENAI_API_KEY", show_default=False, show_envvar=True),
        click.option("--concurrency", type=click.IntRange(min=1), default=4, help=CONCURRENCY_HELP),
    )

    def add(command: F) -> F:
        for option in reversed(options):  # click lists the innermost decorator first
            command = option(command)
        return command

    return add
