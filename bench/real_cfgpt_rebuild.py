"""Rebuild ../shared/data/real-reports-cfgpt from a TongjiFinLab/CFGPT checkout (texts are never committed).

A second real source beside CFBenchmark (bench/real_more_rebuild.py): the CFData-sft samples in CFGPT's
`data/<task>/data.jsonl` (JSON lines with `instruction`, `input`, `output`; broker research notes, 业绩快报
notes and financial news, none of them a CFBenchmark-basic record). A label's id `cfgpt-<task>-<row>` in
bench/data/real/labels.jsonl (collection `real-reports-cfgpt`) names the task and the 0-based line; this
script writes each labelled record's `input` (and, with `--rows TASK:A-B`, further candidates) byte for
byte as UTF-8 into `reports/cfgpt-<task>-<row>.txt`, with a PROVENANCE.md naming the commit. CHECKOUT may be
a work tree or a bare git directory (read at --rev).

    python bench/real_cfgpt_rebuild.py /path/to/CFGPT [--rev HEAD] [--out ../shared/data/real-reports-cfgpt]
        [--rows summary:0-4]
"""

from __future__ import annotations

import argparse
import json
import subprocess
from pathlib import Path

from real_more_rebuild import wanted_rows

ROOT = Path(__file__).resolve().parents[1]
COLLECTION = "real-reports-cfgpt"


def _git(checkout: Path, *args: str) -> str:
    """One git command on the checkout (a work tree or a bare git directory)."""
    git_dir = checkout / ".git" if (checkout / ".git").exists() else checkout
    out = subprocess.run(["git", "--git-dir", str(git_dir), *args], capture_output=True, check=True)
    return out.stdout.decode("utf-8")


def _inputs(checkout: Path, rev: str, task: str) -> list[str]:
    """The `input` of every record of one task's data.jsonl, in line order (blank lines skipped)."""
    text = _git(checkout, "show", f"{rev}:data/{task}/data.jsonl")
    return [json.loads(line)["input"] for line in text.splitlines() if line.strip()]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("checkout", type=Path)
    ap.add_argument("--rev", default="HEAD", help="the commit to read (default HEAD)")
    ap.add_argument("--out", type=Path, default=ROOT.parent / "shared" / "data" / COLLECTION)
    ap.add_argument("--rows", action="append", default=[], help="TASK:A-B, extra candidate rows")
    args = ap.parse_args()
    commit = _git(args.checkout, "rev-parse", args.rev).strip()
    (args.out / "reports").mkdir(parents=True, exist_ok=True)
    written = 0
    for task, rows in sorted(wanted_rows(args.rows, COLLECTION).items()):
        inputs = _inputs(args.checkout, commit, task)
        for row in sorted(rows):
            if row < len(inputs) and inputs[row]:
                target = args.out / "reports" / f"cfgpt-{task}-{row:04d}.txt"
                target.write_bytes(inputs[row].encode("utf-8"))
                written += 1
    (args.out / "PROVENANCE.md").write_text(
        f"# {COLLECTION}\n\nWhole `input` values of TongjiFinLab/CFGPT's CFData-sft samples "
        f"(data/<task>/data.jsonl, commit {commit}), written byte for byte as "
        "`reports/cfgpt-<task>-<row>.txt` (0-based line) by\nbench/real_cfgpt_rebuild.py.\n",
        encoding="utf-8",
    )
    print(f"{written} texts in {args.out / 'reports'}")


if __name__ == "__main__":
    main()
