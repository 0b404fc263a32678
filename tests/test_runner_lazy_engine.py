"""The engine is built only when an item needs it, and checkpoint damage is reported before any load.

The engine here is a real installed plugin (a dist-info folder with an entry point on sys.path, which is all
`pip install` leaves behind) that answers like a careful model, and refuses to be built at all while
`REFUSE_ENV` is set: a run that builds it then fails loudly, so "never built" is asserted, not assumed.
"""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import pytest

from lmscreen.errors import InputError
from lmscreen.run.options import ScreenOptions
from lmscreen.run.screen import screen

ROOT = Path(__file__).resolve().parents[1]
POOL = ROOT / "examples" / "pool.csv"
REPORTS = ROOT / "examples" / "reports"
REFUSE_ENV = "LMSCREEN_TEST_REFUSE_ENGINE"

MODULE = textwrap.dedent(
    f"""\
    import json, os
    from lmscreen.engines.protocol import LLMResult

    BUILT = []

    class Careful:
        name = "careful"
        model = "careful-1"

        def count_tokens(self, text):
            return len(text)

        def identity(self):
            return {{"engine": "careful", "model": self.model}}

        def describe(self):
            return self.identity()

        def run(self, requests):
            for req in requests:
                answer = {{}}
                for name, spec in req.schema["properties"].items():
                    answer[name] = "经营稳健" if name == "reason" else spec["anyOf"][0]["enum"][0]
                text = json.dumps(answer, ensure_ascii=False)
                yield LLMResult(key=req.key, text=text, finish_reason="stop")

        def close(self):
            pass

    class Plugin:
        name = "careful"

        def settings(self, options):
            return dict(options)

        def identity(self, settings):
            return {{"engine": "careful", "model": "careful-1"}}

        def create(self, settings):
            if os.environ.get({REFUSE_ENV!r}):
                raise RuntimeError("the engine was built although no item needed it")
            BUILT.append(1)
            return Careful()

    plugin = Plugin()
    """
)


@pytest.fixture()
def careful(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    site = tmp_path / "site"
    info = site / "careful_engine-0.1.dist-info"
    info.mkdir(parents=True)
    (site / "careful_engine.py").write_text(MODULE, encoding="utf-8")
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: careful-engine\nVersion: 0.1\n", "utf-8")
    (info / "entry_points.txt").write_text(
        "[lmscreen.engines]\ncareful = careful_engine:plugin\n", encoding="utf-8"
    )
    monkeypatch.syspath_prepend(str(site))
    yield site
    sys.modules.pop("careful_engine", None)


def _opts(out: Path, reports: Path | None = REPORTS) -> ScreenOptions:
    return ScreenOptions(pool=POOL, out=out, reports=reports, engine="careful", progress=False)


def test_a_pool_without_filings_never_builds_the_engine(
    careful: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(REFUSE_ENV, "1")
    summary = screen(_opts(tmp_path / "out", reports=None))
    assert summary.rows > 0 and summary.llm_sent == 0
    assert summary.run["llm"]["engine_created"] is False


def test_a_fully_checkpointed_rerun_never_builds_the_engine(
    careful: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "out"
    first = screen(_opts(out))
    assert first.llm_sent == first.run["llm"]["rows_with_report"] >= 10
    before = (out / "results.jsonl").read_bytes()
    monkeypatch.setenv(REFUSE_ENV, "1")
    again = screen(_opts(out))
    assert again.llm_sent == 0 and again.llm_resumed == first.llm_sent
    assert again.run["llm"]["engine_created"] is False
    assert (out / "results.jsonl").read_bytes() == before
    # and a fresh run does need it: the refusal is real
    with pytest.raises(RuntimeError, match="no item needed it"):
        screen(ScreenOptions(**{**_opts(out).__dict__, "fresh": True}))


def test_a_damaged_checkpoint_is_reported_before_the_engine_is_built(
    careful: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "checkpoint.sqlite").write_bytes(b"this is not a database" * 100)
    monkeypatch.setenv(REFUSE_ENV, "1")
    with pytest.raises(InputError, match="checkpoint is damaged"):
        screen(_opts(out))
    assert not (out / "results.csv").exists()


def test_a_bad_option_fails_at_once_even_when_no_item_needs_the_engine(tmp_path: Path) -> None:
    opts = ScreenOptions(pool=POOL, out=tmp_path / "o", model=str(tmp_path / "nope.gguf"), progress=False)
    with pytest.raises(InputError, match="nope.gguf"):
        screen(opts)
    assert not (tmp_path / "o" / "results.csv").exists()
