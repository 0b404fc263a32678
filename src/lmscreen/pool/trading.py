"""Trading days of the A-share exchanges, from a maintained calendar (the `exchange_calendars` package).

Why a package and not a list here: the exchanges publish each year's closures (Spring Festival, Golden
Week, the make-up days the State Council moves) late in the year before, and a hand list in this repository
is wrong the first year nobody edits it. `exchange_calendars`' XSHG (Shanghai; Shenzhen keeps the same days)
is maintained upstream. It is optional (`pip install 'lmscreen[nightly]'`) and imported on first use: with
it missing, or for a day outside its range, `is_trading_day` says None (unknown) and `days_between` counts
calendar days, which only errs towards flagging a field stale.
"""

from __future__ import annotations

import importlib
import warnings
from datetime import date
from functools import lru_cache
from typing import Any

EXCHANGE = "XSHG"


@lru_cache(maxsize=1)
def _calendar() -> Any | None:
    try:
        module = importlib.import_module("exchange_calendars")
    except ImportError:
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return module.get_calendar(EXCHANGE)


def _in_range(calendar: Any, day: date) -> bool:
    return calendar.first_session.date() <= day <= calendar.last_session.date()


def is_trading_day(day: date) -> bool | None:
    """Whether the exchanges are open on `day`; None when no calendar is installed or covers it."""
    calendar = _calendar()
    if calendar is None or not _in_range(calendar, day):
        return None
    with warnings.catch_warnings():  # pandas deprecation noise from inside the calendar package
        warnings.simplefilter("ignore")
        return bool(calendar.is_session(day.isoformat()))


def days_between(earlier: date, later: date) -> int:
    """Trading days after `earlier` up to and including `later` (0 when the same day or later is first);
    calendar days when the calendar cannot say."""
    if later <= earlier:
        return 0
    calendar = _calendar()
    if calendar is None or not (_in_range(calendar, earlier) and _in_range(calendar, later)):
        return (later - earlier).days
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sessions = calendar.sessions_in_range(earlier.isoformat(), later.isoformat())
    return int(sum(1 for s in sessions if s.date() > earlier))


def calendar_name() -> str | None:
    """What `is_trading_day` reads, for messages: `exchange_calendars XSHG`, or None without it."""
    return f"exchange_calendars {EXCHANGE}" if _calendar() is not None else None


def closed_day_line(day: date) -> str | None:
    """`--trading-days-only`: the one line to print on a day the exchanges are closed, None on a trading
    day. Without a calendar that covers `day`, InputError (exit 2): a nightly job must not guess."""
    from lmscreen.errors import InputError

    open_ = is_trading_day(day)
    if open_ is None:
        if _calendar() is None:
            raise InputError(
                "--trading-days-only needs an exchange calendar: pip install exchange_calendars "
                "(or 'lmscreen[nightly]')"
            )
        raise InputError(f"--trading-days-only: {day} is outside the calendar {calendar_name()} (upgrade it)")
    if open_:
        return None
    return f"{day.isoformat()} is not a trading day ({calendar_name()}): nothing to do"
