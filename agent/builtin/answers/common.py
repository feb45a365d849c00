"""Shared answer helpers and the answers for what is missing (no tool, no card, ambiguity).
Every lookup is tolerant: a missing key gives a shorter sentence, never an exception."""

from __future__ import annotations

from typing import Any

from agent.builtin import classifier
from agent.builtin.linking import chosen_card, tied
from agent.builtin.state import State, is_error
from tools._linking import BRANDS, DOMAIN_WORDS, NEVER_NAMES, fold
from tools.catalog_link import common_words

CAPABILITIES = ("find cards, sets and releases (set sizes, release dates, parallels and print runs); prices by "
                "grade, price trends and comparisons; graded population counts; marketplace listings; grading "
                "companies and grades; random pulls; your collection's value, count, best card, gains, breakdowns "
                "and set completion; your want lists; and feedback about catalog data")
NAMES = {"catalog_link": "catalog search", "catalog_cards": "catalog search", "catalog_card": "card details",
         "population_card": "population reports", "pricing_card": "price history",
         "pricing_timeseries": "price trends", "marketplace_card": "marketplace listings",
         "marketplace_search": "marketplace search", "collection_analytics": "collection analytics",
         "collection_breakdown": "collection breakdowns", "collection_set_progress": "set completion",
         "collection_set_progress_set": "set completion", "collections_list": "collections",
         "collection_cards_list": "collection cards", "feedback_submit": "feedback", "feedback_general": "feedback",
         "release_calendar": "the release calendar", "catalog_cards_random": "random cards",
         "catalog_releases_random": "random releases", "catalog_releases": "release search",
         "catalog_release": "release details", "grades_companies": "grading companies",
         "grades_types": "grading types", "grades_grades": "grades", "catalog_statistics": "catalog statistics",
         "catalog_segments": "segments", "lists_list": "want lists", "list_cards_list": "want lists",
         "list_cards_add": "adding to a want list", "list_card_remove": "taking a card off a want list"}
WRITE_TOOLS = {"list_cards_add", "list_card_remove", "list_create", "collection_cards_add"}


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


