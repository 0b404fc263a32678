"""Which rows go to the LLM: picked in polars before any Python loop, the same rows `filing_for` picks.

A million-row pool with reports for a thousand rows must not be walked row by row; the rows chosen, their
order and what each carries must be exactly what asking `filing_for` row by row gives.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl

from lmscreen.filings import filing_for, index_filings
from lmscreen.run.merge import LLM_COLUMNS as _LLM_COLUMNS
from lmscreen.run.merge import answers_frame as _answers
from lmscreen.run.merge import merge as _merge
from lmscreen.run.screen import _items

CODES = ["600519.SH", "600519.sh", "000001", "000001.SZ", "300750.SZ", "688981.SH", "920819.BJ", "601318.SH"]
INLINE = [None, "", None, "内联文本", "   ", "某公司营业收入1.2亿元。", "\u3000", "  x  "]


def frame(with_inline: bool) -> pl.DataFrame:
    data: dict[str, list] = {
        "row": list(range(2, 2 + len(CODES))),
        "code": CODES,
        "name": [f"公司{i}" if i % 3 else None for i in range(len(CODES))],
        "roe": [float(i) for i in range(len(CODES))],
        "pe_ttm": [None if i % 2 else 10.0 + i for i in range(len(CODES))],
        "rules_fired": [f"r{i}" if i % 2 else None for i in range(len(CODES))],
    }
    if with_inline:
        data["report_text"] = INLINE
    return pl.DataFrame(data)


def row_by_row(df: pl.DataFrame, reports: Path | None) -> list[tuple]:
    index = index_filings(reports) if reports else None
    inline = df["report_text"].to_list() if "report_text" in df.columns else [None] * df.height
    out = []
    for i, rec in enumerate(df.iter_rows(named=True)):
        src = filing_for(rec["code"], inline[i], index)
        if src is not None:
            out.append((rec["row"], rec["code"], rec["name"] or "", rec["roe"], rec["pe_ttm"], src,
                        rec["rules_fired"]))  # fmt: skip
    return out


def picked(df: pl.DataFrame, reports: Path | None, tmp: Path) -> list[tuple]:
    index = index_filings(reports) if reports else None
    return [(r.row, r.code, r.name, r.roe, r.pe, r.source, r.rules_fired) for r in _items(df, index)]


def test_rows_picked_in_polars_are_the_rows_report_for_picks(tmp_path: Path) -> None:
    reports = tmp_path / "reports"
    reports.mkdir()
    for stem in ("600519.SH", "000001", "688981.sh", "999999.SZ"):
        (reports / f"{stem}.txt").write_text("营业收入1.2亿元。", encoding="utf-8")
    (reports / "300750.SZ.csv").write_text("not a report", encoding="utf-8")
    for with_inline in (False, True):
        df = frame(with_inline)
        for folder in (reports, None):
            expected = row_by_row(df, folder)
            assert picked(df, folder, tmp_path) == expected
    # the folder's files and the non-blank inline cells both count; blank cells and other suffixes do not
    got = picked(frame(True), reports, tmp_path)
    assert [r[1] for r in got] == ["600519.SH", "600519.sh", "000001", "000001.SZ", "688981.SH", "601318.SH"]
    assert got[3][5].path == reports / "000001.txt" and got[5][5].text == "  x  "
    assert picked(frame(False), None, tmp_path) == []


def joined(df: pl.DataFrame, outcome_rows: list[dict], details: list[dict]) -> pl.DataFrame:
    """The answer columns put in by left joins on `row`, as the runner once did (the reference)."""
    schema = {"row": pl.Int64(), **_LLM_COLUMNS}
    llm = pl.DataFrame([{k: o.get(k) for k in schema} for o in outcome_rows], schema=schema)
    merged = df.join(llm, on="row", how="left", maintain_order="left").with_columns(
        pl.col("status").fill_null("ok"), pl.col("flags").fill_null("no_report")
    )
    if details:
        merged = merged.join(pl.DataFrame(details, infer_schema_length=None), on="row", how="left",
                             maintain_order="left")  # fmt: skip
    return merged


def test_pieces_write_the_same_bytes_as_the_whole_typed_frame(tmp_path: Path) -> None:
    from lmscreen.report.writers import ResultWriter

    df = pl.DataFrame({"row": list(range(2, 42)), "code": [f"{i:06d}.SZ" for i in range(40)]})
    outcome = [
        {"row": r, "reason": "理由", "flags": "", "status": "ok", "revenue_yuan": 1.5e8} for r in (5, 6, 30)
    ]
    details = [{"row": r, "llm": {"fields": {"revenue": {"value": 1.5, "unit": "亿元"}}}} for r in (5, 6, 30)]
    answers = _answers(outcome, details)
    for name, pieces in (("whole", [joined(df, outcome, details)]), ("pieces", _merge(df, answers))):
        (tmp_path / name).mkdir()
        with ResultWriter(tmp_path / name) as writer:
            writer.write(pieces)
    for file in ("results.csv", "results.jsonl"):
        assert (tmp_path / "whole" / file).read_bytes() == (tmp_path / "pieces" / file).read_bytes()
    assert '"llm":null' in (tmp_path / "pieces" / "results.jsonl").read_text(encoding="utf-8")


def test_merged_answers_sit_on_their_rows_exactly_as_a_left_join_puts_them(tmp_path: Path) -> None:
    """Written chunk by chunk as the run writes them, the pieces make the same results.csv and
    results.jsonl bytes as the whole frame built by left joins (the nested detail a struct there, JSON text
    spliced in by the writer here)."""
    from lmscreen.report.writers import DETAIL_JSON, ResultWriter

    df = pl.DataFrame({"row": list(range(2, 42)), "code": [f"{i:06d}.SZ" for i in range(40)]})
    case = 0
    for answered in ([], [0], [39], [0, 1, 2, 10, 11, 25, 39], list(range(40)), [5, 7, 9]):
        outcome = [
            {"row": i + 2, "reason": f"理由{i}", "flags": "truncated" if i % 2 else "", "status": "ok",
             "revenue_yuan": 1e8 * i, "prompt_tokens": i}
            for i in reversed(answered)
        ]  # fmt: skip
        details = [
            {"row": i + 2, "llm": {"fields": {"revenue": {"value": float(i), "evidence": {"start": i}}},
                                   "raw": None if i % 3 else "{}"}}
            for i in reversed(answered)
        ]  # fmt: skip
        for with_details in (details, []):
            answers = _answers(outcome, with_details)
            want = joined(df, outcome, with_details)
            case += 1
            (tmp_path / f"want{case}").mkdir()
            with ResultWriter(tmp_path / f"want{case}") as writer:
                writer.write(want)
            for size in (13, 40):
                pieces = [p for at in range(0, df.height, size) for p in _merge(df.slice(at, size), answers)]
                flat = [c for c in want.columns if c != "llm"]
                assert all(p.columns[: len(flat)] == flat for p in pieces)
                for piece in pieces:  # a piece is all answered rows or all unanswered ones
                    answered_here = set(piece["row"]) & {i + 2 for i in answered}
                    assert not answered_here or len(answered_here) == piece.height
                    if not answered_here:
                        assert all(piece.schema[c] == pl.Null for c in ("reason", "revenue_yuan"))
                    elif with_details:
                        assert piece.schema[DETAIL_JSON] == pl.String
                out = tmp_path / f"got{case}-{size}"
                out.mkdir()
                with ResultWriter(out) as writer:
                    for at in range(0, df.height, size):
                        writer.write(_merge(df.slice(at, size), answers))
                for file in ("results.csv", "results.jsonl"):
                    assert (out / file).read_bytes() == (tmp_path / f"want{case}" / file).read_bytes(), (
                        answered
                    )
            got = pl.read_ndjson(tmp_path / f"want{case}" / "results.jsonl")
            flags, status = got["flags"].to_list(), got["status"].to_list()
            assert all(flags[i] == "no_report" and status[i] == "ok" for i in range(40) if i not in answered)
            assert [got["reason"][i] for i in answered] == [f"理由{i}" for i in answered]
