"""Answers about the caller's collections and want lists."""

from __future__ import annotations

import re
from typing import Any

from agent.builtin.classifier import everyday, one_edit
from agent.builtin.intents import BOUGHT_BY_ME, LIST_COST, PAID_FOR, card_words, sale_asked
from agent.builtin.answers.common import card_label, g, missing, plural, usd
from agent.builtin.linking import chosen_card, says_my, tied
from agent.builtin.state import State
from tools._linking import BRANDS, DOMAIN_WORDS, MAKERS, NEVER_NAMES, SEGMENT_WORDS, SPELLINGS, fold, nicknamed, read
from tools.catalog_link import common_words

# the whole collection as what is asked about ("on my collection", "my cards")
WHOLE = re.compile(r"\bmy (whole |entire |full )?(collection|cards|pc|stuff|binders?)\b", re.I)
# a word pointing back at the card the conversation is about ("is it worth more", "did that make my list")
POINTS_BACK = re.compile(r"\b(it|that|this)\b", re.I)


def _release_label(item: dict[str, Any], name_key: str) -> str:
    name, rel, year = g(item, name_key, default="?"), g(item, "releaseName", default=""), g(item, "releaseYear")
    if year and not str(rel).startswith(str(year)):
        rel = f"{year} {rel}".strip()
    num = f" #{item['number']}" if g(item, "number") else ""
    return f"{name}{num} ({rel})" if rel else name + num


def _analytics(st: State) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]] | None:
    r = st.ok("collection_analytics")
    if not r:
        return None
    return g(r, "overview", default={}), g(r, "financials", default={}), g(r, "performance", default={})


def collection_value(st: State) -> str | None:
    a = _analytics(st)
    if a is None:
        return None
    ov, fin, perf = a
    text = (f"Your collection has {g(ov, 'totalCards', default=0)} cards ({g(ov, 'uniqueCards', default=0)} unique, "
            f"{g(ov, 'totalQuantity', default=0)} in total quantity).")
    if g(fin, "currentMarketValue") is not None:
        text += f" Its current market value is {usd(fin['currentMarketValue'])}"
        if g(fin, "totalInvested") is not None:
            text += f" against {usd(fin['totalInvested'])} invested"
        text += "."
    else:
        text += " There is no price data to value it yet (unknown, not $0)."
    top = g(perf, "topValue")
    if top:
        text += f" Your top card is {_release_label(top, 'cardName')} at {usd(g(top, 'currentValue'))}."
    gain = g(perf, "topGainer")
    if gain:
        text += f" Top gainer: {g(gain, 'cardName', default='?')} ({usd(g(gain, 'gain'))})."
    return text


_LEAST = re.compile(r"\b(cheapest|least valuable|lowest|worst|least expensive|least|bottom)\b", re.I)
_TOP_N = re.compile(r"\b(?:top|best|most valuable|priciest)\s+(\d{1,2}|two|three|four|five)\b|\b(\d{1,2}|two|three|four|five)\s+"
                    r"(?:most valuable|best|priciest|top)\b", re.I)
_WORDS = {"two": 2, "three": 3, "four": 4, "five": 5}


def asks_ranking(st: State) -> bool:
    """"my cheapest card", "my top 3": every owned card's value is needed, not only the top one."""
    return bool(_LEAST.search(st.ent.text) or _TOP_N.search(st.ent.text))


def _ranked_owned(st: State) -> str | None:
    """My cheapest card, or my top N: every owned card with a value, ranked."""
    valued = [c for c in _owned_cards(st) if g(c, "currentValue") is not None]
    if not valued:
        return None
    valued.sort(key=lambda c: float(c["currentValue"]))
    if _LEAST.search(st.ent.text):
        c = valued[0]
        return f"Your least valuable card is {_release_label(c, 'cardName')}, worth {usd(c['currentValue'])}."
    m = _TOP_N.search(st.ent.text)
    if m:
        raw = (m.group(1) or m.group(2)).lower()
        n = int(raw) if raw.isdigit() else _WORDS[raw]
        top = valued[::-1][:n]
        return f"Your top {plural(len(top), 'card')} by value: " + "; ".join(
            f"{i}. {_release_label(c, 'cardName')} {usd(c['currentValue'])}" for i, c in enumerate(top, 1)) + "."
    return None


def collection_best(st: State) -> str | None:
    ranked = _ranked_owned(st)
    if ranked:
        return ranked
    a = _analytics(st)
    if a is None:
        return None
    _, _, perf = a
    top = g(perf, "topValue")
    if not top:
        return "None of your cards has a price yet, so I can't tell which is the most valuable."
    return f"Your top card is {_release_label(top, 'cardName')}, worth {usd(g(top, 'currentValue'))} (your most valuable)."


def _owned_cards(st: State) -> list[dict[str, Any]]:
    r = st.ok("owned") or {}
    return [c for grp in g(r, "groups", default=[]) for c in g(grp, "topCards", default=[])]


owned_cards = _owned_cards   # the caller's cards as read for the question (collection_breakdown's top cards)


def _card_move(c: dict[str, Any]) -> float | None:
    if g(c, "currentValue") is None or g(c, "buyPrice") is None:
        return None
    return float(c["currentValue"]) - float(c["buyPrice"])


def named_owned(st: State) -> dict[str, Any] | None:
    """The owned card the question names by its full name ("my shining charizard"), longest first, or
    by a word of its name only one owned card has ("my sandberg"); "is it worth more than i paid?"
    after a question naming one: that card."""
    found = _owned_named_in(st, st.ent.text, _linked_releases(st))
    if found is None and st.conv.history and POINTS_BACK.search(st.ent.text):
        found = _owned_named_in(st, st.conv.history[-1])
    return found



