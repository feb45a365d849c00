"""Last round's open items, as the collector sees them: a random pull from a segment whose first release
drawn holds no card, the list's name used as the verb, a card "i own" asked up or down, a card named
in the plural, a release whose parallels are on its other sets, a colour asked after a set's parallel,
and a name misspelt beside a number many cards share."""

from __future__ import annotations

from agent.builtin import planner
from agent.builtin.answers.cards import random_card, set_parallels
from agent.builtin.answers.collection import collection_roi, named_owned, owns
from tests.agent.test_builtin import ALL, understand
from tools.catalog_link import _name_like, _spelt_nearly

RANDOM = [*ALL, "catalog_cards_random", "catalog_releases_random"]
OWNED = {"groups": [{"topCards": [
    {"cardId": "p58", "cardName": "Pikachu", "number": "58", "releaseName": "Base Set", "releaseYear": "1999",
     "currentValue": "40", "buyPrice": "30"},
    {"cardId": "g89", "cardName": "Ken Griffey Jr.", "number": "1", "releaseName": "1989 Upper Deck Baseball",
     "releaseYear": "1989", "currentValue": "150", "buyPrice": "120"}]}]}


def test_a_random_pokemon_pull_skips_a_release_without_cards():
    st = understand("random pokemon card", offered=RANDOM)
    assert st.intent.name == "random"
    st.results["random_release"] = {"releases": [{"id": "empty"}, {"id": "full"}], "count": 2}
    assert planner.variable(st, "random_release_ids") == ["empty", "full"]
    st.many["random_in"] = [{"cards": [], "count": 0},
                            {"cards": [{"id": "c", "name": "Pikachu", "number": "58", "releaseName": "Jungle"}],
                             "count": 1}]
    assert random_card(st) == "Here is a random card: Jungle Pikachu #58."


def test_the_want_lists_name_as_the_verb_adds_the_card():
    assert understand("wishlist the 1980 topps gary carter for me").intent.name == "wantlist_add"
    assert understand("robin yount 1982 topps 435, want list please").intent.name == "wantlist_add"
    assert understand("the 760 one, wishlist it", ("dale murphy 1983 topps",)).intent.name == "wantlist_add"
    # asking about the list never adds
    assert understand("jirachi deoxys #9, have i wishlisted it").intent.name == "wantlist"
    assert understand("venusaur base set 15 - on my wants already?").intent.name == "wantlist"


def test_a_card_i_own_asked_up_or_down_is_against_what_i_paid():
    assert understand("the raw 86 topps ozzie i own, up or down vs what it cost me").intent.name == "collection_roi"
    assert understand("rickey 95 pinnacle in my pc - has it gone up at all?").intent.name == "collection_roi"
    st = understand("overall have my cards gone up since i bought them")
    st.results.update(owned=OWNED, collection_analytics={"financials": {
        "currentMarketValue": "190", "totalInvested": "150", "totalUnrealizedGains": "40"}})
    assert collection_roi(st).startswith("You are up $40.00")   # the total, not each card


def test_my_card_of_another_release_is_not_the_one_i_own():
    st = understand("is my jungle pikachu up since i bought it")
    st.results.update(owned=OWNED, link={"entities": [
        {"kind": "release", "name": "Jungle", "phrase": "jungle", "ids": ["j"]},
        {"kind": "name", "name": "Pikachu", "phrase": "pikachu", "exact": True, "ids": ["x"]}],
        "cards": [{"id": "j60", "name": "Pikachu", "number": "60", "releaseName": "Jungle", "releaseYear": "1999"}],
        "best": "j60"})
    assert named_owned(st) is None
    assert collection_roi(st) == ("1999 Jungle Pikachu #60 is not in your collection, so I can't say how it has "
                                  "done against what you paid.")


def test_an_everyday_card_name_in_small_talk_is_no_card_i_own():
    st = understand("i'm in a pickle, am i losing money on my collection?")
    st.results.update(owned=OWNED, link={"entities": [
        {"kind": "name", "name": "Pickle", "phrase": "pickle", "exact": True, "ids": ["pk"]}],
        "cards": [{"id": "pk", "name": "Pickle", "number": "1", "matched": ["name"]}], "best": "pk"},
        collection_analytics={"financials": {"currentMarketValue": "190", "totalInvested": "150"}})
    assert collection_roi(st).startswith("You are up $40.00")


def test_a_random_pull_whose_only_name_is_an_everyday_word_keeps_the_segment():
    st = understand("throw me a random baseball card", offered=RANDOM)
    st.results["link"] = {"entities": [{"kind": "name", "name": "Throw Smoke!", "phrase": "throw"}], "cards": []}
    assert planner.PREDICATES["random_by_segment"](st) and not planner.PREDICATES["random_in_catalog"](st)


def test_a_name_in_the_plural_counts_my_cards_of_that_player():
    st = understand("how many 89 upper deck griffeys have i got")
    assert st.intent.name == "owns"
    st.results.update(owned=OWNED, link={"entities": [
        {"kind": "name", "name": "The Griffeys", "phrase": "griffeys", "exact": True, "ids": ["tg"]}], "cards": []})
    assert owns(st).startswith("Yes, you have 1 Ken Griffey Jr. card in your collection")


