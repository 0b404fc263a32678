"""`lmscreen compare` end to end on real PDFs (reportlab), the real runner and checkpoint, a real loopback
chat server for the model path, and a real SIGKILL mid-run."""

from __future__ import annotations

import csv
import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from compare_docs import COMPANIES, STATED, build, medians
from compare_server import SERVED_MODEL, CompareServer
from lmscreen.errors import InputError
from lmscreen.run.compare import CompareOptions, compare

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture()
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("LMSCREEN_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    return build(tmp_path_factory.mktemp("docs"))


def rows(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def run(docs: Path, industries: Path, out: Path, **kw: object) -> None:
    compare(CompareOptions(docs=docs, out=out, industries=industries, progress=False, **kw))  # type: ignore[arg-type]


def cli(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "lmscreen", "compare", *args, "--quiet"],
        capture_output=True, text=True, env=env, timeout=600,
    )  # fmt: skip


def test_medians_n_and_stated_from_pdfs_and_points_link_to_their_pages(
    built: tuple[Path, Path], tmp_path: Path, home: Path
) -> None:
    docs, industries = built
    out = tmp_path / "out"
    run(docs, industries, out, periods="2021:2024")
    trends = rows(out / "trends.csv")
    for industry in STATED:
        mine = [r for r in trends if r["industry"] == industry]
        assert [r["period"] for r in mine] == ["FY2021", "FY2022", "FY2023", "FY2024"]
        for r, median, stated in zip(mine, medians(industry), STATED[industry], strict=False):
            assert float(r["median"]) == pytest.approx(median)
            assert r["n"] == "3" and float(r["stated"]) == pytest.approx(stated)
            assert r["stated_document"] == f"{industry}行业研究.pdf" and r["stated_page"] == "2"
            assert sorted(r["codes"].split(";")) == sorted(
                c for c, v in COMPANIES.items() if v[1] == industry
            )
        assert mine[3]["median"] == "" and mine[3]["n"] == "0" and mine[3]["flags"] == "missing"
    series = rows(out / "series.csv")
    assert len(series) == 18
    for r in series:
        year = int(r["period"][2:])
        assert float(r["value"]) == pytest.approx(COMPANIES[r["code"]][2][year - 2021])
        assert r["page"] == "3" and r["document"] == f"{r['code']}.pdf" and r["status"] == "ok"
    page = (out / "compare.html").read_text(encoding="utf-8")
    # the 光伏 FY2022 point links to a section quoting each company's table row on page 3
    target = re.search(r'xlink:href="#(ev-\d+)"><desc class="xlink">#ev-\d+</desc>', page)
    assert target is not None
    section = page[page.index(f'id="{target.group(1)}"') :].split("</section>", 1)[0]
    assert "光伏 · 毛利率 · FY2021" in section
    assert section.count("页 3") == 3 and "<mark>20.1</mark>" in section
    assert "页 2" in section and "<mark>24.3%</mark>" in section  # the report's stated value, its page
    info = json.loads((out / "compare.json").read_text(encoding="utf-8"))
    assert info["narrative_source"] == "template"
    assert "光伏：毛利率由FY2021的20.1%降至FY2023的18.9%（−1.2个百分点，3家）" in info["narrative"]
    assert "锂电：毛利率由FY2021的18.0%升至FY2023的20.2%（+2.2个百分点，3家）" in info["narrative"]
    assert info["narrative"] in (out / "compare.md").read_text(encoding="utf-8")
    readme = (ROOT / "README.md").read_text(encoding="utf-8").split("## Compare industries", 1)[1]
    shown = readme.split("`template` (deterministic: `", 1)[1].split("；…`", 1)[0]
    assert " ".join(shown.split()).replace(" ", "") in info["narrative"], "the README quotes the real text"


def test_a_document_read_in_an_earlier_run_is_not_read_again(
    built: tuple[Path, Path], tmp_path: Path, home: Path
) -> None:
    docs, industries = built
    run(docs, industries, tmp_path / "first")
    entries = sorted((home / "cache" / "filings").glob("points-*.json"))
    assert len(entries) == 8
    # Plant a value in one cached entry: a run in another OUT that re-read the PDF would not show it.
    planted = next(e for e in entries if json.loads(e.read_text())["title"].startswith("隆基绿能"))
    data = json.loads(planted.read_text())
    for p in data["points"]:
        if p["metric"] == "gross_margin" and p["period"] == "FY2023":
            p["value"] = 99.0
    planted.write_text(json.dumps(data, ensure_ascii=False))
    run(docs, industries, tmp_path / "second")
    value = {(r["code"], r["period"]): r["value"] for r in rows(tmp_path / "second" / "series.csv")}
    assert value[("601012", "FY2023")] == "99.0"


KILLER = """
import os, signal, sys
from pathlib import Path
from lmscreen.engines.protocol import LLMResult
from lmscreen.run.compare import CompareOptions, compare

class Killer:
    name, model = "template", "none"
    def count_tokens(self, text): return len(text)
    def identity(self): return {"engine": "template"}
    def describe(self): return {"name": self.name}
    def close(self): pass
    def run(self, requests):
        for n, request in enumerate(requests):
            if n == int(sys.argv[4]):
                os.kill(os.getpid(), signal.SIGKILL)
            yield LLMResult(key=request.key, text=None, finish_reason="template")

compare(CompareOptions(docs=Path(sys.argv[1]), industries=Path(sys.argv[2]), out=Path(sys.argv[3]),
        progress=False), doc_engine=Killer())
"""


def test_killed_mid_run_and_rerun_gives_the_same_trends(
    built: tuple[Path, Path], tmp_path: Path, home: Path
) -> None:
    docs, industries = built
    whole = tmp_path / "whole"
    run(docs, industries, whole)
    out = tmp_path / "killed"
    script = tmp_path / "killer.py"
    script.write_text(KILLER)
    env = {**os.environ, "LMSCREEN_HOME": str(tmp_path / "home2")}  # nothing cached yet: it reads
    proc = subprocess.run(
        [sys.executable, str(script), str(docs), str(industries), str(out), "3"], env=env, capture_output=True
    )
    assert proc.returncode == -signal.SIGKILL, proc.stderr
    assert not (out / "trends.csv").exists()
    import sqlite3

    with sqlite3.connect(out / "checkpoint.sqlite") as db:
        assert db.execute("SELECT count(*) FROM llm_results").fetchone()[0] == 3
    again = cli(str(docs), "--industries", str(industries), "--out", str(out), env=env)
    assert again.returncode == 0, again.stderr
    assert (out / "trends.csv").read_bytes() == (whole / "trends.csv").read_bytes()
    assert (out / "series.csv").read_bytes() == (whole / "series.csv").read_bytes()
    info = json.loads((out / "compare.json").read_text(encoding="utf-8"))
    assert len(info["documents"]) == 8
    assert info["runner"]["documents"]["resumed"] == 3 and info["runner"]["documents"]["sent"] == 5


def test_a_served_model_writes_the_comparison_only_with_table_numbers_and_is_asked_once(
    built: tuple[Path, Path], tmp_path: Path, home: Path
) -> None:
    docs, industries = built
    good = tmp_path / "good.txt"
    good.write_text("光伏毛利率中位数由FY2021的20.1%降至FY2023的18.9%，锂电由18.0%升至20.2%，两个行业各3家。")
    count = tmp_path / "calls"
    env = {**os.environ, "LMSCREEN_HOME": str(home)}
    out = tmp_path / "model"
    with CompareServer(good, count) as server:
        args = [str(docs), "--industries", str(industries), "--out", str(out), "--engine", "openai",
                "--base-url", server.base_url, "--model", SERVED_MODEL]  # fmt: skip
        first = cli(*args, env=env)
        assert first.returncode == 0, first.stderr
        assert count.read_text().count("call") == 1
        info = json.loads((out / "compare.json").read_text(encoding="utf-8"))
        assert info["narrative_source"] == "model" and info["narrative"] == good.read_text()
        second = cli(*args, env=env)
        assert second.returncode == 0, second.stderr
        assert count.read_text().count("call") == 1  # the same documents: no new model call
        again = json.loads((out / "compare.json").read_text(encoding="utf-8"))
        assert again["runner"]["narrative"]["sent"] == 0 and again["narrative_source"] == "model"
    bad = tmp_path / "bad.txt"
    bad.write_text("光伏毛利率由20.1%降至18.9%，下降1.2个百分点；锂电升至20.5%。")
    with CompareServer(bad, tmp_path / "calls2") as server:
        refused = tmp_path / "refused"
        proc = cli(str(docs), "--industries", str(industries), "--out", str(refused), "--engine", "openai",
                   "--base-url", server.base_url, "--model", SERVED_MODEL, env=env)  # fmt: skip
        assert proc.returncode == 0, proc.stderr
    info = json.loads((refused / "compare.json").read_text(encoding="utf-8"))
    assert info["narrative_source"] == "template_fallback"
    assert info["narrative"].startswith("光伏：毛利率由FY2021的20.1%")
    reasons = info["narrative_rejected"]["reasons"]
    assert "not a table cell: 1.2个百分点" in reasons and "not a table cell: 20.5%" in reasons


def _text_docs(folder: Path, docs: dict[str, str]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in docs.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def _table(year: int, values: list[float]) -> str:
    heads = " | ".join(f"{year - i}年" for i in range(len(values)))
    return (
        f"公司{year}年年度报告\n主要财务指标\n项目 | {heads}\n毛利率(%) | "
        + " | ".join(map(str, values))
        + "\n"
    )


def test_conflicts_single_companies_and_forecasts_are_shown_not_hidden(tmp_path: Path, home: Path) -> None:
    docs = _text_docs(
        tmp_path / "docs",
        {
            "600001_2023.txt": _table(2023, [18.0, 16.0]),
            "600001_2022.txt": _table(2022, [16.5, 15.0]),  # 2022 restated: 16.0 against 16.5
            "600002.txt": _table(2023, [20.0, 19.0]),
            "600003.txt": _table(2023, [30.0, 28.0]),
            "600004.txt": "公司2023年年度报告\n报告期内公司毛利率为25.0%。预计2024年公司毛利率为27.0%。\n",
        },
    )
    industries = tmp_path / "ind.csv"
    industries.write_text("600001,甲\n600002,甲\n600003,乙\n600004,乙\n", encoding="utf-8")
    out = tmp_path / "out"
    run(docs, industries, out, include_forecasts=True)
    trends = {(r["industry"], r["period"]): r for r in rows(out / "trends.csv")}
    assert trends[("甲", "FY2022")]["n"] == "1" and "conflict:600001" in trends[("甲", "FY2022")]["flags"]
    assert "n<2" in trends[("甲", "FY2022")]["flags"]
    assert trends[("甲", "FY2021")]["median"] == "15.0" and trends[("甲", "FY2021")]["n"] == "1"
    assert trends[("乙", "FY2023")]["median"] == "27.5"
    assert trends[("乙", "2024E")]["median"] == "27.0" and "forecast" in trends[("乙", "2024E")]["flags"]
    series = {(r["code"], r["period"]): r for r in rows(out / "series.csv")}
    conflict = series[("600001", "FY2022")]
    assert (
        conflict["status"] == "conflict" and conflict["value"] == "" and conflict["values"] == "16.5;16"
    )  # its own report first
    without = tmp_path / "without"
    run(docs, industries, without)
    assert not any(r["period"].endswith("E") for r in rows(without / "trends.csv"))


def test_bad_input_says_one_line_and_writes_what_it_can(
    built: tuple[Path, Path], tmp_path: Path, home: Path
) -> None:
    docs, industries = built
    env = {**os.environ, "LMSCREEN_HOME": str(home)}
    empty = tmp_path / "empty"
    empty.mkdir()
    proc = cli(str(empty), "--industries", str(industries), "--out", str(tmp_path / "o1"), env=env)
    assert proc.returncode == 2 and proc.stderr.strip().count("\n") == 0
    assert "no .pdf, .txt or .md document" in proc.stderr
    proc = cli(
        str(docs), "--industries", str(industries), "--metric", "beta", "--out", str(tmp_path / "o2"), env=env
    )
    assert proc.returncode == 2 and "--metric: 'beta' is not a metric" in proc.stderr
    proc = cli(
        str(docs),
        "--industries",
        str(industries),
        "--periods",
        "2030:2031",
        "--out",
        str(tmp_path / "o3"),
        env=env,
    )
    assert proc.returncode == 2 and "--periods 2030:2031: no document states gross_margin_pct" in proc.stderr
    assert (tmp_path / "o3" / "trends.csv").is_file()
    nobody = tmp_path / "nobody.csv"
    nobody.write_text("999999,其他\n", encoding="utf-8")
    proc = cli(str(docs), "--industries", str(nobody), "--out", str(tmp_path / "o4"), env=env)
    assert proc.returncode == 2 and "no document's company has an industry" in proc.stderr.splitlines()[-1]
    notices = json.loads((tmp_path / "o4" / "compare.json").read_text(encoding="utf-8"))["notices"]
    assert "601012.pdf: no industry for 601012 (not in the pool or --industries)" in notices
    assert (tmp_path / "o4" / "series.csv").is_file()
    mixed = _text_docs(tmp_path / "mixed", {"601012.txt": _table(2023, [18.9, 15.2])})
    (mixed / "600438.pdf").write_bytes(b"%PDF-1.4 not really")
    proc = cli(str(mixed), "--industries", str(industries), "--out", str(tmp_path / "o5"), env=env)
    assert proc.returncode == 0, proc.stderr
    assert "600438.pdf: unreadable" in proc.stderr
    assert rows(tmp_path / "o5" / "trends.csv")[0]["median"] == "15.2"
    with pytest.raises(InputError, match="--period-kind"):
        run(docs, industries, tmp_path / "o6", period_kind="Y")


def test_a_document_screen_read_is_not_read_again_by_compare(
    built: tuple[Path, Path], tmp_path: Path, home: Path
) -> None:
    docs, _ = built
    pool = tmp_path / "pool.csv"
    lines = ["code,name,industry"] + [f"{code},{name},{ind}" for code, (name, ind, _) in COMPANIES.items()]
    pool.write_text("\n".join(lines) + "\n", encoding="utf-8")
    env = {**os.environ, "LMSCREEN_HOME": str(home)}
    answer = tmp_path / "answer.txt"
    answer.write_text("{}")
    with CompareServer(answer, tmp_path / "calls") as server:
        proc = subprocess.run(
            [sys.executable, "-m", "lmscreen", "screen", str(pool), "--reports", str(docs), "--out",
             str(tmp_path / "screened"), "--engine", "openai", "--base-url", server.base_url, "--model",
             SERVED_MODEL, "--quiet"],
            capture_output=True, text=True, env=env, timeout=600,
        )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    entries = sorted((home / "cache" / "filings").glob("points-*.json"))
    assert len(entries) == 6  # the six companies' reports, read by screen with the pool's names
    planted = next(e for e in entries if json.loads(e.read_text())["title"].startswith("通威股份"))
    data = json.loads(planted.read_text())
    for p in data["points"]:
        if p["metric"] == "gross_margin" and p["period"] == "FY2022":
            p["value"] = 77.0
    planted.write_text(json.dumps(data, ensure_ascii=False))
    out = tmp_path / "compared"
    compare(CompareOptions(docs=docs, out=out, pool=pool, progress=False))
    series = {(r["code"], r["period"]): r for r in rows(out / "series.csv")}
    assert (
        series[("600438", "FY2022")]["value"] == "77.0" and series[("600438", "FY2022")]["name"] == "通威股份"
    )


def test_the_issue_s_industry_sentence_states_both_years(tmp_path: Path, home: Path) -> None:
    """`光伏行业平均毛利率由2022年的22.1%降至2023年的15.6%`: both levels are the industry's (task/prose.py's
    `由…至…` form with a year beside each level)."""
    docs = _text_docs(
        tmp_path / "docs",
        {
            "601012.txt": _table(2023, [18.9, 15.2]),
            "600438.txt": _table(2023, [20.2, 30.1]),
            "光伏行业点评.md": (
                "2024年光伏行业年度研究报告\n光伏行业平均毛利率由2022年的22.1%降至2023年的15.6%。\n"
            ),
        },
    )
    industries = tmp_path / "ind.csv"
    industries.write_text("code,行业\n601012,光伏\n600438,光伏\n", encoding="utf-8")
    out = tmp_path / "out"
    run(docs, industries, out)
    stated = {r["period"]: r["stated"] for r in rows(out / "trends.csv")}
    assert stated == {"FY2022": "22.1", "FY2023": "15.6"}


def test_hostile_names_stay_text_and_english_pages(tmp_path: Path, home: Path) -> None:
    hostile = '<script>alert(1)</script>"&'
    docs = _text_docs(
        tmp_path / "docs",
        {"600001.txt": _table(2023, [18.0, 16.0]), "600002.txt": _table(2023, [20.0, 19.0])},
    )
    industries = tmp_path / "ind.csv"
    industries.write_text(f"600001,'{hostile}'\n600002,=1+1\n", encoding="utf-8")
    out = tmp_path / "out"
    run(docs, industries, out, lang="en")
    page = (out / "compare.html").read_text(encoding="utf-8")
    assert "<script>alert" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert page.count("<script") == 1  # the page's own script only
    assert "Industry comparison" in page
    info = json.loads((out / "compare.json").read_text(encoding="utf-8"))
    assert (
        "=1+1: gross margin rose from 19.0% in FY2022 to 20.0% in FY2023 (+1.0 pp, n=1)" in info["narrative"]
    )
    cells = {r["industry"] for r in rows(out / "trends.csv")}
    assert "'=1+1" in cells  # a spreadsheet does not run it as a formula


def test_periods_metrics_and_kinds() -> None:
    from lmscreen.task.compare.metrics import metric_spec
    from lmscreen.task.compare.spans import parse_span

    assert metric_spec("毛利率").name == metric_spec("gross_margin").name == "gross_margin_pct"
    assert metric_spec("ROE").fact_metric == "roe" and metric_spec("revenue_growth_pct").growth
    fy = parse_span("2021:2023", "FY")
    assert fy.labels(set()) == ["FY2021", "FY2022", "FY2023"]
    assert fy.wants("FY2022") and not fy.wants("2022H1") and not fy.wants("2024E") and not fy.wants("FY2024")
    h1 = parse_span("2023", "H1")
    assert h1.labels(set()) == ["2023H1"] and h1.wants("2023H1") and not h1.wants("FY2023")
    q = parse_span("2024", "Q", include_forecasts=True)
    assert q.labels({"2024E"}) == ["2024Q1", "2024Q2", "2024Q3", "2024Q4", "2024E"]
    assert q.wants("2024Q3") and not q.wants("2024Q1-Q3") and q.wants("2024E")
    assert parse_span(None, "FY").labels({"FY2022", "FY2020"}) == ["FY2020", "FY2021", "FY2022"]
    for bad in ("2024-2021", "21:22", "2024:2021"):
        with pytest.raises(InputError, match="--periods"):
            parse_span(bad, "FY")
