"""The collector eval puts back what a write case changed (``evals/isolation.py``): the key's want list and
collection are as they were, removals and additions alike, and another key's data is left alone."""

from __future__ import annotations

from evals.isolation import kept


async def _state(api, wl_id: str, cid: str) -> tuple[set[str], dict[str, int]]:
    _, wl = await api.get(f"/v1/lists/{wl_id}/cards")
    _, cc = await api.get(f"/v1/collection/{cid}/cards")
    return ({c["cardId"] for c in wl["cards"]}, {c["cardId"]: c["quantity"] for c in cc["cards"]})


async def test_a_write_case_leaves_the_want_list_and_collection_as_found(api, other_api, owned, cat, sessions, api_key):
    judge, ohtani = str(cat.cards["judge"].id), str(cat.cards["ohtani"].id)
    _, wl = await api.post("/v1/lists/", {"collectorId": owned.collector["id"]})
    await api.post(f"/v1/lists/{wl['id']}/cards", {"cardId": judge})
    _, entry = await api.post(f"/v1/collection/{owned.cid}/cards", {"cardId": judge, "quantity": 2})
    _, other_collector = await other_api.post("/v1/collectors/", {"name": "Bo"})
    _, other_wl = await other_api.post("/v1/lists/", {"collectorId": other_collector["id"]})
    before = await _state(api, wl["id"], owned.cid)

    async with kept(sessions, api_key[0]):
        _, listed = await api.get(f"/v1/lists/{wl['id']}/cards")
        await api.delete(f"/v1/lists/{wl['id']}/cards/{listed['cards'][0]['id']}")
        await api.post(f"/v1/lists/{wl['id']}/cards", {"cardId": ohtani})
        await api.put(f"/v1/collection/{owned.cid}/cards/{entry['id']}", {"quantity": 5})
        await api.post(f"/v1/collection/{owned.cid}/cards", {"cardId": ohtani})
        await other_api.post(f"/v1/lists/{other_wl['id']}/cards", {"cardId": ohtani})
        assert await _state(api, wl["id"], owned.cid) != before

    assert await _state(api, wl["id"], owned.cid) == before
    _, theirs = await other_api.get(f"/v1/lists/{other_wl['id']}/cards")
    assert [c["cardId"] for c in theirs["cards"]] == [ohtani]   # another key's write is not undone