def with_makers(words: set[str]) -> set[str]:
    """``words`` and the makers a word of five letters or more mistypes ("95 toppps": Topps), so that my
    1995 Pinnacle card is not taken for the Topps one asked about."""
    return words | {m for w in words if len(w) >= 5 and w not in MAKERS and w not in common_words() and not everyday(w)
                    for m in MAKERS if m not in w and one_edit(w, m)}   # "whoops" is no mistyped "hoops"


def _fits(c: dict[str, Any], said: Any, words: set[str]) -> bool:
    """The owned card agrees with the year (or season), brand and card number the question gives."""
    years, year, rel = said.years, g(c, "releaseYear"), fold(g(c, "releaseName", default="") or "")
    season = bool(re.search(r"\d{4}\s*[-/ ]\s*\d{2}\b", str(g(c, "releaseName", default="") or "")))
    if years and str(year or "").isdigit() and not (
            years[0] <= int(year) <= years[1] or season and years[0] <= int(year) + 1 <= years[1]):
        return False
    if (words & MAKERS) - set(rel.split()):
        return False   # "my topps griffey" is not the upper deck one
    num, own = said.number, g(c, "number")
    return not (num and own and str(num).lstrip("#0").lower() != str(own).lstrip("#0").lower())


def _linked_releases(st: State) -> set[str]:
    """The releases the question names, as the catalog link read them ("jungle pikachu": Jungle)."""
    said = set(fold(st.ent.text).split())
    # a release read from a mistyped name ("my pikaachu": Detective Pikachu) is not one said
    return {fold(e.get("name") or "") for e in (st.ok("link") or {}).get("entities") or []
            if e.get("kind") == "release" and not e.get("alternate") and not e.get("fromHistory")
            and fold(e.get("phrase") or "") not in SEGMENT_WORDS
            and (e.get("exact") or _release_core(e.get("name") or "") <= said)}


def _owned_named_in(st: State, text: str, releases: set[str] | None = None) -> dict[str, Any] | None:
    # "the 84 fleer ryno": Ryne Sandberg; "my base set zard": Charizard
    words = with_makers({SPELLINGS.get(w, w) for w in fold(nicknamed(text)).split()})
    said = read(text)
    # a year or number the question gives that an owned card lacks: another card, never that one
    owned = [c for c in _owned_cards(st) if fold(g(c, "cardName", default="")).split() and _fits(c, said, words)]
    if releases:   # "my jungle pikachu" is not the base set one I own
        owned = [c for c in owned if fold(g(c, "releaseName", default="") or "") in releases]
    # a word said after "my", or no everyday word, one letter off a name word counts as it ("my charzard",
    # "shinning zard in my pc")
    typed = {w for w in re.findall(r"\bmy ([a-z]{5,})\b", fold(text)) if w not in NEVER_NAMES} | {
        w for w in re.findall(r"\b[a-z]{5,}\b", fold(text)) if w not in NEVER_NAMES and w not in common_words()}

    def near(n: str) -> bool:
        return n in words or len(n) >= 5 and any(one_edit(w, n) for w in typed)
    named = [c for c in owned if all(near(n) for n in fold(c["cardName"]).split())]
    if named:   # the longest name said ("my shinning charizard" is the Shining one)
        return max(named, key=lambda x: len(fold(x["cardName"]).split()))
    some = {w for w in words if len(w) >= 4 and w not in NEVER_NAMES}
    partly = [c for c in owned if some & set(fold(c["cardName"]).split())] or \
        [c for c in owned if any(near(n) for n in fold(c["cardName"]).split())]
    return partly[0] if len(partly) == 1 else None


def owned_gain(st: State) -> str | None:
    """One owned card against what was paid, when the question names it ("my ryne sandberg")."""
    c = named_owned(st)
    if c is None:
        return None
    detail = st.ok("owned_card")
    label = card_label(detail) if detail else _release_label(c, "cardName")
    move = _card_move(c)
    if move is None and g(c, "buyPrice") is not None:
        # "what did i pay for my blastoise": what was paid is known even when the card has no market value
        return (f"You paid {usd(c['buyPrice'])} for your {label}. It has no market value yet, so I can't say "
                "whether it is up or down.")
    if move is None:
        return f"I can't tell how {label} is doing: it has no market value or no purchase price recorded."
    word = "up" if move > 0 else "down" if move < 0 else "even"
    return (f"Your {label} is {word} {usd(abs(move))}: worth {usd(c['currentValue'])} now against "
            f"{usd(c['buyPrice'])} paid.")


def owned_value(st: State, card: dict[str, Any]) -> str | None:
    """"what is my X worth": the copy owned (at its grade), when the card linked is the one owned."""
    if not st.ok("owned") or not (says_my(st.ent.text) or st.mine):
        return None
    c = named_owned(st)
    if c is None or c.get("cardId") != card.get("id") or g(c, "currentValue") is None:
        return None
    move = _card_move(c)
    paid = "" if move is None else \
        f", {'up' if move > 0 else 'down' if move < 0 else 'even'} {usd(abs(move))} on the {usd(c['buyPrice'])} you paid"
    return f"Your {card_label(card)} is worth {usd(c['currentValue'])} now{paid}."


def owned_movers(st: State) -> str | None:
    """Which owned cards are up and which are down against what was paid."""
    cards = [(c, m) for c in _owned_cards(st) if (m := _card_move(c)) is not None]
    if not cards:
        return None
    up = [f"{_release_label(c, 'cardName')} (+{usd(m)})" for c, m in sorted(cards, key=lambda t: -t[1]) if m > 0]
    down = [f"{_release_label(c, 'cardName')} (-{usd(-m)})" for c, m in sorted(cards, key=lambda t: t[1]) if m < 0]
    if re.search(r"\b(up|gain\w*|climb\w*|ris\w+|rose)\b", st.ent.text, re.I) and \
            re.search(r"\b(down|losing|lost|dropp\w*|falling|fell)\b", st.ent.text, re.I):   # both asked
        return (f"Up on what you paid: {', '.join(up) or 'none'}. "
                f"Down on what you paid: {', '.join(down) or 'none'}.")
    if re.search(r"\b(down|losing|lost|dropp\w*|falling)\b", st.ent.text, re.I):
        return f"Down on what you paid: {', '.join(down)}." if down else "None of your cards is down on what you paid."
    return f"Up on what you paid: {', '.join(up)}." if up else "None of your cards is up on what you paid."


