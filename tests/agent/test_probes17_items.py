"""What the probes17 round answered about the wrong card or not at all: small talk before a colon ("hall of famer
in my binder: whats my sandberg worth"), "9 to 10 jump" (two grades, never card #9 of 2010), "X i own" (mine),
"most expensive card i got?" (one I have, not the one I paid most for), "how much more would my zard be worth as
a psa 10" (the gap from my copy), "in the green" / "to the moon or down" (my gain), "my <surname>" read against my
cards."""

from __future__ import annotations

from agent.builtin import answers, planner
from agent.builtin.conversation import from_messages
from agent.builtin.linking import says_my
from tests.agent.test_builtin import ALL, specs, understand
from tools._linking import read

COLLECTION = "11111111-2222-3333-4444-555555555555"


def _mine(question: str):
    """The planner's reading of ``question`` asked with a collection in the request's context."""
    msgs = [{"role": "system", "content": f"context:\n- collectionId: {COLLECTION}"},
            {"role": "user", "content": question}]
    return planner.understand(from_messages(msgs, specs(*ALL, "collection_breakdown")))


def test_small_talk_before_a_colon_is_left_out_only_before_a_question():
    assert planner.asked_part("hall of famer in my binder: whats my sandberg worth") == "whats my sandberg worth"
    assert understand("hall of famer in my binder: whats my sandberg worth").intent.name == "price"
    # the words before the colon ask, the card is after it
    assert planner.asked_part("going up or down: 92 donruss knoblauch 390") == "going up or down: 92 donruss knoblauch 390"


def test_two_bare_grades_before_a_price_gap_word_are_grades():
    r = read("shining celebi 9 to 10 jump in price")
    assert (r.company, r.grade, r.number, r.years) == ("PSA", "9", None, None)
    assert read("dark crobat 8 vs 9 gap").grade == "8"


def test_a_card_i_own_said_after_its_name_is_mine():
    assert says_my("rickey henderson i own, current value?")
    assert says_my("the griffey i have is worth what")
    assert not says_my("do i own a base set blastoise")
    assert not says_my("how many cards do i have")


def test_the_most_expensive_card_i_got_is_my_best_card_not_my_dearest_buy():
    assert understand("most expensive card i got?").intent.name == "collection_best"
    assert understand("most expensive card i ever got").intent.name == "owned_among"


def test_in_the_green_and_to_the_moon_or_down_ask_my_gain():
    assert understand("need a miracle - is my collection in the green").intent.name == "collection_roi"
    assert understand("is my collection going to the moon like a rocket or down").intent.name == "collection_roi"


def test_my_surname_is_not_dropped_as_everyday_talk_when_a_collection_is_given():
    """ "whats my henderson worth": the catalog search leaves "henderson" alone as an English word, but with a
    collection it may be my card, which is read for it; with no collection, or "my cards", the word stays talk."""
    st = _mine("whats my henderson worth")
    assert st.intent.name == "price" and st.mine and not st.tentative
    assert understand("whats the henderson worth").tentative   # not mine: a name only if the catalog has it
    assert not planner._my_word(_mine("whats the price on my cards"))   # my whole collection, no name said
    assert not planner._my_word(understand("whats my henderson worth"))   # no collection to read


def test_how_much_more_my_card_would_be_worth_in_a_grade_is_the_gap_from_my_copy():
    st = _mine("how much more would my zard be worth as a psa 10")
    card = {"id": "z", "name": "Charizard", "number": "4", "releaseName": "Base Set", "releaseYear": "1999",
            "prices": {"psa-10": 36110.54, "psa-8": 5124.50}}
    st.results["catalog_card"] = card
    st.results["pricing_card"] = {}
    st.results["owned"] = {"groups": [{"topCards": [
        {"cardId": "z", "cardName": "Charizard", "releaseName": "Base Set", "releaseYear": "1999",
         "currentValue": "5124.50", "buyPrice": "450.00"}]}]}
    answer = answers.market.price(st)
    assert "$5,124.50" in answer and "$36,110.54" in answer and "$30,986.04 more" in answer, answer


def test_are_my_cards_up_or_down_gives_the_whole_gain_then_each_card():
    st = _mine("market is white hot - are my cards up or down")
    st.results["collection_analytics"] = {"overview": {}, "financials": {
        "currentMarketValue": "150", "totalInvested": "100", "totalUnrealizedGains": "50", "overallROI": "50"},
        "performance": {}}
    st.results["owned"] = {"groups": [{"topCards": [
        {"cardId": "a", "cardName": "Charizard", "releaseName": "Base Set", "currentValue": "120", "buyPrice": "50"},
        {"cardId": "b", "cardName": "Pikachu", "releaseName": "Base Set", "currentValue": "30", "buyPrice": "50"}]}]}
    answer = answers.collection.collection_roi(st)
    assert answer.startswith("You are up $50.00") and "Down on what you paid: Pikachu" in answer, answer
    st = _mine("which of my cards are going up")
    st.results.update(owned={"groups": [{"topCards": [
        {"cardId": "a", "cardName": "Charizard", "releaseName": "Base Set", "currentValue": "120", "buyPrice": "50"}]}]})
    assert answers.collection.collection_roi(st).startswith("Up on what you paid")


async def test_a_player_whose_surname_is_a_question_word_is_linked_by_his_whole_name(ctx, sessions):
    """ "david price 2017 donruss 64": "price" asks about a price, but "david price" is a player's whole name;
    "best price for a karl best" keeps "best price" as words of the question."""
    from store.importers import junkwax
    from tests.conftest import shared_data
    from tools._registry import invoke

    await junkwax.run(sessions, str(shared_data("junkwax", "categories", "baseball", "2017", "2017-Donruss.json")))
    link = await invoke("catalog_link", {"text": "david price 2017 donruss 64", "take": 5}, ctx)
    best = next((c for c in link["cards"] if c["id"] == link.get("best")), None)
    assert best and (best["name"], best["number"]) == ("David Price", "64"), link["cards"][:2]
    link = await invoke("catalog_link", {"text": "best price for a 2017 donruss david price", "take": 5}, ctx)
    assert {c["name"] for c in link["cards"]} == {"David Price"}, link["cards"][:3]


def _linked(question: str, entities: list[dict]):
    """The planner's reading of ``question`` once the catalog link has answered with ``entities``."""
    import json

    msgs = [{"role": "user", "content": question},
            {"role": "assistant", "tool_calls": [{"id": "c1", "type": "function", "function": {
                "name": "catalog_link", "arguments": json.dumps({"text": question})}}]},
            {"role": "tool", "tool_call_id": "c1", "content": json.dumps({"entities": entities, "cards": []})}]
    return planner.understand(from_messages(msgs, specs(*ALL, "catalog_release")))


def test_a_players_whole_name_turns_a_release_look_alike_into_his_card():
    """ "zach day 2005 topps" reads like "when did 2005 topps come out" to the classifier; once the catalog
    reads "zach day" as a whole name, his card is asked about. A release named alone stays a release question."""
    player = {"kind": "name", "name": "Zach Day", "phrase": "zach day", "exact": True}
    release = {"kind": "release", "name": "2005 Topps Baseball", "phrase": "2005 topps", "exact": False}
    assert understand("zach day 2005 topps").intent.name == "set_facts"   # before the link answers
    assert _linked("zach day 2005 topps", [player, release]).intent.name == "details"
    assert _linked("zach day 2005 topps", [release]).intent.name == "set_facts"
    assert _linked("when did 2005 topps come out", [player, release]).intent.name == "set_facts"   # asked outright
