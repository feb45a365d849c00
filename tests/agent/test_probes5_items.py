"""A collector's own cards asked in short, mistyped or follow-up words: "my charzard", "and my sandberg?",
"hows my X doing", "venusaur on my wants?", "do i hav the X"."""

from __future__ import annotations

from types import SimpleNamespace

from agent.builtin.answers.collection import asks_membership, named_owned
from agent.builtin.conversation import respell
from tests.agent.test_builtin import understand

OWNED = [{"cardId": "zard", "cardName": "Charizard", "releaseName": "Base Set", "releaseYear": "1999"},
         {"cardId": "szard", "cardName": "Shining Charizard", "releaseName": "Neo Destiny", "releaseYear": "2002"},
         {"cardId": "ryne", "cardName": "Ryne Sandberg", "releaseName": "1984 Fleer Baseball", "releaseYear": "1984"}]


def _state(text: str, card_words: bool = True) -> SimpleNamespace:
    return SimpleNamespace(ent=SimpleNamespace(text=text, has_card_words=card_words), conv=SimpleNamespace(history=[]),
                           ok=lambda key: {"groups": [{"topCards": OWNED}]} if key == "owned" else None)


def test_an_owned_card_mistyped_after_my_is_that_card():
    assert named_owned(_state("how much did i make on my charzard"))["cardId"] == "zard"
    assert named_owned(_state("hows my shinning charizard doing value wise"))["cardId"] == "szard"
    assert named_owned(_state("how much did i make on my sandburg"))["cardId"] == "ryne"
    assert named_owned(_state("how much did i make on my pikachu")) is None   # not one I own


def test_and_my_other_card_asks_the_same_about_it():
    assert understand("and my sandberg?", ("is my zard up since i bought it",)).intent.name == "collection_roi"
    assert understand("what about my ozzie", ("how much did i make on my charizard",)).intent.name == "collection_roi"
    assert understand("and my blastoise?", ("do i own the base set pikachu",)).intent.name == "owns"


def test_hows_my_card_doing_is_against_what_i_paid():
    assert understand("hows my shining charizard doing value wise").intent.name == "collection_roi"
    assert understand("how is my griffey doing").intent.name == "collection_roi"


def test_a_card_then_on_my_wants_asks_if_it_is_on_the_list():
    assert asks_membership(_state("venusaur on my wants?"))
    assert not asks_membership(_state("what is on my wants?"))
    assert not asks_membership(_state("on my wants?", card_words=False))
    assert not asks_membership(_state("rode my bicycle to the show - what's on my wants?"))   # a read


def test_short_intent_words_mistyped_are_read():
    assert respell("do i hav the 87 tops mcgwire").startswith("do i have the")
    assert respell("havana") == "havana"


def test_what_a_card_fetches_is_its_price():
    assert understand("92 ultra jim abbott 321 bgs 9.5 whats it fetch").intent.name == "price"
