"""Errors the CLI turns into exit codes.

InputError is the only exception that means "the user gave us something unusable" (exit 2, one line);
everything else is an internal error (exit 1). Keeping it in one place lets every layer raise it without
importing the CLI.
"""

from __future__ import annotations


class InputError(Exception):
    """Unusable input or arguments: the message is the one line the user sees."""

    def __init__(
        self, message: str, *, file: str | None = None, row: int | None = None, column: str | None = None
    ) -> None:
        self.file = file
        self.row = row
        self.column = column
        parts = [
            p
            for p in (
                file,
                f"row {row}" if row is not None else None,
                f"column {column!r}" if column else None,
            )
            if p
        ]
        super().__init__(f"{': '.join([', '.join(parts), message]) if parts else message}")
