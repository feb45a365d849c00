"""Every route but /health, /v1/catalog/statistics (and the docs) needs a valid, unrevoked key."""

from __future__ import annotations

from store.queries import keys as key_queries


async def test_missing_key_is_401_with_error_body(client):
    resp = await client.get("/v1/grades/companies")
    assert resp.status == 401
    body = await resp.json()
    assert body["code"] == "UNAUTHORIZED" and "X-API-Key" in body["error"]


async def test_unknown_key_is_401(client):
    resp = await client.get("/v1/grades/companies", headers={"X-API-Key": "cw_not-a-real-key"})
    assert resp.status == 401
    assert (await resp.json())["code"] == "UNAUTHORIZED"


async def test_x_api_key_header_any_case(client, api_key):
    for name in ("X-API-Key", "x-api-key", "X-Api-Key"):
        resp = await client.get("/v1/grades/companies", headers={name: api_key[1]})
        assert resp.status == 200, name


async def test_bearer_authorization_accepted(client, api_key):
    resp = await client.get("/v1/grades/companies", headers={"Authorization": f"Bearer {api_key[1]}"})
    assert resp.status == 200
    resp = await client.get("/v1/grades/companies", headers={"Authorization": f"Basic {api_key[1]}"})
    assert resp.status == 401


async def test_revoked_key_stops_working(aiohttp_client, make_settings, sessions, api_key, auth):
    from api.app import create_app

    client = await aiohttp_client(create_app(make_settings(auth_cache_s=0)))
    assert (await client.get("/health/auth", headers=auth)).status == 200
    async with sessions() as s, s.begin():
        await key_queries.revoke(session=s, key_id=api_key[0])
    resp = await client.get("/health/auth", headers=auth)
    assert resp.status == 401
    assert "revoked" in (await resp.json())["error"]


async def test_revocation_reaches_a_caching_server_within_the_cache_time(client, sessions, api_key, auth, monkeypatch):
    import time

    from api import middleware

    assert client.app[middleware.CONTEXT].settings.auth_cache_s == 5
    assert (await client.get("/health/auth", headers=auth)).status == 200
    async with sessions() as s, s.begin():
        await key_queries.revoke(session=s, key_id=api_key[0])
    assert (await client.get("/health/auth", headers=auth)).status == 200  # still remembered
    later = time.monotonic() + 6
    monkeypatch.setattr(middleware.time, "monotonic", lambda: later)
    assert (await client.get("/health/auth", headers=auth)).status == 401


async def test_unknown_keys_are_never_cached(client, sessions, auth):
    assert (await client.get("/health/auth", headers={"X-API-Key": "cw_made-up"})).status == 401
    async with sessions() as s, s.begin():
        row, plaintext = await key_queries.create(session=s, name="late")
    assert (await client.get("/health/auth", headers={"X-API-Key": plaintext})).status == 200


async def test_public_routes_need_no_key(client):
    health = await client.get("/health")
    assert health.status == 200
    body = await health.json()
    assert body["status"] == "ok" and body["timestamp"]
    assert (await client.get("/v1/catalog/statistics")).status == 200
    assert (await client.get("/openapi.json")).status == 200


async def test_health_auth_validates_key(client, auth):
    assert (await client.get("/health/auth")).status == 401
    resp = await client.get("/health/auth", headers=auth)
    assert resp.status == 200
    assert (await resp.json())["status"] == "ok"


async def test_keys_are_stored_hashed(sessions, api_key):
    async with sessions() as s:
        rows = await key_queries.all_keys(session=s)
    assert rows and all(api_key[1] not in (r.key_hash, r.prefix) for r in rows)
    assert rows[0].key_hash == key_queries.hash_key(api_key[1])


async def test_an_address_presenting_unknown_keys_is_slowed_without_lookups(aiohttp_client, make_settings, auth,
                                                                          monkeypatch):
    from api import middleware
    from api.app import create_app

    # no key cache: the valid key is looked up every time, so it is not let through by a cache
    client = await aiohttp_client(create_app(make_settings(auth_fail_per_min=60, auth_fail_burst=3, auth_cache_s=0)))
    assert (await client.get("/health/auth", headers=auth)).status == 200  # a valid key spends nothing
    for i in range(3):  # a client in a loop with a wrong key (same prefix, as one bad key or a guesser's)
        resp = await client.get("/health/auth", headers={"X-API-Key": f"cw_wrongkey{i}"})
        assert resp.status == 401
    lookups = []
    real = middleware.key_queries.find_active

    async def counting(**kw):
        lookups.append(kw)
        return await real(**kw)

    monkeypatch.setattr(middleware.key_queries, "find_active", counting)
    resp = await client.get("/health/auth", headers={"X-API-Key": "cw_wrongkey4"})
    assert resp.status == 429 and int(resp.headers["Retry-After"]) >= 1
    assert (await resp.json())["code"] == "RATE_LIMITED" and lookups == []  # refused before the database
    # the valid key from the same address is never blocked, even looked up afresh
    assert (await client.get("/health/auth", headers=auth)).status == 200 and len(lookups) == 1
    assert (await client.get("/health/auth", headers={"X-API-Key": "cw_otherkey"})).status == 401
    assert (await client.get("/health")).status == 200  # public routes are not affected


async def test_the_failed_key_limit_can_be_turned_off(aiohttp_client, make_settings):
    from api.app import create_app

    client = await aiohttp_client(create_app(make_settings(auth_fail_per_min=0)))
    for i in range(40):
        assert (await client.get("/health/auth", headers={"X-API-Key": f"cw_guess-{i}"})).status == 401


async def test_concurrent_requests_share_one_key_lookup(client, auth, monkeypatch):
    """A key not in the cache (first use, or expired) is looked up once for all the requests carrying it
    at that moment, not once each (32 connections at an expiry were 32 queries, then more)."""
    import asyncio

    from api import middleware

    calls = 0
    real = middleware.key_queries.find_active

    async def counted(**kw):
        nonlocal calls
        calls += 1
        await asyncio.sleep(0.05)  # the database is slow under load: the other requests arrive meanwhile
        return await real(**kw)

    monkeypatch.setattr(middleware.key_queries, "find_active", counted)
    answers = await asyncio.gather(*(client.get("/health/auth", headers=auth) for _ in range(16)))
    assert [r.status for r in answers] == [200] * 16
    assert calls == 1


async def test_a_key_revoked_is_refused_after_the_background_refresh(client, sessions, api_key, auth, monkeypatch):
    """Near the end of its cache time a key is looked up again in the background: once that finds it
    revoked, the next request is refused."""
    import asyncio
    import time
    from types import SimpleNamespace

    from api import key_cache

    assert (await client.get("/health/auth", headers=auth)).status == 200
    async with sessions() as s, s.begin():
        await key_queries.revoke(session=s, key_id=api_key[0])
    almost = time.monotonic() + 4.5  # within the 5 s, in the last fifth
    # the key cache's clock only (the event loop's must run on for the refresh)
    monkeypatch.setattr(key_cache, "time", SimpleNamespace(monotonic=lambda: almost))
    assert (await client.get("/health/auth", headers=auth)).status == 200  # still cached; refreshes behind
    for _ in range(50):
        await asyncio.sleep(0.02)
        if (await client.get("/health/auth", headers=auth)).status == 401:
            break
    else:
        raise AssertionError("the revoked key was still accepted after its background refresh")
