"""A rich progress bar for long unattended runs: rows done, rows/s, tokens/s and ETA, on stderr.

stdout stays clean for `--json`-style consumers; on a non-terminal (CI, nohup) rich prints no live bar.
"""

from __future__ import annotations

import time
from types import TracebackType

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)


class RowProgress:
    def __init__(self, total: int, *, enabled: bool = True, label: str = "rows") -> None:
        self.total = total
        self.enabled = enabled and total > 0
        self._tokens = 0
        self._done = 0
        self._t0 = time.perf_counter()
        self._progress = Progress(
            TextColumn("[bold]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[rate]} rows/s · {task.fields[tps]} tok/s"),
            TimeElapsedColumn(),
            TextColumn("ETA"),
            TimeRemainingColumn(),
            console=Console(stderr=True),
            disable=not self.enabled,
        )
        self._task = self._progress.add_task(label, total=total, rate="-", tps="-")

    def __enter__(self) -> RowProgress:
        self._progress.start()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._progress.stop()

    def advance(self, tokens: int = 0) -> None:
        self._done += 1
        self._tokens += tokens
        elapsed = max(time.perf_counter() - self._t0, 1e-9)
        self._progress.update(
            self._task, advance=1, rate=f"{self._done / elapsed:.2f}", tps=f"{self._tokens / elapsed:.0f}"
        )
