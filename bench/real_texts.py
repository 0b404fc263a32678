"""Real filings for bench/extraction_accuracy.py: texts nobody here wrote, labelled in bench/data/real/.

The texts stay where they are (`../shared/data/real-reports`, with PROVENANCE.md;
`../shared/data/real-reports-more`, more records of the same public datasets; and
`../shared/data/real-reports-cfgpt`, a second source: TongjiFinLab/CFGPT's CFData-sft samples, rebuilt by
bench/real_cfgpt_rebuild.py; `../shared/data/real-git-pdfs`, published annual and quarterly reports as PDFs
that public GitHub repositories carry, rebuilt by bench/real_git_rebuild.py; `../shared/data/real-git-texts`,
news texts that public GitHub repositories carry in their data files, rebuilt by bench/real_git_texts.py;
`../shared/data/real-fincuge-news`, every figure-bearing news article of BBT-FinCUGE's finqa and finna sets,
rebuilt by bench/real_fincuge_news.py, a pool for blind rounds; `../shared/data/real-yanbao-reports`, every
figure-bearing whole broker research report (PDF text) of one pinned repository tree, rebuilt by
bench/real_yanbao_reports.py, a second pool for blind rounds);
this repository keeps only their labels (`bench/data/real/labels.jsonl`): per text its set (`seen`: read
while the reader was built; `heldout`: labelled and scored, never tuned on), its kind, the traps it holds,
and the accepted values of the five screening figures of its own period in base units (or null). Each text
is read the way `screen` reads it (a PDF through lmscreen.filings, with its page map) by the deterministic
reader alone: that is what the default install (the 135M model, which only writes the reason) keeps.
"""

from __future__ import annotations

import json
import math
import os
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
LABELS = ROOT / "bench" / "data" / "real" / "labels.jsonl"
FIELDS = ("revenue", "net_profit", "gross_margin", "roe", "pe_ttm")
TOLERANCE = 0.005


def folders() -> dict[str, Path]:
    """Where each labelled collection's texts are (LMSCREEN_REAL_REPORTS overrides the shared folder)."""
    shared = Path(os.environ.get("LMSCREEN_REAL_REPORTS", ROOT.parent / "shared" / "data" / "real-reports"))
    return {
        "real-reports": shared,
        "real-reports-more": shared.parent / "real-reports-more",
        "real-reports-cfgpt": shared.parent / "real-reports-cfgpt",
        "real-git-pdfs": shared.parent / "real-git-pdfs",
        "real-git-texts": shared.parent / "real-git-texts",
        "real-fincuge-news": shared.parent / "real-fincuge-news",
        "real-yanbao-reports": shared.parent / "real-yanbao-reports",
    }


@dataclass
class RealCase:
    id: str
    path: Path
    set: str
    kind: str
    traps: list[str]
    name: str
    labels: dict[str, list[float] | None]
    text: str = ""
    page_at: Any = None


@dataclass
class Tally:
    labelled: int = 0
    kept_right: int = 0
    wrong: int = 0

    def add(self, allowed: list[float] | None, value: float | None) -> bool | None:
        right = (
            value is not None
            and bool(allowed)
            and any(math.isclose(value, a, rel_tol=TOLERANCE) for a in allowed or [])
        )
        wrong = value is not None and not right
        self.labelled += bool(allowed)
        self.kept_right += right
        self.wrong += wrong
        return True if right else (False if wrong else None)

    def cell(self) -> str:
        if not self.labelled:
            return f"{'-/0':>9}        wrong {self.wrong}"
        pct = 100 * self.kept_right / self.labelled
        return f"{self.kept_right:>4}/{self.labelled:<4} {pct:5.1f}%  wrong {self.wrong}"


@dataclass
class Report:
    per_field: dict[str, Tally] = field(default_factory=lambda: defaultdict(Tally))
    per_kind: dict[str, Tally] = field(default_factory=lambda: defaultdict(Tally))
    per_trap: dict[str, Tally] = field(default_factory=lambda: defaultdict(Tally))
    total: Tally = field(default_factory=Tally)
    misses: list[str] = field(default_factory=list)
    wrongs: list[str] = field(default_factory=list)
    pages: list[str] = field(default_factory=list)


