"""Hostile bodies: oversized uploads are refused while streaming (413), huge JSON is 413, deeply
nested or empty bodies are 400, decompression bombs stop at the limit, and the server keeps serving.
The probe routes use the real adapter; every POST route in the registry is attacked the same way."""

from __future__ import annotations

import gzip
import io
import json
import zlib

import aiohttp
import pytest

from api.adapter import JSON_BODY_LIMIT
from api.app import create_app
from tests.hardening.probes import add_probes

MB = 1024 * 1024


@pytest.fixture
async def hclient(aiohttp_client, make_settings, sessions):
    return await aiohttp_client(add_probes(create_app(make_settings(max_upload_bytes=20 * MB))))


class Sent:
    def __init__(self) -> None:
        self.bytes = 0


def stream(total: int, sent: Sent, chunk: int = 256 * 1024):
    async def gen():
        left = total
        while left > 0:
            n = min(chunk, left)
            sent.bytes += n
            yield b"\xff" * n
            left -= n
    return gen()


async def _post(client, path, method="post", **kw):
    """(status, body) or (None, None) when the server cut the connection after answering early."""
    try:
        async with client.request(method.upper(), path, **kw) as resp:
            body = await resp.json() if resp.content_type == "application/json" else await resp.text()
            return resp.status, body
    except (aiohttp.ClientOSError, aiohttp.ServerDisconnectedError, aiohttp.ClientPayloadError):
        return None, None


async def _still_serving(client, auth):
    resp = await client.get("/v1/grades/companies", headers=auth)
    assert resp.status == 200


async def test_25_mb_upload_with_length_is_refused_before_the_body_is_read(hclient, auth):
    sent = Sent()
    status, body = await _post(hclient, "/probe/upload", data=stream(25 * MB, sent),
                               headers={**auth, "Content-Type": "image/jpeg", "Content-Length": str(25 * MB)})
    assert status in (413, None)
    if status:
        assert body["code"] == "PAYLOAD_TOO_LARGE"
    assert sent.bytes < 25 * MB
    await _still_serving(hclient, auth)


async def test_25_mb_chunked_upload_is_refused_while_streaming(hclient, auth):
    sent = Sent()
    status, body = await _post(hclient, "/probe/upload", data=stream(25 * MB, sent),
                               headers={**auth, "Content-Type": "image/png"}, chunked=True)
    assert status in (413, None)
    if status:
        assert body == {"error": body["error"], "code": "PAYLOAD_TOO_LARGE"}
    await _still_serving(hclient, auth)


async def test_25_mb_multipart_upload_is_refused(hclient, auth):
    form = aiohttp.FormData()
    form.add_field("image", io.BytesIO(b"\xff" * (25 * MB)), filename="big.jpg", content_type="image/jpeg")
    status, body = await _post(hclient, "/probe/upload", data=form, headers=auth)
    assert status in (413, None)
    await _still_serving(hclient, auth)


async def test_an_upload_at_the_limit_is_accepted(hclient, auth):
    status, body = await _post(hclient, "/probe/upload", data=io.BytesIO(b"\xff" * (2 * MB)),
                               headers={**auth, "Content-Type": "image/jpeg"})
    assert status == 200 and body == {"size": 2 * MB, "tags": []}


async def test_gzip_bomb_stops_at_the_limit(hclient, auth):
    bomb = gzip.compress(b"\0" * (200 * MB), compresslevel=9)  # ~200 KB on the wire
    status, body = await _post(hclient, "/probe/upload", data=bomb,
                               headers={**auth, "Content-Type": "image/jpeg", "Content-Encoding": "gzip"})
    assert status in (413, 400, None)
    if status:
        assert body["code"] in ("PAYLOAD_TOO_LARGE", "VALIDATION_ERROR")
    await _still_serving(hclient, auth)


async def test_deflate_json_bomb_stops_at_the_limit(hclient, auth):
    payload = b'{"items": "' + b"a" * (50 * MB) + b'"}'
    status, body = await _post(hclient, "/probe/json", data=zlib.compress(payload, 9),
                               headers={**auth, "Content-Type": "application/json", "Content-Encoding": "deflate"})
    assert status in (413, 400, None)
    await _still_serving(hclient, auth)


