"""The built-in model on its own: reading questions, the family table against the registry, tool
availability, follow-ups, the protocol."""

from __future__ import annotations

import json

import pytest
from pydantic import TypeAdapter

from agent.builtin import classifier, intents, planner
from agent.builtin.conversation import from_messages, respell
from agent.builtin.planner import decide
from agent.builtin.protocol import handle_chat, handle_chat_json
from tools._linking import read, runs
from tools._registry import get_tool

ALL = ["catalog_link", "catalog_card", "population_card", "grades_companies", "pricing_card", "marketplace_card",
       "collection_analytics", "collections_list", "feedback_general", "feedback_submit", "grades_types",
       "grades_grades", "catalog_statistics", "catalog_segments", "lists_list", "list_cards_list"]


def specs(*names):
    return [{"type": "function", "function": {"name": n, "parameters": {}}} for n in names]


def understand(question: str, history: tuple[str, ...] = (), offered=ALL):
    """The planner's reading of ``question`` after the earlier questions ``history``."""
    msgs = []
    for q in history:
        msgs += [{"role": "user", "content": q}, {"role": "assistant", "content": "..."}]
    msgs.append({"role": "user", "content": question})
    return planner.understand(from_messages(msgs, specs(*offered)))


def first_calls(question, offered=ALL, history=(), system="sys"):
    msgs = [{"role": "system", "content": system}]
    for q in history:
        msgs += [{"role": "user", "content": q}, {"role": "assistant", "content": "..."}]
    msgs.append({"role": "user", "content": question})
    return decide(from_messages(msgs, specs(*offered)))


@pytest.mark.parametrize("text,expect", [
    ("1986 fleer jordan rookie", dict(year="1986", attributes=["RC"])),
    ("1986-87 Fleer Jordan", dict(year="1986", season="1986-87")),
    ("griffey jr 89 upper deck psa10", dict(year="1989", company="PSA", grade="10")),
    ("how many psa 10s of pikachu 58/102", dict(number="58", set_total=102, company="PSA", grade="10")),
    ("Paul Skenes #RA-PS BGS 9.5", dict(number="RA-PS", company="BGS", grade="9.5")),
    ("any gem mint griffey autos under 50 bucks", dict(grade="10", attributes=["AU"], max_price=50.0)),
    ("cheapest ozzie smith", dict(order="cheapest")),
    ("rarest parallel of the ohtani", dict(order="rarest")),
    ("trend over the last year", dict(period_days=365)),
    ("the 1999 one, #4", dict(year="1999", number="4")),
    ("the second one", dict(ordinal=2)),
    ("random pokemon card", dict(segment="Pokemon")),
])
def test_reading_constraints(text, expect):
    r = read(text)
    for k, v in expect.items():
        assert getattr(r, k) == v, (k, getattr(r, k))


@pytest.mark.parametrize("text,expect", [
    ("cheapest ozzie smith", [["ozzie", "smith"]]),
    ("nolan ryan under bucks", [["nolan", "ryan"]]),
    ("is the charzard going up", [["charzard"]]),
    ("what about his 1990 card", []),
    ("how close am I to finishing base set", [["base", "set"]]),
    ("Is the Griffey or the Bonds rookie worth more?", [["Griffey"], ["Bonds"]]),
])
def test_question_and_intent_words_are_never_names(text, expect):
    assert runs(read(text)) == expect


def test_card_question_starts_with_linking_and_company_lookup_in_parallel():
    d = first_calls("How many PSA 10 Base Set Charizards are there?")
    assert [c[0] for c in d.calls] == ["catalog_link", "grades_companies"]
    assert d.calls[0][1]["text"] == "How many PSA 10 Base Set Charizards are there?"


def test_missing_capability_is_said_plainly():
    d = first_calls("How many PSA 10 Base Set Charizards are there?", offered=["grades_companies"])
    assert d.calls == [] and "isn't available" in d.answer and "catalog_link" in d.answer
    d = first_calls("What is my collection worth?", offered=["catalog_link"])
    assert "isn't available" in d.answer


