"""What changed between two runs: stocks whose risk level or score moved, and codes added or dropped.

Rows are matched by normalised code (the pool loader keeps one row per code), so a reordered pool shows no
change. Only the deterministic verdict is compared: the LLM's reason wording is not a change in risk.
The compared columns and their types are outputs.columns' (DIFF_COLUMNS); changes are listed most severe
new level first, in the order of the newer run's rules (outputs.levels).
"""

from __future__ import annotations

import io
import os
import tempfile
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import polars as pl

from lmscreen.outputs import levels as levels_mod
from lmscreen.outputs.columns import DIFF_COLUMNS, dtype
from lmscreen.outputs.levels import LevelScale


@dataclass
class RunDiff:
    run_a: int | None
    run_b: int | None
    changed: list[dict[str, Any]] = field(default_factory=list)
    added: list[dict[str, Any]] = field(default_factory=list)
    dropped: list[dict[str, Any]] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        return not (self.changed or self.added or self.dropped)

    def to_json(self) -> dict[str, Any]:
        return {
            "run_a": self.run_a,
            "run_b": self.run_b,
            "changed": self.changed,
            "added": self.added,
            "dropped": self.dropped,
        }


_DTYPES = {c: dtype(c) for c in DIFF_COLUMNS}


def _frame(verdicts: pl.DataFrame | list[dict[str, Any]]) -> pl.DataFrame:
    """Verdicts as a frame with the compared columns and no null codes (repeated codes still in)."""
    if isinstance(verdicts, pl.DataFrame):
        frame = verdicts
    else:
        frame = pl.DataFrame(verdicts, infer_schema_length=None)
    for col in DIFF_COLUMNS:
        if col not in frame.columns:
            frame = frame.with_columns(pl.lit(None).alias(col))
    frame = frame.select(pl.col(c).cast(_DTYPES[c], strict=False) for c in DIFF_COLUMNS)
    code = frame.get_column("code")
    if code.null_count() or (code == "").any():  # a filter copies every column: only when it drops rows
        frame = frame.filter(pl.col("code").is_not_null() & (pl.col("code") != ""))
    return frame


def _first_per_code(frame: pl.DataFrame) -> pl.Series:
    """True on the first row of each code. The loader already keeps one row per code, so this usually
    marks every row; it is one hash pass over the codes."""
    return frame.get_column("code").is_first_distinct()


def _changed(moved: pl.DataFrame) -> list[dict[str, Any]]:
    """Both sides of each moved row (the older run's columns suffixed `_a`)."""
    return [
        {
            "code": r["code"],
            "name": r["name"],
            "risk_level_a": r["risk_level_a"],
            "risk_level_b": r["risk_level"],
            "score_a": r["score_a"],
            "score_b": r["score"],
            "pe_ttm_a": r["pe_ttm_a"],
            "pe_ttm_b": r["pe_ttm"],
            "roe_a": r["roe_a"],
            "roe_b": r["roe"],
        }
        for r in moved.iter_rows(named=True)
    ]


def _by_severity(changed: list[dict[str, Any]], scale: LevelScale) -> None:
    """Most severe new level first (a stock that became the worst level is what a reader looks for), then
    by code; a level the rules do not name after theirs."""
    changed.sort(key=lambda e: (scale.rank(e["risk_level_b"]), e["code"]))


def diff_verdicts(
    a: pl.DataFrame | list[dict[str, Any]],
    b: pl.DataFrame | list[dict[str, Any]],
    run_a: int | None = None,
    run_b: int | None = None,
    scale: LevelScale = levels_mod.DEFAULT,
) -> RunDiff:
    """Compare run A (older) with run B (newer). `changed` lists both sides and the inputs that moved,
    ordered by `scale` (run B's levels).

    Compared in polars (row by row when the codes line up, else joined on code), so two million-row runs
    compare in well under a second. A repeated code counts once, its first row kept."""
    fa, fb = _frame(a), _frame(b)
    out = RunDiff(run_a, run_b)
    level_moved = pl.col("risk_level").ne_missing(pl.col("risk_level_a"))
    moved_expr = level_moved | pl.col("score").ne_missing(pl.col("score_a"))
    if fa.height == fb.height and fa.get_column("code").equals(fb.get_column("code")):
        # The usual nightly rerun: the same codes in the same order. Rows line up, so no joins are needed,
        # and one hash pass finds any repeated code for both sides.
        both = pl.concat([fb, fa.drop("code").rename(lambda c: f"{c}_a")], how="horizontal")
        first = _first_per_code(fb)
        moved = both.filter(moved_expr if first.all() else first & moved_expr)
    else:
        fa, fb = fa.filter(_first_per_code(fa)), fb.filter(_first_per_code(fb))
        out.added = fb.join(fa.select("code"), on="code", how="anti").to_dicts()
        out.dropped = fa.join(fb.select("code"), on="code", how="anti").to_dicts()
        both = fb.join(fa, on="code", how="inner", suffix="_a")
        moved = both.filter(moved_expr)
    out.changed = _changed(moved)
    _by_severity(out.changed, scale)
    return out


