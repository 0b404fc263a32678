"""Record: the typed, checked records of model/ (ModelSpec, GPU, Plan …) without pydantic.

Why not pydantic: importing it and building the schemas of model/'s eleven classes cost `lmscreen model
fit` ~0.15 s of its ~0.3 s, for records whose fields are plain scalars, lists, dicts and other records.
A Record keeps what model/ used of pydantic, with the same results:

- keyword construction; unknown keywords ignored; a missing field, or a value of the wrong type, raises
  RecordError (a ValueError with pydantic's `errors()` shape: loc and msg), so the readers' one-line
  errors (arch/read.py) still name the field;
- pydantic's lax conversions: a whole float or a numeric string to int, a number to float, 0/1 and
  yes/no words to bool, dicts to nested records; containers are copied;
- `check_assignment = True` checks every later assignment too (pydantic's validate_assignment);
- `model_dump(mode=..., exclude=...)` (nested records as dicts, field order kept) and
  `model_copy(update=...)` (a shallow copy, the update unchecked, as pydantic does).
"""

from __future__ import annotations

import copy
import dataclasses
import math
import re
import types
import typing
from typing import Any, ClassVar, Union

field = dataclasses.field

_MISSING = dataclasses.MISSING
_NONE = type(None)
_TRUE = {"1", "on", "t", "true", "y", "yes"}
_FALSE = {"0", "off", "f", "false", "n", "no"}


class RecordError(ValueError):
    """A field that cannot hold the value given; `errors()` lists them as pydantic's ValidationError does."""

    def __init__(self, title: str, errors: list[dict[str, Any]]) -> None:
        self.title = title
        self._errors = errors
        lines = [f"{len(errors)} validation error{'s' if len(errors) > 1 else ''} for {title}"]
        for error in errors:
            lines += [".".join(str(p) for p in error["loc"]), f"  {error['msg']}"]
        super().__init__("\n".join(lines))

    def errors(self) -> list[dict[str, Any]]:
        return list(self._errors)


class _Bad(Exception):
    def __init__(self, msg: str, loc: tuple[Any, ...] = ()) -> None:
        self.msg, self.loc = msg, loc


_INT_TEXT = re.compile(r"[+-]?[0-9]+(?:_[0-9]+)*(?:\.0+)?")
"""What pydantic's lax int reads from text: ASCII digits (single underscores between them), optionally a
zero fraction ("12.0"), surrounded by whitespace."""
_INT_LIMIT = 2**63
"""pydantic refuses a float at or beyond ±2**63 (its integer parser's range) with "exceeded maximum size"."""
_TOO_BIG = "Unable to parse input string as an integer, exceeded maximum size"


def _to_int(value: Any) -> int:
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise _Bad("Input should be a finite number")
        if not value.is_integer():
            raise _Bad("Input should be a valid integer, got a number with a fractional part")
        if abs(value) >= _INT_LIMIT:
            raise _Bad(_TOO_BIG)
        return int(value)
    if isinstance(value, str):
        text = value.strip()
        if not _INT_TEXT.fullmatch(text):
            raise _Bad("Input should be a valid integer, unable to parse string as an integer")
        digits = text.split(".", 1)[0]
        if len(digits) > 4300:  # Python's own limit on int() of text
            raise _Bad(_TOO_BIG)
        return int(digits)
    raise _Bad("Input should be a valid integer")


def _to_float(value: Any) -> float:
    if isinstance(value, (int, float)):  # bool included, as pydantic's lax mode does
        try:
            return float(value)
        except OverflowError:  # an int beyond the float range
            raise _Bad("Input should be a valid number") from None
    if isinstance(value, str):
        try:
            return float(value.strip())
        except ValueError:
            raise _Bad("Input should be a valid number, unable to parse string as a number") from None
    raise _Bad("Input should be a valid number")


