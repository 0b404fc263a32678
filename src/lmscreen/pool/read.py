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
import os
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import date, datetime, time
from pathlib import Path
from typing import BinaryIO

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


CHUNK_ROWS = 32_000
"""Rows per chunk of `stream_table`: what a streamed run holds at once. Memory is spent per row (each row's
cells, its normalised columns, its verdict and audit trail, about 1 KB in all), so chunks are sized in rows,
not bytes; much smaller chunks pay polars' fixed cost per call (~40 ms a chunk) too often."""
_FIRST_CHUNK_BYTES = 1 << 20
_BLOCK = 1 << 20
_HEAD = 1 << 16


@dataclass
class TableHead:
    """What is known of a table before its body is read: header cells, encoding, first data row."""

    headers: list[str]
    encoding: str
    first_row: int


def read_table(path: Path, is_header: HeaderTest, *, missing_header: Callable[[], str]) -> RawTable:
    """Read `path` as a table; raise InputError naming the file when it is not one.

    `is_header` recognises the header line (the reader knows nothing about aliases); `missing_header`
    words the error when the file is a table but no line passes `is_header`. The whole table at once:
    `stream_table` is the same reading a chunk at a time.
    """
    head, chunks = stream_table(path, is_header, missing_header=missing_header)
    parts = list(chunks)
    if len(parts) == 1:
        return parts[0]
    return RawTable(
        headers=head.headers,
        frame=pl.concat([p.frame for p in parts]) if parts else _empty_frame(len(head.headers)),
        first_row=head.first_row,
        encoding=head.encoding,
        errors=pl.concat([p.errors for p in parts]) if parts else empty_errors(),
    )


def stream_table(
    path: Path,
    is_header: HeaderTest,
    *,
    missing_header: Callable[[], str],
    chunk_bytes: int | None = None,
    chunk_rows: int = CHUNK_ROWS,
) -> tuple[TableHead, Iterator[RawTable]]:
    """The table's head, then its body as RawTables of about `chunk_rows` rows each (or `chunk_bytes`
    bytes, when given), in file order.

    Everything that can make the file unusable (not a table, bad encoding, no header) is raised here,
    before the first chunk; each chunk's `first_row` continues the previous one's numbering, so rows and
    errors read exactly as from the whole file. Chunks end at a line end outside quotes, so a quoted cell
    holding a newline is never split. Only XLSX and UTF-16 files (small by nature) are held whole.
    """
    name = str(path)
    try:
        fh = path.open("rb")
    except OSError as exc:
        raise InputError(f"cannot read the file ({exc.strerror or exc})", file=name) from exc
    try:
        source = _open_source(fh, name)
        if isinstance(source, bytes):
            fh.close()
            return _xlsx_stream(source, name, is_header, missing_header, chunk_rows)
        head_bytes = source.head()
        layout = _layout_parts(head_bytes, source.tail(), source.length, name, is_header, missing_header)
        if layout.body_start >= len(head_bytes) and source.length > len(head_bytes):
            # A header line longer than the sniffed head (thousands of columns): read it whole.
            start = source.offset_after_lines(layout.header_index)
            layout.body_start = source.offset_after_lines(layout.header_index + 1)
            line = source.read_range(start, layout.body_start).decode("utf-8", errors="ignore")
            cells = [c.strip() for c in _split(line.rstrip("\r\n").removeprefix("\ufeff"), layout.delimiter)]
            while len(cells) > 1 and not cells[-1]:
                cells.pop()
            if is_header(cells):
                layout.headers = cells
    except BaseException:
        fh.close()
        raise
    head = TableHead(layout.headers, source.encoding, layout.header_index + 2)
    return head, _chunks(fh, source, layout, head.first_row, chunk_bytes, chunk_rows)


def _xlsx_stream(
    data: bytes, name: str, is_header: HeaderTest, missing_header: Callable[[], str], rows: int
) -> tuple[TableHead, Iterator[RawTable]]:
    table = _read_xlsx(data, name, is_header, missing_header)
    rows = max(1, rows)

    def slices() -> Iterator[RawTable]:
        for at in range(0, max(table.frame.height, 1), rows):
            yield RawTable(table.headers, table.frame.slice(at, rows), table.first_row + at, table.encoding)

    return TableHead(table.headers, table.encoding, table.first_row), slices()


