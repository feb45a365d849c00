"""OpenAPI 3.1 document generated from the tool registry and the raw route table.

Every model's schema comes from one pydantic pass (``models_json_schema``), so two models of the
same name never share a component; a path parameter with a fixed set of values (the feedback
``entity_type``) is published as one path per value, as the published API lists them.
"""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

from aiohttp import web
from pydantic import BaseModel
from pydantic.json_schema import JsonSchemaMode, models_json_schema

from api.openapi_text import PARAMETERS, TAGS, tag_for
from api.route_table import ROUTE_TABLE, RawRoute, RouteTable, public
from tools._models import Binary, ErrorBody
from tools._registry import Tool

REF = "#/components/schemas/{model}"
_ERROR_STATUSES = {400: "Invalid input", 401: "Missing or invalid API key", 403: "Not yours to read",
                   404: "Not found", 409: "Conflict with the stored state", 413: "Upload too large",
                   415: "Unsupported media type", 422: "The image could not be used", 429: "Too many requests",
                   500: "Internal error", 503: "A dependency (database, language model) is unavailable"}
_DEFAULT_ERRORS = (400, 401, 404, 500, 503)
_BINARY = {"type": "string", "format": "binary"}
SECURITY: list[dict[str, list[str]]] = [{"apiKey": []}, {"bearer": []}]


def _path_params(path: str) -> list[str]:
    return re.findall(r"{([^}]+)}", path)


def _errors(extra: tuple[int, ...], public: bool) -> dict[str, Any]:
    out = {}
    for status in sorted(set(_DEFAULT_ERRORS) | set(extra)):
        if status == 401 and public:
            continue
        out[str(status)] = {"description": _ERROR_STATUSES.get(status, "Error"),
                            "content": {"application/json": {"schema": {"$ref": REF.format(model="ErrorResponse")}}}}
    return out


def _param(name: str, where: str, required: bool, schema: dict[str, Any]) -> dict[str, Any]:
    description = schema.get("description") or PARAMETERS.get(name)
    if not description:
        raise LookupError(f"parameter {name} has no description; describe the field or add it to api/openapi_text.py")
    return {"name": name, "in": where, "required": required, "schema": schema, "description": description}


class _Schemas:
    """Components for every model the routes use, from one pydantic pass."""

    def __init__(self, tools: list[Tool], raw: list[RawRoute]) -> None:
        keys: list[tuple[type[BaseModel], JsonSchemaMode]] = [(ErrorBody, "serialization")]
        for t in tools:
            keys.append((t.input_model, "validation"))
            for out in (t.output_model, t.json_model):
                if out is not None and out is not Binary:
                    keys.append((out, "serialization"))
        for r in raw:
            keys += [(m, "validation") for m in (r.request_model,) if m is not None]
            keys += [(m, "serialization") for m in (r.response_model,) if m is not None]
        keys = list(dict.fromkeys(keys))
        refs, top = models_json_schema(keys, by_alias=True, ref_template=REF)
        # pydantic names the models two modules both call X "pkg__module__X": publish "ModuleX"
        renamed = {name: "".join(w.title() for w in name.split("__")[-2].split("_")) + name.split("__")[-1]
                   for name in top.get("$defs", {}) if "__" in name}
        text = json.dumps({"defs": top.get("$defs", {}), "refs": [v["$ref"] for v in refs.values()]})
        for old, new in renamed.items():
            text = text.replace(f'"{REF.format(model=old)}"', f'"{REF.format(model=new)}"')
        loaded = json.loads(text)
        self.components: dict[str, Any] = {renamed.get(k, k): v for k, v in loaded["defs"].items()}
        self._refs = dict(zip(refs, loaded["refs"]))

    def ref(self, model: type[BaseModel], mode: JsonSchemaMode) -> dict[str, Any]:
        return {"$ref": self._refs[(model, mode)]}

    def inline(self, model: type[BaseModel]) -> dict[str, Any]:
        """An input model's own schema (its fields become parameters or a request body)."""
        return self.components[self._refs[(model, "validation")].rsplit("/", 1)[1]]


def _tool_operation(t: Tool, schemas: _Schemas) -> dict[str, Any]:
    assert t.path and t.method
    in_schema = schemas.inline(t.input_model)
    props = in_schema.get("properties", {})
    required = set(in_schema.get("required", []))
    path_names = _path_params(t.path)
    params = [_param(n, "path", True, props.get(n, {"type": "string"})) for n in path_names]
    op: dict[str, Any] = {"operationId": t.name, "summary": t.summary, "description": t.description,
                          "tags": [tag_for(t.path)]}
    body_props = {k: v for k, v in props.items() if k not in path_names}
    if t.method in ("GET", "DELETE") or t.body == "none":
        params += [_param(n, "query", n in required, sub) for n, sub in body_props.items()]
    elif t.body == "binary":
        field = t.body_field or "image"
        op["requestBody"] = {"required": True, "content": {
            "multipart/form-data": {"schema": {"type": "object", "required": [field],
                                               "properties": {field: _BINARY}}},
            "image/jpeg": {"schema": _BINARY}, "image/png": {"schema": _BINARY}, "image/webp": {"schema": _BINARY},
        }}
        params += [_param(n, "query", n in required, sub) for n, sub in body_props.items() if n != field]
    elif t.body == "field":
        op["requestBody"] = {"required": True,
                             "content": {"application/json": {"schema": props.get(t.body_field or "body", {})}}}
        params += [_param(n, "query", n in required, sub) for n, sub in body_props.items() if n != t.body_field]
    else:
        body_schema: dict[str, Any] = {"type": "object", "properties": body_props, "additionalProperties": False}
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
        content = {ct: {"schema": _BINARY} for ct in t.response_content_types if ct != "application/json"}
        if t.json_model is not None:
            content["application/json"] = {"schema": schemas.ref(t.json_model, "serialization")}
        responses[str(t.status)] = {"description": "The file (or its JSON form where the query asks for it)",
                                    "content": content}
    else:
        responses[str(t.status)] = {"description": "OK", "content": {
            "application/json": {"schema": schemas.ref(t.output_model, "serialization")}}}
    responses.update(_errors(t.extra_statuses, t.public))
    op["responses"] = responses
    if t.public:
        op["security"] = []
    return op


