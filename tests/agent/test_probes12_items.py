"""Wordings of the want list and the marketplace (issue 25, probe set 12), checked with wordings written here:
taking a card off the want list (only a card that is on it, told from its namesakes), what the list would
cost, a follow-up about another card after a want-list question, terse adds, and a listing question whose
card the words pick among twins of one name and release (the unlisted pick is not answered while its twin
is for sale)."""

from __future__ import annotations

import json

import pytest

from agent.builtin import intents, planner
from agent.builtin.answers import collection, market
from agent.builtin.conversation import from_messages
from agent.builtin.planner import decide
from tests.agent.test_builtin import ALL, specs, understand

WRITES = [*ALL, "list_cards_add", "list_card_remove"]
LIST = {"lists": [{"id": "w", "name": "Want list"}]}


def _card(cid: str, name: str, release: str, year: str, number: str, **extra) -> dict:
    return {"id": cid, "name": name, "releaseName": release, "releaseYear": year, "number": number, **extra}


LUGIA9 = _card("l9", "Lugia", "Neo Genesis", "2000", "9")
LUGIA_V = _card("lv", "Lugia", "Silver Tempest", "2022", "138")
ZARD4 = _card("z4", "Charizard", "Base Set", "1999", "4")
ZARD11 = _card("z11", "Charizard", "Evolutions", "2016", "11")


@pytest.mark.parametrize("question", [
    "remove lugia from my want list",
    "take the 87 topps mcgwire off my wants",
    "dont need the gyarados anymore, drop it from my list",
    "remvoe alakazam from my wants",
    "delete dark charizard from my wishlist",
    "scratch the 95 pinnacle rickey off my want list pls",
])
def test_taking_a_card_off_the_list_is_a_removal(question):
    assert intents.classify(question)[0].name == "wantlist_remove"


@pytest.mark.parametrize("question", [
    "what should i remove from my wants",
    "pull a random card from my list",
    "take a card from my list at random",
    "how much did my collection drop",
    "whats on my list",
    "add lugia to my want list",
])
def test_other_list_questions_never_remove(question):
    intent, _ = intents.classify(question)
    assert intent is None or intent.name != "wantlist_remove"


def test_take_it_off_after_adding_removes_that_card():
    st = understand("actually take it off", ("add frank thomas 90 topps 414 to my wants",))
    assert st.intent.name == "wantlist_remove"
    st = understand("actually take it off", ("what's the 90 topps frank thomas worth",))
    assert st.intent is None or st.intent.name != "wantlist_remove"


def _removal(question: str, link: dict, entries: list[dict], wanted: list[dict] | None = None):
    st = planner.understand(from_messages([{"role": "user", "content": question}], specs(*WRITES)))
    st.results.update({"link": link, "lists_list": LIST,
                       "list_cards_list": {"cards": entries, "total_count": len(entries)}})
    if wanted is not None:
        st.many["wanted"] = wanted
    return st


def test_a_name_alone_removes_the_one_card_of_that_name_on_the_list():
    link = {"cards": [LUGIA_V, LUGIA9], "ambiguous": True,
            "entities": [{"kind": "name", "name": "Lugia", "exact": True}]}
    st = _removal("remove lugia from my want list", link, [{"id": "e1", "cardId": "v15"}, {"id": "e2", "cardId": "l9"}])
    assert planner.variable(st, "want_link_id") == "e2"
    st.results["list_card_remove"] = {"ok": True}
    assert collection.wantlist_remove(st) == "Removed 2000 Neo Genesis Lugia #9 from your want list."


def test_a_card_told_by_its_release_is_not_swapped_for_a_namesake_on_the_list():
    link = {"cards": [ZARD4, ZARD11], "best": "z4",
            "entities": [{"kind": "name", "name": "Charizard", "exact": True}, {"kind": "release", "name": "Base Set"}]}
    st = _removal("remove the base set charizard from my wants", link, [{"id": "e1", "cardId": "z11"}])
    assert planner.variable(st, "want_link_id") is None
    answer = collection.wantlist_remove(st)
    assert "Base Set Charizard #4 is not on your want list" in answer and "#11" not in answer


def test_a_name_the_link_did_not_rank_is_found_among_the_lists_cards():
    gyarados6 = _card("g6", "Gyarados", "Base Set", "1999", "6")
    link = {"cards": [_card("g30", "Gyarados", "My First Battle", "2023", "30")], "ambiguous": True,
            "entities": [{"kind": "name", "name": "Gyarados", "exact": True}]}
    st = _removal("dont need the gyarados anymore, drop it from my list", link, [{"id": "e9", "cardId": "g6"}],
                  wanted=[gyarados6])
    assert planner.variable(st, "want_link_id") == "e9"
    st = _removal("dont need the gyarados anymore, drop it from my list", link, [{"id": "e1", "cardId": "x"}],
                  wanted=[LUGIA9])
    assert collection.wantlist_remove(st) == "No Gyarados card is on your want list, so nothing was removed."


def test_two_wanted_cards_of_the_name_are_asked_about_not_removed():
    mew10 = _card("m10", "Mewtwo", "Base Set", "1999", "10")
    mew29 = _card("m29", "Mewtwo", "Legendary Collection", "2002", "29")
    link = {"cards": [mew10, mew29], "ambiguous": True, "entities": [{"kind": "name", "name": "Mewtwo", "exact": True}]}
    st = _removal("remove mewtwo from want list", link, [{"id": "e1", "cardId": "m10"}, {"id": "e2", "cardId": "m29"}])
    assert planner.variable(st, "want_link_id") is None
    answer = collection.wantlist_remove(st)
    assert "Which one" in answer and "#10" in answer and "#29" in answer and "Nothing was removed" in answer