def _to_bool(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)):
        if value in (0, 1):
            return bool(value)
        whole = isinstance(value, int) or (math.isfinite(value) and value.is_integer())
        if whole and abs(value) < _INT_LIMIT:  # a whole number pydantic reads, then finds not 0 or 1
            raise _Bad("Input should be a valid boolean, unable to interpret input")
        raise _Bad("Input should be a valid boolean")
    if isinstance(value, str):
        if value.lower() in _TRUE | _FALSE:  # not stripped: pydantic refuses " yes "
            return value.lower() in _TRUE
        raise _Bad("Input should be a valid boolean, unable to interpret input")
    raise _Bad("Input should be a valid boolean")


def _to_str(value: Any) -> str:
    if isinstance(value, str):
        return value
    raise _Bad("Input should be a valid string")


_SCALARS = {int: _to_int, float: _to_float, bool: _to_bool, str: _to_str}
_EXACT = {int: (int,), float: (float,), bool: (bool,), str: (str,)}


def _convert(kind: Any, value: Any) -> Any:
    """`value` as the annotation `kind` holds it, or _Bad (with the path inside a container)."""
    if kind is Any:
        return value
    scalar = _SCALARS.get(kind)
    if scalar is not None:
        return scalar(value)
    origin = typing.get_origin(kind)
    if origin in (Union, types.UnionType):
        options = typing.get_args(kind)
        if value is None:
            if _NONE in options:
                return None
            raise _Bad("Input should be a valid " + _name(options[0]))
        options = tuple(o for o in options if o is not _NONE)
        for option in options:  # pydantic's smart union: an exact type match wins
            exact = _EXACT.get(option)
            if exact and type(value) in exact:
                return value
            if isinstance(option, type) and issubclass(option, Record) and isinstance(value, option):
                return value
        first: _Bad | None = None
        for option in options:
            try:
                return _convert(option, value)
            except _Bad as bad:  # the member tried is named in the path when there are several
                where = (getattr(option, "__name__", str(option)),) if len(options) > 1 else ()
                first = first or _Bad(bad.msg, (*where, *bad.loc))
        raise first or _Bad("Input should be valid")
    if origin is list:
        if not isinstance(value, (list, tuple)):
            raise _Bad("Input should be a valid list")
        (item,) = typing.get_args(kind) or (Any,)
        out = []
        for i, v in enumerate(value):
            try:
                out.append(_convert(item, v))
            except _Bad as bad:
                raise _Bad(bad.msg, (i, *bad.loc)) from None
        return out
    if origin is dict:
        if not isinstance(value, dict):
            raise _Bad("Input should be a valid dictionary")
        key_kind, value_kind = typing.get_args(kind) or (Any, Any)
        out_dict = {}
        for k, v in value.items():
            try:
                out_dict[_convert(key_kind, k)] = _convert(value_kind, v)
            except _Bad as bad:
                raise _Bad(bad.msg, (k, *bad.loc)) from None
        return out_dict
    if isinstance(kind, type) and issubclass(kind, Record):
        if isinstance(value, kind):
            return value
        if isinstance(value, dict):
            try:
                return kind(**value)
            except RecordError as exc:
                first = exc.errors()[0]
                raise _Bad(first["msg"], tuple(first["loc"])) from None
        raise _Bad(f"Input should be a valid dictionary or instance of {kind.__name__}")
    raise TypeError(f"Record field type {kind!r} is not supported")


def _name(kind: Any) -> str:
    return {int: "integer", float: "number", bool: "boolean", str: "string"}.get(kind, "value")


