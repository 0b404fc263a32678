"""Keep llama.cpp off its Intel AMX kernels unless the user says they work on this machine.

A llama-cpp-python built from source with `-march=native` on a CPU that reports AMX (Sapphire Rapids and
later) compiles ggml's AMX matmul and routes batched prompt reading through it. Several virtual machines
report the AMX flags but do not run the tile instructions: the first report longer than a few tokens
kills the whole process with SIGILL (`tileloadd` in `ggml_backend_amx_mul_mat`, seen here on a 2-core
Xeon VM; llama.cpp issues #28756, #28328, PR #26954). An overnight run must not die that way, so when the
build has AMX in it, models are loaded without llama.cpp's "extra" CPU buffer types (AMX and the
repacked layouts). That costs prompt-reading speed on a machine where AMX does work, and can move the
last bits of the arithmetic, never the prompt, the schema or the checks; run.json records the choice
(`llm.engine.llama_extra_buffers`).

`LMSCREEN_LLAMA_AMX=1` keeps them, for machines where AMX is known to work.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

AMX_ENV = "LMSCREEN_LLAMA_AMX"

_lock = threading.Lock()


def build_has_amx() -> bool:
    """True when this llama.cpp build would use AMX kernels (its system info says `AMX_INT8 = 1`)."""
    import llama_cpp

    info = llama_cpp.llama_print_system_info()
    text = info.decode("utf-8", "replace") if isinstance(info, bytes) else str(info)
    return "AMX_INT8 = 1" in text


def extra_buffers_allowed() -> bool:
    """Whether models may use llama.cpp's extra CPU buffer types (AMX, repacked weights) here."""
    return os.environ.get(AMX_ENV) == "1" or not build_has_amx()


@contextmanager
def safe_model_params() -> Iterator[bool]:
    """Inside the block, `llama_cpp.Llama(...)` loads its model without the extra buffer types when they
    are not allowed here (llama-cpp-python has no argument for it: its default-params function is
    wrapped for the block). Yields whether they are used."""
    import llama_cpp.llama_cpp as lib

    allowed = extra_buffers_allowed()
    if allowed:
        yield True
        return
    with _lock:
        original = lib.llama_model_default_params
        lib.llama_model_default_params = _without_extra_buffers(original)
        try:
            yield False
        finally:
            lib.llama_model_default_params = original


def patch_process() -> bool:
    """For a process that only serves llama.cpp (the test suite's `llama_cpp.server`): the same choice,
    for every model it loads. Returns whether the extra buffer types stay allowed."""
    import llama_cpp.llama_cpp as lib

    if extra_buffers_allowed():
        return True
    lib.llama_model_default_params = _without_extra_buffers(lib.llama_model_default_params)
    return False


def _without_extra_buffers(original: Callable[[], Any]) -> Callable[[], Any]:
    def default_params() -> Any:
        params = original()
        params.use_extra_bufts = False
        return params

    return default_params
