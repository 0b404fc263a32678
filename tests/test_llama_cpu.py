"""llama.cpp is kept off its AMX kernels where the build has them, unless LMSCREEN_LLAMA_AMX=1 says they
work: on a VM that reports AMX but faults on its tile instructions, the first long report killed the
whole run with SIGILL (engines/llama_cpu.py)."""

from __future__ import annotations

import subprocess
import sys

import pytest

llama_cpp = pytest.importorskip("llama_cpp")

from lmscreen.engines import llama_cpu  # noqa: E402
from lmscreen.engines.llama_cpu import AMX_ENV, build_has_amx, safe_model_params  # noqa: E402


@pytest.mark.parametrize("has_amx", [True, False])
def test_extra_buffers_are_off_inside_the_block_exactly_when_the_build_has_amx(
    monkeypatch: pytest.MonkeyPatch, has_amx: bool
) -> None:
    """The detection is set both ways, so the wrapper runs on this build whether or not it has AMX: the
    real llama.cpp default-params function is what the block changes and restores."""
    monkeypatch.delenv(AMX_ENV, raising=False)
    monkeypatch.setattr(llama_cpu, "build_has_amx", lambda: has_amx)
    lib = llama_cpp.llama_cpp
    original = lib.llama_model_default_params
    assert original().use_extra_bufts  # llama.cpp's own default
    with safe_model_params() as allowed:
        assert allowed is not has_amx
        assert lib.llama_model_default_params().use_extra_bufts is allowed
        assert (lib.llama_model_default_params is original) is allowed  # wrapped only when not allowed
    assert lib.llama_model_default_params is original  # restored after the block
    assert lib.llama_model_default_params().use_extra_bufts

    monkeypatch.setenv(AMX_ENV, "1")  # the user says AMX works here: kept even on an AMX build
    with safe_model_params() as allowed:
        assert allowed is True
        assert lib.llama_model_default_params().use_extra_bufts


@pytest.mark.parametrize(
    ("info", "has_amx"),
    [
        (b"CPU : SSE3 = 1 | AVX2 = 1 | AMX_INT8 = 1 | LLAMAFILE = 1 |", True),
        (b"CPU : SSE3 = 1 | AVX2 = 1 | AVX512 = 1 | LLAMAFILE = 1 |", False),
        ("CPU : AMX_INT8 = 1 | REPACK = 1 |", True),
    ],
)
def test_amx_is_read_from_the_builds_system_info(
    monkeypatch: pytest.MonkeyPatch, info: bytes | str, has_amx: bool
) -> None:
    monkeypatch.setattr(llama_cpp, "llama_print_system_info", lambda: info)
    assert build_has_amx() is has_amx


def test_the_embedded_engine_reads_a_long_prompt_and_says_which_buffers_it_used(tmp_path) -> None:
    """A 1,500-token prompt is what crashed on an AMX-reporting VM; run in a child so a crash is a test
    failure with its signal, not the end of the test session."""
    script = (
        "from lmscreen.engines.embedded import EmbeddedEngine\n"
        "e = EmbeddedEngine(n_ctx=2048)\n"  # threads: the cores idle now, as a run takes them
        "text = '营业收入1,505.6亿元，同比增长15.7%。' * 120\n"
        "ids = e._llm.tokenize(text.encode(), add_bos=True)[:1500]\n"
        "e._llm.eval(ids)\n"
        "print('EXTRA', e.describe()['llama_extra_buffers'], len(ids))\n"
        "e.close()\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, f"exit {done.returncode}: {done.stderr[-2000:]}"
    line = [x for x in done.stdout.splitlines() if x.startswith("EXTRA")][0].split()
    assert line[1] == str(not build_has_amx())
    assert int(line[2]) == 1500
