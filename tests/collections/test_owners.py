"""Collectors, collections and want lists: CRUD, filters, cascades, status codes."""

from __future__ import annotations

import pytest

from store.models import Binder, BinderCard, Collection, CollectionCard, Collector, WantList, WantListCard
from tests.collections.conftest import count_rows


async def test_collector_crud(api):
    st, c = await api.post("/v1/collectors/", {"name": "Ana"})
    assert st == 201 and c["name"] == "Ana" and set(c) == {"id", "name"}
    st, unnamed = await api.post("/v1/collectors", {})
    assert st == 201 and set(unnamed) == {"id"}
    st, page = await api.get("/v1/collectors/")
    assert page["total_count"] == 2 and page["skip"] == 0 and page["take"] == 20
    assert [x["id"] for x in page["collectors"]] == [c["id"], unnamed["id"]]
    st, page = await api.get("/v1/collectors/", take=1, skip=1)
    assert [x["id"] for x in page["collectors"]] == [unnamed["id"]]
    st, upd = await api.put(f"/v1/collectors/{c['id']}", {"name": "Bea"})
    assert st == 200 and upd == {"id": c["id"], "name": "Bea"}
    assert (await api.get(f"/v1/collectors/{c['id']}"))[1] == upd
    st, upd = await api.put(f"/v1/collectors/{c['id']}", {"name": None})
    assert st == 200 and upd == {"id": c["id"]}
    assert (await api.delete(f"/v1/collectors/{c['id']}")) == (204, None)
    assert (await api.get(f"/v1/collectors/{c['id']}"))[0] == 404


@pytest.mark.parametrize("body", [{"name": 5}, {"name": "x" * 201}, {"nick": "a"}, []])
async def test_collector_validation(api, sessions, body):
    st, err = await api.post("/v1/collectors/", body)
    assert st == 400 and err["code"] == "VALIDATION_ERROR"
    assert await count_rows(sessions, Collector) == 0


async def test_collection_crud_filters_and_sort(api):
    _, ana = await api.post("/v1/collectors/", {"name": "Ana"})
    _, bob = await api.post("/v1/collectors/", {"name": "Bob"})
    made = {}
    for owner, name in ((ana, "Vintage Pokemon"), (ana, "baseball rookies"), (bob, "Modern Pokemon")):
        st, made[name] = await api.post("/v1/collection/", {"collectorId": owner["id"], "name": name,
                                                             "description": "d"})
        assert st == 201 and made[name]["collectorId"] == owner["id"]
    st, page = await api.get("/v1/collection/", collectorId=ana["id"], sort="name")
    assert [c["name"] for c in page["collections"]] == ["baseball rookies", "Vintage Pokemon"]
    st, page = await api.get("/v1/collection/", name="POKE", sort="name", order="desc")
    assert [c["name"] for c in page["collections"]] == ["Vintage Pokemon", "Modern Pokemon"]
    assert page["total_count"] == 2
    st, page = await api.get("/v1/collection/", take=1, sort="name")
    assert page["total_count"] == 3 and len(page["collections"]) == 1
    cid = made["Modern Pokemon"]["id"]
    st, upd = await api.put(f"/v1/collection/{cid}", {"description": None, "name": "Modern"})
    assert st == 200 and upd == {"id": cid, "collectorId": bob["id"], "name": "Modern"}
    for bad in ({"sort": "date"}, {"order": "x"}, {"collectorId": "1"}, {"take": "a"}):
        assert (await api.get("/v1/collection/", **bad))[0] == 400


async def test_collection_needs_own_existing_collector(api, other_api, sessions):
    _, theirs = await other_api.post("/v1/collectors/", {})
    for body in ({"collectorId": theirs["id"]}, {"collectorId": "00000000-0000-0000-0000-000000000000"}):
        st, err = await api.post("/v1/collection/", body)
        assert st == 404 and err["code"] == "NOT_FOUND"
    for body in ({}, {"collectorId": "abc"}, {"collectorId": theirs["id"], "name": ["x"]}):
        assert (await api.post("/v1/collection/", body))[0] == 400
    assert await count_rows(sessions, Collection) == 0


async def test_deleting_a_collector_cascades(api, cat, sessions):
    _, ana = await api.post("/v1/collectors/", {})
    _, keep = await api.post("/v1/collectors/", {})
    _, coll = await api.post("/v1/collection/", {"collectorId": ana["id"]})
    _, kept_coll = await api.post("/v1/collection/", {"collectorId": keep["id"]})
    _, entry = await api.post(f"/v1/collection/{coll['id']}/cards", {"cardId": str(cat.cards["judge"].id)})
    await api.post(f"/v1/collection/{kept_coll['id']}/cards", {"cardId": str(cat.cards["judge"].id)})
    _, binder = await api.post(f"/v1/collection/{coll['id']}/binders", {"name": "B"})
    await api.post(f"/v1/collection/{coll['id']}/binders/{binder['id']}/cards", {"collectionCardId": entry["id"]})
    _, wl = await api.post("/v1/lists/", {"collectorId": ana["id"]})
    await api.post(f"/v1/lists/{wl['id']}/cards", {"cardId": str(cat.cards["judge"].id)})
    assert (await api.delete(f"/v1/collectors/{ana['id']}"))[0] == 204
    assert (await api.get(f"/v1/collection/{coll['id']}"))[0] == 404
    assert (await api.get(f"/v1/lists/{wl['id']}"))[0] == 404
    for model, left in ((Collector, 1), (Collection, 1), (CollectionCard, 1), (Binder, 0), (BinderCard, 0),
                        (WantList, 0), (WantListCard, 0)):
        assert await count_rows(sessions, model) == left, model


