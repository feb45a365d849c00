"""The store's lookup of the cards a number's letter prefix read names (``by_number_prefixes``)."""

from __future__ import annotations

import uuid

from store.models import Card
from store.queries import identify as iq
from tests.factories import seed_catalog


async def test_cards_numbered_with_a_prefix_and_digits_are_found_whatever_the_case(sessions):
    cat = await seed_catalog(sessions)
    base = cat.sets["chrome"]
    holo = Card(id=uuid.uuid4(), set_id=base.id, release_id=base.release_id, name="Aaron Judge", number="McH-06")
    word = Card(id=uuid.uuid4(), set_id=base.id, release_id=base.release_id, name="Judge Card", number="MCHX-2")
    async with sessions() as s, s.begin():
        s.add_all([holo, word])
    async with sessions() as s:
        found = await iq.CandidateQueries(s, index=None).by_number_prefixes(["mch", "meh"])
        assert [r["card"].id for r in found] == [holo.id]  # "MCHX-2" is another prefix
        assert await iq.CandidateQueries(s, index=None).by_number_prefixes(["ra"]) == []  # not identifiable
