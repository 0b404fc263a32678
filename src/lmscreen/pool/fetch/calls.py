"""One library call the way a data vendor needs it: rate-limited, retried with backoff, cached per day.

Why: Eastmoney (behind akshare) bans IPs that call too fast (akshare #6167, #6574 ...) and drops
connections now and then; tushare counts calls per minute. A pool build makes a handful of whole-market
calls, so spacing them out costs little. The cache is keyed by call, arguments and as-of date, so a rerun
the same day (or a test) reads the same frame again instead of asking the vendor twice; each cache file
records when it was fetched.

A call that still fails after its retries raises FetchError (an InputError: exit 2, one line) naming the
call and the last error, and saying when it looks like the network is down.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import polars as pl

from lmscreen.errors import InputError

_NETWORK_WORDS = (
    "connection",
    "timeout",
    "timed out",
    "resolve",
    "network",
    "unreachable",
    "remote",
    "proxy",
)


class FetchError(InputError):
    """A vendor call that could not be completed (no network, refused, bad token)."""


@dataclass
class CallPolicy:
    """How calls to one vendor are paced and retried. `sleep` and `clock` are injectable for tests."""

    min_interval_s: float = 1.0
    retries: int = 3
    backoff_s: float = 2.0
    sleep: Callable[[float], None] = time.sleep
    clock: Callable[[], float] = time.monotonic
    _last_call: float | None = field(default=None, repr=False)

    def wait_turn(self) -> None:
        """Sleep until `min_interval_s` has passed since the previous call (the vendor's rate limit)."""
        now = self.clock()
        if self._last_call is not None:
            wait = self.min_interval_s - (now - self._last_call)
            if wait > 0:
                self.sleep(wait)
        self._last_call = self.clock()


@dataclass
class Breaker:
    """A circuit breaker per vendor, shared by every Caller of one run (`pool fetch --source auto`).

    Why: a vendor that throttles or refuses (Eastmoney's IP bans, an overseas IP) fails every call of the
    night, and each retry with backoff only waits longer for the same answer. After `threshold` failed
    attempts a vendor is skipped for the rest of the run, its remaining retries included, and the next
    source is asked instead."""

    threshold: int = 2
    failures: dict[str, list[str]] = field(default_factory=dict)

    def allows(self, vendor: str) -> bool:
        return len(self.failures.get(vendor, [])) < self.threshold

    def failed(self, vendor: str, why: str) -> None:
        self.failures.setdefault(vendor, []).append(why)

    def why(self, vendor: str) -> str:
        """The vendor's last failure, for the one line that names each source's error."""
        seen = self.failures.get(vendor) or ["no failure"]
        return seen[-1]


@dataclass
class Caller:
    """Makes cached, paced, retried calls for one vendor and remembers what it called (for the sidecar)."""

    vendor: str
    policy: CallPolicy
    cache_dir: Path | None
    as_of: str
    log: list[dict[str, Any]] = field(default_factory=list)
    breaker: Breaker | None = None

    def call(
        self, name: str, function: Callable[..., Any], convert: Callable[[Any], pl.DataFrame], **kwargs: Any
    ) -> pl.DataFrame:
        """`convert(function(**kwargs))`, from the cache when this call was already made for `as_of`."""
        label = f"{self.vendor} {name}({', '.join(f'{k}={v}' for k, v in kwargs.items())})"
        path = self._cache_path(name, kwargs)
        if path is not None and path.is_file():
            cached = json.loads(path.read_text(encoding="utf-8"))
            frame = pl.DataFrame(
                cached["data"], schema=cached["columns"], orient="row", strict=False, infer_schema_length=None
            )
            self.log.append({"call": label, "fetched_at": cached["fetched_at"], "cache": str(path)})
            return frame
        breaker = self.breaker
        if breaker is not None and not breaker.allows(self.vendor):
            raise FetchError(f"{label} skipped: {self.vendor} failed {breaker.threshold} times this run")
        last: Exception | None = None
        frame: pl.DataFrame | None = None
        tries = 0
        for attempt in range(self.policy.retries):
            if breaker is not None and not breaker.allows(self.vendor):
                break  # the circuit opened: the remaining retries would meet the same refusal
            if attempt:
                self.policy.sleep(self.policy.backoff_s * 2 ** (attempt - 1))
            self.policy.wait_turn()
            tries += 1
            try:
                frame = convert(function(**kwargs))
                break
            except Exception as exc:  # noqa: BLE001 - vendors raise anything (requests, ValueError, KeyError)
                last = exc
                if breaker is not None:
                    breaker.failed(self.vendor, _describe(exc))
        if frame is None:
            assert last is not None
            raise FetchError(f"{label} failed after {tries} tries: {_describe(last)}")
        fetched_at = datetime.now(timezone.utc).isoformat(timespec="seconds")
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            payload = {
                "call": label,
                "fetched_at": fetched_at,
                "columns": frame.columns,
                "data": [list(row) for row in frame.iter_rows()],
            }
            tmp = path.with_suffix(".tmp")
            tmp.write_text(json.dumps(payload, ensure_ascii=False, default=str), encoding="utf-8")
            tmp.replace(path)
        self.log.append({"call": label, "fetched_at": fetched_at, "cache": str(path) if path else None})
        return frame

    def _cache_path(self, name: str, kwargs: dict[str, Any]) -> Path | None:
        if self.cache_dir is None:
            return None
        key = json.dumps([self.vendor, name, sorted(kwargs.items()), self.as_of], default=str)
        digest = hashlib.sha256(key.encode()).hexdigest()[:12]
        return self.cache_dir / self.vendor / f"{name}-{self.as_of}-{digest}.json"


def _describe(exc: Exception) -> str:
    text = " ".join(f"{type(exc).__name__}: {exc}".split())[:200]
    if any(word in text.lower() for word in _NETWORK_WORDS):
        return f"{text} (no network, or the vendor is refusing connections)"
    return text
