"""Which model reasons may be shown, and the summary shown instead when the model's is not a sentence.

Why: the report shows the reason as the stock's one-line story. A weak model writes fragments
(`同比增长`), loops (`报告期末,不良贷款率,拨备覆盖率,报告期末,…`, `月 月 月 月`), copies of its own prompt or
of the report's opening clause; shown as a reason, each looks like a finding. A model reason reaches the
results only when it passes every check here; otherwise the row gets a summary built from facts the tool
checked itself (the pool's ROE / PE, the rules that fired, the grounded figures), marked `reason_source =
rules` so a reader knows which kind it is.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping

from lmscreen.task.schema import CHOICE_REASON_MAX_CHARS
from lmscreen.task.vocabulary import INJECTION_RE

MIN_MEANINGFUL_CHARS = 8
"""Fewer CJK/letter characters than this is a fragment (`同比增长`, `营业收入`)."""
COPY_RUN = 10
"""A run this long shared with the report's opening clause is a copy of it, not a summary."""
COPY_SHARE = 0.6
"""…as is a shorter reason that is mostly one run of the report."""

_OPENING_RE = re.compile(r"[。；;!?！？\n]")
OPENING_CHARS = 60
"""The report's opening clause (its title and first sentence): a reason that copies it says nothing."""
_NOT_WORD_RE = re.compile(r"[^\u4e00-\u9fffA-Za-z0-9]")
_MEANINGFUL_RE = re.compile(r"[\u4e00-\u9fffA-Za-z]")
_CJK_RE = re.compile(r"[\u4e00-\u9fff]")
_PUNCT_RUN_RE = re.compile(r"[,，、;；:：\s]")
_LIST_SPLIT_RE = re.compile(r"[,，、;；]")
PROMPT_RUN = 5
"""A run this long shared with the instructions (`不选预测值`) is an echo of the prompt."""
_SPACED_CJK_RE = re.compile(r"[\u4e00-\u9fff][ \t\u3000]+[\u4e00-\u9fff]")
"""Chinese is written without spaces between characters: `股票 发行的报告` is a run of tokens, not prose."""
_TEMPLATE_WORDS_RE = re.compile(
    r"股票代码|股票名称|REPORT|report|JSON|json|code|reason|null|revenue|net_profit|gross_margin|pe_ttm|编号"
)
_PREDICATE_RE = re.compile(
    r"[增降升减长稳持推保实现扩提改善承受亏盈恢复回落下滑领先拓展优化波动压力较承压转放缓加快]|"
    r"(?:grew|fell|rose|declined|improv|remain|stay|expand|face|pressure|recover|growth|decline|loss|profit)",
    re.IGNORECASE,
)


def _squeeze(text: str) -> str:
    """Text without blanks and punctuation, so a copy is found whatever the model did to the commas."""
    return _NOT_WORD_RE.sub("", text)


def longest_common_run(a: str, b: str) -> int:
    """Length of the longest substring `a` and `b` share (`a` is short: a reason of <= 30 characters)."""
    best = 0
    for i in range(len(a)):
        for j in range(i + best + 1, len(a) + 1):
            if a[i:j] in b:
                best = j - i
            else:
                break
    return best


def _loops(text: str) -> bool:
    """A repeated piece: any 2+-character segment between separators seen twice, or a bigram three times,
    or a string of mostly one or two characters (`月 月 月`)."""
    parts = [p for p in _PUNCT_RUN_RE.split(text) if p]
    if len(parts) >= 2 and any(n >= 2 for p, n in Counter(parts).items() if len(p) >= 2):
        return True
    squeezed = _PUNCT_RUN_RE.sub("", text)
    bigrams = Counter(squeezed[i : i + 2] for i in range(len(squeezed) - 1))
    if bigrams and bigrams.most_common(1)[0][1] >= 3:
        return True
    return len(squeezed) >= 6 and len(set(squeezed)) <= len(squeezed) // 3


def reason_problem(reason: str, report_text: str, instructions: str) -> str | None:
    """Why `reason` may not be shown (`fragment`, `cut_off`, `loop`, `copies_prompt`, `injection`,
    `copies_report`, `not_a_sentence`), or None when it is a sentence about the company.

    A reason as long as the schema allows was stopped by the grammar, not finished by the model
    (`…营业收益率, 不选预`): it ends mid-word, so it is `cut_off`.

    Copying a later sentence of the report about the business is a fair one-line summary; copying its
    opening clause (`某某2024年年度报告摘要：报告期内公司实现营业收入…`) or an order planted in it is not.
    """
    text = "".join(reason.split())
    if len(_MEANINGFUL_RE.findall(text)) < MIN_MEANINGFUL_CHARS:
        return "fragment"
    if _loops(reason):
        return "loop"
    if len(reason) >= CHOICE_REASON_MAX_CHARS:
        return "cut_off"  # the answer ran into the length cap: it stops mid-word
    if len([p for p in _LIST_SPLIT_RE.split(reason) if p.strip()]) >= 3:
        return "not_a_sentence"  # a list of phrases (`五粮液,公司实现营业总收入,同比增长,…`)
    if longest_common_run(text, instructions) >= PROMPT_RUN or _TEMPLATE_WORDS_RE.search(text):
        return "copies_prompt"
    if INJECTION_RE.search(text):
        return "injection"
    opening = _squeeze(_OPENING_RE.split(report_text.strip(), maxsplit=1)[0][:OPENING_CHARS])
    run = longest_common_run(_squeeze(text), opening)
    if run >= COPY_RUN or run >= COPY_SHARE * len(_squeeze(text)):
        return "copies_report"
    if _SPACED_CJK_RE.search(reason):
        return "not_a_sentence"
    if _CJK_RE.search(text) and not _PREDICATE_RE.search(text):
        return "not_a_sentence"
    if len(_PUNCT_RUN_RE.findall(reason)) > len(text) // 3:
        return "not_a_sentence"  # a list of words, not a clause
    return None


def _money(value: float) -> str:
    for factor, unit in ((1e8, "亿元"), (1e4, "万元")):
        if abs(value) >= factor:
            return f"{value / factor:.2f}{unit}"
    return f"{value:.0f}元"


def _number(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".")


def rules_summary(
    roe: float | None,
    pe: float | None,
    rules_fired: str | None,
    figures: Mapping[str, float | None],
) -> str:
    """A reason built only from checked facts: the pool's ROE / PE, the rules that fired, grounded figures.

    e.g. `ROE 36.02%，PE 20.5倍；营收1741.44亿元，归母净利862.28亿元，毛利率91.93%`.
    """
    head = [
        f"ROE {_number(roe)}%" if roe is not None else "ROE 缺失",
        f"PE {_number(pe)}倍" if pe is not None and pe > 0 else "PE 亏损或缺失",
    ]
    fired = [part.split("(", 1)[0] for part in (rules_fired or "").split(";") if part]
    if fired:
        head.append("触发" + "、".join(fired))
    tail = []
    if figures.get("revenue") is not None:
        tail.append(f"营收{_money(figures['revenue'] or 0.0)}")
    profit = figures.get("net_profit")
    if profit is not None:
        tail.append(f"归母净亏损{_money(-profit)}" if profit < 0 else f"归母净利{_money(profit)}")
    if figures.get("gross_margin") is not None:
        tail.append(f"毛利率{_number(figures['gross_margin'] or 0.0)}%")
    summary = "，".join(head)
    return summary + ("；" + "，".join(tail) if tail else "")
