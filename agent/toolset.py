"""Which tools a turn offers the model, and which it may run.

- Writes: a tool with ``Tool.writes`` (creates, changes or deletes stored data) is neither offered
  nor executed unless the request's context sets ``allowWrites: true``, so text the model reads
  (a listing title, a card name) can never make it delete a collection. Feedback is the one
  exception: it only files a report for review (``APPEND_ONLY``).
- Relevance: a real model gets only the tools relevant to the question, the tools of the question's
  family plus the nearest by sentence embedding of their descriptions, instead of all of them.
"""

from __future__ import annotations

import threading
from typing import Any

from agent import embeddings
from tools._registry import Tool, agent_tools, openai_specs

APPEND_ONLY = frozenset({"feedback_submit", "feedback_general"})
ALWAYS = ("catalog_link", "catalog_card", "catalog_search")
RETRIEVE_K = 14
_LOCK = threading.Lock()
_STATE: dict[str, Any] = {}


def writes_allowed(context: dict[str, Any] | None) -> bool:
    return bool((context or {}).get("allowWrites") is True)


def permitted(tool: Tool, allow_writes: bool) -> bool:
    return tool.agent and (not tool.writes or allow_writes or tool.name in APPEND_ONLY)


def _tool_text(t: Tool) -> str:
    return f"{t.name.replace('_', ' ')}: {t.summary}"


def _tool_index() -> tuple[Any, list[str]] | None:
    if "index" in _STATE:
        return _STATE["index"]
    with _LOCK:
        if "index" not in _STATE:
            enc = embeddings.encoder()
            tools = agent_tools()
            _STATE["index"] = ((embeddings.encode_fixed(enc, [_tool_text(t) for t in tools]), [t.name for t in tools])
                               if enc else None)
        return _STATE["index"]


def relevant(question: str, candidates: list[str], k: int = RETRIEVE_K) -> list[str]:
    """The candidates most relevant to ``question``: the family's tools, then nearest descriptions."""
    from agent.builtin.intents import classify

    intent, _ = classify(question)
    chosen: list[str] = [n for n in ALWAYS if n in candidates]
    if intent is not None:
        for group in intent.steps:
            for step in group:
                chosen += [n for n in step.tools if n in candidates and n not in chosen]
    index = _tool_index()
    if index is not None:
        matrix, names = index
        enc = embeddings.encoder()
        assert enc is not None
        sims = (matrix @ enc.encode([question])[0].numpy()).tolist()
        for _, name in sorted(zip(sims, names), reverse=True):
            if len(chosen) >= k:
                break
            if name in candidates and name not in chosen:
                chosen.append(name)
    return chosen


def specs_for(question: str, context: dict[str, Any] | None, *, retrieve: bool) -> list[dict[str, Any]]:
    allow = writes_allowed(context)
    names = [t.name for t in agent_tools() if permitted(t, allow)]
    if retrieve:
        names = relevant(question, names)
    return openai_specs(names)
