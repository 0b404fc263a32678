"""Level names and order come from the rules file everywhere: a copy of the default rules whose levels are
renamed 危险 / 关注 / 安全 / 未知 is screened for real, and its names appear in report.html's summary, in
report.md (summary and worst-level rows) and in `lmscreen history`; the default rules' outputs keep 高 / 中 /
低 / 未知 exactly as before."""

from __future__ import annotations

import csv
import json
import re
from collections.abc import Iterator
from pathlib import Path

import polars as pl
import pytest

from lmscreen.cli import main
from lmscreen.outputs import levels
from lmscreen.report.diff import diff_verdicts
from lmscreen.report.html import write_report
from lmscreen.rules import DEFAULT_RULES_PATH, load_rules
from lmscreen.run.options import ScreenOptions
from lmscreen.run.runner import screen

ROOT = Path(__file__).resolve().parents[1]
POOL = ROOT / "examples" / "pool.csv"
RENAMED = {"高": "危险", "中": "关注", "低": "安全", "未知": "未知"}
DEFAULT_NAMES = "names: {high: 高, unknown: 未知, medium: 中, low: 低}"


def renamed_rules(path: Path) -> Path:
    """default.yaml with its levels renamed (thresholds untouched): every verdict maps one to one."""
    text = DEFAULT_RULES_PATH.read_text(encoding="utf-8")
    assert DEFAULT_NAMES in text, "default.yaml's level names moved: update this test's copy"
    path.write_text(
        text.replace(DEFAULT_NAMES, "names: {high: 危险, unknown: 未知, medium: 关注, low: 安全}"),
        encoding="utf-8",
    )
    return path


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Path]]:
    """The example pool screened (rules only) with the default rules, then with the renamed ones, into a
    history of its own."""
    tmp = tmp_path_factory.mktemp("levels")
    mp = pytest.MonkeyPatch()
    mp.setenv("LMSCREEN_HOME", str(tmp / "home"))
    try:
        rules = renamed_rules(tmp / "renamed.yaml")
        out = {"default": tmp / "default", "renamed": tmp / "renamed", "home": tmp / "home"}
        screen(ScreenOptions(pool=POOL, out=out["default"], no_llm=True, progress=False))
        screen(ScreenOptions(pool=POOL, out=out["renamed"], no_llm=True, progress=False, rules=rules))
        yield out
    finally:
        mp.undo()


def _counts(out: Path) -> dict[str, int]:
    return json.loads((out / "run.json").read_text(encoding="utf-8"))["counts"]["risk_levels"]


def _levels_in_csv(out: Path) -> list[str]:
    with (out / "results.csv").open(encoding="utf-8-sig", newline="") as fh:
        return [r["risk_level"] for r in csv.DictReader(fh)]


def _summary_cards(out: Path) -> list[tuple[str, int, str]]:
    html = (out / "report.html").read_text(encoding="utf-8")
    summary = html[html.index('<section id="summary">') : html.index("</section>")]
    cards = re.findall(r'<div class="card lv-([^"]+)"><b>(\d+)</b><span>([^<]*)</span>', summary)
    return [(cls, int(n), name) for cls, n, name in cards]


def test_the_renamed_rules_give_the_same_verdicts_under_their_own_names(runs: dict[str, Path]) -> None:
    assert [RENAMED[lv] for lv in _levels_in_csv(runs["default"])] == _levels_in_csv(runs["renamed"])
    counts = _counts(runs["renamed"])
    assert set(counts) == {"危险", "关注", "安全", "未知"}
    assert counts == {RENAMED[lv]: n for lv, n in _counts(runs["default"]).items()}


