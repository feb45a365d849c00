"""Catalog reads are answered from a per-process cache for CARDWISE_CATALOG_CACHE_S seconds; nothing
per-key, random or failed is ever cached."""

from __future__ import annotations

import asyncio
import uuid

from api.app import create_app
from api.keys import RESPONSE_CACHE
from api.response_cache import ResponseCache
from api.settings import load_settings
from store.models import Card
from tools import catalog_cards as tool_module
from tools.errors import ServiceError


async def _add_card(sessions, cat, name: str) -> None:
    chrome = cat.sets["chrome"]
    async with sessions() as s, s.begin():
        s.add(Card(id=uuid.uuid4(), set_id=chrome.id, release_id=chrome.release_id, name=name, number="999"))


async def test_a_repeated_search_is_answered_from_the_cache_with_the_same_page(client, auth, cat):
    first = await client.get("/v1/catalog/cards", params={"name": "skenes"}, headers=auth)
    again = await client.get("/v1/catalog/cards", params={"name": "skenes"}, headers=auth)
    assert first.status == again.status == 200
    assert (first.headers["X-Cache"], again.headers["X-Cache"]) == ("MISS", "HIT")
    assert await first.json() == await again.json()
    assert [c["name"] for c in (await again.json())["cards"]] == ["Paul Skenes", "Paul Skenes"]
    other = await client.get("/v1/catalog/cards", params={"name": "skenes", "take": "1"}, headers=auth)
    assert other.headers["X-Cache"] == "MISS" and len((await other.json())["cards"]) == 1


async def test_the_catalog_cache_is_shared_by_keys(client, auth, other_auth, cat):
    mine = await client.get(f"/v1/catalog/cards/{cat.cards['ohtani'].id}", headers=auth)
    theirs = await client.get(f"/v1/catalog/cards/{cat.cards['ohtani'].id}", headers=other_auth)
    assert theirs.headers["X-Cache"] == "HIT" and await theirs.json() == await mine.json()


async def test_a_new_card_shows_once_the_entry_expires(client, auth, cat, sessions):
    before = await (await client.get("/v1/catalog/cards", params={"name": "zzyzx"}, headers=auth)).json()
    assert before["total_count"] == 0
    await _add_card(sessions, cat, "Zzyzx Road")
    stale = await (await client.get("/v1/catalog/cards", params={"name": "zzyzx"}, headers=auth)).json()
    assert stale == before  # within CARDWISE_CATALOG_CACHE_S the cached page stands
    client.app[RESPONSE_CACHE]._clock = lambda: float("inf")  # CARDWISE_CATALOG_CACHE_S has passed
    fresh = await client.get("/v1/catalog/cards", params={"name": "zzyzx"}, headers=auth)
    assert fresh.headers["X-Cache"] == "MISS" and (await fresh.json())["total_count"] == 1


async def test_with_the_cache_off_every_read_is_fresh(aiohttp_client, make_settings, auth, cat, sessions):
    client = await aiohttp_client(create_app(make_settings(catalog_cache_s=0)))
    assert (await (await client.get("/v1/catalog/cards", params={"name": "zzyzx"}, headers=auth)).json()
            )["total_count"] == 0
    await _add_card(sessions, cat, "Zzyzx Road")
    resp = await client.get("/v1/catalog/cards", params={"name": "zzyzx"}, headers=auth)
    assert "X-Cache" not in resp.headers and (await resp.json())["total_count"] == 1


async def test_errors_random_pulls_and_per_key_data_are_never_cached(client, auth, cat):
    for _ in range(2):
        bad = await client.get("/v1/catalog/cards", params={"take": "0"}, headers=auth)
        assert bad.status == 400 and "X-Cache" not in bad.headers
        assert (await bad.json())["code"] == "VALIDATION_ERROR"
        missing = await client.get(f"/v1/catalog/cards/{uuid.uuid4()}", headers=auth)
        assert missing.status == 404 and "X-Cache" not in missing.headers
        pull = await client.get("/v1/catalog/cards/random", params={"count": "3"}, headers=auth)
        assert pull.status == 200 and "X-Cache" not in pull.headers
        mine = await client.get("/v1/collectors", headers=auth)
        assert mine.status == 200 and "X-Cache" not in mine.headers
    unauthenticated = await client.get("/v1/catalog/cards", params={"name": "skenes"})
    assert unauthenticated.status == 401  # the cache sits behind authentication


