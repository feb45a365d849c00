"""Hostile images on every image route: one decoder (``vision.decode``) with per-side, aspect-ratio
and memory limits checked from the header before any pixel is decoded; bad shapes and bombs are
400 ``{error, code}`` (never a 500), and the collection-image route decodes off the event loop."""

from __future__ import annotations

import threading

import numpy as np
import pytest
from PIL import Image

from tests.hardening.images import HOSTILE, encoded, png_of, webp_claiming
from tools import collection_images
from vision import decode as dec
from vision.errors import VisionError

IMAGE_ROUTES = ["/v1/identify/card", "/v1/detect/card", "/v1/cardmagic/process", "COLLECTION"]


@pytest.mark.parametrize("size", [(5000, 1), (1, 5000), (1, 60_000_000), (20_000, 3000), (15, 400), (900, 100)])
def test_bad_shapes_are_refused_from_the_header(size, monkeypatch):
    loads = []
    monkeypatch.setattr(Image.Image, "load", lambda self: loads.append(1))
    with pytest.raises(VisionError) as e:
        dec.decode(png_of(*size))
    assert e.value.kind == "bad_shape" and f"{size[0]}x{size[1]}" in e.value.message
    assert loads == []  # refused before decoding


def test_bombs_over_the_memory_budget_are_refused_before_decoding(monkeypatch):
    bombs = (webp_claiming(8000, 8000), png_of(7000, 7000, 8, 6))
    loads = []
    monkeypatch.setattr(Image.Image, "load", lambda self: loads.append(1))
    for data in bombs:
        with pytest.raises(VisionError) as e:
            dec.decode(data)
        assert e.value.kind == "too_large" and "MB" in e.value.message
    assert loads == []


def test_the_budget_counts_bytes_per_pixel_and_the_decoders_copies():
    assert dec.decode_cost("L", (1000, 1000), "png") == 1_000_000
    assert dec.decode_cost("RGB", (1000, 1000), "png") == 4_000_000
    assert dec.decode_cost("RGBA", (1000, 1000), "png") == 8_000_000  # plus its full-size conversion
    assert dec.decode_cost("I;16", (1000, 1000), "png") == 6_000_000
    assert dec.decode_cost("RGB", (1000, 1000), "webp") == 14_000_000  # libwebp's buffers, then Pillow's
    # shrinking 4096 x 1000 to 2048 px passes through a 2048 x 1000 image
    assert dec.decode_cost("RGB", (4096, 1000), "png") == 4096 * 1000 * 4 + 2048 * 1000 * 4


def test_a_jpeg_is_decoded_reduced_and_counted_at_the_reduced_size(monkeypatch):
    big = Image.new("RGB", (2400, 1600), (200, 30, 30))
    monkeypatch.setattr(dec, "DECODE_BUDGET", 4 << 20)  # 2400 x 1600 x 4 B = 15 MB at full size
    img = dec.open_image(encoded(big, "JPEG"), max_side=600)  # draft mode decodes it at 1/4
    assert img.size == (600, 400) and img.mode == "RGB"
    with pytest.raises(VisionError) as e:  # a PNG has no reduced decoding: all 15 MB would be needed
        dec.open_image(encoded(big, "PNG"), max_side=600)
    assert e.value.kind == "too_large"


def test_exif_rotation_16_bit_and_rgba_within_the_budget():
    exif = Image.Exif()
    exif[0x0112] = 6  # shown rotated 90 degrees clockwise
    wide = encoded(Image.new("RGB", (3000, 1000), (0, 0, 255)), "JPEG", exif=exif)
    assert dec.decode(wide).shape == (2048, 683, 3)  # shrunk, then turned upright
    grey = np.tile(np.linspace(0, 65535, 256).astype(np.uint16), (64, 1))
    rgb = dec.decode(encoded(Image.fromarray(grey), "PNG"))
    assert rgb.shape == (64, 256, 3) and rgb[0, 0, 0] == 0 and rgb[0, 128, 0] in (127, 128) and rgb[0, -1, 0] == 255
    rgba = Image.new("RGBA", (3000, 2000), (10, 200, 30, 128))
    out = dec.decode(encoded(rgba, "PNG"))
    assert out.shape[1] == 2048 and out.shape[0] in (1365, 1366) and tuple(out[5, 5]) == (10, 200, 30)
    palette = Image.new("P", (40, 40))
    assert dec.decode(encoded(palette, "PNG")).shape == (40, 40, 3)


async def _post_image(client, auth, route: str, data: bytes, ctype: str = "image/png"):
    if route == "COLLECTION":
        _, collector = await _json(client, "POST", "/v1/collectors/", auth, {"name": "x"})
        _, coll = await _json(client, "POST", "/v1/collection/", auth, {"collectorId": collector["id"]})
        card = await _any_card(client, auth)
        _, entry = await _json(client, "POST", f"/v1/collection/{coll['id']}/cards", auth, {"cardId": card})
        route = f"/v1/collection/{coll['id']}/cards/{entry['id']}/image"
    resp = await client.post(route, data=data, headers={**auth, "Content-Type": ctype})
    body = await resp.json() if resp.content_type == "application/json" else None
    return resp.status, body


async def _json(client, method, path, auth, body):
    resp = await client.request(method, path, json=body, headers=auth)
    return resp.status, await resp.json()


async def _any_card(client, auth) -> str:
    resp = await client.get("/v1/catalog/cards", params={"take": "1"}, headers=auth)
    return (await resp.json())["cards"][0]["id"]


@pytest.fixture
async def seeded(sessions):
    from tests.factories import seed_catalog

    return await seed_catalog(sessions)


@pytest.mark.parametrize("route", IMAGE_ROUTES)
@pytest.mark.parametrize("name", list(HOSTILE))
async def test_hostile_images_are_400_on_every_image_route(client, auth, seeded, route, name):
    ctype = "image/webp" if "WebP" in name else "image/png"
    status, body = await _post_image(client, auth, route, HOSTILE[name](), ctype)
    assert status == 400, (status, body)
    assert set(body) == {"error", "code"} and body["code"] == "VALIDATION_ERROR"
    assert "Traceback" not in body["error"]


@pytest.mark.parametrize("route", IMAGE_ROUTES)
@pytest.mark.parametrize("size", [(16, 16), (16, 128), (128, 16)])
async def test_the_smallest_accepted_images_never_500(client, auth, seeded, route, size):
    status, body = await _post_image(client, auth, route, encoded(Image.new("RGB", size, "white"), "PNG"))
    assert status in (200, 422), (status, body)


async def test_the_collection_image_is_decoded_in_the_image_worker(client, auth, seeded, monkeypatch):
    threads = []
    real = collection_images.open_image

    def recording(data, **kw):
        threads.append(threading.current_thread())
        return real(data, **kw)

    monkeypatch.setattr(collection_images, "open_image", recording)
    photo = encoded(Image.new("RGB", (400, 300)), "JPEG")
    status, _ = await _post_image(client, auth, "COLLECTION", photo, "image/jpeg")
    assert status == 200
    assert len(threads) == 1 and threads[0] is not threading.main_thread()
    assert threads[0].name.startswith("cardwise-vision")
