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
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

from lmscreen import __version__
from lmscreen.engines.protocol import LLMResult
from lmscreen.errors import InputError

FILENAME = "checkpoint.sqlite"
LOCK_WAIT_S = 10.0
"""How long a write waits for another process's lock on the file before the run stops with a clear line."""

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
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""


class Checkpoint:
    """An append-mostly store of LLM answers in OUT_DIR/checkpoint.sqlite.

    Opening it checks that the file is whole, writable now and written by this lmscreen version: a
    damaged, locked or foreign checkpoint stops the run with one line and the `--fresh` hint instead of
    silently resuming from answers that may be wrong.
    """

    def __init__(self, out_dir: Path) -> None:
        self.path = out_dir / FILENAME
        existed = self.path.is_file() and self.path.stat().st_size > 0
        self._db = sqlite3.connect(self.path, isolation_level=None, timeout=LOCK_WAIT_S)
        try:
            with self._guard():
                self._open(existed)
        except BaseException:
            self._db.close()
            raise

    def _open(self, existed: bool) -> None:
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        if existed:
            problems = [r for (r,) in self._db.execute("PRAGMA quick_check") if r != "ok"]
            if problems:
                raise sqlite3.DatabaseError("; ".join(problems[:3]))
        self._db.execute("BEGIN IMMEDIATE")  # takes the write lock now, not after the first LLM answer
        try:
            for statement in filter(str.strip, _SCHEMA.split(";")):
                self._db.execute(statement)
            self._check_version()
        finally:
            self._db.execute("COMMIT")

    def _check_version(self) -> None:
        row = self._db.execute("SELECT value FROM meta WHERE key = 'lmscreen_version'").fetchone()
        if row is None:
            (stored,) = self._db.execute("SELECT count(*) FROM llm_results").fetchone()
            if stored:
                raise InputError(
                    f"{self.path}: checkpoint from an older lmscreen (no version recorded; this is "
                    f"{__version__}); rerun with --fresh to start over"
                )
            self._db.execute("INSERT INTO meta VALUES ('lmscreen_version', ?)", (__version__,))
        elif row[0] != __version__:
            raise InputError(
                f"{self.path}: checkpoint written by lmscreen {row[0]} (this is {__version__}); "
                "rerun with --fresh to start over"
            )

    @contextmanager
    def _guard(self) -> Iterator[None]:
        """SQLite failures as one line with the way out (never a traceback, never a silent wrong resume)."""
        try:
            yield
        except sqlite3.OperationalError as exc:
            if "locked" in str(exc) or "busy" in str(exc):
                raise InputError(
                    f"{self.path}: checkpoint is locked by another process ({exc}); close that process, "
                    "or rerun with --fresh or another --out"
                ) from None
            raise InputError(f"{self.path}: checkpoint unusable ({exc}); rerun with --fresh") from None
        except sqlite3.DatabaseError as exc:
            raise InputError(
                f"{self.path}: checkpoint is damaged ({exc}); rerun with --fresh to start over"
            ) from None

    def finished_keys(self, keys: Iterable[str]) -> set[str]:
        """Keys that already have a successful answer (failed ones are tried again on resume)."""
        with self._guard():
            return self._finished_keys(keys)

    def _finished_keys(self, keys: Iterable[str]) -> set[str]:
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
        with self._guard():
            self._put(row, code, result)

    def _put(self, row: int, code: str, result: LLMResult) -> None:
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
        with self._guard():
            return self._get_many(keys)

    def _get_many(self, keys: list[str]) -> dict[str, LLMResult]:
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
