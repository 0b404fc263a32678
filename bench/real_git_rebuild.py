"""Rebuild ../shared/data/real-git-pdfs from fetched git mirrors (the documents are never committed).

Real A-share filings (annual and quarterly reports as published PDFs) that public GitHub repositories
happen to carry. Each document is pinned below by repository, commit, path and blob id, so a fresh
machine rebuilds the same bytes: the script reads the blob from the repository's git directory (a
`fetch github:owner/name` mirror, `<mirrors>/<owner>+<name>/repo`, or any clone passed as
`--git owner/name=DIR`), checks that the pinned path at the pinned commit still names that blob, writes
it byte for byte to `reports/<file>` and records repository, commit, path, blob, size and sha256 in
PROVENANCE.md. Labels of these files are in bench/data/real/labels.jsonl (collection `real-git-pdfs`).

    python bench/real_git_rebuild.py [--mirrors ../.mirror] [--git owner/name=DIR ...]
        [--out ../shared/data/real-git-pdfs]
"""

from __future__ import annotations

import argparse
import hashlib
import subprocess
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COLLECTION = "real-git-pdfs"


@dataclass(frozen=True)
class Source:
    file: str
    name: str
    repo: str
    commit: str
    path: str
    blob: str
    what: str


_RSTATS = "B题-示例数据/附件2：财务报告/"
"""Where hsh819/rstats keeps its filings (a contest's sample data: SSE and SZSE periodic reports)."""

SOURCES = (
    Source(
        "000001.SZ-2024.pdf", "平安银行", "FreeFlyingSheep/stock-analysis",
        "5d16b74d4b6732ad9556df09d002a359b45571be", "data/reports/平安银行：2024年年度报告.pdf",
        "ef74942bec2dc6f46b5f788225a793cbb7a30f71", "2024 annual report (a bank)",
    ),
    Source(
        "300827.SZ-2025Q3.pdf", "上能电气", "imhyb1105/financial_report_extractor",
        "be41f47a4bdec66a394aa3b356e9b22131fbb919", "财务报表数据分析/财务报表/H2_AN202510281770651478_1.pdf",
        "1c88ade210ef97d40b40bf023120dc37f8b614c8", "2025 third-quarter report",
    ),
    Source(
        "300329.SZ-2025Q3.pdf", "海伦钢琴", "imhyb1105/financial_report_extractor",
        "be41f47a4bdec66a394aa3b356e9b22131fbb919", "财务报表数据分析/财务报表/H2_AN202510291771276074_1.pdf",
        "00903c9616f323dd6fc01a1a4dfea6a0fc04e846", "2025 third-quarter report (a loss)",
    ),
    Source(
        "600845.SH-2025.pdf", "宝信软件", "imhyb1105/financial_report_extractor",
        "a6c6194d91f032252c360f042476e583353026d6", "财务报表数据分析/test.pdf",
        "490e91e292b45485ed458c7b881d218481f8eb47", "2025 annual report",
    ),
    Source(
        "000027.SZ-2016.pdf", "深圳能源", "StuPeter/Company_Annual_Report_Analysis_TF",
        "da16600fb164a221e0f172f09e268e775ecaa41a", "000027深圳能源2016年年度报告-20170408(2)(1).pdf",
        "dbf5f227d4b88868e856d2eacfa0546818601f89", "2016 annual report (excerpt: key figures, statements)",
    ),
    Source(
        "02565.HK-2025.pdf", "派格生物", "zhangenping/Annual_Report",
        "750ef7315f5e23366e6992c6236cf17bdb068995", "docs/report/H2_AN202604281821703679_1.pdf",
        "548e821d8e37f9400e47ca2ca2a89b4c08236bef",
        "2025 annual report (a Hong Kong H share in traditional Chinese, no revenue, a loss)",
    ),
    Source(
        "600080.SH-2024.pdf", "金花股份", "hsh819/rstats",
        "b728af3a083579c33dd59ac56ba8d7f5f02afdb0",
        _RSTATS + "reports-上交所/600080_20250425_LXGH.pdf",
        "95dacb6d1b43947ea08ab85fdaeee027b35241b7", "2024 annual report (SSE, a pharmaceutical maker)",
    ),
    Source(
        "000999.SZ-2024S.pdf", "华润三九", "hsh819/rstats",
        "b728af3a083579c33dd59ac56ba8d7f5f02afdb0",
        _RSTATS + "reports-深交所/华润三九：2024年年度报告摘要.pdf",
        "2ee098501e7eef4dc61a6276676cad4425a5d514", "2024 annual report summary (年度报告摘要, SZSE)",
    ),
    Source(
        "600080.SH-2025Q3.pdf", "金花股份", "hsh819/rstats",
        "b728af3a083579c33dd59ac56ba8d7f5f02afdb0",
        _RSTATS + "reports-上交所/600080_20251030_IVCB.pdf",
        "b4ad85b7a10c66a3fda61cd22792112df4b319cc", "2025 third-quarter report (SSE)",
    ),
    Source(
        "000999.SZ-2025H1S.pdf", "华润三九", "hsh819/rstats",
        "b728af3a083579c33dd59ac56ba8d7f5f02afdb0",
        _RSTATS + "reports-深交所/华润三九：2025年半年度报告摘要.pdf",
        "ec636366c51e4b3ce804429ce1636c314e820241", "2025 half-year report summary (半年度报告摘要, SZSE)",
    ),
    Source(
        "600080.SH-2025H1.pdf", "金花股份", "hsh819/rstats",
        "b728af3a083579c33dd59ac56ba8d7f5f02afdb0",
        _RSTATS + "reports-上交所/600080_20250822_ODWZ.pdf",
        "b81fffba58fff13341a31f642dbf9a23f3acd4c7", "2025 half-year report (SSE)",
    ),
    Source(
        "000999.SZ-2023Q3.pdf", "华润三九", "hsh819/rstats",
        "b728af3a083579c33dd59ac56ba8d7f5f02afdb0",
        _RSTATS + "reports-深交所/华润三九：2023年三季度报告.pdf",
        "34de28a29f33dbc94b27434a4addede67ae657c9", "2023 third-quarter report (SZSE)",
    ),
    Source(
        "600519.SH-2021.pdf", "贵州茅台", "RONyang-hui/financialCode",
        "c8e833e36ff48be73eaf2f94f5fd2540cd287a01", "贵州茅台2021年年度报告.pdf",
        "c96238e4641ac3ce735039a07d6a4848376fcc4a", "2021 annual report (SSE, a distiller)",
    ),
)  # fmt: skip