def test_entries_expire_and_the_least_recently_used_go_first():
    now = [0.0]
    cache = ResponseCache(ttl_s=10, max_entries=2, max_bytes=10, clock=lambda: now[0])
    cache.put("a", 200, b"A")
    cache.put("b", 200, b"B")
    assert cache.get("a") == (200, b"A")  # "a" is now the most recently used
    cache.put("c", 200, b"C")
    assert cache.get("b") is None and cache.get("a") == (200, b"A") and cache.get("c") == (200, b"C")
    now[0] = 10.5
    assert cache.get("a") is None and len(cache) == 1


def test_a_stream_of_one_off_answers_does_not_flush_those_asked_again():
    cache = ResponseCache(ttl_s=10, max_entries=10, max_bytes=1000)
    for k in ("popular", "liked"):
        cache.put(k, 200, b"P")
        assert cache.get(k) == (200, b"P")  # asked again: protected
    for i in range(50):  # distinct searches, each asked once (typing, a keystroke each)
        cache.put(f"once-{i}", 200, b"x")
    assert cache.get("popular") == (200, b"P") and cache.get("liked") == (200, b"P")
    assert cache.get("once-0") is None and cache.get("once-49") == (200, b"x") and len(cache) == 10
    for i in range(20):  # the protected share (80 %) is bounded: more answers asked again push the oldest out
        cache.put(f"again-{i}", 200, b"y")
        cache.get(f"again-{i}")
    assert cache.get("popular") is None and len(cache) == 10 and cache.size == 10


async def test_a_popular_answer_refreshed_in_the_background_is_not_flushed_by_one_off_searches():
    now = [0.0]
    cache = ResponseCache(ttl_s=100, max_entries=10, max_bytes=1000, clock=lambda: now[0])
    cache.put("popular", 200, b"old")
    assert cache.get("popular") == (200, b"old")  # asked again: protected
    now[0] = 55.0
    assert cache.lookup("popular")[2]  # due for its refresh

    async def compute() -> tuple[int, bytes]:
        return 200, b"new"

    cache.refresh("popular", compute)
    await asyncio.gather(*cache._refreshing)
    for i in range(30):  # a stream of distinct one-off searches, keystroke by keystroke
        cache.put(f"one-off {i}", 200, b"x")
    assert cache.get("popular") == (200, b"new")


def test_the_cache_holds_at_most_its_bytes():
    cache = ResponseCache(ttl_s=10, max_entries=100, max_bytes=10)
    cache.put("a", 200, b"12345")
    cache.put("b", 200, b"12345")
    cache.put("c", 200, b"123")  # over 10 bytes: the least recently used goes
    assert cache.get("a") is None and cache.get("b") and cache.get("c") and cache.size == 8
    cache.put("huge", 200, b"x" * 11)  # larger than the whole cache: not kept, nothing evicted
    assert cache.get("huge") is None and cache.size == 8
    cache.put("b", 200, b"1")  # replacing an entry accounts for the old body
    assert cache.size == 4


def test_cache_settings_come_from_the_environment():
    s = load_settings({"CARDWISE_CATALOG_CACHE_S": "5", "CARDWISE_CATALOG_CACHE_ENTRIES": "10",
                       "CARDWISE_CATALOG_CACHE_MB": "2"})
    assert (s.catalog_cache_s, s.catalog_cache_entries, s.catalog_cache_mb) == (5.0, 10, 2)
    assert not ResponseCache(0, 10).enabled and not ResponseCache(5, 0).enabled
    assert not ResponseCache(5, 10, max_bytes=0).enabled
    d = load_settings({})
    assert (d.catalog_cache_s, d.catalog_cache_entries, d.catalog_cache_mb) == (60.0, 4096, 64)


