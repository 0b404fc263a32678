"""Reading the generic CLI options (a mapping) into an engine's typed settings, with one-line errors.

Every plugin's `settings(options)` receives the same dict (the fields of run/options.py ScreenOptions) and
takes only what it needs; these helpers word a bad value the same way for all of them, naming the flag.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from lmscreen.errors import InputError


def flag(key: str) -> str:
    """The CLI flag of an option key: n_ctx → --n-ctx."""
    return "--" + key.replace("_", "-")


def opt_str(options: Mapping[str, Any], key: str) -> str | None:
    """A text option; None and "" both mean unset. Paths arrive as Path objects and become text."""
    value = options.get(key)
    if value is None:
        return None
    text = str(value).strip()
    return text or None


def opt_int(options: Mapping[str, Any], key: str, default: int | None, minimum: int = 1) -> int | None:
    """A whole number at least `minimum`, or `default` when unset."""
    value = options.get(key)
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise InputError(f"{flag(key)} must be a whole number (got {value!r})")
    try:
        number = int(value) if not isinstance(value, float) or value.is_integer() else None
    except ValueError:
        number = None
    if number is None:
        raise InputError(f"{flag(key)} must be a whole number (got {value!r})")
    if number < minimum:
        raise InputError(f"{flag(key)} must be at least {minimum} (got {number})")
    return number


def opt_fraction(options: Mapping[str, Any], key: str) -> float | None:
    """A number in (0, 1], or None when unset."""
    value = options.get(key)
    if value is None:
        return None
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise InputError(f"{flag(key)} must be a number in (0, 1] (got {value!r})") from None
    if not math.isfinite(number) or not 0 < number <= 1:
        raise InputError(f"{flag(key)} must be in (0, 1] (got {value})")
    return number


def opt_dict(options: Mapping[str, Any], key: str) -> dict[str, Any] | None:
    """A JSON-object option (already parsed by the CLI), or None when unset."""
    value = options.get(key)
    if value is None:
        return None
    if not isinstance(value, Mapping):
        raise InputError(f"{flag(key)} must be a JSON object (got {type(value).__name__})")
    return dict(value)