async def test_deleting_a_collection_cascades_to_cards_and_binders(api, owned, cat, sessions):
    _, entry = await api.post(f"/v1/collection/{owned.cid}/cards", {"cardId": str(cat.cards["judge"].id)})
    _, binder = await api.post(f"/v1/collection/{owned.cid}/binders", {"name": "B"})
    await api.post(f"/v1/collection/{owned.cid}/binders/{binder['id']}/cards", {"collectionCardId": entry["id"]})
    assert (await api.delete(f"/v1/collection/{owned.cid}")) == (204, None)
    for model in (Collection, CollectionCard, Binder, BinderCard):
        assert await count_rows(sessions, model) == 0
    assert await count_rows(sessions, Collector) == 1


async def test_lists_crud_and_cards(api, owned, cat, sessions):
    cid = owned.collector["id"]
    st, wl = await api.post("/v1/lists/", {"collectorId": cid, "name": "Wants", "description": "Chrome"})
    assert st == 201 and wl["collectorId"] == cid and wl["name"] == "Wants"
    await api.post("/v1/lists/", {"collectorId": cid, "name": "apples"})
    st, page = await api.get("/v1/lists/", sort="name")
    assert [x["name"] for x in page["lists"]] == ["apples", "Wants"]
    st, page = await api.get("/v1/lists/", name="want", collectorId=cid)
    assert [x["id"] for x in page["lists"]] == [wl["id"]]
    st, upd = await api.put(f"/v1/lists/{wl['id']}", {"name": "Needs", "description": None})
    assert st == 200 and upd == {"id": wl["id"], "collectorId": cid, "name": "Needs"}
    url = f"/v1/lists/{wl['id']}/cards"
    st, one = await api.post(url, {"cardId": str(cat.cards["judge"].id)})
    assert st == 201 and one["listId"] == wl["id"] and one["cardId"] == str(cat.cards["judge"].id) and one["id"]
    st, err = await api.post(url, {"cardId": str(cat.cards["judge"].id)})
    assert st == 409 and err["code"] == "CONFLICT"
    st, err = await api.post(url, {"cardId": "00000000-0000-0000-0000-000000000000"})
    assert st == 404
    batch = [{"cardId": str(cat.cards["ohtani"].id)}, {"cardId": str(cat.cards["judge"].id)},
             {"cardId": "00000000-0000-0000-0000-000000000000"}, {"cardId": str(cat.cards["ohtani"].id)},
             {"cardId": str(cat.cards["pikachu"].id)}]
    st, res = await api.post(url, batch)
    assert st == 201, res
    assert [c["cardId"] for c in res["cards"]] == [batch[0]["cardId"], batch[4]["cardId"]]
    assert [e["index"] for e in res["errors"]] == [1, 2, 3]
    assert "already" in res["errors"][0]["error"] and "not found" in res["errors"][1]["error"]
    st, page = await api.get(url, take=2)
    assert page["total_count"] == 3 and len(page["cards"]) == 2
    assert (await api.delete(f"{url}/{one['id']}")) == (204, None)
    assert (await api.delete(f"{url}/{one['id']}"))[0] == 404
    assert (await api.delete(f"{url}/{cat.cards['ohtani'].id}"))[0] == 404  # catalog id is not a link id
    for bad in ([], [{"cardId": "x"}], [{"cardId": str(cat.cards["judge"].id)}] * 101, {"card": 1}):
        assert (await api.post(url, bad))[0] == 400
    assert await count_rows(sessions, WantListCard) == 2
    assert (await api.delete(f"/v1/lists/{wl['id']}")) == (204, None)
    assert await count_rows(sessions, WantListCard) == 0


async def test_list_needs_own_collector(api, other_api, sessions):
    _, theirs = await other_api.post("/v1/collectors/", {})
    assert (await api.post("/v1/lists/", {"collectorId": theirs["id"]}))[0] == 404
    assert (await api.post("/v1/lists/", {"name": "x"}))[0] == 400
    assert await count_rows(sessions, WantList) == 0


async def test_nul_characters_are_refused_not_500(api, owned, sessions):
    for path, body in (("/v1/collectors/", {"name": "a\x00b"}),
                       ("/v1/collection/", {"collectorId": owned.collector["id"], "description": "\x00"}),
                       ("/v1/lists/", {"collectorId": owned.collector["id"], "name": "x\x00"}),
                       (f"/v1/collection/{owned.cid}/binders", {"name": "\x00"})):
        st, err = await api.post(path, body)
        assert st == 400 and err["code"] == "VALIDATION_ERROR", path
    for path in ("/v1/collection/", "/v1/lists/", f"/v1/collection/{owned.cid}/binders"):
        assert (await api.get(path, name="a\x00"))[0] == 400
    assert await count_rows(sessions, Collector) == 1
