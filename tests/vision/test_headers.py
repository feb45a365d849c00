"""What the number and the header read are worth: a header read whole (year, release, set and number)
names its card when the name is not read, and a number read only as a line of one character does not
make one of a name's cards a sure answer.

The OCR engine is replaced by a fixed reading, as in ``test_text_matching``."""

from __future__ import annotations

import uuid

import pytest

from store.models import Card, CardSet, Release
from tests.factories import seed_catalog
from tests.vision.helpers import photo
from tests.vision.ocr_fakes import read_lines
from tools._models import Upload
from tools.identify import IdentifyIn, identify_card

TRIO = "Mel Stottlemyre / Mel Stottlemyre, Jr. / Todd Stottlemyre"


@pytest.fixture
async def cat(sessions):
    return await seed_catalog(sessions)


async def _identify(ctx, data: bytes):
    return await identify_card(ctx, IdentifyIn(image=Upload(data=data, content_type="image/jpeg")))


async def _add(sessions, set_id, release_id, name: str, number: str) -> Card:
    card = Card(id=uuid.uuid4(), set_id=set_id, release_id=release_id, name=name, number=number)
    async with sessions() as s, s.begin():
        s.add(card)
    return card


async def _bowman(sessions, cat) -> tuple[uuid.UUID, uuid.UUID]:
    """A release of the same year as 2024 Topps Chrome (its set "Base", identifiable)."""
    rel = Release(id=uuid.uuid4(), segment_id=cat.releases["chrome"].segment_id, name="2024 Bowman Baseball",
                  year="2024")
    base = CardSet(id=uuid.uuid4(), release_id=rel.id, name="Base", is_identifiable=True)
    async with sessions() as s, s.begin():
        s.add(rel)
        await s.flush()
        s.add(base)
    return base.id, rel.id


async def test_a_header_read_whole_names_its_card_when_the_name_is_not_read(ctx, sessions, cat, monkeypatch):
    # a three-player card whose long name blurs past reading, under a header read whole: the release
    # and number name one card, offered as a guess (Low); the same number in another release of that
    # year is the other release's card; before, nothing was answered at all
    chrome = cat.sets["chrome"]
    trio = await _add(sessions, chrome.id, chrome.release_id, TRIO, "261")
    base_id, rel_id = await _bowman(sessions, cat)
    other = await _add(sessions, base_id, rel_id, "Someone Else", "261")
    for header, want in (("2024 Topps Chrome Base #261", trio), ("2024 Bowman Baseball Base #261", other)):
        read_lines(monkeypatch, [header, "199#  ge geese gn 61"])
        (d,) = (await _identify(ctx, photo(cat, ["judge"], seed=7))).detections
        assert d.card.id == str(want.id), header
        assert d.confidence == "Low"


async def test_a_header_names_no_card_without_its_number_or_its_release(ctx, sessions, cat, monkeypatch):
    chrome = cat.sets["chrome"]
    await _add(sessions, chrome.id, chrome.release_id, TRIO, "261")
    for header in ("2024 Topps Chrome Base #262",  # no card of that number
                   "2024 Topps Base #261",  # the release's words not all read
                   "2023 Topps Chrome Base #261"):  # another year
        read_lines(monkeypatch, [header, "199#  ge geese gn 61"])
        assert (await _identify(ctx, photo(cat, ["judge"], seed=7))).detections == [], header


async def test_a_number_read_as_one_character_does_not_pick_a_namesake_for_sure(ctx, sessions, cat, monkeypatch):
    # "Charizard" and a "4" read as a line of its own (as a stroke of blur reads): with one Charizard
    # the name alone is sure; with two, the "4" picks #4 but only as a Medium answer, #11 suggested;
    # "#4" read whole is sure
    read_lines(monkeypatch, ["Charizard", "4"])
    (d,) = (await _identify(ctx, photo(cat, ["charizard"], seed=3))).detections
    assert (d.card.name, d.card.number, d.confidence) == ("Charizard", "4", "High")

    baseset = cat.sets["baseset"]
    await _add(sessions, baseset.id, baseset.release_id, "Charizard", "11")
    (d,) = (await _identify(ctx, photo(cat, ["charizard"], seed=3))).detections
    assert (d.card.number, d.confidence) == ("4", "Medium")
    assert "11" in {s.number for s in d.card.suggestions or []}

    read_lines(monkeypatch, ["Charizard", "#4"])
    (d,) = (await _identify(ctx, photo(cat, ["charizard"], seed=3))).detections
    assert (d.card.number, d.confidence) == ("4", "High")
