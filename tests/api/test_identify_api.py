"""POST /v1/identify/card (and the segment route): input rules, detections, tiers, slabs, requestId."""

from __future__ import annotations

import asyncio
import io
import threading
import uuid

import pytest
from PIL import Image
from sqlalchemy import func, select

from store.models import IdentificationRequest
from tests.factories import seed_catalog
from tests.vision.helpers import add_reference_images, photo, png, spec
from vision.render import render_card


@pytest.fixture
async def cat(sessions):
    return await seed_catalog(sessions)


async def _requests(sessions) -> int:
    async with sessions() as s:
        return await s.scalar(select(func.count(IdentificationRequest.id)))


def _form(data: bytes, *, filename: str | None = "card.jpg", content_type: str | None = "image/jpeg"):
    """A multipart body built by hand, so a part may have no filename and no content type."""
    boundary = "cardwise-test-boundary"
    disp = 'form-data; name="image"' + (f'; filename="{filename}"' if filename else "")
    head = f"--{boundary}\r\nContent-Disposition: {disp}\r\n"
    if content_type:
        head += f"Content-Type: {content_type}\r\n"
    body = head.encode() + b"\r\n" + data + f"\r\n--{boundary}--\r\n".encode()
    return _Multipart(body, f"multipart/form-data; boundary={boundary}")


class _Multipart(bytes):
    def __new__(cls, body: bytes, ctype: str):
        obj = super().__new__(cls, body)
        obj.ctype = ctype
        return obj


async def _post_form(client, form, auth, path="/v1/identify/card"):
    return await client.post(path, data=io.BytesIO(bytes(form)), headers={**auth, "Content-Type": form.ctype})


def _jpeg(rgb) -> bytes:
    buf = io.BytesIO()
    Image.fromarray(rgb).save(buf, "JPEG", quality=90)
    return buf.getvalue()


async def test_one_card_photo_multipart_is_identified_and_stored(client, auth, cat, sessions, api_key):
    data = photo(cat, ["ohtani"], seed=2)
    r = await _post_form(client, _form(data), auth)
    assert r.status == 200, await r.text()
    body = await r.json()
    assert body["success"] is True and body["detectedCount"] == 1 and body["identifiedCount"] == 1
    (d,) = body["detections"]
    assert d["card"]["id"] == str(cat.cards["ohtani"].id)
    assert d["card"]["name"] == "Shohei Ohtani" and d["card"]["number"] == "1"
    assert d["card"]["setId"] == str(cat.sets["chrome"].id)
    assert d["card"]["segmentId"] == str(cat.segments["baseball"].id)
    assert "grading" not in d
    assert all(v is not None for v in d["card"].values())
    if d["confidence"] == "High":
        assert "suggestions" not in d["card"]
    async with sessions() as s:
        row = await s.get(IdentificationRequest, uuid.UUID(body["requestId"]))
    assert row is not None and row.api_key_id == api_key[0] and row.detected_count == 1


async def test_multipart_without_filename_or_type_and_raw_body(client, auth, cat):
    data = photo(cat, ["judge"], seed=4)
    r = await _post_form(client, _form(data, filename=None, content_type=None), auth)
    assert r.status == 200
    assert (await r.json())["detections"][0]["card"]["name"] == "Aaron Judge"
    r = await client.post("/v1/identify/card", data=data, headers={**auth, "Content-Type": "image/jpeg"})
    assert r.status == 200
    assert (await r.json())["detections"][0]["card"]["name"] == "Aaron Judge"


async def test_png_and_webp_bodies_are_accepted(client, auth, cat):
    img = Image.open(io.BytesIO(photo(cat, ["charizard"], seed=6)))
    for fmt, ctype in (("PNG", "image/png"), ("WEBP", "image/webp")):
        buf = io.BytesIO()
        img.save(buf, fmt)
        r = await client.post("/v1/identify/card", data=buf.getvalue(), headers={**auth, "Content-Type": ctype})
        assert r.status == 200
        assert (await r.json())["detections"][0]["card"]["name"] == "Charizard"


async def test_heic_body_is_accepted(client, auth, cat):
    pillow_heif = pytest.importorskip("pillow_heif")
    pillow_heif.register_heif_opener()
    img = Image.open(io.BytesIO(photo(cat, ["pikachu"], seed=7))).resize((800, 600))
    buf = io.BytesIO()
    img.save(buf, "HEIF", quality=85)
    r = await client.post("/v1/identify/card", data=buf.getvalue(), headers={**auth, "Content-Type": "image/heic"})
    assert r.status == 200
    assert (await r.json())["detections"][0]["card"]["name"] == "Pikachu"


