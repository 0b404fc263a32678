"""The model-choice path (`--engine openai` / `vllm`) on a forecast table a PDF extraction ran onto one
line: the cells the reader cuts apart settle their fields before the model is asked, and each kept figure
is grounded at the cell's own offsets (the scan alone leaves a run-together cell unread, so a rescan
could not ground it). The answer here is a real JSON completion string, parsed by the real parser."""

from __future__ import annotations

import json

from lmscreen.task import process_choice
from lmscreen.task.candidates import find_candidates
from lmscreen.task.choice import open_field_ids

_TEXT = (
    "公司发布2020年年报，业绩符合预期。附表：盈利预测2019A2020A2021E2022E2023E"
    "营业收入(百万元)1604.331332.431853.292451.473081.77"
    "归母净利润(百万元)370.78230.07429.39607.84773.44"
    "ROE（%）6.804.197.219.4511.01资料来源：Wind"
)


def test_cut_cells_settle_before_the_model_and_ground_at_their_offsets() -> None:
    cset = find_candidates(_TEXT, names=("某公司",))
    assert not any(open_field_ids(cset)[f] for f in ("revenue", "net_profit", "roe"))
    answer = json.dumps({"ids": {}, "reason": "2020年营业收入同比下降，归母净利润下降。"}, ensure_ascii=False)
    out = process_choice(answer, "000001", _TEXT, None, None, cset=cset, name="某公司")
    fields = out.detail["fields"]
    for name, printed in (("revenue", "1332.43"), ("net_profit", "230.07"), ("roe", "4.19")):
        ev = fields[name]["evidence"]
        assert fields[name]["verdict"] == "grounded"
        assert _TEXT[ev["start"] : ev["end"]] == printed
    assert not [f for f in out.flags if f.startswith(("ungrounded:", "conflict:"))]
