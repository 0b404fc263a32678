"""The pool's fast paths give exactly what the general path gives, cell for cell.

Codes, names and industries skip work for cells that need none (a plain `600519.SH`, a name of ASCII and
CJK only). Each test forces every cell through the general path and compares, on generated cells that mix
plain and awkward forms (full-width, spaces, wrappers, prefixes, garbage), so a fast path that decides
wrongly which cells are plain fails here.
"""

from __future__ import annotations

import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lmscreen.pool import codes, names, text
from lmscreen.pool.load import _clean_industry
from lmscreen.pool.numbers import NumberKind, parse_numbers

_SETTINGS = settings(
    max_examples=200, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck)
)

_DIGITS = st.text(alphabet="0123456789", min_size=6, max_size=6)
_PLAIN_CODES = st.one_of(
    _DIGITS, st.builds(lambda d, t: f"{d}.{t}", _DIGITS, st.sampled_from(["SH", "SZ", "BJ"]))
)
_ODD_CODES = st.one_of(
    st.builds(lambda d, t: f"{t}{d}", _DIGITS, st.sampled_from(["sh", "SZ", "bj.", "Sh", "sz:"])),
    st.builds(
        lambda d, t: f"{d}.{t}", _DIGITS, st.sampled_from(["SS", "XSHG", "XSHE", "BSE", "sh", "0", "SZ "])
    ),
    st.builds(lambda d: f'="{d}"', _DIGITS),
    st.builds(lambda d: f"{d[:2]}{chr(0xFF10 + int(d[2]))}{d[3:]}", _DIGITS),  # a full-width digit
    st.text(alphabet="0123456789.SHZBJ '\"=\u3000１", max_size=12),
)
_CODE_COLUMNS = st.lists(st.one_of(_PLAIN_CODES, _PLAIN_CODES, _ODD_CODES, st.none()), max_size=60)

_NAME_CHARS = "万科贵州茅台平安ABCDNXRST*st ＡＳＴ＊\u3000\t\u00a0-—.·()（）ſ\x01"
_NAMES = st.lists(
    st.one_of(
        st.sampled_from(["贵州茅台", "万科A", "*ST天山", "XD贵州茅", "N中芯", "C药明", "DR平安", "", "NIKE"]),
        st.text(alphabet=_NAME_CHARS, max_size=8),
        st.none(),
    ),
    max_size=60,
)


@_SETTINGS
@given(cells=_CODE_COLUMNS)
def test_codes_fast_path_equals_the_general_path(cells: list[str | None]) -> None:
    column = pl.Series("代码", cells, dtype=pl.String)
    fast = codes.normalise_codes(column)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(codes, "_PLAIN", r"[^\s\S]")
        general = codes.normalise_codes(column)
    assert fast.schema == general.schema
    assert fast.to_dicts() == general.to_dicts()


def test_a_column_of_right_tagged_codes_is_kept_as_written() -> None:
    column = pl.Series("代码", ["600519.SH", "000001.SZ", "920819.BJ", "510300.SH"])
    result = codes.normalise_codes(column)
    assert result.get_column("code").to_list() == column.to_list()
    assert result.get_column("code_error").null_count() == 4
    assert result.get_column("exchange_from_tag").to_list() == [False, False, False, True]


@_SETTINGS
@given(cells=_NAMES)
def test_names_cleaned_only_where_needed_equal_names_all_cleaned(cells: list[str | None]) -> None:
    column = pl.Series("名称", cells, dtype=pl.String)
    assert names.normalise_names(column).to_list() == names._clean_names(column).to_list()
    assert text.clean_where_needed(column, _clean_industry).to_list() == _clean_industry(column).to_list()


_NUMBER_CELLS = {
    "亏损": None,
    "--": None,
    "": None,
    "-": None,
    "n/a": None,
    "N/A": None,
    "12.5": 12.5,
    "1,234": 1234.0,
}


@_SETTINGS
@given(cells=st.lists(st.one_of(st.sampled_from(sorted(_NUMBER_CELLS)), st.none())))
def test_no_value_tokens_skip_the_regex_with_the_same_result(cells: list[str | None]) -> None:
    """Cells that are exactly a no-value token are nulls without an error, as the full parse makes them
    (`N/A` is not exactly a token and takes the full parse, with the same result)."""
    result = parse_numbers(pl.Series("市盈率", cells, dtype=pl.String), NumberKind.PE)
    assert result.get_column("value").to_list() == [None if c is None else _NUMBER_CELLS[c] for c in cells]
    assert result.get_column("error").null_count() == len(cells)
