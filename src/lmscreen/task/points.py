"""One filing read into points: every fact the facts layer finds, with the sentence it stands in.

Shared by the tasks: `compare` reads its documents as points, and `screen` leaves the sheet it read here
(`remember_sheet`) so a later `compare` of the same file does not read it again; neither task imports
the other (an import-linter contract).

Why the sentence is kept with each point: compare.html shows it when a chart point is clicked, and a PDF
is never extracted again to show it. Why cached on disk by the file's SHA-256 (with FACTS_VERSION and the
company's names): a document read in an earlier `compare` run (or the same one, killed and resumed) is
not read again; an edited file, a changed reader or other names is a new entry (filings/cache.py).
"""

from __future__ import annotations

import hashlib
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from lmscreen.errors import InputError
from lmscreen.filings import Filing
from lmscreen.filings import cache as disk
from lmscreen.task.fact import Fact
from lmscreen.task.facts import FACTS_VERSION, FactSheet, read_facts

POINTS_VERSION = "1"
"""The shape of a cached entry: a change here (or in FACTS_VERSION) never reads an old one."""
_ENDS = "。！？!?；;\n"
_SIDE = 80


@dataclass(frozen=True)
class Point:
    """A fact as compare keeps it: what it says and where it is printed."""

    metric: str
    period: str | None
    scope: str
    segment: str | None
    basis: str
    value: float
    unit: str
    label: str
    source: str
    rank: int
    tier: int
    page: int | None
    start: int
    end: int
    before: str
    hit: str
    after: str

    @property
    def evidence(self) -> str:
        return f"{self.before}{self.hit}{self.after}"


@dataclass
class DocPoints:
    """A document's points, its own period and its title line (an industry report's subject)."""

    sha256: str
    period: str | None
    title: str
    points: list[Point] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "sha256": self.sha256,
            "period": self.period,
            "title": self.title,
            "points": [asdict(p) for p in self.points],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> DocPoints:
        return cls(data["sha256"], data["period"], data["title"], [Point(**p) for p in data["points"]])


def _squash(text: str) -> str:
    return " ".join(text.split())


def _quote(text: str, start: int, end: int) -> tuple[str, str, str]:
    """(before, the number, after): the sentence (or table row) around a span, at most _SIDE a side."""
    cut = max(text.rfind(ch, 0, start) for ch in _ENDS) + 1
    cut = max(cut, start - _SIDE)
    stops = [i for i in (text.find(ch, end) for ch in _ENDS) if i >= 0]
    stop = min([*stops, end + _SIDE, len(text)])
    if stop < len(text) and text[stop] in _ENDS and text[stop] != "\n":
        stop += 1
    before, after = _squash(text[cut:start]), _squash(text[end:stop])
    if text[cut:start][-1:].isspace() and before:
        before += " "
    if text[end:stop][:1].isspace() and after:
        after = " " + after
    return before, text[start:end], after


def _point(fact: Fact, text: str) -> Point:
    before, hit, after = _quote(text, fact.start, fact.end)
    return Point(
        fact.metric,
        fact.period_label,
        fact.scope,
        fact.segment,
        fact.basis,
        fact.value,
        fact.unit,
        fact.label,
        fact.source,
        fact.rank,
        fact.tier,
        fact.page,
        fact.start,
        fact.end,
        before,
        hit,
        after,
    )


def _title(text: str) -> str:
    for line in text.splitlines():
        if line.strip():
            return line.strip()[:120]
    return ""


def entry_name(sha256: str, names: tuple[str, ...]) -> str:
    """The cache entry of a file's points under the current reader and the company's names."""
    named = hashlib.sha256("\x1f".join(names).encode("utf-8")).hexdigest()[:12]
    return f"points-f{FACTS_VERSION}-p{POINTS_VERSION}-{sha256}-{named}"


def read_points(path: Path, names: tuple[str, ...], sha256: str) -> DocPoints:
    """The document's points: from the cross-run cache, else read (and cached). InputError when the file
    cannot be read (a scanned PDF, undecodable text)."""
    name = entry_name(sha256, names)
    cached = disk.load(name)
    if isinstance(cached, dict):
        try:
            return DocPoints.from_json(cached)
        except (KeyError, TypeError):
            pass  # a damaged entry is only a miss
    points = _read(path, names, sha256)
    disk.store(name, points.to_json())
    return points


def remember_sheet(path: Path, names: tuple[str, ...], sheet: FactSheet) -> None:
    """Keep a sheet another command read (`screen`) as this file's points, so a later `compare` with the
    same names does not read the file again. Never fatal: a file that cannot be hashed is skipped."""
    try:
        sha256 = disk.file_sha256(path)
    except OSError:
        return
    name = entry_name(sha256, names)
    if disk.entry_path(name).exists():
        return
    disk.store(name, _points(sha256, sheet).to_json())


def _read(path: Path, names: tuple[str, ...], sha256: str) -> DocPoints:
    filing = Filing(path=path)
    try:
        text = filing.read()
        pdf = filing.pdf()
        sheet = read_facts(text, page_at=pdf.page_at if pdf is not None else None, names=names)
    finally:
        filing.release()
    return _points(sha256, sheet)


def _points(sha256: str, sheet: FactSheet) -> DocPoints:
    """A sheet as the cache keeps it: its period, title and every fact as a point."""
    label = sheet.period.label() if sheet.period is not None else None
    return DocPoints(sha256, label, _title(sheet.text), [_point(f, sheet.text) for f in sheet.facts])


def file_digest(path: Path) -> str:
    """The file's SHA-256; InputError naming the file when it cannot be read."""
    try:
        return disk.file_sha256(path)
    except OSError as exc:
        raise InputError(f"{path}: cannot be read ({exc.strerror or exc})") from exc