def not_owned(st: State) -> str | None:
    """"is my 1990 upper deck griffey up" when only the 1989 one is owned: the card named is not in the
    collection (never the whole collection's figures instead)."""
    link = st.ok("link")
    if not link or named_owned(st) is not None or not (st.ent.years or st.ent.number) and WHOLE.search(st.ent.text):
        return None   # "i'm in a pickle, am i losing money on my collection": the whole collection is asked
    card = chosen_card(link, st.ent)
    names = [e for e in link.get("entities") or [] if e.get("kind") == "name" and not e.get("alternate")
             and e.get("exact") and fold(e.get("phrase") or "") not in common_words()]
    owned_ids = {g(c, "cardId") for c in _owned_cards(st)}
    told = {"number", "year", "release"} & set(card.get("matched") or []) if card else set()
    if card is not None and card.get("id") not in owned_ids and (told or names):   # "i'm in a pickle": no card
        label = card_label(card)
    elif card is None and names and not owned_by_name(st):
        label = f"a {names[0]['name']} card"
    else:
        return None
    return (f"{label[:1].upper() + label[1:]} is not in your collection, so I can't say how it has done against "
            "what you paid.")


def collection_roi(st: State) -> str | None:
    one = owned_gain(st) or not_owned(st)
    if one:
        return one
    which = re.search(r"\b(which|what) (of my )?cards\b", st.ent.text, re.I)
    if (which or re.search(r"\bmy cards\b.*\b(up|down)\b", st.ent.text, re.I)) and \
            not re.search(r"\b(overall|in total|altogether|all in all|as a whole|on the whole)\b", st.ent.text, re.I):
        movers = owned_movers(st)
        overall = None if which or not UP_AND_DOWN.search(st.ent.text) else _overall_gain(st)
        if movers:   # "are my cards up or down": the whole collection's gain first, then card by card
            return f"{overall} {movers}" if overall else movers
    return _overall_gain(st, leaders=True)


UP_AND_DOWN = re.compile(r"\bup or down\b|\bdown or up\b", re.I)


def _overall_gain(st: State, leaders: bool = False) -> str | None:
    """The collection's value against what was paid; with its top gainer and loser when no card list follows."""
    a = _analytics(st)
    if a is None:
        return None
    _, fin, perf = a
    value, invested = g(fin, "currentMarketValue"), g(fin, "totalInvested")
    gain, roi = g(fin, "totalUnrealizedGains"), g(fin, "overallROI")
    if value is None or invested is None:
        return "I can't work out your gain: your collection has no market value or no purchase prices recorded."
    diff = float(gain) if gain is not None else float(value) - float(invested)
    word = "up" if diff > 0 else "down" if diff < 0 else "even"
    pct = f" (ROI {float(roi):+.2f}%)" if roi is not None else ""
    text = (f"You are {word} {usd(abs(diff))} unrealized{pct}: {usd(invested)} invested, {usd(value)} current "
            "market value.")
    if not leaders:
        return text
    gain = g(perf, "topGainer")
    if gain:
        text += f" Top gainer: {_release_label(gain, 'cardName')} ({usd(g(gain, 'gain'))})."
    loser = g(perf, "topLoser")
    if loser:
        text += f" Biggest loser: {_release_label(loser, 'cardName')} ({usd(g(loser, 'gain'))})."
    return text


def collection_count(st: State) -> str | None:
    a = _analytics(st)
    if a is None:
        return None
    ov, _, _ = a
    return (f"You have {g(ov, 'totalQuantity', 'totalCards', default=0)} cards in your collection "
            f"({g(ov, 'uniqueCards', default=0)} unique, {g(ov, 'totalCards', default=0)} entries).")


def breakdown(st: State) -> str | None:
    r = st.ok("collection_breakdown")
    if not r:
        return None
    groups = g(r, "groups", default=[])
    by = g(g(r, "summary", default={}), "groupedBy", default=st.ent.group_by or "release")
    if not groups:
        return "Your collection is empty, so there is nothing to break down."
    items = []
    for grp in groups[:8]:
        s = f"{g(grp, 'groupKey', default='?')}: {plural(g(grp, 'cardCount', default=0), 'card')}"
        if g(grp, "totalCurrentValue") is not None:
            s += f", {usd(grp['totalCurrentValue'])}"
        items.append(s)
    return f"Your collection by {by}: " + "; ".join(items) + "."


def set_progress(st: State) -> str | None:
    r = st.ok("collection_set_progress")
    if not r:
        return None
    sets = g(r, "sets", default=[])
    summ = g(r, "summary", default={})
    if not sets:
        return "You don't have cards from any set in this collection yet."
    items = []
    for s in sets[:5]:
        name = g(s, "setName", "name", default="?")
        if g(s, "releaseName") and g(s, "releaseName") != name:
            name = f"{s['releaseName']} {name}"
        pct = g(s, "completionPercentage", default=None)
        owned, total = g(s, "ownedCards", default=None), g(s, "totalCards", default=None)
        bit = name
        if pct is not None:
            bit += f" {float(pct):.0f}% complete"
        if owned is not None and total is not None:
            bit += f" ({owned}/{total})"
        items.append(bit)
    return (f"You are collecting {g(summ, 'totalSets', default=len(sets))} sets "
            f"({g(summ, 'fullyCompleteSets', default=0)} complete, {g(summ, 'nearCompleteSets', default=0)} over 80%). "
            "Closest to complete: " + "; ".join(items) + ".")


