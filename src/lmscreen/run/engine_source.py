"""The engine a run asks, as an EngineSource: its identity now, the engine only when an item needs it."""

from __future__ import annotations

from dataclasses import asdict

from lmscreen.engines.protocol import Engine
from lmscreen.engines.registry import plugin
from lmscreen.run.options import ScreenOptions
from lmscreen.run.runner import EngineSource


def engine_source(opts: ScreenOptions, engine: Engine | None = None) -> EngineSource:
    """`--engine` and its options through the engines' registry, or the engine a caller lent.

    The settings are built (and checked: a missing model file, a bad URL) now, so a wrong option fails the
    run at once even when no item will need the engine; loading waits for the first item that does.
    """
    if engine is not None:
        return EngineSource.of(engine)
    chosen = plugin(opts.engine)
    settings = chosen.settings(asdict(opts))
    return EngineSource(opts.engine, lambda: chosen.identity(settings), lambda: chosen.create(settings))
