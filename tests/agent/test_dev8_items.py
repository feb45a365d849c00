"""Words a collector adds around the card: a place someone goes, the year said again when picking from a list,
a budget in bucks, an everyday word with two letters swapped, and someone else's "wants"."""

from __future__ import annotations

from types import SimpleNamespace

from tests.agent.test_builtin import understand
from tools._linking import read
from tools.catalog_link import LinkedEntity, _drop_split_names, _swapped_common, _typo_hit


def test_a_place_standing_alone_is_not_a_card():
    assert [w for _, w in read("headed to a show in texas, what's on my want list").tokens if w == "texas"] == []
    assert [w for _, w in read("is spain or italy nicer in june").tokens if w in ("spain", "italy")] == []
    # beside a year or a brand it may be the card ("2024 allen ginter ohio")
    assert "ohio" in [w for _, w in read("2024 allen ginter ohio").tokens]


def test_the_year_said_again_is_not_a_card_number():
    r = read("gary carter 1982 the 1982 donruss one")
    assert (r.year, r.number) == ("1982", None)


def test_bucks_are_a_price_bound_not_a_number():
    r = read("i have 40 bucks to spend, any 1990 fleer ken griffey 513 under that")
    assert (r.max_price, r.number) == (40.0, "513")


def test_an_everyday_word_with_letters_swapped_is_that_word():
    assert _swapped_common("yera") == {"year"} and _swapped_common("waht") == {"what"}
    assert not _swapped_common("ohtani")
    hit = SimpleNamespace(name="Arol Vera", exact=False, distance=1)
    assert _typo_hit(hit, ["yera"])
    assert not _typo_hit(SimpleNamespace(name="Jungle", exact=False, distance=1), ["jungel"])   # the word meant


def test_someone_elses_wants_is_a_lookup():
    assert understand("my brother wants the 1987 topps mark mcgwire, show it to me").intent.name == "details"
    assert understand("add the 1987 topps mark mcgwire to my wants").intent.name == "wantlist_add"


def test_the_lists_name_then_a_card_with_its_number_adds_it():
    assert understand("wishlist dave stieb 1983 fleer 441").intent.name == "wantlist_add"
    assert understand("wishlist what is on it").intent.name == "wantlist"


def _name(name: str, phrase: str) -> LinkedEntity:
    return LinkedEntity(kind="name", name=name, phrase=phrase, score=1.0, exact=False, count=1, ids=["x"])


def test_a_first_name_and_a_near_surname_of_someone_else_name_no_one():
    # "drew" is part of Drew Romo's name, "brees" a near miss of Tom Drees: nobody the catalog has
    drew, drees = _name("Drew Romo", "drew"), _name("Tom Drees", "brees")
    entities = [drew, drees]
    _drop_split_names([(0, 1, [drew]), (1, 1, [drees])], entities, [], ["drew", "brees"])
    assert entities == []
    # "ozzy smith": the misspelt first name is the first name of a Smith, who is kept
    ozzy, smith = _name("Izzy Molina", "ozzy"), _name("Ozzie Smith", "smith")
    entities = [ozzy, smith]
    _drop_split_names([(0, 1, [ozzy]), (1, 1, [smith])], entities, [], ["ozzy", "smith"])
    assert smith in entities


def test_a_possessive_name_is_the_name():
    assert [w for _, w in read("pull up ryne sandberg's 1984 donruss").tokens][-3:] == ["ryne", "sandberg", "donruss"]
    assert "bowman's" in [w for _, w in read("what sets are in 1995 bowman's best").tokens]   # a release's own word


def test_a_release_of_another_year_is_not_carried_into_a_follow_up():
    from tools.catalog_link import _in_years
    assert not _in_years("1983", read("what about his 1978 card").years)
    assert _in_years("1983", read("what about his psa 9").years)   # no year asked: the release talked about
    assert _in_years("1986-87", read("his 86 fleer").years)


def test_a_card_with_a_price_bound_asks_for_copies_to_buy():
    assert understand("kirby puckett 88 fleer 120 undr $4").intent.name == "marketplace"
    assert understand("is somebody listing the 1991 score larry walker 12").intent.name == "marketplace"


def test_every_card_i_own_or_they_after_my_cards_is_my_collections_value():
    assert understand("what would all the cards i own fetch if i sold them today").intent.name == "collection_value"
    assert understand("and what are they worth today", ("how much did i spend on my cards",)).intent.name == \
        "collection_value"
    assert understand("what are they worth", ("charizard base set or blastoise base set",)).intent.name != \
        "collection_value"


def test_a_total_across_grades_after_a_cards_pop_is_that_cards():
    st = understand("how many bgs graded in total over every grade?", ("blastoise base set 2 psa 9 pop",))
    assert st.intent.name == "population" and st.ent.follow_up