def _unowned_set(st: State) -> str | None:
    """ "'87 topps base - how many to complete it", a set I own no card of: its size from the catalog
    (the set named, else the base set, else the largest), when the release is of the year said."""
    rel = st.ok("catalog_release")
    sets = g(rel, "sets", default=[]) if rel else []
    year, years = str(g(rel, "year", default="") or "")[:4] if rel else "", st.ent.years
    if not sets or years and year.isdigit() and not years[0] <= int(year) <= years[1]:
        return None
    said = fold(st.ent.text)
    named = [x for x in sets if fold(x.get("name") or "") not in ("", "base", "base set") and
             f" {fold(x.get('name') or '')} " in f" {said} "]
    base = [x for x in sets if fold(x.get("name") or "") in ("base", "base set")]
    pick = (named or base or sorted(sets, key=lambda x: -int(x.get("cardCount") or 0)))[0]
    count = int(pick.get("cardCount") or 0)
    return (f"You own no card of {g(rel, 'name', default='that release')} {pick.get('name')} yet: all "
            f"{count:,} of its cards are missing.")


def set_missing(st: State) -> str | None:
    r = st.ok("collection_set_progress_set")
    if not r:
        progress = set_progress(st)
        unowned = _unowned_set(st)
        if unowned and progress:
            return f"{unowned} {progress}"
        if progress and (st.ok("link") or {}).get("entities"):
            return "You own no card of that set yet, so all of it is missing. " + progress
        return progress
    name = g(r, "setName", default="the set")
    if g(r, "releaseName") and g(r, "releaseName") != name:
        name = f"{r['releaseName']} {name}"
    missing = g(r, "missingCards", default=[])
    owned, total = g(r, "ownedCards", default=0), g(r, "totalCards", default=0)
    head = f"You own {owned} of {total} cards of {name} ({float(g(r, 'completionPercentage', default=0)):.0f}%)."
    if not missing:
        return head + " Nothing is missing: the set is complete."
    named = [c for c in st.many.get("missing", []) if isinstance(c, dict) and c.get("name")]
    shown = "; ".join(f"{c['name']} #{c.get('number')}" if c.get("number") else c["name"] for c in named) or \
        ", ".join(str(m) for m in missing[:25])
    cost = f" Estimated cost to complete: {usd(r['estimatedCostToComplete'])}." if g(r, "estimatedCostToComplete") else ""
    more = len(missing) - (len(named) or min(25, len(missing)))
    return head + f" Missing {len(missing)}: {shown}" + (f" and {more} more" if more > 0 else "") + "." + cost


def collection_cards(st: State) -> str | None:
    r = st.ok("collection_cards_list")
    if not r:
        return None
    cards = g(r, "cards", default=[])
    total = g(r, "total_count", default=len(cards))
    if not cards:
        return "Your collection has no cards yet."
    text = f"Your collection has {total} card entr{'ies' if total != 1 else 'y'}"
    shown = [d for d in st.many.get("owned_details", []) if isinstance(d, dict) and d.get("id")]
    if shown:
        more = f" and {total - len(shown)} more" if total > len(shown) else ""
        return text + ": " + "; ".join(card_label(d) for d in shown) + more + "."
    groups = g(st.ok("collection_breakdown"), "groups", default=[])
    if groups:
        names = "; ".join(f"{g(x, 'groupKey', default='?')} ({g(x, 'cardCount', default=0)})" for x in groups[:10])
        return text + f", by player: {names}" + ("; ..." if len(groups) > 10 else "") + "."
    return text + "."


def collections(st: State) -> str | None:
    r = st.ok("collections_list")
    if r is None:
        return None
    cols = g(r, "collections", default=[])
    if not cols:
        return "You don't have any collections yet."
    return f"You have {plural(len(cols), 'collection')}: " + "; ".join(
        g(c, "name", default="(unnamed)") for c in cols) + "."


def wantlist(st: State) -> str | None:
    r = st.ok("list_cards_list")
    if r is None:
        return None
    lists = g(st.ok("lists_list"), "lists", default=[])
    lst = next((x for x in lists if any(w in (x.get("name") or "").lower() for w in ("want", "wish"))),
               lists[0] if lists else None)
    cards = [c for c in st.many.get("wanted", []) if isinstance(c, dict) and c.get("id")]
    total = g(r, "total_count", default=len(cards))
    name = g(lst, "name", default="your want list")
    if not total:
        return f"{name[:1].upper() + name[1:]} is empty."
    if asks_for_sale(st):
        return _wanted_for_sale(st, name, total, cards)
    if asks_cost(st):
        return _list_cost(name, total, cards)
    member = _membership(st, name, total, cards) if asks_membership(st) else None
    if member:
        return member
    asked = _asked_names(st)
    if asked:   # "is mewtwo on my want list": only the cards of that name
        hits = [c for c in cards if any(w in fold(g(c, "name", default="")).split() for w in asked)]
        if not hits:
            return f"No {' '.join(asked)} card is on {name} ({plural(total, 'card')} in all)."
        return f"Yes, {name} has {plural(len(hits), 'card')} of that name: " + "; ".join(card_label(c) for c in hits) + "."
    fits = _described_wanted(st, cards) if st.figure_asked else None
    if fits:   # "anyone selling the base set card from my wants": the list's cards those words fit
        ask = "Which one do you mean?" if len(fits) > 1 else "Ask about it by name for its listings and prices."
        return f"{plural(len(fits), 'card')} on {name} fit: " + "; ".join(card_label(c) for c in fits) + f". {ask}"
    shown = "; ".join(card_label(c) for c in cards)
    more = f" (and {total - len(cards)} more)" if total > len(cards) else ""
    return f"{plural(total, 'card')} on {name}: {shown}{more}."


