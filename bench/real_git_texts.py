"""Rebuild ../shared/data/real-git-texts from fetched git mirrors (the texts are never committed).

Real Chinese financial news texts that public GitHub repositories carry inside their data files: each text
is one string of a JSON data file (or a character range of it), pinned below by repository, commit, path,
blob id, the JSON key path to the string, the character range [start, end) taken from it and the sha256 of
the UTF-8 bytes that range gives. The script reads the blob from the repository's git directory (a
`fetch github:owner/name` mirror or a clone passed as `--git owner/name=DIR`), checks that the pinned path
at the pinned commit still names that blob and that the excerpt hashes as pinned, and writes it to
`reports/<id>.txt` with PROVENANCE.md; any mismatch stops it. Labels of these texts are in
bench/data/real/labels.jsonl (collection `real-git-texts`).

Source so far: ssymmetry/BBT-FinCUGE-Applications, the published FinCUGE evaluation sets: `finqa` (news
articles from Sina Finance and other outlets, each after an event question the set puts before it; the
question is cut off) and `finna` (short company news briefs, the article of each summary pair).

    python bench/real_git_texts.py [--mirrors ../.mirror] [--git owner/name=DIR ...]
        [--out ../shared/data/real-git-texts]
"""

from __future__ import annotations

import argparse
import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from real_git_rebuild import _git_dir, read_pinned

ROOT = Path(__file__).resolve().parents[1]
COLLECTION = "real-git-texts"


@dataclass(frozen=True)
class Blob:
    repo: str
    commit: str
    path: str
    blob: str
    what: str


@dataclass(frozen=True)
class Text:
    id: str
    src: Blob
    key: tuple[Any, ...]
    start: int
    end: int
    sha256: str


_FINCUGE = ("ssymmetry/BBT-FinCUGE-Applications", "654d132de56e85075700358baf558ab4d0cd986f")
FINQA = Blob(
    *_FINCUGE,
    "FinCUGE_Publish/finqa/eval_list.json",
    "376cbccd41fc484ecb4786e6c6158e99f4b5ed1b",
    "FinCUGE finqa evaluation set: [question + news article, answer] pairs",
)
FINNA_EVAL = Blob(
    *_FINCUGE,
    "FinCUGE_Publish/finna/eval_list.json",
    "1f2d431ccf1d2a7e95c6869816f437301f158384",
    "FinCUGE finna evaluation set: [summary, news brief] pairs",
)
FINNA_PROBLEM = Blob(
    *_FINCUGE,
    "FinCUGE_Publish/finna/problem_list.json",
    "2b7b7fb0db997d0eff8f4108ddc5c7edc7bc1c02",
    "FinCUGE finna problem set: {id, input: news brief}",
)

