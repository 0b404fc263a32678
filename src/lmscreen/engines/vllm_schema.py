"""Make a row's JSON schema safe for vLLM's pinned grammar backend before it reaches `LLM.chat`.

Why: one invalid schema in a `generate`/`chat` call aborts every request of that call, and a pinned
backend rejects what it cannot compile instead of falling back. xgrammar rejects `minLength`/`maxLength`
beside `pattern`/`format` (it used to drop them silently), and has no `multipleOf`, `uniqueItems` or
`contains`. Length bounds beside a pattern are therefore dropped from the *grammar* only, and listed: the
task parser re-checks every answer against the full schema, so nothing the schema forbids is ever kept.
Anything else the backend cannot compile fails that one row up front, never the whole chunk.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError

BACKENDS = ("xgrammar", "guidance")
_LENGTH_KEYS = ("minLength", "maxLength")
_XGRAMMAR_UNSUPPORTED = ("multipleOf", "uniqueItems", "contains", "patternProperties", "propertyNames")


class SchemaRejected(ValueError):
    """The schema cannot be compiled by the pinned backend (the row fails, not the chunk)."""


@dataclass
class GrammarSchema:
    schema: dict[str, Any]
    """What goes to vLLM's StructuredOutputsParams(json=…)."""
    relaxed: list[str] = field(default_factory=list)
    """JSON paths whose length bounds were left to the answer check (e.g. `properties.reason.maxLength`)."""


def grammar_schema(schema: dict[str, Any], backend: str = "xgrammar") -> GrammarSchema:
    """Check `schema` and return the form the pinned backend compiles (raises SchemaRejected)."""
    if backend not in BACKENDS:
        raise SchemaRejected(f"structured-output backend {backend!r} is not one of {', '.join(BACKENDS)}")
    try:
        Draft202012Validator.check_schema(schema)
    except SchemaError as exc:
        where = "/".join(str(p) for p in exc.path) or "(root)"
        raise SchemaRejected(f"invalid JSON schema at {where}: {exc.message}") from exc
    if backend != "xgrammar":
        return GrammarSchema(schema)
    out = copy.deepcopy(schema)
    relaxed: list[str] = []
    _relax(out, "", relaxed)
    return GrammarSchema(out, relaxed)


def _relax(node: Any, path: str, relaxed: list[str]) -> None:
    if isinstance(node, list):
        for i, item in enumerate(node):
            _relax(item, f"{path}[{i}]", relaxed)
        return
    if not isinstance(node, dict):
        return
    for key in _XGRAMMAR_UNSUPPORTED:
        if key in node and not _is_property_name_map(path):
            raise SchemaRejected(f"xgrammar cannot compile {key!r} at {path or '(root)'}")
    if ("pattern" in node or "format" in node) and not _is_property_name_map(path):
        for key in _LENGTH_KEYS:
            if key in node:
                del node[key]
                relaxed.append(f"{path}.{key}" if path else key)
    for key, value in node.items():
        _relax(value, f"{path}.{key}" if path else key, relaxed)


def _is_property_name_map(path: str) -> bool:
    """`properties`/`$defs` map names to schemas: a property called "pattern" is not the keyword."""
    return path.endswith(("properties", "$defs", "definitions"))
