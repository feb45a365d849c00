"""The agent loop with a scripted model: tools, errors, concurrency, the bound and history."""

from __future__ import annotations

import asyncio

import pytest
from pydantic import Field

from agent.loop import run_query
from tests.agent.fakes import make_tool
from tests.agent.scripted import ScriptedLLM, UnexpectedModelCall, answer, call, tools
from tools import _registry
from tools._models import In, LooseUUIDStr
from tools.errors import ServiceError

PSA = "e3f0c1ab-0000-5000-8000-000000000000"


class Nothing(In):
    pass


class WithCollection(In):
    collectionId: LooseUUIDStr
    note: str | None = Field(None, max_length=10)


@pytest.fixture
def extra_tools(monkeypatch):
    """Small tools that exist only in these tests."""
    _registry.all_tools()
    gate = asyncio.Event()
    seen: dict[str, object] = {}

    async def wait_for_b(ctx, q: Nothing):
        """Waits until probe_b has started (deadlocks unless both run concurrently)."""
        await asyncio.wait_for(gate.wait(), 2)
        return {"tool": "a"}

    async def open_gate(ctx, q: Nothing):
        """Opens the gate."""
        gate.set()
        return {"tool": "b"}

    async def sleeps(ctx, q: Nothing):
        """Sleeps past any timeout."""
        await asyncio.sleep(30)

    async def breaks(ctx, q: Nothing):
        """Raises an unexpected exception."""
        raise RuntimeError("boom")

    async def collection_probe(ctx, q: WithCollection):
        """Echoes the collection it was given."""
        seen["collectionId"] = q.collectionId
        return {"collectionId": q.collectionId}

    for name, fn, model in [("probe_a", wait_for_b, Nothing), ("probe_b", open_gate, Nothing),
                            ("probe_sleep", sleeps, Nothing), ("probe_break", breaks, Nothing),
                            ("collection_probe", collection_probe, WithCollection)]:
        monkeypatch.setitem(_registry._REGISTRY, name, make_tool(name, fn, model))
    return seen


async def test_answer_without_tools(ctx):
    llm = ScriptedLLM(answer("Hello"))
    r = await run_query(ctx, "hi", llm)
    assert (r.answer, r.tools_used, r.stop_reason, r.iterations) == ("Hello", [], "answer", 1)
    assert r.processing_time_ms >= 0
    llm.assert_complete()


async def test_the_model_gets_system_prompt_history_question_and_strict_tool_schemas(ctx):
    llm = ScriptedLLM(answer("ok"))
    history = [{"role": "user", "content": "first"}, {"role": "assistant", "content": "reply"}]
    await run_query(ctx, "second", llm, history=history)
    msgs = llm.requests[0]["messages"]
    assert [m["role"] for m in msgs] == ["system", "user", "assistant", "user"]
    assert [m["content"] for m in msgs[1:]] == ["first", "reply", "second"]
    assert "Cardwise" in msgs[0]["content"]
    specs = {s["function"]["name"]: s for s in llm.requests[0]["tools"]}
    assert "grades_companies" in specs
    params = specs["grades_types"]["function"]["parameters"]
    assert params["additionalProperties"] is False and specs["grades_types"]["function"]["strict"] is True


async def test_tool_results_go_back_and_tools_used_is_in_execution_order(ctx):
    llm = ScriptedLLM(tools(call("grades_companies")), tools(call("catalog_statistics"), call("catalog_segments")),
                      answer("done"))
    r = await run_query(ctx, "q", llm)
    assert r.tools_used == ["grades_companies", "catalog_statistics", "catalog_segments"]
    assert r.answer == "done" and r.iterations == 3
    first = llm.tool_messages(1)[0]
    assert any(c["abbreviation"] == "PSA" for c in first["companies"])
    last = llm.requests[2]["messages"]
    assert [m["role"] for m in last[-3:]] == ["assistant", "tool", "tool"]
    assert last[-3]["content"] == ""  # never null next to tool_calls
    llm.assert_complete()


async def test_independent_calls_run_concurrently(ctx, extra_tools):
    llm = ScriptedLLM(tools(call("probe_a"), call("probe_b")), answer("both"))
    r = await run_query(ctx, "q", llm)
    assert r.tools_used == ["probe_a", "probe_b"]
    assert llm.tool_messages(1) == [{"tool": "a"}, {"tool": "b"}]


async def test_a_tool_error_becomes_a_message_the_model_can_act_on(ctx):
    llm = ScriptedLLM(tools(call("grades_types", {"companyId": "0b0b0b0b-0000-4000-8000-000000000000"})),
                      answer("That company does not exist."))
    r = await run_query(ctx, "q", llm)
    err = llm.tool_messages(1)[0]
    assert err["code"] == "NOT_FOUND" and "not found" in err["error"]
    assert r.tools_used == ["grades_types"]  # it ran, and failed
    assert r.answer == "That company does not exist."


