"""The judged chunks of a run with an LLM step, kept on disk while the model answers.

Holding them in memory instead would cost a million-row pool several hundred MB for the whole LLM step;
Arrow IPC with lz4 is read back a chunk at a time to be merged with the answers and written.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import polars as pl

SPILL_PREFIX = ".lmscreen-spill-"


class Spill:
    """A temp folder in OUT of numbered Arrow files, each read once (and deleted) in the order written."""

    def __init__(self, out_dir: Path) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix=SPILL_PREFIX, dir=out_dir))
        self.count = 0

    def add(self, frame: pl.DataFrame) -> None:
        frame.write_ipc(self.dir / f"{self.count:06d}.arrow", compression="lz4")
        self.count += 1

    def chunks(self) -> Iterator[pl.DataFrame]:
        for i in range(self.count):
            path = self.dir / f"{i:06d}.arrow"
            frame = pl.read_ipc(path.read_bytes())  # not mapped: the file is deleted next
            path.unlink()
            yield frame

    def close(self) -> None:
        shutil.rmtree(self.dir, ignore_errors=True)


def remove_stale(out_dir: Path) -> None:
    """The caller holds OUT's lock, so a spill folder already there is a killed run's: it goes."""
    for stale in out_dir.glob(f"{SPILL_PREFIX}*"):
        shutil.rmtree(stale, ignore_errors=True)
