"""`--engine ray` on a real local Ray (2 CPUs, started and shut down here) with the real embedded engine.

Ray is slow to start on two shared cores, so the whole module shares one cluster and a few rows of the
example pool (`--limit`). No bound here depends on speed: waits are for events, with generous caps.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

import polars as pl
import pytest

ray = pytest.importorskip("ray", reason="the [ray] extra is not installed (pip install 'lmscreen[ray]')")

from lmscreen.engines import embedded as embedded_mod  # noqa: E402
from lmscreen.engines import plugin  # noqa: E402
from lmscreen.engines import vllm_engine as vllm_mod  # noqa: E402
from lmscreen.engines.ray_engine import EngineActor, RayEngine  # noqa: E402
from lmscreen.engines.threads import THREADS_ENV  # noqa: E402
from lmscreen.run.keys import run_signature  # noqa: E402
from lmscreen.run.options import ScreenOptions  # noqa: E402
from lmscreen.run.screen import screen  # noqa: E402

pytestmark = pytest.mark.timeout(1800)  # a cap for a hung cluster on a busy shared CI box, not a speed bound
ROOT = Path(__file__).resolve().parents[1]
POOL = ROOT / "examples" / "pool.csv"
REPORTS = ROOT / "examples" / "reports"
LIMIT = 3
COMPARED = [
    "row",
    "code",
    "risk_level",
    "score",
    "rules_fired",
    "reason",
    "flags",
    "status",
    "revenue_yuan",
    "net_profit_yuan",
    "gross_margin_pct",
    "roe_extracted_pct",
    "pe_extracted",
]


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    ray.init(num_cpus=2, include_dashboard=False, logging_level="WARNING")
    try:
        yield ray.get_runtime_context().gcs_address
    finally:
        ray.shutdown()


def options(out: Path, engine: str, **kw: Any) -> ScreenOptions:
    return ScreenOptions(
        pool=POOL, out=out, reports=REPORTS, engine=engine, progress=False, **{"limit": LIMIT, **kw}
    )


def results(out: Path) -> pl.DataFrame:
    return pl.read_csv(out / "results.csv", infer_schema_length=0).select(COMPARED)


@pytest.fixture(scope="module")
def embedded_run(embedded_example_run: Path) -> Path:
    """The same rows on the embedded engine (conftest.py: one run for the session)."""
    return embedded_example_run


def test_ray_gives_the_same_rows_as_embedded(cluster: str, embedded_run: Path, tmp_path: Path) -> None:
    summary = screen(options(tmp_path, "ray", workers=2))
    llm = summary.run["llm"]
    assert llm["engine"]["engine"] == "ray" and llm["engine"]["workers"] == 2
    assert llm["rows_with_report"] >= 3 and llm["sent"] == llm["rows_with_report"]
    mine, theirs = results(tmp_path), results(embedded_run)
    assert mine.height == LIMIT
    assert mine.equals(theirs), f"ray:\n{mine}\nembedded:\n{theirs}"
    assert llm["usage"]["cached_prompt_tokens"] > 0


class KillFirstWorker:
    """Fault injector around the real Ray engine: SIGKILLs the worker process that sent the first answer."""

    def __init__(self, inner: RayEngine) -> None:
        self.inner = inner
        self.name, self.model = inner.name, inner.model
        self.killed: str | None = None
        self.keys: list[str] = []

    def count_tokens(self, text: str) -> int:
        return self.inner.count_tokens(text)

    def identity(self) -> dict[str, Any]:
        return self.inner.identity()

    def describe(self) -> dict[str, Any]:
        return self.inner.describe()

    def run(self, requests):
        for result in self.inner.run(requests):
            self.keys.append(result.key)
            if self.killed is None:
                self.killed = result.extra["worker"]
                os.kill(int(self.killed.rsplit(":", 1)[1]), signal.SIGKILL)
            yield result

    def close(self) -> None:
        self.inner.close()


def test_a_killed_worker_is_replaced_and_every_row_comes_back_once(
    cluster: str, embedded_run: Path, tmp_path: Path
) -> None:
    opts = options(tmp_path, "ray")
    settings = plugin("ray").settings(asdict(opts))
    engine = KillFirstWorker(RayEngine(replace(settings, workers=1, batch_rows=1, progress=False)))
    summary = screen(opts, engine=engine)
    llm = summary.run["llm"]
    assert engine.killed is not None
    assert len(engine.keys) == len(set(engine.keys)) == llm["rows_with_report"]
    assert llm["failed"] == 0
    workers = set(engine.inner.per_worker)
    assert engine.killed in workers and len(workers) >= 2, "a fresh actor finished the run"
    assert results(tmp_path).equals(results(embedded_run))
    with sqlite3.connect(tmp_path / "checkpoint.sqlite") as con:
        n, distinct = con.execute("SELECT count(*), count(DISTINCT key) FROM llm_results").fetchone()
    assert n == distinct == llm["rows_with_report"]


def test_driver_sigkilled_then_rerun_resumes(cluster: str, embedded_run: Path, tmp_path: Path) -> None:
    out = tmp_path / "killed"
    cmd = [sys.executable, "-m", "lmscreen", "screen", str(POOL), "--reports", str(REPORTS)]
    cmd += ["--out", str(out), "--limit", str(LIMIT), "--engine", "ray", "--ray-address", cluster]
    cmd += ["--workers", "1", "--quiet"]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    db = out / "checkpoint.sqlite"
    done = 0
    deadline = time.time() + 900
    try:
        while time.time() < deadline and proc.poll() is None:
            if db.exists():
                try:
                    with sqlite3.connect(db, timeout=1) as con:
                        done = con.execute("SELECT count(*) FROM llm_results").fetchone()[0]
                except sqlite3.Error:
                    done = 0
                if done >= 1:
                    break
            time.sleep(0.2)
        assert proc.poll() is None, f"the run ended before it could be killed: {proc.stderr.read()}"
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    with sqlite3.connect(db) as con:
        before = {k for (k,) in con.execute("SELECT key FROM llm_results WHERE error IS NULL")}
    assert before and not (out / "results.csv").exists()

    rerun = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
    assert rerun.returncode == 0, rerun.stderr
    llm = json.loads((out / "run.json").read_text(encoding="utf-8"))["llm"]
    assert llm["resumed"] == len(before)
    assert llm["sent"] == llm["rows_with_report"] - len(before), "finished rows are not sent again"
    with sqlite3.connect(db) as con:
        n, distinct = con.execute("SELECT count(*), count(DISTINCT key) FROM llm_results").fetchone()
    assert n == distinct == llm["rows_with_report"]
    assert results(out).equals(results(embedded_run))


def test_pool_layout_leaves_ray_a_free_core_and_gives_vllm_whole_gpus() -> None:
    from lmscreen.engines.ray_engine import inner_kind, plan_workers

    assert inner_kind(None) == inner_kind("/m/x.Q4_K_M.GGUF") == "embedded"
    assert inner_kind("Qwen/Qwen2.5-7B-Instruct") == "vllm"
    two = plan_workers("embedded", 2.0, 0.0, 2)
    assert (two.workers, two.num_cpus, two.threads) == (2, 0.75, 1)
    assert two.workers * two.num_cpus < 2.0, "a pool holding every CPU can hang Ray Data"
    big = plan_workers("embedded", 16.0, 0.0, None)
    assert big.workers == 15 and big.workers * big.num_cpus <= 15.5
    gpus = plan_workers("vllm", 64.0, 8.0, None, tp=2)
    assert (gpus.workers, gpus.num_gpus, gpus.batch_rows) == (4, 2.0, 256)


def ray_identity(opts: ScreenOptions) -> dict[str, Any]:
    ray_plugin = plugin("ray")
    return ray_plugin.identity(ray_plugin.settings(asdict(opts)))


def signature(identity: dict[str, Any]) -> str:
    """The checkpoint signature as the runner builds it (run/runner.py), for a fixed task."""
    return run_signature({"engine": identity, "task": {"prompt": "p", "max_tokens": 192}})


def test_ray_identity_is_what_the_inner_plugin_says_and_follows_its_defaults(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No cluster needed: the identity is known before Ray starts. A changed default of the embedded or
    vLLM engine changes the Ray run's identity, and so every checkpoint key (run_signature hashes it)."""
    opts = options(tmp_path, "ray")
    before = ray_identity(opts)
    inner = plugin("embedded")
    assert before == {"engine": "ray", "inner": inner.identity(inner.settings(asdict(opts)))}
    monkeypatch.setattr(embedded_mod, "DEFAULT_SEED", 1)
    seeded = ray_identity(opts)
    assert seeded["inner"]["seed"] == 1 and signature(seeded) != signature(before)
    monkeypatch.setattr(embedded_mod, "TEMPERATURE", 0.2)
    assert ray_identity(opts)["inner"]["temperature"] == 0.2
    monkeypatch.setattr(embedded_mod, "runtime_version", lambda: "9.9.9")
    assert ray_identity(opts)["inner"]["llama_cpp_python"] == "9.9.9"

    hf = options(tmp_path, "ray", model="Qwen/Qwen3-0.6B")
    vllm_before = ray_identity(hf)
    assert vllm_before["inner"] == vllm_mod.vllm_identity(plugin("vllm").settings(asdict(hf)))
    monkeypatch.setattr(vllm_mod, "DEFAULT_BACKEND", "guidance")
    monkeypatch.setattr(vllm_mod, "runtime_version", lambda: "0.99")
    changed = ray_identity(hf)["inner"]
    assert (changed["structured_output_backend"], changed["vllm"]) == ("guidance", "0.99")