def asks_for_sale(st: State) -> bool:
    """"which of my wants are for sale", "anything on my list under $20": the wanted cards' listings."""
    return st.intent is not None and st.intent.name == "wantlist" and st.figure_asked and \
        sale_asked(st.ent.text, st.ent.max_price)


def _wanted_for_sale(st: State, name: str, total: int, cards: list[dict[str, Any]]) -> str:
    """Each wanted card's active listings (within the price asked), cheapest first; plainly when none is listed."""
    by_id = {str(c.get("id")): c for c in cards}
    cap = st.ent.max_price
    found = []
    for r in st.many.get("wanted_market", []):
        card = by_id.get(str(g(g(r, "card", default={}), "card_id", default="")))
        if not isinstance(r, dict) or card is None:
            continue
        prices = [float(x["price"]) for x in g(g(r, "raw", default={}), "records", default=[]) if x.get("price") is not None]
        prices += [float(x["price"]) for comp in g(r, "graded", default=[]) for gr in g(comp, "grades", default=[])
                   for x in g(gr, "records", default=[]) if x.get("price") is not None]
        prices = sorted(p for p in prices if cap is None or p <= cap)
        if prices:
            found.append((card, prices))
    bound = f" under {usd(cap)}" if cap is not None else ""
    read = len(st.many.get("wanted_market", []))
    if not found:
        return (f"No active listings{bound} for any of the {plural(read, 'card')} on your want list ({name}): " +
                "; ".join(card_label(c) for c in cards[:10]) + "." + (f" ({total - read} more not read.)"
                                                                        if total > read else ""))
    shown = "; ".join(f"{card_label(c)}: {plural(len(p), 'listing')}{bound}, cheapest {usd(p[0])}" for c, p in found)
    return f"{plural(len(found), 'card')} on your want list ({name}) {'is' if len(found) == 1 else 'are'} for sale" + \
        f"{bound}: {shown}."


def asks_cost(st: State) -> bool:
    """"how much would my want list cost": the list priced, not read out."""
    return st.intent is not None and st.intent.name == "wantlist" and bool(LIST_COST.search(st.ent.text.lower()))


def _list_cost(name: str, total: int, cards: list[dict[str, Any]]) -> str:
    """What the list's cards come to at their raw market value, naming the cards with no price (never
    counted as $0)."""
    priced = [(c, (g(c, "prices", default={}) or {}).get("raw")) for c in cards]
    known = [(c, v) for c, v in priced if isinstance(v, (int, float))]
    unknown = [c for c, v in priced if not isinstance(v, (int, float))]
    more = total - len(cards)
    head = f"Your want list ({name}, {plural(total, 'card')})"
    if not known:
        return (f"{head}: I have no market price for any of its cards, so I can't total it: "
                + "; ".join(card_label(c) for c in unknown[:10]) + ".")
    out = f"{head} comes to about {usd(sum(v for _, v in known))} at raw (ungraded) market value for " \
          f"{plural(len(known), 'priced card')}: " + "; ".join(f"{card_label(c)} {usd(v)}" for c, v in known[:10]) + "."
    if unknown:
        out += f" No price for {plural(len(unknown), 'card')}, not counted: " + \
            "; ".join(card_label(c) for c in unknown[:10]) + "."
    if more > 0:
        out += f" ({more} more not read.)"
    return out


def _entries(st: State) -> list[dict[str, Any]]:
    """The want list's entries read: its first page and the linked card's own entry."""
    return [c for key in ("list_cards_list", "listed_card") for c in g(st.ok(key), "cards", default=[])
            if isinstance(c, dict)]


def _on_list_named(st: State, chosen: dict[str, Any] | None) -> list[dict[str, Any]]:
    """The linked cards on the want list that bear the name asked about (when only a name was given:
    a card told by number, year, release or set is that card, on the list or not)."""
    link = st.ok("link") or {}
    told = st.ent.number or st.ent.year or any(e.get("kind") in ("release", "set") for e in link.get("entities") or [])
    if told and chosen is not None:
        return []
    ids = {str(c.get("cardId")) for c in _entries(st)}
    names = {fold(c.get("name") or "") for c in ([chosen] if chosen else tied(link))}
    names |= {fold(e.get("name") or "") for e in link.get("entities") or [] if e.get("kind") == "name"
              and not e.get("alternate") and e.get("exact")}
    found = {str(c.get("id")): c for c in [*(link.get("cards") or []), *st.many.get("wanted", [])]
             if isinstance(c, dict) and str(c.get("id")) in ids and fold(c.get("name") or "") in names
             and not c.get("variationOf")}
    return list(found.values())


def to_remove(st: State, chosen: dict[str, Any] | None) -> dict[str, Any] | None:
    """The want-list entry of the card to take off: the card the words name when it is on the list;
    otherwise, when only a name was given, the one linked card of that name that is on the list."""
    by_card = {str(c.get("cardId")): c for c in _entries(st)}
    if chosen is not None and str(chosen.get("id")) in by_card:
        return by_card[str(chosen.get("id"))]
    on_list = _on_list_named(st, chosen)
    return by_card[str(on_list[0]["id"])] if len(on_list) == 1 else None


