"""Run history: every finished `screen` run, its run.json facts and its per-row verdicts, in one SQLite file.

Why a database and not the OUT folders: an overnight job usually reuses one OUT folder, so yesterday's
results.csv is gone by morning; the history keeps every run's verdicts so `lmscreen diff` and the reports
can say what changed. Each run's verdicts (outputs.columns.VERDICT_COLUMNS) are zstd Parquet blobs of a
chunk of rows each (`verdict_parts`), not a row per stock: a million-row run records in a fraction of a
second instead of seconds of INSERTs, and neither recording nor reading a run back needs all its rows in
memory at once. The file lives in `$LMSCREEN_HOME` (default `$XDG_DATA_HOME/lmscreen`, else
`~/.local/share/lmscreen`); WAL mode lets parallel runs record without blocking each other for long.
Its schema is built, and brought forward, by the numbered steps of outputs.migrations, which every open
runs when it finds one not yet done.
"""

from __future__ import annotations

import io
import json
import os
import sqlite3
import tempfile
import threading
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # polars is imported where verdicts are read or written: `--help` and `model fit` skip it
    import polars as pl

from lmscreen.errors import InputError
from lmscreen.home import HISTORY_DB, HOME_ENV, home
from lmscreen.outputs import levels as levels_mod
from lmscreen.outputs.columns import VERDICT_COLUMNS
from lmscreen.outputs.migrations import migrate, rules_json

DB_NAME = HISTORY_DB


def db_path() -> Path:
    return home() / DB_NAME


@dataclass(frozen=True)
class RunInfo:
    id: int
    recorded_at: str
    started_at: str | None
    finished_at: str | None
    pool_path: str
    out_dir: str | None
    rows: int
    rejected: int
    levels: dict[str, int]
    model: str | None
    engine: str | None
    level_order: list[str] = field(default_factory=list)
    """The run's level names in the order its outputs list them (outputs.levels' `shown`)."""
    scale: levels_mod.LevelScale = field(default=levels_mod.DEFAULT, repr=False, compare=False)
    """The run's levels, from the rules it was recorded with (DEFAULT when none were recorded)."""

    def to_json(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k != "scale"}


@contextmanager
def connect(path: Path | None = None, create: bool = True) -> Iterator[sqlite3.Connection]:
    """Open (and if needed create) the history database, brought up to date by its migrations; commits on
    success."""
    path = path or db_path()
    if not create and not path.is_file():
        raise InputError(f"{path}: no run history yet (run `lmscreen screen` first, or set {HOME_ENV})")
    path.parent.mkdir(parents=True, exist_ok=True)
    con = sqlite3.connect(path, timeout=60)
    try:
        con.execute("PRAGMA journal_mode=WAL")
        migrate(con)
        con.row_factory = sqlite3.Row
        yield con
        con.commit()
    finally:
        con.close()


def pool_key(path: str | Path) -> str:
    """Runs are "of the same pool" when their pool files resolve to the same absolute path."""
    return str(Path(path).expanduser().resolve())


def model_and_engine(run: dict[str, Any]) -> tuple[str | None, str | None]:
    llm = run.get("llm") or {}
    if not llm.get("enabled"):
        return None, "none (--no-llm)"
    described = llm.get("engine") or {}
    model = described.get("model") or described.get("model_file")
    return (str(model) if model else None), described.get("engine")


def verdict_blob(verdicts: pl.DataFrame) -> bytes:
    """A run's verdicts as the stored blob. Public so the runner can build it on a second thread while the
    result files are written (polars releases the GIL), instead of after them."""
    frame = verdicts.lazy().select([c for c in VERDICT_COLUMNS if c in verdicts.columns]).collect()
    buf = io.BytesIO()
    # Level 1 without column statistics: a third less CPU than the defaults for a blob barely larger.
    frame.write_parquet(buf, compression="zstd", compression_level=1, statistics=False)
    return buf.getvalue()


