"""Walk a family's steps against the tools offered and the results already in the conversation.

``decide(conversation)`` returns either the next tool calls (one group of independent calls) or
an answer composed from the results. Everything is derived from the messages of the request.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, replace
from typing import Any

from agent.builtin import answers, classifier
from agent.builtin.conversation import Conversation
from agent.builtin.intents import BY_NAME, DETAILS, REMOVE_IT, WANT_WORDS, Step, card_words, classify
from agent.builtin.linking import chosen_card, few_tied, link_history, link_text, parse
from agent.builtin.rewrites import SoFar, everyday_words_only, rewrite
from agent.builtin.state import State
from tools._linking import BRANDS, DOMAIN_WORDS, NEVER_NAMES, SEGMENT_WORDS, fold, read, runs
from tools.catalog_link import common_words


@dataclass
class Decision:
    calls: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    answer: str | None = None


ANOTHER = re.compile(r"^\s*(ok(ay)?,?\s*)?(and\s+)?(another|one more|again|gimme another|give me another|do it again|"
                     r"same again|next)( one| card| please| pls)*( from (that|the same|this) (set|release|one))?"
                     r"\s*[.!?]*\s*$", re.I)


# a sentence's end: ". ", "! ", "? " or "; " before more words ("popcorn's ready. how much is my pc worth")
SENTENCE_END = re.compile(r"(?<=[a-z0-9)'])\s*[.!?;:]+\s+(?=\S)|\s+[-\u2013\u2014]+\s+(?=\S)", re.I)
ABBREVIATIONS = {"jr", "sr", "mr", "mrs", "ms", "dr", "st", "vs", "no", "mt", "ft", "pt", "vol", "bros"}


ASKING = re.compile(r"^\s*(what|what's|whats|which|who|how|is|are|do|does|did|can|could|should|when|where|why|"
                    r"show|list|find|give|tell)\b", re.I)


def _sentences(text: str) -> list[str]:
    """``text`` split at sentence ends, never after an abbreviation ("griffey jr. 1989", "mr. mint"); a colon
    ends one only before a question."""
    parts, start = [], 0
    for m in SENTENCE_END.finditer(text):
        before = re.findall(r"[A-Za-z]+", text[start:m.start()])
        if before and (before[-1].lower() in ABBREVIATIONS or len(before[-1]) == 1) and "." in m.group(0):
            continue
        if m.group(0).strip() == ":" and not ASKING.match(text[m.end():]):
            continue   # "going up or down: 92 donruss knoblauch" asks before the colon; "hall of famer: whats X" after
        parts.append(text[start:m.end()].strip())
        start = m.end()
    return parts + [text[start:]]


def asked_part(question: str) -> str:
    """The question without leading small talk: sentences before the last that state nothing a card is
    read by (no year, number, grade, brand or release word) are chatter ("thinking of a switch from
    baseball to pokemon. is the base set mewtwo on my want list?"), and their everyday words that are
    also card names ("switch", "cotton candy", "mount everest") are not what is asked about."""
    parts = _sentences(question.strip())
    if len(parts) < 2:
        return question
    last = parts[-1]
    if len(re.findall(r"[A-Za-z0-9']+", last)) < 3 or re.search(
            r"\b(it|its|that|this|those|these|them|he|she|his|her|one)\b", last, re.I):
        return question   # "what's it worth?": the card is in the sentences before
    if parts[-2].rstrip().endswith(("-", "\u2013", "\u2014")):
        # a dash parts chatter from a question that names its card itself ("oregon road trip card haul
        # question - what parallels does 2024 allen & ginter x have"), never "my cards - how many bucks"
        r = read(last)
        if re.search(r"\b(my|i|me|mine)\b", " ".join(parts[:-1]), re.I) or not (
                r.years or r.number or any(fold(w) in BRANDS and fold(w) not in SEGMENT_WORDS for _, w in r.tokens)):
            return question
    for lead in parts[:-1]:
        if lead.rstrip().endswith("?") or ASKING.match(lead) or classifier.bare_name(lead):
            return question   # "who grades cards? list them", "lugia neo genesis... on my list?": not small talk
        r = read(lead)
        if r.years or r.number or r.grade or r.company or r.segment or r.attributes or \
                any((fold(w) in BRANDS or fold(w) in DOMAIN_WORDS) and fold(w) not in SEGMENT_WORDS for _, w in r.tokens):
            return question   # "looking at 1986 fleer. is the jordan rookie in my pc": the lead scopes it
    return last


def understand(conv: Conversation) -> State:
    if conv.history and ANOTHER.match(conv.question):
        conv = replace(conv, question=conv.history[-1])   # "another one": the last request again (a new pull)
    if conv.history and DITTO.match(conv.question):
        conv = replace(conv, question=DITTO.sub("what about ", conv.question, count=1))   # "ditto for X": never Ditto
    focus = asked_part(conv.question)
    whole = classify(conv.question) if focus != conv.question else None
    if whole is not None and whole[0] is not BY_NAME["feedback"]:
        conv, whole = replace(conv, question=focus), None   # small talk left out (feedback keeps every word)
    ent = parse(conv.question, conv.history, conv.last_answer)
    intent, confidence = whole or classify(conv.question)
    if conv.history and REMOVE_IT.match(conv.question.lower()) and WANT_WORDS.search(" ".join(conv.history[-2:]).lower()):
        intent, confidence = BY_NAME["wantlist_remove"], 1.0   # "actually take it off" after a want-list turn
    r = SoFar(conv, ent, intent, confidence)
    rewrite(r)   # the question-level rewrites of the family, in order (rewrites.RULES)
    intent = r.intent
    st = State(intent, ent, conv, confidence, mine=r.mine, figure_asked=r.figure_asked)
    if not conv.history and intent is not None and intent.name in LOOSE_FAMILIES and \
            everyday_words_only(conv.question) and not _my_word(st):
        st.tentative = True   # "best way to store cards": a name only if the catalog has the word exactly
    if intent is None and (ent.tokens or ent.number) and confidence >= 0.35:
        st.intent, st.tentative = DETAILS, True   # a bare name, maybe: the catalog decides
        st.guessed = True   # no family fits: a one-word name counts only when the question is only names
    elif intent is DETAILS and not conv.history and not (ent.number or ent.year) and classifier.bare_name(conv.question):
        st.tentative = True   # one or two words, no year or number: a name only if the catalog has it exactly
    if intent is BY_NAME["set_facts"] and not intent.matches(conv.question) and _whole_name_linked(conv):
        st.intent = DETAILS   # "zach day 2005 topps": like a release-date question, but a player's card is named
    return st


def _whole_name_linked(conv: Conversation) -> bool:
    """The catalog read a player's or card's whole name of two words or more in the question (its link done)."""
    return any(name == "catalog_link" and isinstance(result, dict) and any(
        e.get("kind") == "name" and e.get("exact") and not e.get("alternate") and not e.get("fromHistory")
        and len(str(e.get("name") or "").split()) >= 2 for e in result.get("entities") or [])
        for name, _, result in conv.done)


MY_WORD = re.compile(r"\bmy\s+([a-z][a-z'\-]+)", re.I)   # the word after "my": the name it says, if any


def _my_word(st: State) -> bool:
    """ "whats my henderson worth": the word after "my" may name a card I own (a surname that is also an English
    word), so with a collection to read it is not dropped as everyday talk before my cards are read."""
    said = MY_WORD.search(st.conv.question)
    return bool(st.conv.collection_id and said and fold(said.group(1)) not in NEVER_NAMES and
                not answers.collection.WHOLE.search(st.conv.question))


# "ditto for the base set 2 one", "same for X": the last question again, about other words
DITTO = re.compile(r"^\s*(ditto|same|same q|same question)\s+(for|with|on|about)\s+", re.I)
LOOSE_FAMILIES = {"find", "details", "owns", "price", "trend", "marketplace", "population", "price_compare"}


# --------------------------------------------------------------------------- variables
def _link(st: State) -> dict[str, Any] | None:
    return st.ok("link")


def _entities(st: State, kind: str) -> list[dict[str, Any]]:
    return [e for e in (_link(st) or {}).get("entities") or [] if e.get("kind") == kind]


def _chosen(st: State) -> dict[str, Any] | None:
    return chosen_card(_link(st), st.ent, priced=answers.priced(st), with_data=st.tied_with_data())


def _card(st: State) -> dict[str, Any] | None:
    return _chosen(st) or _owned_tied(st)


OWNED_FIRST = {"price", "trend"}   # families where "my X" among several cards of that name is the one I own


def _mine_ambiguous(st: State) -> bool:
    """ "value on my rickey henderson card": my card, with several cards of the name linked."""
    link = _link(st) or {}
    return bool(st.mine and st.intent is not None and st.intent.name in OWNED_FIRST and link.get("ambiguous")
                and not link.get("unlinked") and _collection(st) is not None)


def _mine_undecided(st: State) -> bool:
    """My card, which the words alone do not tell from the others."""
    return _mine_ambiguous(st) and _chosen(st) is None


def _owned_tied(st: State) -> dict[str, Any] | None:
    """The card I own of the name asked, once the collection is read; ``_card`` asks only when the words
    chose none."""
    if not (st.ok("owned") and _mine_ambiguous(st)):
        return None
    owned = answers.collection.named_owned(st)
    if not owned or not owned.get("cardId"):
        return None
    options = (_link(st) or {}).get("cards") or []
    return next((c for c in options if c.get("id") == owned["cardId"]),
                {"id": owned["cardId"], "name": owned.get("cardName")})


def _card_id(st: State) -> str | None:
    c = _card(st)
    return str(c["id"]) if c and c.get("id") else None


def _release_id(st: State) -> str | None:
    # a segment word ("pokemon") scopes by segment; it names a release only when nothing else does
    rels = [e for e in _entities(st, "release") if not _segment_word(e)] or _entities(st, "release")
    year = st.ent.year or ((_link(st) or {}).get("constraints") or {}).get("year")   # the link may read "95" as one
    if rels:
        rels.sort(key=lambda e: (not (year and str(e.get("year") or "").startswith(year)), -e.get("score", 0)))
        return rels[0]["ids"][0] if rels[0].get("ids") else None
    c = _card(st)
    return c.get("releaseId") if c else None


def _set_id(st: State) -> str | None:
    sets = [e for e in _entities(st, "set") if len(e.get("ids") or []) == 1]
    return sets[0]["ids"][0] if sets else None


def _company_id(st: State) -> str | None:
    r = st.ok("grades_companies")
    if not r or not st.ent.company:
        return None
    for c in r.get("companies", []):
        if (c.get("abbreviation") or "").upper() == st.ent.company or (c.get("name") or "").upper().startswith(
                st.ent.company):
            return c.get("id")
    return None


def _type_id(st: State) -> str | None:
    types = (st.ok("grades_types") or {}).get("types", [])
    card = next((t for t in types if (t.get("name") or "").lower() == "card"), None)
    return (card or (types[0] if types else {})).get("id")


def _collection(st: State) -> str | None:
    if st.conv.collection_id:
        return st.conv.collection_id
    cols = (st.ok("collections_list") or {}).get("collections", [])
    return cols[0].get("id") if len(cols) == 1 else None


def _list_id(st: State) -> str | None:
    lists = (st.ok("lists_list") or {}).get("lists", [])
    if not lists:
        return None
    wanted = [x for x in lists if "want" in (x.get("name") or "").lower() or "wish" in (x.get("name") or "").lower()]
    return (wanted or lists)[0].get("id")


def _progress_set_id(st: State) -> str | None:
    sets = (st.ok("collection_set_progress") or {}).get("sets", [])
    # what was said, and what it was linked to, unless it was a lone release word ("set")
    ents = [e for e in (_link(st) or {}).get("entities") or [] if fold(e.get("phrase") or "") not in DOMAIN_WORDS]
    phrases = [fold(e.get("phrase") or "") for e in ents] + [fold(e.get("name") or "") for e in ents]
    best, best_len = None, 0
    years = st.ent.years
    for s in sets:
        year = str(s.get("releaseYear") or "")[:4]
        if years and year.isdigit() and not years[0] <= int(year) <= years[1]:
            continue   # "'87 topps base": never my 1986 Topps set, whose name shares the words said
        names = {fold(s.get("setName") or ""), fold(s.get("releaseName") or "")}
        for p in phrases:
            # the longest phrase said that is a whole name or whole words of one ("neo destiny", not "set")
            if p and len(p) > best_len and (p in names or any(f" {p} " in f" {n} " for n in names if n)) and \
                    p not in DOMAIN_WORDS:
                best, best_len = s.get("setId"), len(p)
    return best


SIDES = re.compile(r"\s(?:or|vs\.?|versus|against|compared to)\s|,\s*or\s|"
                   r"\s(?:worth more|more valuable|pricier|more expensive|costs? more|sells? for more)\s+than\s", re.I)


def _sides(st: State) -> list[str]:
    words = r"(worth more|more valuable|pricier|costs? more|more expensive|value-wise|better (card )?value)"
    text = re.sub(rf"^.*?\b{words}(\s+in\s+\w+\s*\d*(\.5)?)?[,:]?", "", st.ent.text, flags=re.I) \
        if re.match(rf"^\s*(which|what)\b.*\b{words}\b.*?[,:]?\s*\S", st.ent.text, re.I) else st.ent.text
    if ":" in text:   # "which is the better card in psa 9: light azumarill or light arcanine"
        text = text.split(":", 1)[1]
    text = re.sub(r",\s*(which|what|who)\b.*$", "", text, flags=re.I)   # "X or Y, which is worth more"
    parts = [p.strip(" ?,.") for p in SIDES.split(text) if p.strip(" ?,.")]
    return _share(parts) if len(parts) == 2 else []


_QUALIFIER = re.compile(r"\s+((?:from|in|of)\s+(?:the\s+)?(?:\d{2,4}\s+)?[a-z][\w' &-]*)$", re.I)


def _share(parts: list[str]) -> list[str]:
    """Words said once for both sides ("charizard or blastoise from base set", "1989 griffey or
    bonds", "base set charizard or blastoise"): each side is linked with them."""
    a, b = parts
    m = _QUALIFIER.search(b)
    if m and not _QUALIFIER.search(a):
        a = f"{a} {m.group(1)}"
    lead = []
    for w in a.split():
        lw = w.lower().strip(",")
        if lw in ("the", "a", "an", "is", "which", "what"):
            continue
        if re.fullmatch(r"'?\d{2}|\d{4}", lw) or lw in BRANDS or lw in DOMAIN_WORDS:
            lead.append(w)
            continue
        break
    if lead and not any(w.lower() in b.lower().split() for w in lead) and not read(b).years:
        b = f"{' '.join(lead)} {b}"
    # words after the last name said for both: "charizard or blastoise base set (which sells for more)"
    tail: list[str] = []
    for w in reversed(b.split()):
        lw = w.lower().strip(",?")
        if lw in NEVER_NAMES and not tail:
            continue
        if lw in BRANDS or lw in DOMAIN_WORDS or re.fullmatch(r"\d{4}", lw):
            tail.insert(0, w)
            continue
        break
    if tail and not any(w.lower() in a.lower().split() for w in tail) and not _QUALIFIER.search(a):
        a = f"{a} {' '.join(tail)}"
    ra, rb = read(a), read(b)
    if ra.attributes and not rb.attributes:   # "griffey rookie or bonds"
        b = f"{b} {' '.join(ra.attributes)}"
    elif rb.attributes and not ra.attributes:
        a = f"{a} {' '.join(rb.attributes)}"
    return [a, b]


def _owned_side(st: State, link: dict[str, Any]) -> dict[str, Any] | None:
    """The card I own that one side of "my X or my Y" names: one of its candidates, or its name linked."""
    if not st.mine:
        return None
    owned = answers.collection.owned_cards(st)
    ids = {c.get("id") for c in link.get("cards") or []}
    names = {fold(e.get("name") or "") for e in link.get("entities") or [] if e.get("kind") == "name"
             and not e.get("alternate")}
    mine = [c for c in owned if c.get("cardId") in ids] or [c for c in owned if fold(c.get("cardName") or "") in names]
    return {"id": mine[0]["cardId"], "name": mine[0].get("cardName")} if len(mine) == 1 else None


def _compare_ids(st: State) -> list[str] | None:
    a, b = st.ok("link"), st.ok("link_b")
    if a and b:
        picks = [_owned_side(st, x) or chosen_card(x, st.ent, priced=True) or ((x.get("cards") or [None])[0])
                 for x in (a, b)]
        ids = [p["id"] for p in picks if p and p.get("id")]
        return ids if len(ids) == 2 else None
    cards = (_link(st) or {}).get("cards") or []
    best: dict[str, str] = {}
    for c in cards:
        best.setdefault(c.get("name"), c.get("id"))
    ids = [i for i in best.values() if i][:3]
    return ids if len(ids) >= 2 else None


def _missing_ids(st: State) -> list[str] | None:
    ids = (st.ok("collection_set_progress_set") or {}).get("missingCards") or []
    return [str(i) for i in ids[:10]] or None


def _want_card_ids(st: State) -> list[str] | None:
    cards = (st.ok("list_cards_list") or {}).get("cards", [])
    # what the list would cost needs every card's price; a list read out shows the first ten
    most = 50 if answers.collection.asks_cost(st) or st.intent is BY_NAME["wantlist_remove"] else 10
    ids = [c.get("cardId") for c in cards if c.get("cardId")][:most]
    return ids or None


def _near_ids(st: State) -> list[str] | None:
    return [str(c["id"]) for c in answers.market.near_cards(st, _card(st))] or None


def _want_link_id(st: State) -> str | None:
    """The list entry (its link id) of the card to take off the list (answers.collection.to_remove)."""
    entry = answers.collection.to_remove(st, _card(st))
    return str(entry["id"]) if entry and entry.get("id") else None


def _linked_name(st: State) -> str | None:
    """A name to pull a random card of; words that also name a release or set ("fossil") scope instead."""
    scopes = {fold(e.get("phrase") or "") for e in _entities(st, "release") + _entities(st, "set")}
    names = [e for e in _entities(st, "name") if not e.get("alternate") and fold(e.get("phrase") or "") not in scopes
             and fold(e.get("phrase") or "") not in common_words()]   # "grant me a random card": no name
    return names[0]["name"] if names else None


def _random_scope(st: State) -> tuple[str | None, str | None]:
    """(release id, set id) a random pull is limited to: one of them, never both."""
    if not _scoped(st):
        return None, None
    sets = [e for e in _entities(st, "set") if len(e.get("ids") or []) == 1 and not _segment_word(e)]
    rels = [e for e in _entities(st, "release") if not _segment_word(e)]
    top = ((_link(st) or {}).get("cards") or [{}])[0]
    if rels and _entities(st, "set") and {"release", "set"} <= set(top.get("matched") or []) and top.get("setId"):
        return None, top["setId"]   # "the 2024 topps update base set": that release's set named
    if rels:
        return _release_id(st), None
    if sets:
        return None, sets[0]["ids"][0]
    return None, None


def _random_set_name(st: State) -> str | None:
    """A pull from a release's named set that the link could not pin to one id ("1993 studio heritage insert"):
    the set's name, filtering the release's cards (the base set, named differently per release, is left out)."""
    release, _ = _random_scope(st)
    if release is None:
        return None
    names = [e.get("name") for e in _entities(st, "set") if len(e.get("ids") or []) > 1 and not _segment_word(e)
             and fold(e.get("name") or "") not in ("base", "base set")]
    return names[0] if names else None


def _random_base_set(st: State) -> bool:
    """A pull from a release's base set said as such, which the link pinned to no one set."""
    release, one_set = _random_scope(st)
    return release is not None and one_set is None and _random_set_name(st) is None and any(
        fold(e.get("name") or "") in ("base", "base set") for e in _entities(st, "set"))


def _release_year(st: State) -> str | None:
    r = st.ok("catalog_release")
    y = str((r or {}).get("year") or "")[:4]
    return y if y.isdigit() else None


def _base_set_id(st: State) -> str | None:
    sets = (st.ok("catalog_release") or {}).get("sets") or []
    if not sets:
        return None
    phrases = {fold(e.get("phrase") or "") for e in (_link(st) or {}).get("entities") or []}
    named = [x for x in sets if fold(x.get("name") or "") in phrases]
    base = [x for x in sets if fold(x.get("name") or "") in ("base", "base set")]
    pick = (named or base or sorted(sets, key=lambda x: -int(x.get("cardCount") or 0)))[0]
    return pick.get("id")


def _insert_set_ids(st: State) -> list[str] | None:
    """A release asked about with no set named ("what parallels does 1999 topps have"): its other sets that
    have parallels, most first (a release's parallels are every set's; a set named is answered alone)."""
    sets = (st.ok("catalog_release") or {}).get("sets") or []
    base_id = _base_set_id(st)
    phrases = {fold(e.get("phrase") or "") for e in (_link(st) or {}).get("entities") or []}
    if base_id is None or any(fold(x.get("name") or "") in phrases for x in sets):
        return None
    more = sorted((x for x in sets if x.get("parallelCount") and x.get("id") != base_id),
                  key=lambda x: -int(x["parallelCount"]))
    return [str(x["id"]) for x in more[:7]] or None


def _random_release_ids(st: State) -> list[str] | None:
    rels = (st.ok("random_release") or {}).get("releases", [])
    return [str(r["id"]) for r in rels if r.get("id")] or None


def variable(st: State, name: str) -> Any:
    e = st.ent
    h = st.conv.history
    simple = {"group_by": e.group_by or "release", "text": e.text[:1000], "segment": e.segment,
              "period": f"{e.period_days}d" if e.period_days else None}
    if name in simple:
        return simple[name]
    if name == "link_text":
        return link_text(e, h, st.conv.last_answer, card_words(e.text), st.conv.answers)
    if name == "link_history":
        return link_history(e, h)
    if name in ("compare_a", "compare_b"):
        sides = _sides(st)
        if not sides:
            return link_text(e, h, st.conv.last_answer) if name == "compare_a" else None
        return sides[0] if name == "compare_a" else sides[1]
    if name == "random_scope_release":
        return _random_scope(st)[0]
    if name == "random_scope_set":
        return _random_scope(st)[1]
    if name == "random_set_name":
        return _random_set_name(st)
    if name == "want_items":
        cid = _card_id(st)
        return {"cardId": cid} if cid else None
    resolvers = {"card_id": _card_id, "company_id": _company_id, "type_id": _type_id, "release_id": _release_id,
                 "set_id": _set_id, "collection_id": _collection, "list_id": _list_id,
                 "owned_set_id": _progress_set_id, "compare_ids": _compare_ids, "want_card_ids": _want_card_ids,
                 "want_link_id": _want_link_id, "near_ids": _near_ids, "missing_ids": _missing_ids,
                 "linked_name": _linked_name, "random_release_ids": _random_release_ids,
                 "release_year": _release_year, "base_set_id": _base_set_id, "insert_set_ids": _insert_set_ids,
                 "tied_ids": lambda st: few_tied(_link(st)) or None,
                 "owned_card_id": lambda st: (answers.collection.named_owned(st) or {}).get("cardId"),
                 "among_ids": _among_ids,
                 "owned_named_ids": lambda st: [str(c["cardId"]) for c in answers.collection.owned_by_name(st) or []
                                                if c.get("cardId")][:OWNED_SHOWN] or None,
                 "owned_ids": lambda st: [str(c["cardId"]) for c in (st.ok("collection_cards_list") or {}).get(
                     "cards", []) if c.get("cardId")][:OWNED_SHOWN] or None}
    return resolvers[name](st) if name in resolvers else None


OWNED_SHOWN = 10   # owned cards read in full for "what cards do i own"


def _among_ids(st: State) -> list[str] | None:
    found = answers.collection.described_owned(st)
    return [str(c["cardId"]) for c in found[0] if c.get("cardId")][:10] if found else None


def _segment_word(e: dict[str, Any]) -> bool:
    return fold(e.get("phrase") or "") in SEGMENT_WORDS


def _scoped(st: State) -> bool:
    ents = [e for e in (_link(st) or {}).get("entities") or [] if not _segment_word(e)]
    # a name read from an everyday word ("throw me a random baseball card") scopes nothing: the segment does
    return any(e.get("kind") in ("release", "set") or e.get("kind") == "name" and not e.get("alternate") and
               fold(e.get("phrase") or "") not in common_words() for e in ents)


def _has_scope(st: State) -> bool:
    return _scoped(st)


def _set_alone(st: State) -> bool:
    """A set named by itself, no card and no release ("2024 select future - which parallel is rarest")."""
    return not _names_a_card(st) and not _entities(st, "release") and _set_id(st) is not None


def _names_a_card(st: State) -> bool:
    link = _link(st) or {}
    names = [e for e in _entities(st, "name") if not e.get("alternate")]
    return bool(names) or bool((link.get("constraints") or {}).get("number"))


def _names_card_words(st: State) -> bool:
    """A year, a number or a word that may name a card (``card_words``)."""
    return bool(st.ent.years or st.ent.number or card_words(st.ent.text))


PREDICATES = {
    "names_card_words": _names_card_words,
    "wants_for_sale": lambda st: answers.collection.asks_for_sale(st),
    "has_company": lambda st: bool(st.ent.company),
    "no_collection": lambda st: not st.conv.collection_id,
    "says_my": lambda st: st.mine,
    "my_no_collection": lambda st: not st.conv.collection_id and st.ent.says_my,
    "has_card_words": lambda st: bool(st.ent.has_card_words),
    # "which ones am i missing from it": the set the conversation is about
    "names_or_refers": lambda st: bool(st.ent.has_card_words or (st.conv.history and st.ent.follow_up)),
    # "random card from 2021 prizm": a year or a release word alone scopes a pull too
    "has_scope_words": lambda st: bool(st.ent.has_card_words or st.ent.year or any(
        fold(w) in BRANDS or fold(w) in DOMAIN_WORDS for _, w in st.ent.tokens)),
    "has_card": lambda st: _card_id(st) is not None,
    "my_card_named": lambda st: st.mine and _card_id(st) is not None,
    "no_card": lambda st: _card_id(st) is None,
    "has_set": lambda st: _progress_set_id(st) is not None,
    "no_set": lambda st: _progress_set_id(st) is None,
    "unowned_release": lambda st: _progress_set_id(st) is None and _release_id(st) is not None and bool(
        _entities(st, "release")),
    "random_in_catalog": lambda st: _has_scope(st) or not st.ent.segment,
    "two_sides": lambda st: bool(_sides(st)),
    "asks_date": lambda st: bool(answers.cards.ASKS_DATE.search(st.ent.text)),
    "card_or_no_release": lambda st: _names_a_card(st) or not (_entities(st, "release") or _set_alone(st)),
    "set_not_card": _set_alone,
    "release_not_card": lambda st: not _names_a_card(st) and bool(_entities(st, "release")),
    "random_by_segment": lambda st: bool(st.ent.segment) and not _has_scope(st),
    "random_base_set": _random_base_set,
    "names_owned": lambda st: answers.collection.named_owned(st) is not None,
    "asks_ranking": lambda st: answers.collection.asks_ranking(st),
    "asks_membership": lambda st: answers.collection.asks_membership(st),
    "undecided": lambda st: _card(st) is None and bool(few_tied(_link(st))),
    "mine_undecided": _mine_undecided,
    "not_on_list_yet": lambda st: answers.collection.to_remove(st, _card(st)) is None,
    "unlisted_pick": lambda st: answers.market.unlisted(st.ok("marketplace_card")),
    "feedback_card": lambda st: _feedback_card(st),
    "no_feedback_card": lambda st: not _feedback_card(st),
}


def _feedback_card(st: State) -> bool:
    """Feedback is about a card only when the words clearly name one (an exact name, or a name with its
    number, year, release or set): "this app is awesome, say thanks" is about no card named Say Cheese."""
    c = _card(st)
    if c is None:
        return False
    exact = any(e.get("exact") and e.get("name") == c.get("name") for e in _entities(st, "name"))
    return exact or len(set(c.get("matched") or []) & {"number", "year", "release", "set"}) >= 1 and \
        "name" in (c.get("matched") or [])


def _args(st: State, template: dict[str, Any], item: Any = None) -> dict[str, Any]:
    out = {}
    for k, v in template.items():
        if v == "$item":
            value = item
        else:
            value = variable(st, v[1:]) if isinstance(v, str) and v.startswith("$") else v
        if value is not None:
            out[k] = value
    return out


def _same(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return json.dumps(a, sort_keys=True, default=str) == json.dumps(b, sort_keys=True, default=str)


def decide(conv: Conversation) -> Decision:
    st = understand(conv)
    if st.intent is None or st.intent.name == "unknown":
        return Decision(answer=answers.unanswerable(st))
    if st.intent.needs_card and not st.ent.has_card_words and not (conv.history and st.ent.follow_up) and \
            not (st.intent.name == "parallels" and PREDICATES["has_scope_words"](st)):   # "parallels in 2021 prizm"
        return Decision(answer=answers.which_card(st))
    for group in st.intent.steps:
        pending: list[tuple[str, dict[str, Any]]] = []
        for step in group:
            outcome = _step(st, step, pending)
            if isinstance(outcome, str):
                return Decision(answer=outcome)
        if pending:
            if conv.final:
                return Decision(answer=answers.compose(st, unfinished=True))
            return Decision(calls=pending)
    return Decision(answer=answers.compose(st))


def _done(st: State, tool: str, args: dict[str, Any]) -> tuple[bool, Any]:
    for name, done_args, result in st.conv.done:
        if name == tool and _same(done_args, args):
            return True, result
    return False, None


def _step(st: State, step: Step, pending: list[tuple[str, dict[str, Any]]]) -> str | None:
    """Record a done step's result or add it to ``pending``; a string is an early answer."""
    if step.when and not PREDICATES[step.when](st):
        return None
    tool = next((t for t in step.tools if t in st.conv.tools or st.conv.final), None)
    if tool is None:
        return None if step.optional else answers.unavailable(st, step.tools[0])
    for need in step.needs:
        if variable(st, need) is None:
            if need == "want_link_id":   # not on the list, or several of the name are: said by the answer
                return answers.collection.wantlist_remove(st)
            return answers.missing(st, need)
    if step.each:
        items = variable(st, step.each) or []
        results = []
        for item in items:
            args = _args(st, step.args, item)
            done, result = _done(st, tool, args)
            if done:
                results.append(result)
            else:
                pending.append((tool, args))
        st.many[step.result_key] = results
        return None
    args = _args(st, step.args)
    done, result = _done(st, tool, args)
    if done:
        st.results[step.result_key] = result
        if step.result_key == "link" and st.tentative and not _confident_link(
                result, whole=classifier.bare_name(st.conv.question) or (
                    not st.guessed and not everyday_words_only(st.conv.question))):
            # "tiger woods upper deck rookie value": a card asked for by a name the catalog lacks
            return answers.not_found(st) if _asks_a_card(st) else answers.unanswerable(st)
        return None
    pending.append((tool, args))
    return None


def _asks_a_card(st: State) -> bool:
    """A year, a brand or an attribute (rookie, auto) beside two words that are no family's words: a card
    is asked for by a name ("justin jefferson prizm rookie price"), not everyday talk."""
    r = st.ent.reading
    if not (r.years or r.attributes or any(fold(w) in BRANDS and fold(w) not in SEGMENT_WORDS for _, w in r.tokens)):
        return False
    vocab = classifier.vocabulary()
    return any(len([w for w in run if fold(w) not in vocab and fold(w) not in BRANDS]) >= 2 for run in runs(r))


def _confident_link(link: Any, whole: bool = True) -> bool:
    """An exact name, release or set; among everyday words ("is the site down for maintenance"), only a
    name of two words or more ("jim rice") is one."""
    if not isinstance(link, dict):
        return False
    return any(e.get("exact") and e.get("kind") in ("name", "release", "set") and
               (whole or len(str(e.get("name") or "").split()) >= 2) for e in link.get("entities") or []) or \
        whole and _readings_agree(link)


def _readings_agree(link: dict[str, Any]) -> bool:
    """A misspelt name beside a misspelt release ("empolean stormfornt"), every word read: the leading card
    answers both readings, which everyday words hardly ever do by chance."""
    cards = link.get("cards") or []
    matched = set(cards[0].get("matched") or []) if cards else set()
    return "name" in matched and bool(matched & {"release", "set"}) and not link.get("unlinked")


__all__ = ["BY_NAME", "Decision", "PREDICATES", "decide", "understand", "variable"]
