"""Whether a card is mine, in collectors' words: the cards asked about named when none is owned (never
"no Rickey Henderson card" when I own another year's), what I paid when my card has no market value, a
card number said as a word ("goga-cr") and follow-ups about another card of a player I own."""

from __future__ import annotations

from types import SimpleNamespace

from agent.builtin.answers.collection import not_owned_named, owned_gain
from agent.builtin.conversation import respell
from agent.builtin.linking import chosen_card, parse
from tests.agent.test_builtin import understand

OWNED = [{"cardId": "r95", "cardName": "Rickey Henderson", "releaseName": "1995 Pinnacle Baseball",
          "releaseYear": "1995", "currentValue": "15.12", "buyPrice": "2.00"},
         {"cardId": "b2", "cardName": "Blastoise", "releaseName": "Base Set", "releaseYear": "1999",
          "currentValue": None, "buyPrice": "60.00"}]
TIED = [{"id": "t335", "name": "Rickey Henderson", "number": "335", "releaseName": "1995 Topps Baseball",
         "releaseYear": "1995", "setName": "Series 2 CyberStats", "score": 9.0},
        {"id": "t559", "name": "Rickey Henderson", "number": "559", "releaseName": "1995 Topps Baseball",
         "releaseYear": "1995", "setName": "Series 2", "score": 9.0}]
LINK = {"ambiguous": True, "cards": TIED,
        "entities": [{"kind": "name", "name": "Rickey Henderson", "phrase": "rickey"},
                     {"kind": "release", "name": "1995 Topps Baseball", "phrase": "95 topps"}]}


def _state(text: str, link: dict | None = None) -> SimpleNamespace:
    results = {"owned": {"groups": [{"topCards": OWNED}]}, "link": link}
    return SimpleNamespace(ent=parse(text), conv=SimpleNamespace(history=[]), ok=results.get)


def test_the_cards_asked_about_are_named_when_none_is_mine():
    answer = not_owned_named(_state("do i have rickey's 95 topps card", LINK), "Rickey Henderson")
    assert answer.startswith("No, none of these is in your collection")
    assert "#335" in answer and "#559" in answer
    assert "1995 Pinnacle Baseball" in answer   # the one I do own, beside them


def test_a_player_alone_that_i_do_not_collect_is_a_plain_no():
    link = {"ambiguous": True, "cards": TIED, "entities": [{"kind": "name", "name": "Mark McGwire",
                                                             "phrase": "mark mcgwire"}]}
    assert not_owned_named(_state("do i own any mark mcgwire", link), "Mark McGwire") == \
        "No, you have no Mark McGwire card in your collection."


def test_what_i_paid_is_said_when_my_card_has_no_market_value():
    answer = owned_gain(_state("what did i pay for my blastoise"))
    assert answer is not None and "You paid $60.00" in answer and "no market value" in answer


def test_a_card_number_said_as_a_word_picks_the_card_bearing_it():
    cards = [{"id": "ag", "name": "Cal Ripken Jr.", "number": "115"},
             {"id": "go", "name": "Cal Ripken Jr.", "number": "GOGA-CR"}]
    link = {"best": "ag", "cards": cards}
    assert chosen_card(link, parse("cal ripken 2024 topps goga-cr listings"))["id"] == "go"
    assert chosen_card(link, parse("cal ripken 2024 topps all-star listings"))["id"] == "ag"   # no such number


def test_collectors_spellings_of_paid_and_collection():
    assert respell("is my rickey worth more than i payed") == "is my rickey worth more than i paid"
    assert respell("# of cards in my coll?") == "# of cards in my collection?"


def test_owning_asked_in_other_words():
    assert understand("do i have rickey's 95 topps card").intent.name == "owns"
    assert understand("is 86 donruss ozzie smith one of mine").intent.name == "owns"
    assert understand("what about his 83 topps, do i have that", ("how's my 86 topps ozzie",)).intent.name == "owns"


def test_what_about_another_card_after_one_of_mine_asks_the_same():
    st = understand("what about his 84 donruss?", ("is my sandberg up or down",))
    assert st.intent.name == "collection_roi"


def test_my_card_then_how_it_is_doing_is_against_what_i_paid():
    assert understand("my 86 topps ozzie, how's it doing").intent.name == "collection_roi"


def test_is_my_card_up_is_against_what_i_paid():
    assert understand("is my griffey rookie up").intent.name == "collection_roi"


def test_a_collectors_name_in_the_plural_is_every_owned_card_of_it():
    assert understand("are my zards up").intent.name == "owned_among"
    assert understand("the kid's upper deck rookie - is that one in my collection?").intent.name == "owns"   # a possessive


def test_a_mistyped_maker_still_tells_my_card_apart():
    from agent.builtin.answers.collection import owned_by_name, with_makers

    assert "topps" in with_makers({"toppps"}) and with_makers({"charizard"}) == {"charizard"}
    link = {"entities": [{"kind": "name", "name": "Rickey Henderson", "phrase": "rickey"}]}
    assert owned_by_name(_state("do i have rickey's 95 toppps card", link)) == []   # mine is the 1995 Pinnacle


def test_a_release_read_from_a_mistyped_name_does_not_hide_my_card():
    link = {"entities": [{"kind": "release", "name": "Detective Pikachu", "phrase": "pikaachu"}]}
    owned = [{"cardId": "p58", "cardName": "Pikachu", "releaseName": "Base Set", "releaseYear": "1999",
              "currentValue": None, "buyPrice": "4.00"}]
    st = SimpleNamespace(ent=parse("how much did i pay for my pikaachu"), conv=SimpleNamespace(history=[]),
                         ok={"owned": {"groups": [{"topCards": owned}]}, "link": link}.get)
    answer = owned_gain(st)
    assert answer is not None and "You paid $4.00" in answer


def test_two_digits_opening_a_question_before_the_name_and_maker_are_the_year():
    from tools._linking import read

    assert (read("88 tom glavine topps rc").year, read("88 tom glavine topps rc").number) == ("1988", None)
    assert read("hi there - 83 tony gwynn topps rookie").year == "1983"
    assert read("58 pikachu base set").number == "58"   # no maker after it: the card number


def test_my_card_the_words_fit_is_answered_when_the_link_read_another():
    from agent.builtin.answers.collection import owns

    owned = [{"cardId": "g89", "cardName": "Ken Griffey Jr.", "releaseName": "1989 Upper Deck Baseball",
              "releaseYear": "1989", "currentValue": None, "buyPrice": "120"}]
    link = {"best": "s100t", "cards": [{"id": "s100t", "name": "Ken Griffey, Jr.", "number": "100T",
                                        "releaseName": "1989 Score Rookie & Traded Baseball", "releaseYear": "1989"}]}
    results = {"owned": {"groups": [{"topCards": owned}]}, "link": link, "collection_cards_list": {"cards": []}}
    st = SimpleNamespace(ent=parse("my griffey jr is the upper deck rokie right check my collection"),
                         conv=SimpleNamespace(history=[]), ok=results.get, mine=True)
    answer = owns(st)
    assert answer.startswith("Yes, your Ken Griffey Jr. (1989 Upper Deck Baseball)") and "100T" not in answer
