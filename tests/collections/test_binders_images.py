"""Binders (eight operations) and collection-card images."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from store.models import BinderCard, CollectionCardImage
from tests.collections.conftest import count_rows


async def test_binders(api, owned, cat, sessions):
    cid = owned.cid
    _, e1 = await api.post(f"/v1/collection/{cid}/cards", {"cardId": str(cat.cards["judge"].id)})
    st, b = await api.post(f"/v1/collection/{cid}/binders", {"name": "Rookies", "description": "RCs"})
    assert st == 201 and b["collectionId"] == cid and b["name"] == "Rookies"
    st, err = await api.post(f"/v1/collection/{cid}/binders", {"name": "Rookies"})
    assert st == 409 and err["code"] == "CONFLICT"
    _, b2 = await api.post(f"/v1/collection/{cid}/binders", {"name": "autos"})
    st, page = await api.get(f"/v1/collection/{cid}/binders", sort="name")
    assert [x["name"] for x in page["binders"]] == ["autos", "Rookies"] and page["total_count"] == 2
    st, page = await api.get(f"/v1/collection/{cid}/binders", name="ROOK")
    assert [x["id"] for x in page["binders"]] == [b["id"]]
    assert (await api.get(f"/v1/collection/{cid}/binders/{b['id']}"))[1] == b
    st, upd = await api.put(f"/v1/collection/{cid}/binders/{b['id']}", {"description": None})
    assert st == 200 and upd == {"id": b["id"], "collectionId": cid, "name": "Rookies"}
    assert (await api.put(f"/v1/collection/{cid}/binders/{b2['id']}", {"name": "Rookies"}))[0] == 409

    url = f"/v1/collection/{cid}/binders/{b['id']}/cards"
    st, link = await api.post(url, {"collectionCardId": e1["id"]})
    assert st == 201 and link == {"id": link["id"], "binderId": b["id"], "collectionCardId": e1["id"]}
    st, err = await api.post(url, {"collectionCardId": e1["id"]})
    assert st == 409
    # the same card may sit in another binder
    assert (await api.post(f"/v1/collection/{cid}/binders/{b2['id']}/cards", {"collectionCardId": e1["id"]}))[0] == 201
    # a card of another collection, or unknown, cannot be added
    _, other = await api.post("/v1/collection/", {"collectorId": owned.collector["id"]})
    _, foreign = await api.post(f"/v1/collection/{other['id']}/cards", {"cardId": str(cat.cards["judge"].id)})
    assert (await api.post(url, {"collectionCardId": foreign["id"]}))[0] == 404
    assert (await api.post(url, {}))[0] == 400
    st, page = await api.get(url)
    assert page["cards"] == [link] and page["total_count"] == 1
    assert (await api.delete(f"{url}/{link['id']}")) == (204, None)
    assert (await api.delete(f"{url}/{link['id']}"))[0] == 404
    assert (await api.get(f"/v1/collection/{cid}/cards/{e1['id']}"))[0] == 200
    assert (await api.delete(f"/v1/collection/{cid}/binders/{b2['id']}")) == (204, None)
    assert await count_rows(sessions, BinderCard) == 0
    assert (await api.get(f"/v1/collection/{cid}/cards/{e1['id']}"))[0] == 200
    assert (await api.get(f"/v1/collection/{other['id']}/binders/{b['id']}"))[0] == 404


def _image(fmt: str, size=(800, 600)) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", size, (200, 30, 30)).save(buf, fmt)
    return buf.getvalue()


@pytest.mark.parametrize("fmt,ctype", [("JPEG", "image/jpeg"), ("PNG", "image/png"), ("WEBP", "image/webp")])
async def test_image_upload_get_and_thumb(api, owned, cat, fmt, ctype):
    _, e = await api.post(f"/v1/collection/{owned.cid}/cards", {"cardId": str(cat.cards["judge"].id)})
    url = f"/v1/collection/{owned.cid}/cards/{e['id']}/image"
    assert (await api.get(url))[0] == 404
    data = _image(fmt)
    resp = await api.client.post(url, data=data, headers={**api.headers, "Content-Type": ctype})
    body = await resp.json()
    assert resp.status == 200, body
    assert body["fullImageUrl"] == url and body["thumbnailUrl"] == f"{url}/thumb"
    assert body["imageId"] and body["uploadedAt"]
    resp = await api.client.get(url, headers=api.headers)
    assert resp.status == 200 and resp.content_type == ctype and await resp.read() == data
    resp = await api.client.get(f"{url}/thumb", headers=api.headers)
    assert resp.status == 200 and resp.content_type == "image/jpeg"
    thumb = Image.open(io.BytesIO(await resp.read()))
    assert max(thumb.size) <= 320


async def test_image_multipart_and_replace(api, owned, cat, sessions):
    import aiohttp

    _, e = await api.post(f"/v1/collection/{owned.cid}/cards", {"cardId": str(cat.cards["judge"].id)})
    url = f"/v1/collection/{owned.cid}/cards/{e['id']}/image"
    for _ in range(2):
        form = aiohttp.FormData()
        form.add_field("image", _image("PNG"), filename="card.png", content_type="image/png")
        resp = await api.client.post(url, data=form, headers=api.headers)
        assert resp.status == 200
    assert await count_rows(sessions, CollectionCardImage) == 1
    assert (await api.delete(f"/v1/collection/{owned.cid}/cards/{e['id']}"))[0] == 204
    assert await count_rows(sessions, CollectionCardImage) == 0


async def test_image_rejections_store_nothing(api, owned, cat, sessions, make_settings):
    _, e = await api.post(f"/v1/collection/{owned.cid}/cards", {"cardId": str(cat.cards["judge"].id)})
    url = f"/v1/collection/{owned.cid}/cards/{e['id']}/image"

    async def post(data, ctype):
        resp = await api.client.post(url, data=data, headers={**api.headers, "Content-Type": ctype})
        return resp.status, await resp.json()

    assert (await post(b"not an image at all", "image/jpeg"))[0] == 415
    assert (await post(_image("GIF"), "image/png"))[0] == 415
    assert (await post(_image("JPEG"), "text/plain"))[0] == 415
    assert (await post(b"", "image/jpeg"))[0] == 400
    st, err = await post(io.BytesIO(b"\xff" * (20 * 1024 * 1024 + 1)), "image/jpeg")
    assert st == 413 and err["code"] == "PAYLOAD_TOO_LARGE"
    assert await count_rows(sessions, CollectionCardImage) == 0


async def test_heic_upload(api, owned, cat):
    pytest.importorskip("pillow_heif")
    _, e = await api.post(f"/v1/collection/{owned.cid}/cards", {"cardId": str(cat.cards["judge"].id)})
    url = f"/v1/collection/{owned.cid}/cards/{e['id']}/image"
    data = _image("HEIF", size=(64, 48))
    resp = await api.client.post(url, data=data, headers={**api.headers, "Content-Type": "image/heic"})
    assert resp.status == 200, await resp.text()
    resp = await api.client.get(url, headers=api.headers)
    assert resp.content_type == "image/heic" and await resp.read() == data
    resp = await api.client.get(f"{url}/thumb", headers=api.headers)
    assert resp.content_type == "image/jpeg"
