"""Two keys never see each other's data: every route, called with the other key, answers 404 and changes nothing."""

from __future__ import annotations

import io

from PIL import Image
from sqlalchemy import select

from api.routes import tool_routes
from store.models import (
    Binder,
    BinderCard,
    Collection,
    CollectionCard,
    CollectionCardImage,
    Collector,
    WantList,
    WantListCard,
)

AREA_PREFIXES = ("/v1/collectors", "/v1/collection", "/v1/lists")
TABLES = (Collector, Collection, CollectionCard, CollectionCardImage, Binder, BinderCard, WantList, WantListCard)


async def _snapshot(sessions) -> dict:
    out = {}
    async with sessions() as s:
        for model in TABLES:
            rows = (await s.execute(select(model.__table__))).all()
            out[model.__tablename__] = sorted(tuple(map(repr, r)) for r in rows)
    return out


def _png() -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (40, 40)).save(buf, "PNG")
    return buf.getvalue()


async def test_every_route_with_the_other_key_is_404(api, other_api, owned, cat, sessions):
    cid = owned.cid
    _, entry = await api.post(f"/v1/collection/{cid}/cards", {"cardId": str(cat.cards["judge"].id)})
    _, binder = await api.post(f"/v1/collection/{cid}/binders", {"name": "B"})
    _, link = await api.post(f"/v1/collection/{cid}/binders/{binder['id']}/cards", {"collectionCardId": entry["id"]})
    _, wl = await api.post("/v1/lists/", {"collectorId": owned.collector["id"]})
    _, lcard = await api.post(f"/v1/lists/{wl['id']}/cards", {"cardId": str(cat.cards["judge"].id)})
    img = f"/v1/collection/{cid}/cards/{entry['id']}/image"
    resp = await api.client.post(img, data=_png(), headers={**api.headers, "Content-Type": "image/png"})
    assert resp.status == 200
    # the other key owns data too, so "not found" cannot come from an empty account
    _, theirs = await other_api.post("/v1/collectors/", {"name": "theirs"})
    await other_api.post("/v1/collection/", {"collectorId": theirs["id"]})

    ids = {"collectorId": owned.collector["id"], "collectionId": cid, "binderId": binder["id"],
           "listId": wl["id"], "setId": str(cat.sets["chrome"].id), "parallelId": str(cat.parallels["gold"].id)}
    card_param = {"collection_card": entry["id"], "binder_card": link["id"], "list_card": lcard["id"]}
    bodies = {
        "collection_create": {"collectorId": owned.collector["id"]},
        "list_create": {"collectorId": owned.collector["id"]},
        "collector_update": {"name": "x"}, "collection_update": {"name": "x"}, "list_update": {"name": "x"},
        "binder_update": {"name": "x"}, "binder_create": {"name": "C"},
        "collection_card_update": {"quantity": 9},
        "collection_cards_add": {"cardId": str(cat.cards["ohtani"].id)},
        "list_cards_add": {"cardId": str(cat.cards["ohtani"].id)},
        "binder_card_add": {"collectionCardId": entry["id"]},
    }
    query = {"collection_breakdown": {"groupBy": "release"}}
    before = await _snapshot(sessions)
    walked = set()
    # deletes last, so each route finds everything in place
    routes = sorted(tool_routes(), key=lambda t: t.method == "DELETE")
    for t in routes:
        if not t.path.startswith(AREA_PREFIXES):
            continue
        if "{" not in t.path and t.name not in bodies:
            continue  # own-key listings and collector creation touch nobody else's data
        path = t.path
        for k, v in ids.items():
            path = path.replace("{" + k + "}", v)
        if "{cardId}" in path:
            kind = "binder_card" if "/binders/" in path else "list_card" if "/lists/" in path else "collection_card"
            path = path.replace("{cardId}", card_param[kind])
        kw = {"headers": dict(other_api.headers)}
        if t.body == "binary":
            kw["data"] = _png()
            kw["headers"]["Content-Type"] = "image/png"
        elif t.method in ("POST", "PUT"):
            kw["json"] = bodies[t.name]
        if t.name in query:
            kw["params"] = query[t.name]
        resp = await other_api.client.request(t.method, path, **kw)
        body = await resp.json()
        assert resp.status == 404, (t.name, path, resp.status, body)
        assert body["code"] == "NOT_FOUND"
        walked.add(t.name)
        # the owner still gets a normal answer on reads
        if t.method == "GET":
            mine = await api.client.get(path, headers=api.headers, params=kw.get("params"))
            assert mine.status == 200, (t.name, mine.status)
    assert await _snapshot(sessions) == before
    expected = {t.name for t in tool_routes() if t.path.startswith(AREA_PREFIXES)
                and ("{" in t.path or t.name in bodies)}
    assert walked == expected and len(walked) >= 35


async def test_listings_only_show_own_data(api, other_api, owned, cat):
    await api.post("/v1/lists/", {"collectorId": owned.collector["id"]})
    for path, key in (("/v1/collectors/", "collectors"), ("/v1/collection/", "collections"), ("/v1/lists/", "lists")):
        st, page = await other_api.get(path)
        assert st == 200 and page[key] == [] and page["total_count"] == 0
    st, page = await other_api.get("/v1/collection/", collectorId=owned.collector["id"])
    assert page["total_count"] == 0
