"""Turn a pool file's bytes into a table of strings: header cells plus one String column per header.

Why sniff instead of trusting the extension: 同花顺 and 东方财富 write GBK tab-separated text and name it
`.xls`; 通达信 puts a title line above the header and a footer line below the data; files re-saved by Excel
carry a UTF-8 BOM. So the format comes from the bytes (zip → XLSX, otherwise delimited text), the header is
the first line that names a code column, and the encoding is tried as BOM → UTF-8 → GB18030 (a superset of
GBK that also holds the rare characters in some company names).

Every value stays a string here; numbers are parsed later, column by column, so a bad cell becomes a row
error instead of a failed load. Likewise a row whose field count differs from the header's (an unquoted
comma in a text cell), an unterminated quote or a stray NUL byte costs that row, not the file: polars reads
well-formed files fast, a cheap byte count proves every row had the header's width, and anything else is
read again record by record (ragged.py).
"""

from __future__ import annotations

import codecs
import csv
import io
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime, time
from pathlib import Path

import polars as pl

from lmscreen.errors import InputError
from lmscreen.pool.ragged import empty_errors, parse_body

HeaderTest = Callable[[list[str]], bool]

_SNIFF_LINES = 30  # title lines (通达信) and blank lines above the header are skipped within this window
_DELIMITERS = ("\t", ",", ";", "|")
_OLE2_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_STRAY_NULS = 2  # a text file may carry a stray NUL or two; binary data has many, and runs of them


@dataclass
class RawTable:
    """Header cells, all-String data columns named c0..cN, and where the data starts.

    `first_row` is the spreadsheet row number of the first data record, so record i is row first_row + i.
    `errors` (row/column/reason) lists records that could not be split into the header's cells; they stay
    in `frame` as all-null rows so the numbering holds, and the loader drops them.
    """

    headers: list[str]
    frame: pl.DataFrame
    first_row: int
    encoding: str
    errors: pl.DataFrame = field(default_factory=empty_errors)


