"""Walk an intent's steps against the tools offered and the results already in the conversation.

``plan(conversation)`` returns either the next tool calls (one group of independent calls) or an
answer composed from the results. Everything is derived from the messages of the request.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from agent.builtin import compose
from agent.builtin.intents import DETAILS, FOLLOW_UP, Intent, Step, match
from agent.builtin.parse import Entities, parse, singular

_CONTEXT_ID = re.compile(r"-\s*collectionId:\s*([0-9A-Fa-f-]{36})")


@dataclass
class Conversation:
    question: str
    history: list[str]                     # earlier user questions, oldest first
    tools: set[str]                        # tool names offered in this request
    done: list[tuple[str, dict[str, Any], Any]] = field(default_factory=list)  # this turn's calls
    collection_id: str | None = None
    final: bool = False                    # no tools offered: answer now


@dataclass
class State:
    intent: Intent | None
    ent: Entities
    conv: Conversation
    results: dict[str, Any] = field(default_factory=dict)
    candidates: list[dict[str, Any]] = field(default_factory=list)
    ambiguous: bool = False

    def result(self, key: str) -> Any:
        return self.results.get(key)

    def ok(self, key: str) -> Any:
        r = self.results.get(key)
        return None if r is None or compose.is_error(r) else r


@dataclass
class Decision:
    calls: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    answer: str | None = None


def from_messages(messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None) -> Conversation:
    users = [i for i, m in enumerate(messages) if m.get("role") == "user"]
    last = users[-1] if users else len(messages)
    question = _text(messages[last]) if users else ""
    history = [_text(messages[i]) for i in users[:-1]]
    coll = None
    for m in messages:
        if m.get("role") == "system":
            found = _CONTEXT_ID.search(_text(m))
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
                result = json.loads(_text(m))
            except ValueError:
                result = {"error": _text(m), "code": "INVALID"}
            done.append((name, args, result))
    names = {((t.get("function") or {}).get("name")) for t in tools or []}
    final = not tools or any(m.get("role") == "system" and "without tools" in _text(m) for m in messages[last + 1:])
    return Conversation(question, history, {n for n in names if n}, done, coll, final)


def _text(m: dict[str, Any]) -> str:
    c = m.get("content")
    if isinstance(c, list):
        return " ".join(p.get("text", "") for p in c if isinstance(p, dict))
    return c or ""


def understand(conv: Conversation) -> State:
    ent = parse(conv.question)
    intent = match(conv.question)
    previous = [(parse(q), match(q)) for q in reversed(conv.history)]
    follow_up = bool(FOLLOW_UP.search(conv.question)) or len(conv.question.split()) <= 5
    if previous and follow_up:
        if intent is None:
            intent = next((i for _, i in previous if i is not None), None)
            if intent is None and not ent.name:
                intent = DETAILS
        if intent is not None and intent.needs_card and not ent.name:
            older = next((e for e, _ in previous if e.name), None)
            if older is not None:
                ent = ent.merged_with(older)
    if intent is None and ent.name and (ent.proper or ent.number or ent.year or ent.release_words):
        intent = DETAILS
    return State(intent, ent, conv)


# --------------------------------------------------------------------------- variables
def _card_score(card: dict[str, Any], ent: Entities) -> float:
    score = 0.0
    name = (card.get("name") or "").lower()
    if ent.name and name == ent.name.lower():
        score += 2
    if ent.number and str(card.get("number", "")).lower() == ent.number.lower():
        score += 3
    if ent.year and str(card.get("releaseYear", "")) == ent.year:
        score += 2
    context = f"{card.get('releaseName', '')} {card.get('setName', '')}".lower()
    score += sum(1 for w in ent.release_words if w in context)
    if not card.get("variationOf"):
        score += 0.5
    return score


def _is_demo(card: dict[str, Any]) -> bool:
    """A demo catalog card (its description says so; the catalog API has no other field for it)."""
    return "demo data" in str(card.get("description") or "").lower()


def _resolve_card(st: State) -> str | None:
    found: list[dict[str, Any]] = []
    for key in ("cards", "cards_retry"):
        r = st.ok(key)
        if r:
            found += [c for c in r.get("cards", []) if isinstance(c, dict) and c.get("id")]
    if not found:
        return None
    ranked = sorted(found, key=lambda c: -_card_score(c, st.ent))
    st.candidates = ranked
    best = _card_score(ranked[0], st.ent)
    top = [c for c in ranked if _card_score(c, st.ent) == best and not c.get("variationOf")] or [ranked[0]]
    top = [c for c in top if not _is_demo(c)] or top  # the demo never stands in for a real card of that name
    distinct = {(c.get("name"), c.get("setName"), c.get("releaseName"), c.get("number")) for c in top}
    if len(distinct) > 1:
        st.ambiguous = True
        return None
    return str(top[0]["id"])


def _resolve_company(st: State) -> str | None:
    r = st.ok("grades_companies")
    if not r or not st.ent.company:
        return None
    for c in r.get("companies", []):
        if (c.get("abbreviation") or "").upper() == st.ent.company or (c.get("name") or "").upper().startswith(
                st.ent.company):
            return c.get("id")
    return None


def _resolve_type(st: State) -> str | None:
    r = st.ok("grades_types")
    types = (r or {}).get("types", [])
    card = next((t for t in types if (t.get("name") or "").lower() == "card"), None)
    return (card or (types[0] if types else {})).get("id")


def _resolve_release(st: State) -> str | None:
    r = st.ok("catalog_releases")
    rels = (r or {}).get("releases", [])
    return rels[0].get("id") if rels else None


def _collection(st: State) -> str | None:
    if st.conv.collection_id:
        return st.conv.collection_id
    r = st.ok("collections_list")
    cols = (r or {}).get("collections", [])
    return cols[0].get("id") if len(cols) == 1 else None


def variable(st: State, name: str) -> Any:
    e = st.ent
    simple = {"name": e.name, "number": e.number, "year": e.year, "company": e.company, "grade": e.grade,
              "period": e.period, "group_by": e.group_by or "release", "text": e.text[:1000],
              "query": e.card_query or e.text[:200],
              "release_name": " ".join(e.release_words) or e.name}
    if name in simple:
        return simple[name]
    if name == "name_last":  # a looser second try: the last word, singular, or a typo-tolerant prefix
        if not e.name:
            return None
        last = singular(e.name.split()[-1])
        if last.lower() == e.name.lower():
            last = last[:max(4, len(last) - 2)]
        return last if last.lower() != e.name.lower() else None
    resolvers = {"card_id": _resolve_card, "company_id": _resolve_company, "type_id": _resolve_type,
                 "release_id": _resolve_release, "collection_id": _collection}
    return resolvers[name](st) if name in resolvers else None


PREDICATES = {
    "has_name": lambda st: bool(st.ent.name and (st.ent.proper or st.ent.number)),
    "no_name": lambda st: not (st.ent.name and (st.ent.proper or st.ent.number)),
    "has_company": lambda st: bool(st.ent.company),
    "no_collection": lambda st: not st.conv.collection_id,
    "no_cards": lambda st: (st.ok("cards") is not None and not st.ok("cards").get("cards")
                            and variable(st, "name_last") is not None),
}


def _args(st: State, template: dict[str, Any]) -> dict[str, Any]:
    out = {}
    for k, v in template.items():
        value = variable(st, v[1:]) if isinstance(v, str) and v.startswith("$") else v
        if value is not None:
            out[k] = value
    return out


def _same(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return json.dumps(a, sort_keys=True, default=str) == json.dumps(b, sort_keys=True, default=str)


def decide(conv: Conversation) -> Decision:
    st = understand(conv)
    if st.intent is None:
        return Decision(answer=compose.unanswerable(st))
    for group in st.intent.steps:
        pending: list[tuple[str, dict[str, Any]]] = []
        for step in group:
            outcome = _step(st, step, pending)
            if isinstance(outcome, str):
                return Decision(answer=outcome)
        if pending:
            if conv.final:
                return Decision(answer=compose.compose(st, unfinished=True))
            return Decision(calls=pending)
    return Decision(answer=compose.compose(st))


def _step(st: State, step: Step, pending: list[tuple[str, dict[str, Any]]]) -> str | None:
    """Record a done step's result or add it to ``pending``; a string is an early answer."""
    if step.when and not PREDICATES[step.when](st):
        return None
    tool = next((t for t in step.tools if t in st.conv.tools or st.conv.final), None)
    if tool is None:
        return None if step.optional else compose.unavailable(st, step.tools[0])
    for need in step.needs:
        if variable(st, need) is None:
            return compose.missing(st, need)
    args = _args(st, step.args)
    for name, done_args, result in st.conv.done:
        if name == tool and _same(done_args, args):
            st.results[step.result_key] = result
            return None
    pending.append((tool, args))
    return None
