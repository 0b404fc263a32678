"""Shared test set-up."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture(scope="session", autouse=True)
def _private_history(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Runs made by the tests are recorded in a history database of their own, never in the user's
    (`LMSCREEN_HOME`); session-wide so module fixtures that run `screen` see it too, and subprocesses
    inherit it through the environment. A test that needs an empty history sets its own."""
    home = tmp_path_factory.mktemp("lmscreen-home")
    mp = pytest.MonkeyPatch()
    mp.setenv("LMSCREEN_HOME", str(home))
    yield home
    mp.undo()


from browser import browser  # noqa: E402, F401  (one session-wide Chromium for every browser test)
