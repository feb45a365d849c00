"""Hostile requests that once answered 500 or were accepted silently: strings the database cannot
store, header bytes that are not UTF-8, NULs in file names, conflicting credentials, integers that
are not digits, JSON sent as another type; and HEAD, the Server header. On SQLite and PostgreSQL."""

from __future__ import annotations

import json
import uuid

import pytest
from multidict import CIMultiDict
from sqlalchemy import func, select

from api.app import create_app
from store.models import Collection, Collector, Feedback, WantList
from tests.hardening.helpers import raw_request

SURROGATE = "x\udc80y"


async def _rows(sessions) -> int:
    async with sessions() as s:
        return sum([int(await s.scalar(select(func.count()).select_from(m)))
                    for m in (Collector, Collection, WantList, Feedback)])


async def _json_error(resp, status: int, code: str) -> dict:
    assert resp.status == status, (resp.status, await resp.text())
    body = await resp.json()
    assert set(body) == {"error", "code"} and body["code"] == code
    return body


# --------------------------------------------------------------------------- text the database cannot store
async def test_lone_surrogates_are_400_everywhere_and_store_nothing(client, auth, sessions):
    r = await client.post("/v1/collectors/", json={"name": "Ana"}, headers=auth)
    collector = (await r.json())["id"]
    r = await client.post("/v1/collection/", json={"collectorId": collector, "name": "Main"}, headers=auth)
    collection = (await r.json())["id"]
    before = await _rows(sessions)
    calls = [
        ("POST", "/v1/collectors/", {"name": SURROGATE}),
        ("PUT", f"/v1/collectors/{collector}", {"name": SURROGATE}),
        ("POST", "/v1/collection/", {"collectorId": collector, "name": "ok", "description": SURROGATE}),
        ("PUT", f"/v1/collection/{collection}", {"description": SURROGATE}),
        ("POST", "/v1/lists/", {"collectorId": collector, "name": SURROGATE}),
        ("POST", f"/v1/collection/{collection}/binders", {"name": SURROGATE}),
        ("POST", "/v1/feedback/general", {"message": SURROGATE}),
        ("POST", "/v1/collectors/", {SURROGATE: "key"}),
        ("POST", "/v1/ai/query", {"query": SURROGATE}),
    ]
    for method, path, body in calls:
        resp = await client.request(method, path, data=json.dumps(body),
                                    headers={**auth, "Content-Type": "application/json"})
        err = await _json_error(resp, 400, "VALIDATION_ERROR")
        assert "surrogate" in err["error"], (path, err)
    for path in ("/v1/collection/?name=x%ED%B2%80y", "/v1/catalog/cards?name=x%ED%B2%80y",
                 "/v1/collectors/%ED%B2%80"):
        resp = await client.get(path, headers=auth)  # invalid UTF-8 in a URL stays percent-encoded
        assert resp.status in (200, 400, 404), (path, resp.status)
    assert await _rows(sessions) == before


# --------------------------------------------------------------------------- credentials
@pytest.mark.parametrize("header", ["X-API-Key", "Authorization"])
async def test_non_utf8_key_bytes_are_401_and_count_as_failed_keys(aiohttp_client, make_settings, auth, header):
    client = await aiohttp_client(create_app(make_settings(auth_fail_per_min=60, auth_fail_burst=3)))
    value = (b"Bearer " if header == "Authorization" else b"") + b"cw_\xff\xfe\x80key"
    payload = (b"GET /health/auth HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
               + header.encode() + b": " + value + b"\r\n\r\n")
    for _ in range(3):
        status, headers, body = await raw_request(client, payload)
        assert status == 401 and json.loads(body)["code"] == "UNAUTHORIZED"
        assert headers["content-type"].startswith("application/json")
    status, _, body = await raw_request(client, payload)
    assert status == 429 and json.loads(body)["code"] == "RATE_LIMITED"  # counted as failed keys
    assert (await client.get("/health/auth", headers=auth)).status == 200  # a valid key is not blocked


async def test_conflicting_credentials_are_refused(client, auth, other_auth):
    key, other = auth["X-API-Key"], other_auth["X-API-Key"]
    both = {"X-API-Key": key, "Authorization": f"Bearer {other}"}
    await _json_error(await client.get("/health/auth", headers=both), 400, "VALIDATION_ERROR")
    twice = CIMultiDict([("X-API-Key", key), ("X-API-Key", other)])
    await _json_error(await client.get("/v1/collectors/", headers=twice), 400, "VALIDATION_ERROR")
    # the SDKs send the same key in both headers, and that is fine
    same = {"X-API-Key": key, "Authorization": f"Bearer {key}"}
    assert (await client.get("/health/auth", headers=same)).status == 200
    assert (await client.get("/health/auth", headers={"Authorization": f"Bearer {key}"})).status == 200