PART_ROWS = 16_384
"""Rows per stored part at most. A reader decodes a part at a time (the diff, one of each run at once): 16k
rows of the compared columns are ~2 MiB, a 50,000-row part three times that; the zstd blobs are ~10% larger
than at 50,000 rows."""


class VerdictParts:
    """A run's verdicts as Parquet parts, each encoded as its chunk arrives and spilled to a temporary file
    (not RAM), so a streamed run never holds every row's verdicts; `record_run(..., parts=)` copies them
    into the history. The file is unlinked as soon as it is open (where the OS allows), so a killed run
    leaves nothing behind. Thread-safe: a caller may encode on a second thread while it writes results."""

    def __init__(self, directory: Path | None = None) -> None:
        fd, name = tempfile.mkstemp(prefix=".lmscreen-verdicts-", suffix=".parts", dir=directory)
        self._file = os.fdopen(fd, "w+b")
        self._path: Path | None = Path(name)
        try:
            self._path.unlink()
            self._path = None
        except OSError:  # Windows: an open file stays until close()
            pass
        self._extents: list[tuple[int, int, int]] = []
        self._lock = threading.Lock()
        self.rows = 0

    def add(self, chunk: pl.DataFrame) -> None:
        """Encode one chunk (VERDICT_COLUMNS it has; others ignored) as the next part, or parts of at most
        PART_ROWS rows each: a reader decodes a part at a time, so smaller parts hold less at once."""
        for start in range(0, max(chunk.height, 1), PART_ROWS):
            part = chunk.slice(start, PART_ROWS)
            blob = verdict_blob(part)
            with self._lock:
                offset = self._file.seek(0, os.SEEK_END)
                self._file.write(blob)
                self._extents.append((offset, len(blob), part.height))
                self.rows += part.height

    def __len__(self) -> int:
        return len(self._extents)

    def blobs(self) -> Iterator[tuple[bytes, int]]:
        """The parts and their row counts, in the order they were added, read back one at a time."""
        with self._lock:
            self._file.flush()
            extents = list(self._extents)
        for offset, size, rows in extents:
            with self._lock:
                self._file.seek(offset)
                blob = self._file.read(size)
            yield blob, rows

    def close(self) -> None:
        self._file.close()
        if self._path is not None:
            self._path.unlink(missing_ok=True)
            self._path = None

    def __enter__(self) -> VerdictParts:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def record_run(
    run: dict[str, Any],
    verdicts: pl.DataFrame | None = None,
    path: Path | None = None,
    blob: bytes | None = None,
    parts: VerdictParts | None = None,
) -> int:
    """Store one finished run and its rows; returns the new run id.

    The rows come as `parts` (the streamed run's VerdictParts), or as one frame holding VERDICT_COLUMNS
    (`blob`: `verdict_blob(verdicts)` when the caller already built it), stored as a single part."""
    model, engine = model_and_engine(run)
    counts = run.get("counts") or {}
    blobs: Iterable[tuple[bytes, int]]
    if parts is not None:
        blobs = parts.blobs()
    elif blob is not None:
        blobs = [(blob, verdicts.height if verdicts is not None else _blob_rows(blob))]
    elif verdicts is not None:
        blobs = [(verdict_blob(verdicts), verdicts.height)]
    else:
        raise ValueError("record_run: give the run's verdicts, blob or parts")
    with connect(path) as con:
        cur = con.execute(
            "INSERT INTO runs (recorded_at, started_at, finished_at, pool_path, pool_sha256, out_dir, rows,"
            " rejected, levels_json, model, engine, run_json, rules_json) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (
                datetime.now(timezone.utc).isoformat(),
                run.get("started_at"),
                run.get("finished_at"),
                pool_key(run["input"]["path"]),
                run["input"].get("sha256"),
                pool_key(run["options"]["out"]) if run.get("options", {}).get("out") else None,
                counts.get("screened"),
                counts.get("errors"),
                json.dumps(counts.get("risk_levels") or {}, ensure_ascii=False),
                model,
                engine,
                json.dumps(run, ensure_ascii=False, default=str),
                rules_json(run),
            ),
        )
        run_id = int(cur.lastrowid or 0)
        for i, (part, rows) in enumerate(blobs):
            con.execute(
                "INSERT INTO verdict_parts (run_id, part, rows, parquet) VALUES (?, ?, ?, ?)",
                (run_id, i, rows, part),
            )
    return run_id


