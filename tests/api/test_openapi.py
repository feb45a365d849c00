"""/openapi.json is a valid OpenAPI 3.1 document listing every route the app serves."""

from __future__ import annotations

from openapi_spec_validator import validate

from api.routes import EXTRA_RAW_ROUTES, RAW_ROUTES, tool_routes


async def test_openapi_is_valid_and_complete(client):
    resp = await client.get("/openapi.json")
    assert resp.status == 200
    doc = await resp.json()
    validate(doc)
    assert doc["openapi"] == "3.1.0"
    assert doc["components"]["securitySchemes"]["apiKey"] == {"type": "apiKey", "in": "header", "name": "X-API-Key"}
    for t in tool_routes():
        op = doc["paths"][t.path][t.method.lower()]
        assert op["operationId"] == t.name
        assert "400" in op["responses"]
        assert ("401" in op["responses"]) != t.public
    for r in RAW_ROUTES:
        if r.in_openapi:
            assert r.method.lower() in doc["paths"][r.path]


async def test_every_app_route_is_documented(client):
    doc = await (await client.get("/openapi.json")).json()
    # /openapi.json, /docs, the console; /mcp (JSON-RPC, described by the protocol itself)
    hidden = {r.handler for r in RAW_ROUTES + EXTRA_RAW_ROUTES if not r.in_openapi}
    served = set()
    for route in client.app.router.routes():
        path = route.resource.canonical
        if route.handler in hidden or route.method == "HEAD":
            continue
        served.add((path.rstrip("/") or "/", route.method.lower()))
    documented = {(p.rstrip("/") or "/", m) for p, ops in doc["paths"].items() for m in ops}
    assert served <= documented, served - documented


async def test_parameters_are_described(client):
    doc = await (await client.get("/openapi.json")).json()
    params = {p["name"]: p for p in doc["paths"]["/v1/catalog/segments"]["get"]["parameters"]}
    assert params["take"]["schema"]["maximum"] == 100 and params["take"]["in"] == "query"
    assert set(params["is_identifiable"]["schema"]["anyOf"][0]["enum"]) == {"true", "false"}


async def test_docs_page_is_served(client):
    resp = await client.get("/docs")
    assert resp.status == 200 and "text/html" in resp.content_type
    assert "/openapi.json" in await resp.text()
