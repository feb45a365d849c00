"""Follow-ups in collectors' words: an acknowledgement before the follow-up ("k and what about..."),
two grades compared on the card just discussed, and a random pull from a release's named set."""

from __future__ import annotations

from agent.builtin import planner
from tests.agent.test_builtin import ALL, understand


def _understand(question: str, history: tuple[str, ...] = ()):
    return understand(question, history, [*ALL, "catalog_cards_random"])


def test_an_acknowledgement_before_a_follow_up_keeps_the_card_and_the_question():
    st = _understand("k and what about a psa 9 copy", ("what's a psa 10 rusty staub 82 donruss worth",))
    assert st.ent.follow_up and st.ent.elliptical
    assert st.intent.name == "price" and st.ent.grade == "9"
    assert planner.variable(st, "link_history") == ["what's a psa 10 rusty staub 82 donruss worth"]


def test_the_grades_compared_on_the_card_just_discussed():
    from agent.builtin.answers.market import _grades_asked

    st = _understand("what's the difference between the 10 and the 9 on that",
                     ("the ignitors 1992 fleer 702 psa10 value",))
    assert st.ent.number is None and st.ent.follow_up
    assert _grades_asked(st) == ["10", "9"]


def test_a_random_pull_from_a_named_set_of_a_release_stays_in_that_set():
    st = _understand("random card from the 2024 topps update base set")
    st.results["link"] = {
        "entities": [{"kind": "release", "name": "2024 Topps Update Baseball", "phrase": "topps update",
                      "ids": ["rel-update"]},
                     {"kind": "set", "name": "Base Set", "phrase": "base set", "ids": ["s1", "s2", "s3"]}],
        "cards": [{"id": "c1", "releaseId": "rel-update", "setId": "set-update-base",
                   "matched": ["year", "release", "set"]}]}
    assert planner.variable(st, "random_scope_set") == "set-update-base"
    assert planner.variable(st, "random_scope_release") is None
    # a release alone stays the scope
    st.results["link"]["entities"] = st.results["link"]["entities"][:1]
    assert planner.variable(st, "random_scope_release") == "rel-update"


COMPANIES = {"companies": [
    {"id": "p", "name": "PSA", "abbreviation": "PSA",
     "qualifiers": [{"code": "MC", "name": "Miscut"}, {"code": "OC", "name": "Off Center"}]},
    {"id": "b", "name": "BGS", "abbreviation": "BGS"}]}


def test_a_label_qualifier_is_explained_from_the_grading_data():
    from agent.builtin.answers.cards import grades

    st = _understand("what does OC mean on a psa slab")
    assert st.intent.name == "grades"
    st.results["grades_companies"] = COMPANIES
    said = grades(st)
    assert "OC means Off Center" in said and "MC Miscut" in said
    st = _understand("my psa label says XY after the grade")   # not a qualifier: the scale, as before
    assert st.ent.qualifier is None


def test_a_parallel_follow_up_names_the_parallel_with_the_earlier_words():
    from agent.builtin.answers.cards import set_parallels

    st = _understand("and the silver one?", ("rarest press proof in 1996 leaf",))
    st.results["catalog_set"] = {"name": "Base Set", "releaseName": "1996 Leaf Baseball", "parallels": [
        {"name": "Press Proof Gold", "numberedTo": 500}, {"name": "Press Proof Silver", "numberedTo": 1000},
        {"name": "Silver Signature"}]}
    assert set_parallels(st) == "The Press Proof Silver parallel of 1996 Leaf Baseball Base Set is numbered to 1000."


def test_when_no_card_that_fits_has_a_population_report_that_is_the_answer():
    from agent.builtin.answers.common import missing

    st = _understand("how many dark crobat psa 10 are out there")
    crobats = [{"id": "a", "name": "Dark Crobat", "releaseName": "Neo Destiny", "releaseYear": "2002", "number": "2",
                "score": 5.0},
               {"id": "b", "name": "Dark Crobat", "releaseName": "Team Rocket Returns", "releaseYear": "2004",
                "number": "3", "score": 5.0}]
    st.results["link"] = {"cards": crobats, "ambiguous": True, "entities": []}
    st.many["tied_pops"] = [{"card_id": "a", "base": {"grading_companies": []}},
                            {"card_id": "b", "total_population": 0}]
    said = missing(st, "card_id")
    assert "no population data for any of the 2 cards" in said and "Neo Destiny Dark Crobat #2" in said
    # when one of them has a report, the question is still which card
    st.many["tied_pops"][1] = {"card_id": "b", "base": {"grading_companies": [{"name": "PSA"}]}}
    assert "Which one do you mean?" in missing(st, "card_id")


def test_a_reply_naming_what_tells_the_listed_cards_apart_picks_that_card():
    from agent.builtin.linking import listed_by_words

    asked = ("Barry Bonds has two rookie cards here: 1986 Fleer Update #U-14 and 1986 Topps Traded #11T. "
             "Which one do you mean?")
    assert listed_by_words(asked, "the topps traded one") == "11T"
    assert listed_by_words(asked, "fleer") == "U-14"
    assert listed_by_words(asked, "the 1986 one") is None          # both are: still undecided
    holo = "Dark Charizard appears twice in Team Rocket: #4 (holo rare) and #21 (non-holo). Which one do you mean?"
    assert listed_by_words(holo, "the holo one, add it to my wants") == "4"
    assert listed_by_words(holo, "the charizard ex") is None        # words no listed card has
