"""The built-in model on its own: entity parsing, intent table, tool availability, follow-ups."""

from __future__ import annotations

import json

import pytest

from agent.builtin import intents
from agent.builtin.parse import parse
from agent.builtin.planner import decide, from_messages
from agent.builtin.protocol import handle_chat, handle_chat_json

ALL = ["catalog_cards", "catalog_card", "population_card", "grades_companies", "pricing_card", "marketplace_card",
       "collection_analytics", "collections_list", "feedback_general", "feedback_submit", "grades_types",
       "grades_grades", "catalog_statistics", "catalog_segments"]


def specs(*names):
    return [{"type": "function", "function": {"name": n, "parameters": {}}} for n in names]


def first_calls(question, offered=ALL, history=(), system="sys"):
    msgs = [{"role": "system", "content": system}]
    for q in history:
        msgs += [{"role": "user", "content": q}, {"role": "assistant", "content": "..."}]
    msgs.append({"role": "user", "content": question})
    return decide(from_messages(msgs, specs(*offered)))


@pytest.mark.parametrize("text,expect", [
    ("What parallels does 2024 Topps Chrome Shohei Ohtani #1 have?",
     dict(name="Shohei Ohtani", number="1", year="2024", release_words=["topps", "chrome"])),
    ("How many PSA 10 Base Set Charizards are there?", dict(name="Charizards", company="PSA", grade="10")),
    ("BGS 9.5 population of Paul Skenes #RA-PS", dict(name="Paul Skenes", company="BGS", grade="9.5", number="RA-PS")),
    ("Break down my collection by player", dict(name=None, group_by="player")),
    ("What did Aaron Judge sell for in the last 3 months?", dict(name="Aaron Judge", period="90d")),
    ("Beckett 10 Griffey", dict(company="BGS", grade="10", name="Griffey")),
])
def test_parse(text, expect):
    e = parse(text)
    for k, v in expect.items():
        assert getattr(e, k) == v, (k, getattr(e, k))


def test_card_question_starts_with_a_catalog_search_and_company_lookup_in_parallel():
    d = first_calls("How many PSA 10 Base Set Charizards are there?")
    assert [c[0] for c in d.calls] == ["catalog_cards", "grades_companies"]
    assert d.calls[0][1] == {"name": "Charizards", "take": 25}


def test_missing_capability_is_said_plainly():
    d = first_calls("How many PSA 10 Base Set Charizards are there?", offered=["grades_companies"])
    assert d.calls == [] and "isn't available" in d.answer and "catalog_cards" in d.answer
    d = first_calls("What is my collection worth?", offered=["catalog_cards"])
    assert "isn't available" in d.answer


def test_follow_up_inherits_the_card_and_the_intent():
    d = first_calls("and its PSA 9?", history=["How many PSA 10 Base Set Charizards are there?"])
    assert d.calls[0] == ("catalog_cards", {"name": "Charizards", "take": 25})


def test_collection_id_from_the_system_context_is_used():
    cid = "5b0c1c4e-3f7a-4d2b-9a51-1f0e2d3c4b5a"
    d = first_calls("What is my collection worth?", system=f"sys\n- collectionId: {cid}\n- userId: u")
    assert d.calls == [("collection_analytics", {"collectionId": cid})]


def test_intent_table_names_only_known_shapes():
    for intent in intents.INTENTS + (intents.DETAILS,):
        for group in intent.steps:
            for step in group:
                assert step.tools and all("_" in t for t in step.tools)
                assert step.when is None or step.when in __import__("agent.builtin.planner",
                                                                    fromlist=["PREDICATES"]).PREDICATES


def test_protocol_wraps_calls_deterministically():
    body = {"model": "x", "messages": [{"role": "user", "content": "What grading companies are there?"}],
            "tools": specs("grades_companies")}
    a, b = handle_chat(body), handle_chat(json.loads(json.dumps(body)))
    assert a["choices"][0]["finish_reason"] == "tool_calls"
    assert a["choices"][0]["message"]["tool_calls"] == b["choices"][0]["message"]["tool_calls"]
    body["tool_choice"] = "none"
    assert handle_chat(body)["choices"][0]["finish_reason"] == "stop"
    assert handle_chat_json(b"not json")[0] == 400
