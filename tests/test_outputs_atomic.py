"""outputs.atomic's `folder_sync_once`: the folder fsyncs of a burst of writes wait for the block's end, and
nothing else changes: each file is complete and in place as soon as its write returns, an error inside the
block leaves what was renamed before it, and the waiting folders are the writing thread's own."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from lmscreen.outputs import atomic
from lmscreen.outputs.atomic import folder_sync_once, write_bytes, write_text


def test_files_are_in_place_at_once_and_the_folders_wait_for_the_end(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    with folder_sync_once():
        write_text(tmp_path / "run.json", "{}\n")
        assert (tmp_path / "run.json").read_text(encoding="utf-8") == "{}\n"
        write_bytes(tmp_path / "sub" / "a.bin", b"\x00" * 1000)
        with folder_sync_once():  # nested: its folders go at its own end
            write_text(tmp_path / "report.md", "# r\n")
            assert atomic._DEFERRED.blocks[-1] == {tmp_path}
        assert atomic._DEFERRED.blocks == [{tmp_path, tmp_path / "sub"}]
    assert atomic._DEFERRED.blocks == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.md", "run.json", "sub"]  # no temp left


def test_an_error_in_the_block_keeps_what_was_written_and_clears_the_block(tmp_path: Path) -> None:
    with pytest.raises(RuntimeError), folder_sync_once():
        write_text(tmp_path / "results.csv", "code\n")
        raise RuntimeError("disk gone")
    assert (tmp_path / "results.csv").read_text(encoding="utf-8") == "code\n"
    assert atomic._DEFERRED.blocks == []


def test_another_threads_writes_are_not_held_back(tmp_path: Path) -> None:
    seen: list[list[set[Path]]] = []

    def other() -> None:
        write_text(tmp_path / "other.txt", "x")
        seen.append(list(atomic._DEFERRED.blocks))

    with folder_sync_once():
        worker = threading.Thread(target=other)
        worker.start()
        worker.join()
        assert atomic._DEFERRED.blocks == [set()]  # the other thread's folder is not this block's
    assert seen == [[]] and (tmp_path / "other.txt").read_text(encoding="utf-8") == "x"
