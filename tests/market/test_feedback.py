"""Feedback: seven POST routes, GET, existence, length, duplicate window, daily cap (exact under concurrency)."""

from __future__ import annotations

import asyncio
import uuid
from datetime import timedelta

import pytest
from sqlalchemy import func, select

from store.models import Feedback, IdentificationRequest
from tests.factories import seed_catalog


async def _count(sessions) -> int:
    async with sessions() as s:
        return int(await s.scalar(select(func.count()).select_from(Feedback)))


async def test_every_entity_route_accepts_existing_entities(client, auth, sessions, api_key):
    cat = await seed_catalog(sessions)
    async with sessions() as s, s.begin():
        req = IdentificationRequest(id=uuid.uuid4(), api_key_id=api_key[0])
        s.add(req)
    targets = {"card": cat.cards["ohtani"].id, "set": cat.sets["chrome"].id, "release": cat.releases["chrome"].id,
               "manufacturer": cat.manufacturers["topps"].id, "segment": cat.segments["baseball"].id,
               "identify": req.id}
    for kind, ident in targets.items():
        r = await client.post(f"/v1/feedback/{kind}/{ident}", json={"message": f"about {kind}",
                                                                    "feedback_type": "data_error"}, headers=auth)
        assert r.status == 201, await r.text()
        body = await r.json()
        assert body["success"] is True and isinstance(body["message"], str)
        data = body["data"]
        assert data["entity_type"] == kind and data["entity_id"] == str(ident)
        assert data["status"] == "not_reviewed" and data["feedback_type"] == "data_error"
        got = await client.get(f"/v1/feedback/{data['unique_id']}", headers=auth)
        assert got.status == 200 and (await got.json())["data"] == data
    r = await client.post("/v1/feedback/general", json={"message": "love it"}, headers=auth)
    assert r.status == 201
    data = (await r.json())["data"]
    assert data["entity_type"] == "general"
    assert "entity_id" in data and data["entity_id"] is None
    assert "feedback_type" in data and data["feedback_type"] is None


async def test_missing_entities_are_404_and_change_nothing(client, auth, other_auth, sessions, other_key):
    await seed_catalog(sessions)
    for kind in ("card", "set", "release", "manufacturer", "segment", "identify"):
        r = await client.post(f"/v1/feedback/{kind}/{uuid.uuid4()}", json={"message": "x"}, headers=auth)
        assert r.status == 404 and (await r.json())["code"] == "NOT_FOUND"
    # another key's identification request is not ours
    async with sessions() as s, s.begin():
        req = IdentificationRequest(id=uuid.uuid4(), api_key_id=other_key[0])
        s.add(req)
    r = await client.post(f"/v1/feedback/identify/{req.id}", json={"message": "x"}, headers=auth)
    assert r.status == 404
    r = await client.post("/v1/feedback/widget/" + str(uuid.uuid4()), json={"message": "x"}, headers=auth)
    assert r.status in (400, 404)
    assert await _count(sessions) == 0


async def test_message_length_and_type_validation(client, auth, sessions):
    cat = await seed_catalog(sessions)
    url = f"/v1/feedback/card/{cat.cards['judge'].id}"
    for bad in ({"message": ""}, {"message": "x" * 1001}, {}, {"message": "ok", "feedback_type": "rant"},
                {"message": "ok", "extra": 1}):
        r = await client.post(url, json=bad, headers=auth)
        assert r.status == 400 and (await r.json())["code"] == "VALIDATION_ERROR"
    r = await client.post("/v1/feedback/card/not-a-uuid", json={"message": "x"}, headers=auth)
    assert r.status == 400
    assert await _count(sessions) == 0
    r = await client.post(url, json={"message": "x" * 1000}, headers=auth)
    assert r.status == 201


async def test_duplicate_within_an_hour_is_409(client, auth, other_auth, sessions):
    cat = await seed_catalog(sessions)
    url = f"/v1/feedback/card/{cat.cards['judge'].id}"
    assert (await client.post(url, json={"message": "wrong team"}, headers=auth)).status == 201
    r = await client.post(url, json={"message": "wrong team"}, headers=auth)
    assert r.status == 409 and (await r.json())["code"] == "CONFLICT"
    # a different entity, a different message or another key is fine
    assert (await client.post(f"/v1/feedback/card/{cat.cards['ohtani'].id}", json={"message": "wrong team"},
                              headers=auth)).status == 201
    assert (await client.post(url, json={"message": "wrong number"}, headers=auth)).status == 201
    assert (await client.post(url, json={"message": "wrong team"}, headers=other_auth)).status == 201
    assert await _count(sessions) == 4
    # older than an hour: accepted again
    async with sessions() as s, s.begin():
        for f in (await s.scalars(select(Feedback))).all():
            f.created_at = f.created_at - timedelta(hours=1, minutes=1)
    assert (await client.post(url, json={"message": "wrong team"}, headers=auth)).status == 201


