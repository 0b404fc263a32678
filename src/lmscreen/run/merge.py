"""The LLM step's answers beside the pool's rows: the frames results.csv and results.jsonl are written from.

Why pieces and Null-typed literals: a million-row pool with answers for a thousand rows must not build the
answers' 81 nested fields (or even typed nulls) as long as the pool; rows without an answer get columns
that hold no buffer at all, written by polars exactly as typed nulls.
"""

from __future__ import annotations

from typing import Any

import polars as pl

from lmscreen.report.writers import DETAIL_JSON, detail_json

LLM_COLUMNS: dict[str, pl.DataType] = {
    "reason": pl.String(),
    "reason_source": pl.String(),
    "flags": pl.String(),
    "status": pl.String(),
    "revenue_yuan": pl.Float64(),
    "net_profit_yuan": pl.Float64(),
    "gross_margin_pct": pl.Float64(),
    "roe_extracted_pct": pl.Float64(),
    "pe_extracted": pl.Float64(),
    "prompt_tokens": pl.Int64(),
    "completion_tokens": pl.Int64(),
}


def without_llm(frame: pl.DataFrame, flag: str) -> pl.DataFrame:
    """The LLM columns, empty. They are null-typed, which holds no buffer at all: typed nulls cost a
    million-row run about 120 MiB for cells that are written as nothing (results.csv leaves them blank,
    results.jsonl leaves them out)."""
    cols = [pl.lit(None).alias(name) for name in LLM_COLUMNS if name not in ("flags", "status")]
    # Lazily: an eager with_columns of a literal rechunks every column of a many-chunk frame (a copy of
    # the whole pool); the lazy engine adds the columns beside the existing chunks.
    return (
        frame.lazy().with_columns(*cols, pl.lit(flag).alias("flags"), pl.lit("ok").alias("status")).collect()
    )


def answers_frame(outcome_rows: list[dict[str, Any]], details: list[dict[str, Any]]) -> pl.DataFrame:
    """Every answered row's LLM columns, plus its nested detail as one JSON text (`DETAIL_JSON`) that the
    results.jsonl writer puts in as the line's `llm` object.

    Why text and not a polars struct: building the 81-field struct from a thousand answers' dicts (or
    from their JSON) took 35-60 MB at its peak for a 1 MB result, the largest step of a big run's memory;
    the JSON text of each answer is what the file needs anyway."""
    schema = {"row": pl.Int64(), **LLM_COLUMNS}
    llm = pl.DataFrame([{k: o.get(k) for k in schema} for o in outcome_rows], schema=schema)
    if details:
        texts = pl.DataFrame(
            {"row": [d["row"] for d in details], DETAIL_JSON: [detail_json(d.get("llm")) for d in details]},
            schema={"row": pl.Int64, DETAIL_JSON: pl.String},
        )
        llm = llm.join(texts, on="row", how="left")
    return llm.with_columns(pl.col("status").fill_null("ok"), pl.col("flags").fill_null("no_report"))


def merge(frame: pl.DataFrame, answers: pl.DataFrame) -> list[pl.DataFrame]:
    """The chunk with the LLM columns (and the nested `llm` detail) beside it, as consecutive pieces in its
    row order, all with the same column names.

    Answered rows get their answers; runs of rows without one get the LLM columns as Null-typed literals
    (no buffer at all: `flags` = no_report, `status` = ok, the rest null), which results.csv and
    results.jsonl write exactly as typed nulls. Putting both in one frame would build every field of the
    nested detail (81 of them) as long as the chunk: about 90 MB for 120,000 rows, for cells that are null.
    """
    found = (
        frame.lazy()
        .select("row")
        .with_row_index("_pos")
        .filter(pl.col("row").is_in(answers["row"].implode()))
    ).collect()
    placed = found.join(answers, on="row", how="inner").sort("_pos")
    positions = placed["_pos"].to_list()
    values = placed.drop("_pos", "row")
    fill = {"flags": pl.lit("no_report"), "status": pl.lit("ok")}
    # A row without an answer has `llm`: null, written by polars from a Null-typed column in that place.
    unanswered = [
        fill.get(name, pl.lit(None)).alias("llm" if name == DETAIL_JSON else name) for name in values.columns
    ]
    pieces: list[pl.DataFrame] = []

    def gap(start: int, length: int) -> None:
        pieces.append(frame.slice(start, length).lazy().with_columns(unanswered).collect())

    at = k = 0
    while k < len(positions):
        run = 1  # answered rows next to each other go in as one piece
        while k + run < len(positions) and positions[k + run] == positions[k] + run:
            run += 1
        if positions[k] > at:
            gap(at, positions[k] - at)
        pieces.append(frame.slice(positions[k], run).hstack(values.slice(k, run).get_columns()))
        at = positions[k] + run
        k += run
    if at < frame.height or not pieces:
        gap(at, frame.height - at)
    return pieces
