"""A small hand-made catalog for tests that need cards but not the real data sets.

``await seed_catalog(sessions)`` returns a namespace with every row it created, e.g.
``cat.cards["ohtani"]``, ``cat.parallels["gold"]``, ``cat.sets["chrome"]``.
"""

from __future__ import annotations

import uuid
from types import SimpleNamespace

from store.models import (
    Attribute,
    Card,
    CardAttribute,
    CardSet,
    Manufacturer,
    Parallel,
    ParallelCard,
    Release,
    Segment,
)


def _id() -> uuid.UUID:
    return uuid.uuid4()


async def seed_catalog(sessions) -> SimpleNamespace:
    seg = {"baseball": Segment(id=_id(), name="Baseball", shortname="MLB"),
           "pokemon": Segment(id=_id(), name="Pokemon", shortname="PKMN")}
    man = {"topps": Manufacturer(id=_id(), name="Topps"),
           "wotc": Manufacturer(id=_id(), name="Wizards of the Coast")}
    rel = {
        "chrome": Release(id=_id(), segment_id=seg["baseball"].id, manufacturer_id=man["topps"].id,
                          name="2024 Topps Chrome", year="2024"),
        "series1": Release(id=_id(), segment_id=seg["baseball"].id, manufacturer_id=man["topps"].id,
                           name="1989 Topps", year="1989"),
        "baseset": Release(id=_id(), segment_id=seg["pokemon"].id, manufacturer_id=man["wotc"].id,
                           name="Base Set", year="1999"),
    }
    sets = {
        "chrome": CardSet(id=_id(), release_id=rel["chrome"].id, name="Base", is_identifiable=True),
        "chrome_auto": CardSet(id=_id(), release_id=rel["chrome"].id, name="Rookie Autographs"),
        "series1": CardSet(id=_id(), release_id=rel["series1"].id, name="Base"),
        "baseset": CardSet(id=_id(), release_id=rel["baseset"].id, name="Base Set", is_identifiable=True),
    }

    def card(key: str, set_key: str, name: str, number: str, **kw) -> Card:
        s = sets[set_key]
        digits = "".join(ch for ch in number if ch.isdigit())
        return Card(id=_id(), set_id=s.id, release_id=s.release_id, name=name, number=number,
                    number_sort=int(digits) if digits else None, **kw)

    cards = {
        "ohtani": card("ohtani", "chrome", "Shohei Ohtani", "1", description="Los Angeles Dodgers"),
        "judge": card("judge", "chrome", "Aaron Judge", "2", description="New York Yankees"),
        "skenes": card("skenes", "chrome", "Paul Skenes", "10", description="Pittsburgh Pirates"),
        "skenes_auto": card("skenes_auto", "chrome_auto", "Paul Skenes", "RA-PS", numbered_to=99),
        "griffey": card("griffey", "series1", "Ken Griffey Jr.", "41T"),
        "charizard": card("charizard", "baseset", "Charizard", "4", rarity="Rare Holo"),
        "pikachu": card("pikachu", "baseset", "Pikachu", "58", rarity="Common"),
    }
    cards["ohtani_var"] = card("ohtani_var", "chrome", "Shohei Ohtani", "1", variation_of=cards["ohtani"].id,
                               description="Image variation")
    pars = {
        "refractor": Parallel(id=_id(), set_id=sets["chrome"].id, name="Refractor", sort_order=1),
        "gold": Parallel(id=_id(), set_id=sets["chrome"].id, name="Gold Refractor", numbered_to=50, sort_order=2),
        "superfractor": Parallel(id=_id(), set_id=sets["chrome"].id, name="Superfractor", numbered_to=1, sort_order=3),
        "red_partial": Parallel(id=_id(), set_id=sets["chrome"].id, name="Red Lava", numbered_to=5, is_partial=True,
                                sort_order=4),
        "first_edition": Parallel(id=_id(), set_id=sets["baseset"].id, name="1st Edition", sort_order=1),
        "shadowless": Parallel(id=_id(), set_id=sets["baseset"].id, name="Shadowless", sort_order=2),
    }
    attrs = {"rc": Attribute(id=_id(), name="Rookie Card", short_name="RC"),
             "au": Attribute(id=_id(), name="Autograph", short_name="AU")}
    async with sessions() as s, s.begin():
        for group in (seg, man, rel, sets):
            s.add_all(group.values())
            await s.flush()
        s.add_all(cards.values())
        await s.flush()
        s.add_all(list(pars.values()) + list(attrs.values()))
        await s.flush()
        s.add_all([
            ParallelCard(parallel_id=pars["red_partial"].id, card_id=cards["ohtani"].id),
            CardAttribute(card_id=cards["skenes"].id, attribute_id=attrs["rc"].id),
            CardAttribute(card_id=cards["skenes_auto"].id, attribute_id=attrs["rc"].id),
            CardAttribute(card_id=cards["skenes_auto"].id, attribute_id=attrs["au"].id),
        ])
    return SimpleNamespace(segments=seg, manufacturers=man, releases=rel, sets=sets, cards=cards,
                           parallels=pars, attributes=attrs)
