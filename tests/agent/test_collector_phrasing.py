"""More collectors' wordings, each mechanism checked with wordings written here: small talk before the
question, everyday-phrase nicknames beside a year or brand, asking whether a card is on the want list,
grouping words, a second grade of another company, and a card number picked from our own list."""

from __future__ import annotations

import pytest

from agent.builtin import planner
from agent.builtin.linking import Entities, link_text, parse
from tests.agent.test_builtin import understand
from tools._linking import nicknamed



@pytest.mark.parametrize("question, asked", [
    ("rainy day, stuck inside. what's the psa 9 pop on a 1990 leaf sosa",
     "what's the psa 9 pop on a 1990 leaf sosa"),
    ("grabbed a corn dog at the game! how many cards are in my collection", "how many cards are in my collection"),
])
def test_small_talk_before_the_question_is_left_out(question, asked):
    assert planner.asked_part(question) == asked


@pytest.mark.parametrize("question", [
    "just opened some 2021 topps chrome. which one is worth the most",   # the lead names the release
    "mickey mantle 1952 topps. what is it worth",                        # the question points back
    "who slabs pokemon cards? name them",                                # the lead is itself a question
    "ken griffey jr. 1989 upper deck value",                             # an abbreviation, not a sentence
    "jungle scyther holo... on my wish list?",                           # the lead is a card's name
])
def test_a_lead_that_carries_the_question_is_kept(question):
    assert planner.asked_part(question) == question


def test_an_everyday_phrase_nickname_names_the_player_only_beside_a_year_or_brand():
    assert nicknamed("the mailman's 86-87 fleer rookie") == "Karl Malone 86-87 fleer rookie"
    assert nicknamed("the captain 1993 upper deck sp") == "Derek Jeter 1993 upper deck sp"
    assert nicknamed("the rocket's 85 fleer update") == "Roger Clemens 85 fleer update"
    assert nicknamed("the mailman is late again") == "the mailman is late again"
    assert nicknamed("had a big mac for lunch, then looked at 1990 topps") == \
        "had a big mac for lunch, then looked at 1990 topps"


def test_a_possessive_nickname_keeps_no_apostrophe():
    assert nicknamed("the big hurt's 1990 leaf rookie") == "Frank Thomas 1990 leaf rookie"


@pytest.mark.parametrize("question", [
    "1986 fleer jordan 57, did that ever make it onto my wishlist",
    "base set blastoise 2 on my wants or not",
    "do i have the jungle snorlax marked as a want",
])
def test_asking_whether_a_card_is_on_the_want_list_never_adds_it(question):
    assert understand(question).intent.name == "wantlist"


@pytest.mark.parametrize("question, group", [
    ("how is my pc divided among brands", "manufacturer"),
    ("what's my collection worth for every year", "year"),
    ("which players are in my binder and what's each worth", "player"),
    ("my cards: graded or raw?", "grade"),
])
def test_grouping_words_ask_for_a_breakdown(question, group):
    st = understand(question)
    assert st.intent.name == "breakdown" and parse(question).group_by == group


def test_a_paid_price_makes_gone_up_a_question_about_my_gain():
    st = understand("has it gone up since i picked it up?", ("is the 1990 leaf frank thomas in my collection",))
    assert st.intent.name == "collection_roi"


def test_a_card_named_with_year_and_number_is_not_a_grading_question():
    assert understand("how many will clark 1987 donruss 56 has psa graded in all grades").intent.name == \
        "population"
    assert understand("what does a sgc 9 will clark 1987 donruss 56 go for").intent.name == "price"


def test_other_grading_companies_are_listed_not_one_scale():
    st = understand("apart from sgc, which companies grade cards")
    assert st.intent.name == "grades" and st.ent.company is None


def test_a_number_picked_from_our_list_drops_the_rookie_asked_before():
    asked = "will clark rookie"
    answer = "Will Clark has two rookie cards here: 1986 Fleer Update #U-25 and 1986 Topps Traded #24T. Which one?"
    e: Entities = parse("the second one", [asked], answer)
    text = link_text(e, [asked], answer)
    assert "#24T" in text and "rookie" not in text


def test_the_best_of_the_cards_talked_about_is_my_best_card():
    st = understand("so which card makes up the most of it", ("what is my pc worth these days",))
    assert st.intent.name == "collection_best"


@pytest.mark.parametrize("question, family", [
    # the want list read in a collector's words, or asked whether a card is on it
    ("pull up my grails", "wantlist"),
    ("what are the cards on my need list", "wantlist"),
    ("what am i chasing at the moment", "wantlist"),
    ("am i chasing the jungle scyther", "wantlist"),
    ("is 1993 sp jeter one of my grails", "wantlist"),
    ("do i have the fossil kabutops on my need list", "wantlist"),
    # added to grails or a need list
    ("stick the 1992 bowman piazza on my grails", "wantlist_add"),
    ("grails: neo genesis lugia 9", "wantlist_add"),
    ("add 1990 leaf frank thomas to my need list", "wantlist_add"),
    # how many of a named card I have is my collection, not the population
    ("how many copies of the 1990 leaf frank thomas do i own", "owns"),
    ("how many copies of base set blastoise have i got", "owns"),
])
def test_want_lists_and_my_copies_in_a_collectors_words(question, family):
    assert understand(question).intent.name == family


def test_how_many_cards_i_have_stays_the_collection_count():
    assert understand("how many cards do i have in my pc").intent.name == "collection_count"


def test_my_grail_alone_is_still_my_best_card():
    assert understand("which card in my binder is my grail by value").intent.name != "wantlist"