@pytest.mark.parametrize("chunked", [False, True])
async def test_huge_json_is_413(hclient, auth, chunked):
    big = json.dumps({"items": ["x" * 1000] * 3000}).encode()  # ~3 MB
    assert len(big) > JSON_BODY_LIMIT
    kw = {"chunked": True} if chunked else {}
    status, body = await _post(hclient, "/probe/json", data=io.BytesIO(big),
                               headers={**auth, "Content-Type": "application/json"}, **kw)
    assert status in (413, None)
    if status:
        assert body["code"] == "PAYLOAD_TOO_LARGE"
    await _still_serving(hclient, auth)


@pytest.mark.parametrize("depth", [5_000, 100_000])
async def test_deeply_nested_json_is_400(hclient, auth, depth):
    body = b"[" * depth + b"]" * depth
    status, out = await _post(hclient, "/probe/json", data=b'{"items": ' + body + b"}",
                              headers={**auth, "Content-Type": "application/json"})
    assert status == 400 and out["code"] == "VALIDATION_ERROR"
    await _still_serving(hclient, auth)


async def test_moderately_nested_json_is_fine(hclient, auth):
    status, out = await _post(hclient, "/probe/json", data=b'{"items": ' + b"[" * 200 + b"]" * 200 + b"}",
                              headers={**auth, "Content-Type": "application/json"})
    assert status == 200


@pytest.mark.parametrize("path,ctype", [("/probe/json", "application/json"), ("/probe/upload", "image/jpeg"),
                                        ("/probe/upload", "")])
async def test_zero_byte_bodies_are_400(hclient, auth, path, ctype):
    headers = {**auth, **({"Content-Type": ctype} if ctype else {})}
    status, body = await _post(hclient, path, data=b"", headers=headers)
    assert status == 400 and body["code"] == "VALIDATION_ERROR" and body["error"]


@pytest.mark.parametrize("raw", [b"{", b"\xff\xfe", b"null", b"[1,2]", b'"text"', b"{\"items\": NaN}"])
async def test_broken_or_wrong_json_is_400(hclient, auth, raw):
    status, body = await _post(hclient, "/probe/json", data=raw, headers={**auth, "Content-Type": "application/json"})
    assert status in (400, 200)  # NaN is accepted by Python's json; nothing is a 5xx
    if status == 400:
        assert set(body) == {"error", "code"}


async def test_mislabelled_upload_type_is_415(hclient, auth):
    status, body = await _post(hclient, "/probe/upload", data=b"<html>", headers={**auth, "Content-Type": "text/html"})
    assert status == 415 and body["code"] == "UNSUPPORTED_MEDIA_TYPE"


async def test_every_documented_body_route_refuses_hostile_bodies(client, auth):
    """Whatever POST/PUT/PATCH operations /openapi.json offers (merged later too, raw routes such as
    the agent's included): huge, deeply nested and empty bodies are 4xx {error, code}."""
    doc = await (await client.get("/openapi.json")).json()
    failures, tried = [], 0
    for path, ops in doc["paths"].items():
        for method, op in ops.items():
            content = op.get("requestBody", {}).get("content", {})
            if method not in ("post", "put", "patch") or not content:
                continue
            binary = "application/json" not in content
            url = path.replace("{", "").replace("}", "")  # a literal segment where an id goes
            ctype = "image/jpeg" if binary else "application/json"
            cases = {"huge": b"[" + b'"xxxxxxxx",' * 300_000 + b'"x"]', "nested": b"[" * 100_000 + b"]" * 100_000,
                     "empty": b""}
            if binary:
                cases["huge"] = b"\xff" * (25 * MB)
            for name, data in cases.items():
                tried += 1
                status, body = await _post(client, url, method=method, data=io.BytesIO(data),
                                           headers={**auth, "Content-Type": ctype})
                if status is None and name == "huge":
                    continue  # the server answered early and closed the connection: also a refusal
                if status is None or status >= 500 or status < 400 or set(body) != {"error", "code"}:
                    failures.append((method, path, name, status, body))
    assert failures == []
    await _still_serving(client, auth)
