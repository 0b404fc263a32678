"""model.record.Record against pydantic, which it replaced in model/: the same values kept, the same
conversions, the same fields refused (loc and message), the same model_dump and model_copy.

pydantic stays installed (the rules' schema and the task use it), so each case is run through a pydantic
model and a Record with the same fields, side by side.
"""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from lmscreen.model.record import Record, RecordError, field


class PInner(BaseModel):
    rank: int
    dim: int = 4


class RInner(Record):
    rank: int
    dim: int = 4


class PModel(BaseModel):
    model_config = ConfigDict(validate_assignment=True)

    name: str
    count: int | None = None
    ratio: float = 0.0
    maybe: float | None = None
    flag: bool = False
    either: int | float | None = None
    label: str | None = None
    tags: list[str] = Field(default_factory=list)
    sizes: dict[str, int] = Field(default_factory=dict)
    knobs: dict[str, float] = Field(default_factory=dict)
    mixed: dict[str, int | float] = Field(default_factory=dict)
    anything: dict[str, Any] = Field(default_factory=dict)
    inner: PInner | None = None
    inners: list[PInner] = Field(default_factory=list)


class RModel(Record):
    check_assignment = True

    name: str
    count: int | None = None
    ratio: float = 0.0
    maybe: float | None = None
    flag: bool = False
    either: int | float | None = None
    label: str | None = None
    tags: list[str] = field(default_factory=list)
    sizes: dict[str, int] = field(default_factory=dict)
    knobs: dict[str, float] = field(default_factory=dict)
    mixed: dict[str, int | float] = field(default_factory=dict)
    anything: dict[str, Any] = field(default_factory=dict)
    inner: RInner | None = None
    inners: list[RInner] = field(default_factory=list)


VALUES: dict[str, list[Any]] = {
    # a malformed config.json's numbers (bench/reliability.py model-inspect found 1e308 in a count)
    "count": [3, 3.0, True, "12", " 7 ", 4.5, "x", "4.5", None, [1], math.inf, math.nan, 1e308, -1e19]
    + [float(2**63), float(2**63 - 1024), -float(2**63), 2**70, "1.00", "-1.0", "+5", "1.", ".0", "1e3"]
    + ["00012", "1_000", "1__0", "_1", "0x10", "\u0663", "", " ", "1" * 5000],
    "ratio": [1, 1.5, True, "2.25", "x", None, [1], "inf", "1e3", "1_0", "0x1", "", 10**400],
    "maybe": [1, None, "3", "y"],
    "flag": [
        True,
        0,
        1,
        2,
        "yes",
        "off",
        "True",
        "maybe",
        1.0,
        None,
        " yes ",
        "YES",
        "On",
        2.0,
        0.0,
        1.5,
        "",
    ],
    "either": [1, 1.5, True, "2", "2.5", "z", None],
    "label": ["a", 3, None, b"x"[0], ["a"]],
    "tags": [["a", "b"], ("a",), ["a", 1], "ab", None],
    "sizes": [{"a": 1}, {"a": 2.0}, {"a": 2.5}, {"a": "3"}, [1], None],
    "knobs": [{"k": 20}, {"k": 0.5}, {"k": "x"}],
    "mixed": [{"k": 20}, {"k": 0.5}, {"k": True}, {"k": "7"}],
    "anything": [{"k": [1, {"a": None}]}],
    "inner": [{"rank": 2}, {"rank": "3", "dim": 8.0}, {"rank": "x"}, {}, 5, None],
    "inners": [[{"rank": 1}, {"rank": 2, "dim": 3}], [{"rank": 1}, {"dim": 3}], "x"],
}


def _outcome(cls: type, **kw: Any) -> tuple[str, Any]:
    """('ok', model_dump) or ('error', [(loc, msg) ...]) for the pydantic or the Record class."""
    try:
        made = cls(**kw)
    except (ValidationError, RecordError) as exc:
        return "error", _first(exc)
    return "ok", made.model_dump()