@dataclass
class _Source:
    """A text file as the UTF-8, LF-ended bytes the parsers read, produced a block at a time.

    `length` is the length of that converted stream; `memory` holds the converted bytes of a file that
    had to be decoded whole (UTF-16)."""

    fh: BinaryIO
    encoding: str
    length: int
    fix_cr: bool
    quotes: bool
    memory: bytes | None = None

    def blocks(self) -> Iterator[bytes]:
        """The converted stream from its start, in blocks of about _BLOCK bytes."""
        if self.memory is not None:
            for at in range(0, len(self.memory), _BLOCK):
                yield self.memory[at : at + _BLOCK]
            return
        self.fh.seek(0)
        decoder = None if self.encoding.startswith("utf-8") else codecs.getincrementaldecoder(self.encoding)()
        carry = b""  # a CR at the end of a block may be the first half of a CRLF
        while True:
            raw = self.fh.read(_BLOCK)
            final = not raw
            block = raw if decoder is None else decoder.decode(raw, final=final).encode("utf-8")
            if self.fix_cr:
                block = carry + block
                carry = b""
                if block.endswith(b"\r") and not final:
                    block, carry = block[:-1], b"\r"
                block = block.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
            if block:
                yield block
            if final:
                return

    def head(self) -> bytes:
        out = b""
        for block in self.blocks():
            out += block
            if len(out) >= _HEAD:
                break
        return out[:_HEAD]

    def offset_after_lines(self, count: int) -> int:
        """Offset in the converted stream just past its first `count` lines (its length if it has fewer)."""
        offset = 0
        for block in self.blocks():
            at = -1
            while count and (at := block.find(b"\n", at + 1)) >= 0:
                count -= 1
            if not count:
                return offset + at + 1
            offset += len(block)
        return offset

    def read_range(self, start: int, end: int) -> bytes:
        """Bytes start..end of the converted stream."""
        out, offset = [], 0
        for block in self.blocks():
            if offset + len(block) > start:
                out.append(block[max(0, start - offset) : max(0, end - offset)])
            offset += len(block)
            if offset >= end:
                break
        return b"".join(out)

    def tail(self) -> bytes:
        """The last bytes of the converted stream (at most _HEAD, fewer when a character is cut)."""
        if self.memory is not None or self.length <= _HEAD:
            return self.head() if self.memory is None else self.memory[-_HEAD:]
        size = os.fstat(self.fh.fileno()).st_size
        self.fh.seek(max(0, size - _HEAD))
        raw = self.fh.read()
        if self.encoding.startswith("utf-8"):
            text = raw
        else:  # the window may start inside a character: drop what does not decode there
            text = raw.decode(self.encoding, errors="ignore").encode("utf-8")
        if self.fix_cr:
            text = text.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
        return text[-min(len(text), self.length) :]