TEXTS = (
    Text(
        "fincuge-finqa-0138", FINQA, (138, 0), 13, 230,
        "2e49c3690f5fabbe5b1ee4642eae631fa8516c9bb032147df931872426fe5929",
    ),
    Text(
        "fincuge-finqa-0597", FINQA, (597, 0), 23, 373,
        "b5488f2b39eeb201a97995a621934d144f2361ca065a950dd160e0cbdbe84096",
    ),
    Text(
        "fincuge-finqa-0657", FINQA, (657, 0), 18, 131,
        "012f7bcbc2cb5801a8f27f8a768a30d8a50e8d17940abdde1263e4ed226abfd2",
    ),
    Text(
        "fincuge-finqa-0700", FINQA, (700, 0), 14, 299,
        "2dc5c19163db60d8ec30e2c3dab0aa4ecdf622a27070192c2b46e3b6b881195c",
    ),
    Text(
        "fincuge-finqa-0752", FINQA, (752, 0), 13, 146,
        "e5422f88aeb4267acb9fcd511e8ac8956b4bffd1fa65ed2286fefa1a0e622d21",
    ),
    Text(
        "fincuge-finqa-0774", FINQA, (774, 0), 13, 76,
        "309ecfe4cdf7db79948e22d793a0b8e2b40457a2f02481ccccafdb979b92816e",
    ),
    Text(
        "fincuge-finqa-0935", FINQA, (935, 0), 30, 272,
        "89156e18a18dc7fa3c844e745eb3bdb49c985348e719cab8243b5dfa05232fea",
    ),
    Text(
        "fincuge-finqa-0945", FINQA, (945, 0), 14, 276,
        "bd6bdc2c5f67d59b3837fa1ba1b7409498dbef1d57686582035124fa6091ff3a",
    ),
    Text(
        "fincuge-finqa-1146", FINQA, (1146, 0), 18, 303,
        "e1e2cbfec388c715a20b7bd2e21996109d1d7feeebb6f2181a6047bb18f5f703",
    ),
    Text(
        "fincuge-finqa-1179", FINQA, (1179, 0), 23, 456,
        "e525791a43b7aaadc628034a7079c3f9ecb7f1aa6c9748b450d97aa21c7cfb40",
    ),
    Text(
        "fincuge-finqa-1237", FINQA, (1237, 0), 19, 505,
        "69ebbb296e1f12859062536f14f281ef93509e42e3287dc0ee513fa1c272d2e5",
    ),
    Text(
        "fincuge-finqa-1657", FINQA, (1657, 0), 14, 415,
        "d0e8c2ac617cc39b40f703727eba4b3d603f2c6a9e2607b60a825d66b4fb3f93",
    ),
    Text(
        "fincuge-finqa-1675", FINQA, (1675, 0), 18, 474,
        "65f757e9714b3af2c06fa9d6a6a05e404e2e285555dd0d34e96df0e0d77b8bdc",
    ),
    Text(
        "fincuge-finqa-1728", FINQA, (1728, 0), 19, 324,
        "dd1aacc696fedc4c6754a615bb30b548a5597ec32ceb5e925b7089446d87f996",
    ),
    Text(
        "fincuge-finqa-1778", FINQA, (1778, 0), 19, 112,
        "88072fd9ab6bf4a13289488036857043b7d9306652843faedec0b4598bead535",
    ),
    Text(
        "fincuge-finqa-2184", FINQA, (2184, 0), 18, 218,
        "c7329db80e719606ffea5d7130af66c1f58368c67e8877033df8dab4683e0238",
    ),
    Text(
        "fincuge-finqa-2329", FINQA, (2329, 0), 14, 330,
        "6da8857335aaae0ec44ec8ed323bb4abc1152b54c1f6e991ca2d87b781c485e8",
    ),
    Text(
        "fincuge-finna-eval-0280", FINNA_EVAL, (280, 1), 0, 141,
        "eb13606d952baa8423bb1ca1fd61d13810c5f29676d0148ab8cd3e35c7b61d32",
    ),
    Text(
        "fincuge-finna-eval-0734", FINNA_EVAL, (734, 1), 0, 65,
        "fdcb0cefc67e09836b564b75c4c19ac300ab54db5164793fe1cbf84a57829e06",
    ),
    Text(
        "fincuge-finna-eval-0806", FINNA_EVAL, (806, 1), 0, 75,
        "9c7a7ba94022189aa564b93e00d514d9421182f9101b0b9448da61ff9e51021b",
    ),
    Text(
        "fincuge-finna-eval-1158", FINNA_EVAL, (1158, 1), 0, 106,
        "14a4f05eb89e908314add86c09c08abf4d8079f296a0bb045a9eb5ee444b5dea",
    ),
    Text(
        "fincuge-finna-eval-1314", FINNA_EVAL, (1314, 1), 0, 154,
        "17857eb92e2059fce705b1c9e5d78b15ab50de73373aa8b1feb3eefd719f3bc9",
    ),
    Text(
        "fincuge-finna-eval-2232", FINNA_EVAL, (2232, 1), 0, 112,
        "5a21a680f27ce31b5a666217145b9a3651f769a244963308caeb34032d6a8396",
    ),
    Text(
        "fincuge-finna-eval-2277", FINNA_EVAL, (2277, 1), 0, 149,
        "7b682ffc2682e12fce88050b921d35745a445950efd39c21ff9edcd664327c5c",
    ),
    Text(
        "fincuge-finna-problem-1143", FINNA_PROBLEM, (1143, "input"), 0, 161,
        "fe5dfc8e45d8c704f82fe0690bc1f205c65b40daf5852a6ec7c00acffaeabdf2",
    ),
    Text(
        "fincuge-finna-problem-1229", FINNA_PROBLEM, (1229, "input"), 0, 167,
        "9583a517b85e6d6213c1e598f821453476730c85280418a063cdcea2817a6d33",
    ),
    Text(
        "fincuge-finna-problem-2408", FINNA_PROBLEM, (2408, "input"), 0, 144,
        "9d72c34fae1982451790c04f2957f4fa58b1d38e486c9ee935f47eb9c4bd07cc",
    ),
    Text(
        "fincuge-finna-problem-2183", FINNA_PROBLEM, (2183, "input"), 0, 192,
        "87c54d1f34e921adee328beb44f4db600e4a76df531f44dec26a039dc834ca3f",
    ),
    Text(
        "fincuge-finna-problem-0968", FINNA_PROBLEM, (968, "input"), 0, 220,
        "b53e0c149a24dd77b1b528f8033a1b768495b7506d125d983563cef48b13dde2",
    ),
    Text(
        "fincuge-finna-problem-2667", FINNA_PROBLEM, (2667, "input"), 0, 85,
        "813bf11a3800ebaf45f4e7440f72422f4896b38956db4b814222d313ede41f03",
    ),
)  # fmt: skip


