"""Rebuild ../shared/data/real-yanbao-reports from a fetched git mirror (the texts are never committed).

A pool of real broker research for blind held-out rounds, of a kind the news pools lack: whole sell-side
reports (industry reports, company initiations and results notes from A-share brokers, 2015-2021) as the
text a PDF extractor pulled out of them, one JSON file per report (`source_content`), committed by
Qznan/yanbao_indicator_extract for five industries (electronics, blood products, medical devices, medical
aesthetics, pharmaceuticals). The script pins the commit and the tree that holds every report, and the rule
that selects from them: every report that prints a figure next to a label the reader knows, each text once.
The selection is checked against a pinned count and a digest over every text's id and hash, so a rebuild
either gives the same texts byte for byte or stops. Ids are `ybr-<industry>-<source id>`, the id the
repository's own `source_id_2_pdf_name_map.jsonl` gives the report's file, so a label names one report.

    python bench/real_yanbao_reports.py [--mirrors ../.mirror] [--git owner/name=DIR] \
        [--out ../shared/data/real-yanbao-reports]
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator
from pathlib import Path

from real_fincuge_news import FIGURE_NEAR_LABEL, write_checked
from real_git_rebuild import _git, _git_dir

ROOT = Path(__file__).resolve().parents[1]
COLLECTION = "real-yanbao-reports"
REPO = "Qznan/yanbao_indicator_extract"
COMMIT = "801a30fdb96406402782147c85319731561320d7"
BASE, BASE_TREE = "data/yanbao", "188de8aa1f41dbaf9a975a8728b816c4badaca4d"
# One folder per industry, each with raw_json_data/<title>.pdf.json and the id map; read in this order.
INDUSTRIES = ("dianzi", "xuezhipin", "yiliaoqixie", "yimei", "yiyao")
ID_MAP = "source_id_2_pdf_name_map.jsonl"
EXPECTED_COUNT = 369
EXPECTED_DIGEST = "cca3f0712c347577b090ea3d7c8b40b56e0bed7e12ee4292f27f43825b83075a"

Industry = tuple[bytes, dict[str, bytes]]
"""One industry folder as read from git: the id map's bytes and each report file's bytes by file name."""


def reports(industry: str, folder: Industry) -> Iterator[tuple[str, str]]:
    """Each report of one folder in its source-id order, as (id, text); a file the map does not name is
    left out, since no id would name it."""
    id_map, files = folder
    names = json.loads(id_map.decode("utf-8"))
    for source_id in sorted(names, key=int):
        data = files.get(names[source_id])
        if data is None:
            continue
        text = json.loads(data.decode("utf-8")).get("source_content") or ""
        yield f"ybr-{industry}-{int(source_id):03d}", text


def select(corpus: dict[str, Industry]) -> list[tuple[str, bytes]]:
    """Every report that holds a figure beside a known label, each text once (the first id that has it)."""
    seen: set[bytes] = set()
    out = []
    for industry in INDUSTRIES:
        if industry not in corpus:
            continue
        for text_id, text in reports(industry, corpus[industry]):
            data = text.encode("utf-8")
            if data in seen or not FIGURE_NEAR_LABEL.search(text):
                continue
            seen.add(data)
            out.append((text_id, data))
    return out


def _tree(git_dir: Path, treeish: str) -> dict[str, str]:
    """Name -> blob id of one git tree's plain files (`ls-tree -z`, so any file name reads back whole)."""
    out = {}
    for entry in _git(git_dir, "ls-tree", "-z", treeish).decode("utf-8").split("\0"):
        if entry:
            meta, name = entry.split("\t", 1)
            mode, kind, oid = meta.split()
            if kind == "blob":
                out[name] = oid
    return out


def read_corpus(git_dir: Path) -> dict[str, Industry]:
    """Every industry folder at the pinned commit; stop when the folder tree is not the pinned one."""
    named = _git(git_dir, "rev-parse", f"{COMMIT}:{BASE}").decode().strip()
    if named != BASE_TREE:
        raise SystemExit(f"{REPO} {COMMIT}:{BASE} is {named}, not the pinned {BASE_TREE}")
    corpus = {}
    for industry in INDUSTRIES:
        folder = f"{COMMIT}:{BASE}/{industry}"
        id_map = _git(git_dir, "cat-file", "blob", _tree(git_dir, folder)[ID_MAP])
        files = {
            name: _git(git_dir, "cat-file", "blob", oid)
            for name, oid in _tree(git_dir, f"{folder}/raw_json_data").items()
        }
        corpus[industry] = (id_map, files)
    return corpus


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mirrors", type=Path, default=ROOT.parent / ".mirror")
    ap.add_argument("--git", action="append", default=[], help="owner/name=DIR, a clone to read instead")
    ap.add_argument("--out", type=Path, default=ROOT.parent / "shared" / "data" / COLLECTION)
    args = ap.parse_args()
    explicit = {k: Path(v) for k, v in (item.split("=", 1) for item in args.git)}
    texts = select(read_corpus(_git_dir(REPO, args.mirrors, explicit)))
    got = write_checked(args.out, texts, EXPECTED_COUNT, EXPECTED_DIGEST)
    (args.out / "PROVENANCE.md").write_text(
        f"# {COLLECTION}\n\nReal A-share broker research reports (the text a PDF extractor pulled out of "
        f"each, the `source_content` of one JSON file per report) from {REPO} at commit `{COMMIT}`, folder "
        f"`{BASE}` (tree `{BASE_TREE}`), industries {', '.join(INDUSTRIES)}, cut byte for byte by "
        "bench/real_yanbao_reports.py: every report of `<industry>/raw_json_data/` that prints a figure "
        f"beside a known label (`{FIGURE_NEAR_LABEL.pattern}`), once, named by the id `<industry>/{ID_MAP}` "
        "gives its file. Nothing here was written by the lmscreen team; the labels are in "
        f"bench/data/real/labels.jsonl.\n\n{len(texts)} texts, selection digest `{got}`.\n",
        encoding="utf-8",
    )
    print(f"{len(texts)} texts in {args.out / 'reports'}")


if __name__ == "__main__":
    main()
