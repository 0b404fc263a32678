"""Send a message to apprise URLs, each retried with backoff; never raise, report what happened.

Why never raise: the screening is the night's work and is already on disk when this runs; a chat bot that
is down must not turn a finished run into a failed one (the exit code stays the screening's). Each target
is tried `retries` times, waiting `backoff_s`, doubled each time (`sleep` injectable for tests). apprise
logs target URLs (tokens included) at debug level: its logger is taken over while sending, its warnings
kept only after `secrets.scrub`, and nothing is passed on to the root logger.
"""

from __future__ import annotations

import importlib
import logging
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

from lmscreen.notify.config import DEFAULT_BACKOFF_S, DEFAULT_RETRIES
from lmscreen.notify.message import Message
from lmscreen.notify.secrets import redact, scrub


@dataclass
class Delivery:
    """One target's outcome, as run.json `notify.targets` records it (the URL only redacted)."""

    target: str
    ok: bool
    attempts: int
    error: str | None = None
    attached: bool = False


@dataclass
class Policy:
    retries: int = DEFAULT_RETRIES
    backoff_s: float = DEFAULT_BACKOFF_S
    sleep: Callable[[float], None] = time.sleep


class _Capture(logging.Handler):
    def __init__(self) -> None:
        super().__init__(level=logging.WARNING)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())


def _library() -> Any:
    try:
        return importlib.import_module("apprise")
    except ImportError:
        return None


def deliver(urls: list[str], message: Message, policy: Policy | None = None) -> list[Delivery]:
    """Send `message` to each URL; one Delivery per URL, in order. Never raises."""
    policy = policy or Policy()
    apprise = _library()
    if apprise is None:
        why = "apprise is not installed: pip install apprise (or 'lmscreen[nightly]')"
        return [Delivery(redact(u), False, 0, why) for u in urls]
    logger = logging.getLogger("apprise")
    capture = _Capture()
    saved = (logger.handlers[:], logger.propagate, logger.level)
    logger.handlers, logger.propagate = [capture], False
    logger.setLevel(logging.WARNING)
    try:
        return [_one(apprise, url, message, policy, capture) for url in urls]
    finally:
        logger.handlers, logger.propagate = saved[0], saved[1]
        logger.setLevel(saved[2])


def _one(apprise: Any, url: str, message: Message, policy: Policy, capture: _Capture) -> Delivery:
    target = redact(url)
    sender = apprise.Apprise()
    if not sender.add(url):
        scheme = f"{url.split('://', 1)[0]}://" if "://" in url else "a URL without a scheme"
        return Delivery(
            target, False, 0, f"{scheme} is not a notification URL apprise reads (check its form)"
        )
    attach = str(message.attachment) if message.attachment is not None else None
    error: str | None = None
    for attempt in range(1, policy.retries + 1):
        if attempt > 1:
            policy.sleep(policy.backoff_s * 2 ** (attempt - 2))
        capture.lines.clear()
        try:
            ok = bool(sender.notify(body=message.body, title=message.title, attach=attach))
        except Exception as exc:  # noqa: BLE001 - a plugin may raise anything; delivery never fails the run
            ok, capture.lines = False, [f"{type(exc).__name__}: {exc}"]
        if ok:
            return Delivery(target, True, attempt, attached=attach is not None)
        said = "; ".join(dict.fromkeys(capture.lines)) or "not delivered"
        error = scrub(" ".join(said.split()), [url])[:300]
    return Delivery(target, False, policy.retries, error)


def record(deliveries: list[Delivery], sent_at: str) -> dict[str, Any]:
    """run.json `notify`: when, and each target's outcome."""
    return {
        "sent_at": sent_at,
        "delivered": sum(d.ok for d in deliveries),
        "failed": sum(not d.ok for d in deliveries),
        "targets": [asdict(d) for d in deliveries],
    }
