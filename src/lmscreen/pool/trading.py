"""Trading days of the A-share exchanges, from a maintained calendar (the `exchange_calendars` package).

Why a package and not a list here: the exchanges publish each year's closures (Spring Festival, Golden
Week, the make-up days the State Council moves) late in the year before, and a hand list in this repository
is wrong the first year nobody edits it. `exchange_calendars`' XSHG (Shanghai; Shenzhen keeps the same days)
is maintained upstream. It is optional (`pip install 'lmscreen[nightly]'`) and imported on first use.

The calendar's end. XSHG's holidays are lunar and announced a year ahead, so the package records them only
to the end of a year (4.13.2: 2026-12-31) and refuses to be built further (`get_calendar("XSHG",
end=...)` past it raises ValueError; a newer release moves the end once the State Council has published
the next year's closures). A nightly job must not stop on 1 January for want of an upgrade, so past the
calendar's last session the rule is: Saturdays and Sundays are closed, every weekday is taken as open
(holidays unknown). The first use of that rule in a process prints one warning naming the calendar's last
date. Before the calendar's first session, or with no calendar installed, `is_trading_day` says None
(unknown) and `days_between` counts calendar days, which only errs towards flagging a field stale.
"""

from __future__ import annotations

import importlib
import sys
import warnings
from datetime import date, timedelta
from functools import lru_cache
from typing import Any

EXCHANGE = "XSHG"
_WEEKEND = (5, 6)  # date.weekday(): Saturday, Sunday

_warned: set[date] = set()
"""The calendar ends already warned about in this process (the warning is printed once per run)."""


@lru_cache(maxsize=1)
def _calendar() -> Any | None:
    try:
        module = importlib.import_module("exchange_calendars")
    except ImportError:
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return module.get_calendar(EXCHANGE)


def last_day() -> date | None:
    """The calendar's last session (the end of the maintained range), None without a calendar."""
    calendar = _calendar()
    return None if calendar is None else calendar.last_session.date()


def _first_day(calendar: Any) -> date:
    return calendar.first_session.date()


def _warn_past_end(end: date) -> None:
    """Once per run: say that the weekday rule is in use and until when the calendar was maintained."""
    if end in _warned:
        return
    _warned.add(end)
    print(
        f"warning: the {calendar_name()} calendar ends {end.isoformat()}; after it Saturdays and Sundays "
        "are taken as closed and weekdays as open (holidays unknown): upgrade exchange_calendars when a "
        "release covers the new year",
        file=sys.stderr,
    )


def _weekdays(after: date, through: date) -> int:
    """Weekdays after `after` up to and including `through` (the rule past the calendar's end)."""
    days = (through - after).days
    if days <= 0:
        return 0
    weeks, rest = divmod(days, 7)
    extra = sum(1 for k in range(1, rest + 1) if (after + timedelta(days=k)).weekday() not in _WEEKEND)
    return weeks * 5 + extra


def is_trading_day(day: date) -> bool | None:
    """Whether the exchanges are open on `day`; past the calendar's end by the weekday rule (warned once);
    None when no calendar is installed or `day` is before its first session."""
    calendar = _calendar()
    if calendar is None or day < _first_day(calendar):
        return None
    end = calendar.last_session.date()
    if day > end:
        _warn_past_end(end)
        return day.weekday() not in _WEEKEND
    with warnings.catch_warnings():  # pandas deprecation noise from inside the calendar package
        warnings.simplefilter("ignore")
        return bool(calendar.is_session(day.isoformat()))


def days_between(earlier: date, later: date) -> int:
    """Trading days after `earlier` up to and including `later` (0 when the same day or later is first):
    the calendar's sessions, then weekdays past its end; calendar days when no calendar covers `earlier`."""
    if later <= earlier:
        return 0
    calendar = _calendar()
    if calendar is None or earlier < _first_day(calendar):
        return (later - earlier).days
    end = calendar.last_session.date()
    counted = 0
    if earlier < end:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            sessions = calendar.sessions_in_range(earlier.isoformat(), min(later, end).isoformat())
        counted = int(sum(1 for s in sessions if s.date() > earlier))
    if later > end:
        _warn_past_end(end)
        counted += _weekdays(max(earlier, end), later)
    return counted


def calendar_name() -> str | None:
    """What `is_trading_day` reads, for messages: `exchange_calendars XSHG`, or None without it."""
    return f"exchange_calendars {EXCHANGE}" if _calendar() is not None else None


def closed_day_line(day: date) -> str | None:
    """`--trading-days-only`: the one line to print on a day the exchanges are closed, None on a trading
    day. Without a calendar, or before its first session, InputError (exit 2): a nightly job must not
    guess. Past its end the weekday rule answers (with its warning), so 1 January does not stop the job."""
    from lmscreen.errors import InputError

    open_ = is_trading_day(day)
    if open_ is None:
        if _calendar() is None:
            raise InputError(
                "--trading-days-only needs an exchange calendar: pip install exchange_calendars "
                "(or 'lmscreen[nightly]')"
            )
        raise InputError(f"--trading-days-only: {day} is before the calendar {calendar_name()} begins")
    if open_:
        return None
    end = last_day()
    if end is not None and day > end:
        return (
            f"{day.isoformat()} is not a trading day (a weekend; {calendar_name()} ends "
            f"{end.isoformat()}): nothing to do"
        )
    return f"{day.isoformat()} is not a trading day ({calendar_name()}): nothing to do"
