"""The collector judge reads answers as a collector would: typographic punctuation like the plain
kind, and a card's name inside a parallel's or set's name the answer states is not that card."""

from __future__ import annotations

from evals.facts import Expect, Identity
from evals.judge import RIGHT, WRONG_CARD, judge
from evals.names import NameIndex, norm

OHOPPE = Identity("Logan O'Hoppe", "12", "2023 Topps Baseball", "2023", "Base")
PRIZM = Identity("Ja Morant", "249", "2019-20 Panini Prizm Basketball", "2019", "Base")


def _index(parallels: tuple[str, ...] = ("lime green prizm", "red apple")) -> NameIndex:
    idx = NameIndex()
    for name, seg, rel in [("Logan O’Hoppe", "Baseball", "2023 Topps Baseball"),
                           ("Ja Morant", "Basketball", "2019-20 Panini Prizm Basketball"),
                           ("Lime", "Pokemon", "Sword & Shield"), ("Apple", "Pokemon", "Rebel Clash"),
                           ("Charizard", "Pokemon", "Base Set")]:
        idx.add(name, seg, rel, "Base")
    idx.not_cards = ["2023 topps baseball", "2019 20 panini prizm basketball", *parallels]
    return idx


def _judge(exp: Expect, answer: str, *, trap: bool = False, index: NameIndex | None = None):
    return judge(exp, answer, [], index=index or _index(), writes=set(), trap=trap)


def test_curly_and_straight_apostrophes_and_dashes_read_alike():
    assert norm("Logan O’Hoppe") == norm("Logan O'Hoppe") == "logan o hoppe"
    assert norm("2019–20 Prizm") == norm("2019-20 Prizm")
    assert norm("Pokémon") == "pokemon"
    exp = Expect(card=OHOPPE, says=[["don't have"]])
    assert _judge(exp, "Logan O’Hoppe - 2023 Topps #12: I don’t have a price yet.").verdict == RIGHT
    assert _judge(exp, "Logan O'Hoppe - 2023 Topps #12: I don't have a price yet.").verdict == RIGHT


def test_a_card_name_inside_a_stated_parallel_name_is_not_that_card():
    exp = Expect(card=PRIZM)
    answer = "Ja Morant - 2019-20 Panini Prizm #249 has the Lime Green Prizm parallel, numbered to 125."
    assert _judge(exp, answer).verdict == RIGHT
    v = _judge(exp, answer, index=_index(parallels=()))   # the same answer when no parallel is named so
    assert v.verdict == WRONG_CARD and "Lime" in v.named


def test_the_card_itself_still_counts_when_named_apart_from_the_parallel():
    exp = Expect(card=PRIZM)
    assert _judge(exp, "Ja Morant - 2019-20 Panini Prizm #249. Also see Lime #12.").verdict == WRONG_CARD
    assert _judge(Expect(no_card=True), "A Red Apple parallel exists.", trap=True).verdict == RIGHT
    assert _judge(Expect(no_card=True), "Apple from Rebel Clash sells for $2.", trap=True).verdict == WRONG_CARD


def test_a_set_named_after_an_older_release_is_not_that_release():
    idx = _index()
    idx.releases = {"2024 topps chrome baseball": "Baseball", "1989 topps baseball": "Baseball"}
    idx.not_cards += ["1989 topps baseball chrome layer variations", "1989 topps baseball", "2024 topps chrome baseball"]
    answer = "Here is a random card: 2024 Topps Chrome Baseball Ja Morant #89BCL-12 (1989 Topps Baseball Chrome Layer Variations)."
    assert idx.releases_in(answer) == {"2024 topps chrome baseball"}
    assert idx.releases_in("1989 Topps Baseball Ja Morant #12") == {"1989 topps baseball"}