async def test_input_errors_change_nothing(client, auth, cat, sessions, make_settings):
    good = photo(cat, ["ohtani"], seed=2)
    gif = io.BytesIO()
    Image.new("RGB", (10, 10)).save(gif, "GIF")
    bomb = io.BytesIO()
    Image.new("1", (12000, 12000)).save(bomb, "PNG")
    cases = [
        (gif.getvalue(), "image/gif", 415, "UNSUPPORTED_MEDIA_TYPE"),
        (gif.getvalue(), None, 415, "UNSUPPORTED_MEDIA_TYPE"),  # multipart: sniffed
        (b"%PDF-1.4 hello", "application/octet-stream", 415, "UNSUPPORTED_MEDIA_TYPE"),
        (good[: len(good) // 3], "image/jpeg", 400, "VALIDATION_ERROR"),
        (b"\xff\xd8\xff\xe0" + b"\x00" * 100, "image/jpeg", 400, "VALIDATION_ERROR"),
        (bomb.getvalue(), "image/png", 400, "VALIDATION_ERROR"),
        (b"", "image/jpeg", 400, "VALIDATION_ERROR"),
    ]
    for data, ctype, status, code in cases:
        if ctype is None:
            r = await _post_form(client, _form(data, filename="x", content_type=None), auth)
        else:
            r = await client.post("/v1/identify/card", data=data, headers={**auth, "Content-Type": ctype})
        assert (r.status, (await r.json())["code"]) == (status, code), (ctype, data[:10])
    assert await _requests(sessions) == 0


async def test_oversized_upload_is_rejected_while_streaming(client, auth, sessions):
    limit = 20 * 1024 * 1024
    sent = 0

    async def body():
        nonlocal sent
        chunk = b"\xff\xd8\xff" + b"\x00" * (1024 * 1024 - 3)
        for _ in range(40):
            sent += len(chunk)
            yield chunk

    r = await client.post("/v1/identify/card", data=body(), headers={**auth, "Content-Type": "image/jpeg"})
    assert r.status == 413
    assert (await r.json())["code"] == "PAYLOAD_TOO_LARGE"
    r = await _post_form(client, _form(b"\xff\xd8\xff" + b"\x00" * (limit + 10)), auth)
    assert r.status == 413
    assert await _requests(sessions) == 0


async def test_four_cards_and_a_slab(client, auth, cat):
    data = photo(cat, ["ohtani", "judge", "skenes", "charizard"], seed=11,
                 slab={"key": "judge", "company": "PSA", "grade": "10", "cert": "81234567"})
    r = await client.post("/v1/identify/card", data=data, headers={**auth, "Content-Type": "image/jpeg"})
    body = await r.json()
    assert body["detectedCount"] == 4
    by_name = {d["card"].get("name"): d for d in body["detections"]}
    assert set(by_name) == {"Shohei Ohtani", "Aaron Judge", "Paul Skenes", "Charizard"}
    slab = by_name["Aaron Judge"]["grading"]
    assert slab["company"]["name"] == "PSA" and slab["company"]["id"]
    assert slab["grade"]["value"] == "10" and slab["grade"]["id"] and len(slab["certNumber"]) == 8  # small: digits may blur
    assert all("grading" not in d for n, d in by_name.items() if n != "Aaron Judge")
    assert by_name["Charizard"]["card"]["segmentId"] == str(cat.segments["pokemon"].id)


async def test_parallel_suggestions_from_serial_and_colour(client, auth, cat, sessions):
    await add_reference_images(sessions, cat, ["ohtani", "judge"])
    gold = spec(cat, "ohtani", parallel="gold", serial=23)
    from vision.photos import make_photo

    data, _ = make_photo([render_card(gold)], "easy", seed=3)
    r = await client.post("/v1/identify/card", data=data, headers={**auth, "Content-Type": "image/jpeg"})
    (d,) = (await r.json())["detections"]
    assert d["card"]["id"] == str(cat.cards["ohtani"].id)
    sugg = d["card"]["parallelSuggestions"]
    assert sugg[0]["id"] == str(cat.parallels["gold"].id) and sugg[0]["numberedTo"] == 50
    assert sugg[0]["confidence"] == "High"
    names = {s["name"] for s in sugg}
    assert "1st Edition" not in names  # only the card's own set's parallels
    # the base card shows no parallel evidence: no parallelSuggestions key
    data, _ = make_photo([render_card(spec(cat, "judge"))], "easy", seed=3)
    r = await client.post("/v1/identify/card", data=data, headers={**auth, "Content-Type": "image/jpeg"})
    (d,) = (await r.json())["detections"]
    assert d["card"]["name"] == "Aaron Judge" and "parallelSuggestions" not in d["card"]


async def test_tiers_presence_rules(client, auth, cat, sessions):
    # the image variation of Ohtani #1 reads the same as the base card: never High, and the other is suggested
    data = photo(cat, ["ohtani"], seed=2)
    r = await client.post("/v1/identify/card", data=data, headers={**auth, "Content-Type": "image/jpeg"})
    (d,) = (await r.json())["detections"]
    assert d["confidence"] in ("Medium", "Low")
    ids = {d["card"]["id"], *(s["id"] for s in d["card"]["suggestions"])}
    assert {str(cat.cards["ohtani"].id), str(cat.cards["ohtani_var"].id)} <= ids
    assert all("suggestions" not in s and "parallelSuggestions" not in s for s in d["card"]["suggestions"])
    # a reference image settles it: High, with no suggestions
    await add_reference_images(sessions, cat, ["ohtani"])
    r = await client.post("/v1/identify/card", data=data, headers={**auth, "Content-Type": "image/jpeg"})
    (d,) = (await r.json())["detections"]
    assert d["confidence"] == "High" and d["card"]["id"] == str(cat.cards["ohtani"].id)
    assert "suggestions" not in d["card"]


async def test_no_card_and_unknown_cards_are_dropped(client, auth, cat):
    blank = _jpeg(__import__("numpy").full((600, 800, 3), 120, "uint8"))
    r = await client.post("/v1/identify/card", data=blank, headers={**auth, "Content-Type": "image/jpeg"})
    body = await r.json()
    assert r.status == 200 and body["success"] is True and body["detections"] == [] and body["detectedCount"] == 0
    uuid.UUID(body["requestId"])


async def test_segment_route(client, auth, cat):
    data = photo(cat, ["charizard"], seed=8)
    for seg in ("pokemon", "PKMN", str(cat.segments["pokemon"].id)):
        r = await client.post(f"/v1/identify/card/{seg}", data=data, headers={**auth, "Content-Type": "image/jpeg"})
        assert r.status == 200
        assert (await r.json())["detections"][0]["card"]["name"] == "Charizard"
    r = await client.post("/v1/identify/card/Baseball", data=data, headers={**auth, "Content-Type": "image/jpeg"})
    assert all(d["card"].get("name") != "Charizard" for d in (await r.json())["detections"])
    r = await client.post("/v1/identify/card/cricket", data=data, headers={**auth, "Content-Type": "image/jpeg"})
    assert r.status == 404 and (await r.json())["code"] == "NOT_FOUND"


def _held(real):
    """``real`` made to wait, once called, until the test lets it go: ``(wrapper, started, release)``."""
    release = threading.Event()
    started = threading.Event()

    def held(*args, **kw):
        started.set()
        assert release.wait(10), "the event loop was blocked"
        return real(*args, **kw)

    return held, started, release


async def _answers_another_request_meanwhile(client, auth, cat, started, release) -> None:
    """An identification of Aaron Judge held inside some step: another request is answered
    meanwhile, and the identification is answered once the step is let go."""
    ident = asyncio.create_task(client.post("/v1/identify/card", data=photo(cat, ["judge"], seed=4),
                                            headers={**auth, "Content-Type": "image/jpeg"}))
    while not started.is_set():
        await asyncio.sleep(0.01)
    other = await client.get("/v1/catalog/segments", headers=auth)
    assert other.status == 200 and not ident.done()
    release.set()
    r = await ident
    assert r.status == 200 and (await r.json())["detections"][0]["card"]["name"] == "Aaron Judge"


async def test_server_answers_other_requests_during_an_identification(client, auth, cat, monkeypatch):
    from vision import pipeline

    slow, started, release = _held(pipeline.analyse)
    monkeypatch.setattr(pipeline, "analyse", slow)
    await _answers_another_request_meanwhile(client, auth, cat, started, release)


async def test_server_answers_other_requests_while_names_are_spotted(client, auth, cat, monkeypatch):
    # spotting scores every catalog name against the small print (numpy work of its own, after the
    # image worker's reads): it runs off the event loop too
    from tests.vision.ocr_fakes import tiny_print
    from identification.catalog_names import CatalogNames

    tiny_print(monkeypatch, ["Aaron Judge"])
    slow, started, release = _held(CatalogNames.spot)
    monkeypatch.setattr(CatalogNames, "spot", slow)
    await _answers_another_request_meanwhile(client, auth, cat, started, release)


async def test_identifiable_sets(client, auth, cat):
    r = await client.get("/v1/identify/list/sets", headers=auth)
    body = await r.json()
    assert body["total_count"] == 2 and body["take"] == 20 and body["skip"] == 0
    assert {s["set_id"] for s in body["sets"]} == {str(cat.sets["chrome"].id), str(cat.sets["baseset"].id)}
    chrome = next(s for s in body["sets"] if s["set_id"] == str(cat.sets["chrome"].id))
    assert chrome == {"year": "2024", "release_name": "2024 Topps Chrome", "segment_name": "Baseball",
                      "set_name": "Base", "set_id": str(cat.sets["chrome"].id)}
    r = await client.get(f"/v1/identify/check/set/{cat.sets['series1'].id}", headers=auth)
    assert await r.json() == {"set_id": str(cat.sets["series1"].id), "is_identifiable": False}
    r = await client.get(f"/v1/identify/check/set/{uuid.uuid4()}", headers=auth)
    assert r.status == 404
    r = await client.get("/v1/identify/check/set/nope", headers=auth)
    assert r.status == 400


async def test_identify_needs_a_key(client, cat):
    r = await client.post("/v1/identify/card", data=png(render_card(spec(cat, "judge"))),
                          headers={"Content-Type": "image/png"})
    assert r.status == 401