def _slow_search(monkeypatch, fail_first: bool = False) -> list[int]:
    """Count (and slow down) the computations of a page of cards (once per page, whether the search index
    or SQL answers it); optionally fail the first."""
    calls: list[int] = []

    def slowed(real):
        async def search(*args, **kw):
            calls.append(1)
            await asyncio.sleep(0.2)
            if fail_first and len(calls) == 1:
                raise ServiceError("SERVICE_UNAVAILABLE", "The database is unavailable")
            return await real(*args, **kw)
        return search

    monkeypatch.setattr(tool_module, "_search_by_name", slowed(tool_module._search_by_name))
    return calls


async def test_identical_searches_arriving_together_run_the_query_once(client, auth, cat, monkeypatch):
    calls = _slow_search(monkeypatch)
    resps = await asyncio.gather(*(client.get("/v1/catalog/cards", params={"name": "skenes"}, headers=auth)
                                   for _ in range(5)))
    bodies = [await r.json() for r in resps]
    assert [r.status for r in resps] == [200] * 5 and len(calls) == 1
    assert all(b == bodies[0] for b in bodies) and bodies[0]["total_count"] == 2
    assert sorted(r.headers["X-Cache"] for r in resps) == ["HIT"] * 4 + ["MISS"]
    other = await client.get("/v1/catalog/cards", params={"name": "ohtani"}, headers=auth)
    assert other.headers["X-Cache"] == "MISS" and len(calls) == 2  # other searches are not held up


async def test_when_the_first_computation_fails_the_waiting_requests_compute_their_own(
        client, auth, cat, monkeypatch):
    # the key and the catalog version already read: the first request goes straight to computing (a
    # lookup it shared with the second would let either compute first)
    assert (await client.get("/v1/catalog/cards", params={"name": "ohtani"}, headers=auth)).status == 200
    calls = _slow_search(monkeypatch, fail_first=True)
    first = asyncio.ensure_future(client.get("/v1/catalog/cards", params={"name": "skenes"}, headers=auth))
    await asyncio.sleep(0.05)  # the first request is computing when the second arrives
    second = await client.get("/v1/catalog/cards", params={"name": "skenes"}, headers=auth)
    first = await first
    assert first.status == 503 and (await first.json())["code"] == "SERVICE_UNAVAILABLE"
    assert second.status == 200 and (await second.json())["total_count"] == 2 and len(calls) == 2
    again = await client.get("/v1/catalog/cards", params={"name": "skenes"}, headers=auth)
    assert again.headers["X-Cache"] == "HIT" and len(calls) == 2  # the second answer was cached


async def test_a_request_cancelled_while_computing_releases_its_waiters():
    cache = ResponseCache(ttl_s=10, max_entries=10)

    async def leader() -> None:
        with cache.computing("k"):
            await asyncio.sleep(10)

    task = asyncio.ensure_future(leader())
    await asyncio.sleep(0)
    waiter = asyncio.ensure_future(cache.join("k"))
    await asyncio.sleep(0)
    assert not waiter.done()
    task.cancel()
    assert await asyncio.wait_for(waiter, 1) is None and await cache.join("k") is None


async def test_an_import_by_another_process_drops_the_cached_answers(aiohttp_client, make_settings, auth,
                                                                     db_url, monkeypatch):
    from cli.main import main

    client = await aiohttp_client(create_app(make_settings(catalog_version_check_s=0)))
    params = {"name": "charizard"}
    before = [await client.get("/v1/catalog/cards", params=params, headers=auth) for _ in range(2)]
    assert [r.headers["X-Cache"] for r in before] == ["MISS", "HIT"]
    assert (await before[1].json())["total_count"] == 0
    monkeypatch.setenv("CARDWISE_DATABASE_URL", db_url)
    assert await asyncio.to_thread(main, ["import", "demo", "--quiet"]) == 0  # as `cardwise import` would
    after = await client.get("/v1/catalog/cards", params=params, headers=auth)
    assert after.headers["X-Cache"] == "MISS" and (await after.json())["total_count"] > 0