async def test_unknown_tool_is_an_error_message_not_a_crash(ctx):
    llm = ScriptedLLM(tools(call("launch_rockets", {"n": 1})), answer("I can't do that."))
    r = await run_query(ctx, "q", llm)
    assert llm.tool_messages(1) == [{"error": "Unknown tool 'launch_rockets'; use one of the tools offered",
                                     "code": "NOT_FOUND"}]
    assert r.tools_used == [] and r.answer == "I can't do that."


@pytest.mark.parametrize("args", ['{"companyId": "not-a-uuid"}', "{not json", "[1, 2]", '{"companyId": 5}',
                                  '{"companyId": "0b0b0b0b-0000-4000-8000-000000000000", "extra": 1}', '{}'])
async def test_bad_arguments_are_validation_errors(ctx, args):
    llm = ScriptedLLM(tools(call("grades_types", args)), answer("fixed"))
    r = await run_query(ctx, "q", llm)
    assert llm.tool_messages(1)[0]["code"] == "VALIDATION_ERROR"
    assert r.tools_used == [] and r.answer == "fixed"


async def test_tool_timeout_and_unexpected_exception_are_messages(ctx, extra_tools):
    llm = ScriptedLLM(tools(call("probe_sleep"), call("probe_break")), answer("sorry"))
    r = await run_query(ctx, "q", llm, tool_timeout_s=0.05)
    msgs = llm.tool_messages(1)
    assert msgs[0]["code"] == "TIMEOUT" and msgs[1]["code"] == "INTERNAL_ERROR"
    assert "boom" not in msgs[1]["error"]
    assert r.answer == "sorry"


async def test_repeated_identical_call_stops_early_with_a_final_answer(ctx):
    llm = ScriptedLLM(tools(call("grades_companies")), tools(call("grades_companies", id="again")),
                      answer("Here is what I found."))
    r = await run_query(ctx, "q", llm, max_iterations=5)
    assert r.stop_reason == "repeated_call"
    assert r.tools_used == ["grades_companies"]
    assert llm.requests[-1]["tools"] is None  # the final call offers no tools
    assert llm.tool_messages(-1)[-1]["code"] == "REPEATED_CALL"
    assert r.answer == "Here is what I found."
    llm.assert_complete()


async def test_bound_of_one_iteration_still_answers(ctx):
    llm = ScriptedLLM(tools(call("catalog_statistics")), answer("Partial answer."))
    r = await run_query(ctx, "q", llm, max_iterations=1)
    assert (r.answer, r.stop_reason, r.iterations, r.tools_used) == ("Partial answer.", "max_iterations", 1,
                                                                      ["catalog_statistics"])
    assert llm.requests[1]["tools"] is None
    assert "tool-calling round" in llm.requests[1]["messages"][-1]["content"]
    llm.assert_complete()


async def test_bound_of_ten_iterations(ctx):
    turns = [tools(call("catalog_segments", {"take": n})) for n in range(1, 11)]
    llm = ScriptedLLM(*turns, answer("Enough."))
    r = await run_query(ctx, "q", llm, max_iterations=10)
    assert r.iterations == 10 and len(r.tools_used) == 10 and r.stop_reason == "max_iterations"
    assert r.answer == "Enough."
    llm.assert_complete()


async def test_a_model_that_keeps_calling_tools_after_the_bound_gets_a_fallback_answer(ctx):
    llm = ScriptedLLM(tools(call("catalog_statistics")), tools(call("catalog_segments")))
    r = await run_query(ctx, "q", llm, max_iterations=1)
    assert r.answer.startswith("I could not complete")
    llm.assert_complete()


async def test_context_collection_is_the_default_collection(ctx, extra_tools):
    cid = "5b0c1c4e-3f7a-4d2b-9a51-1f0e2d3c4b5a"
    llm = ScriptedLLM(tools(call("collection_probe", {"collectionId": None})), answer("ok"))
    r = await run_query(ctx, "q", llm, context={"collectionId": cid, "userId": "u1"})
    assert extra_tools["collectionId"] == cid and r.tools_used == ["collection_probe"]
    assert cid in llm.requests[0]["messages"][0]["content"]
    assert ctx.defaults == {}  # the caller's context is not changed


async def test_model_errors_propagate_as_model_unavailable(ctx):
    from agent.errors import ModelUnavailable

    llm = ScriptedLLM(ModelUnavailable("down"))
    with pytest.raises(ModelUnavailable):
        await run_query(ctx, "q", llm)


async def test_scripted_llm_complains_about_unexpected_calls(ctx):
    llm = ScriptedLLM(tools(call("catalog_statistics")))
    with pytest.raises(UnexpectedModelCall):
        await run_query(ctx, "q", llm)


async def test_service_error_codes_are_stable():
    assert ServiceError("TIMEOUT", "x").status == 408