def _info(row: sqlite3.Row) -> RunInfo:
    spec = None
    if row["rules_json"]:
        try:
            spec = json.loads(row["rules_json"])
        except json.JSONDecodeError:
            spec = None
    scale = levels_mod.from_spec(spec)
    counts = json.loads(row["levels_json"] or "{}")
    return RunInfo(
        id=row["id"],
        recorded_at=row["recorded_at"],
        started_at=row["started_at"],
        finished_at=row["finished_at"],
        pool_path=row["pool_path"],
        out_dir=row["out_dir"],
        rows=row["rows"] or 0,
        rejected=row["rejected"] or 0,
        levels=counts,
        model=row["model"],
        engine=row["engine"],
        level_order=[str(lv) for lv in scale.ordered(counts) if lv is not None],
        scale=scale,
    )


_INFO_COLUMNS = (
    "id, recorded_at, started_at, finished_at, pool_path, out_dir, rows, rejected, levels_json, model,"
    " engine, rules_json"
)


def list_runs(
    pool: str | Path | None = None, limit: int | None = None, path: Path | None = None
) -> list[RunInfo]:
    """Runs, newest first; only those of one pool file when `pool` is given."""
    where, args = ("WHERE pool_path = ?", [pool_key(pool)]) if pool is not None else ("", [])
    sql = f"SELECT {_INFO_COLUMNS} FROM runs {where} ORDER BY id DESC"
    if limit is not None:
        sql += f" LIMIT {int(limit)}"
    with connect(path, create=False) as con:
        return [_info(r) for r in con.execute(sql, args)]


def get_run(run_id: int, path: Path | None = None) -> RunInfo:
    with connect(path, create=False) as con:
        row = con.execute(f"SELECT {_INFO_COLUMNS} FROM runs WHERE id = ?", (run_id,)).fetchone()
    if row is None:
        raise InputError(f"run {run_id}: not in the history ({path or db_path()}); see `lmscreen history`")
    return _info(row)


def resolve_run(ref: str, path: Path | None = None) -> RunInfo:
    """A run named on the command line: its id, `latest`, or an OUT folder (its latest recorded run)."""
    text = ref.strip()
    if text.isdigit():
        return get_run(int(text), path)
    with connect(path, create=False) as con:
        if text.lower() == "latest":
            row = con.execute(f"SELECT {_INFO_COLUMNS} FROM runs ORDER BY id DESC LIMIT 1").fetchone()
        else:
            row = con.execute(
                f"SELECT {_INFO_COLUMNS} FROM runs WHERE out_dir = ? ORDER BY id DESC LIMIT 1",
                (pool_key(text),),
            ).fetchone()
    if row is None:
        raise InputError(f"{ref}: no such run in the history (give a run id from `lmscreen history`)")
    return _info(row)


def previous_run(
    run_id: int | None, pool: str | Path, before: str | None = None, path: Path | None = None
) -> RunInfo | None:
    """The run of the same pool file recorded just before `run_id` (its pool path as recorded, so a
    relative path in run.json does not depend on where `lmscreen report` is started); for a run that was
    never recorded, the latest run of `pool` finished before `before`. None when there is none."""
    db = path or db_path()
    if not db.is_file():
        return None
    with connect(db, create=False) as con:
        own = None
        if run_id is not None:
            own = con.execute("SELECT pool_path FROM runs WHERE id = ?", (run_id,)).fetchone()
        if own is not None:
            row = con.execute(
                f"SELECT {_INFO_COLUMNS} FROM runs WHERE pool_path = ? AND id < ? ORDER BY id DESC LIMIT 1",
                (own["pool_path"], run_id),
            ).fetchone()
        else:
            row = con.execute(
                f"SELECT {_INFO_COLUMNS} FROM runs WHERE pool_path = ? AND finished_at < ? "
                "ORDER BY id DESC LIMIT 1",
                (pool_key(pool), before or "9999"),
            ).fetchone()
    return None if row is None else _info(row)


