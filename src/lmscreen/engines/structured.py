"""Structured-output dialects: how to ask each server family for schema-constrained JSON.

The OpenAI form `response_format: {type: json_schema, json_schema: {name, schema, strict}}` is honoured by
vLLM, SGLang, llama.cpp's llama-server and Ollama (its /v1 endpoint turns it into its native `format:
<schema>`; checked in ollama `openai/openai.go`). The llama-cpp-python server rejects it (HTTP 500, pydantic
literal error on `response_format.type`) and only constrains with `{type: json_object, schema: …}`; plain
`json_object` (no schema) is the last resort, valid JSON but not our schema. Ollama's /v1 endpoint does not
read a top-level `format` field, so json_schema is the way to reach `format` there.
"""

from __future__ import annotations

from enum import Enum
from typing import Any

from lmscreen.engines.openai_endpoint import ServerKind


class Mechanism(str, Enum):
    JSON_SCHEMA = "json_schema"
    JSON_OBJECT_SCHEMA = "json_object+schema"
    JSON_OBJECT = "json_object"


_ORDER: dict[ServerKind, tuple[Mechanism, ...]] = {
    ServerKind.LLAMA_CPP_PYTHON: (Mechanism.JSON_OBJECT_SCHEMA, Mechanism.JSON_OBJECT),
    ServerKind.OLLAMA: (Mechanism.JSON_SCHEMA, Mechanism.JSON_OBJECT),
}
_DEFAULT_ORDER = (Mechanism.JSON_SCHEMA, Mechanism.JSON_OBJECT_SCHEMA, Mechanism.JSON_OBJECT)


def mechanism_order(kind: ServerKind) -> tuple[Mechanism, ...]:
    """Mechanisms to try on this server family, the one that constrains best first."""
    return _ORDER.get(kind, _DEFAULT_ORDER)


def next_mechanism(kind: ServerKind, current: Mechanism) -> Mechanism | None:
    """The fallback after `current` was rejected, or None when there is none left."""
    order = mechanism_order(kind)
    if current not in order:
        return order[0]
    index = order.index(current)
    return order[index + 1] if index + 1 < len(order) else None


def response_format_fields(
    mechanism: Mechanism, schema: dict[str, Any], name: str = "lmscreen"
) -> dict[str, Any]:
    """Request-body fields that ask for `schema` through `mechanism`."""
    if mechanism is Mechanism.JSON_SCHEMA:
        return {
            "response_format": {
                "type": "json_schema",
                "json_schema": {"name": name, "schema": schema, "strict": True},
            }
        }
    if mechanism is Mechanism.JSON_OBJECT_SCHEMA:
        return {"response_format": {"type": "json_object", "schema": schema}}
    return {"response_format": {"type": "json_object"}}


_FORMAT_WORDS = ("response_format", "json_schema", "json_object", "schema", "grammar", "guided")


def is_format_rejection(status: int, body: str) -> bool:
    """Whether an error answer says the server does not take this structured-output form.

    llama-cpp-python answers an unknown `response_format.type` with HTTP 500 (not 4xx), so a 500 whose body
    names the field counts too; a 4xx or 500 about anything else (context length, model name) does not.
    """
    if status not in (400, 422, 500, 501):
        return False
    lowered = body.lower()
    return any(word in lowered for word in _FORMAT_WORDS)
