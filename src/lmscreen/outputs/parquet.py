"""One Parquet file written a frame at a time, for a run that never holds all its rows.

Polars writes a Parquet file from a whole frame, and a million-row run's results frame is hundreds of MiB;
its streaming engine, though, sinks a query into a file batch by batch. So the frames are handed, through
a small queue, to a query whose source is that queue (polars' IO-source plugin), sunk into the file on a
thread of its own; the queue's two places are all that waits. A single frame (every run of up to a chunk
of rows, the usual nightly market) is written directly when the stream closes: no thread, no engine.

Written with zstd at level 1 and without column statistics: the second-cheapest encoding to write (a
third less CPU than zstd's default level), the file a few percent larger.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Iterator
from pathlib import Path
from types import TracebackType
from typing import Any

import polars as pl

OPTIONS: dict[str, Any] = {"compression": "zstd", "compression_level": 1, "statistics": False}

_END = object()


class ParquetStream:
    """`write(frame)` appends rows (every frame with the first one's schema); the file is complete when
    the block ends without an error. Not thread-safe: one writer calls write()."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._held: pl.DataFrame | None = None
        self._queue: queue.Queue[object] = queue.Queue(maxsize=2)
        self._thread: threading.Thread | None = None
        self._error: BaseException | None = None
        self._schema: pl.Schema | None = None

    def __enter__(self) -> ParquetStream:
        return self

    def write(self, frame: pl.DataFrame) -> None:
        if self._thread is None and self._held is None:
            self._schema = frame.schema
            self._held = frame
            return
        if frame.schema != self._schema:  # the sink would panic inside polars on it
            raise ValueError(
                f"{self.path.name}: a frame of another schema ({frame.schema} after {self._schema})"
            )
        if self._thread is None:
            assert self._held is not None
            self._start(self._held.schema)
            self._put(self._held)
            self._held = None
        self._put(frame)

    def _start(self, schema: pl.Schema) -> None:
        from polars.io.plugins import register_io_source

        def source(*_args: object) -> Iterator[pl.DataFrame]:
            while True:
                item = self._queue.get()
                if item is _END:
                    return
                yield item  # type: ignore[misc]

        def sink() -> None:
            try:
                register_io_source(source, schema=schema).sink_parquet(
                    self.path, engine="streaming", **OPTIONS
                )
            except BaseException as error:  # noqa: BLE001 - handed to the writer's thread
                self._error = error

        self._thread = threading.Thread(target=sink, name="lmscreen-parquet", daemon=True)
        self._thread.start()

    def _put(self, item: object) -> None:
        """Into the queue, unless the sink has stopped (its error is raised here instead of waiting)."""
        thread = self._thread
        assert thread is not None
        while True:
            if self._error is not None:
                raise self._error
            try:
                self._queue.put(item, timeout=0.05)
                return
            except queue.Full:
                if not thread.is_alive():
                    raise self._error or RuntimeError("the Parquet writer stopped") from None

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if self._thread is None:
            if exc_type is None:
                frame = self._held if self._held is not None else pl.DataFrame()
                frame.write_parquet(self.path, **OPTIONS)
            self._held = None
            return
        try:
            # Ended as a whole file even when the block failed: polars' streaming engine may still open its
            # output after a source that raised has already stopped the query, so a discarded temp file
            # could reappear after the caller removed it. A completed sink has closed the file for good.
            self._put(_END)
        except BaseException:
            if exc_type is None:
                raise
        finally:
            self._thread.join()
        if exc_type is None and self._error is not None:
            raise self._error
