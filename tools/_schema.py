"""Strict JSON schemas for OpenAI-compatible function calling.

Strict mode wants every property listed in ``required`` and ``additionalProperties: false`` on
every object. Optional fields become nullable (null = "use the default"); keywords strict mode
rejects (``default``, ``title``, formats it does not know) are dropped.
"""

from __future__ import annotations

import copy
import functools
from typing import Any

from pydantic import BaseModel

_DROP = {"default", "title", "examples"}
_ALLOWED_FORMATS = {"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"}


def _nullable(schema: dict[str, Any]) -> dict[str, Any]:
    if "anyOf" in schema:
        if not any(s.get("type") == "null" for s in schema["anyOf"]):
            schema["anyOf"].append({"type": "null"})
        return schema
    if "$ref" in schema:
        return {"anyOf": [schema, {"type": "null"}]}
    t = schema.get("type")
    if isinstance(t, str):
        if "enum" in schema:
            return {"anyOf": [schema, {"type": "null"}]}
        schema["type"] = [t, "null"]
    elif isinstance(t, list) and "null" not in t:
        t.append("null")
    return schema


def _walk(node: Any) -> Any:
    if isinstance(node, list):
        return [_walk(n) for n in node]
    if not isinstance(node, dict):
        return node
    out = {k: _walk(v) for k, v in node.items() if k not in _DROP}
    if out.get("format") and out["format"] not in _ALLOWED_FORMATS:
        out.pop("format")
    if out.get("type") == "object" or "properties" in out:
        props = out.get("properties", {})
        required = set(out.get("required", []))
        for name, sub in list(props.items()):
            if name not in required:
                props[name] = _nullable(sub)
        out["properties"] = props
        out["required"] = list(props)
        out["additionalProperties"] = False
        out["type"] = "object"
    return out


def strict_schema(model: type[BaseModel]) -> dict[str, Any]:
    """A copy of the model's strict schema (made once per model: the agent sends every tool's on each turn)."""
    return copy.deepcopy(_strict(model))


@functools.cache
def _strict(model: type[BaseModel]) -> dict[str, Any]:
    return _walk(copy.deepcopy(model.model_json_schema(by_alias=True, mode="validation")))
