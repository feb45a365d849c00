"""The official SDK's identify call, POST /v1/detect/card and POST /v1/cardmagic/process."""

from __future__ import annotations

import io
import zipfile

import numpy as np
import pytest
from PIL import Image

from tests.factories import seed_catalog
from tests.vision.helpers import photo

cardsightai = pytest.importorskip("cardsightai")


@pytest.fixture
async def cat(sessions):
    return await seed_catalog(sessions)


async def test_sdk_identify_returns_the_card(sdk, cat):
    result = await sdk.identify.identify(photo(cat, ["skenes"], seed=5))
    assert result.success is True
    (d,) = result.detections
    assert d.card.id == str(cat.cards["skenes"].id) and d.card.name == "Paul Skenes"
    result = await sdk.identify.identify_by_segment("baseball", photo(cat, ["judge", "ohtani"], seed=6))
    assert sorted(d.card.name for d in result.detections) == ["Aaron Judge", "Shohei Ohtani"]


async def test_detect_counts_and_locates_cards(client, auth, cat):
    data = photo(cat, ["ohtani", "judge", "pikachu"], seed=12)
    r = await client.post("/v1/detect/card", data=data, headers={**auth, "Content-Type": "image/jpeg"})
    body = await r.json()
    assert r.status == 200 and body["detected"] is True and body["count"] == 3 and len(body["cards"]) == 3
    assert all(len(c["corners"]) == 4 and c["type"] == "card" for c in body["cards"])
    assert isinstance(body["processingTime"], (int, float)) and body["requestId"]
    blank = io.BytesIO()
    Image.fromarray(np.full((300, 400, 3), 90, np.uint8)).save(blank, "PNG")
    r = await client.post("/v1/detect/card", data=blank.getvalue(), headers={**auth, "Content-Type": "image/png"})
    body = await r.json()
    assert (body["detected"], body["count"]) == (False, 0) and "cards" not in body
    r = await client.post("/v1/detect/card", data=b"GIF89a....", headers={**auth, "Content-Type": "image/gif"})
    assert r.status == 415


async def test_cardmagic_one_card_image_with_headers(client, auth, cat):
    data = photo(cat, ["ohtani"], seed=2)
    r = await client.post("/v1/cardmagic/process?outputFormat=png&longEdge=700&paddingFill=%23ffffff", data=data,
                          headers={**auth, "Content-Type": "image/jpeg"})
    assert r.status == 200 and r.content_type == "image/png"
    img = Image.open(io.BytesIO(await r.read()))
    assert r.headers["X-CardMagic-Count"] == "1"
    assert (int(r.headers["X-CardMagic-Width"]), int(r.headers["X-CardMagic-Height"])) == img.size
    assert max(img.size) == 700 and img.size[0] < img.size[1]
    assert img.convert("RGB").getpixel((1, 1)) == (255, 255, 255)


async def test_cardmagic_several_cards_zip_and_no_card(client, auth, cat):
    data = photo(cat, ["ohtani", "judge"], seed=4)
    r = await client.post("/v1/cardmagic/process?corners=true", data=data, headers={**auth, "Content-Type": "image/jpeg"})
    assert r.status == 200 and r.content_type == "application/zip" and r.headers["X-CardMagic-Count"] == "2"
    names = set(zipfile.ZipFile(io.BytesIO(await r.read())).namelist())
    assert {"card_0.jpg", "card_1.jpg", "card_0_top-left.jpg", "card_1_corners.jpg"} <= names
    blank = io.BytesIO()
    Image.fromarray(np.full((300, 400, 3), 90, np.uint8)).save(blank, "JPEG")
    r = await client.post("/v1/cardmagic/process", data=blank.getvalue(), headers={**auth, "Content-Type": "image/jpeg"})
    assert r.status == 422 and (await r.json())["code"] == "NO_CARD_FOUND"
    r = await client.post("/v1/cardmagic/process?paddingPercent=80", data=data,
                          headers={**auth, "Content-Type": "image/jpeg"})
    assert r.status == 400