async def test_other_keys_feedback_is_404_as_if_unknown(client, auth, other_auth):
    r = await client.post("/v1/feedback/general", json={"message": "hello"}, headers=auth)
    fid = (await r.json())["data"]["unique_id"]
    r = await client.get(f"/v1/feedback/{fid}", headers=other_auth)
    theirs = await r.json()
    r = await client.get(f"/v1/feedback/{uuid.uuid4()}", headers=other_auth)
    unknown = await r.json()
    assert r.status == 404 and theirs["code"] == unknown["code"] == "NOT_FOUND"
    assert (await client.get(f"/v1/feedback/{fid}", headers=auth)).status == 200


@pytest.mark.parametrize("message", ["   ", "\t\n", "\u00a0\u2003"])
async def test_whitespace_only_feedback_is_400_and_not_stored(client, auth, sessions, message):
    r = await client.post("/v1/feedback/general", json={"message": message}, headers=auth)
    assert r.status == 400 and (await r.json())["code"] == "VALIDATION_ERROR"
    async with sessions() as s:
        assert (await s.scalars(select(Feedback))).all() == []


async def test_51st_submission_of_the_day_is_429(client, auth, other_auth, sessions):
    for i in range(50):
        r = await client.post("/v1/feedback/general", json={"message": f"m{i}"}, headers=auth)
        assert r.status == 201
    r = await client.post("/v1/feedback/general", json={"message": "one more"}, headers=auth)
    assert r.status == 429 and (await r.json())["code"] == "FEEDBACK_LIMIT_EXCEEDED"
    assert await _count(sessions) == 50
    assert (await client.post("/v1/feedback/general", json={"message": "m"}, headers=other_auth)).status == 201


async def test_cap_is_exact_under_20_concurrent_clients(client, auth, sessions):
    for i in range(40):
        assert (await client.post("/v1/feedback/general", json={"message": f"warm {i}"}, headers=auth)).status == 201

    async def one(i: int) -> int:
        r = await client.post("/v1/feedback/general", json={"message": f"burst {i}"}, headers=auth)
        return r.status

    statuses = await asyncio.gather(*(one(i) for i in range(20)))
    assert statuses.count(201) == 10 and statuses.count(429) == 10
    assert await _count(sessions) == 50


async def test_concurrent_duplicates_accept_exactly_one(client, auth, sessions):
    async def one() -> int:
        return (await client.post("/v1/feedback/general", json={"message": "same"}, headers=auth)).status

    statuses = await asyncio.gather(*(one() for _ in range(20)))
    assert statuses.count(201) == 1 and statuses.count(409) == 19


async def test_cap_is_exact_across_processes_without_the_in_process_lock(db_url, settings, api_key, monkeypatch):
    """20 clients on separate engines (as separate server processes would be) and no shared asyncio lock."""
    import tools.feedback as fb
    from store.db import create_engine, sessionmaker
    from tools.context import Caller, ToolContext

    monkeypatch.setattr(fb, "_lock_for", lambda key_id: asyncio.Lock())
    engines = [create_engine(db_url, pool_size=1) for _ in range(20)]
    ctxs = [ToolContext(sessions=sessionmaker(e), settings=settings, caller=Caller(key_id=api_key[0])) for e in engines]
    try:
        for i in range(45):
            await fb._submit(ctxs[0], "general", None, None, f"warm {i}")

        async def one(i: int) -> str:
            try:
                await fb._submit(ctxs[i], "general", None, None, f"burst {i}")
                return "ok"
            except fb.ServiceError as exc:
                return exc.code

        results = await asyncio.gather(*(one(i) for i in range(20)))
    finally:
        for e in engines:
            await e.dispose()
    assert results.count("ok") == 5 and results.count("FEEDBACK_LIMIT_EXCEEDED") == 15
