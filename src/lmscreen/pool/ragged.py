"""Careful reading of a delimited body that the fast reader refused: one bad row costs one row, not the file.

Why a second reader: polars reads a well-formed file fast, but on a row with more fields than the header it
fails the whole file (or cuts the row), on a row with fewer fields it pads with nulls, and an unterminated
quote fails the file. In every such row the cells are not under the headers they belong to (an unquoted
comma in a text cell shifts every cell after it), so the row is rejected with a reason and the rest is kept.

Rows are numbered by record, as a spreadsheet shows them: a quoted cell holding newlines is one row. A
quoted cell that leaves its record with the wrong field count, or never closes, is more likely a stray quote
than text: its record is rejected and the lines it swallowed are read again one line each, so the rows it
hid are still screened and one stray quote cannot make the reading quadratic.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass, field
from itertools import islice

import polars as pl

_DELIMITER_NAMES = {",": "comma", "\t": "tab", ";": "semicolon", "|": "vertical bar"}
_ERROR_SCHEMA = {"row": pl.Int64, "column": pl.String, "reason": pl.String}


@dataclass
class ParsedBody:
    """`frame`: columns c0..cN, one row per record (rejected records as all-null placeholders, so record i
    stays row first_row + i); `errors`: the rejected records as row/column/reason."""

    frame: pl.DataFrame
    errors: pl.DataFrame


def empty_errors() -> pl.DataFrame:
    """A row/column/reason frame with no rows."""
    return pl.DataFrame(schema=_ERROR_SCHEMA)


def parse_body(text: str, delimiter: str, headers: list[str], first_row: int) -> ParsedBody:
    """Split `text` (the lines under the header) into records, rejecting those that do not fit the header."""
    lines = _physical_lines(text)
    records = _Records(headers, delimiter, first_row)
    position, single_until = 0, 0
    while position < len(lines):
        if position < single_until:  # lines a bad quoted cell had swallowed: one record per line
            records.add_line(lines[position])
            position += 1
        else:
            position, single_until = records.add_stream(lines, position)
    return records.parsed()


@dataclass
class _Records:
    """Records in file order; a rejected one is kept as an all-null placeholder so numbering holds."""

    headers: list[str]
    delimiter: str
    first_row: int
    rows: list[list[str | None]] = field(default_factory=list)
    errors: list[tuple[int, str, str]] = field(default_factory=list)

    def take(self, fields: list[str], problem: tuple[str, str] | None) -> None:
        width = len(self.headers)
        if problem is not None:
            self.errors.append((self.first_row + len(self.rows), *problem))
        if problem is None and len(fields) >= width:  # more only when the extra cells are blank
            self.rows.append([f or None for f in fields[:width]])
        else:  # rejected, or a blank line
            self.rows.append([None] * width)

    def add_line(self, line: str) -> None:
        """One physical line as one record (a quote still open at its end is an error)."""
        try:
            fields, still_open = _read_record([line], self.delimiter)
        except csv.Error as exc:  # a single line longer than the csv module's field limit
            self.take([], ("*", f"unreadable row ({exc})"))
            return
        blank = _is_blank(fields)
        self.take(fields, None if blank else _problem(fields, self.headers, self.delimiter, 1, still_open))

    def add_stream(self, lines: list[str], position: int) -> tuple[int, int]:
        """Read records from `position` on; return where to go on, and up to where to read line by line.

        A rejected record spanning several lines sends its other lines back to be read one by one.
        """
        reader = csv.reader(islice(lines, position, None), delimiter=self.delimiter)
        end = position
        try:
            for fields in reader:
                begin, end = end, position + reader.line_num
                if _is_blank(fields):
                    self.take(fields, None)
                    continue
                still_open = end == len(lines) and _quote_left_open(lines[begin:end], self.delimiter)
                problem = _problem(fields, self.headers, self.delimiter, end - begin, still_open)
                self.take(fields, problem)
                if problem is not None and end - begin > 1:
                    return begin + 1, end
        except csv.Error as exc:  # a quoted cell grew past the csv module's field limit: a stray quote
            self.take([], ("*", f"unreadable row ({exc}): stray quote?"))
            return end + 1, position + reader.line_num
        return len(lines), 0

    def parsed(self) -> ParsedBody:
        schema = {f"c{i}": pl.String for i in range(len(self.headers))}
        rows, errors = self.rows, self.errors
        frame = pl.DataFrame(rows, schema=schema, orient="row") if rows else pl.DataFrame(schema=schema)
        error_frame = pl.DataFrame(errors, schema=_ERROR_SCHEMA, orient="row") if errors else empty_errors()
        return ParsedBody(frame=frame, errors=error_frame)


def _physical_lines(text: str) -> list[str]:
    """Lines split on newline only (str.splitlines would also split on \\x1c, \\u2028 and other characters
    that can sit inside a cell), each ending in a newline."""
    parts = text.split("\n")
    if parts[-1] == "":
        parts.pop()
    return [part + "\n" for part in parts]


def _is_blank(fields: list[str]) -> bool:
    """Blank lines and rows of empty cells are spacing, not errors (the loader drops them)."""
    return not any(f.strip() for f in fields)


def _read_record(record_lines: list[str], delimiter: str) -> tuple[list[str], bool]:
    """The first record in these lines, and whether a quote is still open at their end.

    A sentinel line is appended: an open quote swallows it, so the reader ends up past the given lines.
    """
    reader = csv.reader([*record_lines, "\n"], delimiter=delimiter)
    fields = next(reader, [])
    return fields, reader.line_num > len(record_lines)


def _quote_left_open(record_lines: list[str], delimiter: str) -> bool:
    """Whether the last record of the file ends inside a quoted cell (the csv module just stops there)."""
    if not any('"' in line for line in record_lines):
        return False
    return _read_record(record_lines, delimiter)[1]


def _problem(
    fields: list[str], headers: list[str], delimiter: str, span: int, still_open: bool
) -> tuple[str, str] | None:
    """(column, reason) when the record cannot be used, else None."""
    width, count = len(headers), len(fields)
    if still_open:
        column = (headers[count - 1] or f"column {count}") if 0 < count <= width else "*"
        return column, "unterminated quote: the quoted cell runs to the end of the file"
    if count > width and _is_blank(fields[width:]):
        count = width  # trailing delimiters (同花顺 ends every row with a tab): blank cells past the header
    if count != width:
        if span > 1:
            hint = f"a quoted cell runs over {span} lines: stray quote?"
        elif count > width:
            hint = f"unquoted {_DELIMITER_NAMES.get(delimiter, repr(delimiter))}?"
        else:
            hint = "missing cells, or a line break inside an unquoted cell?"
        column = "*" if count > width else (headers[count] or f"column {count + 1}")
        fields_word = "field" if count == 1 else "fields"
        return column, f"row has {count} {fields_word}, header has {width} ({hint})"
    for header, value in zip(headers, fields[:width], strict=True):
        if "\x00" in value:
            return header or "*", "cell contains a NUL byte"
    return None