def test_a_release_without_base_parallels_answers_with_its_other_sets():
    st = understand("what parallels does 1999 topps have")
    st.results.update(link={"entities": [], "cards": []},
                      catalog_set={"name": "Series 1", "releaseName": "1999 Topps Baseball", "parallels": []})
    st.many["insert_pars"] = [{"name": "Record Numbers", "parallels": [{"name": "Gold", "numberedTo": 20}]},
                              {"name": "Power Brokers", "parallels": [{"name": "Refractor"}]}]
    answer = set_parallels(st)
    assert "Gold /20 (Record Numbers)" in answer and "Refractor (Power Brokers)" in answer
    # a base set with parallels lists them first, then the other sets'
    st.results["catalog_set"]["parallels"] = [{"name": "Electric Diamond"}]
    assert set_parallels(st).startswith("1999 Topps Baseball has 3 parallels across 3 sets: Electric Diamond (Series 1)")


def test_a_misspelt_name_beside_a_shared_number_finds_its_card_or_none():
    assert _name_like(["dj", "lemahue", "pls"]) == ["lemahue"]
    assert _spelt_nearly(["lemahue"], "DJ LeMahieu") and _spelt_nearly(["valentine"], "John Valentin")
    assert _spelt_nearly(["isaiah", "thomas"], "Isiah Thomas")   # a first name a letter off
    assert not _spelt_nearly(["lemahue"], "Eddie Rosario") and not _spelt_nearly(["isaiah", "thomas"], "Gorman Thomas")


def test_collectors_words_for_a_family():
    assert understand("2008 topps ichiro TB6, where's the price heading").intent.name == "trend"
    assert understand("is the 2024 donruss ricky tiedemann 18 available to buy right now").intent.name == "marketplace"
    assert understand("tim walach 86 fleer 263 for sael").intent.name == "marketplace"
    assert understand("mysterious treasures - when'd it drop").intent.name == "set_facts"
    assert understand("that answer was great, pass my thanks along to the team").intent.name == "feedback"
    for q in ("what does a csg 6 mean", "my energy search for the day is over, just tell me what an isa 8.5 means"):
        assert understand(q).intent.name == "grades"


def test_small_talk_before_a_dash_is_left_out():
    st = understand("oregon road trip card haul question - what parallels does 2024 allen & ginter x have")
    assert st.conv.question == "what parallels does 2024 allen & ginter x have"
    # a card named before the dash stays
    assert understand("venusaur base set 15 - on my wants already?").conv.question.startswith("venusaur")


def test_a_total_across_grades_after_a_pop_question_is_that_cards_report():
    st = understand("total across all psa grades?", ("nincada deoxys 67 psa 10 pop",))
    assert st.intent.name == "population" and st.ent.follow_up


def test_grading_follow_ups_keep_the_scale_the_grade_or_the_qualifier():
    st = understand("same question for sgc", ("what is a psa 8.5 called",))
    assert (st.intent.name, st.ent.company, st.ent.grade) == ("grades", "SGC", "8.5")
    st = understand("what about PD", ("psa OF qualifier meaning",))
    assert (st.intent.name, st.ent.qualifier) == ("grades", "PD")
    assert understand("so what's the lowest one on it", ("explain the sgc scale to me",)).intent.name == "grades"


def test_a_want_list_question_about_cards_not_told_apart_names_none_of_them():
    from agent.builtin.answers.collection import wantlist

    st = understand("is it on my wants already?", ("zapdos fossil holo",))
    st.results.update(lists_list={"lists": [{"id": "l", "name": "Want list"}]},
                      list_cards_list={"cards": [{"cardId": "v"}], "total_count": 1},
                      link={"entities": [{"kind": "name", "name": "Zapdos", "phrase": "zapdos"}], "ambiguous": True,
                            "cards": [{"id": "z1", "name": "Zapdos", "number": "065", "releaseName": "Twilight Masquerade",
                                       "score": 3}, {"id": "z2", "name": "Zapdos", "number": "157", "score": 3}]})
    assert wantlist(st) == "No, no Zapdos card is on your want list (Want list, 1 card in all)."


def test_my_grails_is_the_want_list():
    assert understand("my grails?").intent.name == "wantlist"
    assert understand("which cards are my grails").intent.name == "wantlist"


def test_a_release_and_a_parallel_word_are_no_misspelt_name():
    from store.search.index import NameHit
    from tools.catalog_link import _accept

    holon = NameHit(kind="name", name="Holon Fossil", score=20.0, exact=False, distance=1, count=1, ids=("h",))
    assert not _accept(holon, ["fossil", "holo"])   # "zapdos fossil holo": Fossil's holo Zapdos


def test_a_pull_from_a_releases_base_set_prefers_its_base_cards():
    st = understand("random card from the 2019 prizm base set", offered=RANDOM)
    st.results["link"] = {"entities": [
        {"kind": "release", "name": "2019 Panini Prizm Baseball", "phrase": "prizm", "ids": ["rel"]},
        {"kind": "set", "name": "Base", "phrase": "base set", "ids": ["s1", "s2"]}], "cards": [{"matched": ["release"]}]}
    assert planner.PREDICATES["random_base_set"](st)
    st.results["catalog_cards_random"] = {"cards": [{"name": "Alex Verdugo", "number": "24", "setName": "Game Ball Graphs"}]}
    st.results["random_base"] = {"cards": [{"name": "Mike Trout", "number": "1", "releaseName": "2019 Prizm"}]}
    assert random_card(st) == "Here is a random card: 2019 Prizm Mike Trout #1."