def test_a_write_that_is_not_offered_says_writes_are_off():
    d = first_calls("add the base set venusaur to my want list", offered=ALL)
    assert [c[0] for c in d.calls] == ["catalog_link", "lists_list"]
    link = {"cards": [{"id": "c1", "name": "Venusaur", "score": 9}], "best": "c1", "entities": []}
    msgs = [{"role": "user", "content": "add the base set venusaur to my want list"},
            {"role": "assistant", "content": "", "tool_calls": [
                {"id": "a", "function": {"name": "catalog_link", "arguments": json.dumps(d.calls[0][1])}},
                {"id": "b", "function": {"name": "lists_list", "arguments": json.dumps(d.calls[1][1])}}]},
            {"role": "tool", "tool_call_id": "a", "content": json.dumps(link)},
            {"role": "tool", "tool_call_id": "b", "content": json.dumps({"lists": [{"id": "l1", "name": "Want list"}]})}]
    out = decide(from_messages(msgs, specs(*ALL)))
    assert out.calls == [] and "allowWrites" in out.answer


def test_follow_up_links_with_the_earlier_questions():
    d = first_calls("and the PSA 9?", history=["How many PSA 10 Base Set Charizards are there?"])
    assert d.calls[0][0] == "catalog_link"
    assert d.calls[0][1]["history"] == ["How many PSA 10 Base Set Charizards are there?"]
    st = planner.understand(from_messages([{"role": "user", "content": "How many PSA 10 Base Set Charizards?"},
                                           {"role": "assistant", "content": "..."},
                                           {"role": "user", "content": "and the PSA 9?"}], specs(*ALL)))
    assert st.intent.name == "population" and st.ent.grade == "9"


def test_reply_to_which_one_is_linked_with_the_question_it_answers():
    msgs = [{"role": "user", "content": "griffey rookie price"},
            {"role": "assistant", "content": "I found 3 cards that fit equally well: ... Which one do you mean?"},
            {"role": "user", "content": "the 1989 one"}]
    d = decide(from_messages(msgs, specs(*ALL)))
    assert d.calls[0] == ("catalog_link", {"text": "griffey rookie price the 1989 one",
                                           "history": ["griffey rookie price"], "take": 10})


def test_collection_id_from_the_system_context_is_used():
    cid = "5b0c1c4e-3f7a-4d2b-9a51-1f0e2d3c4b5a"
    d = first_calls("What is my collection worth?", system=f"sys\n- collectionId: {cid}\n- userId: u")
    assert d.calls == [("collection_analytics", {"collectionId": cid})]


def test_out_of_scope_says_what_it_can_do():
    d = first_calls("what's the weather tomorrow")
    assert d.calls == [] and "I can " in d.answer


def _field(model, key):
    fields = model.model_fields
    return fields.get(key) or next((f for f in fields.values() if f.alias == key), None)


def test_every_tool_an_intent_calls_exists_and_its_literal_arguments_validate():
    for intent in intents.INTENTS:
        for group in intent.steps:
            for step in group:
                assert step.when is None or step.when in planner.PREDICATES, (intent.name, step.when)
                for name in step.tools:
                    tool = get_tool(name)
                    assert tool is not None, f"{intent.name}: no tool {name}"
                    for key, value in step.args.items():
                        f = _field(tool.input_model, key)
                        assert f is not None, f"{intent.name}: {name} has no argument {key}"
                        if isinstance(value, str) and value.startswith("$"):
                            continue
                        TypeAdapter(f.annotation).validate_python(value)
                    required = [k for k, f in tool.input_model.model_fields.items() if f.is_required()]
                    given = {(_field(tool.input_model, k).alias or k) for k in step.args} | set(step.args)
                    for k in required:
                        alias = tool.input_model.model_fields[k].alias or k
                        assert k in given or alias in given or k in ("collection_id",), (intent.name, name, k)


def test_protocol_wraps_calls_deterministically():
    body = {"model": "x", "messages": [{"role": "user", "content": "What grading companies are there?"}],
            "tools": specs("grades_companies")}
    a, b = handle_chat(body), handle_chat(json.loads(json.dumps(body)))
    assert a["choices"][0]["finish_reason"] == "tool_calls"
    assert a["choices"][0]["message"]["tool_calls"] == b["choices"][0]["message"]["tool_calls"]
    body["tool_choice"] = "none"
    assert handle_chat(body)["choices"][0]["finish_reason"] == "stop"
    assert handle_chat_json(b"not json")[0] == 400


@pytest.mark.parametrize("text,company,grade", [
    ("2008 topps josh beckett 555", None, None),          # a player's surname, not the grading company
    ("what grades does beckett use", "BGS", None),
    ("how many gem mint shuckle have been graded", "PSA", "10"),   # gem mint with no company: PSA 10
    ("bgs gem mint jordan", "BGS", "10"),
])
def test_company_words_in_names_and_gem_mint(text, company, grade):
    r = read(text)
    assert (r.company, r.grade) == (company, grade)


