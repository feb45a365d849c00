"""GET /v1/subscription/: a key's requests this calendar month, counted per key and kept across restarts."""

from __future__ import annotations

from datetime import datetime, timezone

from tools.usage import UsageCounter, month_of


async def _usage(client, auth) -> dict:
    r = await client.get("/v1/subscription/", headers=auth)
    assert r.status == 200
    return await r.json()


async def test_each_key_sees_its_own_calls(client, auth, other_auth):
    for _ in range(3):
        await client.get("/v1/catalog/segments", headers=auth)
    await client.get("/v1/catalog/segments?take=0", headers=auth)  # a refused request is still a request
    await client.get("/v1/catalog/segments", headers=other_auth)
    await client.get("/health")  # no key: counted for nobody
    mine = await _usage(client, auth)
    assert mine["calls"] == 5 and [k["calls"] for k in mine["api_keys"]] == [5]
    assert mine["api_keys"][0]["key"].startswith("cw_") and mine["api_keys"][0]["key"].endswith("…")
    assert (await _usage(client, other_auth))["calls"] == 2
    assert (await client.get("/v1/subscription/")).status == 401


async def test_counts_are_written_and_survive_a_restart(aiohttp_client, settings, sessions, auth):
    from api.app import create_app

    first = await aiohttp_client(create_app(settings))
    for _ in range(4):
        await first.get("/v1/catalog/segments", headers=auth)
    await first.close()  # shutdown writes what is pending
    second = await aiohttp_client(create_app(settings))
    assert (await _usage(second, auth))["calls"] == 5


async def test_a_failed_flush_keeps_the_counts(ctx):
    counter = UsageCounter()
    counter.count(ctx.key_id(), datetime(2026, 1, 31, 23, 59, tzinfo=timezone.utc))
    counter.count(ctx.key_id(), datetime(2026, 2, 1, 0, 0, tzinfo=timezone.utc))

    class Broken:
        def transaction(self):
            raise ConnectionError("database down")

    try:
        await counter.flush(Broken())  # type: ignore[arg-type]
    except ConnectionError:
        pass
    assert counter.pending == {(ctx.key_id(), "2026-01"): 1, (ctx.key_id(), "2026-02"): 1}
    assert await counter.flush(ctx) == 2 and not counter.pending
    assert month_of(datetime(2026, 3, 1, tzinfo=timezone.utc)) == "2026-03"
