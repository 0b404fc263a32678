"""Pydantic at the edge: the checked twins of model/'s records, for what comes from outside the package.

model/'s records (model.spec, hardware.GPU, catalog.CatalogEntry, the plans …) are plain dataclasses,
built from the data the package ships and from what the planner computes, so `model fit` on a catalog
name never imports pydantic (its import and schemas were half of that command's time). What a user hands
in is another matter: a config.json, a GGUF or safetensors header can hold a string where a layer count
belongs. Its readers (arch.read, arch.gguf) fill the twins below instead: pydantic dataclasses made from
the very same classes (so the fields are declared once, in model.spec), with pydantic's lax conversions
("32" → 32, 4096.0 → 4096) and every assignment checked, so a bad value fails where it is read with
pydantic's error, which arch.read turns into a one-line message naming the field. `plain` hands the
reader's result back as the plain dataclass the rest of model/ expects.

The tests put every shipped catalog entry and GPU through `CATALOG_ENTRY` and `GPU` (and every catalog
config through the checked readers), so the data built unchecked at run time is data these models accept
unchanged. Import this module only on those paths: importing it imports pydantic.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from pydantic import ConfigDict, TypeAdapter
from pydantic.dataclasses import dataclass as pydantic_dataclass

from lmscreen.model import spec as plain_spec
from lmscreen.model.catalog.models import CatalogEntry
from lmscreen.model.hardware import GPU as PlainGPU
from lmscreen.model.spec import Records

LinearAttention = pydantic_dataclass(plain_spec.LinearAttention, frozen=True)
MLA = pydantic_dataclass(plain_spec.MLA, frozen=True)
ModelSpec = pydantic_dataclass(plain_spec.ModelSpec, config=ConfigDict(validate_assignment=True))
"""Subclasses of model.spec's classes (same names, same fields) whose construction pydantic checks, and
for ModelSpec, which the readers fill field by field, every assignment too."""

CHECKED = Records(spec=ModelSpec, linear_attention=LinearAttention, mla=MLA)
"""What a reader of untrusted metadata builds."""

CATALOG_ENTRY = TypeAdapter(CatalogEntry)
GPU = TypeAdapter(PlainGPU)
"""The shipped tables' models: the test suite validates every entry of data/models.yaml and data/gpus.yaml
through them and requires the result to be what model/ builds unchecked (no value converted)."""


def plain(spec: plain_spec.ModelSpec) -> plain_spec.ModelSpec:
    """The checked spec a reader filled, as model.spec's plain dataclass (values already checked)."""
    values: dict[str, Any] = {f.name: getattr(spec, f.name) for f in fields(plain_spec.ModelSpec)}
    if values["linear_attention"] is not None:
        values["linear_attention"] = _copy(plain_spec.LinearAttention, values["linear_attention"])
    if values["mla"] is not None:
        values["mla"] = _copy(plain_spec.MLA, values["mla"])
    return plain_spec.ModelSpec(**values)


def _copy(kind: type, record: Any) -> Any:
    return kind(**{f.name: getattr(record, f.name) for f in fields(kind)})
