"""Per-key rate limit (429 RATE_LIMITED + Retry-After) and the overall request timeout (503)."""

from __future__ import annotations

import asyncio
import uuid

from aiohttp import web

from api.app import create_app
from api.ratelimit import TokenBuckets
from api.settings import load_settings


def test_rate_limit_is_configurable_and_generous_by_default():
    s = load_settings({})
    assert s.rate_limit_per_min >= 1000 and s.rate_limit_burst >= 100
    s = load_settings({"CARDWISE_RATE_LIMIT_PER_MIN": "30", "CARDWISE_RATE_LIMIT_BURST": "5",
                       "CARDWISE_REQUEST_TIMEOUT_S": "2.5", "CARDWISE_DB_COMMAND_TIMEOUT_S": "4"})
    assert (s.rate_limit_per_min, s.rate_limit_burst, s.request_timeout_s, s.db_command_timeout_s) == (30, 5, 2.5, 4.0)


def test_token_bucket_refills_over_time():
    now = [100.0]
    b = TokenBuckets(per_min=60, burst=2, clock=lambda: now[0])
    k = uuid.uuid4()
    assert b.take(k) == 0 and b.take(k) == 0
    wait = b.take(k)
    assert 0.99 <= wait <= 1.0  # one token a second
    now[0] += 0.5
    assert 0.49 <= b.take(k) <= 0.51
    now[0] += 0.6
    assert b.take(k) == 0
    now[0] += 1000
    assert b.take(k) == 0 and b.take(k) == 0 and b.take(k) > 0  # never more than the burst


async def test_over_the_limit_is_429_with_retry_after_and_other_keys_are_unaffected(
        aiohttp_client, make_settings, sessions, auth, other_auth):
    client = await aiohttp_client(create_app(make_settings(rate_limit_per_min=6, rate_limit_burst=3)))
    for _ in range(3):
        assert (await client.get("/v1/grades/companies", headers=auth)).status == 200
    resp = await client.get("/v1/grades/companies", headers=auth)
    assert resp.status == 429
    body = await resp.json()
    assert set(body) == {"error", "code"} and body["code"] == "RATE_LIMITED" and body["error"]
    assert 1 <= int(resp.headers["Retry-After"]) <= 10
    # another key still gets through, and so do public routes
    assert (await client.get("/v1/grades/companies", headers=other_auth)).status == 200
    assert (await client.get("/health")).status == 200


async def test_zero_turns_the_limit_off(aiohttp_client, make_settings, sessions, auth):
    client = await aiohttp_client(create_app(make_settings(rate_limit_per_min=0, rate_limit_burst=1)))
    for _ in range(5):
        assert (await client.get("/v1/grades/companies", headers=auth)).status == 200


async def _slow(request: web.Request) -> web.Response:
    await asyncio.sleep(30)
    return web.json_response({})


async def test_a_request_over_the_overall_timeout_is_503_and_the_server_keeps_serving(
        aiohttp_client, make_settings, sessions, auth):
    app = create_app(make_settings(request_timeout_s=0.2))
    app.router.add_get("/slow", _slow)
    client = await aiohttp_client(app)
    resp = await client.get("/slow", headers=auth)
    assert resp.status == 503
    body = await resp.json()
    assert body["code"] == "SERVICE_UNAVAILABLE" and "0.2" in body["error"]
    assert resp.headers["Retry-After"] == "1"
    assert (await client.get("/v1/grades/companies", headers=auth)).status == 200


async def test_a_timeout_raised_inside_a_handler_is_not_reported_as_the_request_timeout(
        aiohttp_client, make_settings, sessions, auth):
    async def raises(request):
        raise TimeoutError("connect timed out")

    app = create_app(make_settings(request_timeout_s=30))
    app.router.add_get("/raises", raises)
    client = await aiohttp_client(app)
    resp = await client.get("/raises", headers=auth)
    assert resp.status == 503
    assert "30 s" not in (await resp.json())["error"]