_MOVED = pl.col("risk_level").ne_missing(pl.col("risk_level_a")) | pl.col("score").ne_missing(
    pl.col("score_a")
)
"""A row whose risk level or score differs from the older run's (its columns suffixed `_a`)."""
SPILL_ROWS = 50_000
"""Rows of one run's compared columns held in memory before the comparison spills both runs to disk."""
BUCKETS = 64
_WRITE_ROWS = 50_000
"""Once spilling, rows are written in batches of about this many, so small chunks do not each cost a
partition and BUCKETS writes."""


class _Side:
    """One run's compared columns, in input order: kept in memory while small, else written to an unnamed
    temporary file a bucket of codes at a time (a code's rows always land in the same bucket, in order)."""

    def __init__(self, spill_rows: int, directory: Path | None) -> None:
        self.spill_rows = spill_rows
        self.directory = directory
        self.held: list[pl.DataFrame] = []
        self.held_rows = 0
        self.pos = 0
        self.file: IO[bytes] | None = None
        self.extents: dict[int, list[tuple[int, int]]] = {}

    def add(self, chunk: pl.DataFrame) -> None:
        frame = _frame(chunk)
        n = frame.height
        frame = frame.with_columns(pl.int_range(self.pos, self.pos + n, dtype=pl.Int64).alias("_pos"))
        self.pos += n
        self.held.append(frame)
        self.held_rows += n
        if self.held_rows > (self.spill_rows if self.file is None else min(self.spill_rows, _WRITE_ROWS)):
            self.spill()

    def spill(self) -> None:
        """Write what is held to the file (opened on first use), a bucket at a time."""
        if self.file is None:
            self.file = tempfile.TemporaryFile(dir=self.directory)
        if self.held:
            held, self.held, self.held_rows = pl.concat(self.held), [], 0
            self._write(held)

    def _write(self, frame: pl.DataFrame) -> None:
        assert self.file is not None
        keyed = frame.with_columns((pl.col("code").hash(seed=1) % BUCKETS).cast(pl.Int32).alias("_b"))
        for (bucket,), part in keyed.partition_by("_b", as_dict=True, include_key=False).items():
            buf = io.BytesIO()
            part.write_ipc(buf, compression="uncompressed")
            offset = self.file.seek(0, os.SEEK_END)
            self.file.write(buf.getvalue())
            self.extents.setdefault(int(bucket), []).append((offset, buf.tell()))

    def whole(self) -> pl.DataFrame:
        return pl.concat(self.held) if self.held else _frame([])

    def bucket(self, b: int) -> pl.DataFrame:
        assert self.file is not None
        parts = []
        for offset, size in self.extents.get(b, []):
            self.file.seek(offset)
            parts.append(pl.read_ipc(io.BytesIO(self.file.read(size))))
        return pl.concat(parts) if parts else _frame([]).with_columns(pl.lit(0, dtype=pl.Int64).alias("_pos"))

    def close(self) -> None:
        if self.file is not None:
            self.file.close()


Chunks = Callable[[], Iterable[pl.DataFrame]]
"""A run's verdicts a chunk at a time in input order, readable more than once (each call starts over)."""


