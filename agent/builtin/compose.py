"""Answers when something is missing (no tool, no card, ambiguity) and the shared helpers; the
per-question answers are in ``answers.py``. Every lookup is tolerant: a missing key gives a
shorter sentence, never an exception."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from agent.builtin.planner import State

CAPABILITIES = ("find cards, sets and releases; card details and parallels; prices and price trends; graded "
                "population counts; your collection's value, top cards, breakdowns and set completion; "
                "marketplace listings; grading companies and grades; and feedback about catalog data")
NAMES = {"catalog_cards": "catalog search", "catalog_card": "card details", "population_card": "population reports",
         "pricing_card": "price history", "pricing_timeseries": "price trends", "marketplace_card": "marketplace listings",
         "marketplace_search": "marketplace search", "collection_analytics": "collection analytics",
         "collection_breakdown": "collection breakdowns", "collection_set_progress": "set completion",
         "collections_list": "collections", "collection_cards_list": "collection cards",
         "feedback_submit": "feedback", "feedback_general": "feedback", "release_calendar": "the release calendar",
         "catalog_cards_random": "random cards", "catalog_releases": "release search",
         "catalog_release": "release details", "grades_companies": "grading companies",
         "grades_types": "grading types", "grades_grades": "grades", "catalog_statistics": "catalog statistics",
         "catalog_segments": "segments"}


def is_error(r: Any) -> bool:
    return isinstance(r, dict) and "error" in r and "code" in r


def g(obj: Any, *keys: str, default: Any = None) -> Any:
    if not isinstance(obj, dict):
        return default
    for k in keys:
        if obj.get(k) is not None:
            return obj[k]
    return default


def usd(v: Any) -> str:
    try:
        return f"${float(v):,.2f}"
    except (TypeError, ValueError):
        return str(v)


def card_label(c: dict[str, Any]) -> str:
    parts = [str(g(c, "releaseYear", default="")).strip(), g(c, "releaseName", default=""), g(c, "name", "card_name",
                                                                                                default="card")]
    label = " ".join(p for p in parts if p)
    if g(c, "releaseYear") and g(c, "releaseName", default="").startswith(str(g(c, "releaseYear"))):
        label = " ".join(p for p in parts[1:] if p)
    if g(c, "number"):
        label += f" #{c['number']}"
    if g(c, "setName") and g(c, "setName") not in ("Base", g(c, "releaseName")):
        label += f" ({c['setName']})"
    if "demo data" in str(g(c, "description", default="") or "").lower():  # the demo catalog's cards say so
        label += " (demo)"
    return label


def unanswerable(st: State) -> str:
    return ("I can't answer that with the tools I have. I can " + CAPABILITIES +
            ". Try naming a card, e.g. \"What parallels does 2024 Topps Chrome Shohei Ohtani #1 have?\"")


def unavailable(st: State, tool: str) -> str:
    what = NAMES.get(tool, tool)
    return (f"I can't answer that here: {what} ({tool}) isn't available on this server, "
            "so I have no data for it.")


def missing(st: State, need: str) -> str:
    e = st.ent
    if need == "name":
        return ("Which card do you mean? Name the card (player or character) and, if you can, the year, "
                "set and number, e.g. \"2024 Topps Chrome Shohei Ohtani #1\".")
    if need == "card_id":
        if st.ambiguous:
            lines = "; ".join(card_label(c) for c in st.candidates[:6])
            more = f" (and {len(st.candidates) - 6} more)" if len(st.candidates) > 6 else ""
            return (f"I found several cards matching \"{e.card_query or e.name}\": {lines}{more}. "
                    "Which one do you mean? Add the year, set or card number.")
        err = next((r for k, r in st.results.items() if k.startswith("cards") and is_error(r)), None)
        if err:
            return f"I couldn't search the catalog: {err['error']}."
        return (f"I couldn't find a card matching \"{e.card_query or e.name}\" in the catalog. "
                "Check the spelling, or give the year, set and card number.")
    if need == "collection_id":
        r = st.ok("collections_list")
        cols = g(r, "collections", default=[])
        if r is None:
            err = st.result("collections_list")
            return f"I couldn't read your collections: {err['error']}." if is_error(err) else \
                "Which collection? Pass its id as context.collectionId."
        if not cols:
            return "You don't have any collections yet, so there is nothing to value or break down."
        names = "; ".join(f"{g(c, 'name', default='(unnamed)')} ({c.get('id')})" for c in cols[:10])
        return (f"You have {len(cols)} collections: {names}. Which one do you mean? "
                "Send its id as context.collectionId.")
    if need == "company_id":
        return f"I don't know the grading company \"{e.company}\"."
    if need == "release_id":
        return f"I couldn't find a release matching \"{variable_text(st)}\"."
    if need == "release_name":
        return "Which release do you mean? Name it, e.g. \"2024 Topps Chrome\"."
    return "I need more detail to answer that."


def variable_text(st: State) -> str:
    return " ".join(st.ent.release_words) or st.ent.name or st.ent.text


def compose(st: State, unfinished: bool = False) -> str:
    from agent.builtin.answers import COMPOSERS

    fn = COMPOSERS.get(st.intent.name if st.intent else "", None)
    errors = [(k, r) for k, r in st.results.items() if is_error(r)]
    prefix = ""
    if unfinished:
        prefix = "I ran out of tool-calling rounds before finishing, so this answer may be incomplete. "
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
