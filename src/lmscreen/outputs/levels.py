"""A run's risk levels as every output shows them: their names, their order, the worst one, their colours.

A rules file names its own levels (`levels.order`, most severe first, and `levels.names`, the text written
into `risk_level`), so no output may spell out 高 / 中 / 低 / 未知: a file whose levels are 危险 / 关注 /
安全 / 未知 must see those names in report.html, report.md and `lmscreen history`. Everything here is
read from the rules as recorded with the run (run.json's `rules.spec`, the history's `rules_json`), as
plain JSON, so a report re-rendered years later, or from a history row, shows the run's own levels.

Two orders, because the rules file has one and the reader needs another:
- `severity`: the rules' order, first fired level wins. Its first entry is the run's worst level (the one
  report.md lists row by row); the page's table sorts by it.
- `shown`: the order in which counts are listed. The same, except that a level whose every rule only asks
  whether a value is missing (`is_null`: the default file's 未知, "no ROE, cannot judge") says that a
  judgement could not be made, not how bad a stock is: it goes after the judged levels. For the default
  rules this is 高 中 低 未知, the order the outputs have always used.

Colours and English names are known for the four default names; any other level keeps its own name in
English too and takes its colour from PALETTE by its place in `shown`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol


class Rules(Protocol):
    """What is read of loaded rules (a `rules.RuleSet`): their JSON form. A protocol, not an import, so
    that outputs/ stays a leaf package."""

    def model_dump(self, *, mode: str = ...) -> dict[str, Any]: ...


ENGLISH: dict[str, str] = {"高": "High", "中": "Medium", "低": "Low", "未知": "Unknown"}
"""English names of the default levels; any other level is shown under its own name in English too."""

COLORS: dict[str, str] = {"高": "#c62828", "中": "#ef8f00", "低": "#2e7d32", "未知": "#8a8a8a"}
"""Chart colours of the default levels (the values the charts have always used)."""

PALETTE: tuple[str, ...] = (
    "#c62828",
    "#ef8f00",
    "#2e7d32",
    "#8a8a8a",
    "#6a1b9a",
    "#00838f",
    "#ad1457",
    "#5d4037",
)
"""Colours of other levels by their rank in `shown`, cycling: red, orange, green, grey first, so a renamed
copy of the default file looks like the default."""

OTHER_COLOR = "#5c6bc0"
"""A level the run's rules do not name (a row without a level, a level of an older run)."""


@dataclass(frozen=True)
class LevelScale:
    """One run's levels, by their display names (the text in `risk_level`)."""

    severity: tuple[str, ...]
    """The rules' order, most severe first (first fired level wins)."""
    shown: tuple[str, ...]
    """The order counts are listed in: `severity` with the levels that only say a value is missing last."""

    @property
    def worst(self) -> str:
        """The most severe level: the rows report.md lists one by one."""
        return self.severity[0]

    def rank(self, level: str | None) -> int:
        """Place in `shown`; a level the rules do not name comes after all of theirs."""
        try:
            return self.shown.index(level)  # type: ignore[arg-type]
        except ValueError:
            return len(self.shown)

    def ordered(self, levels: Iterable[str | None]) -> list[str | None]:
        """`levels` (any iterable of names, a dict's keys) in `shown` order, then any other name sorted,
        None last: nothing present is ever left out."""
        present = list(dict.fromkeys(levels))
        known = [lv for lv in self.shown if lv in present]
        extra = sorted((lv for lv in present if lv not in self.shown), key=lambda lv: (lv is None, str(lv)))
        return [*known, *extra]

    def color(self, level: str | None) -> str:
        if level in COLORS:
            return COLORS[level]  # type: ignore[index]
        if level is None or level not in self.shown:
            return OTHER_COLOR
        return PALETTE[self.shown.index(level) % len(PALETTE)]

    def custom(self) -> list[str]:
        """The levels without a colour of their own (not one of the four default names), in `shown` order."""
        return [lv for lv in self.shown if lv not in COLORS]


def english(level: str | None) -> str:
    """A level's English name: a default level's translation, any other level's own name."""
    if level is None:
        return ""
    return ENGLISH.get(level, level)


DEFAULT = LevelScale(severity=("高", "未知", "中", "低"), shown=("高", "中", "低", "未知"))
"""The shipped rules' levels (rules/default.yaml); also what a run recorded without its rules gets."""


def from_spec(spec: Mapping[str, Any] | None) -> LevelScale:
    """The levels of rules recorded as JSON (run.json's `rules.spec`, `RuleSet.model_dump(mode="json")`);
    DEFAULT when there is none or it is not a rules spec."""
    if not isinstance(spec, Mapping):
        return DEFAULT
    levels = spec.get("levels")
    if not isinstance(levels, Mapping):
        return DEFAULT
    order, names = levels.get("order"), levels.get("names")
    if not isinstance(order, list) or not order or not all(isinstance(lv, str) for lv in order):
        return DEFAULT
    names = names if isinstance(names, Mapping) else {}
    rules = [r for r in spec.get("rules") or [] if isinstance(r, Mapping)]

    def missing_only(level: str) -> bool:
        ops = [r.get("op") for r in rules if r.get("level") == level]
        return bool(ops) and all(op == "is_null" for op in ops)

    shown_of = {lv: str(names.get(lv, lv)) for lv in order}
    severity = tuple(shown_of[lv] for lv in order)
    shown = tuple(shown_of[lv] for lv in order if not missing_only(lv)) + tuple(
        shown_of[lv] for lv in order if missing_only(lv)
    )
    return LevelScale(severity=severity, shown=shown)


def from_rules(rules: Rules | None) -> LevelScale:
    """The levels of loaded rules (None: DEFAULT)."""
    return DEFAULT if rules is None else from_spec(rules.model_dump(mode="json"))


def merged(scales: Iterable[LevelScale], present: Iterable[str | None] = ()) -> list[str | None]:
    """Columns for a table of several runs: each run's `shown` levels in turn (the first run's order
    first, then any level a later run adds), then any other name in `present`. For runs of one rules file
    this is that file's `shown` order."""
    out: list[str | None] = []
    for scale in scales:
        out.extend(lv for lv in scale.shown if lv not in out)
    rest = sorted({lv for lv in present if lv not in out}, key=lambda lv: (lv is None, str(lv)))
    return out + rest