def _git(git_dir: Path, *args: str) -> bytes:
    out = subprocess.run(["git", "--git-dir", str(git_dir), *args], capture_output=True, check=True)
    return out.stdout


def _git_dir(repo: str, mirrors: Path, explicit: dict[str, Path]) -> Path:
    """The repository's git directory: an explicit clone, else the fetched mirror (bare or not)."""
    base = explicit.get(repo, mirrors / repo.replace("/", "+") / "repo")
    return base / ".git" if (base / ".git").exists() else base


def read_pinned(git_dir: Path, repo: str, commit: str, path: str, blob: str) -> bytes:
    """The pinned blob's bytes; fail loudly when the pinned path at the pinned commit names another blob."""
    named = _git(git_dir, "rev-parse", f"{commit}:{path}").decode().strip()
    if named != blob:
        raise SystemExit(f"{repo} {commit}:{path} is {named}, not the pinned {blob}")
    return _git(git_dir, "cat-file", "blob", blob)


def rebuild(src: Source, git_dir: Path, out: Path) -> str:
    """Write one pinned blob to out/reports and return its provenance entry; fail loudly on a mismatch."""
    data = read_pinned(git_dir, src.repo, src.commit, src.path, src.blob)
    (out / "reports" / src.file).write_bytes(data)
    digest = hashlib.sha256(data).hexdigest()
    return (
        f"### {src.file} ({src.name}, {src.what})\n\n"
        f"- repository: {src.repo}\n- commit: `{src.commit}`\n- path: `{src.path}`\n"
        f"- blob: `{src.blob}`\n- bytes: {len(data):,}\n- sha256: `{digest}`\n"
        f"- kept: whole file (`git --git-dir=<mirror> cat-file blob {src.blob}`)\n"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mirrors", type=Path, default=ROOT.parent / ".mirror")
    ap.add_argument("--git", action="append", default=[], help="owner/name=DIR, a clone to read instead")
    ap.add_argument("--out", type=Path, default=ROOT.parent / "shared" / "data" / COLLECTION)
    args = ap.parse_args()
    explicit = {k: Path(v) for k, v in (item.split("=", 1) for item in args.git)}
    (args.out / "reports").mkdir(parents=True, exist_ok=True)
    entries = [rebuild(s, _git_dir(s.repo, args.mirrors, explicit), args.out) for s in SOURCES]
    (args.out / "PROVENANCE.md").write_text(
        f"# {COLLECTION}\n\nPublished A-share filings (PDF) found in public GitHub repositories, copied byte "
        "for byte from the pinned git blob by bench/real_git_rebuild.py. Nothing here was written by the "
        "lmscreen team; the labels are in bench/data/real/labels.jsonl.\n\n" + "\n".join(entries),
        encoding="utf-8",
    )
    print(f"{len(entries)} documents in {args.out / 'reports'}")


if __name__ == "__main__":
    main()