def test_a_removal_without_writes_is_not_run():
    """The card's own entry is found past the list's first page; the removal runs only when writes are on."""
    q = "remove lugia from my want list"
    link = {"cards": [LUGIA9], "best": "l9", "entities": [{"kind": "name", "name": "Lugia", "exact": True}]}
    msgs = [{"role": "user", "content": q},
            {"role": "assistant", "content": "", "tool_calls": [
                {"id": "a", "function": {"name": "catalog_link", "arguments": json.dumps({"text": q, "take": 25})}},
                {"id": "b", "function": {"name": "lists_list", "arguments": json.dumps({"take": 20})}}]},
            {"role": "tool", "tool_call_id": "a", "content": json.dumps(link)},
            {"role": "tool", "tool_call_id": "b", "content": json.dumps(LIST)},
            {"role": "assistant", "content": "", "tool_calls": [
                {"id": "c", "function": {"name": "list_cards_list", "arguments": json.dumps({"listId": "w", "take": 100})}},
                {"id": "d", "function": {"name": "list_cards_list",
                                         "arguments": json.dumps({"listId": "w", "card_id": "l9", "take": 5})}}]},
            {"role": "tool", "tool_call_id": "c", "content": json.dumps({"cards": [], "total_count": 120})},
            {"role": "tool", "tool_call_id": "d", "content": json.dumps({"cards": [{"id": "e2", "cardId": "l9"}]})}]
    out = decide(from_messages(msgs, specs(*ALL)))
    assert out.calls == [] and "allowWrites" in out.answer
    out = decide(from_messages(msgs, specs(*WRITES)))
    assert out.calls == [("list_card_remove", {"listId": "w", "cardId": "e2"})]


@pytest.mark.parametrize("question", ["how much would my want list cost", "total value of my wishlist?",
                                      "whats the bill if i grab everything on my want list"])
def test_what_the_list_would_cost_is_totalled_naming_the_unpriced(question):
    st = planner.understand(from_messages([{"role": "user", "content": question}], specs(*ALL)))
    assert st.intent.name == "wantlist"
    st.results.update({"lists_list": LIST, "list_cards_list": {"cards": [{"cardId": "l9"}, {"cardId": "z4"},
                                                                          {"cardId": "z11"}], "total_count": 3}})
    st.many["wanted"] = [dict(LUGIA9, prices={"raw": 40.0}), dict(ZARD11, prices={"raw": 2.5, "psa-10": 90.0}), ZARD4]
    answer = collection.wantlist(st)
    assert "$42.50" in answer and "No price for 1 card" in answer and "Base Set Charizard #4" in answer


def test_a_follow_up_about_another_card_after_a_want_list_question_asks_the_list():
    for q in ("what about base set blastoise?", "ditto for the base set 2 one?"):
        st = understand(q, ("is base set venusaur on my want list",))
        assert st.intent.name == "wantlist" and collection.asks_membership(st), q


@pytest.mark.parametrize("question", ["wants + jungle scyther 10", "base set gyarados -> want list"])
def test_terse_adds_add(question):
    assert intents.classify(question)[0].name == "wantlist_add"


TIED = [_card(f"t{n}", "Ricky Tiedemann", "2023 Panini Prizm Baseball", "2023", n, matched=["name", "year", "release"])
        for n in ("114", "7", "15")]


def _market(cid: str, count: int) -> dict:
    recs = [{"price": 11.0 + i, "source": "eBay"} for i in range(count)]
    return {"card": {"card_id": cid}, "raw": {"count": count, "records": recs}, "graded": []}


def test_an_unlisted_pick_among_twins_answers_the_one_listed():
    st = planner.understand(from_messages([{"role": "user", "content": "cheapest tiedemann 23 prizm"}], specs(*ALL)))
    st.results.update({"link": {"cards": TIED, "best": "t114", "entities": []}, "marketplace_card": _market("t114", 0)})
    assert planner.PREDICATES["unlisted_pick"](st) and planner.variable(st, "near_ids") == ["t7", "t15"]
    st.many["near_market"] = [_market("t7", 2), _market("t15", 0)]
    answer = market.marketplace(st)
    assert "Ricky Tiedemann #7" in answer and "$11.00" in answer and "#114" not in answer


def test_twins_are_not_read_when_the_number_is_said_or_the_pick_is_listed():
    st = planner.understand(from_messages([{"role": "user", "content": "tiedemann 23 prizm #114 for sale"}],
                                          specs(*ALL)))
    st.results.update({"link": {"cards": TIED, "best": "t114", "entities": []}, "marketplace_card": _market("t114", 0)})
    assert planner.variable(st, "near_ids") is None
    assert "no active marketplace listings" in market.marketplace(st)
    st.results["marketplace_card"] = _market("t114", 1)
    assert not planner.PREDICATES["unlisted_pick"](st)


def test_a_card_past_the_lists_first_page_is_found_on_it():
    q = "is neo genesis lugia on my want list"
    st = planner.understand(from_messages([{"role": "user", "content": q}], specs(*ALL)))
    st.results.update({"lists_list": LIST, "link": {"cards": [LUGIA9], "best": "l9", "entities": []},
                       "list_cards_list": {"cards": [{"id": "e1", "cardId": "v15"}], "total_count": 120}})
    assert planner.variable(st, "card_id") == "l9" and planner.PREDICATES["has_card"](st)
    st.results["listed_card"] = {"cards": [{"id": "e77", "cardId": "l9"}], "total_count": 1}
    assert collection.wantlist(st).startswith("Yes, 2000 Neo Genesis Lugia #9 is on your want list")
