"""Load a script from bench/ as a module, the way the tests of its functions need it.

The bench scripts are not a package: each is run by path, and some import their siblings (`real_texts`,
`real_fincuge_news`), so bench/ goes on sys.path first. The module is registered under its own name so
that dataclasses and pickling inside it resolve.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

BENCH = Path(__file__).resolve().parents[1] / "bench"


def load_bench(name: str) -> ModuleType:
    """bench/<name>.py, executed as the module `name`."""
    if str(BENCH) not in sys.path:
        sys.path.insert(0, str(BENCH))
    spec = importlib.util.spec_from_file_location(name, BENCH / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
