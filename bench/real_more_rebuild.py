"""Rebuild ../shared/data/real-reports-more from a local CFBenchmark checkout (the texts are never committed).

The held-out real texts labelled in bench/data/real/labels.jsonl (collection `real-reports-more`) are whole
values of the `input` column of TongjiFinLab/CFBenchmark's `CFBenchmark-basic/data/<set>/*.arrow` files; a
label's id `cfb-<set>-<row>` names the set and the 0-based row. A fresh machine has no copy of them, so this
script writes each labelled record (and, with `--rows SET:A-B`, further candidate records) byte for byte
into `reports/cfb-<set>-<row>.txt` with a PROVENANCE.md naming the checkout's commit.

    python bench/real_more_rebuild.py /path/to/CFBenchmark [--out ../shared/data/real-reports-more]
        [--rows suggestion:400-440]
"""

from __future__ import annotations

import argparse
import json
import subprocess
from pathlib import Path

import pyarrow.ipc as ipc

ROOT = Path(__file__).resolve().parents[1]
LABELS = ROOT / "bench" / "data" / "real" / "labels.jsonl"


def _column(checkout: Path, name: str) -> list[str]:
    """The `input` column of one CFBenchmark-basic set (HF-datasets Arrow IPC stream)."""
    path = checkout / "CFBenchmark-basic" / "data" / name / "data-00000-of-00001.arrow"
    with path.open("rb") as fh:
        table = ipc.open_stream(fh).read_all()
    return table.column("input").to_pylist()


def wanted_rows(extra: list[str], collection: str = "real-reports-more") -> dict[str, set[int]]:
    """Per set (or task), the 0-based rows to write: every label of `collection` (file stem
    `<prefix>-<set>-<row>`) and each `SET:A-B` span of `extra`; bench/real_cfgpt_rebuild.py uses it too."""
    wanted: dict[str, set[int]] = {}
    for line in LABELS.read_text(encoding="utf-8").splitlines():
        rec = json.loads(line)
        if rec.get("collection") != collection:
            continue
        _, name, row = Path(rec["file"]).stem.split("-")
        wanted.setdefault(name, set()).add(int(row))
    for spec in extra:
        name, span = spec.split(":")
        lo, hi = (int(x) for x in span.split("-"))
        wanted.setdefault(name, set()).update(range(lo, hi + 1))
    return wanted


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("checkout", type=Path)
    ap.add_argument("--out", type=Path, default=ROOT.parent / "shared" / "data" / "real-reports-more")
    ap.add_argument("--commit", default="", help="the CFBenchmark commit, when CHECKOUT is an export")
    ap.add_argument("--rows", action="append", default=[], help="SET:A-B, extra candidate rows")
    args = ap.parse_args()
    commit = (
        args.commit
        or subprocess.run(
            ["git", "-C", str(args.checkout), "rev-parse", "HEAD"], capture_output=True, text=True
        ).stdout.strip()
    )
    (args.out / "reports").mkdir(parents=True, exist_ok=True)
    written = 0
    for name, rows in sorted(wanted_rows(args.rows).items()):
        column = _column(args.checkout, name)
        for row in sorted(rows):
            if row < len(column) and column[row]:
                (args.out / "reports" / f"cfb-{name}-{row:04d}.txt").write_bytes(column[row].encode("utf-8"))
                written += 1
    (args.out / "PROVENANCE.md").write_text(
        "# real-reports-more\n\nWhole `input` values of TongjiFinLab/CFBenchmark "
        f"(CFBenchmark-basic/data/<set>/data-00000-of-00001.arrow, checkout {commit or 'unknown'}), "
        "written byte for byte as `reports/cfb-<set>-<row>.txt` (0-based row) by\n"
        "bench/real_more_rebuild.py.\n",
        encoding="utf-8",
    )
    print(f"{written} texts in {args.out / 'reports'}")


if __name__ == "__main__":
    main()
