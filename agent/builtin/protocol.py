"""The Chat Completions wrapping of the planner: request JSON in, ChatCompletion JSON out."""

from __future__ import annotations

import hashlib
import json
import time
from typing import Any

from agent.builtin.conversation import from_messages
from agent.builtin.planner import decide

MODEL = "cardwise-builtin"


def _id(prefix: str, *parts: Any) -> str:
    return prefix + hashlib.sha1(json.dumps(parts, sort_keys=True, default=str).encode()).hexdigest()[:16]


def handle_chat(body: dict[str, Any]) -> dict[str, Any]:
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages:
        raise ValueError("messages must be a non-empty array")
    tools = body.get("tools") if body.get("tool_choice") != "none" else None
    decision = decide(from_messages(messages, tools))
    turn = len(messages)
    if decision.calls:
        calls = [{"id": _id("call_", turn, i, name, args), "type": "function",
                  "function": {"name": name, "arguments": json.dumps(args, sort_keys=True)}}
                 for i, (name, args) in enumerate(decision.calls)]
        message: dict[str, Any] = {"role": "assistant", "content": None, "tool_calls": calls}
        finish = "tool_calls"
    else:
        message = {"role": "assistant", "content": decision.answer or ""}
        finish = "stop"
    return {"id": _id("chatcmpl-", messages), "object": "chat.completion", "created": int(time.time()),
            "model": body.get("model") or MODEL,
            "choices": [{"index": 0, "message": message, "finish_reason": finish, "logprobs": None}],
            "usage": {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0}}


def handle_chat_json(raw: bytes | str) -> tuple[int, dict[str, Any]]:
    """(status, body) for a raw request body, as an HTTP server would answer it."""
    try:
        body = json.loads(raw or b"{}")
        if not isinstance(body, dict):
            raise ValueError("the body must be a JSON object")
        return 200, handle_chat(body)
    except ValueError as exc:
        return 400, {"error": {"message": str(exc), "type": "invalid_request_error", "code": None}}
