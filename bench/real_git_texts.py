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
Ya-dongLi/CFSC, the Chinese Financial Sentiment Corpus (Chinese financial news flashes and briefs of
2017-2022, mostly 2022 wire digests of announcements: results, 业绩预告, 业绩快报, regional statistics): its
NER `json格式` test and validation sets ({text, labels}: the `text`) and its ABSA `json格式` test set
({sentence, term, …}: the `sentence`, cut before its trailing newline).

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

_CFSC = ("Ya-dongLi/CFSC", "3f0226161cf5266b87438c98a30418f65d5cd064")
CFSC_NER_TEST = Blob(
    *_CFSC,
    "CFSC-NER/json格式/test.json",
    "7a531004da1ad0619759fb37cd3689151d72b139",
    "CFSC NER test set: [{text, labels}] financial news briefs",
)
CFSC_NER_VAL = Blob(
    *_CFSC,
    "CFSC-NER/json格式/val.json",
    "4370cf36e0e950bc5ceec11e60d2c4fca4c08ad7",
    "CFSC NER validation set: [{text, labels}] financial news briefs",
)
CFSC_ABSA_TEST = Blob(
    *_CFSC,
    "CFSC-ABSA/json格式/test.txt",
    "b5a61baac73d5c1bf61bca1fa8e0bfd42e141c94",
    "CFSC ABSA test set (a JSON list despite its name): [{sentence, term, polarity, …}] financial news",
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
    Text(
        "cfsc-absa-test-6596", CFSC_ABSA_TEST, (6596, "sentence"), 0, 67,
        "0dc6f6a43b77052a860ae38a6c784d1aeae31de78287beff69af43c6179ded39",
    ),
    Text(
        "cfsc-ner-val-1026", CFSC_NER_VAL, (1026, "text"), 0, 24,
        "e252ebd5e7d0c40ccd1dd38e2dfc5d0418ef30cc678f2f5fc1d3c8664a7d4c6d",
    ),
    Text(
        "cfsc-absa-test-6065", CFSC_ABSA_TEST, (6065, "sentence"), 0, 86,
        "6ed312413d0817dbe160b6fb69cc3855f75b5d17011f50e3001e9e0ca46237ef",
    ),
    Text(
        "cfsc-absa-test-2592", CFSC_ABSA_TEST, (2592, "sentence"), 0, 52,
        "cf43768039abb3959c361612fc55f3234404063d5c44c81d9eea4f990b9fa394",
    ),
    Text(
        "cfsc-absa-test-4882", CFSC_ABSA_TEST, (4882, "sentence"), 0, 58,
        "b34e1da5037a7da3951301cd602e3c2f2db24e275b22489d3c932ba866bca178",
    ),
    Text(
        "cfsc-ner-test-0387", CFSC_NER_TEST, (387, "text"), 0, 193,
        "9b22579439a7de7514982ccb08dc9ff6d1a890be0b196ef60806c4404867d288",
    ),
    Text(
        "cfsc-absa-test-7984", CFSC_ABSA_TEST, (7984, "sentence"), 0, 158,
        "141bfbd78314445687c593877ab30671e9cb1a44710a673a0e97a418e00a9813",
    ),
    Text(
        "cfsc-absa-test-5406", CFSC_ABSA_TEST, (5406, "sentence"), 0, 84,
        "1fe2c8cc7314ec9e382ceb562482adf94889079fee39e1b49c6c5c4b8d871fd2",
    ),
    Text(
        "cfsc-absa-test-0221", CFSC_ABSA_TEST, (221, "sentence"), 0, 31,
        "3058d8b9543ef1a71da1eaa70e737df7ad3ae95c38421856b0492f44c6e352a8",
    ),
    Text(
        "cfsc-absa-test-6877", CFSC_ABSA_TEST, (6877, "sentence"), 0, 164,
        "9ec2ea077a8b4b7dfa732aae7b100f12fd4ff6fc396705cda5922f77c01678ae",
    ),
    Text(
        "cfsc-absa-test-0316", CFSC_ABSA_TEST, (316, "sentence"), 0, 61,
        "eb8957407f3a631daf3d90e57272e529af9708a5363cc7855eb8eb3210983642",
    ),
    Text(
        "cfsc-absa-test-1559", CFSC_ABSA_TEST, (1559, "sentence"), 0, 233,
        "f1576e07b83a4f3707694fe94edb6bb2325283af0f6216da25cf3cf9e8b319d4",
    ),
    Text(
        "cfsc-absa-test-5154", CFSC_ABSA_TEST, (5154, "sentence"), 0, 88,
        "1168c92f8650c35a0c78c5b1f0fe03d8fd521335c91a18ad45edce34478a051c",
    ),
    Text(
        "cfsc-absa-test-0190", CFSC_ABSA_TEST, (190, "sentence"), 0, 200,
        "1df1f5faf04e6af6cc5d3a5716c222c75ff06bb552b4d4982c6b663102184bd9",
    ),
    Text(
        "cfsc-absa-test-2105", CFSC_ABSA_TEST, (2105, "sentence"), 0, 148,
        "9e9eb9ffa5c6ae8cd361562d9c91f373b42c7d11c8f09d7648f6a81b3db77f41",
    ),
    Text(
        "cfsc-absa-test-4251", CFSC_ABSA_TEST, (4251, "sentence"), 0, 74,
        "546c0edb0044f62344afd69ce94328a134a6aea1a11f5b154982975abf3b21dc",
    ),
    Text(
        "cfsc-ner-test-0733", CFSC_NER_TEST, (733, "text"), 0, 63,
        "a5a44269a5a9bf8bdcfe111795e92cbb132196d99e2dc871aeb0cb765e332833",
    ),
    Text(
        "cfsc-absa-test-0899", CFSC_ABSA_TEST, (899, "sentence"), 0, 129,
        "1f89688f1f011d745a10c355e677eb788cb63b459095687d8977a72cf34745e8",
    ),
    Text(
        "cfsc-ner-val-1008", CFSC_NER_VAL, (1008, "text"), 0, 27,
        "0a524177b0c8fd2d20717c9bcbd89dafa2fbc1b4aa470dd9b862c1e4a2194db6",
    ),
    Text(
        "cfsc-ner-val-0611", CFSC_NER_VAL, (611, "text"), 0, 118,
        "bfd483dd282048cee6f3eff41a8f9618c80def40bd22510663e3426ecccd11a5",
    ),
    Text(
        "cfsc-ner-test-0865", CFSC_NER_TEST, (865, "text"), 0, 93,
        "a2e002080e01e2afc7da1c5e7a8a6709cb14a6d4a0c8a53a12271e59e5af8590",
    ),
    Text(
        "cfsc-absa-test-4448", CFSC_ABSA_TEST, (4448, "sentence"), 0, 35,
        "0f67f265bda4ef9adb236eb18142e573409662b3264792114e5dc2809cf60b87",
    ),
    Text(
        "cfsc-absa-test-6062", CFSC_ABSA_TEST, (6062, "sentence"), 0, 102,
        "ff958112bd42f62b39a382f0ed139ebd802337a8113a69e6f99ab20fb030fae1",
    ),
    Text(
        "cfsc-absa-test-2765", CFSC_ABSA_TEST, (2765, "sentence"), 0, 136,
        "7624e7e553055f5ef69aecc18366d2e7c781f97c8cbc528bdb6eda2a4ec0856e",
    ),
    Text(
        "cfsc-absa-test-4905", CFSC_ABSA_TEST, (4905, "sentence"), 0, 232,
        "6d330a25acc96cfe6b4dc28564b4de6a76be053b511da33907e24533448a561f",
    ),
    Text(
        "cfsc-absa-test-2090", CFSC_ABSA_TEST, (2090, "sentence"), 0, 167,
        "accde8fa2fb9b0f2bc48a0624e2eed65e48b03edbf6afe3df8e6d9863a840886",
    ),
    Text(
        "cfsc-absa-test-0709", CFSC_ABSA_TEST, (709, "sentence"), 0, 298,
        "2ab6ff27e4f4541b199745e63685344623d6a8d3000dfe4e7af45602cf021ef7",
    ),
    Text(
        "cfsc-absa-test-7343", CFSC_ABSA_TEST, (7343, "sentence"), 0, 50,
        "fdeb9bdd0f00c2a29488fc823a6476b3b8079cdbf93c58f2db3ea1016a487a7b",
    ),
    Text(
        "cfsc-absa-test-3591", CFSC_ABSA_TEST, (3591, "sentence"), 0, 132,
        "87059fd0fdafda51589d7215d09c05d6b7f496f42de7d41a48cb67a56e83dba1",
    ),
    Text(
        "cfsc-absa-test-3895", CFSC_ABSA_TEST, (3895, "sentence"), 0, 300,
        "ca6f135d096c831984c8a989072b86258718c9681795f7ae5ff80329777cbbaa",
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
