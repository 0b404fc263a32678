"""The stored expectation of what `screen` writes: the runner may change inside, its outputs may not.

Two runs are pinned byte for byte (results.csv whole; results.jsonl with each row's `llm.seconds` removed,
the only per-run timing in it):

- `example`: the shipped example pool on the real bundled model (embedded engine), with what the model's
  sampling alone decides masked (`stable_outputs(sampled=True)`: it differs by CPU);
- `pool1000`: a generated 1,000-row pool with filings for a third of its rows (files in a folder and inline
  cells), answered by a real HTTP server on 127.0.0.1 that answers every question with the first id the
  schema offers for each figure and a fixed reason: deterministic, fast, and the whole runner path (keys,
  checkpoint, resume, merge, writers) is the real one.

`python tests/golden.py --write` regenerates the expectation (only when a change of outputs is meant:
say why in the commit).
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import re
from pathlib import Path

from chat_server import ChatServerProcess, serve
from inproc import run_lmscreen

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = Path(__file__).resolve().parent / "data" / "golden"
EXAMPLE_POOL = ROOT / "examples" / "pool.csv"
EXAMPLE_REPORTS = ROOT / "examples" / "reports"
SERVED_MODEL = "golden-model"


# -- the generated 1,000-row pool ---------------------------------------------------------------------

INDUSTRIES = ("白酒", "银行", "光伏设备", "电池", "房地产开发", "医疗器械", "半导体", "汽车整车")
NAMES = ("华", "中", "海", "新", "天", "金", "宏", "安", "远", "东", "恒", "盛")


def _filing(rng: random.Random, code: str, name: str) -> str:
    """A short filing in one of several shapes: plain labels (settled by the label reader), a table, and
    ambiguous sentences where the model is asked to choose."""
    year = rng.choice((2023, 2024))
    rev = round(rng.uniform(1, 900), 2)
    profit = round(rng.uniform(-20, 120), 2)
    margin = round(rng.uniform(5, 70), 2)
    roe = round(rng.uniform(-5, 30), 2)
    shape = rng.randrange(4)
    if shape == 0:
        return (
            f"{name}（{code}）{year}年年度报告摘要。报告期内，公司实现营业收入{rev}亿元，同比增长"
            f"{round(rng.uniform(-30, 40), 2)}%；归属于上市公司股东的净利润{profit}亿元；毛利率{margin}%；"
            f"加权平均净资产收益率{roe}%。"
        )
    if shape == 1:
        return (
            f"{year}年半年度报告\n主要会计数据和财务指标\n单位：万元\n"
            f"项目 | 本报告期 | 上年同期 | 本报告期比上年同期增减\n"
            f"营业收入 | {rev * 1e4:.2f} | {rev * 0.9e4:.2f} | 11.11%\n"
            f"归属于上市公司股东的净利润 | {profit * 1e4:.2f} | {profit * 0.8e4:.2f} | 25.00%\n"
        )
    if shape == 2:
        return (
            f"{name}发布{year}年三季报。前三季度收入{rev}亿元，上年同期{round(rev * 0.85, 2)}亿元；"
            f"利润约{profit}亿元，其中分部利润{round(abs(profit) / 3, 2)}亿元。预计{year + 1}年收入"
            f"{round(rev * 1.2, 2)}亿元。"
        )
    return (
        f"研报点评：{name}{year}年经营稳健，营收{rev}亿元，归母净利{profit}亿元，综合毛利率{margin}%，"
        f"ROE {roe}%，当前市盈率(TTM){round(rng.uniform(5, 80), 2)}倍。"
    )


def write_pool1000(folder: Path) -> tuple[Path, Path]:
    """The pool file and its filings folder (made fresh each time: the same bytes for the same seed)."""
    rng = random.Random(21)
    reports = folder / "reports"
    reports.mkdir(parents=True, exist_ok=True)
    lines = ["代码,名称,行业,市盈率TTM,净资产收益率,财报摘要"]
    for i in range(1000):
        code = f"{600000 + i}" if i % 2 else f"{i + 1:06d}"
        suffix = ".SH" if i % 2 else ".SZ"
        name = ("ST" if i % 97 == 0 else "") + rng.choice(NAMES) + rng.choice(NAMES) + "股份"
        pe = "" if i % 31 == 0 else ("亏损" if i % 29 == 0 else f"{rng.uniform(-10, 120):.2f}")
        roe = "" if i % 37 == 0 else f"{rng.uniform(-8, 35):.2f}"
        inline = ""
        if i % 3 == 0:
            (reports / f"{code}{suffix}.txt").write_text(_filing(rng, code + suffix, name), encoding="utf-8")
        elif i % 7 == 0:
            inline = '"' + _filing(rng, code + suffix, name).replace('"', '""').replace("\n", " ") + '"'
        lines.append(f"{code},{name},{rng.choice(INDUSTRIES)},{pe},{roe},{inline}")
    pool = folder / "pool1000.csv"
    pool.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return pool, reports


# -- the answering server -----------------------------------------------------------------------------


def _answer(request: dict) -> dict:
    """The first id the schema allows for each figure, and a fixed reason: what a careful, dull model says."""
    fmt = request.get("response_format") or {}
    schema = (fmt.get("json_schema") or {}).get("schema") or fmt.get("schema") or {}
    answer: dict = {}
    for name, prop in (schema.get("properties") or {}).items():
        if name == "reason":
            answer[name] = "经营稳健，盈利能力保持较好水平"
            continue
        ids = [i for option in prop.get("anyOf", [prop]) for i in option.get("enum") or []]
        answer[name] = ids[0] if ids else None
    return answer


class AnsweringServer(ChatServerProcess):
    """The answering server in its own process on a free loopback port."""

    def __init__(self) -> None:
        super().__init__(Path(__file__).resolve(), "serve")


# -- running and comparing ----------------------------------------------------------------------------


def screen(*args: str) -> None:
    """`lmscreen screen ARGS --quiet` in this process (tests/inproc.py): the same entry point as a child."""
    proc = run_lmscreen(["screen", *args, "--quiet"])
    if proc.returncode != 0:
        raise AssertionError(f"screen exit {proc.returncode}\n{proc.stderr}")


def run_example(out: Path) -> Path:
    screen(str(EXAMPLE_POOL), "--reports", str(EXAMPLE_REPORTS), "--out", str(out))
    return out


def run_pool1000(work: Path, out: Path, base_url: str) -> Path:
    pool, reports = write_pool1000(work)
    screen(
        str(pool), "--reports", str(reports), "--out", str(out), "--engine", "openai",
        "--base-url", base_url, "--model", SERVED_MODEL, "--concurrency", "8",
    )  # fmt: skip
    return out


SAMPLED = "<sampled>"
_REJECTED_RE = re.compile(r"reason_rejected:[a-z_]+")
_LAST_CELL_RE = re.compile(rb",[0-9]*(?=\r?$)", re.MULTILINE)


def stable_outputs(out: Path, sampled: bool = False) -> dict[str, bytes]:
    """results.csv as written; results.jsonl with each row's `llm.seconds` (wall time) taken out.

    With `sampled` (the real model's run), what the model's sampling alone decides is masked: its raw answer,
    the sentence it wrote, why that sentence was rejected and how many tokens it took. llama.cpp's kernels
    differ by CPU (its wheel is built for the machine), so the same greedy request samples other tokens on
    another CPU; everything the runner, the reader and the rules write stays pinned byte for byte.
    """
    lines = []
    for line in (out / "results.jsonl").read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        if isinstance(row.get("llm"), dict):
            row["llm"].pop("seconds", None)
            if sampled:
                for key in ("raw", "model_reason", "finish_reason"):
                    if row["llm"].get(key) is not None:
                        row["llm"][key] = SAMPLED
        if sampled:
            if row.get("completion_tokens") is not None:
                row["completion_tokens"] = SAMPLED
            if isinstance(row.get("diagnostics"), str):
                row["diagnostics"] = _REJECTED_RE.sub(f"reason_rejected:{SAMPLED}", row["diagnostics"])
        lines.append(json.dumps(row, ensure_ascii=False, sort_keys=False))
    csv_bytes = (out / "results.csv").read_bytes()
    if sampled:  # completion_tokens is the last column
        head, _, body = csv_bytes.partition(b"\n")
        csv_bytes = head + b"\n" + _LAST_CELL_RE.sub(b"," + SAMPLED.encode(), body)
    return {
        "results.csv": csv_bytes,
        "results.jsonl": ("\n".join(lines) + "\n").encode(),
    }


def expected(name: str) -> dict[str, bytes]:
    return {
        f: gzip.decompress((GOLDEN / name / f"{f}.gz").read_bytes()) for f in ("results.csv", "results.jsonl")
    }


def _write(name: str, outputs: dict[str, bytes]) -> None:
    (GOLDEN / name).mkdir(parents=True, exist_ok=True)
    for f, data in outputs.items():
        (GOLDEN / name / f"{f}.gz").write_bytes(gzip.compress(data, mtime=0))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cmd", choices=("serve", "write"))
    args = parser.parse_args(argv)
    if args.cmd == "serve":
        serve(lambda request: json.dumps(_answer(request), ensure_ascii=False), SERVED_MODEL)
        return
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        _write("example", stable_outputs(run_example(work / "example"), sampled=True))
        with AnsweringServer() as server:
            _write("pool1000", stable_outputs(run_pool1000(work / "gen", work / "pool1000", server.base_url)))
    print(f"wrote {GOLDEN}")


if __name__ == "__main__":
    main()
