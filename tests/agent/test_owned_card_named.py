"""An owned card named in a question is that card only when the year, maker and number agree: "my 1990
upper deck griffey" is not the 1989 one I own."""

from __future__ import annotations

from types import SimpleNamespace

from agent.builtin.answers.collection import named_owned, owned_value

OWNED = [{"cardId": "g89", "cardName": "Ken Griffey Jr.", "releaseName": "1989 Upper Deck Baseball",
          "releaseYear": "1989", "currentValue": "150", "buyPrice": "120"},
         {"cardId": "j86", "cardName": "Michael Jordan", "releaseName": "1986-87 Fleer Basketball",
          "releaseYear": "1986", "currentValue": "900", "buyPrice": "500"}]


def _state(text: str) -> SimpleNamespace:
    return SimpleNamespace(ent=SimpleNamespace(text=text), conv=SimpleNamespace(history=[]),
                           ok=lambda key: {"groups": [{"topCards": OWNED}]} if key == "owned" else None)


def test_the_owned_card_is_found_by_its_name_year_and_maker():
    assert named_owned(_state("is my 89 upper deck griffey up"))["cardId"] == "g89"
    assert named_owned(_state("did my 1987 jordan go up"))["cardId"] == "j86"   # the season's second year


def test_another_year_or_maker_is_not_the_owned_card():
    assert named_owned(_state("is my 1990 upper deck griffey up or down")) is None
    assert named_owned(_state("did my topps griffey gain value")) is None


def test_what_my_card_is_worth_is_the_copy_i_own():
    answer = owned_value(_state("what's my 89 upper deck griffey worth"), {"id": "g89", "name": "Ken Griffey Jr."})
    assert "$150.00" in answer and "up $30.00" in answer


def test_another_card_of_the_same_name_gets_no_owned_value():
    assert owned_value(_state("what's my 1990 upper deck griffey worth"), {"id": "g90", "name": "Ken Griffey Jr."}) is None


def test_my_card_named_by_a_surname_that_is_an_english_word_reads_my_cards():
    """ "whats my henderson worth": "henderson" is an everyday word to the catalog search, so with a collection
    the word after "my" is kept as a name and my cards are read for it, not dropped as a word naming nothing."""
    from tests.agent.test_probes17_items import _mine

    for q in ("whats my henderson worth", "how much is my smith worth"):
        st = _mine(q)
        assert st.intent.name == "price" and st.mine and not st.tentative, q
    assert _mine("whats my sandberg worth").intent.name == "price"   # a name the catalog search finds