def diff_chunks(
    a: Chunks,
    b: Chunks,
    run_a: int | None = None,
    run_b: int | None = None,
    spill_rows: int | None = None,
    spill_dir: Path | None = None,
    scale: LevelScale = levels_mod.DEFAULT,
) -> RunDiff:
    """diff_verdicts of two runs read a chunk at a time, with bounded memory and the same answer.

    First both runs are read in step: the usual nightly rerun (the same codes in the same order) is
    settled there, holding a chunk of each. Otherwise they are read again: runs up to `spill_rows`
    (default SPILL_ROWS) rows each are compared in memory by diff_verdicts; bigger ones are hash-partitioned
    on code into BUCKETS pieces on an unnamed temporary file and joined a bucket at a time (a code's first
    row kept, changes sorted most severe first, added and dropped in input order). The lists of changes
    themselves are as long as the changes."""
    aligned = _aligned(a, b, run_a, run_b, scale)
    if aligned is not None:
        return aligned
    limit = SPILL_ROWS if spill_rows is None else spill_rows
    sa, sb = _Side(limit, spill_dir), _Side(limit, spill_dir)
    try:
        for chunk in a():
            sa.add(chunk)
        for chunk in b():
            sb.add(chunk)
        if sa.file is None and sb.file is None:
            return diff_verdicts(sa.whole().drop("_pos"), sb.whole().drop("_pos"), run_a, run_b, scale)
        sa.spill()
        sb.spill()
        return _bucketed(sa, sb, run_a, run_b, scale)
    finally:
        sa.close()
        sb.close()


def _normalised(chunks: Iterable[pl.DataFrame]) -> Iterator[pl.DataFrame]:
    for chunk in chunks:
        frame = _frame(chunk)
        if frame.height:
            yield frame


def _aligned(a: Chunks, b: Chunks, run_a: int | None, run_b: int | None, scale: LevelScale) -> RunDiff | None:
    """The diff of two runs whose codes line up row for row, read in step; None as soon as they do not.

    As diff_verdicts' no-join path: rows compared where they stand, a repeated code's first row only (the
    moved rows' codes are looked up once more in run B to find their first rows)."""
    ia, ib = _normalised(a()), _normalised(b())
    wa = wb = _frame([])
    pos = 0
    moved: list[pl.DataFrame] = []
    while True:
        if not wa.height:
            wa = next(ia, wa)
        if not wb.height:
            wb = next(ib, wb)
        if not wa.height or not wb.height:
            if wa.height or wb.height:
                return None
            break
        n = min(wa.height, wb.height)
        ca, cb = wa.slice(0, n), wb.slice(0, n)
        wa, wb = wa.slice(n), wb.slice(n)
        if not ca.get_column("code").equals(cb.get_column("code")):
            return None
        # The moved rows are picked before the two sides are put side by side: no copy of the chunk.
        mask = cb.get_column("risk_level").ne_missing(ca.get_column("risk_level")) | cb.get_column(
            "score"
        ).ne_missing(ca.get_column("score"))
        if mask.any():
            at = pl.int_range(pos, pos + n, dtype=pl.Int64, eager=True).alias("_pos").filter(mask)
            moved.append(
                pl.concat(
                    [
                        cb.filter(mask).with_columns(at),
                        ca.filter(mask).drop("code").rename(lambda c: f"{c}_a"),
                    ],
                    how="horizontal",
                )
            )
        pos += n
    out = RunDiff(run_a, run_b)
    found = pl.concat(moved) if moved else pl.DataFrame()
    if found.height:
        codes = found.get_column("code").unique().implode()
        firsts = []
        at = 0
        for chunk in _normalised(b()):
            firsts.append(
                chunk.select(
                    "code", pl.int_range(at, at + chunk.height, dtype=pl.Int64).alias("_first")
                ).filter(pl.col("code").is_in(codes))
            )
            at += chunk.height
        first = pl.concat(firsts).group_by("code").agg(pl.col("_first").min())
        found = found.join(first, on="code").filter(pl.col("_pos") == pl.col("_first")).sort("_pos")
        out.changed = _changed(found)
        _by_severity(out.changed, scale)
    return out


def _bucketed(sa: _Side, sb: _Side, run_a: int | None, run_b: int | None, scale: LevelScale) -> RunDiff:
    out = RunDiff(run_a, run_b)
    added: list[pl.DataFrame] = []
    dropped: list[pl.DataFrame] = []
    for bucket in range(BUCKETS):
        fa, fb = sa.bucket(bucket), sb.bucket(bucket)
        fa, fb = fa.filter(_first_per_code(fa)), fb.filter(_first_per_code(fb))
        added.append(fb.join(fa.select("code"), on="code", how="anti"))
        dropped.append(fa.join(fb.select("code"), on="code", how="anti"))
        moved = fb.join(fa.drop("_pos"), on="code", how="inner", suffix="_a").filter(_MOVED)
        out.changed.extend(_changed(moved))
    out.added = pl.concat(added).sort("_pos").drop("_pos").to_dicts()
    out.dropped = pl.concat(dropped).sort("_pos").drop("_pos").to_dicts()
    _by_severity(out.changed, scale)
    return out
