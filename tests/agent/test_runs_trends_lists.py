"""Mechanisms of the twentieth pass (issue 25), checked with wordings written here: a card sent onto the
want list without a verb, list questions that use an add verb, feature ideas as feedback, print runs
from the example bank, the one parallel asked, a trend as the last six months against the sales before,
the release's own spelling of a name, and the plural/possessive fold."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from agent.builtin import intents
from agent.builtin.answers.cards import parallels, set_parallels
from agent.builtin.answers.market import trend
from store.search.fold import fold_possessive, number_forms
from tests.agent.test_builtin import understand
from tools._linking import fold
from tools.catalog_link import _spelt_as


@pytest.mark.parametrize("question", [
    "base set blastoise 2 onto the wishlist pls",
    "fossil lapras #10 onto my wants",
    "the jungle scyther to my wants please",
    "1991 bowman thome - wishlist it",
])
def test_a_card_sent_onto_the_list_is_added(question):
    assert intents.classify(question)[0].name == "wantlist_add"


@pytest.mark.parametrize("question", [
    "which baseball cards did i put on my wants",
    "what did i add to my wish list last",
    "did i put the snorlax on my want list",
    "fossil lapras on my wants?",
    "jungle snorlax 11 - on my wishlist or not",
    "at the card show now, remind me what's on my wants",
    "got my map for the mall, which cards on my wishlist should i hunt",
])
def test_asking_what_is_on_the_list_never_adds(question):
    assert intents.classify(question)[0].name == "wantlist"


@pytest.mark.parametrize("question", ["feature idea - let me export my binder as csv",
                                      "feature suggestion: alerts when my want list cards get listed"])
def test_a_feature_idea_is_feedback(question):
    assert intents.classify(question)[0].name == "feedback"


@pytest.mark.parametrize("question", ["cracked ice is /what", "how many purple shimmers were made",
                                      "numbered out of what is the green shimmer", "the red prizm print run?"])
def test_print_runs_are_parallel_questions(question):
    assert intents.classify(question)[0].name == "parallels"


PARS = [{"name": "Gold", "numberedTo": 10}, {"name": "Optic Gold Vinyl", "numberedTo": 1},
        {"name": "Rated Prospects Optic Gold Vinyl", "numberedTo": 1}, {"name": "Pink Laser", "numberedTo": 50},
        {"name": "Laser"}]


def _with(question: str, link_parallel: str | None = None, **results):
    st = understand(question)
    ents = [{"kind": "parallel", "name": link_parallel}] if link_parallel else []
    st.results.update(link={"entities": ents, "cards": []}, **results)
    return st


def test_the_parallel_the_linker_read_may_be_longer_in_the_set():
    st = _with("how many gold vinyls in 2024 donruss", "Gold Vinyl",
               catalog_set={"name": "Base", "releaseName": "2024 Donruss", "parallels": PARS})
    assert set_parallels(st) == "The Optic Gold Vinyl parallel of 2024 Donruss Base is numbered to 1."


def test_one_word_of_many_parallel_names_picks_none():
    pars = [{"name": "Blue Prizm"}, {"name": "Black Finite Prizm", "numberedTo": 1}]
    st = _with("rarest parallel 2021 prizm base", "Prizm",
               catalog_set={"name": "Base", "releaseName": "2021 Prizm", "parallels": pars})
    assert "Black Finite Prizm" in set_parallels(st)


def test_a_linked_parallel_many_names_hold_picks_none():
    pars = [{"name": "Press Proof Bronze", "numberedTo": 2000}, {"name": "Press Proof Gold", "numberedTo": 500}]
    st = _with("rarest press proof of 96 leaf", "Press Proof",
               catalog_set={"name": "Base Set", "releaseName": "1996 Leaf", "parallels": pars})
    assert "Press Proof Gold" in set_parallels(st)


def test_a_parallel_asked_in_the_plural():
    st = _with("2024 donruss pink lasers are /what",
               catalog_set={"name": "Base", "releaseName": "2024 Donruss", "parallels": PARS})
    assert set_parallels(st) == "The Pink Laser parallel of 2024 Donruss Base is numbered to 50."


def test_one_parallel_of_a_card_is_answered_alone():
    card = {"name": "Bobby Witt Jr.", "number": "1", "releaseName": "2024 Donruss", "parallels": PARS}
    st = _with("the witt pink laser is /what", "Pink Laser", catalog_card=card)
    answer = parallels(st)
    assert "Pink Laser parallel" in answer and "numbered to 50" in answer and "Gold" not in answer
    assert "Gold" in parallels(_with("list every parallel of the witt", catalog_card=card))


def _candle(day: date, mean: float, count: int = 3) -> dict:
    return {"period_start": day.replace(day=1).isoformat(),
            "types": {"auction": {"mean": mean, "median": mean, "high": mean, "low": mean, "open": mean,
                                  "close": mean, "count": count}}}


@pytest.mark.parametrize(("recent", "word"), [(10.6, "steady"), (13.0, "trending up"), (7.0, "trending down")])
def test_a_trend_sets_six_months_against_the_sales_before(recent, word):
    today = date(2026, 11, 20)
    # a noisy first and last month would read a move; the six-month averages decide
    candles = [_candle(today - timedelta(days=30 * k), 10.0 + (3 if k == 11 else 0)) for k in range(11, 6, -1)]
    candles += [_candle(today - timedelta(days=30 * k), recent - (2 if k == 0 else 0) + (0.4 if k == 1 else 0))
                for k in range(4, -1, -1)]
    st = _with("hows the market on the 89 ud griffey",
               pricing_timeseries={"query": {"interval": "monthly", "as_of_date": today.isoformat()},
                                   "raw": {"candles": candles}})
    assert word in trend(st)


def test_the_release_may_spell_a_name_with_its_year_or_a_letter_off():
    assert _spelt_as(["philadelphia", "phillies"], "2004 Philadelphia Phillies")
    assert _spelt_as(fold("J.R. Towles").split(), "J.R. Towels")
    assert not _spelt_as(fold("J.R. Towles").split(), "J.R. Towels Jr.")
    assert not _spelt_as(["kansas", "city", "royals"], "Kansas City Royals Logo")
    assert not _spelt_as(["jim", "rice"], "Jim Ricer Rice")


def test_plural_and_possessive_fold():
    assert fold_possessive("Bowman's") == "bowman"
    assert number_forms("relic") == ["relic", "relics"]
    assert number_forms("prizms") == ["prizms", "prizmss", "prizm"]
