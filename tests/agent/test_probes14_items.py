"""Wordings the probes14 round (population reports, loose look-ups) left unanswered: a family word that is
part of the card's name ("team rocket dark charizard 21"), "pop 10" for the PSA 10 count, and a grade with
"qualified" but no other population word."""

from __future__ import annotations

import pytest

from tests.agent.test_builtin import understand
from tools._linking import read


@pytest.mark.parametrize("question", ["team rocket dark charizard 21", "dark espeon neo destiny",
                                      "Team Rocket Dark Blastoise 3"])
def test_a_name_holding_a_family_word_is_a_look_up(question):
    assert understand(question).intent.name == "details"


@pytest.mark.parametrize("question", ["cheapest dark charizard", "team rocket dark charizard price"])
def test_a_family_word_beside_no_name_still_carries_the_question(question):
    assert understand(question).intent.name != "details"


def test_pop_and_a_grade_is_that_grades_count():
    r = read("matt olson 22 donruss 6 pop 10")
    assert (r.company, r.grade, r.number) == ("PSA", "10", "6")


def test_a_grade_with_qualifiers_asks_the_population():
    assert understand("frank thomas rbi5 2006 topps psa 8 with OC/qualified").intent.name == "population"


async def test_a_surname_typed_as_another_players_reads_the_card_the_release_has(ctx, sessions):
    """ "mcguire 93 stadium club 478": no McGuire is in that release, Mark McGwire is; in 1989 Fleer, which has
    both, the name said is read as said."""
    from store.importers import junkwax
    from tests.conftest import shared_data
    from tools._registry import invoke

    for path in (shared_data("junkwax", "categories", "baseball", "1989", "1989-Fleer.json"),
                 shared_data("junkwax", "categories", "baseball", "1993", "1993-Stadium-Club.json")):
        await junkwax.run(sessions, str(path))
    slip, said = [await invoke("catalog_link", {"text": t, "take": 5}, ctx)
                  for t in ("mcguire 93 stadium club 478", "mcguire 89 fleer")]
    assert [(c["name"], c["releaseName"]) for c in slip["cards"] if c["id"] == slip.get("best")] == \
        [("Mark McGwire", "1993 Stadium Club Baseball")], slip
    assert [c["name"] for c in said["cards"] if c["id"] == said.get("best")] == ["Bill McGuire"]
