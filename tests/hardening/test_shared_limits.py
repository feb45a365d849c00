"""Limits shared through Redis (``CARDWISE_REDIS_URL``): two apps, as two processes or nodes would be,
share one per-key rate limit and one failed-key counter; without Redis each counts on its own, and
a Redis that cannot be reached never fails a request. Needs the Redis server at 127.0.0.1:6379
(skipped when absent, except with ``CARDWISE_REQUIRE_REDIS=1``)."""

from __future__ import annotations

import asyncio
import os
import uuid

import pytest

from api.app import create_app
from api.ratelimit import Limiter, redis_client
from api.settings import load_settings

REDIS_URL = os.environ.get("CARDWISE_TEST_REDIS_URL", "redis://127.0.0.1:6379/15")


@pytest.fixture
async def redis_url() -> str:
    client = redis_client(REDIS_URL)
    try:
        await client.ping()
    except Exception as exc:  # noqa: BLE001
        if os.environ.get("CARDWISE_REQUIRE_REDIS") == "1":
            pytest.fail(f"Redis is required here but unreachable at {REDIS_URL}: {exc!r}")
        pytest.skip(f"Redis unreachable at {REDIS_URL} ({exc!r})")
    finally:
        await client.aclose()
    return REDIS_URL


def test_the_redis_url_is_read_from_the_environment():
    assert load_settings({}).redis_url == ""
    assert load_settings({"CARDWISE_REDIS_URL": "redis://cache:6379/2"}).redis_url == "redis://cache:6379/2"


async def _statuses(clients, headers, n: int) -> list[int]:
    out = []
    for i in range(n):  # alternate between the "processes"
        out.append((await clients[i % len(clients)].get("/health/auth", headers=headers)).status)
    return out


async def test_two_processes_share_one_rate_limit_through_redis(aiohttp_client, make_settings, auth, redis_url):
    settings = make_settings(rate_limit_per_min=6, rate_limit_burst=4, redis_url=redis_url)
    clients = [await aiohttp_client(create_app(settings)) for _ in range(2)]
    assert await _statuses(clients, auth, 6) == [200, 200, 200, 200, 429, 429]


async def test_without_redis_each_process_has_its_own_limit(aiohttp_client, make_settings, auth):
    settings = make_settings(rate_limit_per_min=6, rate_limit_burst=4)
    clients = [await aiohttp_client(create_app(settings)) for _ in range(2)]
    assert await _statuses(clients, auth, 8) == [200] * 8  # 4 each


async def test_failed_keys_are_counted_across_processes(aiohttp_client, make_settings, auth, redis_url):
    settings = make_settings(auth_fail_per_min=1, auth_fail_burst=3, auth_cache_s=0, redis_url=redis_url)
    clients = [await aiohttp_client(create_app(settings)) for _ in range(2)]
    wrong = {"X-API-Key": "cw_" + uuid.uuid4().hex}  # a fresh prefix: nothing left from another run
    assert await _statuses(clients, wrong, 5) == [401, 401, 401, 429, 429]
    assert await _statuses(clients, auth, 2) == [200, 200]  # the valid key is never blocked


async def test_a_redis_that_cannot_be_reached_never_fails_a_request(aiohttp_client, make_settings, auth):
    settings = make_settings(rate_limit_per_min=6, rate_limit_burst=2, redis_url="redis://127.0.0.1:1/0")
    client = await aiohttp_client(create_app(settings))
    # counted in the process meanwhile: the limit still holds
    assert await _statuses([client], auth, 3) == [200, 200, 429]


async def test_the_redis_bucket_refills_and_is_atomic_under_concurrency(redis_url):
    client = redis_client(redis_url)
    try:
        limiter = Limiter(60, 10, redis=client, name=f"test-{uuid.uuid4().hex}")
        key = uuid.uuid4()
        waits = await asyncio.gather(*(limiter.take(key) for _ in range(30)))
        assert sum(1 for w in waits if w == 0) == 10  # exactly the burst, never more
        assert all(0 < w <= 1.0 for w in waits if w)
        assert await limiter.wait(key) > 0
        await asyncio.sleep(1.1)  # one token a second
        assert await limiter.take(key) == 0
    finally:
        await client.aclose()
