"""What a rules-only `screen` leaves unimported: the LLM stack, pydantic, and (from its second run on)
PyYAML. Checked by module, not by seconds, so a busy machine cannot turn it red: each of these was a
measured share of a small run's start-up (bench/rules_throughput.py prints the time)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE_POOL = ROOT / "examples" / "pool.csv"

NOT_FOR_RULES_ONLY = ("pydantic", "pydantic_core", "rich", "llama_cpp", "httpx", "typer", "numpy")
NOT_FOR_RULES_ONLY_LMSCREEN = (
    "lmscreen.task",
    "lmscreen.engines",
    "lmscreen.filings",
    "lmscreen.model",
    # every run reads notify's config; with no URL there, nothing is sent and nothing else of notify loads
    "lmscreen.notify.deliver",
    "lmscreen.notify.message",
    "lmscreen.notify.secrets",
)

_PROBE = """
import json, sys
from lmscreen.cli import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
sys.stderr.write("PROBE " + json.dumps(sorted(sys.modules)) + "\\n")
"""


def _modules(out: Path, cache: Path) -> list[str]:
    env = {**os.environ, "LMSCREEN_CACHE": str(cache), "LMSCREEN_HOME": str(cache.parent / "home")}
    argv = ["screen", str(EXAMPLE_POOL), "--no-llm", "--out", str(out), "--quiet"]
    done = subprocess.run(
        [sys.executable, "-c", _PROBE, *argv], capture_output=True, text=True, env=env, timeout=600
    )
    assert (out / "results.csv").is_file() and (out / "report.html").is_file(), done.stderr
    line = next(x for x in done.stderr.splitlines() if x.startswith("PROBE "))
    return json.loads(line[6:])


def _loaded(modules: list[str], names: tuple[str, ...]) -> list[str]:
    return sorted(m for m in modules if any(m == n or m.startswith(n + ".") for n in names))


def test_rules_only_screen_loads_no_llm_stack_no_pydantic_and_yaml_once(tmp_path: Path) -> None:
    first = _modules(tmp_path / "out", tmp_path / "cache")
    assert _loaded(first, NOT_FOR_RULES_ONLY) == []
    assert _loaded(first, NOT_FOR_RULES_ONLY_LMSCREEN) == []
    assert "lmscreen.notify.config" in first  # the config was read: the probe sees the send step ran
    assert "yaml" in first  # the rules file is parsed the first time
    again = _modules(tmp_path / "out", tmp_path / "cache")
    assert _loaded(again, ("yaml", *NOT_FOR_RULES_ONLY)) == []
    assert _loaded(again, NOT_FOR_RULES_ONLY_LMSCREEN) == []