@pytest.mark.parametrize("text,grade,number", [
    ("how much is the 89 upper deck griffey in a 9", "9", None),   # a grade, not card #9
    ("how many 10s are there of the griffey rookie", "10", None),
    ("what's it worth graded 8", "8", None),
    ("how many tens", "10", None),
    ("charizard 4", None, "4"),                                    # a bare number is still a card number
    ("is there a 1 of 1", None, "1"),
    ("cards from the 90s", None, None),
])
def test_a_grade_without_its_company_is_read_as_psa(text, grade, number):
    r = read(text)
    assert (r.grade, r.number) == (grade, number)
    assert r.company == ("PSA" if grade else None)


@pytest.mark.parametrize("text,year,season", [
    ("gretzky rookie 79-80 topps", "1979", "1979-80"),
    ("1986-87 fleer jordan", "1986", "1986-87"),
    ("pikachu 58/102", None, None),
])
def test_seasons_written_short(text, year, season):
    r = read(text)
    assert (r.year, r.season) == (year, season)


def test_constraints_are_the_reading_without_its_words():
    r = read("cheapest 1989 upper deck griffey psa 10 under $50")
    c = r.constraints(segment="Baseball").model_dump(by_alias=True)
    assert c["year"] == "1989" and c["grade"] == "10" and c["maxPrice"] == 50.0 and c["segment"] == "Baseball"
    assert "tokens" not in c and "text" not in c


def test_everyday_words_are_not_misspelt_names():
    from store.search.index import NameHit
    from tools.catalog_link import _cover, _typo_hit

    beeter = NameHit(kind="name", name="Clayton Beeter", score=4.5, exact=False, distance=1, count=3, ids=("x",))
    assert _typo_hit(beeter, ["better"])                       # "is bgs 10 better than psa 10"
    assert not _typo_hit(beeter, ["beter"])                    # a misspelt name stays a name
    assert _cover(["mark", "mcguire"], "Mark McGwire") == 1
    assert _cover(["jackson", "holiday"], "Jackson Holliday") == 1
    assert _cover(["mark", "mcguire"], "Mark Grace") is None


def test_follow_up_without_card_words_is_about_the_earlier_card():
    d = first_calls("what does a psa 10 sell for", history=["2008 topps josh beckett 555"])
    assert d.calls and d.calls[0][0] == "catalog_link"
    assert d.calls[0][1]["history"] == ["2008 topps josh beckett 555"]


@pytest.mark.parametrize("question,family", [
    ("suggestion: let me export my collection to csv", "feedback"),
    ("found a bug - my want list doesn't show graded cards", "feedback"),
    ("good morning!", "unknown"),
    ("thank you so much", "unknown"),
    ("john kruk 89 fleer", "details"),
    ("what's a psa 9 called", "grades"),
    ("pop count for base set alakazam", "population"),
    ("the price on the griffey rookie is wrong", "feedback"),
    ("you have the wrong release date for jungle", "feedback"),
    ("report that a card is missing from 1989 upper deck", "feedback"),
    ("what grade is near mint", "grades"),
    ("what's a 9 called at psa", "grades"),
    ("how many blue wave prizms exist in 2021 prizm", "parallels"),
    ("add it to my list", "wantlist_add"),
    ("complaint: search is too slow for me", "feedback"),
    ("super, thanks for the help", "unknown"),
    ("which is the better card value-wise in psa 9: light azumarill or light arcanine", "price_compare"),
    ("whats on my wnat list", "wantlist"),       # a mistyped intent word is put right
    ("lowest grade from bekett", "grades"),
    ("i'm a rookie collector, where do i start", "help"),
    ("can you grade my card for me", "unknown"),
    ("what am i missing from 1995 pinnacle", "set_missing"),
    ("what subsets/inserts came in 1988 fleer baseball", "set_facts"),
    ("is the price of the shining charizard wrong? it seems way too high", "feedback"),
    ("charizard or blastoise base set which sells for more", "price_compare"),
])
def test_families_settled_by_their_words(question, family):
    from agent.builtin.conversation import respell

    intent, _ = intents.classify(respell(question))
    assert intent is not None and intent.name == family


def _ent(name, phrase, exact=False, kind="name"):
    from tools.catalog_link import LinkedEntity
    return LinkedEntity(kind=kind, name=name, phrase=phrase, score=1.0, exact=exact, count=1, ids=["x"])