def test_report_html_summary_shows_every_level_of_the_rules(runs: dict[str, Path]) -> None:
    counts = _counts(runs["renamed"])
    expected = [(lv, counts[lv], lv) for lv in ("危险", "关注", "安全", "未知") if counts.get(lv)]
    assert _summary_cards(runs["renamed"]) == expected and len(expected) == 4
    default = _counts(runs["default"])
    assert _summary_cards(runs["default"]) == [(lv, default[lv], lv) for lv in ("高", "中", "低", "未知")]
    html = (runs["renamed"] / "report.html").read_text(encoding="utf-8")
    # The renamed levels get colours of their own (by rank: the worst red), the default ones keep the CSS's.
    assert '[class~="lv\\2d 危险"]{color:#c62828}' in html
    assert "lv\\2d " not in (runs["default"] / "report.html").read_text(encoding="utf-8")
    data = json.loads(html.split('id="lmscreen-data">', 1)[1].split("</script>", 1)[0])
    assert data["levels"] == {"危险": "危险", "关注": "关注", "安全": "安全", "未知": "未知"}
    assert data["level_order"] == ["危险", "未知", "关注", "安全"], "the table sorts in the rules' order"
    assert "危险" in html.split('id="chart-levels"', 1)[1].split("</figure>", 1)[0], "the levels chart"


def test_report_md_lists_the_levels_and_the_worst_rows_of_the_rules(runs: dict[str, Path]) -> None:
    md = (runs["renamed"] / "report.md").read_text(encoding="utf-8")
    counts = _counts(runs["renamed"])
    summary = ", ".join(f"{lv} {counts[lv]}" for lv in ("危险", "关注", "安全", "未知"))
    assert f"({summary})" in md
    worst = [lv == "危险" for lv in _levels_in_csv(runs["renamed"])]
    assert f"## 「危险」级股票 ({sum(worst)})" in md and sum(worst) > 0
    table = md.split("## 「危险」级股票", 1)[1].split("\n## ", 1)[0]
    assert len([line for line in table.splitlines() if line.startswith("| ") and "." in line]) == sum(worst)
    default = (runs["default"] / "report.md").read_text(encoding="utf-8")
    assert f"## 高风险股票 ({sum(worst)})" in default and "危险" not in default


def test_english_reports_keep_a_custom_name_and_translate_the_default_ones(runs: dict[str, Path]) -> None:
    write_report(runs["renamed"], lang="en")
    md = (runs["renamed"] / "report.md").read_text(encoding="utf-8")
    counts = _counts(runs["renamed"])
    shown = {"危险": "危险", "关注": "关注", "安全": "安全", "未知": "Unknown"}
    assert "(" + ", ".join(f"{name} {counts[lv]}" for lv, name in shown.items()) + ")" in md
    assert "## Stocks rated 危险" in md
    assert [name for _, _, name in _summary_cards(runs["renamed"])] == ["危险", "关注", "安全", "Unknown"]
    write_report(runs["renamed"], lang="zh")


def _table(text: str) -> tuple[list[str], list[list[str]]]:
    """Header and rows of the rich table `lmscreen history` prints."""
    header = next(line for line in text.splitlines() if line.startswith("┃"))
    rows = [line for line in text.splitlines() if line.startswith("│")]

    def cells(line: str, sep: str) -> list[str]:
        return [c.strip() for c in line.strip(sep).split(sep)]

    return cells(header, "┃"), [cells(r, "│") for r in rows]


