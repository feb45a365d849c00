"""Errors are always JSON {error, code} with a request id; nothing a client sends yields a 500."""

from __future__ import annotations

import pytest

from store.queries import grades as grade_queries


async def test_unknown_route_is_json_404(client, auth):
    resp = await client.get("/v1/does-not-exist", headers=auth)
    assert resp.status == 404
    assert resp.content_type == "application/json"
    assert await resp.json() == {"error": "Not found", "code": "NOT_FOUND"}
    assert resp.headers["X-Request-Id"]


async def test_wrong_method_is_json_405(client, auth):
    resp = await client.delete("/v1/grades/companies", headers=auth)
    assert resp.status == 405
    assert (await resp.json())["code"] == "METHOD_NOT_ALLOWED"
    assert "GET" in resp.headers["Allow"]


async def test_request_id_is_echoed_when_sane_and_generated_otherwise(client):
    resp = await client.get("/health", headers={"X-Request-Id": "abc-123"})
    assert resp.headers["X-Request-Id"] == "abc-123"
    resp = await client.get("/health", headers={"X-Request-Id": "bad id <script>"})
    assert resp.headers["X-Request-Id"] != "bad id <script>" and len(resp.headers["X-Request-Id"]) == 32


@pytest.mark.parametrize("query", ["take=0", "take=101", "take=abc", "skip=-1", "order=sideways", "is_identifiable=yes",
                                   "sort=price"])
async def test_bad_query_values_are_400(client, auth, query):
    resp = await client.get(f"/v1/catalog/segments?{query}", headers=auth)
    assert resp.status == 400
    body = await resp.json()
    assert body["code"] == "VALIDATION_ERROR" and body["error"]


async def test_malformed_uuid_in_path_is_400(client, auth):
    resp = await client.get("/v1/grades/companies/not-a-uuid/types", headers=auth)
    assert resp.status == 400
    assert (await resp.json())["code"] == "VALIDATION_ERROR"


async def test_unknown_company_is_404(client, auth):
    resp = await client.get("/v1/grades/companies/2b1c5f8e-4d3a-4c2b-9a1e-0f9e8d7c6b5a/types", headers=auth)
    assert resp.status == 404
    assert (await resp.json())["code"] == "NOT_FOUND"


async def test_unexpected_error_is_generic_500_with_request_id(client, auth, monkeypatch):
    async def boom(**_):
        raise RuntimeError("secret internal detail")

    monkeypatch.setattr(grade_queries, "companies", boom)
    resp = await client.get("/v1/grades/companies", headers=auth)
    assert resp.status == 500
    body = await resp.json()
    rid = resp.headers["X-Request-Id"]
    assert body["code"] == "INTERNAL_ERROR" and rid in body["error"]
    assert "secret" not in body["error"] and "Traceback" not in await resp.text()


async def test_database_outage_is_503(client, auth, monkeypatch):
    from sqlalchemy.exc import OperationalError

    async def down(**_):
        raise OperationalError("SELECT 1", {}, ConnectionRefusedError("refused"))

    monkeypatch.setattr(grade_queries, "companies", down)
    resp = await client.get("/v1/grades/companies", headers=auth)
    assert resp.status == 503
    assert (await resp.json())["code"] == "SERVICE_UNAVAILABLE"
    assert resp.headers["Retry-After"] == "1"


async def test_unique_constraint_race_is_409_not_500(client, auth, monkeypatch):
    from sqlalchemy.exc import IntegrityError

    async def race(**_):
        raise IntegrityError("INSERT", {}, Exception("UNIQUE constraint failed"))

    monkeypatch.setattr(grade_queries, "companies", race)
    resp = await client.get("/v1/grades/companies", headers=auth)
    assert resp.status == 409
    assert (await resp.json())["code"] == "CONFLICT"


async def test_malformed_multipart_headers_are_400(client, auth):
    """Found by fuzzing: a multipart part whose header line is garbage crashed the parser (500)."""
    boundary = "21c7d7448b7cc8643074bc63fe227740"
    body = f"--{boundary}\r\n277--{boundary}--\r\n\r\n".encode()
    resp = await client.post("/v1/detect/card", data=body,
                             headers={**auth, "Content-Type": f"multipart/form-data; boundary={boundary}"})
    assert resp.status == 400
    assert (await resp.json())["code"] == "VALIDATION_ERROR"
