"""Races between clients on the same objects: 20 clients each PUT and DELETE the same collector,
collection, entry, list and binder at once. No answer is a 500, exactly one DELETE of each object
answers 204 (the others 404), a PUT either applies (200) or finds the object gone (404), and the
object is gone afterwards. On SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio

import pytest

from tests.collections.conftest import Api

CLIENTS = 20


async def _objects(api: Api, cat) -> dict[str, tuple[str, dict]]:
    """A fresh collector with one of each object: name -> (path, PUT body)."""
    _, collector = await api.post("/v1/collectors/", {"name": "Racer"})
    _, coll = await api.post("/v1/collection/", {"collectorId": collector["id"], "name": "Main"})
    cid = coll["id"]
    _, entry = await api.post(f"/v1/collection/{cid}/cards", {"cardId": str(cat.cards["judge"].id)})
    _, binder = await api.post(f"/v1/collection/{cid}/binders", {"name": "B"})
    _, wl = await api.post("/v1/lists/", {"collectorId": collector["id"], "name": "Wants"})
    return {
        "entry": (f"/v1/collection/{cid}/cards/{entry['id']}", {"quantity": 2}),
        "binder": (f"/v1/collection/{cid}/binders/{binder['id']}", {"description": "racing"}),
        "list": (f"/v1/lists/{wl['id']}", {"name": "renamed"}),
        "collection": (f"/v1/collection/{cid}", {"name": "renamed"}),
        "collector": (f"/v1/collectors/{collector['id']}", {"name": "renamed"}),
    }


async def _client(api: Api, path: str, body: dict, i: int) -> tuple[int, int]:
    """One client: a PUT and a DELETE of the object, in an order that depends on the client."""
    if i % 2:
        put = await api.put(path, body)
        delete = await api.delete(path)
    else:
        delete = await api.delete(path)
        put = await api.put(path, body)
    for status, data in (put, delete):
        assert status < 500, (path, status, data)
        if status >= 400:
            assert set(data) == {"error", "code"}
    return put[0], delete[0]


@pytest.mark.parametrize("target", ["entry", "binder", "list", "collection", "collector"])
async def test_twenty_clients_put_and_delete_one_object(api, cat, target):
    path, body = (await _objects(api, cat))[target]
    results = await asyncio.gather(*(_client(api, path, body, i) for i in range(CLIENTS)))
    puts = [p for p, _ in results]
    deletes = [d for _, d in results]
    assert deletes.count(204) == 1 and deletes.count(404) == CLIENTS - 1, deletes
    assert set(puts) <= {200, 404}, puts
    assert (await api.get(path))[0] == 404


@pytest.mark.parametrize("target", ["entry", "binder", "list", "collection", "collector"])
async def test_twenty_parallel_deletes_of_one_object_give_one_204(api, cat, target):
    objects = await _objects(api, cat)
    answers = await asyncio.gather(*(api.delete(objects[target][0]) for _ in range(CLIENTS)))
    statuses = sorted(st for st, _ in answers)
    assert statuses == [204] + [404] * (CLIENTS - 1)
    if target == "collection":  # what the collection held went with it; the collector's list did not
        for name in ("entry", "binder"):
            assert (await api.get(objects[name][0]))[0] == 404
        assert (await api.get(objects["list"][0]))[0] == 200


async def test_deleting_the_parent_while_children_change(api, cat):
    """PUTs of an entry, binder and list while their collector is deleted: 200 or 404, never 500."""
    objects = await _objects(api, cat)
    calls = [api.put(*objects[name]) for name in ("entry", "binder", "list") for _ in range(6)]
    calls.insert(len(calls) // 2, api.delete(objects["collector"][0]))
    answers = await asyncio.gather(*calls)
    assert all(st in (200, 204, 404) for st, _ in answers), [st for st, _ in answers]
    for name in objects:
        assert (await api.get(objects[name][0]))[0] == 404
