"""Answers written from tool results: one function per question family (``COMPOSERS``)."""

from __future__ import annotations

from agent.builtin.answers import cards, collection, market
from agent.builtin.answers.common import NAMES, missing, not_found, priced as priced, unanswerable, unavailable, which_card
from agent.builtin.state import State, is_error

COMPOSERS = {
    "parallels": cards.parallels, "details": cards.details, "find": cards.find, "set_facts": cards.set_facts,
    "random": cards.random_card, "grades": cards.grades, "catalog_stats": cards.catalog_stats,
    "segments": cards.segments, "calendar": cards.calendar, "feedback": cards.feedback,
    "identify": cards.identify, "help": cards.help_, "glossary": cards.glossary,
    "price": market.price, "price_compare": market.compare, "trend": market.trend,
    "marketplace": market.marketplace, "population": market.population,
    "collection_value": collection.collection_value, "collection_best": collection.collection_best,
    "collection_roi": collection.collection_roi, "collection_count": collection.collection_count,
    "breakdown": collection.breakdown, "set_progress": collection.set_progress,
    "set_missing": collection.set_missing, "collection_cards": collection.collection_cards,
    "collections": collection.collections, "wantlist": collection.wantlist,
    "wantlist_add": collection.wantlist_add,
    "wantlist_remove": collection.wantlist_remove, "owns": collection.owns, "owned_among": collection.owned_among,
}


def compose(st: State, unfinished: bool = False) -> str:
    fn = COMPOSERS.get(st.intent.name if st.intent else "", None)
    errors = [(k, r) for k, r in st.results.items() if is_error(r)]
    prefix = "I ran out of tool-calling rounds before finishing, so this answer may be incomplete. " if unfinished \
        else ""
    if fn is None:
        return prefix + unanswerable(st)
    try:
        body = fn(st)
    except Exception:  # noqa: BLE001 - a surprising result shape must not break the answer
        body = None
    if not body:
        if errors:
            k, r = errors[0]
            return prefix + f"The {NAMES.get(k, k)} look-up failed: {r['error']} ({r['code']})."
        body = "I couldn't find the information needed to answer that."
    return prefix + body


__all__ = ["COMPOSERS", "compose", "missing", "not_found", "unanswerable", "unavailable", "which_card"]
