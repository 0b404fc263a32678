"""Report texts from `--reports DIR`: file naming forms and encodings as users really save them."""

from __future__ import annotations

from pathlib import Path

import pytest

from lmscreen.errors import InputError
from lmscreen.filings import filing_for, index_filings

TEXT = "贵州茅台2024年营业总收入1741.44亿元，同比增长15.66%。"


@pytest.mark.parametrize(
    ("filename", "data"),
    [
        ("600519.SH.txt", TEXT.encode("gbk")),
        ("600519.txt", TEXT.encode("utf-8")),
        ("600519.sh.md", b"\xef\xbb\xbf" + TEXT.encode("utf-8")),
        ("600519.SH.txt", TEXT.encode("utf-16")),
        ("600519.SH.txt", "𠀀".encode("gb18030") + TEXT.encode("gb18030")),
    ],
)
def test_report_files_in_every_naming_form_and_encoding(tmp_path: Path, filename: str, data: bytes) -> None:
    (tmp_path / filename).write_bytes(data)
    src = filing_for("600519.SH", None, index_filings(tmp_path))
    assert src is not None
    assert src.read().endswith(TEXT)
    assert filing_for("000001.SZ", None, index_filings(tmp_path)) is None


def test_a_report_file_wins_over_the_inline_column_and_inline_over_nothing(tmp_path: Path) -> None:
    (tmp_path / "600519.SH.txt").write_text(TEXT, encoding="utf-8")
    index = index_filings(tmp_path)
    assert filing_for("600519.SH", "inline", index).read() == TEXT
    assert filing_for("000001.SZ", "平安银行营业收入1466.95亿元", index).read().startswith("平安银行")
    assert filing_for("000001.SZ", "   ", index) is None


def test_reports_must_be_a_folder_and_undecodable_text_names_the_file(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="must be a folder"):
        index_filings(tmp_path / "missing")
    bad = tmp_path / "600519.SH.txt"
    bad.write_bytes(b"\xff\xff\xfa\xfb\x80\x81" * 10)
    with pytest.raises(InputError, match="600519.SH.txt"):
        filing_for("600519.SH", None, index_filings(tmp_path)).read()


def test_a_bom_file_with_broken_bytes_is_an_error_not_silently_replaced(tmp_path: Path) -> None:
    bad = tmp_path / "600519.SH.txt"
    bad.write_bytes(b"\xef\xbb\xbf" + TEXT.encode("utf-8")[:-2] + b"\xff" + TEXT.encode("utf-8"))
    with pytest.raises(InputError, match="utf-8-sig"):
        filing_for("600519.SH", None, index_filings(tmp_path)).read()
