"""Engines: one protocol (protocol.py), plugins found by name (registry.py), each backend its own module.

A plugin builds its typed settings from the generic options, says the identity of its answers from them
without loading anything, and creates the engine last. Heavy backends are imported only when chosen.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import TYPE_CHECKING, Any

from lmscreen.engines.registry import BUILTIN, names, plugin

if TYPE_CHECKING:
    from lmscreen.engines.protocol import Engine

ENGINES = tuple(BUILTIN)
"""The built-in engine names; `names()` adds installed plugins."""

__all__ = ["ENGINES", "make_engine", "names", "plugin"]


def make_engine(opts: Any) -> Engine:
    """Build the engine `--engine` names from a run/options.py ScreenOptions (any dataclass with an
    `engine` field: engines sit below run/ and do not import it), with a one-line InputError for anything
    unusable."""
    p = plugin(opts.engine)
    return p.create(p.settings(asdict(opts)))
