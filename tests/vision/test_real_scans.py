"""Identification of real card scans from their text alone, photographed four to a frame.

The 1991-92 McDonald's All-Stars scans print the player's name in a thin serif face that comes
out 6-10 px tall in such a photo: the text detector finds no line there and every read garbles
it. Skipped when ../shared/data is absent (never in CI).
"""

from __future__ import annotations

import asyncio
import json

import numpy as np
import pytest
from PIL import Image
from sqlalchemy import delete

from store.importers import hockeycards
from store.models import CardImage
from tests.conftest import shared_data
from tools._models import Upload
from tools.identify import IdentifyIn, identify_card
from vision.photos import make_photo

FOUR = ["Steve Larmer", "Paul Coffey", "Darren Turcotte", "Mike Vernon"]


def _scan(root, name: str) -> np.ndarray:
    doc = json.loads((root / "data" / "mcdonalds-data.json").read_text())
    for st in (doc.values() if isinstance(doc, dict) else doc):
        if isinstance(st, dict) and st.get("set_year_start") in (1991, "1991"):
            for c in st.get("cards", []):
                if c["name"] == name and c.get("image_front"):
                    img = Image.open(root / c["image_front"]).convert("RGB")
                    img.thumbnail((700, 700))
                    return np.asarray(img)
    raise LookupError(name)


@pytest.fixture
async def hockey(sessions):
    root = shared_data("hockeycards")
    await hockeycards.run(sessions, str(root))
    async with sessions() as s, s.begin():  # text alone: no reference image to match the picture
        await s.execute(delete(CardImage))
    return root


@pytest.mark.parametrize("seed", [1, 3, 5])
async def test_names_printed_too_small_to_read_are_still_identified(ctx, hockey, seed):
    # before the names were spotted in the small print, these photos gave 3, 2 and 2 of the four
    # cards (and a wrong "Pierre Turgeon" for Darren Turcotte on seed 5)
    data, _ = make_photo([_scan(hockey, n) for n in FOUR], "medium", seed=seed)
    res = await identify_card(ctx, IdentifyIn(image=Upload(data=data, content_type="image/jpeg")))
    names = [d.card.name for d in res.detections if d.card.name]
    assert set(names) <= set(FOUR), names  # nothing named wrongly
    assert len(set(names)) == (3 if seed == 5 else 4), names


async def test_importing_the_scans_makes_them_reference_images_for_identification(ctx, db_url, monkeypatch,
                                                                                 capsys):
    # `cardwise import hockeycards` stored the scans but computed no features, so photos of
    # the very cards whose scans were imported were matched from their text alone (Medium, Low)
    from cli.main import main

    monkeypatch.setenv("CARDWISE_DATABASE_URL", db_url)
    root = shared_data("hockeycards")
    assert await asyncio.to_thread(main, ["import", "hockeycards", str(root), "--quiet"]) == 0
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert summary["images"] == 58 and summary["indexed"] == 58
    data, _ = make_photo([_scan(root, n) for n in FOUR], "medium", seed=1)
    res = await identify_card(ctx, IdentifyIn(image=Upload(data=data, content_type="image/jpeg")))
    assert sorted((d.card.name, d.confidence) for d in res.detections) == sorted((n, "High") for n in FOUR)