def plural(n: Any, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def card_label(c: dict[str, Any]) -> str:
    """The card's full identity: year, release, name, number and set (when it is not the base set)."""
    parts = [str(g(c, "releaseYear", default="")).strip(), g(c, "releaseName", default=""), g(c, "name", "card_name",
                                                                                                default="card")]
    label = " ".join(p for p in parts if p)
    if g(c, "releaseYear") and g(c, "releaseName", default="").startswith(str(g(c, "releaseYear"))):
        label = " ".join(p for p in parts[1:] if p)
    if g(c, "number"):
        label += f" #{c['number']}"
    if g(c, "setName") and g(c, "setName") not in ("Base", "Base Set", g(c, "releaseName")):
        label += f" ({c['setName']})"
    return label


def the_card(st: State) -> dict[str, Any]:
    """The card answered about: its details when read, else the linked candidate."""
    detail = st.ok("catalog_card")
    if detail:
        return detail
    return chosen_card(st.ok("link"), st.ent, priced=priced(st), with_data=st.tied_with_data()) or {"name": "this card"}


def priced(st: State) -> bool:
    """A question about market data (the card with data wins a tie)."""
    return st.intent is not None and st.intent.name in ("price", "trend", "marketplace", "details")


def unanswerable(st: State) -> str:
    return ("I can't answer that with what I know. I can " + CAPABILITIES +
            ". Try naming a card, e.g. \"How much is a 1989 Upper Deck Ken Griffey Jr. #1 worth?\"")


def unavailable(st: State, tool: str) -> str:
    what = NAMES.get(tool, tool)
    if tool in WRITE_TOOLS:
        return (f"I can't do that here: {what} changes your data, and this request does not allow changes "
                "(send context.allowWrites: true to let me).")
    return (f"I can't answer that here: {what} ({tool}) isn't available on this server, "
            "so I have no data for it.")


def _differences(cards: list[dict[str, Any]]) -> str:
    return "; ".join(f"{i}. {card_label(c)}" for i, c in enumerate(cards, 1))


def which_card(st: State) -> str:
    return ("Which card do you mean? Name the player or character and, if you can, the year, set and number, "
            "e.g. \"1989 Upper Deck Ken Griffey Jr. #1\".")


def not_found(st: State) -> str:
    link = st.ok("link") or {}
    words = " ".join(link.get("unlinked") or []) or st.ent.text
    # the name said outright before a weaker reading of other words ("fossil blastoise": blastoise)
    names = sorted((e for e in link.get("entities") or [] if e.get("kind") == "name"),
                   key=lambda e: (bool(e.get("alternate")), not e.get("exact")))
    if names:
        who = _named_further(st, link) or _as_catalog_spells(names[0])
        c = link.get("constraints") or {}
        bits = [str(x) for x in (c.get("year"), f"#{c['number']}" if c.get("number") else None) if x]
        return (f"I couldn't find a \"{who}\" card matching {' '.join(bits) or 'that'}: that card is not in the "
                f"catalog. Ask for \"{who} cards\" to see the ones there are.")
    return (f"I couldn't find \"{words}\" in the catalog: no player, character, card, set or release by that name. "
            "Check the spelling, or give the year, set and card number. I can help with " + CAPABILITIES + ".")


def _as_catalog_spells(e: dict[str, Any]) -> str:
    """The words said for a name, or the catalog's spelling when they misspell it ("charzard": Charizard), so
    the reply names what was looked for, not the typo."""
    phrase, name = e.get("phrase") or "", e.get("name") or ""
    words = set(fold(name).split())
    return phrase if phrase and all(w in words for w in fold(phrase).split()) else name or phrase


def _named_further(st: State, link: dict[str, Any]) -> str | None:
    """A name said with a word right after it that the catalog links to nothing and that no family uses
    ("pikachu illustrator"): the name and that word, the card asked for (which no candidate is)."""
    vocab = classifier.vocabulary()
    loose = {w for w in (fold(x) for x in link.get("unlinked") or []) if len(w) >= 4 and w.isalpha() and
             w not in common_words() and w not in vocab and w not in NEVER_NAMES and w not in DOMAIN_WORDS and
             w not in BRANDS}
    said = fold(st.ent.text)
    for e in link.get("entities") or []:
        phrase = fold(e.get("phrase") or "")
        if e.get("kind") != "name" or e.get("alternate") or not phrase:
            continue
        for w in loose:
            if f" {phrase} {w} " in f" {said} ":
                return f"{phrase} {w}"
    return None


def missing(st: State, need: str) -> str:
    link = st.ok("link")
    if need == "card_id":
        if link is None:
            err = st.result("link")
            return f"I couldn't search the catalog: {err['error']}." if is_error(err) else \
                "Which card do you mean? Name the player or character and, if you can, the year, set and number."
        pops = [r for r in st.many.get("tied_pops", []) if isinstance(r, dict) and not is_error(r)]
        if link.get("ambiguous") and pops and len(pops) == len(tied(link)) and not st.tied_with_data():
            # the cards the words fit alike all lack a report: that answers a count question either way
            return (f"There is no population data for any of the {len(pops)} cards that fit: "
                    f"{_differences(tied(link))}. No grading company's report covers them, so the count is "
                    "unknown (no data is not the same as none graded).")
        named_more = _named_further(st, link)
        if link.get("ambiguous") and named_more:
            # "pikachu illustrator promo": the name's cards are many, but none is called by the word beside it
            return (f"I couldn't find a \"{named_more}\" card: that card is not in the catalog. Give the year, set "
                    "and card number if you have them.")
        if link.get("ambiguous"):
            options = tied(link)[:6]
            diff = ", ".join(link.get("differences") or []) or "year, set or number"
            more = len(tied(link)) - len(options)
            tail = f" (and {more} more)" if more > 0 else ""
            return (f"I found {len(tied(link))} cards that fit equally well: {_differences(options)}{tail}. "
                    f"Which one do you mean? They differ by {diff}; reply with e.g. \"the first one\" or the "
                    f"{diff.split(',')[0]}.")
        return not_found(st)
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
    if need == "list_id":
        return "You don't have a want list yet."
    if need == "company_id":
        return f"I don't know the grading company \"{st.ent.company}\"."
    if need == "type_id":
        return f"I found no grading types for {st.ent.company}."
    if need == "release_id":
        return (f"I couldn't find a release or set named in \"{st.ent.text}\". Name it as the catalog does, "
                "e.g. \"1989 Upper Deck\" or \"Base Set\".")
    if need == "random_release_ids":
        return f"I found no release in the {st.ent.segment} segment to pull from."
    return "I need more detail to answer that."
