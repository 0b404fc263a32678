"""How polars' allocator (jemalloc) hands freed memory back, chosen per run before polars is loaded.

polars starts jemalloc keeping freed pages for 0.5 s, then 1 s more half-returned (its own default,
`dirty_decay_ms:500,muzzy_decay_ms:1000`), so the next allocation can reuse them. A run with an LLM
step pushes a big pool through in small chunks (runner.LLM_CHUNK_ROWS) while it waits on the model for
hours, and is the run left unattended overnight: with the default it held ~25 MiB of such pages at its
peak on a million rows (1.21x a 100-row run; measured by bench/reliability.py --only memory), and with
pages returned at once it stays within 1.2x (1.15x). That costs about 15% more CPU in the polars steps,
seconds in a run of hours. A rules-only run is about speed and keeps the default.

jemalloc reads its settings once, when polars' library starts, so this only acts before the first
`import polars` of the process (the CLI imports polars inside its commands; polars appends what it
finds in the variable to its own defaults), and never overrides a setting the user made there.
"""

from __future__ import annotations

import os
import sys

JEMALLOC_ENV = "_RJEM_MALLOC_CONF"
RETURN_AT_ONCE = "dirty_decay_ms:0,muzzy_decay_ms:0"


def return_freed_memory_at_once() -> bool:
    """Set jemalloc to give freed pages back at once for this process; False when it is too late (polars
    already loaded) or the user set jemalloc's options themselves."""
    if "polars" in sys.modules or JEMALLOC_ENV in os.environ:
        return False
    os.environ[JEMALLOC_ENV] = RETURN_AT_ONCE
    return True
