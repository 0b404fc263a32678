"""Rebuild ../shared/data/real-fincuge-news from a fetched git mirror (the texts are never committed).

A second, larger pool of real Chinese financial news for blind held-out rounds: every news article of
BBT-FinCUGE's finqa and finna sets (evaluation and problem lists) that prints a figure next to a label the
reader knows (营业收入, 净利润, 毛利率 …), less the few already pinned by bench/real_git_texts.py. Unlike
that script, which pins hand-picked excerpts one by one, this one pins the four blobs and the rule that
selects from them; the selection is checked against a pinned count and a digest over every text's id and
hash, so a rebuild either gives the same texts byte for byte or stops. Ids are `fcn-<list>-<index>` (the
first list item that carries the article: `qe`/`qp` finqa evaluation/problem, `ne`/`np` finna
evaluation/problem), so a label names one article wherever else it appears.

    python bench/real_fincuge_news.py [--mirrors ../.mirror] [--git owner/name=DIR] \
        [--out ../shared/data/real-fincuge-news]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
from collections.abc import Iterator
from pathlib import Path

from real_git_rebuild import _git_dir, read_pinned
from real_git_texts import TEXTS as PINNED_EXCERPTS

ROOT = Path(__file__).resolve().parents[1]
COLLECTION = "real-fincuge-news"
REPO = "ssymmetry/BBT-FinCUGE-Applications"
COMMIT = "654d132de56e85075700358baf558ab4d0cd986f"
# (short name, path, blob, what an item is)
LISTS = (
    ("qe", "FinCUGE_Publish/finqa/eval_list.json", "376cbccd41fc484ecb4786e6c6158e99f4b5ed1b",
     "[question？article, answer]"),
    ("qp", "FinCUGE_Publish/finqa/problem_list.json", "a255b0f3329d83f81889be41d99db0924bfc4abd",
     "{id, input: question？article}"),
    ("ne", "FinCUGE_Publish/finna/eval_list.json", "1f2d431ccf1d2a7e95c6869816f437301f158384",
     "[headline, article]"),
    ("np", "FinCUGE_Publish/finna/problem_list.json", "2b7b7fb0db997d0eff8f4108ddc5c7edc7bc1c02",
     "{id, input: article}"),
)  # fmt: skip
# A figure beside a label the reader knows: the selection rule (changing it changes the pins below).
FIGURE_NEAR_LABEL = re.compile(
    r"(营业收入|营收|净利润|净利|毛利率|归母|净资产收益率|ROE|市盈率)[^。\n]{0,30}\d"
)
EXPECTED_COUNT = 902
EXPECTED_DIGEST = "2444b4987918e1151b4530533e680b6cfce38ef9d3a0b7cee85d49231e88bf6e"


def articles(short: str, data: bytes) -> Iterator[tuple[int, str]]:
    """Each item's article: a finqa item's text after its question's first `？`, a finna item's news."""
    items = json.loads(data.decode("utf-8"))
    for index, item in enumerate(items):
        if short in ("qe", "qp"):
            text = item[0] if short == "qe" else item["input"]
            head, mark, article = text.partition("？")
            if not mark:
                continue
        else:
            article = item[1] if short == "ne" else item["input"]
        yield index, article


def select(blobs: dict[str, bytes], pinned: list[bytes]) -> list[tuple[str, bytes]]:
    """Every article that holds a figure beside a known label, once, minus any holding a pinned excerpt."""
    seen: set[bytes] = set()
    out = []
    for short, *_ in LISTS:
        for index, article in articles(short, blobs[short]):
            data = article.encode("utf-8")
            if data in seen or not FIGURE_NEAR_LABEL.search(article):
                continue
            seen.add(data)
            if any(excerpt in data for excerpt in pinned):
                continue
            out.append((f"fcn-{short}-{index:04d}", data))
    return out


def digest(texts: list[tuple[str, bytes]]) -> str:
    """One hash over every (id, text hash) in order: the whole selection, checked in one comparison."""
    h = hashlib.sha256()
    for text_id, data in texts:
        h.update(f"{text_id} {hashlib.sha256(data).hexdigest()}\n".encode())
    return h.hexdigest()


def write_checked(out: Path, texts: list[tuple[str, bytes]], count: int, pinned: str) -> str:
    """Write the selection to `out`/reports only if it is the pinned one (count and digest), and return its
    digest; any other selection stops the rebuild before a file is written."""
    got = digest(texts)
    if (len(texts), got) != (count, pinned):
        raise SystemExit(f"selected {len(texts)} texts, digest {got}; pinned {count}, {pinned}")
    (out / "reports").mkdir(parents=True, exist_ok=True)
    for text_id, data in texts:
        (out / "reports" / f"{text_id}.txt").write_bytes(data)
    return got


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mirrors", type=Path, default=ROOT.parent / ".mirror")
    ap.add_argument("--git", action="append", default=[], help="owner/name=DIR, a clone to read instead")
    ap.add_argument("--out", type=Path, default=ROOT.parent / "shared" / "data" / COLLECTION)
    args = ap.parse_args()
    explicit = {k: Path(v) for k, v in (item.split("=", 1) for item in args.git)}
    git_dir = _git_dir(REPO, args.mirrors, explicit)
    blobs = {short: read_pinned(git_dir, REPO, COMMIT, path, blob) for short, path, blob, _ in LISTS}
    pinned = []
    for text in PINNED_EXCERPTS:
        if text.src.repo == REPO:
            node = json.loads(read_pinned(git_dir, REPO, text.src.commit, text.src.path, text.src.blob))
            for key in text.key:
                node = node[key]
            pinned.append(node[text.start : text.end].encode("utf-8"))
    texts = select(blobs, pinned)
    got = write_checked(args.out, texts, EXPECTED_COUNT, EXPECTED_DIGEST)
    lists = "\n".join(
        f"- `{short}`: `{path}` (blob `{blob}`), items {what}" for short, path, blob, what in LISTS
    )
    (args.out / "PROVENANCE.md").write_text(
        f"# {COLLECTION}\n\nReal Chinese financial news articles from {REPO} at commit `{COMMIT}`, "
        "cut byte for byte by bench/real_fincuge_news.py: every article of the lists below that prints a "
        "figure beside a "
        f"known label (`{FIGURE_NEAR_LABEL.pattern}`), once, less those holding an excerpt that "
        "bench/real_git_texts.py already pins. Nothing here was written by the lmscreen team; the labels are "
        f"in bench/data/real/labels.jsonl.\n\n{lists}\n\n{len(texts)} texts, selection digest `{got}`.\n",
        encoding="utf-8",
    )
    print(f"{len(texts)} texts in {args.out / 'reports'}")


if __name__ == "__main__":
    main()
