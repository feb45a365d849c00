"""The agent loop: ``run_query(ctx, question, llm, ...)``.

Each round the model gets the system prompt, the conversation history, the question and the
strict tool schemas of the tools ``agent.toolset`` offers: never a data-changing tool unless the
context allows writes (nor is one executed if asked for), and for a real model only the tools
relevant to the question. The tool calls it asks for run through
``tools._registry.invoke`` (the same validation and functions as REST), concurrently, each with a
timeout; results, or errors as ``{"error", "code"}``, go back as tool messages. An unknown tool or
bad arguments is such an error message, never a crash.

The bound: at most ``max_iterations`` tool-calling rounds. If the model still asks for tools after
the last round, or repeats a call it already made (same tool, same arguments), the loop stops
running tools and makes ONE more call without tools, so the model answers with what it has. The
caller always gets an answer; hitting the bound is not an error (``stop_reason`` tells which).
Only a model that cannot be reached after the retries raises (``ModelUnavailable`` -> 503).
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from dataclasses import replace
from typing import Any

import metrics
from agent import prompts, toolset
from agent.llm import Completion, LLMClient, ToolCall
from agent.trace import AgentResult, ToolRecord, TurnRecord
from tools._registry import get_tool, invoke
from tools.context import ToolContext
from tools.errors import ServiceError

log = logging.getLogger("cardwise.agent")

DEFAULT_MAX_ITERATIONS = 5
TOOL_TIMEOUT_S = 20.0
MAX_PARALLEL_TOOLS = 8
MAX_TOOL_RESULT_CHARS = 60_000
FALLBACK_ANSWER = "I could not complete an answer to that question with the information I found."


def _canonical(arguments: str) -> str:
    try:
        return json.dumps(json.loads(arguments or "{}"), sort_keys=True, separators=(",", ":"))
    except ValueError:
        return arguments or ""


def _assistant_message(c: Completion) -> dict[str, Any]:
    # content "" rather than null: some compatible servers reject null content next to tool_calls
    return {"role": "assistant", "content": c.content or "",
            "tool_calls": [{"id": tc.id, "type": "function",
                            "function": {"name": tc.name, "arguments": tc.arguments}} for tc in c.tool_calls]}


def _tool_message(call_id: str, payload: Any) -> dict[str, Any]:
    text = json.dumps(payload, ensure_ascii=False, default=str)
    if len(text) > MAX_TOOL_RESULT_CHARS:
        text = json.dumps({"truncated": True, "preview": text[:MAX_TOOL_RESULT_CHARS]})
    return {"role": "tool", "tool_call_id": call_id, "content": text}


async def _execute(ctx: ToolContext, call: ToolCall, sem: asyncio.Semaphore, timeout_s: float,
                   allow_writes: bool = False) -> tuple[Any, ToolRecord]:
    start = time.perf_counter()
    known = get_tool(call.name)
    code: str | None = None
    if known is None or not known.agent:
        payload: Any = {"error": f"Unknown tool {call.name!r}; use one of the tools offered", "code": "NOT_FOUND"}
        code = "NOT_FOUND"
    elif not toolset.permitted(known, allow_writes):
        # never run a data-changing tool the request did not allow, whatever the model asks
        payload = {"error": f"Tool {call.name} changes stored data and this request does not allow writes "
                            "(context.allowWrites)", "code": "FORBIDDEN"}
        code = "FORBIDDEN"
        log.warning("write refused", extra={"tool": call.name})
    else:
        try:
            async with sem:
                payload = await asyncio.wait_for(invoke(call.name, call.arguments, ctx), timeout_s)
            if payload is None:
                payload = {"ok": True}
        except ServiceError as exc:
            payload, code = exc.as_body(), exc.code
        except asyncio.TimeoutError:
            payload = {"error": f"Tool {call.name} timed out after {timeout_s:g} s", "code": "TIMEOUT"}
            code = "TIMEOUT"
        except asyncio.CancelledError:
            raise
        except Exception:  # noqa: BLE001 - a broken tool is an error message, never a crash
            log.exception("tool failed", extra={"tool": call.name})
            payload, code = {"error": f"Tool {call.name} failed unexpectedly", "code": "INTERNAL_ERROR"}, "INTERNAL_ERROR"
    # executed = the call reached the tool function (known tool, arguments valid)
    executed = known is not None and known.agent and code not in ("VALIDATION_ERROR", "FORBIDDEN")
    record = ToolRecord(call.name, call.arguments, executed, round((time.perf_counter() - start) * 1000, 2), code)
    return payload, record


async def run_query(
    ctx: ToolContext,
    question: str,
    llm: LLMClient,
    *,
    history: list[dict[str, str]] | None = None,
    max_iterations: int = DEFAULT_MAX_ITERATIONS,
    context: dict[str, Any] | None = None,
    tool_timeout_s: float = TOOL_TIMEOUT_S,
) -> AgentResult:
    """Answer ``question`` with tools; always returns an answer unless the model is unreachable."""
    start = time.perf_counter()
    context = {k: v for k, v in (context or {}).items() if v is not None}
    defaults = dict(ctx.defaults)
    if context.get("collectionId"):
        defaults["collectionId"] = context["collectionId"]
    ctx = replace(ctx, defaults=defaults)
    allow_writes = toolset.writes_allowed(context)
    specs = toolset.specs_for(question, context, retrieve=bool(getattr(llm, "retrieve_tools", False)))
    messages: list[dict[str, Any]] = [{"role": "system", "content": prompts.system_message(context)}]
    messages += [{"role": m["role"], "content": m["content"]} for m in (history or [])]
    messages.append({"role": "user", "content": question})
    sem = asyncio.Semaphore(MAX_PARALLEL_TOOLS)
    turns: list[TurnRecord] = []
    tools_used: list[str] = []
    seen: set[tuple[str, str]] = set()
    stop_reason = "max_iterations"
    answer: str | None = None

    for iteration in range(1, max_iterations + 1):
        t0 = time.perf_counter()
        completion = await llm.complete(messages, specs or None)
        turn = TurnRecord(iteration, round((time.perf_counter() - t0) * 1000, 2), True, completion.finish_reason)
        turns.append(turn)
        if not completion.tool_calls:
            answer, stop_reason = completion.content, "answer"
            break
        messages.append(_assistant_message(completion))
        repeated = [c for c in completion.tool_calls if (c.name, _canonical(c.arguments)) in seen]
        fresh = [c for c in completion.tool_calls if c not in repeated]
        results = await asyncio.gather(*(_execute(ctx, c, sem, tool_timeout_s, allow_writes) for c in fresh))
        by_id = {c.id: r for c, r in zip(fresh, results)}
        for call in completion.tool_calls:
            if call.id in by_id and call not in repeated:
                payload, record = by_id[call.id]
                seen.add((call.name, _canonical(call.arguments)))
                if record.executed:
                    tools_used.append(call.name)
            else:
                payload = {"error": "Repeated identical call; use the earlier result", "code": "REPEATED_CALL"}
                record = ToolRecord(call.name, call.arguments, False, 0.0, "REPEATED_CALL")
            turn.tool_calls.append(record)
            messages.append(_tool_message(call.id, payload))
        log.info("agent turn", extra={"iteration": iteration, "tools": [c.name for c in completion.tool_calls],
                                      "errors": [r.error_code for r in turn.tool_calls if r.error_code]})
        if repeated:
            stop_reason = "repeated_call"
            break

    if answer is None:
        note = prompts.REPEAT_NOTE if stop_reason == "repeated_call" else prompts.LIMIT_NOTE
        messages.append({"role": "system", "content": note})
        t0 = time.perf_counter()
        final = await llm.complete(messages, None)
        turns.append(TurnRecord(len(turns) + 1, round((time.perf_counter() - t0) * 1000, 2), False,
                                final.finish_reason))
        answer = final.content if not final.tool_calls else None
    answer = (answer or "").strip() or FALLBACK_ANSWER
    elapsed = round((time.perf_counter() - start) * 1000, 2)
    log.info("agent run", extra={"iterations": len(turns), "stop_reason": stop_reason, "tools_used": tools_used,
                                 "duration_ms": elapsed})
    metrics.AGENT_ITERATIONS.observe(len(turns))
    metrics.AGENT_QUESTIONS.labels(outcome=stop_reason).inc()
    return AgentResult(answer=answer, tools_used=tools_used, processing_time_ms=elapsed,
                       iterations=sum(1 for t in turns if t.with_tools), stop_reason=stop_reason, turns=turns)
