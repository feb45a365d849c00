"""Card numbers the linker misread (probes13): two digits taken for a year that no card of the name has
("pikachu 87 base set 2" is #87), a number code typed in lower case ("ra-ps"), a name the catalog writes
with the team after it ("Kirby Puckett (Minnesota Twins)"), a set named by the end of its name ("jersey
kings"), and players sharing a first name whom only market data told apart."""

from __future__ import annotations

import uuid

from store.models import Card, CardPrice, CardSet
from tests.factories import seed_catalog
from tests.realdata import tcgdex_subset


def _best(link: dict) -> dict | None:
    return next((c for c in link["cards"] if c["id"] == link.get("best")), None)


async def _link(ctx, text: str) -> dict:
    from tools._registry import invoke

    return await invoke("catalog_link", {"text": text, "take": 5}, ctx)


async def test_two_digits_no_card_of_the_year_has_are_the_card_number(ctx, sessions, tmp_path):
    from store.importers import tcgdex

    await tcgdex.run(sessions, str(tcgdex_subset(tmp_path / "tcgdex", ("Base Set", "Base Set 2"))))
    for text in ("pikachu 87 base set 2", "is the pikachu 87 from base set 2 in my collection"):
        best = _best(await _link(ctx, text)) or {}
        assert (best.get("name"), best.get("number"), best.get("releaseName")) == ("Pikachu", "87", "Base Set 2"), text
    # a year that the cards have stays a year: Base Set's Pikachu is #58 (1999)
    best = _best(await _link(ctx, "pikachu 99 base set")) or {}
    assert best.get("number") == "58"


async def _seed_more(sessions) -> dict[str, Card]:
    cat = await seed_catalog(sessions)
    chrome, series1 = cat.releases["chrome"], cat.releases["series1"]
    kings = CardSet(id=uuid.uuid4(), release_id=chrome.id, name="Prospect Jersey Kings")
    other_kings = CardSet(id=uuid.uuid4(), release_id=series1.id, name="Jersey Kings")
    base = cat.sets["chrome"]

    def card(s: CardSet, name: str, number: str) -> Card:
        return Card(id=uuid.uuid4(), set_id=s.id, release_id=s.release_id, name=name, number=number)

    made = {"puckett_team": card(base, "Kirby Puckett (Minnesota Twins)", "MFR-KP"),
            "puckett": card(base, "Kirby Puckett", "100"),
            "tied_base": card(base, "Ricky Tiedemann", "130"),
            "tied_kings": card(kings, "Ricky Tiedemann", "18"),
            "other_kings": card(other_kings, "Cal Ripken", "5"),
            "ozzie_smith": card(cat.sets["series1"], "Ozzie Smith", "80"),
            "ozzie_guillen": card(cat.sets["series1"], "Ozzie Guillen", "433")}
    async with sessions() as s, s.begin():
        s.add_all([kings, other_kings])
        await s.flush()
        s.add_all(made.values())
        await s.flush()
        s.add(CardPrice(card_id=made["ozzie_guillen"].id, price_key="raw", value_cents=532, sample_count=3,
                        synthetic=True))
    return {**cat.cards, **made}


async def test_a_number_code_in_lower_case_is_the_card_number(ctx, sessions):
    cards = await _seed_more(sessions)
    best = _best(await _link(ctx, "ra-ps 2024 topps chrome psa 10")) or {}
    assert best.get("id") == str(cards["skenes_auto"].id)
    # the catalog's name with the team after it is the player's card
    best = _best(await _link(ctx, "puckett mfr-kp raw price")) or {}
    assert best.get("id") == str(cards["puckett_team"].id)


async def test_a_set_named_by_the_end_of_its_name(ctx, sessions):
    cards = await _seed_more(sessions)
    best = _best(await _link(ctx, "tiedemann 2024 topps chrome jersey kings psa 10")) or {}
    assert best.get("id") == str(cards["tied_kings"].id)


async def test_players_sharing_a_first_name_are_asked_about_not_picked_by_market_data(ctx, sessions):
    await _seed_more(sessions)
    link = await _link(ctx, "ozzie 89 topps psa 9")
    assert link.get("best") is None and link.get("ambiguous")
    assert {"Ozzie Smith", "Ozzie Guillen"} <= {c["name"] for c in link["cards"]}
