"""Report texts of many megabytes: read in parts, figures still found, evidence still the file's own span.

A text over `LONG_TEXT_CHARS` is streamed; only its opening, the blocks holding 主要会计数据和财务指标 /
利润表 (and the next), and blocks that name a figure are read. What matters to a user: the figure printed in
the middle of the file is found, its evidence `start`/`end` cut exactly that figure out of the whole file,
and the row says the text was only partly read. Memory is measured by bench/reliability.py (`memory`).
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from lmscreen.errors import InputError
from lmscreen.filings import Filing, annotate_pages, decode_text
from lmscreen.filings.long_text import LONG_TEXT_CHARS, OPENING_CHARS
from lmscreen.task import process_choice
from servers import FakeServerProcess

ROOT = Path(__file__).resolve().parents[1]
CODE = "600000.SH"
FILLER = (
    "公司坚持以客户为中心，持续推进数字化转型，不断完善内部控制体系和风险管理机制。"
    "报告期内，公司新设立分支机构3家，员工总数达到12,345人，研发团队规模稳步扩大，"
    "全年累计开展培训1,024场。\n"
)
TABLE = """七、主要会计数据和财务指标
单位：元
项目 | 2024年 | 2023年 | 本年比上年增减
营业收入 | 15,056,000,000.00 | 13,000,000,000.00 | 15.82%
归属于上市公司股东的净利润 | 2,010,000,000.00 | 1,800,000,000.00 | 11.67%
加权平均净资产收益率 | 12.50% | 11.90% | 增加0.60个百分点
"""
HEAD = "某科技股份有限公司2024年年度报告\n第一节 重要提示和目录\n七、主要会计数据和财务指标 .......... 8\n"
EXPECTED = {"revenue": 15_056_000_000.0, "net_profit": 2_010_000_000.0, "roe": 12.5}


def long_report(mib: float, middle: str = TABLE) -> str:
    """A report of about `mib` MiB (UTF-8) with `middle` halfway through the filler."""
    repeats = int(mib * (1 << 20) / len(FILLER.encode("utf-8")) / 2)
    return HEAD + FILLER * repeats + middle + FILLER * repeats


def evidence_of(detail: dict) -> dict[str, dict]:
    return {name: f["evidence"] for name, f in detail["fields"].items() if f.get("evidence")}


def test_a_figure_table_in_the_middle_of_a_10_mb_report_is_found_and_its_evidence_is_the_files(
    tmp_path: Path,
) -> None:
    text = long_report(10)
    assert len(text) > 3 * LONG_TEXT_CHARS
    reports = tmp_path / "reports"
    reports.mkdir()
    (reports / f"{CODE}.txt").write_text(text, encoding="utf-8")
    pool = tmp_path / "pool.csv"
    pool.write_text(f"代码,名称,市盈率TTM,ROE\n{CODE},某科技,20.5,12.5\n", encoding="utf-8")
    out = tmp_path / "out"
    env = {k: v for k, v in os.environ.items() if not k.startswith("OPENAI_")}
    with FakeServerProcess(latency=0.0) as fake:
        proc = subprocess.run(
            [sys.executable, "-m", "lmscreen", "screen", str(pool), "--reports", str(reports), "--out",
             str(out), "--engine", "openai", "--base-url", fake.base_url, "--quiet"],
            capture_output=True, text=True, env=env, timeout=3600, cwd=ROOT,
        )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    [row] = [json.loads(line) for line in (out / "results.jsonl").read_text(encoding="utf-8").splitlines()]
    assert row["revenue_yuan"] == EXPECTED["revenue"]
    assert row["net_profit_yuan"] == EXPECTED["net_profit"]
    assert row["roe_extracted_pct"] == EXPECTED["roe"]
    table_at = text.index(TABLE)
    found = evidence_of(row["llm"])
    assert set(found) == set(EXPECTED)
    for ev in found.values():
        assert text[ev["start"] : ev["end"]] == ev["text"]  # offsets into the whole file, not the kept parts
        assert table_at <= ev["start"] < table_at + len(TABLE)
    flags = row["flags"].split(";")
    assert "truncated" in flags and "report_sections_only" in flags
    report = row["llm"]["report"]
    assert report["format"] == "text" and report["sections_only"] is True
    assert report["chars_total"] == len(text)
    assert "主要会计数据和财务指标" in report["sections"]
    assert report["chars_sent"] < len(text) // 10
    assert report["kept"][0][0] == 0 and report["kept"][0][1] >= OPENING_CHARS
    assert any(lo <= table_at and table_at + len(TABLE) <= hi for lo, hi in report["kept"])


def test_a_prose_figure_in_a_long_gb18030_file_maps_back_and_the_digest_is_the_whole_texts(
    tmp_path: Path,
) -> None:
    sentence = "2024年公司实现营业收入150.56亿元，同比增长8.1%。\n"
    text = long_report(4, middle=sentence)
    path = tmp_path / f"{CODE}.txt"
    path.write_bytes(text.encode("gb18030"))
    src = Filing(path=path)
    assert src.digest() == hashlib.sha256(text.encode("utf-8")).hexdigest()
    read = src.read()
    assert len(read) < len(text) // 10 and sentence in read
    outcome = process_choice(None, CODE, read, None, None, engine_error="no answer")
    assert outcome.revenue_yuan == 150.56e8
    flags = annotate_pages(src, outcome.detail)
    assert flags == ["truncated", "report_sections_only"]
    ev = evidence_of(outcome.detail)["revenue"]
    assert text[ev["start"] : ev["end"]] == "150.56亿元" == ev["text"]
    assert ev["start"] == text.index(sentence) + sentence.index("150.56")
    assert src.quote_text() is None  # the report shows the evidence context, never holds the whole file


def test_inline_long_text_is_read_in_parts_and_a_text_under_the_limit_whole(tmp_path: Path) -> None:
    sentence = "2024年公司实现营业收入150.56亿元。\n"
    inline = Filing(text=long_report(4, middle=sentence))
    assert inline.long() is not None and sentence in inline.read()
    # more bytes than the limit but fewer characters: read whole, exactly as a short file is
    short = FILLER * (LONG_TEXT_CHARS // len(FILLER) // 2)
    path = tmp_path / f"{CODE}.txt"
    path.write_text(short, encoding="utf-8")
    assert path.stat().st_size > LONG_TEXT_CHARS
    src = Filing(path=path)
    assert src.long() is None
    assert src.read() == decode_text(path.read_bytes(), path) == short == src.quote_text()
    assert annotate_pages(src, {"fields": {}}) == []


def test_undecodable_bytes_deep_in_a_long_file_name_the_file(tmp_path: Path) -> None:
    path = tmp_path / f"{CODE}.txt"
    data = long_report(3).encode("utf-8")
    path.write_bytes(data[: len(data) // 2] + b"\xff\xfe\xfa" + data[len(data) // 2 :])
    with pytest.raises(InputError, match=f"{CODE}.txt: not valid utf-8 or gb18030 text"):
        Filing(path=path).read()
    with pytest.raises(InputError, match=f"{CODE}.txt"):
        Filing(path=path).digest()
