"""Checkpoint keys: a row's LLM answer is reused only when everything that shaped it is unchanged."""

from __future__ import annotations

import hashlib
import json
from typing import Any


def stable_hash(obj: Any) -> str:
    text = json.dumps(obj, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def run_signature(
    engine_identity: dict[str, Any], prompt_hash: str, report_token_budget: int, max_tokens: int
) -> str:
    """What every row's answer depends on besides the row itself (model, prompt, schema, budgets)."""
    return stable_hash(
        {
            "engine": engine_identity,
            "prompt": prompt_hash,
            "budget": report_token_budget,
            "max_tokens": max_tokens,
        }
    )[:32]


def row_key(signature: str, code: str, name: str, report_digest: str) -> str:
    return stable_hash([signature, code, name, report_digest])[:32]
