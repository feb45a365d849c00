"""The published identify/detect extras: advisories about the photo, card fields, slab qualifiers."""

from __future__ import annotations

import io

from PIL import Image

from tools._identify_extras import SMALL_PHOTO_PX, label_auto_grade, label_qualifier, photo_messages


def test_a_labels_qualifier_and_autograph_grade_are_read():
    assert label_qualifier("2019 TOPPS CHROME #1 NM-MT 8 OC 12345678") == "OC"
    assert label_qualifier("MINT 9 (ST)") == "ST"
    assert label_qualifier("GEM MT 10 OCTOBER STOCK") is None  # inside a word is no qualifier
    assert label_qualifier("") is None
    assert label_auto_grade("PSA/DNA AUTHENTIC AUTO 10") == "10"
    assert label_auto_grade("AUTOGRAPH GRADE 9") == "9"
    assert label_auto_grade("GEM MT 10") is None


def test_photo_advisories():
    assert photo_messages(1200, 1600, 1) is None
    small = photo_messages(300, 400, 1)
    assert [m.type for m in small] == ["warning"] and "300x400" in small[0].message
    assert [m.type for m in photo_messages(1200, 1600, 0)] == ["info"]
    assert SMALL_PHOTO_PX == 480


async def test_detect_answers_with_advisories(client, auth):
    buf = io.BytesIO()
    Image.new("RGB", (320, 240), (30, 120, 30)).save(buf, "JPEG")
    r = await client.post("/v1/detect/card", data=buf.getvalue(), headers={**auth, "Content-Type": "image/jpeg"})
    body = await r.json()
    assert r.status == 200 and body["detected"] is False
    assert [m["type"] for m in body["messages"]] == ["warning", "info"]


async def test_an_identified_card_carries_its_fields(client, auth, sessions):
    from store.models import FieldValue, MetadataField
    from tests.factories import seed_catalog
    from tests.vision.helpers import photo

    cat = await seed_catalog(sessions)
    async with sessions() as s, s.begin():
        team = MetadataField(key="TEAM", name="Team")
        s.add(team)
        await s.flush()
        s.add(FieldValue(field_id=team.id, entity_type="card", entity_id=cat.cards["ohtani"].id, value="Dodgers"))
    r = await client.post("/v1/identify/card", data=photo(cat, ["ohtani"], seed=2),
                          headers={**auth, "Content-Type": "image/jpeg"})
    body = await r.json()
    card = body["detections"][0]["card"]
    assert card["id"] == str(cat.cards["ohtani"].id) and card["fields"] == [{"key": "TEAM", "value": "Dodgers"}]