async def test_the_cache_and_the_search_index_agree_on_the_catalog_version(aiohttp_client, make_settings, auth,
                                                                            cat, sessions, monkeypatch):
    """Both follow one read of the version: the cache cannot drop its answers for a new version while the
    index, on a timer of its own, still answers from the old catalog (that answer was then cached as new)."""
    from store.queries import catalog_version
    from tools import _search

    now = [0.0]
    monkeypatch.setattr(_search, "time", type("Clock", (), {"monotonic": staticmethod(lambda: now[0])}))
    client = await aiohttp_client(create_app(make_settings(catalog_version_check_s=10)))
    ohtani = f"/v1/catalog/cards/{cat.cards['ohtani'].id}"
    assert (await client.get(ohtani, headers=auth)).status == 200  # the cache's first read of the version
    now[0] = 6.0  # the index's first use, within the interval
    params = {"name": "zzyzx"}
    assert (await (await client.get("/v1/catalog/cards", params=params, headers=auth)).json())["total_count"] == 0
    await _add_card(sessions, cat, "Zzyzx Road")
    async with sessions() as s, s.begin():
        await catalog_version.bump(session=s)  # as every importer does
    now[0] = 11.0  # the interval has passed since the first read (not since the index's first use)
    fresh = await client.get("/v1/catalog/cards", params=params, headers=auth)
    assert fresh.headers["X-Cache"] == "MISS" and (await fresh.json())["total_count"] == 1
    again = await client.get("/v1/catalog/cards", params=params, headers=auth)
    assert again.headers["X-Cache"] == "HIT" and (await again.json())["total_count"] == 1


async def test_the_catalog_version_is_read_at_most_once_per_interval():
    now, reads, version = [0.0], [], [1]

    async def read() -> int:
        reads.append(now[0])
        return version[0]

    cache = ResponseCache(ttl_s=100, max_entries=10, clock=lambda: now[0])
    cache.watch(read, every_s=1.0)
    await cache.sync()
    cache.put("a", 200, b"A")
    version[0] = 2  # an import ran; within the interval the cached answer still stands
    now[0] = 0.5
    await cache.sync()
    assert cache.get("a") == (200, b"A") and reads == [0.0]
    now[0] = 1.2  # the next read sees the new version and drops every answer
    await cache.sync()
    assert cache.get("a") is None and reads == [0.0, 1.2]
    cache.put("a", 200, b"A2")
    now[0] = 2.5  # unchanged version: answers stay
    await cache.sync()
    assert cache.get("a") == (200, b"A2") and reads == [0.0, 1.2, 2.5]


async def test_an_unreachable_database_when_reading_the_version_keeps_the_cache_serving():
    async def down() -> int:
        raise ConnectionRefusedError("database down")

    cache = ResponseCache(ttl_s=100, max_entries=10)
    cache.watch(down, every_s=1.0)
    cache.put("a", 200, b"A")
    await cache.sync()
    assert cache.get("a") == (200, b"A")


async def test_an_answer_near_its_expiry_is_served_while_one_request_recomputes_it(client, auth, cat, sessions,
                                                                                  monkeypatch):
    first = await client.get("/v1/catalog/cards", params={"name": "zzyzx"}, headers=auth)
    assert first.headers["X-Cache"] == "MISS" and (await first.json())["total_count"] == 0
    await _add_card(sessions, cat, "Zzyzx Road")
    calls = _slow_search(monkeypatch)
    cache = client.app[RESPONSE_CACHE]
    later = cache._clock() + cache.ttl_s * 0.55  # past the refresh point, before the earliest expiry
    cache._clock = lambda: later
    resps = await asyncio.gather(*(client.get("/v1/catalog/cards", params={"name": "zzyzx"}, headers=auth)
                                   for _ in range(5)))
    # nobody waited for the recomputation: every client got the held page, and it ran once
    assert [r.headers["X-Cache"] for r in resps] == ["HIT"] * 5
    assert [(await r.json())["total_count"] for r in resps] == [0] * 5 and len(calls) == 1
    for _ in range(50):  # the background recomputation replaces the held answer when it ends
        if not cache._refreshing:
            break
        await asyncio.sleep(0.05)
    after = await client.get("/v1/catalog/cards", params={"name": "zzyzx"}, headers=auth)
    assert after.headers["X-Cache"] == "HIT" and (await after.json())["total_count"] == 1 and len(calls) == 1


