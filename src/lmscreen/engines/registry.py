"""Find engine plugins by name: the entry-point group `lmscreen.engines`, loaded only when asked for.

Why entry points: a new engine is a new installed package that declares
`[project.entry-points."lmscreen.engines"] NAME = "module:plugin"`, never a branch in the runner (the way
`llm` finds its model plugins). The four built-ins are declared the same way in lmscreen's own
pyproject.toml; they are also listed here so that a checkout whose installed metadata predates the table
(an editable install not reinstalled) still finds them.

Nothing is imported until `plugin(name)` is called, and then only that engine's module: importing this
module, or listing `names()`, never imports llama_cpp, httpx clients, vLLM, Ray or torch.
"""

from __future__ import annotations

from importlib.metadata import EntryPoint, entry_points
from typing import TYPE_CHECKING

from lmscreen.errors import InputError

if TYPE_CHECKING:
    from lmscreen.engines.protocol import EnginePlugin

GROUP = "lmscreen.engines"
BUILTIN: dict[str, str] = {
    "embedded": "lmscreen.engines.embedded:plugin",
    "openai": "lmscreen.engines.openai_engine:plugin",
    "vllm": "lmscreen.engines.vllm_engine:plugin",
    "ray": "lmscreen.engines.ray_engine:plugin",
}
"""Must equal the `lmscreen.engines` table of pyproject.toml (a test checks)."""

_loaded: dict[str, EnginePlugin] = {}


def _declared() -> dict[str, str]:
    """name → "module:attribute": the built-ins, then every installed entry point (scanned on each call, so
    a package installed while the process runs is found)."""
    found = dict(BUILTIN)
    for ep in entry_points(group=GROUP):
        if ep.name in BUILTIN and ep.value != BUILTIN[ep.name]:
            continue  # a built-in name is never taken over by another package
        found.setdefault(ep.name, ep.value)
    return found


def names() -> list[str]:
    """Every engine name that `--engine` accepts: the built-ins first, then installed plugins, sorted."""
    declared = _declared()
    return [n for n in BUILTIN] + sorted(n for n in declared if n not in BUILTIN)


def plugin(name: str) -> EnginePlugin:
    """The plugin called `name`; InputError naming the known engines when there is none."""
    from lmscreen.engines.protocol import EnginePlugin

    declared = _declared()
    value = declared.get(name)
    if value is None:
        raise InputError(f"--engine must be one of {', '.join(names())} (got {name!r})")
    if value in _loaded:
        return _loaded[value]
    try:
        obj = EntryPoint(name, value, GROUP).load()
    except (ImportError, AttributeError) as exc:
        raise InputError(f"--engine {name}: cannot import its plugin {value}: {exc}") from None
    if not isinstance(obj, EnginePlugin) or obj.name != name:
        raise InputError(
            f"--engine {name}: {value} is not an engine plugin (it needs name == {name!r}, settings(), "
            "identity() and create())"
        )
    _loaded[value] = obj
    return obj
