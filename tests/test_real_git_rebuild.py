"""bench/real_git_rebuild.py copies a pinned blob byte for byte and refuses one its path no longer names.

The real filings it rebuilds are never committed, so a fresh machine must get the same bytes the labels were
made from: these cases run the script's own `rebuild` on a repository the test writes.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
from pathlib import Path
from types import ModuleType

import pytest

from bench_scripts import load_bench


def _bench() -> ModuleType:
    return load_bench("real_git_rebuild")


def _git(cwd: Path, *args: str) -> str:
    names = {
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@t",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@t",
    }
    env = os.environ | names
    out = subprocess.run(["git", *args], cwd=cwd, capture_output=True, check=True, text=True, env=env)
    return out.stdout.strip()


def _repo_with(tmp_path: Path, data: bytes) -> tuple[Path, str, str]:
    work = tmp_path / "src"
    (work / "data").mkdir(parents=True)
    (work / "data" / "报告.pdf").write_bytes(data)
    _git(work, "init", "-q")
    _git(work, "add", ".")
    _git(work, "commit", "-q", "-m", "one")
    return work, _git(work, "rev-parse", "HEAD"), _git(work, "rev-parse", "HEAD:data/报告.pdf")


def test_the_pinned_blob_is_written_byte_for_byte_with_its_sha256(tmp_path: Path) -> None:
    bench = _bench()
    data = b"%PDF-1.7\n\x00\xffbinary\r\n"
    work, commit, blob = _repo_with(tmp_path, data)
    out = tmp_path / "out"
    (out / "reports").mkdir(parents=True)
    src = bench.Source("x.pdf", "名", "o/r", commit, "data/报告.pdf", blob, "a report")
    entry = bench.rebuild(src, work / ".git", out)
    assert (out / "reports" / "x.pdf").read_bytes() == data
    assert hashlib.sha256(data).hexdigest() in entry
    assert f"- commit: `{commit}`" in entry


def test_a_path_that_names_another_blob_is_refused(tmp_path: Path) -> None:
    bench = _bench()
    work, commit, _ = _repo_with(tmp_path, b"%PDF one")
    out = tmp_path / "out"
    (out / "reports").mkdir(parents=True)
    src = bench.Source("x.pdf", "名", "o/r", commit, "data/报告.pdf", "0" * 40, "a report")
    with pytest.raises(SystemExit):
        bench.rebuild(src, work / ".git", out)
    assert not (out / "reports" / "x.pdf").exists()
