"""Engines are plugins found through the `lmscreen.engines` entry-point group, each with typed settings and
an identity known before anything is loaded.

The extra engine here is a real installed distribution (a dist-info folder with an entry_points.txt on
sys.path, which is all `pip install` leaves behind); it runs through the real runner on the example pool.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from dataclasses import asdict
from pathlib import Path

import pytest

from lmscreen.engines import make_engine, names, plugin
from lmscreen.engines.protocol import Engine, EnginePlugin
from lmscreen.engines.registry import BUILTIN, GROUP
from lmscreen.errors import InputError
from lmscreen.run.options import ScreenOptions

ROOT = Path(__file__).resolve().parents[1]
POOL = ROOT / "examples" / "pool.csv"
REPORTS = ROOT / "examples" / "reports"
HEAVY = ("llama_cpp", "httpx", "vllm", "ray", "torch", "transformers")

ECHO_MODULE = '''
"""A third-party engine: answers every request with the simplest value its schema accepts."""
import json
from dataclasses import dataclass

from lmscreen.engines.protocol import LLMResult


def answer_for(schema):
    if "const" in schema:
        return schema["const"]
    if "anyOf" in schema:
        for option in schema["anyOf"]:
            if option.get("type") == "null":
                return None
        return answer_for(schema["anyOf"][0])
    if schema.get("type") == "object":
        return {k: answer_for(v) for k, v in schema.get("properties", {}).items()}
    if schema.get("type") == "string":
        return "no issue found"
    return None


@dataclass(frozen=True)
class EchoSettings:
    model: str
    flavour: int


class EchoEngine:
    name = "echo"

    def __init__(self, settings):
        self.settings = settings
        self.model = settings.model

    def count_tokens(self, text):
        return len(text) // 4 + 1

    def identity(self):
        return {"engine": "echo", "model": self.model, "flavour": self.settings.flavour}

    def describe(self):
        return {"identity": self.identity(), **self.identity(), "model": self.model}

    def run(self, requests):
        for r in requests:
            yield LLMResult(key=r.key, text=json.dumps(answer_for(r.schema)), finish_reason="stop")

    def close(self):
        pass


class EchoPlugin:
    name = "echo"

    def settings(self, options):
        return EchoSettings(model=options.get("model") or "echo-1", flavour=7)

    def identity(self, settings):
        return {"engine": "echo", "model": settings.model, "flavour": settings.flavour}

    def create(self, settings):
        return EchoEngine(settings)


plugin = EchoPlugin()
not_a_plugin = object()
'''


@pytest.fixture()
def echo_dist(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """`pip install echo-engine`, as far as Python can tell: a module and its dist-info on sys.path."""
    site = tmp_path / "site"
    site.mkdir()
    (site / "echo_engine.py").write_text(ECHO_MODULE, encoding="utf-8")
    info = site / "echo_engine-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: echo-engine\nVersion: 0.1\n", "utf-8")
    (info / "entry_points.txt").write_text(
        textwrap.dedent(
            f"""\
            [{GROUP}]
            echo = echo_engine:plugin
            embedded = echo_engine:plugin
            broken = echo_engine:not_a_plugin
            missing = no_such_module_here:plugin
            """
        ),
        encoding="utf-8",
    )
    monkeypatch.syspath_prepend(str(site))
    yield site
    sys.modules.pop("echo_engine", None)


def test_builtins_are_declared_in_pyproject_as_the_registry_lists_them() -> None:
    tomllib = pytest.importorskip("tomllib")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["entry-points"][GROUP] == BUILTIN
    assert names()[:4] == ["embedded", "openai", "vllm", "ray"]
    for name in BUILTIN:
        assert isinstance(plugin(name), EnginePlugin) and plugin(name).name == name


def test_an_unknown_engine_names_the_known_ones() -> None:
    with pytest.raises(InputError, match="--engine must be one of embedded, openai, vllm, ray") as info:
        plugin("llamafile")
    assert "'llamafile'" in str(info.value)


def test_an_installed_package_adds_an_engine_the_runner_uses(echo_dist: Path, tmp_path: Path) -> None:
    from lmscreen.run.screen import screen

    assert "echo" in names() and names()[:4] == list(BUILTIN)
    echo = plugin("echo")
    settings = echo.settings({"model": None})
    assert (
        echo.identity(settings)
        == echo.create(settings).identity()
        == {
            "engine": "echo",
            "model": "echo-1",
            "flavour": 7,
        }
    )
    opts = ScreenOptions(
        pool=POOL, out=tmp_path / "o", reports=REPORTS, engine="echo", limit=3, progress=False
    )
    assert isinstance(make_engine(opts), Engine)
    summary = screen(opts)
    llm = summary.run["llm"]
    assert llm["engine"]["engine"] == "echo" and llm["sent"] == llm["rows_with_report"] >= 1
    rows = [json.loads(x) for x in (tmp_path / "o" / "results.jsonl").read_text("utf-8").splitlines()]
    assert len(rows) == 3 and all(r["status"] == "ok" for r in rows if r.get("llm"))


def test_a_plugin_cannot_take_a_builtin_name_and_broken_ones_are_one_line_errors(echo_dist: Path) -> None:
    from lmscreen.engines.embedded import EmbeddedPlugin

    assert isinstance(plugin("embedded"), EmbeddedPlugin), "echo's `embedded` entry point is ignored"
    with pytest.raises(InputError, match="is not an engine plugin"):
        plugin("broken")
    with pytest.raises(InputError, match="cannot import its plugin no_such_module_here:plugin"):
        plugin("missing")


def test_the_registry_and_every_identity_import_no_backend() -> None:
    """Listing engines and computing identities (what a fully checkpointed rerun needs) import neither
    llama.cpp, an HTTP client, vLLM, Ray nor torch: a fresh interpreter says which modules got loaded."""
    script = textwrap.dedent(
        f"""\
        import sys
        from lmscreen.engines.registry import names, plugin
        names()
        heavy = {HEAVY!r}
        loaded = [m for m in heavy if m in sys.modules]
        for name in ("embedded", "ray"):
            p = plugin(name)
            p.identity(p.settings({{"model": None, "n_ctx": 4096}}))
        v = plugin("vllm")
        v.identity(v.settings({{"model": "Qwen/Qwen3-0.6B"}}))
        print(loaded, [m for m in heavy if m in sys.modules])
        """
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["[]", "[]"], done.stdout


def test_embedded_identity_before_the_load_is_the_loaded_engines(tmp_path: Path) -> None:
    embedded = plugin("embedded")
    settings = embedded.settings(asdict(ScreenOptions(pool=POOL, out=tmp_path, n_ctx=1024, threads=1)))
    assert settings.n_ctx == 1024 and settings.threads == 1 and settings.model.endswith(".gguf")
    before = embedded.identity(settings)
    engine = embedded.create(settings)
    try:
        assert engine.identity() == before
        assert engine.describe()["identity"] == before
        assert "n_threads" not in before, "the thread count changes speed, not answers"
    finally:
        engine.close()


@pytest.mark.parametrize(
    ("engine", "options", "message"),
    [
        ("embedded", {"model": "/no/such/model.gguf"}, "model file not found"),
        ("embedded", {"n_ctx": 0}, "--n-ctx must be at least 64"),
        ("embedded", {"threads": "many"}, "--threads must be a whole number"),
        ("openai", {"base_url": "ftp://host"}, "is not an http(s) URL"),
        (
            "openai",
            {"base_url": "http://127.0.0.1:9/v1", "concurrency": 0},
            "--concurrency must be at least 1",
        ),
        ("vllm", {}, "--engine vllm needs --model"),
        ("vllm", {"model": "Qwen/Qwen3-0.6B", "gpu_memory_utilization": 1.5}, "must be in (0, 1]"),
        ("ray", {"model": "/no/such/model.gguf"}, "model file not found"),
    ],
)
def test_each_engine_checks_its_own_settings(engine: str, options: dict, message: str) -> None:
    with pytest.raises(InputError) as info:
        plugin(engine).settings(options)
    assert message in str(info.value) and "\n" not in str(info.value)


def _engine_imports() -> dict[str, set[str]]:
    """engines module → the engines modules it imports anywhere (top level, inside functions, for types)."""
    import ast

    folder = ROOT / "src" / "lmscreen" / "engines"
    graph: dict[str, set[str]] = {}
    for path in folder.glob("*.py"):
        name = path.stem
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                targets = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                continue
            for target in targets:
                parts = target.split(".")
                if (
                    parts[:2] == ["lmscreen", "engines"]
                    and len(parts) > 2
                    and (folder / f"{parts[2]}.py").exists()
                ):
                    found.add(parts[2])
        found.discard(name)
        graph[name] = found
    return graph


def test_engines_import_each_other_without_cycles_and_ray_only_through_the_registry() -> None:
    graph = _engine_imports()
    assert graph["ray_engine"] <= {"options", "protocol", "registry", "threads"}, graph["ray_engine"]
    assert graph["registry"] <= {"protocol"}
    state: dict[str, int] = {}

    def visit(node: str, trail: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph.get(node, ())):
            assert state.get(nxt) != 1, f"import cycle: {' -> '.join([*trail, node, nxt])}"
            if nxt not in state:
                visit(nxt, [*trail, node])
        state[node] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module, [])