SETS = ("seen",) + tuple(f"heldout-{n}" for n in range(1, 130))
"""Every set: rounds 89-100 and 102-107 are the blind draws from real-fincuge-news, 108 on from
real-yanbao-reports (121 on: its reports other than company notes, industry reports among them; a set with
no labels yet is skipped)."""


def load(
    sets: tuple[str, ...] = SETS,
) -> tuple[list[RealCase], list[str]]:
    """The labelled real texts that are present, and a note for each collection that is absent."""
    if not LABELS.exists():
        return [], [f"{LABELS} is missing"]
    where = folders()
    cases: list[RealCase] = []
    absent: set[str] = set()
    for line in LABELS.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        row = json.loads(line)
        if row["set"] not in sets:
            continue
        folder = where[row["collection"]]
        path = folder / row["file"]
        if not path.exists():
            absent.add(str(folder))
            continue
        cases.append(
            RealCase(
                row["id"],
                path,
                row["set"],
                row["kind"],
                row.get("traps", []),
                row.get("name", ""),
                {f: row[f] for f in FIELDS},
            )  # fmt: skip
        )
    notes = [f"{folder} is absent: its labelled texts are skipped" for folder in sorted(absent)]
    return cases, notes


def read(case: RealCase) -> None:
    """The text `screen` reads for the case (a PDF's extracted text, with its page map)."""
    if case.path.suffix.lower() == ".pdf":
        from lmscreen.filings.pdf import read_pdf

        pdf = read_pdf(case.path)
        case.text, case.page_at = pdf.text, pdf.page_at
    else:
        from lmscreen.filings import decode_text

        case.text = decode_text(case.path.read_bytes(), case.path)


def score(cases: list[RealCase]) -> Report:
    """The reader alone on each case (screen's facts path, no model), scored against the labels."""
    from lmscreen.task import process_choice
    from lmscreen.task.candidates import find_candidates

    report = Report()
    columns = {
        "revenue": "revenue_yuan",
        "net_profit": "net_profit_yuan",
        "gross_margin": "gross_margin_pct",
        "roe": "roe_extracted_pct",
        "pe_ttm": "pe_extracted",
    }
    for case in cases:
        if not case.text:
            read(case)
        cset = find_candidates(case.text, names=(case.name,), page_at=case.page_at)
        out = process_choice(
            None, "000000.SZ", case.text, None, None, engine_error="no model", cset=cset, name=case.name,
            model_picks=False,
        )  # fmt: skip
        for f in FIELDS:
            allowed = case.labels[f]
            value = out.columns[columns[f]]
            buckets = [report.per_field[f], report.per_kind[case.kind], report.total]
            buckets += [report.per_trap[t] for t in case.traps]
            verdict = None
            for tally in buckets:
                verdict = tally.add(allowed, value)
            if allowed and verdict is not True:
                report.misses.append(f"{case.id} {f}: kept {value} (accepted {allowed}) {out.flags}")
            if verdict is False:
                report.wrongs.append(f"{case.id} {f}: kept {value} (accepted {allowed})")
            if case.page_at is not None and value is not None:
                ev = out.detail["fields"][f].get("evidence") or {}
                report.pages.append(
                    f"{case.id} {f} = {value:g} on page {case.page_at(ev.get('start', -1))}: "
                    f"{ev.get('context', '')[:60]}"
                )
    return report


def print_report(title: str, report: Report) -> None:
    print(f"\n{title}")
    print(f"  {'all figures':24}{report.total.cell()}")
    for heading, table in (
        ("per field", report.per_field),
        ("per kind", report.per_kind),
        ("per trap", report.per_trap),
    ):
        print(f"  {heading}")
        for key in sorted(table, key=lambda k: (FIELDS.index(k) if k in FIELDS else 99, k)):
            print(f"    {key:22}{table[key].cell()}")
    for line in report.wrongs:
        print(f"  WRONG {line}")
    for line in report.misses:
        print(f"  missed {line}")
    for line in report.pages:
        print(f"  {line}")