def _first(exc: ValidationError | RecordError) -> list[tuple[tuple[Any, ...], str]]:
    """The first error's path and message, the two test classes' names made one."""
    return [(tuple(e["loc"]), e["msg"].replace("PInner", "RInner")) for e in exc.errors()][:1]


@pytest.mark.parametrize("name", sorted(VALUES))
def test_construction_keeps_converts_and_refuses_as_pydantic_did(name: str) -> None:
    for value in VALUES[name]:
        want = _outcome(PModel, name="m", **{name: value})
        got = _outcome(RModel, name="m", **{name: value})
        assert got == want, (name, value)
        if want[0] == "ok":  # the kept value's type too (1 vs 1.0 prints differently)
            assert [type(v) for v in got[1].values()] == [type(v) for v in want[1].values()], (name, value)


def test_missing_field_and_unknown_keyword() -> None:
    assert _outcome(RModel) == _outcome(PModel) == ("error", [(("name",), "Field required")])
    assert _outcome(RModel, name="m", other=1) == _outcome(PModel, name="m", other=1)


@pytest.mark.parametrize("name", sorted(VALUES))
def test_checked_assignment_as_validate_assignment(name: str) -> None:
    for value in VALUES[name]:
        mine, theirs = RModel(name="m"), PModel(name="m")
        outcomes = []
        for made in (mine, theirs):
            try:
                setattr(made, name, value)
                outcomes.append(("ok", made.model_dump()))
            except (ValidationError, RecordError) as exc:
                outcomes.append(("error", _first(exc)))
        assert outcomes[0] == outcomes[1], (name, value)


def test_json_dump_writes_numbers_in_float_slots_as_floats() -> None:
    # A record without checked assignment keeps what is assigned; pydantic's JSON serializer then wrote an
    # int in a float slot as a float (a launch preset's top_k 20 assigned after construction: 20.0).
    class PLoose(BaseModel):
        knobs: dict[str, float] = Field(default_factory=dict)
        ratio: float = 0.0
        either: int | float = 0
        items: list[float] = Field(default_factory=list)

    class RLoose(Record):
        knobs: dict[str, float] = field(default_factory=dict)
        ratio: float = 0.0
        either: int | float = 0
        items: list[float] = field(default_factory=list)

    dumps = []
    for made in (PLoose(), RLoose()):
        made.knobs, made.ratio, made.either, made.items = {"top_k": 20}, 3, 2, [1, 2.5]
        dumps.append((made.model_dump(), json.dumps(made.model_dump(mode="json"))))
    assert dumps[0] == dumps[1]
    assert dumps[1][1] == '{"knobs": {"top_k": 20.0}, "ratio": 3.0, "either": 2, "items": [1.0, 2.5]}'


def test_dump_exclude_copy_and_equality() -> None:
    kw = {"name": "m", "count": 2, "tags": ["a"], "inner": {"rank": 1}, "inners": [{"rank": 2}]}
    mine, theirs = RModel(**kw), PModel(**kw)
    assert mine.model_dump(mode="json", exclude={"tags"}) == theirs.model_dump(mode="json", exclude={"tags"})
    assert list(mine.model_dump()) == list(theirs.model_dump())  # field order kept
    copied = mine.model_copy(update={"count": "not checked", "label": "b"})
    assert copied.count == "not checked" and copied.label == "b" and mine.count == 2 and mine.label is None
    assert copied.inners is mine.inners  # shallow, as pydantic's
    assert RModel(**kw) == mine and RModel(**kw) != copied
    tags = ["a"]
    assert RModel(name="m", tags=tags).tags is not tags  # containers are copied on construction


def test_a_reader_error_names_the_field_in_one_line() -> None:
    from lmscreen.model.arch.read import _one_line

    with pytest.raises(ValueError) as caught:
        RModel(name="m").count = "x"
    want = "count: Input should be a valid integer, unable to parse string as an integer"
    assert _one_line(caught.value) == want