async def test_an_expired_answer_stands_only_while_its_refresh_runs():
    now = [0.0]
    cache = ResponseCache(ttl_s=100, max_entries=10, clock=lambda: now[0])
    cache.put("a", 200, b"old")
    due, expires = cache._entries["a"][:2]  # its life is 60-100, at random; due for the last half of it
    assert 30 <= due <= 50 and expires - due == due
    now[0] = due - 1
    assert cache.lookup("a") == (200, b"old", False)  # young: no refresh
    now[0] = due + 1
    assert cache.lookup("a") == (200, b"old", True)  # in the last half of its life: due
    release = asyncio.Event()

    async def compute() -> tuple[int, bytes]:
        await release.wait()
        return 200, b"new"

    cache.refresh("a", compute)
    cache.refresh("a", compute)  # already running: not a second one
    now[0] = expires + 4  # expired, but its refresh runs: the held answer stands, nobody else refreshes
    assert cache.lookup("a") == (200, b"old", False) and len(cache._refreshing) == 1
    now[0] = expires + 26  # a quarter of the TTL past its expiry: no longer served; requests wait for the refresh
    assert cache.lookup("a") is None
    waiting = asyncio.ensure_future(cache.join("a"))
    await asyncio.sleep(0)
    assert not waiting.done()
    release.set()
    await asyncio.gather(*cache._refreshing)
    assert await waiting == (200, b"new") and cache.lookup("a") == (200, b"new", False)
    now[0] = 1000.0  # expired with no refresh running: gone
    assert cache.lookup("a") is None


async def test_refreshes_queued_behind_others_are_not_timed_out_by_the_wait():
    cache = ResponseCache(ttl_s=100, max_entries=10)
    started: list[str] = []

    def compute(key: str, delay: float):
        async def run() -> tuple[int, bytes]:
            started.append(key)
            await asyncio.sleep(delay)
            return 200, key.encode()
        return run

    for key in "abc":
        cache.put(key, 200, b"old")
    # two refreshes run at once; the third waits for a slot longer than its own time limit
    cache.refresh("a", compute("a", 0.2), timeout_s=0.3)
    cache.refresh("b", compute("b", 0.2), timeout_s=0.3)
    cache.refresh("c", compute("c", 0.05), timeout_s=0.1)
    await asyncio.gather(*cache._refreshing)
    assert started == ["a", "b", "c"] and [cache.get(k) for k in "abc"] == [(200, b"a"), (200, b"b"), (200, b"c")]


def test_entries_made_together_come_due_over_a_spread_and_each_is_due_for_half_its_life():
    now = [0.0]
    cache = ResponseCache(ttl_s=100, max_entries=1000, max_bytes=1 << 20, clock=lambda: now[0])
    for i in range(400):
        cache.put(i, 200, b"x")
    due_from = sorted(e[0] for e in cache._entries.values())
    # after a start or a catalog change every answer is made within seconds: their refreshes do not all fall
    # in one burst, and an answer asked only every 30 s (a third of the TTL) is still refreshed before it expires
    assert due_from[0] < 33 and due_from[-1] > 47
    assert all(expires - due >= 30 for due, expires, _s, _b in cache._entries.values())


async def test_an_answer_computed_before_a_catalog_change_is_neither_kept_nor_handed_on():
    version = [1]

    async def read() -> int:
        return version[0]

    cache = ResponseCache(ttl_s=100, max_entries=10)
    cache.watch(read, every_s=0)
    await cache.sync()
    release = asyncio.Event()

    async def compute() -> tuple[int, bytes]:
        await release.wait()
        return 200, b"before the import"

    cache.refresh("a", compute)
    await asyncio.sleep(0)
    version[0] = 2  # an import ran while it computed
    await cache.sync()
    assert await cache.join("a") is None  # a request arriving now computes its own answer
    release.set()
    await asyncio.gather(*cache._refreshing)
    assert cache.get("a") is None
    with cache.computing("a") as store:
        store(200, b"after")
    assert cache.get("a") == (200, b"after")
