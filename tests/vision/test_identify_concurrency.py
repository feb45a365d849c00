"""The cards of one photo matched at once: a card named at first sight is not held up by another
card's closer reads, and the answer keeps the photo's order."""

from __future__ import annotations

import asyncio
import threading

import numpy as np
import pytest

from tests.factories import seed_catalog
from tests.vision.helpers import photo
from tools import identify as ident
from tools._models import Upload
from tools.identify import IdentifyIn, identify_card
from vision import pipeline


@pytest.fixture
async def cat(sessions):
    return await seed_catalog(sessions)


def _reading(lines: list[str], x: float) -> pipeline.Reading:
    quad = np.array([[x, 0], [x + 250, 0], [x + 250, 350], [x, 350]], np.float32)
    return pipeline.Reading(quad=quad, kind="card", detect_score=0.9, crop=np.zeros((700, 500, 3), np.uint8),
                            lines=lines)


async def test_a_card_named_at_first_sight_is_not_held_up_by_another_cards_closer_reads(ctx, cat, monkeypatch):
    # the first card reads nothing that names a card until its closer read; the second reads its
    # name and number at once, and its match is done while the first card's closer read still runs
    readings = [_reading(["NHL"], 0), _reading(["Shohei Ohtani", "#1", "2024 Topps Chrome"], 300)]
    monkeypatch.setattr(pipeline, "analyse", lambda data, **_: pipeline.Analysis(
        width=600, height=400, readings=readings, timings={}))
    done: list[str] = []
    second_done = threading.Event()
    real_match = ident._match

    async def match(s, reading, *args):
        det = await real_match(s, reading, *args)
        done.append(det.card.name if det else "-")
        if reading is readings[1]:
            second_done.set()
        return det

    def read_closer(crop, *, grey=False, **_):
        assert second_done.wait(10), "the second card waited for the first card's closer read"
        return ["Aaron Judge", "#2"], []

    monkeypatch.setattr(ident, "_match", match)
    monkeypatch.setattr(pipeline, "read_closer", read_closer)
    res = await identify_card(ctx, IdentifyIn(image=Upload(data=photo(cat, ["judge"], seed=3),
                                                            content_type="image/jpeg")))
    assert done == ["Shohei Ohtani", "Aaron Judge"]
    assert [d.card.name for d in res.detections] == ["Aaron Judge", "Shohei Ohtani"]  # the photo's order
    assert res.detected_count == 2 and res.identified_count == 2


async def test_a_photo_of_many_cards_holds_no_more_than_two_database_connections(ctx, cat, monkeypatch):
    readings = [_reading(["Shohei Ohtani", "#1", "2024 Topps Chrome"], 300 * i) for i in range(6)]
    monkeypatch.setattr(pipeline, "analyse", lambda data, **_: pipeline.Analysis(
        width=1800, height=400, readings=readings, timings={}))
    busy: list[int] = [0]
    most: list[int] = [0]
    real_match = ident._match

    async def match(s, reading, *args):
        busy[0] += 1
        most[0] = max(most[0], busy[0])
        try:
            await asyncio.sleep(0.05)  # as if waiting for the image worker
            return await real_match(s, reading, *args)
        finally:
            busy[0] -= 1

    monkeypatch.setattr(ident, "_match", match)
    res = await identify_card(ctx, IdentifyIn(image=Upload(data=photo(cat, ["judge"], seed=3),
                                                            content_type="image/jpeg")))
    assert [d.card.name for d in res.detections] == ["Shohei Ohtani"] * 6
    assert most[0] == ident.CARDS_AT_ONCE == 2
