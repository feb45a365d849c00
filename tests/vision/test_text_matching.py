"""Identification from text alone when the OCR misreads letters or reads a name's words apart.

The OCR engine is replaced by a fixed reading so that the test pins the matching behaviour, not
the engine's mood on a given photo.
"""

from __future__ import annotations

import pytest

from tests.factories import seed_catalog
from tests.vision.helpers import photo
from tools.identify import IdentifyIn, identify_card
from tools._models import Upload
from vision import ocr


@pytest.fixture
async def cat(sessions):
    return await seed_catalog(sessions)


def _reads(monkeypatch, lines: list[str]) -> None:
    boxes = [[[40.0, 400.0 + 30 * i], [300.0, 400.0 + 30 * i], [300.0, 420.0 + 30 * i], [40.0, 420.0 + 30 * i]]
             for i in range(len(lines))]
    monkeypatch.setattr(ocr, "read", lambda rgb: [(t, 0.9, b) for t, b in zip(lines, boxes)])


async def _identify(ctx, data: bytes):
    return await identify_card(ctx, IdentifyIn(image=Upload(data=data, content_type="image/jpeg")))


async def test_small_print_misreads_still_name_the_card(ctx, cat, monkeypatch):
    # serif print read with c -> e and l -> i: "Paul Skenes" comes back as "Paui Skencs"
    _reads(monkeypatch, ["Paui Skencs", "PITTSBURGH PIRATES"])
    res = await _identify(ctx, photo(cat, ["skenes"], seed=4))
    (d,) = res.detections
    assert d.card.name == "Paul Skenes"


async def test_name_read_as_separate_words_in_any_order(ctx, cat, monkeypatch):
    # a name printed sideways or on two lines: the words come back apart, last name first
    _reads(monkeypatch, ["SKENES", "PAUL"])
    res = await _identify(ctx, photo(cat, ["skenes"], seed=5))
    (d,) = res.detections
    assert d.card.name == "Paul Skenes"


async def test_unrelated_text_names_no_card(ctx, cat, monkeypatch):
    _reads(monkeypatch, ["LOREM IPSUM", "DOLOR"])
    res = await _identify(ctx, photo(cat, ["skenes"], seed=6))
    assert res.detections == []