async def test_a_wrong_key_in_a_loop_never_locks_out_a_valid_key(aiohttp_client, make_settings, auth):
    client = await aiohttp_client(create_app(make_settings(auth_fail_per_min=1, auth_fail_burst=2, auth_cache_s=0)))
    wrong = {"X-API-Key": "cw_" + uuid.uuid4().hex}
    answers = [(await client.get("/health/auth", headers=wrong)).status for _ in range(6)]
    assert answers[:2] == [401, 401] and set(answers[2:]) == {429}
    for _ in range(3):  # looked up afresh every time (no cache), never refused
        assert (await client.get("/health/auth", headers=auth)).status == 200


# --------------------------------------------------------------------------- paths, query strings, bodies
async def test_a_nul_in_a_static_file_name_is_a_clean_404(client):
    for path in ("/static/index.html%00.js", "/static/js%00/app.js", "/static/" + "a" * 5000):
        resp = await client.get(path)
        await _json_error(resp, 404, "NOT_FOUND")


@pytest.mark.parametrize("value", ["5_0", "+5", "5.0", "1e2", " 5", "0x10", "٥"])
async def test_integers_in_query_strings_are_plain_digits(client, auth, value):
    resp = await client.get("/v1/catalog/segments", params={"take": value}, headers=auth)
    err = await _json_error(resp, 400, "VALIDATION_ERROR")
    assert "take" in err["error"]


async def test_plain_digits_still_work(client, auth):
    resp = await client.get("/v1/catalog/segments", params={"take": "5", "skip": "0"}, headers=auth)
    assert resp.status == 200


@pytest.mark.parametrize("ctype", ["text/plain", "application/x-www-form-urlencoded", "text/html"])
async def test_json_routes_refuse_other_content_types(client, auth, sessions, ctype):
    body = json.dumps({"name": "Ana"})
    for path in ("/v1/collectors/", "/v1/ai/query"):
        resp = await client.post(path, data=body, headers={**auth, "Content-Type": ctype})
        await _json_error(resp, 415, "UNSUPPORTED_MEDIA_TYPE")
    assert await _rows(sessions) == 0
    for ok in ("application/json", "application/json; charset=utf-8", "application/vnd.api+json"):
        resp = await client.post("/v1/collectors/", data=body, headers={**auth, "Content-Type": ok})
        assert resp.status == 201


# --------------------------------------------------------------------------- HEAD, Server header
async def test_head_answers_on_get_routes(client, auth):
    for path in ("/health", "/v1/grades/companies", "/v1/collectors/", "/"):
        get = await client.get(path, headers=auth)
        head = await client.head(path, headers=auth)
        assert head.status == get.status == 200, path
        assert await head.read() == b"" and head.headers["Content-Type"] == get.headers["Content-Type"]
    assert (await client.head("/v1/collectors/")).status == 401


async def test_no_response_names_the_server_software_or_version(client, auth):
    responses = [await client.get("/health"), await client.get("/nope"), await client.get("/v1/collectors/"),
                 await client.get("/v1/grades/companies", headers=auth), await client.post("/health")]
    for resp in responses:
        server = resp.headers.get("Server", "")
        assert "aiohttp" not in server.lower() and "python" not in server.lower()
        assert not any(ch.isdigit() for ch in server)
    status, headers, _ = await raw_request(client, b"GARBAGE\r\n\r\n")
    assert status == 400 and "aiohttp" not in headers.get("server", "").lower()


# --------------------------------------------------------------------------- compressed bodies
async def test_compressed_bodies_are_inflated_by_the_app_up_to_the_limit(client, auth, monkeypatch):
    import gzip
    import zlib

    body = json.dumps({"name": "Zipped"}).encode()
    resp = await client.post("/v1/collectors/", data=gzip.compress(body),
                             headers={**auth, "Content-Type": "application/json", "Content-Encoding": "gzip"})
    assert resp.status == 201 and (await resp.json())["name"] == "Zipped"
    resp = await client.post("/v1/collectors/", data=b"\x1f\x8b not gzip",
                             headers={**auth, "Content-Type": "application/json", "Content-Encoding": "gzip"})
    await _json_error(resp, 400, "VALIDATION_ERROR")
    resp = await client.post("/v1/collectors/", data=body,
                             headers={**auth, "Content-Type": "application/json", "Content-Encoding": "br"})
    await _json_error(resp, 415, "UNSUPPORTED_MEDIA_TYPE")
    # a bomb is inflated only as far as the limit allows (1 MB of JSON), never whole (64 MB here)
    inflated = []
    real = zlib.decompressobj

    class Counting:
        def __init__(self, wbits):
            self.inner = real(wbits)

        def decompress(self, data, max_length=0):
            out = self.inner.decompress(data, max_length)
            inflated.append(len(out))
            return out

        @property
        def unconsumed_tail(self):
            return self.inner.unconsumed_tail

    monkeypatch.setattr("api.adapter.zlib.decompressobj", Counting)
    bomb = gzip.compress(b"\0" * (64 << 20), compresslevel=9)
    resp = await client.post("/v1/collectors/", data=bomb,
                             headers={**auth, "Content-Type": "application/json", "Content-Encoding": "gzip"})
    await _json_error(resp, 413, "PAYLOAD_TOO_LARGE")
    assert sum(inflated) <= (1 << 20) + 1
