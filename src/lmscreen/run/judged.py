"""The pool's chunks with the rules applied (and --limit, --annualize-roe), in input order."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import TYPE_CHECKING

import polars as pl

from lmscreen.pool.periods import ANNUALIZED_ENTRY, annualize_roe, annualized_marks, record_annualized
from lmscreen.pool.ragged import empty_errors
from lmscreen.run.options import ScreenOptions

if TYPE_CHECKING:
    from lmscreen.pool.load import PoolReader
    from lmscreen.rules import RuleSet


class Judged:
    """The pool's chunks with the rules applied (and --limit, --annualize-roe), in input order.

    Iterated once. The rejected rows are gathered on the way (`errors()`), cut at the last screened row
    when --limit stops the run early; `load_s` / `rules_s` sum the time spent in each step.
    """

    def __init__(self, reader: PoolReader, rules: RuleSet, opts: ScreenOptions) -> None:
        self.reader, self.rules, self.opts = reader, rules, opts
        self._errors: list[pl.DataFrame] = []
        self.load_s = self.rules_s = 0.0
        self._last_row: int | None = None

    def __iter__(self) -> Iterator[pl.DataFrame]:
        from lmscreen.rules import evaluate

        left = self.opts.limit
        chunks = iter(self.reader)
        while True:
            t = time.perf_counter()
            chunk = next(chunks, None)
            self.load_s += time.perf_counter() - t
            if chunk is None:
                break
            if left is not None and left <= 0:
                continue  # past --limit: the rest is read only for the file-level facts (warnings, notes)
            frame = chunk.frame
            self._errors.append(chunk.errors)
            if left is not None:
                frame = frame.head(left)
                left -= frame.height
            if not frame.height:
                continue
            self._last_row = int(frame.get_column("row").max())  # type: ignore[arg-type]
            t = time.perf_counter()
            if self.opts.annualize_roe:
                frame = annualize_roe(frame)
            frame = evaluate(frame, self.rules)
            if self.opts.annualize_roe:
                frame = _record_annualized(frame)
            self.rules_s += time.perf_counter() - t
            yield frame

    def errors(self) -> pl.DataFrame:
        errors = pl.concat(self._errors) if self._errors else empty_errors()
        if self.opts.limit is not None:
            # Rows past the limit were not screened, so their load errors are not this run's either.
            errors = errors.filter(pl.col("row") <= (self._last_row or 0))
        return errors


def _record_annualized(frame: pl.DataFrame) -> pl.DataFrame:
    """`roe_annualized` first in both forms of rules_fired where ROE was scaled."""
    from lmscreen.rules.evaluate import RULES_FIRED_LIST
    from lmscreen.rules.fired_list import with_first_entry

    marks = annualized_marks(frame)
    frame = record_annualized(frame)
    if marks is None or RULES_FIRED_LIST not in frame.columns:
        return frame
    lists = with_first_entry(
        frame.get_column(RULES_FIRED_LIST),
        marks.get_column("scaled"),
        ANNUALIZED_ENTRY,
        marks.get_column("value"),
    )
    return frame.with_columns(lists.alias(RULES_FIRED_LIST))
