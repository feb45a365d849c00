"""The request as the built-in model sees it: the question, earlier turns, the tools offered and
this turn's tool calls with their results (everything is recomputed from the messages)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from agent.builtin.collector_typing import tidy

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
    answers: list[str] = field(default_factory=list)   # the assistant's earlier answers, oldest first


def text_of(m: dict[str, Any]) -> str:
    c = m.get("content")
    if isinstance(c, list):
        return " ".join(p.get("text", "") for p in c if isinstance(p, dict))
    return c or ""


# words that carry a question's intent, mistyped ("wnat list", "feedbak", "colection") and put right
INTENT_WORDS = ("want", "list", "wish", "what", "worth", "price", "value", "feedback", "population", "graded",
                "parallel", "parallels", "rookie", "collection", "missing", "listing", "listings", "random",
                "wantlist", "wishlist", "report", "released", "release", "refractor", "complete", "completion",
                "many", "have", "much", "cards", "card", "does", "suggestion", "progress", "sale", "wants",
                # amounts in words and list removals ("under twenyy dollars", "scrtch it off my list")
                "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety", "hundred", "dollars",
                "scratch", "remove", "delete", "anymore")


def _near(word: str) -> str | None:
    """The intent word ``word`` mistypes: two letters swapped (4+ letters), or (6+ letters) one letter
    added, dropped or changed."""
    from agent.builtin.classifier import one_edit

    low = word.lower()
    if low in INTENT_WORDS or _known(low):
        return None   # a word in its own right ("grades" is not a mistyped "graded")
    for w in INTENT_WORDS:
        if len(low) == len(w) >= 4 and sorted(low) == sorted(w) and one_edit(low, w):
            return w   # a swap of neighbours ("waht", "crad")
        if len(low) >= 6 and len(w) >= 6 and one_edit(low, w):
            return w
    return None


def _known(word: str) -> bool:
    from agent.builtin.classifier import everyday, vocabulary

    return word in vocabulary() or everyday(word)


# short intent words too short for an edit test, mistyped as collectors do ("do i hav the 87 topps X")
SHORT_TYPOS = {"hav": "have", "hve": "have", "wat": "what", "wht": "what", "whta": "what", "owm": "own"}


# collectors' abbreviations of value words ("mv of my whole collection", "fmv on a psa 9 jeter")
ABBREVIATIONS = {"mv": "market value", "fmv": "fair market value"}


# collectors' spellings of words about their own cards ("worth more than i payed", "# of cards in my coll")
OWN_WORDS = ((re.compile(r"\bpayed\b", re.I), "paid"), (re.compile(r"\bmy coll\b", re.I), "my collection"))


def respell(text: str) -> str:
    text = re.sub(r"\b(?:mv|fmv)\b", lambda m: ABBREVIATIONS[m.group(0).lower()], text, flags=re.I)
    for pattern, word in OWN_WORDS:
        text = pattern.sub(word, text)
    text = re.sub(r"\b[A-Za-z]{3,4}\b", lambda m: SHORT_TYPOS.get(m.group(0).lower(), m.group(0)), text)
    text = re.sub(r"[A-Za-z]{4,}", lambda m: _near(m.group(0)) or _unjoined(m.group(0)) or m.group(0), text)
    return tidy(text)


def _unjoined(word: str) -> str | None:
    """Two release words written as one ("upperdeck", "baseset", "stadiumclub") written apart."""
    from tools._linking import BRANDS, DOMAIN_WORDS

    low = word.lower()
    if len(low) < 6 or _known(low):
        return None
    parts = BRANDS | DOMAIN_WORDS | {"deck", "club", "stadium", "collection"}
    for i in range(3, len(low) - 2):
        if low[:i] in parts and low[i:] in parts:
            return f"{word[:i]} {word[i:]}"
    return None


def from_messages(messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None) -> Conversation:
    users = [i for i, m in enumerate(messages) if m.get("role") == "user"]
    last = users[-1] if users else len(messages)
    question = respell(text_of(messages[last])) if users else ""
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
    answers = [text_of(m) for m in messages[:last] if m.get("role") == "assistant" and not m.get("tool_calls")]
    return Conversation(question, history, {n for n in names if n}, done, coll, final, last_answer, answers)
