"""Debian's Chromium driven by playwright, for tests that open report.html as a reader would.

No browser is downloaded: the session installs Debian's `chromium` package when it is missing (as root,
with apt-get, like CI's set-up) and playwright drives `/usr/bin/chromium`. The flags keep Chromium from
calling home (background networking, component updates, sync), so any request a test sees is the page's.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-quic",
    "--no-first-run",
]


def ensure_chromium() -> str:
    """Chromium at CHROMIUM, installed once; the suite's parallel workers wait on one lock for it (two
    apt-get runs at once would fail on dpkg's own lock)."""
    if Path(CHROMIUM).exists():
        return CHROMIUM
    if os.geteuid() != 0 or shutil.which("apt-get") is None:
        pytest.fail(f"{CHROMIUM} is missing: install Debian's chromium package (apt-get install chromium)")
    with open(Path(tempfile.gettempdir()) / "lmscreen-tests-chromium.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not Path(CHROMIUM).exists():
            _install_chromium()
    return CHROMIUM


def _install_chromium() -> None:
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    subprocess.run(["apt-get", "update", "-q"], check=True, env=env, capture_output=True, timeout=900)
    subprocess.run(
        ["apt-get", "install", "-y", "-q", "chromium", "fonts-noto-cjk"],
        check=True,
        env=env,
        capture_output=True,
        timeout=1800,
    )


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    path = ensure_chromium()
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=path, args=FLAGS)
        try:
            yield b
        finally:
            b.close()


class Page:
    """A page plus everything it logged and requested."""

    def __init__(self, browser: object, width: int = 1280, height: int = 900) -> None:
        self.context = browser.new_context(viewport={"width": width, "height": height})  # type: ignore[attr-defined]
        self.page = self.context.new_page()
        self.console: list[str] = []
        self.requests: list[str] = []
        self.page.on("console", lambda m: self.console.append(f"{m.type}: {m.text}"))
        self.page.on("pageerror", lambda e: self.console.append(f"pageerror: {e}"))
        self.page.on("request", lambda r: self.requests.append(r.url))

    def open(self, html: Path) -> None:
        self.page.goto(html.resolve().as_uri())
        self.page.wait_for_selector("body[data-ready]", timeout=300_000)

    def errors(self) -> list[str]:
        return [c for c in self.console if c.startswith(("error", "pageerror"))]

    def close(self) -> None:
        self.context.close()


def wait_until(page: object, expression: str, timeout: float = 300.0) -> None:
    """Poll a JS expression until it is truthy. (playwright's wait_for_function evaluates its predicate
    with eval inside the page, which the report's Content-Security-Policy rightly forbids.)"""
    import time

    deadline = time.monotonic() + timeout
    while not page.evaluate(expression):  # type: ignore[attr-defined]
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {expression}")
        time.sleep(0.01)