def wantlist_remove(st: State) -> str | None:
    link = st.ok("link")
    chosen = chosen_card(link, st.ent)
    entry = to_remove(st, chosen)
    known = [*((link or {}).get("cards") or []), *st.many.get("wanted", [])]
    card = next((c for c in known if entry and isinstance(c, dict) and str(c.get("id")) == str(entry.get("cardId"))),
                None) or chosen
    label = card_label(card) if card else None
    err = st.result("list_card_remove")
    if entry is not None and st.ok("list_card_remove") is not None:
        return f"Removed {label or 'the card'} from your want list."
    if entry is not None and isinstance(err, dict) and err.get("error"):
        return f"I couldn't take {label or 'the card'} off your want list: {err['error']}"
    if st.ok("list_cards_list") is None:
        return None
    several = _on_list_named(st, chosen)
    if len(several) > 1:   # "remove mewtwo" with two Mewtwos wanted: which one, told apart
        return (f"Your want list has {plural(len(several), 'card')} of that name: " +
                "; ".join(card_label(c) for c in several) + ". Which one do you mean? Nothing was removed.")
    if card is not None:
        return f"{label} is not on your want list, so there was nothing to remove."
    named = next((e.get("name") for e in (link or {}).get("entities") or [] if e.get("kind") == "name"
                  and not e.get("alternate")), None)
    if named:   # the cards of the name are many and none is wanted: no one card named
        return f"No {named} card is on your want list, so nothing was removed."
    return "I couldn't find that card on your want list, so nothing was removed."