def test_neighbouring_words_of_different_names_are_not_linked():
    from tools.catalog_link import _drop_split_names
    lebron, james = [_ent("Juan LeBron", "lebron")], [_ent("James Wood", "james"), _ent("Dion James", "james")]
    ents, unlinked = lebron + james, []
    _drop_split_names([(0, 1, lebron), (1, 1, james)], ents, unlinked, ["lebron", "james"])
    assert ents == [] and unlinked == ["lebron", "james"]
    # a misspelt first name that belongs with the surname next to it stays
    ozzy, smith = [_ent("Izzy Molina", "ozzy")], [_ent("Ozzie Smith", "smith"), _ent("Lee Smith", "smith")]
    ents, unlinked = ozzy + smith, []
    _drop_split_names([(0, 1, ozzy), (1, 1, smith)], ents, unlinked, ["ozzy", "smith"])
    assert len(ents) == 3 and unlinked == []


OWNED = {"groups": [{"topCards": [
    {"cardId": "c1", "cardName": "Charizard", "releaseName": "Base Set", "releaseYear": "1999", "buyPrice": "450.00",
     "currentValue": "5124.50"},
    {"cardId": "c2", "cardName": "Shining Charizard", "releaseName": "Neo Destiny", "releaseYear": "2002",
     "buyPrice": "700.00", "currentValue": "510.50"}]}]}


@pytest.mark.parametrize("question,says,not_says", [
    ("which of my cards are going up?", "Charizard (1999 Base Set) (+$4,674.50)", "Shining"),
    ("did i make money on my shining charizard?", "Shining Charizard (2002 Neo Destiny) is down $189.50", "$4,674"),
    ("how is my base set charizard doing vs what i paid", "is up $4,674.50", "Shining"),
])
def test_my_cards_against_what_i_paid(question, says, not_says):
    from agent.builtin.answers.collection import collection_roi
    st = planner.understand(from_messages([{"role": "user", "content": question}], specs(*ALL)))
    assert st.intent.name == "collection_roi"
    st.results["owned"] = OWNED
    answer = collection_roi(st)
    assert says in answer and not_says not in answer


@pytest.mark.parametrize("a,b,expect", [
    ("charizard", "blastoise base set which sells for more", ["charizard base set", "blastoise base set which sells for more"]),
    ("is the charizard", "blastoise from base set", ["is the charizard from base set", "blastoise from base set"]),
    ("1989 griffey", "bonds", ["1989 griffey", "1989 bonds"]),
])
def test_comparison_sides_share_words_said_once(a, b, expect):
    from agent.builtin.planner import _share
    assert _share([a, b]) == expect


WANTS = {"cards": [{"cardId": "v15"}, {"cardId": "m10"}], "total_count": 2}
VENUSAUR = {"id": "v15", "name": "Venusaur", "releaseName": "Base Set", "releaseYear": "1999", "number": "15"}
LUGIA = {"id": "l9", "name": "Lugia", "releaseName": "Neo Genesis", "releaseYear": "2000", "number": "9"}


@pytest.mark.parametrize("question,card,says", [
    ("the base set venusaur - did that make it onto my wants?", VENUSAUR, "Yes, 1999 Base Set Venusaur #15"),
    ("lugia neo genesis... already on my want list or not?", LUGIA, "No, 2000 Neo Genesis Lugia #9 is not on"),
])
def test_a_card_asked_about_is_looked_for_on_the_want_list(question, card, says):
    from agent.builtin.answers.collection import wantlist
    st = planner.understand(from_messages([{"role": "user", "content": question}], specs(*ALL)))
    assert st.intent.name == "wantlist" and planner.PREDICATES["asks_membership"](st)
    st.results.update({"lists_list": {"lists": [{"id": "w", "name": "Want list"}]}, "list_cards_list": WANTS,
                       "link": {"cards": [card], "best": card["id"], "entities": []}})
    st.many["wanted"] = [VENUSAUR]
    assert says in wantlist(st)


def test_a_want_list_read_out_links_no_card():
    st = planner.understand(from_messages([{"role": "user", "content": "i'm a seeker of old stuff. anyway show me my "
                                                                       "want list"}], specs(*ALL)))
    assert st.intent.name == "wantlist" and not planner.PREDICATES["asks_membership"](st)


def test_my_other_words_do_not_make_a_catalog_fact_about_my_collection():
    intent, _ = intents.classify("a storm knocked my power out so i missed it - when did evolving skies come out")
    assert intent is not None and intent.name == "set_facts"


def test_swapped_letters_count_as_one_edit_in_both_spell_checks():
    assert classifier.one_edit("crad", "card") and classifier.one_edit("colection", "collection")
    assert not classifier.one_edit("card", "card") and not classifier.one_edit("cards", "crab")
    assert respell("best crad i got?") == "best card i got?"