def test_lmscreen_history_counts_each_run_under_its_own_levels(
    runs: dict[str, Path], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LMSCREEN_HOME", str(runs["home"]))
    with pytest.raises(SystemExit) as done:
        main(["history"])
    assert done.value.code == 0
    head, rows = _table(capsys.readouterr().out)
    # Newest first: the renamed run's levels, then the default run's (未知 is in both).
    assert head == [
        *("id", "finished (UTC)", "pool", "rows"),
        *("危险", "关注", "安全", "未知", "高", "中", "低"),
        *("rejected", "model"),
    ]
    renamed, default = _counts(runs["renamed"]), _counts(runs["default"])
    assert rows[0][0] == "2" and rows[0][4:11] == [
        str(renamed["危险"]),
        str(renamed["关注"]),
        str(renamed["安全"]),
        str(renamed["未知"]),
        "",
        "",
        "",
    ]
    assert rows[1][0] == "1" and rows[1][4:11] == [
        "",
        "",
        "",
        str(default["未知"]),
        str(default["高"]),
        str(default["中"]),
        str(default["低"]),
    ]
    with pytest.raises(SystemExit):
        main(["history", "--json"])
    listed = json.loads(capsys.readouterr().out)["runs"]
    assert [r["level_order"] for r in listed] == [
        ["危险", "关注", "安全", "未知"],
        ["高", "中", "低", "未知"],
    ]


def test_history_of_default_runs_only_keeps_its_columns(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LMSCREEN_HOME", str(tmp_path / "home"))
    screen(ScreenOptions(pool=POOL, out=tmp_path / "out", no_llm=True, progress=False))
    with pytest.raises(SystemExit):
        main(["history"])
    head, rows = _table(capsys.readouterr().out)
    assert head == ["id", "finished (UTC)", "pool", "rows", "高", "中", "低", "未知", "rejected", "model"]
    counts = _counts(tmp_path / "out")
    assert rows[0][4:8] == [str(counts.get(lv, 0)) for lv in ("高", "中", "低", "未知")]


def test_levels_of_the_default_rules_are_the_outputs_old_order() -> None:
    scale = levels.from_rules(load_rules())
    assert scale == levels.DEFAULT
    assert scale.shown == ("高", "中", "低", "未知") and scale.worst == "高"
    assert scale.severity == ("高", "未知", "中", "低")
    assert levels.from_spec(None) == levels.DEFAULT and levels.from_spec({"levels": 3}) == levels.DEFAULT


def test_a_level_that_only_asks_for_a_missing_value_is_listed_last(tmp_path: Path) -> None:
    scale = levels.from_rules(load_rules(renamed_rules(tmp_path / "r.yaml")))
    assert scale.shown == ("危险", "关注", "安全", "未知") and scale.worst == "危险"
    assert scale.severity == ("危险", "未知", "关注", "安全")
    assert [scale.color(lv) for lv in scale.shown] == ["#c62828", "#ef8f00", "#2e7d32", "#8a8a8a"]
    assert levels.english("危险") == "危险" and levels.english("未知") == "Unknown"
    assert scale.ordered(["安全", None, "旧等级", "危险"]) == ["危险", "安全", "旧等级", None]
    assert scale.color("旧等级") == levels.OTHER_COLOR


def test_diff_lists_changes_most_severe_first_in_the_rules_order(tmp_path: Path) -> None:
    scale = levels.from_rules(load_rules(renamed_rules(tmp_path / "r.yaml")))
    old = pl.DataFrame({"code": ["A", "B", "C", "D"], "name": list("abcd"), "risk_level": ["未知"] * 4})
    new = old.with_columns(pl.Series("risk_level", ["安全", "未知", "关注", "危险"]))
    moved = diff_verdicts(old, new, scale=scale).changed
    assert [c["risk_level_b"] for c in moved] == ["危险", "关注", "安全"]
    # Under the default levels these names are unknown: they would be sorted by name, not by severity.
    assert [c["code"] for c in diff_verdicts(old, new).changed] == ["A", "C", "D"]


def test_custom_levels_are_coloured_and_filterable_in_chromium(browser, runs: dict[str, Path]) -> None:
    from browser import Page

    p = Page(browser)
    try:
        p.open(runs["renamed"] / "report.html")
        page = p.page
        colour = "el => getComputedStyle(el).color"
        assert page.eval_on_selector('.card[class~="lv-危险"] b', colour) == "rgb(198, 40, 40)"
        assert page.eval_on_selector('.card[class~="lv-安全"] b', colour) == "rgb(46, 125, 50)"
        options = page.eval_on_selector_all("#f-level option", "os => os.map(o => o.value)")
        assert options == ["", "危险", "未知", "关注", "安全"], "the rules' levels, worst first"
        page.select_option("#f-level", "危险")
        shown = page.eval_on_selector_all(
            "#grid tbody tr:not([hidden]) td:nth-child(5)", "tds => tds.map(t => t.textContent)"
        )
        assert shown == ["危险"] * _counts(runs["renamed"])["危险"]
        assert p.errors() == [] and all(u.startswith("file:") for u in p.requests)
    finally:
        p.close()
