"""``ScriptedLLM``: a queue of model turns for loop tests, with a record of every request and
``assert_complete()`` to check the script was used up (after openai-agents' ScriptedModel)."""

from __future__ import annotations

import json
from typing import Any

from agent.llm import Completion, ToolCall


def call(name: str, args: dict[str, Any] | str | None = None, id: str | None = None) -> ToolCall:
    text = args if isinstance(args, str) else json.dumps(args or {})
    return ToolCall(id=id or f"call_{name}_{abs(hash(text)) % 10**8}", name=name, arguments=text)


def tools(*calls: ToolCall) -> Completion:
    return Completion(content=None, tool_calls=list(calls), finish_reason="tool_calls")


def answer(text: str) -> Completion:
    return Completion(content=text, finish_reason="stop")


class UnexpectedModelCall(AssertionError):
    pass


class ScriptedLLM:
    def __init__(self, *turns: Completion | BaseException) -> None:
        self.turns = list(turns)
        self.requests: list[dict[str, Any]] = []

    async def complete(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None) -> Completion:
        self.requests.append({"messages": [dict(m) for m in messages], "tools": tools})
        if not self.turns:
            raise UnexpectedModelCall(f"no scripted turn left for request {len(self.requests)}")
        turn = self.turns.pop(0)
        if isinstance(turn, BaseException):
            raise turn
        return turn

    def assert_complete(self) -> None:
        assert not self.turns, f"{len(self.turns)} scripted turns were not used"

    def tool_messages(self, request: int = -1) -> list[dict[str, Any]]:
        return [json.loads(m["content"]) for m in self.requests[request]["messages"] if m["role"] == "tool"]
