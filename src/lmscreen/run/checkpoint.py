"""Durable per-row LLM results: the one thing a killed run must never lose.

Each finished LLM answer is committed to SQLite (WAL, synchronous=FULL) the moment it arrives, keyed by a
hash of everything that determines it (row content, prompt, schema, model, sampling). Only the raw answer
is stored: rules, grounding and cross-checks are re-derived on every run, so changing `--rules` never
needs the LLM again, and a resumed run cannot disagree with a fresh one. A row is in the table or not —
SQLite's atomic commit is what makes "never lost, never duplicated" hold under SIGKILL.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterable
from pathlib import Path

from lmscreen.engines.protocol import LLMResult

FILENAME = "checkpoint.sqlite"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS llm_results (
    key TEXT PRIMARY KEY,
    row INTEGER NOT NULL,
    code TEXT NOT NULL,
    text TEXT,
    error TEXT,
    finish_reason TEXT,
    prompt_tokens INTEGER NOT NULL DEFAULT 0,
    completion_tokens INTEGER NOT NULL DEFAULT 0,
    cached_prompt_tokens INTEGER NOT NULL DEFAULT 0,
    seconds REAL NOT NULL DEFAULT 0,
    extra TEXT,
    finished_at REAL NOT NULL
);
"""


class Checkpoint:
    """An append-mostly store of LLM answers in OUT_DIR/checkpoint.sqlite."""

    def __init__(self, out_dir: Path) -> None:
        self.path = out_dir / FILENAME
        self._db = sqlite3.connect(self.path, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.executescript(_SCHEMA)

    def finished_keys(self, keys: Iterable[str]) -> set[str]:
        """Keys that already have a successful answer (failed ones are tried again on resume)."""
        done: set[str] = set()
        batch: list[str] = []
        for key in keys:
            batch.append(key)
            if len(batch) == 500:
                done |= self._query_done(batch)
                batch = []
        if batch:
            done |= self._query_done(batch)
        return done

    def _query_done(self, keys: list[str]) -> set[str]:
        marks = ",".join("?" * len(keys))
        cur = self._db.execute(f"SELECT key FROM llm_results WHERE error IS NULL AND key IN ({marks})", keys)
        return {k for (k,) in cur}

    def put(self, row: int, code: str, result: LLMResult) -> None:
        """Commit one answer now (one transaction per row: durable before the next row starts)."""
        self._db.execute(
            "INSERT OR REPLACE INTO llm_results (key, row, code, text, error, finish_reason, prompt_tokens,"
            " completion_tokens, cached_prompt_tokens, seconds, extra, finished_at)"
            " VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
            (
                result.key,
                row,
                code,
                result.text,
                result.error,
                result.finish_reason,
                result.prompt_tokens,
                result.completion_tokens,
                result.cached_prompt_tokens,
                result.seconds,
                json.dumps(result.extra, ensure_ascii=False) if result.extra else None,
                time.time(),
            ),
        )

    def get_many(self, keys: list[str]) -> dict[str, LLMResult]:
        out: dict[str, LLMResult] = {}
        for i in range(0, len(keys), 500):
            chunk = keys[i : i + 500]
            marks = ",".join("?" * len(chunk))
            cur = self._db.execute(
                "SELECT key, text, error, finish_reason, prompt_tokens, completion_tokens,"
                f" cached_prompt_tokens, seconds, extra FROM llm_results WHERE key IN ({marks})",
                chunk,
            )
            for key, text, error, finish, pt, ct, cached, secs, extra in cur:
                out[key] = LLMResult(
                    key=key,
                    text=text,
                    error=error,
                    finish_reason=finish,
                    prompt_tokens=pt,
                    completion_tokens=ct,
                    cached_prompt_tokens=cached,
                    seconds=secs,
                    extra=json.loads(extra) if extra else {},
                )
        return out

    def close(self) -> None:
        self._db.close()


def remove(out_dir: Path) -> None:
    """`--fresh`: forget every stored answer (the WAL side files too)."""
    for suffix in ("", "-wal", "-shm"):
        (out_dir / (FILENAME + suffix)).unlink(missing_ok=True)