def test_a_worker_whose_engine_says_another_identity_answers_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The actor itself, without Ray: another llama.cpp on a worker node must not answer under the
    driver's identity; its rows come back as errors (retried on the next run), never as text."""
    monkeypatch.setenv(THREADS_ENV, "1")
    settings = plugin("ray").settings(asdict(options(tmp_path, "ray", n_ctx=1024)))
    expected = plugin("embedded").identity(settings.inner_settings)
    request = {
        "messages": [
            {"role": "system", "content": "Answer with JSON only."},
            {"role": "user", "content": "Give the code 600519.SH."},
        ],
        "schema": {"type": "object", "properties": {"code": {"const": "600519.SH"}}, "required": ["code"]},
        "max_tokens": 16,
    }
    batch = {"key": ["k1"], "request": [json.dumps(request)]}
    other = {**expected, "llama_cpp_python": "0.0.1"}
    refused = EngineActor("embedded", settings.inner_settings, threads=1, identity=other)
    try:
        out = json.loads(refused(batch)["result"][0])
        assert out["text"] is None and "identity is not the driver's" in out["error"]
        assert "llama_cpp_python: '0.0.1'" in out["error"]
        same = EngineActor("embedded", settings.inner_settings, threads=1, identity=expected)
        try:
            answer = json.loads(same(batch)["result"][0])
            assert answer["error"] is None and json.loads(answer["text"]) == {"code": "600519.SH"}
        finally:
            same.engine.close()
    finally:
        refused.engine.close()


def test_a_changed_inner_default_is_not_answered_from_the_old_checkpoint(
    cluster: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A real Ray run, then the same OUT after the embedded engine's default seed changed: nothing is
    resumed (the answers were made with the old seed), and run.json says the new seed."""
    opts = options(tmp_path, "ray", workers=1, limit=1)
    first = screen(opts).run["llm"]
    assert first["sent"] == first["rows_with_report"] == 1
    monkeypatch.setattr(embedded_mod, "DEFAULT_SEED", 5)
    second = screen(opts).run["llm"]
    assert second["resumed"] == 0 and second["sent"] == 1
    assert second["engine"]["identity"]["inner"]["seed"] == 5
    assert first["engine"]["identity"]["inner"]["seed"] == 0
