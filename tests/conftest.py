"""Shared test set-up."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
"""Bytecode is cached during the tests even where the environment says not to (PYTHONDONTWRITEBYTECODE, as
on the shared dev machines): otherwise every `lmscreen` child, server and worker the suite starts compiles
the package from source again, and each worker rewrites every test module's asserts again."""

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
"""bench/ on the path: the extraction bench's own copy of the old free-form question is tested here too."""

MODEL_MODULES = {
    "test_screen_e2e", "test_task_model", "test_task_choice_model", "test_task_truncate", "test_llama_cpu",
    "test_run_safety", "test_pdf_reports", "test_long_reports", "test_filings_cache", "test_screen_periods",
    "test_engine_registry", "test_allocator", "test_threads",
}  # fmt: skip
"""Modules whose tests load the bundled model in-process or in a `screen` child (marked `model`)."""
SERVER_MODULES = {
    "test_doctor",
    "test_openai_engine",
    "test_openai_screen",
    "test_secrets",
    "test_golden_outputs",
}
"""Modules that talk to a real server on 127.0.0.1 (marked `server`)."""
RAY_MODULES = {"test_ray_engine"}
BROWSER_FIXTURE = "browser"


PIN_ENV = "LMSCREEN_TEST_PIN"
MAX_WORKERS = 4


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """`-n auto` (pyproject's addopts): one worker per usable core, at most MAX_WORKERS; none on one core."""
    from lmscreen.engines.threads import usable_cores

    cores = usable_cores()  # affinity and a cgroup CPU quota, as a run counts its cores
    return min(cores, MAX_WORKERS) if cores >= 2 else 0


def pytest_configure(config: pytest.Config) -> None:
    """A parallel worker keeps to its own share of the cores (its children inherit it).

    Why: llama.cpp's threads busy-wait between steps, so a two-thread model run beside another busy process
    on two cores slows several times over (measured before the workers were pinned: the suite under `-n 2`
    was no faster, and the OpenAI-screen test took 10x its solo time). Pinned, each worker's model runs
    see one usable core, choose one thread (engines/threads.py) and never spin against the other worker.
    Files go to workers whole (`--dist loadfile`), so a module's fixtures (a Ray cluster) start once.
    `LMSCREEN_TEST_PIN=0` leaves the workers unpinned."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    count = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "0") or 0)
    if not worker.startswith("gw") or count < 2 or os.environ.get(PIN_ENV, "1") == "0":
        return
    cores = sorted(os.sched_getaffinity(0))
    index = int(worker[2:]) % count
    share = {core for i, core in enumerate(cores) if i % count == index}
    if share:
        os.sched_setaffinity(0, share)


LONGEST_FIRST = (
    "test_ray_engine", "test_screen_e2e", "test_openai_screen", "test_brief", "test_openai_engine",
    "test_llama_cpu", "test_doctor", "test_report_scale", "test_task_model", "test_task_choice_model",
)  # fmt: skip
"""The modules that take longest (measured with `scripts/stress_suite.sh 0`), handed to the workers first
so the last file to finish is a short one (files are given out in collection order)."""


def _module(item: pytest.Item) -> str:
    return item.module.__name__.rsplit(".", 1)[-1] if item.module else ""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark every test by what it needs (`-m "not model and not server and not ray"` is the quick loop),
    and put the longest modules first, each module's tests in their own order."""
    rank = {name: i for i, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(_module(item), len(rank)))
    for item in items:
        module = _module(item)
        if module in MODEL_MODULES:
            item.add_marker(pytest.mark.model)
        if module in SERVER_MODULES:
            item.add_marker(pytest.mark.server)
        if module in RAY_MODULES:
            item.add_marker(pytest.mark.ray)
        if BROWSER_FIXTURE in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.browser)


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


EXAMPLE_ROOT = Path(__file__).resolve().parents[1]
EXAMPLE_ARGS = [
    str(EXAMPLE_ROOT / "examples" / "pool.csv"),
    "--reports",
    str(EXAMPLE_ROOT / "examples" / "reports"),
]


@pytest.fixture(scope="session")
def example_full_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`lmscreen screen examples/pool.csv --reports examples/reports` on the bundled model (embedded
    engine, every default): the one full end-to-end run, made once for the session. test_screen_e2e.py
    checks it (and its rerun); other tests copy its checkpoint, never change its files."""
    from inproc import run_lmscreen

    out = tmp_path_factory.mktemp("full")
    done = run_lmscreen(["screen", *EXAMPLE_ARGS, "--out", str(out), "--quiet"])
    assert done.returncode == 0, f"exit {done.returncode}\nstdout:{done.stdout}\nstderr:{done.stderr}"
    return out


@pytest.fixture(scope="session")
def embedded_example_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The same command with `--limit 3`: the embedded engine's rows that the OpenAI-engine and Ray tests
    compare their runs with. A run of its own (three model answers), not a resume of the full run: the
    suite's workers each build their own session fixtures, and the full run is only test_screen_e2e's,
    whose rerun and SIGKILL tests show a resume gives the rows a fresh run gives. Read only."""
    import json

    from inproc import run_lmscreen

    out = tmp_path_factory.mktemp("embedded-example")
    env = {k: v for k, v in os.environ.items() if not k.startswith("OPENAI_")}
    args = ["screen", *EXAMPLE_ARGS, "--out", str(out), "--limit", "3", "--quiet"]
    done = run_lmscreen(args, env=env, cwd=EXAMPLE_ROOT)
    assert done.returncode == 0, done.stderr
    llm = json.loads((out / "run.json").read_text(encoding="utf-8"))["llm"]
    assert llm["sent"] == llm["rows_with_report"] == 3, llm
    return out


@pytest.fixture(scope="session")
def fake_openai() -> Iterator[object]:
    """One fixed-answer fake OpenAI server (no delay) for every test that needs a server that answers at
    once (`servers.FakeServerProcess`)."""
    from servers import FakeServerProcess

    with FakeServerProcess(latency=0.0) as srv:
        yield srv


from browser import browser  # noqa: E402, F401  (one session-wide Chromium for every browser test)
