"""How a value that made a rule fire is written into `rules_fired`, defined once for both evaluators.

The vectorised evaluator lets polars cast the value to text; the reference evaluator must produce the
very same characters, so the format is pinned here in plain Python and the equivalence test holds the two
together. The format is polars' (>= 1.20) float-to-text form: the shortest text that reads back as the
same float (Python's `repr`), except that exponents are not zero-padded (`1e-7`, not `1e-07`) and values
in [1e-5, 1e-4) are written out (`0.000015`, not `1.5e-05`). Booleans are `true` / `false`; a missing
value is the empty string.
"""

from __future__ import annotations

import math


def is_missing(value: object) -> bool:
    """None, NaN and +-inf all count as missing: a non-finite ratio is not a measurement."""
    return value is None or (isinstance(value, float) and not math.isfinite(value))


def format_float(value: float) -> str:
    """The text polars gives when it casts this float to String (see the module docstring)."""
    text = repr(value)
    if "e" not in text:
        return text
    mantissa, exponent_text = text.split("e")
    exponent = int(exponent_text)
    if exponent == -5:
        sign = "-" if mantissa.startswith("-") else ""
        digits = mantissa.lstrip("-").replace(".", "")
        return f"{sign}0.0000{digits}"
    return f"{mantissa}e{'+' if exponent > 0 else '-'}{abs(exponent)}"


def format_value(value: object) -> str | None:
    """Text shown for a value in `rules_fired`; None for a missing one."""
    if is_missing(value):
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return format_float(value)
    return str(value)
