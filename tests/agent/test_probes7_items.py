"""Wordings the probes7 round found read as another family (owning, spending, finishing a set, "my list",
what a card brings), my card told by a slab, a typo or what I paid, and a follow-up's carried name."""

from __future__ import annotations

from agent.builtin.answers.collection import owned_movers
from agent.builtin.conversation import respell
from agent.builtin.linking import ACK_LEAD
from tests.agent.test_builtin import understand
from tests.agent.test_probes6_items import _fit, _state


def test_collector_wordings_reach_their_family():
    cases = {
        "have i ever bought a 1991 donruss cal ripken": "owns",
        "did i snag the 1987 topps bo jackson yet": "owns",
        "how much cash have i dropped on cardboard": "collection_value",
        "what else do i need to complete 1990 fleer": "set_missing",
        "did i put the 1990 score frank thomas on my list already": "wantlist",
        "what would a bgs 9 1993 upper deck jeter bring": "price",
    }
    for q, family in cases.items():
        assert understand(q).intent.name == family, q


def test_mistyped_wants_and_a_leading_acknowledgement():
    assert respell("any of my wnats for sale") == "any of my wants for sale"
    assert ACK_LEAD.sub("", "sweet, put it on my list") == "put it on my list"
    assert ACK_LEAD.sub("", "awesome! whats it worth") == "whats it worth"
    assert ACK_LEAD.sub("", "sweet lou whitaker 1978 topps") == "sweet lou whitaker 1978 topps"


def test_my_card_told_by_a_slab_or_by_what_i_paid():
    assert understand("the psa 9 slab in my pc, what does it go for").intent.name == "owned_among"
    assert understand("my 25 dollar card, is it up").intent.name == "owned_among"
    assert _fit("my 25 dollar card, is it up") == ["ryne"]
    assert _fit("the card i paid 3 bucks for - is it up") == ["ozzie"]
    assert _fit("the cheapest card i ever bought, did it go up") == ["ozzie"]
    assert _fit("priciest card i bought, worth what now") == ["szard"]
    # an amount that is a price asked, not what I paid for my card
    assert understand("is 50 bucks for a psa 9 1994 donruss charlie hough fair").intent.name != "owned_among"


def test_movers_both_ways_when_both_are_asked():
    both = owned_movers(_state("which of my cards went up and which went down"))
    assert both is not None and "Up on what you paid: Charizard" in both and "Down on what you paid: Shining" in both
    down = owned_movers(_state("which of my cards went down"))
    assert down is not None and down.startswith("Down") and "Up on" not in down
