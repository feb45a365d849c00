"""The request as the built-in model sees it: the question, earlier turns, the tools offered and
this turn's tool calls with their results (everything is recomputed from the messages)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

_CONTEXT_ID = re.compile(r"-\s*collectionId:\s*([0-9A-Fa-f-]{36})")


@dataclass
class Conversation:
    question: str
    history: list[str]                     # earlier user questions, oldest first
    tools: set[str]                        # tool names offered in this request
    done: list[tuple[str, dict[str, Any], Any]] = field(default_factory=list)  # this turn's calls
    collection_id: str | None = None
    final: bool = False                    # no tools offered: answer now
    last_answer: str = ""                  # the assistant's previous answer (a question back, maybe)


def text_of(m: dict[str, Any]) -> str:
    c = m.get("content")
    if isinstance(c, list):
        return " ".join(p.get("text", "") for p in c if isinstance(p, dict))
    return c or ""


def from_messages(messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None) -> Conversation:
    users = [i for i, m in enumerate(messages) if m.get("role") == "user"]
    last = users[-1] if users else len(messages)
    question = text_of(messages[last]) if users else ""
    history = [text_of(messages[i]) for i in users[:-1]]
    last_answer = next((text_of(m) for m in reversed(messages[:last]) if m.get("role") == "assistant"
                        and not m.get("tool_calls")), "")
    coll = None
    for m in messages:
        if m.get("role") == "system":
            found = _CONTEXT_ID.search(text_of(m))
            if found:
                coll = found.group(1)
    calls: dict[str, tuple[str, dict[str, Any]]] = {}
    done: list[tuple[str, dict[str, Any], Any]] = []
    for m in messages[last + 1:]:
        if m.get("role") == "assistant":
            for tc in m.get("tool_calls") or []:
                fn = tc.get("function") or {}
                try:
                    args = json.loads(fn.get("arguments") or "{}")
                except ValueError:
                    args = {}
                calls[tc.get("id", "")] = (fn.get("name", ""), args if isinstance(args, dict) else {})
        elif m.get("role") == "tool" and m.get("tool_call_id") in calls:
            name, args = calls[m["tool_call_id"]]
            try:
                result = json.loads(text_of(m))
            except ValueError:
                result = {"error": text_of(m), "code": "INVALID"}
            done.append((name, args, result))
    names = {((t.get("function") or {}).get("name")) for t in tools or []}
    final = not tools or any(m.get("role") == "system" and "without tools" in text_of(m) for m in messages[last + 1:])
    return Conversation(question, history, {n for n in names if n}, done, coll, final, last_answer)
