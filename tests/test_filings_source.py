"""A Filing reads its document once for key, prompt and result, and holds texts only within a budget.

What a run does with each row's filing, in the runner's order: `digest()` for the checkpoint key, `read()`
for the prompt, then `read()` and `annotate_pages` when the answer becomes the row's result. Decoding is
counted by wrapping the real decoders (they still run on real files).
"""

from __future__ import annotations

import gc
import hashlib
from collections import Counter
from pathlib import Path

import pytest

from lmscreen.errors import InputError
from lmscreen.filings import Filing, annotate_pages, filing_for, index_filings
from lmscreen.filings import source as source_module
from lmscreen.filings.long_text import LONG_TEXT_CHARS

TEXT = "贵州茅台2024年营业总收入1741.44亿元，同比增长15.66%。\n"


@pytest.fixture
def decoded(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """File name -> how many times its bytes were decoded (whole or streamed)."""
    counts: Counter[str] = Counter()
    whole, streamed = source_module.decode_text, source_module.read_streamed

    def count_whole(data: bytes, path: Path) -> str:
        counts[path.name] += 1
        return whole(data, path)

    def count_streamed(path: Path, consume):  # noqa: ANN001, ANN202
        counts[path.name] += 1
        return streamed(path, consume)

    monkeypatch.setattr(source_module, "decode_text", count_whole)
    monkeypatch.setattr(source_module, "read_streamed", count_streamed)
    return counts


def as_a_run_uses_it(filing: Filing) -> tuple[str, str, list[str]]:
    key = filing.digest()
    prompt = filing.read()
    assert filing.read() == prompt
    flags = annotate_pages(filing, {"fields": {}})
    return key, prompt, flags


def test_a_short_and_a_long_file_are_each_decoded_once(tmp_path: Path, decoded: Counter[str]) -> None:
    short = tmp_path / "600519.SH.txt"
    short.write_bytes(TEXT.encode("gb18030"))
    long = tmp_path / "600000.SH.txt"
    whole = "公司治理情况说明。\n" * (LONG_TEXT_CHARS // 10 + 1000) + "主要会计数据和财务指标\n" + TEXT
    long.write_text(whole, encoding="utf-8")
    index = index_filings(tmp_path)
    for code, path, text in (("600519.SH", short, TEXT), ("600000.SH", long, whole)):
        filing = filing_for(code, None, index)
        assert filing is not None
        key, prompt, flags = as_a_run_uses_it(filing)
        assert key == hashlib.sha256(text.encode("utf-8")).hexdigest()  # the whole text's, as before
        assert decoded[path.name] == 1
        if path is long:
            assert flags == ["truncated", "report_sections_only"] and len(prompt) < len(whole)
            assert filing.quote_text() is None and TEXT in prompt
        else:
            assert flags == [] and prompt == TEXT == filing.quote_text()
    assert decoded[short.name] == decoded[long.name] == 1


def test_a_file_that_cannot_be_decoded_fails_once_and_says_so_every_time(
    tmp_path: Path, decoded: Counter[str]
) -> None:
    bad = tmp_path / "600519.SH.txt"
    bad.write_bytes(b"\xff\xff\xfa\xfb\x80\x81" * 10)
    filing = Filing(path=bad)
    for ask in (filing.digest, filing.read, filing.read):
        with pytest.raises(InputError, match="600519.SH.txt: not valid utf-8 or gb18030 text"):
            ask()
    assert decoded[bad.name] == 1


def test_texts_past_the_budget_are_dropped_and_read_again_the_digest_kept(
    tmp_path: Path, decoded: Counter[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    gc.collect()
    base = source_module.held_chars()
    body = "营业收入1.2亿元。\n" * 100
    monkeypatch.setattr(source_module._HELD, "budget", base + 3 * len(body))
    filings = []
    for i in range(5):
        path = tmp_path / f"60000{i}.SH.txt"
        path.write_text(body, encoding="utf-8")
        filings.append(Filing(path=path))
    keys = [f.digest() for f in filings]
    assert source_module.held_chars() <= base + 3 * len(body)  # never more than the budget
    assert all(decoded[f"60000{i}.SH.txt"] == 1 for i in range(5))
    assert [f.digest() for f in filings] == keys  # digests outlive the text: nothing read for them
    assert sum(decoded.values()) == 5
    for f in filings[2:]:
        assert f.read() == body  # the three most recent are still held
    assert sum(decoded.values()) == 5
    assert filings[0].read() == body  # the oldest was dropped: read again, the same text
    assert decoded["600000.SH.txt"] == 2
    filings[0].release()
    assert filings[0].read() == body and decoded["600000.SH.txt"] == 3


def test_an_unreferenced_filing_frees_its_text_and_an_inline_cell_costs_nothing(
    tmp_path: Path,
) -> None:
    gc.collect()
    base = source_module.held_chars()
    path = tmp_path / "600519.SH.txt"
    path.write_text(TEXT * 50, encoding="utf-8")
    filing = Filing(path=path)
    filing.read()
    assert source_module.held_chars() == base + len(TEXT) * 50
    inline = Filing(text=TEXT)
    assert inline.read() is inline.text and inline.digest() == hashlib.sha256(TEXT.encode()).hexdigest()
    assert source_module.held_chars() == base + len(TEXT) * 50
    del filing
    gc.collect()
    assert source_module.held_chars() == base


def test_equal_filings_name_the_same_document_whatever_each_has_read(tmp_path: Path) -> None:
    path = tmp_path / "600519.SH.txt"
    path.write_text(TEXT, encoding="utf-8")
    read, fresh = Filing(path=path), Filing(path=path)
    read.read()
    assert read == fresh and hash(read) == hash(fresh) and Filing(text=TEXT) != read
    assert "_state" not in repr(read)
