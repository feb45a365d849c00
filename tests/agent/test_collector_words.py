"""Mechanisms behind collectors' wordings (issue 25), each checked with wordings written here: grading
questions about no card, writes only on an explicit add, ownership by name, everyday words that are
not cards, real words never "put right", follow-ups that add a release word or add to a list read."""

from __future__ import annotations

import pytest

from agent.builtin import planner
from agent.builtin.conversation import respell
from agent.builtin.linking import parse
from tests.agent.test_builtin import ALL, first_calls, understand



@pytest.mark.parametrize("question", [
    "is an sgc 9 better than a cgc 9",
    "does bgs hand out half grades",
    "whats the gap between a psa 8 and a bgs 8",
    "list every grade cgc uses",
    "how many grades does sgc have",
])
def test_grading_words_and_nothing_to_look_up_are_about_the_scales(question):
    st = understand(question)
    assert st.intent.name == "grades"
    assert first_calls(question).calls[0][0] == "grades_companies"


@pytest.mark.parametrize("question", ["what's a psa 10 jungle scyther worth", "how many bgs 9s of the 1990 fleer bo"])
def test_a_grade_beside_a_card_is_still_about_the_card(question):
    assert understand(question).intent.name != "grades"


@pytest.mark.parametrize("question,history,family", [
    ("is the fossil gengar on my list", (), "wantlist"),
    ("have i got machamp on my wishlist", (), "wantlist"),
    ("how about the 1st edition one", ("what's a base set machamp worth",), "price"),
])
def test_a_look_alike_question_never_adds_to_a_list(question, history, family):
    assert understand(question, history).intent.name == family


@pytest.mark.parametrize("question,history", [
    ("chuck the jungle scyther on my list", ()),
    ("put the gym heroes blaine on it", ("show my wishlist",)),
])
def test_adding_in_other_verbs_and_to_the_list_just_read(question, history):
    assert understand(question, history).intent.name == "wantlist_add"


@pytest.mark.parametrize("question", ["do i own a machamp", "have i got any bo jackson", "is gengar in my binder"])
def test_asking_whether_i_own_a_name_is_an_ownership_question(question):
    assert understand(question).intent.name == "owns"


OWNED = {"groups": [{"topCards": [
    {"cardId": "c1", "cardName": "Machamp", "releaseName": "Base Set", "releaseYear": "1999", "number": "8"},
    {"cardId": "c2", "cardName": "Bo Jackson", "releaseName": "1990 Fleer Baseball", "releaseYear": "1990"}]}]}


@pytest.mark.parametrize("name,says", [
    ("Machamp", "Yes, you have 1 Machamp card in your collection: Machamp #8 (1999 Base Set)"),
    ("Gengar", "No, you have no Gengar card in your collection"),
])
def test_ownership_of_a_name_many_cards_carry_is_read_from_the_collection(name, says):
    from agent.builtin.answers.collection import owns
    st = understand(f"do i own a {name.lower()}")
    st.results["link"] = {"entities": [{"kind": "name", "name": name, "phrase": name.lower()}], "cards": [],
                          "ambiguous": True}
    st.results["owned"] = OWNED
    assert says in owns(st)


@pytest.mark.parametrize("text,everyday", [
    ("whats the best way to store cards", True),
    ("recommend me a good shop nearby", True),
    ("store charizard", False),         # a name beside the everyday word
    ("1999 store", False),              # a year: a catalog look-up
])
def test_everyday_words_alone_are_a_name_only_when_the_catalog_has_them_whole(text, everyday):
    assert planner.everyday_words_only(text) is everyday


@pytest.mark.parametrize("text", ["how many grades does psa have", "what grades are there", "i like rookie cards"])
def test_real_words_are_never_put_right_as_mistyped_intent_words(text):
    assert respell(text) == text


def test_mistyped_intent_words_are_still_put_right():
    assert respell("whats on my wnat list") == "whats on my want list"


@pytest.mark.parametrize("text,elliptical", [
    ("how about the shadowless one", True),
    ("and the 1st edition?", True),
    ("what about blastoise", False),
])
def test_a_follow_up_of_release_words_only_names_no_new_card(text, elliptical):
    assert parse(text, ["how much is a base set charizard"]).elliptical is elliptical


@pytest.mark.parametrize("question", ["random card from 2021 prizm", "pull me a random 1995 pinnacle"])
def test_a_random_pull_is_scoped_by_a_year_or_release_word_alone(question):
    assert first_calls(question + "", offered=ALL + ["catalog_cards_random"]).calls[0][0] == "catalog_link"


def test_parallels_of_a_release_need_no_card():
    d = first_calls("how many parallels in 2023 topps chrome", offered=ALL + ["catalog_release", "catalog_set"])
    assert d.calls and d.calls[0][0] == "catalog_link"


def test_the_catalogs_other_spelling_of_a_linked_name_is_that_name():
    from types import SimpleNamespace

    from tools._linking import read
    from tools.catalog_link import LinkedEntity, _score
    rel = LinkedEntity(kind="release", name="1990 Leaf Baseball", phrase="1990 leaf", score=1.0, exact=True, count=1,
                       ids=["r1"])
    name = LinkedEntity(kind="name", name="Ho-Oh Jr.", phrase="ho-oh jr", score=1.0, exact=True, count=1, ids=["x"])
    row = SimpleNamespace(name="Ho-oh, Jr.", release_year="1990", release_id="r1", release_name="1990 Leaf Baseball",
                          number="7", set_id="s1", set_name="Base", numbered_to=None, raw_cents=None, variation_of=None)
    _, matched, missed = _score(row, [], read("ho-oh jr 1990 leaf 7"), [name, rel])
    assert {"name", "release", "number"} <= set(matched) and not missed
    other = SimpleNamespace(**{**row.__dict__, "name": "Ho-oh Sr."})
    assert "name" in _score(other, [], read("ho-oh jr 1990 leaf 7"), [name, rel])[2]


def test_the_set_asked_about_is_the_longest_whole_name_said_not_a_shared_word():
    st = understand("how complete is my jungle set")
    st.results["collection_set_progress"] = {"sets": [
        {"setId": "s-base", "setName": "Base Set", "releaseName": "Base Set"},
        {"setId": "s-jungle", "setName": "Jungle", "releaseName": "Jungle"}]}
    st.results["link"] = {"entities": [{"kind": "release", "name": "Jungle", "phrase": "jungle"},
                                       {"kind": "set", "name": "Base Set", "phrase": "set"}], "cards": []}
    assert planner._progress_set_id(st) == "s-jungle"


@pytest.mark.parametrize("question,link_name,answers", [
    ("fetch me a sandwich", "Sandwich", False),     # no family fits: a one-word card name is not enough
    ("sandwich", "Sandwich", True),                 # the question is only the name
])
def test_a_guessed_card_needs_a_question_of_names_only(question, link_name, answers):
    st = understand(question)
    if st.intent is None or st.intent.name == "unknown":
        assert not answers
        return
    link = {"entities": [{"kind": "name", "name": link_name, "phrase": link_name.lower(), "exact": True}]}
    whole = planner.classifier.bare_name(question) or (not st.guessed and not planner.everyday_words_only(question))
    assert planner._confident_link(link, whole=whole) is answers
