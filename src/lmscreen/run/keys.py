"""Checkpoint keys: an item's answer is reused only when everything that shaped it is unchanged."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import Any


def stable_hash(obj: Any) -> str:
    text = json.dumps(obj, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def run_signature(parts: dict[str, Any]) -> str:
    """What every item's answer depends on besides the item itself: the engine's identity (model, sampling,
    seed, grammar backend, runtime version) and the task's settings (prompt, schema, budgets)."""
    return stable_hash(parts)[:32]


def item_key(signature: str, parts: Sequence[str]) -> str:
    return stable_hash([signature, *parts])[:32]
