"""OpenAPI 3.1 document generated from the tool registry and the raw route table."""

from __future__ import annotations

import re
from typing import Any

from aiohttp import web
from pydantic import BaseModel

from api.routes import EXTRA_RAW_ROUTES, RAW_ROUTES, tool_routes
from tools._models import Binary, ErrorBody, Upload

REF = "#/components/schemas/{model}"
_ERROR_STATUSES = {400: "Invalid input", 401: "Missing or invalid API key", 404: "Not found", 500: "Internal error",
                   503: "A dependency (database, language model) is unavailable"}


def _schema(model: type[BaseModel], mode: str, components: dict[str, Any]) -> dict[str, Any]:
    schema = model.model_json_schema(by_alias=True, mode=mode, ref_template=REF)  # type: ignore[arg-type]
    for name, sub in schema.pop("$defs", {}).items():
        components.setdefault(name, sub)
    name = model.__name__
    if name in components and components[name] != schema:
        name = f"{model.__module__.split('.')[-1].title()}{model.__name__}"
    components[name] = schema
    return {"$ref": REF.format(model=name)}


def _path_params(path: str) -> list[str]:
    return re.findall(r"{([^}]+)}", path)


def _errors(extra: tuple[int, ...], public: bool) -> dict[str, Any]:
    out = {}
    for status in sorted(set(_ERROR_STATUSES) | set(extra)):
        if status == 401 and public:
            continue
        out[str(status)] = {"description": _ERROR_STATUSES.get(status, "Error"),
                            "content": {"application/json": {"schema": {"$ref": REF.format(model="ErrorResponse")}}}}
    return out


def build_openapi(app: web.Application | None = None) -> dict[str, Any]:
    components: dict[str, Any] = {"ErrorResponse": ErrorBody.model_json_schema()}
    paths: dict[str, dict[str, Any]] = {}
    for t in tool_routes():
        assert t.path and t.method
        in_schema = t.input_model.model_json_schema(by_alias=True, mode="validation", ref_template=REF)
        for name, sub in in_schema.get("$defs", {}).items():
            components.setdefault(name, sub)
        props = in_schema.get("properties", {})
        required = set(in_schema.get("required", []))
        path_names = _path_params(t.path)
        params = [{"name": n, "in": "path", "required": True, "schema": props.get(n, {"type": "string"})}
                  for n in path_names]
        op: dict[str, Any] = {"operationId": t.name, "summary": t.summary, "description": t.description,
                              "tags": list(t.tags)}
        body_props = {k: v for k, v in props.items() if k not in path_names}
        if t.method in ("GET", "DELETE") or t.body == "none":
            for n, sub in body_props.items():
                params.append({"name": n, "in": "query", "required": n in required, "schema": sub,
                               **({"description": sub["description"]} if "description" in sub else {})})
        elif t.body == "binary":
            op["requestBody"] = {"required": True, "content": {
                "multipart/form-data": {"schema": {"type": "object", "required": ["image"],
                                                   "properties": {"image": {"type": "string", "format": "binary"}}}},
                "image/jpeg": {"schema": {"type": "string", "format": "binary"}},
                "image/png": {"schema": {"type": "string", "format": "binary"}},
                "image/webp": {"schema": {"type": "string", "format": "binary"}},
            }}
            for n, sub in body_props.items():
                if n != (t.body_field or "image"):
                    params.append({"name": n, "in": "query", "required": n in required, "schema": sub})
        elif t.body == "field":
            op["requestBody"] = {"required": True, "content": {"application/json": {"schema": props.get(t.body_field or "body", {})}}}
            for n, sub in body_props.items():
                if n != t.body_field:
                    params.append({"name": n, "in": "query", "required": n in required, "schema": sub})
        else:
            body_schema = {"type": "object", "properties": body_props, "additionalProperties": False}
            req = [n for n in body_props if n in required]
            if req:
                body_schema["required"] = req
            op["requestBody"] = {"required": True, "content": {"application/json": {"schema": body_schema}}}
        if params:
            op["parameters"] = params
        responses: dict[str, Any] = {}
        if t.output_model is None:
            responses["204"] = {"description": "No content"}
        elif t.output_model is Binary:
            responses[str(t.status)] = {"description": "Binary content",
                                        "content": {ct: {"schema": {"type": "string", "format": "binary"}}
                                                    for ct in t.response_content_types}}
        else:
            responses[str(t.status)] = {"description": "OK", "content": {
                "application/json": {"schema": _schema(t.output_model, "serialization", components)}}}
        responses.update(_errors(t.extra_statuses, t.public))
        op["responses"] = responses
        if t.public:
            op["security"] = []
        paths.setdefault(t.path, {})[t.method.lower()] = op
    for r in RAW_ROUTES + EXTRA_RAW_ROUTES:
        if not r.in_openapi:
            continue
        op = {"operationId": r.handler.__name__, "summary": r.summary, "tags": list(r.tags),
              "responses": {"200": {"description": "OK", "content": {r.content_type: {"schema": r.response or {}}}},
                            **_errors(r.error_statuses, r.public)}}
        if r.request is not None:
            req = dict(r.request)
            for name, sub in req.pop("$defs", {}).items():
                components.setdefault(name, sub)
            op["requestBody"] = {"required": True, "content": {"application/json": {"schema": req}}}
        if r.public:
            op["security"] = []
        paths.setdefault(r.path, {})[r.method.lower()] = op
    _ = Upload
    return {
        "openapi": "3.1.0",
        "info": {"title": "Cardwise API", "version": "1.0.0",
                 "description": "Self-hosted trading-card catalog, identification, collections, market data and agent."},
        "servers": [{"url": "/"}],
        "security": [{"apiKey": []}],
        "paths": dict(sorted(paths.items())),
        "components": {"schemas": components,
                       "securitySchemes": {"apiKey": {"type": "apiKey", "in": "header", "name": "X-API-Key"},
                                           "bearer": {"type": "http", "scheme": "bearer"}}},
    }
