"""Requests that aiohttp's HTTP parser refuses are answered with the same {error, code} JSON as any
other error (not aiohttp's plain text), and nothing is served for them."""

from __future__ import annotations

import json

import pytest

from api.protocol_errors import protocol_error_body
from tests.hardening.helpers import raw_request


@pytest.mark.parametrize("payload", [
    b"GARBAGE\r\n\r\n",
    b"GET /v1/catalog/cards HTTP/1.1\r\nHost: x\r\nX-Long: " + b"a" * 70000 + b"\r\n\r\n",
    b"POST /v1/collectors HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n",
    b"GET /health HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n",
    b"GET /v1/catalog/cards?name=" + b"a" * 9000 + b" HTTP/1.1\r\nHost: x\r\n\r\n",
    b"GET /\x00 HTTP/1.1\r\nHost: x\r\n\r\n",
], ids=["request-line", "header-too-long", "bad-chunk", "negative-length", "url-over-8kb", "nul-in-target"])
async def test_malformed_http_gets_a_json_4xx(client, payload):
    status, headers, body = await raw_request(client, payload)
    assert 400 <= status < 500
    assert headers["content-type"].startswith("application/json")
    doc = json.loads(body)
    assert doc["code"] == "VALIDATION_ERROR" and doc["error"].startswith("Malformed HTTP request")
    assert "Traceback" not in doc["error"]
    assert "aiohttp" not in headers.get("server", "").lower()


def test_server_errors_stay_generic():
    assert protocol_error_body(500, "Traceback (most recent call last): ...") == {
        "error": "Internal error", "code": "INTERNAL_ERROR"}
    assert protocol_error_body(413, None)["code"] == "PAYLOAD_TOO_LARGE"