def read_table(path: Path, is_header: HeaderTest, *, missing_header: Callable[[], str]) -> RawTable:
    """Read `path` as a table; raise InputError naming the file when it is not one.

    `is_header` recognises the header line (the reader knows nothing about aliases); `missing_header`
    words the error when the file is a table but no line passes `is_header`.
    """
    name = str(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read the file ({exc.strerror or exc})", file=name) from exc
    if not data or data.isspace():  # not data.strip(): that would copy a large file just to test it
        raise InputError("empty file", file=name)
    if data.startswith(b"PK\x03\x04"):
        return _read_xlsx(data, name, is_header, missing_header)
    if data.startswith(_OLE2_MAGIC):
        raise InputError("binary Excel 97-2003 (.xls) is not supported; save it as .xlsx or CSV", file=name)
    encoding, decoded = _as_utf8(data, name)
    data = _lf_line_ends(decoded)
    on_disk = data is decoded and encoding in ("utf-8", "utf-8-sig")
    del decoded
    layout = _layout(data, name, is_header, missing_header)
    first_row = layout.header_index + 2
    end = len(data) - layout.footer_bytes
    stats = _body_stats(data, layout.body_start, end, layout.delimiter)
    source: Path | io.BytesIO
    if on_disk and layout.footer_bytes == 0:
        # The file on disk is already what polars reads: let it map the file instead of copying our bytes.
        del data
        source = path
    else:
        source = io.BytesIO(data[layout.body_start : end])
        del data
    frame = None if stats.has_nul else _read_fast(source, layout, stats)
    if frame is not None:
        return RawTable(headers=layout.headers, frame=frame, first_row=first_row, encoding=encoding)
    body = source.getvalue() if isinstance(source, io.BytesIO) else path.read_bytes()[layout.body_start : end]
    parsed = parse_body(body.decode("utf-8"), layout.delimiter, layout.headers, first_row)
    return RawTable(layout.headers, parsed.frame, first_row, encoding, errors=parsed.errors)


def _as_utf8(data: bytes, name: str) -> tuple[str, bytes]:
    """(encoding, UTF-8 bytes): BOM first (UTF-8, UTF-16), then strict UTF-8, then GB18030 (a GBK superset).

    UTF-8 input is returned as the same object (BOM included) so large files are not copied; other
    encodings are decoded once and re-encoded.
    """
    if data.startswith(codecs.BOM_UTF8):
        if _is_utf8(memoryview(data)[len(codecs.BOM_UTF8) :]):
            return "utf-8-sig", data
        raise InputError("starts with a UTF-8 BOM but is not valid UTF-8", file=name)
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        try:
            return "utf-16", data.decode("utf-16").encode("utf-8")
        except UnicodeDecodeError as exc:
            raise InputError("starts with a UTF-16 BOM but is not valid UTF-16", file=name) from exc
    head = data[:65536]
    if b"\x00\x00" in head or head.count(b"\x00") > max(_STRAY_NULS, len(head) // 100):
        raise InputError("not a table (binary data)", file=name)
    if _is_utf8(memoryview(data)):
        return "utf-8", data
    try:
        return "gb18030", data.decode("gb18030").encode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError("not a text table (neither UTF-8 nor GB18030/GBK)", file=name) from exc


def _lf_line_ends(data: bytes) -> bytes:
    """Bare CR (同花顺 Table.xls, old Mac files) and mixed line ends become LF.

    LF and CRLF files come back as the same object (both readers take CRLF as it is), so the common case
    costs two byte counts and no copy.
    """
    carriage_returns = data.count(b"\r")
    if not carriage_returns or carriage_returns == data.count(b"\r\n"):
        return data
    return data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")


def _is_utf8(view: memoryview, chunk: int = 1 << 20) -> bool:
    """Validate UTF-8 in chunks, so a large file is never held a second time as one big str."""
    decoder = codecs.getincrementaldecoder("utf-8")()
    try:
        for start in range(0, len(view), chunk):
            decoder.decode(view[start : start + chunk], final=start + chunk >= len(view))
    except UnicodeDecodeError:
        return False
    return True


def _split(line: str, delimiter: str) -> list[str]:
    return next(csv.reader([line], delimiter=delimiter), [])


def _find_header(lines: list[str], is_header: HeaderTest) -> tuple[int, str, list[str]] | None:
    """First line (within the sniff window) that names a code column, with the delimiter that splits it."""
    for index, line in enumerate(lines):
        best: tuple[int, str, list[str]] | None = None
        for delimiter in _DELIMITERS:
            cells = [c.strip() for c in _split(line, delimiter)]
            if is_header(cells) and (best is None or len(cells) > len(best[2])):
                best = (index, delimiter, cells)
        if best is not None:
            return best
    return None


@dataclass
class _Layout:
    """Where the table sits in a text file: title lines, header, delimiter, footer."""

    header_index: int  # 0-based line of the header
    delimiter: str
    headers: list[str]
    body_start: int  # byte offset of the first data line
    footer_bytes: int  # bytes of footer/blank lines to cut from the end


def _layout(data: bytes, name: str, is_header: HeaderTest, missing_header: Callable[[], str]) -> _Layout:
    """Find the header line, its delimiter, and any footer, looking only at the file's head and tail."""
    head = data[: 1 << 16].decode("utf-8", errors="ignore").removeprefix("\ufeff")
    lines = [line.rstrip("\r") for line in head.split("\n")[:_SNIFF_LINES]]
    found = _find_header(lines, is_header)
    if found is None:
        first = next((ln for ln in lines if ln.strip()), "")
        if any(len(_split(first, d)) > 1 for d in _DELIMITERS):
            raise InputError(missing_header(), file=name)
        raise InputError("not a table (no delimited header line found)", file=name)
    header_index, delimiter, headers = found
    while len(headers) > 1 and not headers[-1]:  # a trailing delimiter after the last header (同花顺)
        headers.pop()
    body_start = _offset_after_lines(data, header_index + 1)
    footer = 0
    if len(headers) > 1:
        tail_start = max(body_start, len(data) - (1 << 16))
        footer = _footer_length(data[tail_start:], delimiter.encode())
    return _Layout(header_index, delimiter, headers, body_start, footer)


def _offset_after_lines(data: bytes, count: int) -> int:
    """Byte offset after the first `count` lines (title and header lines carry no quoted newlines)."""
    offset = 0
    for _ in range(count):
        newline = data.find(b"\n", offset)
        if newline < 0:
            return len(data)
        offset = newline + 1
    return offset


def _footer_length(tail: bytes, delimiter: bytes) -> int:
    """Bytes of trailing lines without a delimiter (通达信's `数据来源:通达信`) or blank, to be cut.

    A final newline alone is not a footer; blank lines are cut only together with a real footer line,
    so an ordinary file keeps the fast path.
    """
    end = len(tail)
    saw_text = False
    while end > 0:
        start = tail.rfind(b"\n", 0, end - 1) + 1  # start of the last line of tail[:end]
        line = tail[start:end].strip(b"\r\n ")  # keep tabs: "600519\t\t" is a row, not a footer
        if line and delimiter in line:
            break
        saw_text = saw_text or bool(line)
        end = start
    return len(tail) - end if saw_text else 0


@dataclass
class _BodyStats:
    """What a few byte scans of the body say, so the fast read can be checked without a loop over rows."""

    delimiters: int  # delimiter bytes in the body, inside quoted cells included
    has_quote: bool
    has_nul: bool
    trailing_blank_lines: int  # empty lines after the last record (polars reads each as an all-null row)


def _body_stats(data: bytes, start: int, end: int, delimiter: str) -> _BodyStats:
    """Count over `data[start:end]` without copying it (bytes.count/find take bounds)."""
    blank = 0
    cut = end
    while cut > start and data[cut - 1] == 0x0A:  # peel "\n" / "\r\n" line ends off the tail
        cut -= 2 if cut - 2 >= start and data[cut - 2] == 0x0D else 1
        blank += 1
    return _BodyStats(
        delimiters=data.count(delimiter.encode(), start, end),
        has_quote=data.find(b'"', start, end) >= 0,
        has_nul=data.find(b"\x00", start, end) >= 0,
        # The first line end peeled belongs to the last record; a body of line ends alone is left to the
        # careful reader (0 makes the check below fail rather than pass wrongly).
        trailing_blank_lines=blank - 1 if blank and cut > start else 0,
    )


def _read_fast(source: Path | io.BytesIO, layout: _Layout, stats: _BodyStats) -> pl.DataFrame | None:
    """All cells as strings, or None when some record does not have exactly the header's fields.

    polars raises on a record with more fields (or on a broken quote) but pads a record with fewer, so the
    fields are also counted: if no record has more than the header's width and the body's delimiters outside
    cells add up to (width - 1) per record, then every record has exactly the header's width.
    """
    width = len(layout.headers)
    schema = {f"c{i}": pl.String for i in range(width)}
    skip = layout.header_index + 1 if isinstance(source, Path) else 0
    if isinstance(source, io.BytesIO) and not source.getbuffer().nbytes:
        return pl.DataFrame(schema=schema)
    try:
        frame = pl.read_csv(
            source,
            has_header=False,
            skip_rows=skip,
            separator=layout.delimiter,
            schema=schema,
            truncate_ragged_lines=False,
            quote_char='"',
        )
    except pl.exceptions.NoDataError:
        return pl.DataFrame(schema=schema)
    except pl.exceptions.PolarsError:
        return None
    inside_cells = 0
    if stats.has_quote:  # only a quoted cell can hold the delimiter
        counts = [pl.col(c).str.count_matches(layout.delimiter, literal=True).sum() for c in frame.columns]
        inside_cells = int(frame.select(pl.sum_horizontal(counts)).item())
    records = frame.height - stats.trailing_blank_lines
    return frame if stats.delimiters - inside_cells == records * (width - 1) else None


def _cell_text(value: object, number_format: str | None) -> str | None:
    """How a user would read the cell: integral floats without `.0`, percent-formatted cells as percent."""
    if value is None:
        return None
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, (int, float)):
        number = float(value)
        if number_format and "%" in number_format:
            return f"{round(number * 100, 10)!r}%"
        if isinstance(value, int) or (number.is_integer() and abs(number) < 1e15):
            return str(int(number))
        return repr(number)
    if isinstance(value, (datetime, date, time)):
        return value.isoformat()
    return str(value)


def _read_xlsx(data: bytes, name: str, is_header: HeaderTest, missing_header: Callable[[], str]) -> RawTable:
    """Read the first sheet that has a header row naming a code column."""
    from openpyxl import load_workbook  # imported here: only XLSX inputs pay for it

    try:
        workbook = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except (zipfile.BadZipFile, KeyError, ValueError, OSError) as exc:
        raise InputError("not a table (a zip file that is not an .xlsx workbook)", file=name) from exc
    try:
        saw_cells = False
        for sheet in workbook.worksheets:
            sheet.reset_dimensions()  # some writers store a wrong <dimension>; read what is really there
            rows = sheet.iter_rows()
            header: list[str] | None = None
            header_row = 0
            for number, row in enumerate(rows, start=1):
                cells = [_cell_text(c.value, getattr(c, "number_format", None)) or "" for c in row]
                saw_cells = saw_cells or any(cells)
                if is_header([c.strip() for c in cells]):
                    header, header_row = [c.strip() for c in cells], number
                    break
                if number >= _SNIFF_LINES:
                    break
            if header is None:
                continue
            columns: list[list[str | None]] = [[] for _ in header]
            for row in rows:
                values = [_cell_text(c.value, getattr(c, "number_format", None)) for c in row[: len(header)]]
                values += [None] * (len(header) - len(values))
                for column, value in zip(columns, values, strict=True):
                    column.append(value)
            frame = pl.DataFrame(
                {f"c{i}": col for i, col in enumerate(columns)},
                schema={f"c{i}": pl.String for i in range(len(header))},
            )
            return RawTable(headers=header, frame=frame, first_row=header_row + 1, encoding="xlsx")
    finally:
        workbook.close()
    raise InputError(missing_header() if saw_cells else "empty workbook", file=name)