def _expanded(path: str, op: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """One path per value of a path parameter with a fixed set of values (and no other choice)."""
    for p in op.get("parameters", []):
        values = p["schema"].get("enum") if p["in"] == "path" else None
        if values:
            out = []
            for v in values:
                one = copy.deepcopy(op)
                one["operationId"] = f"{op['operationId']}_{v}"
                one["parameters"] = [q for q in one["parameters"] if q["name"] != p["name"]]
                out.append((path.replace("{" + p["name"] + "}", str(v)), one))
            return out
    return [(path, op)]


def _raw_operation(r: RawRoute, schemas: _Schemas) -> dict[str, Any]:
    schema = schemas.ref(r.response_model, "serialization") if r.response_model else (r.response or {})
    op: dict[str, Any] = {"operationId": r.handler.__name__, "summary": r.summary,
                          "description": r.description or r.summary, "tags": [tag_for(r.path)],
                          "responses": {"200": {"description": "OK", "content": {r.content_type: {"schema": schema}}},
                                        **_errors(r.error_statuses, r.public)}}
    if r.request_model is not None:
        op["requestBody"] = {"required": True, "content": {"application/json": {
            "schema": schemas.ref(r.request_model, "validation")}}}
    if r.public:
        op["security"] = []
    return op


def build_openapi(source: web.Application | RouteTable) -> dict[str, Any]:
    """The document of an app's route table (``create_app`` keeps it under ``ROUTE_TABLE``)."""
    table = source[ROUTE_TABLE] if isinstance(source, web.Application) else source
    tools = table.tools
    raw = [r for r in table.raw if r.in_openapi]
    schemas = _Schemas(tools, raw)
    paths: dict[str, dict[str, Any]] = {}
    for t in tools:
        assert t.path and t.method
        for path, op in _expanded(t.path, _tool_operation(t, schemas)):
            paths.setdefault(path, {})[t.method.lower()] = op
    for r in raw:
        paths.setdefault(r.path, {})[r.method.lower()] = _raw_operation(r, schemas)
    components = schemas.components
    components["ErrorResponse"] = components.pop(schemas.ref(ErrorBody, "serialization")["$ref"].rsplit("/", 1)[1])
    doc = {
        "openapi": "3.1.0",
        "info": {"title": "Cardwise API", "version": "1.0.0",
                 "description": "Self-hosted trading-card catalog, identification, collections, market data and agent. "
                                "Send your key in the X-API-Key header (or as a Bearer token)."},
        "servers": [{"url": "/"}],
        "security": SECURITY,
        "tags": [{"name": name, "description": text} for name, text, _ in TAGS
                 if any(name in op["tags"] for ops in paths.values() for op in ops.values())],
        "paths": dict(sorted(paths.items())),
        "components": {"schemas": components,
                       "securitySchemes": {
                           "apiKey": {"type": "apiKey", "in": "header", "name": "X-API-Key",
                                      "description": "An API key from `cardwise keys create`"},
                           "bearer": {"type": "http", "scheme": "bearer",
                                      "description": "The same API key as a Bearer token"}}},
    }
    _prune(doc)
    return doc


def _prune(doc: dict[str, Any]) -> None:
    """Drop components nothing refers to (input models whose fields became parameters)."""
    schemas = doc["components"]["schemas"]
    while True:
        text = repr({k: v for k, v in doc.items() if k != "components"}) + repr(schemas)
        unused = [name for name in schemas if f"'{REF.format(model=name)}'" not in text]
        if not unused:
            return
        for name in unused:
            del schemas[name]


DOCUMENT = web.AppKey("openapi_document", dict)  # {"doc": ...} once built (create_app puts an empty one)
DOCS_HTML = Path(__file__).with_name("docs.html")


@public
async def openapi_json(request: web.Request) -> web.Response:
    """The document, built once per app (its routes do not change while it runs)."""
    cache = request.app[DOCUMENT]
    if "doc" not in cache:
        cache["doc"] = build_openapi(request.app)
    return web.json_response(cache["doc"])


@public
async def docs(request: web.Request) -> web.Response:
    return web.Response(text=DOCS_HTML.read_text(encoding="utf-8"), content_type="text/html")


RAW_ROUTES: list[RawRoute] = [
    RawRoute("GET", "/openapi.json", openapi_json, "This OpenAPI document", public=True, in_openapi=False),
    RawRoute("GET", "/docs", docs, "Browsable API docs", public=True, in_openapi=False),
]
