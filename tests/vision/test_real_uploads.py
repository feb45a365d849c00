"""Real scans uploaded as people bring them: the file as is (the card fills the frame), with a thin border of
scanner bed, cropped slightly inside the card's edge, re-saved by a phone (smaller, turned a little, JPEG),
and a landscape card either way round. Every one is one card, located whole. Skipped when ../shared/data is
absent (never in CI)."""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image

from tests.conftest import shared_data
from vision import detect, pipeline
from vision.decode import decode


def _fronts() -> list:
    return sorted(shared_data("hockeycards", "img", "cards").glob("*/*Fr.jpg"))


def _jpeg(im: Image.Image, quality: int = 85) -> bytes:
    buf = io.BytesIO()
    im.save(buf, "JPEG", quality=quality)
    return buf.getvalue()


def uploads(path) -> dict[str, bytes]:
    """The scan as is and as it comes after the ways people crop, scan and re-save it."""
    im = Image.open(path).convert("RGB")
    w, h = im.size
    border = max(4, int(0.03 * max(w, h)))
    bed = Image.new("RGB", (w + 2 * border, h + 2 * border), (236, 236, 231))
    bed.paste(im, (border, border))
    dx, dy = int(0.03 * w), int(0.03 * h)
    return {
        "as is": path.read_bytes(),
        "scanner bed": _jpeg(bed),
        "inside the edge": _jpeg(im.crop((dx, dy, w - dx, h - dy))),
        "phone re-save": _jpeg(im.resize((int(w * 0.8), int(h * 0.8))).rotate(3, expand=True,
                                                                                fillcolor=(255, 255, 255)), 70),
        "turned a quarter": _jpeg(im.rotate(90, expand=True)),
    }


def test_every_real_scan_is_one_card_however_it_is_uploaded():
    # before, a scan the card fills was located as its photo box (the name below it cut off) or as up to
    # eleven bits of its picture, phantom slabs among them; 1 of 32 scans was identified
    wrong = []
    fronts = _fronts()
    for path in fronts:
        for how, data in uploads(path).items():
            rgb = decode(data)
            h, w = rgb.shape[:2]
            found = detect.locate(rgb)
            whole = len(found) == 1 and found[0].kind == "card" and found[0].area >= 0.8 * w * h
            if not whole:
                wrong.append((path.name, how, [(f.kind, round(f.area / (w * h), 2)) for f in found]))
    assert len(fronts) == 32
    assert wrong == []


@pytest.mark.parametrize("turn", [90, 270])
def test_a_landscape_card_straightens_to_its_reference_either_way_round(turn):
    # Paul Kariya's card lies sideways: its reference image (landscape) and the straightened upload (portrait)
    # compare only when both are upright
    from vision.features import HashIndex, card_features

    (path,) = [p for p in _fronts() if "Kariya" in p.name]
    ref = np.asarray(Image.open(path).convert("RGB"))
    index = HashIndex(["kariya"], [card_features(ref)["phash"]], [card_features(ref)["color"]])
    rgb = decode(_jpeg(Image.open(path).convert("RGB").rotate(turn, expand=True)))
    (found,) = detect.locate(rgb)
    crop = detect.straighten(rgb, found.quad)
    sims = [index.similarity(card_features(c), ["kariya"])["kariya"] for c in (crop, crop[::-1, ::-1].copy())]
    assert max(sims) >= 0.9


def test_cards_side_by_side_in_a_card_shaped_image_stay_apart():
    # a flatbed scan of two cards, or a binder page, has a card's proportions too: never one card
    a, b = (Image.open(p).convert("RGB").resize((250, 350)) for p in _fronts()[8:10])
    sheet = Image.new("RGB", (560, 760), (30, 30, 30))
    sheet.paste(a, (20, 200))
    sheet.paste(b, (290, 200))
    found = detect.locate(decode(_jpeg(sheet)))
    assert len(found) == 2 and not any(f.whole for f in found)


def test_a_binder_page_photo_is_its_cards_not_one_card():
    # a phone photo of a 9-pocket page: the page's outline, itself of a card's proportions, held the nine
    # cards and was kept as one card with every pocket dropped inside it
    import random

    from vision.photos import binder_page

    fronts = _fronts()
    for seed in (1, 2):
        rng = random.Random(seed)
        cards = [np.asarray(Image.open(p).convert("RGB")) for p in rng.sample(fronts, 9)]
        data, truths = binder_page(cards, rng)
        rgb = decode(data)
        k = rgb.shape[1] / Image.open(io.BytesIO(data)).width
        found = detect.locate(rgb)
        over = sum(any(detect._iou(t.quad * k, f.quad)[0] >= 0.5 for f in found) for t in truths)
        assert over >= 8 and len(found) <= 9 and not any(f.whole or f.kind == "slab" for f in found), seed
        # and every card located is read: a photo's cards were cut at eight
        assert len(pipeline.analyse(data, with_ocr=False).readings) == len(found), seed


@pytest.fixture
async def hockey(sessions):
    from store.importers import hockeycards
    from tools._reference_images import index_images

    root = shared_data("hockeycards")
    await hockeycards.run(sessions, str(root))
    await index_images(sessions)
    return root


async def _post(ctx, path):
    from tools._models import Upload
    from tools.identify import IdentifyIn, identify_card

    res = await identify_card(ctx, IdentifyIn(image=Upload(data=path.read_bytes(), content_type="image/jpeg")))
    return res.detections


def _scan(root, name: str):
    (path,) = [p for p in root.glob("img/cards/*/*Fr.jpg") if name in p.name]
    return path


async def test_scans_posted_as_they_are_are_their_cards_with_reference_images(ctx, hockey):
    # before: "Italy, Flags of the World Mini" for Cam Neely, a phantom slab and eight detections for Paul Kariya
    for name, want in [("Mc-1Fr", ("Cam Neely", "Mc-1")), ("Kariya", ("Paul Kariya", "1")),
                       ("2295397Fr", ("Wayne Gretzky", "McH-01"))]:
        (d,) = await _post(ctx, _scan(hockey, name))
        assert (d.card.name, d.card.number, d.confidence) == (*want, "High"), name
        assert d.grading is None


async def test_from_text_alone_a_name_several_sets_share_is_never_sure(ctx, sessions, hockey):
    # Cam Neely's McDonald's card prints his name and position but nothing of its set: his Collector's Choice
    # and MVP Silver cards fit the text as well, so the answer is not High and they are suggested
    from sqlalchemy import delete

    from store.models import CardImage

    async with sessions() as s, s.begin():
        await s.execute(delete(CardImage))
    (d,) = await _post(ctx, _scan(hockey, "Mc-1Fr"))
    assert d.card.name == "Cam Neely" and d.confidence != "High"
    assert {(c.name, c.number) for c in [d.card, *(d.card.suggestions or [])]} >= {("Cam Neely", "Mc-1"),
                                                                                     ("Cam Neely", "16")}
    # the hologram prints its number ("McH-01", read "Mell-01"): that tells it from Gretzky's other cards
    (d,) = await _post(ctx, _scan(hockey, "2295397Fr"))
    assert (d.card.name, d.card.number) == ("Wayne Gretzky", "McH-01")
