"""GPU memory per engine: weights, KV cache, activation/graph overhead → a fit verdict with knobs."""

from lmscreen.model.memory.plan import Component, ContextRow, Plan, VllmBlocks, plan

__all__ = ["Component", "ContextRow", "Plan", "VllmBlocks", "plan"]