def _described_wanted(st: State, cards: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The want list's cards the question's release words and years fit ("the base set one"); all of
    them when it describes none."""
    words = set(fold(st.ent.text).split())
    said = st.ent.reading
    fit = _release_fits(cards, words) or cards
    if said.years:
        fit = [c for c in fit if str(g(c, "releaseYear", default="")).isdigit() and
               said.years[0] <= int(g(c, "releaseYear")) <= said.years[1]]
    return fit


# a list read out, not a card looked for on it
_READ_LIST = re.compile(r"^\s*(what|what's|whats|which|show|list|read|pull up|gimme|give me|let me see|display|"
                        r"how many|remind me)\b|\bshow me\b")
_YES_NO = re.compile(r"\b(is|are|was|were|did|do|does|have|has|already|yet|or not|or no|still|wishlisted|listed|wanted|"
                     r"marked|make it|am i|chasing|hunting)\b")
# a card and "on my wants?" with no verb: asks whether it is on the list ("venusaur on my wants?")
_ON_IT_ASKED = re.compile(r"\bon my (want ?list|wish ?list|wants|grails|grail list|chase list|needs? list|list)\s*\?+\s*$")


_ANOTHER_CARD = re.compile(r"^\s*(and|what about|how about)\b")


def asks_membership(st: State) -> bool:
    """"the base set venusaur - did that make it onto my wants?": a yes/no about a card named, or the
    card the conversation is about, being on the list."""
    text = st.ent.text.lower()
    bare = _ON_IT_ASKED.search(text) and not re.search(r"\b(what|what's|whats|which)\b", text)
    if st.conv.history and _ANOTHER_CARD.match(text) and st.ent.has_card_words:
        return True   # "what about base set blastoise?" after a want-list question: that card on the list
    # a card named with a question mark after it ("wishlist check: base set mewtwo?"): is it on the list
    marked = text.rstrip().endswith("?") and not re.search(r"\b(what|what's|whats|which|how)\b", text)
    if _READ_LIST.search(text) or not (_YES_NO.search(text) or bare or marked):
        return False
    return bool(st.ent.has_card_words) or bool(st.conv.history and POINTS_BACK.search(text))


def _membership(st: State, list_name: str, total: int, wanted: list[dict[str, Any]]) -> str | None:
    """Whether the card the question links is on the list (by the list's card ids, then by name)."""
    if not card_words(st.ent.text) and not st.ent.number and wanted:
        fits = _release_fits(wanted, set(fold(st.ent.text).split()))
        if len(fits) > 1:   # "is the base set one on my want list": every card of the list those words fit
            return f"Yes, {list_name} has {plural(len(fits), 'card')} that fit: " + \
                "; ".join(card_label(c) for c in fits) + ". Which one did you mean?"
    link = st.ok("link")
    if not link:
        return None
    ids = {c.get("cardId") for c in _entries(st)}
    ids |= {c.get("id") for c in wanted}
    card = chosen_card(link, st.ent)
    options = [card] if card else tied(link)
    hits = [c for c in options if c.get("id") in ids]
    if hits:
        return f"Yes, {card_label(hits[0])} is on your want list ({list_name})."
    names = {fold(e.get("name") or "") for e in link.get("entities") or []
             if e.get("kind") == "name" and not e.get("alternate")}
    same = [] if card else [c for c in wanted if fold(g(c, "name", default="")) in names]
    if same:
        return f"Yes, {list_name} has {plural(len(same), 'card')} of that name: " + \
            "; ".join(card_label(c) for c in same) + "."
    if card:
        return f"No, {card_label(card)} is not on your want list ({list_name}, {plural(total, 'card')} in all)."
    named = next((e.get("name") for e in link.get("entities") or [] if e.get("kind") == "name"
                  and not e.get("alternate")), None)
    if named and options:   # cards the words do not tell apart: none of that name is on it (no one card named)
        said = f"{st.ent.year} {named}" if st.ent.year else named   # "no 1989 Ken Griffey Jr. card"
        return f"No, no {said} card is on your want list ({list_name}, {plural(total, 'card')} in all)."
    return None


def _asked_names(st: State) -> list[str]:
    """Words of the question that may name a card ("is mewtwo on my want list" -> ["mewtwo"])."""
    if not re.match(r"^\s*(is|are|was|were|do i (have|still)|have i (got|added|put)|did i (add|put|save))\b",
                    st.ent.text, re.I):
        return []   # a yes/no question about a card ("is X on my list?"), not "what's on my want list?"
    skip = NEVER_NAMES | {"wantlist", "wishlist", "wants", "want", "wish", "list", "lists", "on", "my", "still"}
    words = [w.lower().replace("'", "") for _, w in st.ent.tokens]
    names = [fold(w) for w in words if fold(w) and w not in skip and fold(w) not in skip and not w.isdigit()]
    if not names and st.conv.history and POINTS_BACK.search(st.ent.text):
        # "is it on my want list": the card the conversation is about
        earlier = [w.lower() for _, w in read(st.conv.history[-1]).tokens]
        names = [fold(w) for w in earlier if fold(w) and fold(w) not in skip and fold(w) not in DOMAIN_WORDS
                 and fold(w) not in BRANDS and not w.isdigit()]
    return names


def wantlist_add(st: State) -> str | None:
    r = st.ok("list_cards_add")
    err = st.result("list_cards_add")
    card = chosen_card(st.ok("link"), st.ent)
    label = card_label(card) if card else "the card"
    if r is None:
        if isinstance(err, dict) and err.get("code") == "CONFLICT":
            return f"{label} is already on your want list."
        return f"I couldn't add {label} to your want list: {err['error']}." if isinstance(err, dict) and \
            err.get("error") else None
    return f"Added {label} to your want list."


def owned_by_name(st: State) -> list[dict[str, Any]] | None:
    """Owned cards of the names the question links (None: it links no name to look for)."""
    link = st.ok("link") or {}
    names = {fold(e.get("name") or "") for e in link.get("entities") or []
             if e.get("kind") == "name" and not e.get("alternate")}
    if not names:
        return None
    # a name said in the plural ("89 upper deck griffeys") is the player's cards, not a card named "The Griffeys"
    plural = {p[:-1] for e in link.get("entities") or [] if e.get("kind") == "name" and not e.get("alternate")
              for p in [fold(e.get("phrase") or "")] if len(p) >= 5 and p.endswith("s") and " " not in p}
    said, words = read(st.ent.text), with_makers(set(fold(st.ent.text).split()))
    # a card whose name holds the whole name asked is one of that name too ("a charizard": the Shining one)
    return [c for c in _owned_cards(st) for own in [fold(g(c, "cardName", default=""))]
            if (own in names or plural & set(own.split()) or any(n and set(n.split()) <= set(own.split()) for n in names))
            and _fits(c, said, words)]


def not_owned_named(st: State, name: str) -> str:
    """No owned card fits the words: the cards they fit named (never "no Rickey Henderson card" when I own
    another year's), and the owned cards of that name beside them."""
    link = st.ok("link") or {}
    said = read(st.ent.text)
    described = bool(said.years or said.number or words_of_release(st))   # a card, not only a player
    card = chosen_card(link, st.ent)
    options = [card] if card else tied(link)[:6] if described and link.get("ambiguous") and \
        not link.get("unlinked") else []
    kin = [c for c in _owned_cards(st) for own in [fold(g(c, "cardName", default=""))]
           if own == fold(name) or fold(name) and set(fold(name).split()) <= set(own.split())]
    if options:
        head = f"No, {card_label(options[0])} is not in your collection." if len(options) == 1 else \
            "No, none of these is in your collection: " + "; ".join(card_label(c) for c in options) + "."
    elif kin and described:
        head = f"No, you have no {name} card of that year, release or number in your collection."
    else:
        return f"No, you have no {name} card in your collection."
    if kin:
        head += " The " + (f"{name} card" if len(kin) == 1 else f"{name} cards") + " you own: " + \
            "; ".join(_release_label(c, "cardName") for c in kin) + "."
    return head


def words_of_release(st: State) -> bool:
    """The question names a release or maker ("86 donruss", "base set 2")."""
    return bool(_linked_releases(st)) or bool(set(fold(st.ent.text).split()) & MAKERS)


def owns(st: State) -> str | None:
    r = st.ok("collection_cards_list")
    if r is None:
        owned = owned_by_name(st) if st.ok("owned") is not None else None
        if owned is None:
            return missing(st, "card_id") if st.ok("link") is not None else None
        name = next((e.get("name") for e in (st.ok("link") or {}).get("entities") or [] if e.get("kind") == "name"),
                    "that card")
        if not owned:
            return not_owned_named(st, name)
        name = g(owned[0], "cardName", default=name) if len({g(c, "cardName") for c in owned}) == 1 else name
        full = {str(d.get("id")): d for d in st.many.get("owned_named", []) if isinstance(d, dict) and d.get("id")}
        labels = "; ".join(card_label(full[str(c.get("cardId"))]) if str(c.get("cardId")) in full else
                           _release_label(c, "cardName") for c in owned)
        return f"Yes, you have {plural(len(owned), f'{name} card')} in your collection: {labels}."
    card = chosen_card(st.ok("link"), st.ent)
    label = card_label(card) if card else "that card"
    entries = g(r, "cards", default=[])
    mine = named_owned(st) if not entries and st.ok("owned") else None
    if mine is not None and card is not None and mine.get("cardId") != card.get("id"):
        # "my griffey jr is the upper deck rookie right?": the card of mine the words fit, not another read
        return f"Yes, your {_release_label(mine, 'cardName')} is in your collection."
    if not entries:
        return f"No, {label} is not in your collection."
    qty = sum(int(g(x, "quantity", default=1)) for x in entries)
    return f"Yes, you have {label} in your collection ({plural(qty, 'copy').replace('copys', 'copies')})."


# my cards told apart by their state rather than a name ("my graded card", "my raw one", "my slabs")
GRADED_WORDS = re.compile(r"\b(graded|slabbed|slabs?|encased)\b", re.I)
RAW_WORDS = re.compile(r"\b(raw|ungraded|unslabbed|unsleeved)\b", re.I)
_SPORTS = {v.lower() for v in SEGMENT_WORDS.values()} - {"pokemon"}


def _release_core(release: str) -> set[str]:
    """The words of a release name that tell it apart ("Base Set", "Neo Destiny"), without its year,
    sport or maker ("1989 Upper Deck Baseball" has none)."""
    return {w for w in fold(release).split() if not w.isdigit() and w not in _SPORTS and w not in BRANDS}


def _release_fits(cards: list[dict[str, Any]], words: set[str]) -> list[dict[str, Any]]:
    """The cards whose release the words name by what tells it apart ("base set" for Base Set)."""
    return [c for c in cards if (core := _release_core(g(c, "releaseName", default=""))) and core <= words]


def described_owned(st: State) -> tuple[list[dict[str, Any]], dict[str, str]] | None:
    """The owned cards the question's descriptions fit (grade, graded or raw, sport, year, maker, release,
    a name said in the plural), with each card's grade; None when no description applies."""
    owned = _owned_cards(st)
    grades: dict[str, str] = {}
    for grp in g(st.ok("owned_grades"), "groups", default=[]):
        for c in g(grp, "topCards", default=[]):
            grades[str(g(c, "cardId"))] = str(g(grp, "groupKey", default=""))
    text, said = st.ent.text, st.ent.reading
    words = with_makers({SPELLINGS.get(w, w) for w in fold(text).split()})
    cards, applied = list(owned), False
    if said.grade:
        want = f"{said.company or 'PSA'} {said.grade}".lower()
        cards, applied = [c for c in cards if grades.get(str(g(c, "cardId")), "").lower() == want], True
    elif RAW_WORDS.search(text):
        cards, applied = [c for c in cards if grades.get(str(g(c, "cardId"))) == "Raw"], True
    elif GRADED_WORDS.search(text) or said.company:
        company = (said.company or "").lower()
        cards = [c for c in cards if grades.get(str(g(c, "cardId")), "Raw") != "Raw" and
                 grades.get(str(g(c, "cardId")), "").lower().startswith(company)]
        applied = True
    if said.segment:
        sport = said.segment.lower()
        # a sports release is named with its sport ("1986 Topps Baseball"); a Pokemon one is not
        cards = [c for c in cards for rel in [set(fold(g(c, "releaseName", default="")).split())]
                 if (sport in rel if sport in _SPORTS else not _SPORTS & rel)]
        applied = True
    if said.years or words & MAKERS:
        cards, applied = [c for c in cards if _fits(c, said, words)], True
    lines = (words & BRANDS) - MAKERS - set(SEGMENT_WORDS)   # a product line ("chrome", "score")
    if lines:
        cards, applied = [c for c in cards if lines <= set(fold(g(c, "releaseName", default="")).split())], True
    by_release = _release_fits(cards, words)
    if by_release:
        cards, applied = by_release, True
    # a name in the plural, as typed or as a collector spells it ("my zards": Charizard)
    plural = {w[:-1] for w in words if len(w) >= 5 and w.endswith("s")} | {
        SPELLINGS[w] for w in fold(text).split() if w in SPELLINGS and w.endswith("s") and len(w) >= 5}
    by_name = [c for c in cards if plural & set(fold(g(c, "cardName", default="")).split())]
    if by_name:
        cards, applied = by_name, True
    paid = PAID_FOR.search(text)
    if paid and BOUGHT_BY_ME.search(text):
        cards, applied = _by_paid(cards, paid), True
    if not applied:
        return None
    return cards, grades


def _by_paid(cards: list[dict[str, Any]], paid: re.Match[str]) -> list[dict[str, Any]]:
    """The owned cards bought for the amount said, or the one bought cheapest or dearest."""
    priced = [c for c in cards if g(c, "buyPrice") is not None]
    said = [m for m in paid.groups() if m]
    amount = next((m for m in said if m[0].isdigit()), None)
    if amount is not None:
        return [c for c in priced if abs(float(c["buyPrice"]) - float(amount)) < 0.005]
    if not priced:
        return []
    pick = min if said[0].lower() == "cheapest" else max
    return [pick(priced, key=lambda c: float(c["buyPrice"]))]


def owned_among(st: State) -> str | None:
    """"what did i pay for my psa 9": every owned card the words fit, each told apart by number, release and
    grade with its value and what was paid; one card is answered outright, several are listed and asked."""
    found = described_owned(st)
    if found is None:
        return None
    cards, grades = found
    if not cards:
        name = next((e.get("name") for e in (st.ok("link") or {}).get("entities") or [] if e.get("kind") == "name"
                     and not e.get("alternate") and fold(e.get("phrase") or "") not in common_words()), None)
        # "my 1990 topps frank thomas": that card is not mine (named), rather than no description fitting
        return not_owned_named(st, name) if name else "None of the cards in your collection fits that description."
    details = {str(d.get("id")): d for d in st.many.get("among", []) if isinstance(d, dict) and d.get("id")}

    def line(c: dict[str, Any]) -> str:
        d = details.get(str(g(c, "cardId")))
        label = card_label(d) if d else _release_label(c, "cardName")
        grade = grades.get(str(g(c, "cardId")))
        text = f"{label}{f' ({grade})' if grade else ''}"
        move = _card_move(c)
        if g(c, "currentValue") is not None:
            text += f": worth {usd(c['currentValue'])}"
            if move is not None:
                text += f", {'up' if move > 0 else 'down' if move < 0 else 'even'} {usd(abs(move))} on the " \
                        f"{usd(c['buyPrice'])} you paid"
        elif g(c, "buyPrice") is not None:
            text += f": no market value yet, {usd(c['buyPrice'])} paid"
        return text
    if len(cards) == 1:
        return f"Your {line(cards[0])}."
    valued = [float(c["currentValue"]) for c in cards if g(c, "currentValue") is not None]
    together = f" (together worth {usd(sum(valued))})" if len(valued) > 1 else ""
    return (f"{len(cards)} of your cards fit{together}: " +
            "; ".join(f"{i}. {line(c)}" for i, c in enumerate(cards, 1)) + ". Which one do you mean, if you meant only one?")
