"""/openapi.json is a valid OpenAPI 3.1 document listing every route the app serves."""

from __future__ import annotations

import json
import re

from openapi_spec_validator import validate

from api.route_table import ROUTE_TABLE
from api.routes import tool_routes


async def test_openapi_is_valid_and_complete(client):
    resp = await client.get("/openapi.json")
    assert resp.status == 200
    doc = await resp.json()
    validate(doc)
    assert doc["openapi"] == "3.1.0"
    api_key = doc["components"]["securitySchemes"]["apiKey"]
    assert (api_key["type"], api_key["in"], api_key["name"]) == ("apiKey", "header", "X-API-Key")
    for t in tool_routes():
        ops = [ops[t.method.lower()] for path, ops in doc["paths"].items()
               if re.fullmatch(_template(t.path), path) and t.method.lower() in ops
               and ops[t.method.lower()]["operationId"].startswith(t.name)]
        assert ops, t.path
        for op in ops:
            assert "400" in op["responses"]
            assert ("401" in op["responses"]) != t.public
    for r in client.app[ROUTE_TABLE].raw:
        if r.in_openapi:
            assert r.method.lower() in doc["paths"][r.path]


async def test_every_app_route_is_documented(client):
    doc = await (await client.get("/openapi.json")).json()
    hidden = {r.handler for r in client.app[ROUTE_TABLE].raw if not r.in_openapi}  # /openapi.json, /docs, the console
    served = set()
    for route in client.app.router.routes():
        path = route.resource.canonical
        if route.handler in hidden or route.method == "HEAD":
            continue
        served.add((path.rstrip("/") or "/", route.method.lower()))
    documented = {(p.rstrip("/") or "/", m) for p, ops in doc["paths"].items() for m in ops}
    missing = {(p, m) for p, m in served
               if not any(dm == m and re.fullmatch(_template(p), dp) for dp, dm in documented)}
    assert missing == set()


def _template(path: str) -> str:
    """A served path template as a pattern that also matches the paths it is published as."""
    return re.sub(r"\\{[^}]+\\}", r"[^/]+", re.escape(path.rstrip("/") or "/")) + "/?"


async def test_parameters_are_described(client):
    doc = await (await client.get("/openapi.json")).json()
    params = {p["name"]: p for p in doc["paths"]["/v1/catalog/segments"]["get"]["parameters"]}
    assert params["take"]["schema"]["maximum"] == 100 and params["take"]["in"] == "query"
    assert set(params["is_identifiable"]["schema"]["anyOf"][0]["enum"]) == {"true", "false"}


async def test_docs_page_is_served(client):
    resp = await client.get("/docs")
    assert resp.status == 200 and "text/html" in resp.content_type
    assert "/openapi.json" in await resp.text()


def _schema_nodes(node, path=""):
    if isinstance(node, dict):
        yield path, node
        for k, v in node.items():
            yield from _schema_nodes(v, f"{path}/{k}")
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _schema_nodes(v, f"{path}/{i}")


