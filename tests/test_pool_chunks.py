"""Reading a pool a chunk at a time gives exactly the rows, errors and notes of reading it whole.

The run streams the pool in chunks of a few MB so a million-row pool is never held at once; every quirk
the loader handles must come out the same whichever line a chunk happens to end on: a code repeated
chunks apart is still a duplicate of its first row, a quoted cell holding a newline is not split, repeated
header rows are counted once over the file, a footer is cut, GBK and bare-CR files decode the same.
"""

from __future__ import annotations

import random
from pathlib import Path

import polars as pl
import pytest

from lmscreen.errors import InputError
from lmscreen.pool.load import load_pool, open_pool

HEADER = ["代码", "名称", "所属行业", "市盈率(TTM)", "净资产收益率", "报告期"]


def _exchange(n: int) -> str:
    code = f"{n:06d}"
    return "BJ" if code[0] in "48" or code.startswith("92") else "SZ" if code[0] in "0123" else "SH"


def quirky_rows(rng: random.Random, n: int) -> list[list[str]]:
    """Rows with every kind of cell the loader treats specially, codes often repeated far apart."""
    codes = [f"{rng.choice([0, 3, 6, 8])}{rng.randrange(10**5):05d}" for _ in range(n // 3)]
    rows: list[list[str]] = []
    for i in range(n):
        kind = rng.random()
        code = rng.choice(codes)
        code = rng.choice([code, f"{code}.{_exchange(int(code))}", f"sh{code}" if code[0] == "6" else code])
        pe = rng.choice(["12.5", "--", "亏损", "-3.2", "1,234.5", "", "abc", "+1.84%"])
        roe = rng.choice(["15.2", "8%", "", "-", "12.0"])
        name = rng.choice(["贵州茅台", "*ST天山", '"引号,逗号"', '"换\n行"', "平安银行", ""])
        row = [
            code,
            name,
            rng.choice(["白酒", "银行", ""]),
            pe,
            roe,
            rng.choice(["2024-12-31", "2025-06-30"]),
        ]
        if kind < 0.02:
            row = list(HEADER)  # a repeated header (pages pasted together)
        elif kind < 0.04:
            row = [""] * len(HEADER)  # a blank spacer row
        elif kind < 0.05:
            row = row[:3]  # too few cells
        rows.append(row)
        if i == 0:
            rows.append([codes[0], "首行", "白酒", "10", "20", "2024-12-31"])
    rows.append([codes[0], "末行重复", "白酒", "10", "20", "2024-12-31"])  # duplicate of an early row
    return rows


def write_pool(path: Path, rows: list[list[str]], encoding: str, line_end: str, footer: bool) -> None:
    lines = ["数据来源:通达信 自选股"] if footer else []
    lines.append(",".join(HEADER))
    lines += [",".join(r) for r in rows]
    if footer:
        lines.append("数据来源:通达信")
    path.write_bytes((line_end.join(lines) + line_end).encode(encoding))


def whole_and_chunked(path: Path, chunk_bytes: int) -> tuple:
    reader = open_pool(path, chunk_bytes)
    chunks = list(reader)
    frame = pl.concat([c.frame for c in chunks])
    errors = pl.concat([c.errors for c in chunks])
    return reader.pool(), frame, errors, len(chunks)


@pytest.mark.parametrize(
    ("encoding", "line_end", "footer"),
    [("utf-8", "\n", False), ("utf-8-sig", "\r\n", True), ("gbk", "\r", False), ("gb18030", "\n", True)],
)
def test_chunks_read_exactly_like_the_whole_file(
    tmp_path: Path, encoding: str, line_end: str, footer: bool
) -> None:
    rng = random.Random(f"{encoding}{line_end}{footer}")
    path = tmp_path / "pool.csv"
    write_pool(path, quirky_rows(rng, 400), encoding, line_end, footer)
    whole = load_pool(path)
    assert whole.error_frame.filter(pl.col("reason").str.starts_with("duplicate of row")).height > 10
    for chunk_bytes in (97, 1500):
        pool, frame, errors, count = whole_and_chunked(path, chunk_bytes)
        assert count > 3
        assert frame.equals(whole.frame), chunk_bytes
        assert errors.equals(whole.error_frame), chunk_bytes
        assert pool.warnings == whole.warnings
        assert pool.roe_periods == whole.roe_periods and pool.roe_note == whole.roe_note
        assert pool.skipped_header_rows == whole.skipped_header_rows > 0
        assert pool.encoding == whole.encoding


def test_a_code_repeated_a_chunk_later_names_its_first_row(tmp_path: Path) -> None:
    path = tmp_path / "pool.csv"
    lines = (
        ["代码,名称"] + [f"{600000 + i},公司{i}" for i in range(2000)] + ["600005,又一个", "sh600005,再一个"]
    )
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    pool, frame, errors, count = whole_and_chunked(path, 1024)
    assert count > 10 and frame.height == 2000
    assert errors.to_dicts() == [
        {"row": 2002, "column": "代码", "reason": "duplicate of row 7"},
        {"row": 2003, "column": "代码", "reason": "duplicate of row 7"},
    ]


def test_no_data_rows_is_found_after_the_last_chunk(tmp_path: Path) -> None:
    path = tmp_path / "pool.csv"
    path.write_text("代码,名称\n" + "\n" * 500, encoding="utf-8")
    reader = open_pool(path, 64)
    with pytest.raises(InputError, match="no data rows"):
        list(reader)


def test_a_header_longer_than_the_sniffed_head_still_ends_where_its_line_ends(tmp_path: Path) -> None:
    """50,000 columns make a header line of ~300 KB, past the 64 KB the reader sniffs: the data starts on
    the next line all the same (row 2), not in the middle of the header."""
    path = tmp_path / "wide.csv"
    extra = [f"c{i}" for i in range(50_000)]
    path.write_text(
        ",".join(["代码", "名称", *extra])
        + "\n"
        + ",".join(["600519", "贵州茅台", *["1"] * len(extra)])
        + "\n",
        encoding="utf-8",
    )
    pool = load_pool(path)
    assert pool.frame.select("row", "code").to_dicts() == [{"row": 2, "code": "600519.SH"}]
    assert pool.error_frame.height == 0