def excerpt(text: Text, data: bytes) -> bytes:
    """The pinned excerpt of one JSON blob, as UTF-8 bytes; fail loudly when it is not the pinned one."""
    node: Any = json.loads(data.decode("utf-8"))
    for key in text.key:
        node = node[key]
    if not isinstance(node, str) or len(node) < text.end:
        where = f"{text.src.path} at {list(text.key)}"
        raise SystemExit(f"{text.id}: {where} is not a string of {text.end} or more characters")
    out = node[text.start : text.end].encode("utf-8")
    digest = hashlib.sha256(out).hexdigest()
    if digest != text.sha256:
        raise SystemExit(f"{text.id}: excerpt hashes {digest}, not the pinned {text.sha256}")
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mirrors", type=Path, default=ROOT.parent / ".mirror")
    ap.add_argument("--git", action="append", default=[], help="owner/name=DIR, a clone to read instead")
    ap.add_argument("--out", type=Path, default=ROOT.parent / "shared" / "data" / COLLECTION)
    args = ap.parse_args()
    explicit = {k: Path(v) for k, v in (item.split("=", 1) for item in args.git)}
    (args.out / "reports").mkdir(parents=True, exist_ok=True)
    blobs: dict[Blob, bytes] = {}
    entries = []
    for text in TEXTS:
        src = text.src
        if src not in blobs:
            git_dir = _git_dir(src.repo, args.mirrors, explicit)
            blobs[src] = read_pinned(git_dir, src.repo, src.commit, src.path, src.blob)
        data = excerpt(text, blobs[src])
        (args.out / "reports" / f"{text.id}.txt").write_bytes(data)
        entries.append(
            f"### {text.id}.txt\n\n- repository: {src.repo}\n- commit: `{src.commit}`\n- path: `{src.path}` "
            f"({src.what})\n- blob: `{src.blob}`\n- JSON key path: `{list(text.key)}`, characters "
            f"[{text.start}, {text.end})\n- bytes: {len(data):,}\n- sha256: `{text.sha256}`\n"
        )
    (args.out / "PROVENANCE.md").write_text(
        f"# {COLLECTION}\n\nReal Chinese financial news texts found in data files of public GitHub "
        "repositories, cut byte for byte from the pinned git blob by bench/real_git_texts.py (one JSON "
        "string, or the pinned character range of it). Nothing here was written by the lmscreen team; the "
        "labels are in bench/data/real/labels.jsonl.\n\n" + "\n".join(entries),
        encoding="utf-8",
    )
    print(f"{len(entries)} texts in {args.out / 'reports'}")


if __name__ == "__main__":
    main()