def _blob_rows(blob: bytes) -> int:
    """Rows in a Parquet blob, from its footer (nothing decoded)."""
    import polars as pl

    return int(pl.scan_parquet(io.BytesIO(blob)).select(pl.len()).collect().item())


def verdict_rows(run_id: int, path: Path | None = None) -> int | None:
    """How many rows the history holds for a run (None: no verdicts recorded), without decoding them: a
    reader checks it against run.json before it trusts the parts to be that run's."""
    with connect(path, create=False) as con:
        row = con.execute(
            "SELECT COUNT(*) AS n, SUM(rows) AS rows FROM verdict_parts WHERE run_id = ?", (run_id,)
        ).fetchone()
    return int(row["rows"]) if row["n"] else None


def _decoded(blob: bytes, columns: Sequence[str] | None) -> pl.DataFrame:
    import polars as pl

    data = io.BytesIO(blob)
    if columns is None:
        return pl.read_parquet(data)
    present = [c for c in columns if c in pl.read_parquet_schema(data)]
    data.seek(0)
    return pl.read_parquet(data, columns=present)


def verdict_chunks(
    run_id: int, path: Path | None = None, columns: Sequence[str] | None = None
) -> Iterator[pl.DataFrame]:
    """One run's per-row verdicts a part at a time, in input order (VERDICT_COLUMNS, or those of `columns`
    each part has): what a streamed reader (the report's charts, the diff) needs, never the whole run at
    once.

    Naming the columns a caller compares skips decoding the others (the reasons and flags of a million
    rows are most of a blob)."""
    with connect(path, create=False) as con:
        numbers = [
            r["part"]
            for r in con.execute("SELECT part FROM verdict_parts WHERE run_id = ? ORDER BY part", (run_id,))
        ]
        for number in numbers:
            row = con.execute(
                "SELECT parquet FROM verdict_parts WHERE run_id = ? AND part = ?", (run_id, number)
            ).fetchone()
            yield _decoded(row["parquet"], columns)


def verdict_frame(
    run_id: int, path: Path | None = None, columns: Sequence[str] | None = None
) -> pl.DataFrame:
    """One run's per-row verdicts (VERDICT_COLUMNS, or those of `columns` it has), in input order, whole:
    for `lmscreen history` and tests; a reader of big runs takes verdict_chunks."""
    import polars as pl

    chunks = list(verdict_chunks(run_id, path, columns))
    if not chunks:
        return pl.DataFrame(schema={c: pl.String for c in (columns or VERDICT_COLUMNS)})
    return pl.concat(chunks, how="diagonal_relaxed") if len(chunks) > 1 else chunks[0]


def verdicts(run_id: int, path: Path | None = None) -> list[dict[str, Any]]:
    return verdict_frame(run_id, path).to_dicts()


def record_run_safely(
    run: dict[str, Any],
    verdict_rows: pl.DataFrame | None = None,
    blob: bytes | None = None,
    parts: VerdictParts | None = None,
) -> dict[str, Any]:
    """Record a run, but never let a broken or read-only history lose the run itself: the outcome goes
    into run.json (`history.run_id`, or `history.error`)."""
    db = db_path()
    try:
        return {"db": str(db), "run_id": record_run(run, verdict_rows, db, blob, parts)}
    except (sqlite3.Error, OSError, InputError) as exc:
        return {"db": str(db), "error": f"{type(exc).__name__}: {exc}"}
