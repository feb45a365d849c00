"""Rendering catalog cards from ``seed_catalog`` rows, reference images and photos for the tests; more
cards of one name (``judge_in``) and a card of plain small print (``printed_card``)."""

from __future__ import annotations

import io
import uuid

import cv2
import numpy as np
from PIL import Image

from store.models import Card, CardImage, CardSet, Release
from vision.features import card_features
from vision.photos import make_photo
from vision.render import CardSpec, render_card, render_slab

TEAMS = {"ohtani": "Los Angeles Dodgers", "judge": "New York Yankees", "skenes": "Pittsburgh Pirates"}


def spec(cat, key: str, parallel: str | None = None, serial: int | None = None) -> CardSpec:
    c = cat.cards[key]
    s = next(x for x in cat.sets.values() if x.id == c.set_id)
    r = next(x for x in cat.releases.values() if x.id == c.release_id)
    p = cat.parallels.get(parallel) if parallel else None
    # the artwork is seeded by ``id``: a stable key keeps the tests deterministic (card UUIDs are random)
    return CardSpec(id=f"test:{key}", name=c.name, number=c.number, set_name=s.name, release_name=r.name, year=r.year,
                    team=TEAMS.get(key), parallel=p.name if p else None, numbered_to=p.numbered_to if p else None,
                    serial=serial)


def png(rgb) -> bytes:
    buf = io.BytesIO()
    Image.fromarray(rgb).save(buf, "PNG")
    return buf.getvalue()


async def add_reference_images(sessions, cat, keys: list[str]) -> None:
    async with sessions() as s, s.begin():
        for key in keys:
            img = render_card(spec(cat, key))
            f = card_features(img)
            s.add(CardImage(card_id=cat.cards[key].id, content_type="image/png", data=png(img), width=500,
                            height=700, phash=f["phash"], features=f, source="test-render"))


def photo(cat, keys: list[str], *, difficulty: str = "easy", seed: int = 1, slab: dict | None = None) -> bytes:
    objs = []
    for k in keys:
        if slab and k == slab["key"]:
            objs.append(render_slab(spec(cat, k), slab["company"], slab["grade"], slab["cert"]))
        else:
            objs.append(render_card(spec(cat, k)))
    data, _ = make_photo(objs, difficulty, seed=seed)
    return data


async def judge_in(sessions, cat, releases: list[tuple[str, str]]) -> list[Card]:
    """An Aaron Judge card in each new release ``(release name, number)`` (set "Base", identifiable)."""
    judge = cat.cards["judge"]
    seg = cat.releases["chrome"].segment_id
    cards = []
    async with sessions() as s, s.begin():
        for name, number in releases:
            rel = Release(id=uuid.uuid4(), segment_id=seg, name=name, year=name[:4])
            s.add(rel)
            await s.flush()
            base = CardSet(id=uuid.uuid4(), release_id=rel.id, name="Base", is_identifiable=True)
            s.add(base)
            await s.flush()
            cards.append(Card(id=uuid.uuid4(), set_id=base.id, release_id=rel.id, name="Aaron Judge", number=number,
                              number_sort=int(number), description=judge.description))
        s.add_all(cards)
    return cards


def printed_card() -> np.ndarray:
    """A plain card with three lines of small print near its foot (a name, a position, a release)."""
    card = np.full((700, 500, 3), 240, np.uint8)
    for y, text in ((600, "Darren Turcotte"), (640, "Centre Centre"), (680, "Upper Deck 1991")):
        cv2.putText(card, text, (30, y), cv2.FONT_HERSHEY_SIMPLEX, 0.7, (30, 30, 30), 2, cv2.LINE_AA)
    return cv2.GaussianBlur(card, (0, 0), 0.7)
