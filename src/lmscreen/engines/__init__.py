"""Engines: one protocol (protocol.py), one factory here. Heavy backends are imported only when chosen."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lmscreen.errors import InputError

if TYPE_CHECKING:
    from lmscreen.engines.protocol import Engine
    from lmscreen.run.options import ScreenOptions

ENGINES = ("embedded", "openai", "vllm", "ray")


def make_engine(opts: ScreenOptions) -> Engine:
    """Build the engine `--engine` names, with a one-line InputError for anything unusable."""
    if opts.engine == "embedded":
        from lmscreen.engines.embedded import EmbeddedEngine

        return EmbeddedEngine(opts.model, n_ctx=opts.n_ctx, n_threads=opts.threads)
    if opts.engine == "openai":
        from lmscreen.engines.openai_engine import OpenAIEngine

        return OpenAIEngine(
            base_url=opts.base_url,
            model=opts.model,
            api_key=opts.api_key,
            concurrency=opts.concurrency,
            chat_template_kwargs=opts.chat_template_kwargs,
        )
    if opts.engine == "vllm":
        from lmscreen.engines.vllm_engine import make_vllm_engine

        return make_vllm_engine(opts)
    if opts.engine == "ray":
        from lmscreen.engines.ray_engine import make_ray_engine

        return make_ray_engine(opts)
    raise InputError(f"--engine must be one of {', '.join(ENGINES)} (got {opts.engine!r})")
