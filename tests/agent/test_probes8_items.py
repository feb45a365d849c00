"""Wordings the probes8 round found misread: my card said loosely ("of mine", "the 25 bucks i gave", "did i
overpay"), a copy to buy by budget or seller, a player's card in a release, collectors' nicknames and
abbreviations, a year that rules out my set of another year, and where my cards come from."""

from __future__ import annotations

from types import SimpleNamespace

from agent.builtin.answers.collection import _unowned_set
from agent.builtin.conversation import respell
from agent.builtin.linking import says_my
from agent.builtin.planner import _progress_set_id
from tests.agent.test_builtin import understand
from tests.agent.test_probes6_items import _fit
from tools._linking import nicknamed, read


def test_a_card_of_mine_and_what_i_gave_for_it_are_my_cards():
    assert says_my("that 95 pinnacle card of mine, worth anything now?")
    assert not says_my("a gold mine of cards")
    assert understand("that 95 pinnacle card of mine, worth anything now?").intent.name == "owned_among"
    q = "is my '84 fleer card worth more than the 25 bucks i gave for it"
    assert understand(q).intent.name == "owned_among"
    assert _fit(q) == ["ryne"]
    assert understand("is 50 bucks for a psa 9 1994 donruss charlie hough fair").intent.name == "price"


def test_did_i_overpay_for_a_card_i_own_is_its_gain():
    assert understand("did i overpay for the shining charizard i own? what's it at now").intent.name == "collection_roi"
    assert understand("did i overpay for my 84 fleer sandberg").intent.name == "collection_roi"
    assert understand("is 50 bucks overpaying for a 1986 fleer jordan").intent.name != "collection_roi"


def test_a_seller_or_a_budget_asks_for_listings_within_it():
    assert understand("who is selling greg swindell topps traded 1993 32t and for how much").intent.name == "marketplace"
    budget = understand("budget is $10, anything for luciano 2024 bowman chrome 43")
    assert budget.intent.name == "marketplace" and budget.ent.max_price == 10.0
    assert read("kenny rogers 03 topps 685 listings under a fiver?").max_price == 5.0
    assert read("anything less than a tenner for a jeter").max_price == 10.0
    assert understand("what is the 1986 fleer jordan worth").intent.name == "price"


def test_a_players_card_in_a_release_is_that_card_not_the_release():
    assert understand("what bo jackson card is in 1990 fleer").intent.name == "details"
    assert understand("which tony gwynn card did fleer put out in 1983").intent.name == "details"
    for q in ("what insert cards are in 1990 fleer", "which rookie cards are in 1989 upper deck",
              "which short print cards are in 2024 topps"):
        assert understand(q).intent.name == "set_facts", q


def test_nicknames_and_abbreviations_collectors_use():
    assert "Michael Jordan" in nicknamed("86 fleer mj rc")
    assert nicknamed("mj") == "mj"   # two letters alone, beside no year or brand, name nobody
    assert nicknamed("larry legend 86-87 fleer #9").startswith("Larry Bird")
    assert respell("mv of my whole collection?") == "market value of my whole collection?"
    assert understand("mv of my whole collection?").intent.name == "collection_value"


def test_my_collection_by_year_and_where_my_cards_come_from():
    st = understand("brakedown of my collecton by yr")
    assert st.intent.name == "breakdown" and st.ent.group_by == "year"
    assert understand("what sets do my cards come from").intent.name == "breakdown"
    assert understand("which sets am i missing cards from").intent.name == "set_missing"


def test_which_one_is_carrying_my_collection_after_its_value():
    assert understand("ok which one's carrying it", ("total value of my cards?",)).intent.name == "collection_best"
    assert understand("ok which one's carrying it", ("1986 fleer jordan price",)).intent.name != "collection_best"


def test_a_year_said_rules_out_my_set_of_another_year():
    sets = {"sets": [{"setId": "t86", "setName": "Base Set", "releaseName": "1986 Topps Baseball", "releaseYear": "1986"}]}
    link = {"entities": [{"kind": "release", "phrase": "topps", "name": "Topps"}]}

    def state(text: str) -> SimpleNamespace:
        results = {"collection_set_progress": sets, "link": link}
        return SimpleNamespace(ok=results.get, ent=SimpleNamespace(years=read(text).years))

    assert _progress_set_id(state("'86 topps - how many cards to complete it")) == "t86"
    assert _progress_set_id(state("'87 topps - how many cards to complete it")) is None


async def test_a_follow_up_carries_every_reading_of_the_card_asked_before(ctx, sessions):
    """ "do i have it?" after "86-87 fleer jordan 57": Michael Jordan's 1986-87 Fleer Basketball #57, never
    1986 Fleer Baseball's #57 (the first reading of "fleer" with the first reading of "jordan" fits no card)."""
    from store.importers import junkwax
    from tests.conftest import shared_data
    from tools._registry import invoke

    for path in (shared_data("junkwax", "categories", "baseball", "2024", "2024-Donruss.json"),   # other Jordans, one a #57
                 shared_data("junkwax", "categories", "baseball", "1986", "1986-Fleer.json"),
                 shared_data("junkwax", "categories", "basketball", "1986-87", "1986-87-Fleer.json")):
        await junkwax.run(sessions, str(path))
    first = await invoke("catalog_link", {"text": "86-87 fleer jordan 57", "take": 5}, ctx)
    again = await invoke("catalog_link", {"text": "do i have it?", "history": ["86-87 fleer jordan 57"], "take": 5}, ctx)
    card = next(c for c in again["cards"] if c["id"] == again["best"])
    assert again["best"] == first["best"] and card["name"] == "Michael Jordan", card


def test_a_set_i_own_no_card_of_is_answered_with_its_size():
    release = {"name": "1987 Topps Baseball", "year": "1987",
               "sets": [{"name": "Base Set", "cardCount": 792}, {"name": "Glossy All-Stars", "cardCount": 22}]}

    def state(text: str) -> SimpleNamespace:
        return SimpleNamespace(ok={"catalog_release": release}.get, ent=SimpleNamespace(text=text, years=read(text).years))

    said = _unowned_set(state("'87 topps base - how many cards to complete it"))
    assert said is not None and "1987 Topps Baseball Base Set" in said and "792" in said
    assert "22" in (_unowned_set(state("87 topps glossy all-stars, how many to finish")) or "")
    assert _unowned_set(state("'86 topps - how many cards to complete it")) is None   # another year's release


def test_a_name_with_a_word_beside_it_the_catalog_lacks_is_not_found():
    from agent.builtin.answers.common import missing

    link = {"ambiguous": True, "unlinked": ["illustrator"], "differences": ["release"],
            "entities": [{"kind": "name", "phrase": "pikachu", "name": "Pikachu"}],
            "cards": [{"id": str(i), "name": "Pikachu", "releaseName": f"Set {i}", "number": str(i), "score": 3}
                      for i in range(4)]}

    def state(text: str) -> SimpleNamespace:
        return SimpleNamespace(ok={"link": link}.get, result={"link": link}.get, many={},
                               ent=SimpleNamespace(text=text), tied_with_data=set)

    said = missing(state("pikachu illustrator promo card value?"), "card_id")
    assert "not in the catalog" in said and "Which one" not in said
    # the word elsewhere in the question, not said as part of the name: the candidates are asked about
    assert "Which one" in missing(state("illustrator asked: pikachu promo card value?"), "card_id")
