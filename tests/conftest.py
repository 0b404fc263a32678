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


@pytest.fixture(scope="session")
def llama_server() -> Iterator[object]:
    """One real `llama_cpp.server` with the bundled model for every test that talks to a server (doctor,
    the OpenAI engine, screen over HTTP): started once, on first use. A test that kills it restarts it."""
    from servers import LLAMA_ALIAS, LlamaServer

    with LlamaServer(LLAMA_ALIAS, n_ctx=4096) as srv:
        yield srv


@pytest.fixture(scope="session")
def keyed_llama_server() -> Iterator[object]:
    """The same server behind an API key (`servers.KEYED_API_KEY`), for the key-handling tests."""
    from servers import KEYED_API_KEY, LLAMA_ALIAS, LlamaServer

    with LlamaServer(LLAMA_ALIAS, api_key=KEYED_API_KEY, n_ctx=4096) as srv:
        yield srv


from browser import browser  # noqa: E402, F401  (one session-wide Chromium for every browser test)
