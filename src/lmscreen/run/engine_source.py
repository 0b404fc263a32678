"""The engine a run asks, as an EngineSource: its identity now, the engine only when an item needs it."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from lmscreen.engines.protocol import Engine
from lmscreen.run.options import ScreenOptions
from lmscreen.run.runner import EngineSource


def engine_source(opts: ScreenOptions, engine: Engine | None = None) -> EngineSource:
    """`--engine` and its options through the engines' registry, or the engine a caller lent."""
    if engine is not None:
        return EngineSource.of(engine)
    from lmscreen.engines import make_engine

    # TRANSITIONAL until the registry lands: the identity is the loaded engine's.
    made: list[Engine] = []

    def create() -> Engine:
        if not made:
            made.append(make_engine(opts))
        return made[0]

    def identity() -> dict[str, Any]:
        described = create().describe()
        return described.get("identity") or {k: v for k, v in described.items() if k != "model"}

    _ = asdict
    return EngineSource(opts.engine, identity, create)
