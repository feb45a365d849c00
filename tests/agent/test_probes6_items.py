"""My cards told apart by grade, kind, sport, year or release rather than a name ("what did i pay for my
psa 9", "my raw pokemon card", "how are my charizards doing"): every owned card those words fit, never one
picked silently; want-list cards likewise; card numbers such as "50S-17"."""

from __future__ import annotations

from types import SimpleNamespace

from agent.builtin.answers.collection import described_owned, owned_among
from tests.agent.test_builtin import understand
from tools._linking import read

OWNED = [{"cardId": "zard", "cardName": "Charizard", "releaseName": "Base Set", "releaseYear": "1999",
          "currentValue": "5124.50", "buyPrice": "450.00"},
         {"cardId": "pika", "cardName": "Pikachu", "releaseName": "Base Set", "releaseYear": "1999", "buyPrice": "4.00"},
         {"cardId": "szard", "cardName": "Shining Charizard", "releaseName": "Neo Destiny", "releaseYear": "2002",
          "currentValue": "510.50", "buyPrice": "700.00"},
         {"cardId": "ryne", "cardName": "Ryne Sandberg", "releaseName": "1984 Fleer Baseball", "releaseYear": "1984",
          "currentValue": "93.45", "buyPrice": "25.00"},
         {"cardId": "ozzie", "cardName": "Ozzie Smith", "releaseName": "1986 Topps Baseball", "releaseYear": "1986",
          "currentValue": "2.10", "buyPrice": "3.00"}]
GRADES = [{"groupKey": "PSA 8", "topCards": [OWNED[0]]}, {"groupKey": "PSA 9", "topCards": [OWNED[2], OWNED[3]]},
          {"groupKey": "Raw", "topCards": [OWNED[1], OWNED[4]]}]


def _state(text: str) -> SimpleNamespace:
    results = {"owned": {"groups": [{"topCards": OWNED}]}, "owned_grades": {"groups": GRADES}}
    return SimpleNamespace(ent=SimpleNamespace(text=text, reading=read(text)), conv=SimpleNamespace(history=[]),
                           ok=results.get, many={})


def _fit(text: str) -> list[str]:
    found = described_owned(_state(text))
    assert found is not None, text
    return [c["cardId"] for c in found[0]]


def test_my_cards_described_without_a_name_are_every_owned_card_that_fits():
    assert _fit("what did i pay for my psa 9") == ["szard", "ryne"]
    assert _fit("what's my raw card worth") == ["pika", "ozzie"]
    assert _fit("how much is my graded card worth now") == ["zard", "szard", "ryne"]
    assert _fit("how's my baseball card doing") == ["ryne", "ozzie"]
    assert _fit("is my pokemon card up since i bought it") == ["zard", "pika", "szard"]
    assert _fit("whats my 80s card worth") == ["ryne", "ozzie"]
    assert _fit("whats my base set card worth") == ["zard", "pika"]
    assert _fit("how are my charizards doing") == ["zard", "szard"]
    assert _fit("my topps card, whats it worth") == ["ozzie"]


def test_several_are_listed_and_asked_one_is_answered():
    several = owned_among(_state("what did i pay for my psa 9"))
    assert "Shining Charizard" in several and "Ryne Sandberg" in several and "Which one" in several
    assert "together worth $603.95" in several
    one = owned_among(_state("my topps card, whats it worth"))
    assert one.startswith("Your ") and "Ozzie Smith" in one and "Which" not in one


def test_the_planner_reads_a_description_of_my_cards_only_when_no_word_names_one():
    for q in ("what did i pay for my psa 9", "my graded pokemon card, am i up on it", "how are my charizards doing",
              "whats my base set card worth", "which of my cards are psa 9s", "any base set cards in my collection?",
              "do i own any psa 10s"):
        assert understand(q).intent.name == "owned_among", q
    for q in ("my zard psa 8 - am i up on it", "whats my 84 fleer sandberg worth now", "what's my collection worth",
              "overall am i in the green or in the red on my cards", "tell me i have the 86 fleer jordan in my collection",
              "is my 1990 upper deck griffey up", "whats my whole collection worth at todays prices"):
        assert understand(q).intent.name != "owned_among", q


def test_what_i_paid_for_it_after_asking_if_i_own_it_is_my_gain():
    assert understand("and what did i pay for it", ("do i own the 95 pinnacle rickey henderson",)).intent.name == \
        "collection_roi"


def test_a_code_number_with_a_digit_after_its_dash_is_a_number_not_a_decade():
    r = read("2024 allen & ginter kentucky card 50s-17")
    assert r.number == "50s-17" and r.years == (2024, 2024)
    assert read("my 80s cards").years == (1980, 1989)
