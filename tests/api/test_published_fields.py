"""Nothing the published API document offers is missing from ours: every operation, every parameter and
every field of every JSON answer (``../shared/reference/cardsight-openapi.json``)."""

from __future__ import annotations

import json

import pytest

from api.app import route_table
from api.openapi import build_openapi
from tests.conftest import shared_data

def _resolve(doc: dict, schema: dict) -> dict:
    while isinstance(schema, dict) and "$ref" in schema:
        schema = doc["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
    return schema


def fields(doc: dict, schema: dict, seen: frozenset = frozenset()) -> set[str]:
    """Every property path of a schema: ``a``, ``a.b``, ``items[].c`` (through refs, anyOf and arrays)."""
    ref = schema.get("$ref") if isinstance(schema, dict) else None
    if ref in seen:
        return set()
    seen = seen | {ref} if ref else seen
    schema = _resolve(doc, schema)
    if not isinstance(schema, dict):
        return set()
    out: set[str] = set()
    for alt in schema.get("anyOf", []) + schema.get("oneOf", []) + schema.get("allOf", []):
        out |= fields(doc, alt, seen)
    if "items" in schema:
        out |= {"[]" + f for f in fields(doc, schema["items"], seen)}
    for name, sub in schema.get("properties", {}).items():
        out.add(name)
        out |= {f"{name}.{f}" for f in fields(doc, sub, seen)}
    return out


def missing(ours: dict, theirs: dict) -> list[str]:
    out = []
    for path, ops in theirs["paths"].items():
        for method, op in ops.items():
            if not isinstance(op, dict):
                continue
            mine = ours["paths"].get(path, {}).get(method)
            if mine is None:
                out.append(f"{method} {path}: the operation")
                continue
            params = {(p["in"], p["name"]) for p in mine.get("parameters", [])}
            out += [f"{method} {path}: {p['in']} parameter {p['name']}" for p in op.get("parameters", [])
                    if (p["in"], p["name"]) not in params]
            ok = next((r for s, r in mine["responses"].items() if s.startswith("2")), {})
            for status, resp in op["responses"].items():
                media = resp.get("content", {}).get("application/json") if status.startswith("2") else None
                if media is None:
                    continue
                mine_media = ok.get("content", {}).get("application/json")
                if mine_media is None:
                    out.append(f"{method} {path}: no JSON answer")
                    continue
                lacking = fields(theirs, media["schema"]) - fields(ours, mine_media["schema"])
                out += [f"{method} {path}: field {f}" for f in sorted(lacking)]
    return sorted(set(out))


def test_nothing_published_is_missing():
    reference = shared_data().parent / "reference" / "cardsight-openapi.json"
    if not reference.is_file():
        pytest.skip(f"{reference} is not here")
    theirs = json.loads(reference.read_text(encoding="utf-8"))
    assert missing(build_openapi(route_table()), theirs) == []


def test_the_comparison_sees_a_missing_field():
    theirs = {"paths": {"/x": {"get": {"parameters": [{"in": "query", "name": "q"}], "responses": {"200": {
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/A"}}}}}}}},
        "components": {"schemas": {"A": {"properties": {"items": {"type": "array", "items": {
            "properties": {"id": {}, "parallel": {"properties": {"name": {}}}}}}}}}}}
    ours = {"paths": {"/x": {"get": {"responses": {"200": {"content": {"application/json": {"schema": {
        "properties": {"items": {"type": "array", "items": {"properties": {"id": {}, "parallel": {}}}}}}}}}}}}},
        "components": {"schemas": {}}}
    assert missing(ours, theirs) == ["get /x: field items.[]parallel.name", "get /x: query parameter q"]
