"""results.parquet written a frame at a time (outputs.parquet.ParquetStream): the file holds every frame's
rows in order, a failed block leaves no file, and a sink that fails says so instead of hanging the run."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from lmscreen.outputs.atomic import atomic_path
from lmscreen.outputs.parquet import ParquetStream
from lmscreen.outputs.results import ResultWriter


def _frames(n: int, rows: int) -> list[pl.DataFrame]:
    return [
        pl.DataFrame(
            {
                "row": pl.int_range(i * rows, (i + 1) * rows, eager=True),
                "code": [f"{600000 + i * rows + k}.SH" for k in range(rows)],
                "roe": [None if k % 7 == 0 else k / 3 for k in range(rows)],
            }
        )
        for i in range(n)
    ]


@pytest.mark.parametrize("n", [1, 2, 9])
def test_every_frame_in_order(tmp_path: Path, n: int) -> None:
    frames = _frames(n, 1_000)
    path = tmp_path / "results.parquet"
    with ParquetStream(path) as stream:
        for frame in frames:
            stream.write(frame)
    assert pl.read_parquet(path).equals(pl.concat(frames))


def test_a_failed_block_leaves_the_previous_file(tmp_path: Path) -> None:
    final = tmp_path / "results.parquet"
    pl.DataFrame({"row": [1]}).write_parquet(final)
    with pytest.raises(RuntimeError, match="stop"):
        with atomic_path(final) as tmp, ParquetStream(tmp) as stream:
            for frame in _frames(4, 500):
                stream.write(frame)
            raise RuntimeError("stop")
    assert pl.read_parquet(final).to_dict(as_series=False) == {"row": [1]}
    assert [p.name for p in tmp_path.iterdir()] == ["results.parquet"]


def test_a_frame_the_sink_cannot_take_is_an_error_not_a_hang(tmp_path: Path) -> None:
    frames = _frames(3, 200)
    frames.append(frames[0].with_columns(pl.col("roe").cast(pl.String)))  # another schema
    frames += _frames(6, 200)
    with pytest.raises(ValueError, match="another schema"):
        with ParquetStream(tmp_path / "x.parquet") as stream:
            for frame in frames:
                stream.write(frame)


def test_a_run_with_no_row_writes_the_contracts_empty_file(tmp_path: Path) -> None:
    with ResultWriter(tmp_path, jsonl=False, levels=["高", "低"]):
        pass
    empty = pl.read_parquet(tmp_path / "results.parquet")
    assert empty.height == 0 and "rules_fired" in empty.columns
    assert empty.schema["risk_level"] == pl.Enum(["高", "低"])
    assert not (tmp_path / "results.jsonl").exists()
