"""Where lmscreen keeps what outlives a run: the history database and the filings cache (home()), and
what only saves time (cache(): parsed data files, compiled templates; deleting it loses nothing).

home(): `$LMSCREEN_HOME`, else `$XDG_DATA_HOME/lmscreen`, else `~/.local/share/lmscreen`. cache():
`$LMSCREEN_CACHE`, else `$XDG_CACHE_HOME/lmscreen`, else `~/.cache/lmscreen`. A leaf module: outputs/
(history) and filings/ (the PDF text cache) both need it, and neither may import the other.
"""

from __future__ import annotations

import os
from pathlib import Path

HOME_ENV = "LMSCREEN_HOME"
HISTORY_DB = "history.sqlite"
"""The run history's file in home(): named here so `lmscreen --help` can show where it is without
importing the history store."""


def home() -> Path:
    env = os.environ.get(HOME_ENV)
    if env:
        return Path(env).expanduser()
    xdg = os.environ.get("XDG_DATA_HOME")
    return (Path(xdg).expanduser() if xdg else Path.home() / ".local" / "share") / "lmscreen"


def cache() -> Path:
    env = os.environ.get("LMSCREEN_CACHE")
    if env:
        return Path(env).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg).expanduser() if xdg else Path.home() / ".cache") / "lmscreen"
