"""`screen` writes facts.jsonl, flags only what a reader acts on, and reads real annual-report PDFs by page.

The example pool is screened against the answering server on 127.0.0.1 (tests/golden.py: a real HTTP
server, the whole runner path): every fact's evidence, cut from its document at the recorded offsets, is
the printed number. The two real annual-report PDFs in ../shared/data/real-reports (skipped when absent)
give revenue, 归母净利润, gross margin and ROE with the page each was printed on.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from golden import EXAMPLE_POOL, EXAMPLE_REPORTS, SERVED_MODEL, AnsweringServer, screen

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data" / "real-reports" / "reports"
PDFS = {"600201.SH": "生物股份", "603339.SH": "四方科技"}


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("facts") / "out"
    with AnsweringServer() as server:
        screen(
            str(EXAMPLE_POOL), "--reports", str(EXAMPLE_REPORTS), "--out", str(out), "--engine", "openai",
            "--base-url", server.base_url, "--model", SERVED_MODEL,
        )  # fmt: skip
    return out


def _lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_facts_jsonl_evidence_is_the_printed_number(served: Path) -> None:
    facts = _lines(served / "facts.jsonl")
    run = json.loads((served / "run.json").read_text(encoding="utf-8"))
    assert len(facts) == run["llm"]["facts"] > 14  # several per filing
    keys = ["code", "document", "metric", "period", "scope", "segment", "basis", "value", "unit", "label",
            "source", "approx", "evidence"]  # fmt: skip
    for fact in facts:
        assert list(fact)[: len(keys)] == keys
        text = (EXAMPLE_REPORTS / fact["document"]).read_text(encoding="utf-8")
        ev = fact["evidence"]
        cut = text[ev["start"] : ev["end"]]
        assert cut == ev["text"] and re.search(r"[0-9０-９]", cut), fact
        assert fact["document"].startswith(fact["code"])
        if fact["source"] != "derived":
            # the value is the printed number in base units (a unit printed beside it or given by its row)
            digits = float(
                re.sub(r"[^0-9.]", "", cut.translate(str.maketrans("０１２３４５６７８９．", "0123456789.")))
            )
            assert any(abs(abs(fact["value"]) - digits * f) <= 1e-6 * max(1, digits * f)
                       for f in (1, 1e3, 1e4, 1e6, 1e8, 1e9, 1e12)), fact  # fmt: skip
    # facts come in row order, and every row with a filing has its main figures among them
    codes = [f["code"] for f in facts]
    assert codes == sorted(codes, key=codes.index)
    results = {r["code"]: r for r in _lines(served / "results.jsonl")}
    for code in set(codes):
        row = results[code]
        if row["revenue_yuan"] is not None:
            assert any(
                f["code"] == code and f["metric"] == "revenue" and f["basis"] == "actual"
                and f["value"] == pytest.approx(row["revenue_yuan"])
                for f in facts
            )  # fmt: skip


def test_flags_are_what_a_reader_acts_on_and_diagnostics_are_apart(served: Path) -> None:
    rows = _lines(served / "results.jsonl")
    flags = {f for r in rows for f in (r["flags"] or "").split(";") if f}
    assert not any(f.startswith(("reason_rejected", "llm_disagrees", "candidates_capped")) for f in flags)
    assert flags <= {"no_report", "数据存疑"} | {
        f for f in flags if f.startswith(("conflict:", "ungrounded:"))
    }
    answered = [r for r in rows if r["llm"] is not None]
    for row in answered:
        for field in row["llm"]["fields"].values():
            assert field["source"] in ("table", "label", "list", "derived", "model", "conflict", "none")
            if field["grounded"]:
                assert field["period"] is not None or field["source"] == "none"
    csv_header = (served / "results.csv").read_text(encoding="utf-8-sig").splitlines()[0].split(",")
    assert "diagnostics" not in csv_header and "flags" in csv_header


@pytest.mark.skipif(
    not all((SHARED / f"{c}.pdf").exists() for c in PDFS), reason="../shared real PDFs absent"
)
def test_the_real_annual_report_pdfs_give_their_figures_with_pages(tmp_path: Path) -> None:
    reports = tmp_path / "reports"
    reports.mkdir()
    for code in PDFS:
        (reports / f"{code}.pdf").symlink_to(SHARED / f"{code}.pdf")
    pool = tmp_path / "pool.csv"
    pool.write_text("代码,名称\n" + "".join(f"{c},{n}\n" for c, n in PDFS.items()), encoding="utf-8")
    out = tmp_path / "out"
    with AnsweringServer() as server:
        screen(
            str(pool), "--reports", str(reports), "--out", str(out), "--engine", "openai",
            "--base-url", server.base_url, "--model", SERVED_MODEL,
        )  # fmt: skip
    rows = {r["code"]: r for r in _lines(out / "results.jsonl")}
    # 600201 prints no company gross margin: it is derived from the 利润表's 营业收入 and 营业成本; 603339
    # prints its main business's (主营业务毛利率, wrapped across a line of its page), which ranks first
    want = {
        "600201.SH": (1581905632.48, 406195463.57, 61.60, 8.37, "derived"),
        "603339.SH": (1175301034.32, 129465020.68, 22.27, 7.64, "label"),
    }
    for code, (revenue, profit, margin, roe, margin_source) in want.items():
        row = rows[code]
        assert row["revenue_yuan"] == pytest.approx(revenue)
        assert row["net_profit_yuan"] == pytest.approx(profit)
        assert row["gross_margin_pct"] == pytest.approx(margin, abs=0.01)
        assert row["roe_extracted_pct"] == pytest.approx(roe)
        fields = row["llm"]["fields"]
        sources = {name: fields[name]["source"] for name in ("revenue", "net_profit", "gross_margin", "roe")}
        assert sources == {
            "revenue": "table", "net_profit": "table", "gross_margin": margin_source, "roe": "table",
        }  # fmt: skip
        pages = {name: fields[name]["evidence"]["page"] for name in ("revenue", "net_profit", "roe")}
        assert pages == {"revenue": 5, "net_profit": 5, "roe": 6}  # 主要会计数据 and 主要财务指标
        assert isinstance(fields["gross_margin"]["evidence"]["page"], int)
        if margin_source == "derived":
            assert "营业成本" in fields["gross_margin"]["evidence"]["context"]
    facts = [f for f in _lines(out / "facts.jsonl") if f["code"] == "600201.SH"]
    parent = [
        f for f in facts if f["scope"] == "parent" and f["metric"] == "revenue" and f["basis"] == "actual"
    ]
    assert [f["value"] for f in parent] == [pytest.approx(13417370.45)]  # 母公司利润表: never the company's
    quarters = {
        f["period"]: f["value"]
        for f in facts
        if f["metric"] == "revenue" and (f["period"] or "").startswith("2020Q")
    }
    assert quarters == {
        "2020Q1": pytest.approx(366175089.52),
        "2020Q2": pytest.approx(258180404.26),
        "2020Q3": pytest.approx(483387661.41),
        "2020Q4": pytest.approx(474162477.29),
    }