def _open_source(fh: BinaryIO, name: str) -> _Source | bytes:
    """Decide what the file is from its bytes: XLSX (returned as bytes), or delimited text (a _Source).

    Encoding: BOM first (UTF-8, UTF-16), then strict UTF-8, then GB18030 (a GBK superset), each checked
    over the whole file a block at a time; line ends: bare CR (同花顺 Table.xls, old Mac files) and mixed
    ends become LF, LF and CRLF files are read as they are.
    """
    head = fh.read(_HEAD)
    if not head or (head.isspace() and _only_space(fh)):
        raise InputError("empty file", file=name)
    if head.startswith(b"PK\x03\x04"):
        return head + fh.read()
    if head.startswith(_OLE2_MAGIC):
        raise InputError("binary Excel 97-2003 (.xls) is not supported; save it as .xlsx or CSV", file=name)
    if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        try:
            text = (head + fh.read()).decode("utf-16").encode("utf-8")
        except UnicodeDecodeError as exc:
            raise InputError("starts with a UTF-16 BOM but is not valid UTF-16", file=name) from exc
        converted = _lf_line_ends(text)
        return _Source(fh, "utf-16", len(converted), False, b'"' in converted, memory=converted)
    if head.startswith(codecs.BOM_UTF8):
        scan = _scan(fh, "utf-8")
        if scan is None:
            raise InputError("starts with a UTF-8 BOM but is not valid UTF-8", file=name)
        encoding = "utf-8-sig"
    else:
        if b"\x00\x00" in head or head.count(b"\x00") > max(_STRAY_NULS, len(head) // 100):
            raise InputError("not a table (binary data)", file=name)
        encoding = "utf-8"
        scan = _scan(fh, "utf-8")
        if scan is None:
            encoding = "gb18030"
            scan = _scan(fh, "gb18030")
            if scan is None:
                raise InputError("not a text table (neither UTF-8 nor GB18030/GBK)", file=name)
    length, crs, crlfs, quotes = scan
    fix_cr = bool(crs) and crs != crlfs
    return _Source(fh, encoding, length - crlfs if fix_cr else length, fix_cr, quotes)


def _only_space(fh: BinaryIO) -> bool:
    while block := fh.read(_BLOCK):
        if not block.isspace():
            return False
    return True


def _scan(fh: BinaryIO, encoding: str) -> tuple[int, int, int, bool] | None:
    """One pass over the file: (UTF-8 length, CRs, CRLFs, any quote) if it decodes as `encoding`, else None.

    CR, LF and the quote are single bytes in UTF-8 and GB18030 alike (no multi-byte sequence contains
    them), so they are looked for on the raw bytes. UTF-8 is checked by polars (a Binary to String cast,
    about five times faster than Python's decoder), a block at a time with an incomplete character carried
    over to the next block."""
    fh.seek(0)
    decoder = None if encoding == "utf-8" else codecs.getincrementaldecoder(encoding)()
    length = crs = crlfs = 0
    quotes = False
    last = carry = b""
    while raw := fh.read(_BLOCK):
        if decoder is None:
            block = carry + raw
            cut = _utf8_boundary(block)
            carry = block[cut:]
            if not _valid_utf8(block[:cut]):
                return None
            length += len(raw)
        else:
            try:
                length += len(decoder.decode(raw).encode("utf-8"))
            except UnicodeDecodeError:
                return None
        if b"\r" in raw:
            crs += raw.count(b"\r")
            crlfs += raw.count(b"\r\n")
        crlfs += last == b"\r" and raw[:1] == b"\n"
        quotes = quotes or b'"' in raw
        last = raw[-1:]
    if decoder is None:
        return (length, crs, crlfs, quotes) if _valid_utf8(carry) else None
    try:
        length += len(decoder.decode(b"", final=True).encode("utf-8"))
    except UnicodeDecodeError:
        return None
    return length, crs, crlfs, quotes


def _utf8_boundary(block: bytes) -> int:
    """Where the last complete UTF-8 character of `block` ends (an incomplete one at the end is cut off)."""
    end = len(block)
    start = end
    while start > 0 and end - start < 3 and block[start - 1] & 0xC0 == 0x80:  # continuation bytes
        start -= 1
    if start == 0 or block[start - 1] < 0xC0:  # ASCII or stray continuation bytes: nothing to carry
        return end
    lead = block[start - 1]
    need = 2 if lead < 0xE0 else 3 if lead < 0xF0 else 4
    return end if end - (start - 1) >= need else start - 1


def _valid_utf8(data: bytes) -> bool:
    if not data or data.isascii():
        return True
    try:
        pl.Series([data], dtype=pl.Binary).cast(pl.String)
    except pl.exceptions.ComputeError:
        return False
    return True


def _chunks(
    fh: BinaryIO, source: _Source, layout: _Layout, first_row: int, fixed_bytes: int | None, chunk_rows: int
) -> Iterator[RawTable]:
    """The body (between the header and any footer) cut into RawTables at line ends outside quotes: of
    `fixed_bytes` each when given, else of about `chunk_rows` rows, at the bytes per row read so far."""
    chunk_bytes = fixed_bytes or min(_FIRST_CHUNK_BYTES, chunk_rows * 64)
    read_bytes = read_rows = 0
    end = source.length - layout.footer_bytes
    position = 0  # offset in the converted stream of buf[0]
    # A bytearray, appended to and cut from the front in place: with bytes, each 1 MiB block appended and
    # each chunk cut off copied the whole buffer again (~0.2 s of CPU over a 76 MB pool).
    buf = bytearray()
    row = first_row
    yielded = False
    try:
        blocks = source.blocks()
        done = False
        while not done:
            block = next(blocks, None)
            if block is None:
                done = True
            else:
                buf += block
            if position < layout.body_start:  # drop the title and header lines
                drop = min(len(buf), layout.body_start - position)
                del buf[:drop]
                position += drop
                if position < layout.body_start:
                    continue
            if position + len(buf) > end:  # the footer is never part of a chunk
                del buf[max(0, end - position) :]
                done = True
            while len(buf) >= chunk_bytes or (done and buf):
                cut = _cut(buf, chunk_bytes, source.quotes) if len(buf) > chunk_bytes else 0
                if cut <= 0:
                    if not done:
                        break
                    cut = len(buf)  # the last piece, whatever its end
                with memoryview(buf) as view:
                    piece = bytes(view[:cut])
                del buf[:cut]
                position += cut
                table = _parse_chunk(piece, layout, row, source.encoding)
                row += table.frame.height
                if fixed_bytes is None:
                    read_bytes, read_rows = read_bytes + cut, read_rows + table.frame.height
                    per_row = read_bytes / max(read_rows, 1)
                    chunk_bytes = int(min(16 << 20, max(16 << 10, chunk_rows * per_row)))
                yielded = True
                yield table
        if not yielded:
            yield RawTable(layout.headers, _empty_frame(len(layout.headers)), first_row, source.encoding)
    finally:
        fh.close()


def _cut(buf: bytes | bytearray, limit: int, quotes: bool) -> int:
    """Bytes of `buf` up to a line end outside quotes: the last one at or before `limit`, else the first
    one after it (a long line or quoted cell); 0 when `buf` holds none yet.

    With quotes in the file, a line end counts only after an even number of quote characters, which is
    where a record can end."""
    pos = buf.rfind(b"\n", 0, limit)
    if not quotes:
        return (pos if pos >= 0 else buf.find(b"\n", limit)) + 1
    parity = buf.count(b'"', 0, pos) % 2 if pos >= 0 else 0
    while pos >= 0:
        if parity == 0:
            return pos + 1
        previous = buf.rfind(b"\n", 0, pos)
        parity = (parity - buf.count(b'"', previous + 1, pos)) % 2
        pos = previous
    at = buf.rfind(b"\n", 0, limit) + 1  # nothing before the limit: look forward from it
    parity = buf.count(b'"', 0, at) % 2
    while (pos := buf.find(b"\n", at)) >= 0:
        parity = (parity + buf.count(b'"', at, pos)) % 2
        if parity == 0:
            return pos + 1
        at = pos + 1
    return 0


def _parse_chunk(body: bytes, layout: _Layout, first_row: int, encoding: str) -> RawTable:
    """One piece of the body as a RawTable: polars when every record fits the header, else record by
    record (ragged.py)."""
    stats = _body_stats(body, 0, len(body), layout.delimiter)
    frame = None if stats.has_nul else _read_fast(io.BytesIO(body), layout, stats)
    if frame is not None:
        return RawTable(headers=layout.headers, frame=frame, first_row=first_row, encoding=encoding)
    parsed = parse_body(body.decode("utf-8"), layout.delimiter, layout.headers, first_row)
    return RawTable(layout.headers, parsed.frame, first_row, encoding, errors=parsed.errors)


def _empty_frame(width: int) -> pl.DataFrame:
    return pl.DataFrame(schema={f"c{i}": pl.String for i in range(width)})


def _lf_line_ends(data: bytes) -> bytes:
    """Bare CR (同花顺 Table.xls, old Mac files) and mixed line ends become LF.

    LF and CRLF files come back as the same object (both readers take CRLF as it is), so the common case
    costs two byte counts and no copy.
    """
    carriage_returns = data.count(b"\r")
    if not carriage_returns or carriage_returns == data.count(b"\r\n"):
        return data
    return data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")


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
    return _layout_parts(data[:_HEAD], data[-_HEAD:], len(data), name, is_header, missing_header)


def _layout_parts(
    head_bytes: bytes,
    tail: bytes,
    length: int,
    name: str,
    is_header: HeaderTest,
    missing_header: Callable[[], str],
) -> _Layout:
    """`_layout` from the first bytes and the last bytes (`tail`) of a text `length` bytes long."""
    head = head_bytes.decode("utf-8", errors="ignore").removeprefix("\ufeff")
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
    body_start = _offset_after_lines(head_bytes, header_index + 1)
    footer = 0
    if len(headers) > 1:
        tail_start = length - len(tail)
        window = tail[max(0, body_start - tail_start) :]
        footer = _footer_length(window, delimiter.encode())
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