def _dump(kind: Any, value: Any, mode: str) -> Any:
    """`value` as model_dump gives it. In JSON mode a number in a float slot is a float, as pydantic's
    serializer writes it (a preset's `top_k: 20` assigned after construction prints 20.0)."""
    if isinstance(value, Record):
        return value.model_dump(mode=mode)
    if mode == "json" and isinstance(value, int) and _float_slot(kind):
        return float(value)
    origin = typing.get_origin(kind)
    if origin in (Union, types.UnionType):
        inner = [o for o in typing.get_args(kind) if typing.get_origin(o) in (list, dict)]
        kind = inner[0] if len(inner) == 1 else Any
        origin = typing.get_origin(kind)
    if isinstance(value, (list, tuple)):
        item = typing.get_args(kind)[0] if origin is list and typing.get_args(kind) else Any
        items = [_dump(item, v, mode) for v in value]
        return items if isinstance(value, list) or mode == "json" else tuple(items)
    if isinstance(value, dict):
        inner_kind = typing.get_args(kind)[1] if origin is dict and typing.get_args(kind) else Any
        return {k: _dump(inner_kind, v, mode) for k, v in value.items()}
    return value


def _float_slot(kind: Any) -> bool:
    """A float annotation that holds no int (`float`, `float | None`; not `int | float`)."""
    if kind is float:
        return True
    if typing.get_origin(kind) in (Union, types.UnionType):
        options = typing.get_args(kind)
        return float in options and int not in options
    return False


class Record:
    """Base of model/'s records: subclasses are keyword-only dataclasses whose fields are checked."""

    check_assignment: ClassVar[bool] = False
    """Check each assignment after construction too (ModelSpec: the readers fill fields one by one)."""
    _kinds: ClassVar[dict[str, Any] | None]
    _fields: ClassVar[tuple[dataclasses.Field[Any], ...]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        # eq and repr from dataclasses; __init__ is ours (below), so the class keeps it
        dataclasses.dataclass(kw_only=True, init=False)(cls)
        cls._fields = tuple(dataclasses.fields(cls))  # type: ignore[arg-type]
        cls._kinds = None  # the annotations are resolved on first use: importing stays cheap

    @classmethod
    def _types(cls) -> dict[str, Any]:
        if cls.__dict__.get("_kinds") is None:
            hints = typing.get_type_hints(cls)
            cls._kinds = {f.name: hints[f.name] for f in cls._fields}
        return cls._kinds  # type: ignore[return-value]

    def __init__(self, **values: Any) -> None:
        kinds = self._types()
        errors: list[dict[str, Any]] = []
        for f in self._fields:
            if f.name in values:
                try:
                    value = _convert(kinds[f.name], values[f.name])
                except _Bad as bad:
                    errors.append({"loc": (f.name, *bad.loc), "msg": bad.msg, "input": values[f.name]})
                    continue
            elif f.default is not _MISSING:
                value = copy.copy(f.default) if isinstance(f.default, (list, dict)) else f.default
            elif f.default_factory is not _MISSING:
                value = f.default_factory()
            else:
                errors.append({"loc": (f.name,), "msg": "Field required", "input": values})
                continue
            object.__setattr__(self, f.name, value)
        if errors:
            raise RecordError(type(self).__name__, errors)

    def __setattr__(self, name: str, value: Any) -> None:
        if self.check_assignment:
            kinds = self._types()
            if name in kinds:
                try:
                    value = _convert(kinds[name], value)
                except _Bad as bad:
                    loc = (name, *bad.loc)
                    raise RecordError(
                        type(self).__name__, [{"loc": loc, "msg": bad.msg, "input": value}]
                    ) from None
        object.__setattr__(self, name, value)

    def model_dump(self, *, mode: str = "python", exclude: set[str] | None = None) -> dict[str, Any]:
        """The fields as a dict in declaration order, nested records as dicts (pydantic's model_dump)."""
        skip, kinds = exclude or set(), self._types()
        return {
            f.name: _dump(kinds[f.name], getattr(self, f.name), mode)
            for f in self._fields
            if f.name not in skip
        }

    def model_copy(self, *, update: dict[str, Any] | None = None) -> typing.Self:
        """A shallow copy with `update` set unchecked (pydantic's model_copy)."""
        new = copy.copy(self)
        for name, value in (update or {}).items():
            object.__setattr__(new, name, value)
        return new
