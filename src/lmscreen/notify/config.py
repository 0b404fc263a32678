"""Notification settings: `--notify URL` (repeatable) and `$LMSCREEN_HOME/config.toml`.

    notify = ["mailto://me:APP_PASSWORD@qq.com", "wecombot://BOTKEY"]
    notify_retries = 3        # tries per target
    notify_backoff_s = 2.0    # first wait, doubled each retry

Why a file: a cron line is visible to every user of the machine (`ps`, crontab backups); the file can be
chmod 600. The URLs of both are used (flags first), each once.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lmscreen.errors import InputError
from lmscreen.home import home

CONFIG_NAME = "config.toml"
DEFAULT_RETRIES = 3
DEFAULT_BACKOFF_S = 2.0
"""Here, not in deliver.py: every `screen` reads the config to learn whether to send at all, and a run with
no URL then never imports the delivery and message modules."""


@dataclass
class NotifyConfig:
    urls: list[str] = field(default_factory=list)
    retries: int = DEFAULT_RETRIES
    backoff_s: float = DEFAULT_BACKOFF_S


def config_path() -> Path:
    return home() / CONFIG_NAME


def load(flag_urls: list[str] | None = None, path: Path | None = None) -> NotifyConfig:
    """The URLs of `--notify` and the config file, and the retry settings (the file's or the defaults)."""
    path = path or config_path()
    data: dict[str, Any] = {}
    if path.is_file():
        toml = _toml()
        try:
            data = toml.loads(path.read_text(encoding="utf-8"))
        except (OSError, toml.TOMLDecodeError) as exc:
            raise InputError(f"{path}: not a readable TOML file ({exc})") from exc
    listed = data.get("notify", [])
    if isinstance(listed, str):
        listed = [listed]
    if not isinstance(listed, list) or not all(isinstance(u, str) for u in listed):
        raise InputError(f"{path}: notify: expected a list of URLs")
    urls = list(dict.fromkeys([*(flag_urls or []), *listed]))
    try:
        retries = int(data.get("notify_retries", DEFAULT_RETRIES))
        backoff = float(data.get("notify_backoff_s", DEFAULT_BACKOFF_S))
    except (TypeError, ValueError) as exc:
        raise InputError(f"{path}: notify_retries / notify_backoff_s: expected numbers") from exc
    if retries < 1 or backoff < 0:
        raise InputError(f"{path}: notify_retries must be >= 1 and notify_backoff_s >= 0")
    return NotifyConfig(urls=urls, retries=retries, backoff_s=backoff)


def _toml() -> Any:
    """tomllib (Python 3.11+), or tomli on 3.10."""
    try:
        return importlib.import_module("tomllib")
    except ImportError:
        try:
            return importlib.import_module("tomli")
        except ImportError as exc:
            raise InputError("reading config.toml on Python 3.10 needs tomli: pip install tomli") from exc
