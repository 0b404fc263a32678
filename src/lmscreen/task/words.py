"""Chinese word boundaries, for naming a part by whole words.

The reader decides *whether* a clause names a part by blanking filler words (公司, 实现, 数据, 中 …) and
looking at what is left; it must not also *name* the part from what is left, because a filler can sit inside
a word (`数据中心业务` leaves `心业务`, `新能源业务` leaves `能源业务`). jieba's dictionary knows where the
words end, so a name's span is widened to the whole words it cuts into.
"""

from __future__ import annotations

import logging
from functools import lru_cache


@lru_cache(maxsize=1)
def _tokenizer():  # noqa: ANN202 - jieba's Tokenizer, imported lazily (its dictionary loads in ~1 s)
    import jieba

    jieba.setLogLevel(logging.WARNING)
    tokenizer = jieba.Tokenizer()
    tokenizer.initialize()
    return tokenizer


def whole_words(text: str, start: int, end: int) -> tuple[int, int]:
    """[start, end) of `text` widened to the words it starts or ends inside (dictionary words, no guessing
    of unknown ones: a cut through an unknown run of characters is left as it is)."""
    if start >= end:
        return start, end
    for word, lo, hi in _tokenizer().tokenize(text, HMM=False):
        if lo < start < hi and not word.isspace():
            start = lo
        if lo < end < hi and not word.isspace():
            end = hi
    return start, end
