"""Which family a question belongs to, for wordings no example holds: the classifier learns from the
bank's sentences and its cue words, and says "none" when no example is near."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest

from agent.builtin import classifier, intents
from agent.builtin.conversation import respell


class FlatEncoder:
    """Every sentence the same vector: only the cue words can tell families apart."""

    def encode(self, texts):
        return np.ones((len(texts), 4)) / 2.0


class ScatterEncoder:
    """A sentence's own direction (from its digest): unrelated sentences are far apart."""

    def encode(self, texts):
        rows = [np.random.default_rng(int(hashlib.sha256(t.encode()).hexdigest()[:8], 16)).normal(size=64)
                for t in texts]
        return np.array([r / np.linalg.norm(r) for r in rows])


BANK = {"price": ["how much is the Griffey worth", "what does a Jordan sell for", "value of a Mantle"],
        "population": ["how many graded copies of the Griffey", "pop report on a Jordan", "how many 10s of Mantle"]}


@pytest.mark.parametrize("question,family", [("what is it worth", "price"), ("how many graded ones", "population")])
def test_cue_words_settle_a_family_the_sentence_alone_does_not(question, family):
    model = classifier.Model(BANK, FlatEncoder())
    assert model.rank(question)[0] == family


def test_a_question_near_no_example_is_none_not_a_guess():
    model = classifier.Model(BANK, ScatterEncoder())
    assert model.rank("book me a table for two tonight")[0] == "none"
    assert model.rank("how much is the Griffey worth")[0] == "price"   # an example itself is near


def test_names_are_masked_so_the_family_is_read_from_the_words_around_them():
    vocab = classifier.bank_words(BANK)
    assert classifier.mask("how much is the Blastoise worth", vocab) == "how much is the X worth"


FRESH = [
    # collection, in words the bank does not hold
    ("roughly what would my whole collection fetch today", "collection_value"),
    ("which card in my binder has the highest value", "collection_best"),
    ("am i losing money on the cards i bought", "collection_roi"),
    ("how many cards are sitting in my collection right now", "collection_count"),
    ("is there a rickey henderson somewhere in my collection", "owns"),
    ("which cards do i lack to finish 1990 fleer", "set_missing"),
    # want list
    ("what cards did i say i was after", "wantlist"),
    ("pop the fossil lapras onto my wishlist please", "wantlist_add"),
    # catalog facts, grades, market
    ("how many cards were printed in the jungle set", "set_facts"),
    ("what is the lowest grade beckett will give a card", "grades"),
    ("how many psa 10 copies does the bo jackson have", "population"),
    ("anybody got a griffey rookie up for sale at the moment", "marketplace"),
    ("roughly how much does a raw jordan rookie go for", "price"),
    ("has the ohtani rookie dropped in price this year", "trend"),
]


@pytest.mark.parametrize("question,family", FRESH)
def test_fresh_wordings_reach_their_family(question, family):
    if not classifier.warm():
        pytest.skip("sentence embeddings unavailable")
    bank = {q.lower() for qs in classifier.load_bank().values() for q in qs}
    assert question not in bank   # a wording of this test's own, not an example
    intent, _ = intents.classify(respell(question))
    assert intent is not None and intent.name == family


@pytest.mark.parametrize("question,family", [
    ("which of the pair sells for more in a psa 9", "price"),            # the cards just shown
    ("is my jungle scyther worth more than what i spent on it", "collection_roi"),
    ("is a fossil lapras worth more than a jungle snorlax", "price_compare"),
])
def test_a_comparison_needs_both_sides_in_the_question(question, family):
    if not classifier.warm():
        pytest.skip("sentence embeddings unavailable")
    intent, _ = intents.classify(respell(question))
    assert intent is not None and intent.name == family


def test_a_catalog_fact_about_my_own_cards_is_a_collection_question():
    if not classifier.warm():
        pytest.skip("sentence embeddings unavailable")
    intent, _ = intents.classify(respell("how many cards are stored in my collection at the moment"))
    assert intent is not None and intent.collection


def test_a_weak_short_follow_up_keeps_the_earlier_family(monkeypatch):
    from agent.builtin import planner
    from tests.agent.test_builtin import understand

    real = planner.classify

    def weakly_shopping(text):   # the follow-up read as shopping, but only just
        return (intents.BY_NAME["marketplace"], 0.55) if text.startswith("and ") else real(text)

    monkeypatch.setattr(planner, "classify", weakly_shopping)
    assert understand("and the highest one?", ("walk me through the bgs grading scale",)).intent.name == "grades"
    monkeypatch.setattr(planner, "classify", lambda text: (intents.BY_NAME["marketplace"], 0.9)
                        if text.startswith("and ") else real(text))
    assert understand("and the highest one?", ("walk me through the bgs grading scale",)).intent.name == "marketplace"
