"""An LLM run sets polars' allocator to return freed pages at once, only before polars loads and never
over the user's own setting (run/allocator.py; the memory it saves is measured by bench/reliability.py)."""

from __future__ import annotations

import os
import subprocess
import sys

from lmscreen.run.allocator import JEMALLOC_ENV, RETURN_AT_ONCE

_PROBE = (
    "import os, sys\n"
    "from lmscreen.run.allocator import return_freed_memory_at_once, JEMALLOC_ENV\n"
    "first = return_freed_memory_at_once()\n"
    "import polars\n"
    "print(first, return_freed_memory_at_once(), os.environ.get(JEMALLOC_ENV).split(',')[-2:])\n"
)


def _probe(env: dict[str, str]) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-c", _PROBE], capture_output=True, text=True, env=env, timeout=120
    )
    assert done.returncode == 0, done.stderr
    first, after, conf = done.stdout.split(maxsplit=2)
    return [first, after, conf.strip().replace(" ", "")]


def test_set_before_polars_loads_and_not_after() -> None:
    env = {k: v for k, v in os.environ.items() if k != JEMALLOC_ENV}
    # polars puts its own defaults first and ours after them, which jemalloc reads last (so they win)
    first, after, conf = _probe(env)
    assert (first, after) == ("True", "False")
    assert conf.endswith(repr(RETURN_AT_ONCE.split(",")).replace(" ", ""))


def test_the_users_own_setting_is_kept() -> None:
    env = {**os.environ, JEMALLOC_ENV: "narenas:2"}
    first, after, conf = _probe(env)
    assert (first, after) == ("False", "False")
    assert "narenas:2" in conf and "decay_ms:0" not in conf