def _resolve(doc, schema):
    while "$ref" in schema:
        schema = doc["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
    return schema


async def test_every_response_has_a_schema(client):
    """A client generated from the document knows every answer's shape: no JSON response is ``{}``."""
    doc = await (await client.get("/openapi.json")).json()
    empty = [name for name, sub in doc["components"]["schemas"].items() if not sub]
    assert empty == []
    for path, ops in doc["paths"].items():
        for method, op in ops.items():
            for status, resp in op["responses"].items():
                for ctype, media in resp.get("content", {}).items():
                    schema = _resolve(doc, media["schema"])
                    assert schema, f"{method} {path} {status} {ctype}"
                    if ctype == "application/json" and status.startswith("2"):
                        shapes = [_resolve(doc, s) for s in schema.get("anyOf", [schema])]
                        assert all(s.get("properties") for s in shapes), f"{method} {path} {status}"
    card = _resolve(doc, doc["paths"]["/v1/catalog/cards/{id}"]["get"]["responses"]["200"]["content"]
                    ["application/json"]["schema"])
    assert {"id", "name", "setId", "parallels"} <= set(card["properties"])
    image = doc["paths"]["/v1/images/cards/{id}"]["get"]["responses"]["200"]["content"]
    assert set(_resolve(doc, image["application/json"]["schema"])["properties"]) == {"data", "contentType", "size"}
    assert image["image/jpeg"]["schema"]["format"] == "binary"


async def test_schema_keywords_are_json_schema(client):
    """Bounds are ``minimum``/``maximum``; pydantic's own ``ge``/``le`` never leak into the document."""
    doc = await (await client.get("/openapi.json")).json()
    leaked = [f"{path} {key}" for path, node in _schema_nodes(doc) for key in ("ge", "le", "gt", "lt")
              if key in node and not path.endswith("/properties")]
    assert leaked == []
    item = _resolve(doc, doc["components"]["schemas"]["CardItem"])
    assert (item["properties"]["quantity"]["minimum"], item["properties"]["quantity"]["maximum"]) == (1, 100000)


async def test_every_operation_and_parameter_is_described(client):
    doc = await (await client.get("/openapi.json")).json()
    for path, ops in doc["paths"].items():
        for method, op in ops.items():
            assert op.get("description"), f"{method} {path}"
            for p in op.get("parameters", []):
                assert p.get("description"), f"{method} {path} {p['name']}"
    assert "maxIterations" in doc["paths"]["/v1/ai/query"]["post"]["description"]


async def test_tags_and_security_are_consistent(client):
    doc = await (await client.get("/openapi.json")).json()
    declared = [t["name"] for t in doc["tags"]]
    used = {t for ops in doc["paths"].values() for op in ops.values() for t in op["tags"]}
    assert used == set(declared)
    assert {"Catalog", "Collection Management", "Lists", "Collectors", "Feedback"} <= used
    assert doc["paths"]["/v1/collection/{collectionId}/binders"]["get"]["tags"] == ["Collection Management"]
    schemes = set(doc["components"]["securitySchemes"])
    required = {name for req in doc["security"] for name in req}
    assert required == schemes == {"apiKey", "bearer"}
    assert doc["paths"]["/health"]["get"]["security"] == []


async def test_feedback_is_published_as_one_path_per_entity(client, auth):
    doc = await (await client.get("/openapi.json")).json()
    for kind in ("card", "set", "release", "manufacturer", "segment", "identify"):
        op = doc["paths"][f"/v1/feedback/{kind}/{{id}}"]["post"]
        assert [p["name"] for p in op["parameters"]] == ["id"]
    assert not any("{entity_type}" in p for p in doc["paths"])
    json.dumps(doc)  # and the document stays plain JSON


async def test_component_names_are_plain_model_names(client):
    """A generated client names its classes after the components: no private ``_X``, no generic ``Page[X]``."""
    doc = await (await client.get("/openapi.json")).json()
    odd = [name for name in doc["components"]["schemas"] if not re.fullmatch(r"[A-Z][A-Za-z0-9]*", name)]
    assert odd == []
    assert {"CardStats", "SetsPage", "CatalogModelsCardsPage", "CollectionsCardsPage"} <= set(doc["components"]["schemas"])


async def test_every_page_lists_its_rows_under_the_published_key(client):
    """Every paginated answer is the generic ``Page``; its rows keep the endpoint's own key (``sets``,
    ``cards``, ``release_calendar`` ...), never the model's field name ``items``."""
    from tools._models import Page
    from tools._registry import all_tools

    pages = {t.path: t.output_model for t in all_tools()
             if t.output_model is not None and issubclass(t.output_model, Page)}
    assert len(pages) >= 19
    for path, model in pages.items():
        props = model.model_json_schema(by_alias=True, mode="serialization")["properties"]
        assert "items" not in props and {"total_count", "skip", "take"} <= set(props), path
    doc = await (await client.get("/openapi.json")).json()
    calendar = _resolve(doc, doc["paths"]["/v1/release-calendar/"]["get"]["responses"]["200"]["content"]
                        ["application/json"]["schema"])
    assert list(calendar["properties"])[:4] == ["release_calendar", "total_count", "skip", "take"]
