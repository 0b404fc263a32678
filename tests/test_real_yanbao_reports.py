"""bench/real_yanbao_reports.py selects every figure-bearing report once, names it by the repository's own id,
and refuses a selection that differs.

The pool is never committed, so a fresh machine must rebuild exactly the reports the labels were made from:
these cases run the script's own selection and digest on industry folders the test writes, and its git reading
on a small repository the test commits.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from bench_scripts import load_bench


def _bench() -> ModuleType:
    return load_bench("real_yanbao_reports")


WITH_FIGURE = "公司2020年实现营业收入12.5亿元，同比增长8.1%。"
WITHOUT_FIGURE = "行业景气度持续提升，看好龙头公司长期成长。"
MARGIN = "乙公司毛利率为35.2%，维持买入评级。"


def _file(text: str) -> bytes:
    return json.dumps({"data": [], "source_content": text}, ensure_ascii=False).encode()


def _corpus() -> dict[str, tuple[bytes, dict[str, bytes]]]:
    dianzi_map = json.dumps({"10": "b.pdf.json", "2": "a.pdf.json", "3": "c.pdf.json", "4": "gone.pdf.json"})
    dianzi = {
        "a.pdf.json": _file(WITH_FIGURE),
        "b.pdf.json": _file(MARGIN),
        "c.pdf.json": _file(WITHOUT_FIGURE),
        "unmapped.pdf.json": _file("另一家公司净利润3.2亿元。"),
    }
    yimei = {"x.pdf.json": _file(WITH_FIGURE), "y.pdf.json": _file("丙公司归母净利润-0.5亿元，同比转亏。")}
    yimei_map = json.dumps({"0": "x.pdf.json", "1": "y.pdf.json"})
    return {"dianzi": (dianzi_map.encode(), dianzi), "yimei": (yimei_map.encode(), yimei)}


def test_each_figure_bearing_report_is_selected_once_under_its_source_id() -> None:
    bench = _bench()
    texts = bench.select(_corpus())
    assert texts == [
        ("ybr-dianzi-002", WITH_FIGURE.encode()),
        ("ybr-dianzi-010", MARGIN.encode()),
        ("ybr-yimei-001", "丙公司归母净利润-0.5亿元，同比转亏。".encode()),
    ]


def test_the_digest_changes_with_any_text_or_id() -> None:
    bench = _bench()
    texts = bench.select(_corpus())
    digest = sys.modules["real_fincuge_news"].digest  # the one digest both pools are pinned by
    base = digest(texts)
    assert digest(texts[:-1]) != base
    assert digest([(texts[0][0], texts[0][1] + b" ")] + texts[1:]) != base
    assert digest([("ybr-dianzi-999", texts[0][1])] + texts[1:]) != base


def _git(cwd: Path, *args: str) -> str:
    out = subprocess.run(["git", "-C", str(cwd), *args], capture_output=True, check=True, text=True)
    return out.stdout.strip()


def test_the_corpus_is_read_from_the_pinned_tree_and_a_changed_tree_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bench = _bench()
    work = tmp_path / "clone"
    for industry, (id_map, files) in _corpus().items():
        folder = work / "data" / "yanbao" / industry
        (folder / "raw_json_data").mkdir(parents=True)
        (folder / bench.ID_MAP).write_bytes(id_map)
        for name, data in files.items():
            (folder / "raw_json_data" / name).write_bytes(data)
    _git(tmp_path, "init", "-q", str(work))
    _git(work, "add", "-A")
    _git(work, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "corpus")
    commit = _git(work, "rev-parse", "HEAD")
    monkeypatch.setattr(bench, "COMMIT", commit)
    monkeypatch.setattr(bench, "INDUSTRIES", ("dianzi", "yimei"))
    monkeypatch.setattr(bench, "BASE_TREE", _git(work, "rev-parse", f"{commit}:data/yanbao"))
    read = bench.read_corpus(work / ".git")
    assert bench.select(read) == bench.select(_corpus())
    monkeypatch.setattr(bench, "BASE_TREE", "0" * 40)
    with pytest.raises(SystemExit, match="not the pinned"):
        bench.read_corpus(work / ".git")
