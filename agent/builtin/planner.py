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
from agent.builtin.intents import ADD_VERBS, BY_NAME, DETAILS, MINE, MY_WANTS, Intent, Step, card_words, classify, grading_only
from agent.builtin.linking import ACK, chosen_card, few_tied, link_history, link_text, parse
from agent.builtin.state import State
from tools._linking import BRANDS, DOMAIN_WORDS, NEVER_NAMES, SEGMENT_WORDS, fold, read, runs
from tools.catalog_link import common_words

INHERIT = {"details", "find", "help"}   # a follow-up classified as these keeps the earlier family
WEAK = 0.6   # a family's nearest example below this similarity is a weak reading
SAME_ASKED = re.compile(rf"^\s*{ACK}same (question|thing|deal|again)\b", re.I)   # the earlier question, other words
ELLIPSIS = re.compile(rf"^\s*{ACK}(and|what about|how about|same for|same (question|thing|deal|again)( for| with| at| on)?|"
                      r"now|ok and|also)\b", re.I)


@dataclass
class Decision:
    calls: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    answer: str | None = None


def _previous_intent(history: list[str]) -> Intent | None:
    for q in reversed(history):
        intent, _ = classify(q)
        if intent is not None and intent.name not in ("help", "identify"):
            return intent
    return None


ANOTHER = re.compile(r"^\s*(ok(ay)?,?\s*)?(and\s+)?(another|one more|again|gimme another|give me another|do it again|"
                     r"same again|next)( one| card| please| pls)*( from (that|the same|this) (set|release|one))?"
                     r"\s*[.!?]*\s*$", re.I)


# a sentence's end: ". ", "! ", "? " or "; " before more words ("popcorn's ready. how much is my pc worth")
SENTENCE_END = re.compile(r"(?<=[a-z0-9)'])\s*[.!?;]+\s+(?=\S)|\s+[-\u2013\u2014]+\s+(?=\S)", re.I)
ABBREVIATIONS = {"jr", "sr", "mr", "mrs", "ms", "dr", "st", "vs", "no", "mt", "ft", "pt", "vol", "bros"}


ASKING = re.compile(r"^\s*(what|what's|whats|which|who|how|is|are|do|does|did|can|could|should|when|where|why|"
                    r"show|list|find|give|tell)\b", re.I)


def _sentences(text: str) -> list[str]:
    """``text`` split at sentence ends, never after an abbreviation ("griffey jr. 1989", "mr. mint")."""
    parts, start = [], 0
    for m in SENTENCE_END.finditer(text):
        before = re.findall(r"[A-Za-z]+", text[start:m.start()])
        if before and (before[-1].lower() in ABBREVIATIONS or len(before[-1]) == 1) and "." in m.group(0):
            continue
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

MY_CARD_ONLY = re.compile(r"^\s*(the one )?(in )?my\s+")


def understand(conv: Conversation) -> State:
    if conv.history and ANOTHER.match(conv.question):
        conv = replace(conv, question=conv.history[-1])   # "another one": the last request again (a new pull)
    focus = asked_part(conv.question)
    whole = classify(conv.question) if focus != conv.question else None
    if whole is not None and whole[0] is not BY_NAME["feedback"]:
        conv, whole = replace(conv, question=focus), None   # small talk left out (feedback keeps every word)
    ent = parse(conv.question, conv.history, conv.last_answer)
    intent, confidence = whole or classify(conv.question)
    # "and the psa 9?", "what about dark scizor": the earlier family, about these words
    rest = ELLIPSIS.sub("", conv.question, count=1)
    # "and my sandberg?" after a question about my zard: the same question about my other card
    mine_again = bool(conv.history and ELLIPSIS.match(conv.question) and MY_CARD_ONLY.match(rest) and
                      classifier.bare_name(MY_CARD_ONLY.sub("", rest, count=1).rstrip("?! ")) and
                      (_previous_intent(conv.history) or BY_NAME["unknown"]).collection)
    elliptical = bool(ELLIPSIS.match(conv.question)) and (
        ent.elliptical or classifier.bare_name(rest) or bool(SAME_ASKED.match(conv.question)) or mine_again)
    # "and the lowest one?": a weak reading of a short follow-up naming nothing keeps the earlier family
    weak = bool(ELLIPSIS.match(conv.question)) and confidence < WEAK and not ent.has_card_words
    if conv.history and (ent.reply or elliptical or weak or
                         (ent.follow_up and (intent is None or intent.name in INHERIT))):
        earlier = _previous_intent(conv.history)
        if earlier is not None and (ent.reply or earlier.needs_card or weak or intent is None or intent.name == "unknown"
                                    or SAME_ASKED.match(conv.question) or mine_again) \
                and not (intent is not None and intent.name == "wantlist_add" and confidence >= 1.0):
            intent = earlier   # (an explicit add stays one: "add the second one to my want list")
    if conv.history and not ent.qualifier and ELLIPSIS.match(conv.question):
        older = read(conv.history[-1])
        if older.qualifier:   # "what about PD" after a label qualifier's meaning: another qualifier
            ent.reading.qualifier = read(f"{older.company or 'psa'} {conv.question}").qualifier
            ent.reading.company = ent.company or older.company
    if conv.history and ent.follow_up and confidence < WEAK and not (ent.years or ent.number) and intent is not None and \
            intent.name in ("price", "marketplace", "details", "find", "population", "trend") and \
            not _names_left_in(conv.question):
        earlier = _previous_intent(conv.history)
        if earlier is not None and earlier.name == "grades":
            intent = earlier   # "so what's the lowest one on it" after a grading scale: that scale
    if ent.group_by and (intent is None or intent.name not in ("breakdown", "set_progress", "set_missing")) and (
            intent is not None and intent.name in ("collection_value", "collection_count", "collection_cards") and
            ent.group_by != "release" or intent is not None and intent.name in ("collection_value", "collection_count")
            or MINE.search(conv.question.lower())):
        intent = BY_NAME["breakdown"]   # "value of my collection per player": its value, grouped
    if conv.history and intent is not None and intent.name in ("set_facts", "catalog_stats", "grades") and \
            not ent.company and not ent.grade and (ent.follow_up or ELLIPSIS.match(conv.question)):
        earlier = _previous_intent(conv.history)
        if earlier is not None and earlier.name != intent.name and (
                earlier.collection and intent.name != "grades" and not ent.has_card_words or
                earlier.name in ("population", "price") and intent.name == "grades"):
            # "and how many cards is that" after my collection's value; "how many across every grade" after a pop
            intent = BY_NAME["collection_count"] if earlier.collection else earlier
    if conv.history and intent is not None and intent.name == "grades" and not ent.grade and \
            ACROSS_GRADES.search(conv.question) and \
            not (ent.years or ent.number):
        earlier = _previous_intent(conv.history)
        if earlier is not None and earlier.name == "population":
            intent, ent.follow_up = earlier, True   # "total across all psa grades?" after a pop: that card's report
    if conv.history and intent is not None and intent.name == "population" and not ent.grade and not ent.follow_up and \
            ACROSS_GRADES.search(conv.question) and \
            not (ent.years or ent.number) and not _names_left_in(conv.question):
        ent.follow_up = True   # "how many psa graded total across all grades?" after a card's pop: that card
    if conv.history and BEST_OF.search(conv.question) and not (ent.years or ent.number) and (
            intent is None or intent.name in ("details", "find", "collection_cards", "collection_roi", "collection_value")):
        earlier = _previous_intent(conv.history)
        if earlier is not None and earlier.collection:
            intent = BY_NAME["collection_best"]   # "ok which one's the best of them" after my cards
    if intent is not None and intent.name == "set_progress" and (ent.year or ent.has_card_words):
        intent = BY_NAME["set_missing"]   # "1986 topps set completion %": that set's progress
    if intent is not None and intent.name == "set_facts" and ent.number and not re.search(
            r"\bhow (many|big|large)\b|\bwhen\b|\bsets?\b.*\bin\b.*\?$", conv.question, re.I) and \
            re.search(r"\b(who|which|what)( card)? is\b|\bcard\s*#?\d", conv.question, re.I):
        intent = DETAILS   # "who is card 58 in base set": a release and a number name a card
    if conv.history and intent is not None and intent.name in ("catalog_stats",) and \
            re.search(r"\b(it|its|that set|this set|that release)\b", conv.question, re.I):
        intent = BY_NAME["set_facts"]
    if intent is not None and intent.name == "grades" and not ent.grade and conv.history and (
            ELLIPSIS.match(conv.question)):
        ent.reading.grade = read(conv.history[-1]).grade   # "same question for sgc" after "a psa 8.5 called"
    if intent is not None and intent.name == "grades" and OTHER_COMPANIES.search(conv.question):
        ent.reading.company = None   # "besides psa and bgs, who else grades cards": the companies
    elif intent is not None and intent.name == "grades" and not ent.company:
        for q in reversed(conv.history):
            asked = parse(q)
            if asked.company:
                ent.reading.company = asked.company
                break
        else:
            if ent.grade or re.search(r"\b(mint|gem|grade \d)", conv.question, re.I):
                ent.reading.company = "PSA"   # a grade name alone: the most common scale
    if intent is not None and intent.name in ("set_facts", "find") and ent.segment and \
            re.search(r"\bhow many\b.*\b(sets|releases|expansions)\b", conv.question, re.I) and \
            all(fold(w) in NEVER_NAMES or fold(w) in SEGMENT_WORDS or fold(w) in classifier.vocabulary()
                for _, w in ent.tokens):
        intent = BY_NAME["catalog_stats"]   # "how many pokemon sets are there": the catalog's count
    if ent.qualifier and not (ent.number or ent.year) and (intent is None or intent.name in (
            "find", "details", "unknown", "help", "glossary", "grades") or intent.name in ("price", "population") and
            re.search(r"\bwhat('?s| is| does| do)\b|\bmeans?\b|\bstands? for\b", conv.question, re.I)):
        intent = BY_NAME["grades"]   # "what does OC mean on a psa slab": a label qualifier
        ent.reading.company = ent.company or "PSA"
    if not conv.history and grading_only(conv.question) and (intent is None or intent.name not in (
            "grades", "feedback", "help", "glossary", "unknown") and not intent.collection):
        intent = BY_NAME["grades"]   # grading words and nothing to look up: the grading scales
        if not ent.company:
            ent.reading.company = "PSA"
    if conv.history and ADD_VERBS.search(conv.question.lower()) and ADDS_TO_IT.search(conv.question):
        earlier = _previous_intent(conv.history)
        if earlier is not None and earlier.name in ("wantlist", "wantlist_add"):
            intent = BY_NAME["wantlist_add"]   # "add blastoise to it" after reading the want list
    if intent is not None and intent.name == "price_compare" and not PRICE_ASKED.search(conv.question) and (
            _everyday_words_only(conv.question) or re.search(r"\bmore (?!valuable|expensive|pricey)[a-z]{4,}", conv.question, re.I)
            and not (ent.years or ent.number or ent.grade or ent.company)):
        intent = BY_NAME["unknown"]   # "is vanilla or chocolate ice cream more popular": no card, no value asked
    if intent is not None and intent.name in ("wantlist", "wantlist_add") and SOMEONE_WANTS.search(conv.question) and \
            not LIST_NAMED.search(conv.question) and (ent.years or ent.number):
        intent = DETAILS   # "my cousin wants the 1980 topps fisk, pull it up": someone's wish, not my list
    if intent is not None and intent.name in ("price", "trend") and not (ent.years or ent.number) and (
            EVERY_CARD_MINE.search(conv.question) or conv.history and THEM.search(conv.question) and
            not _names_left_in(conv.question) and (_previous_intent(conv.history) or intent).collection):
        intent = BY_NAME["collection_value"]   # "if i sold every card i own", "and what are they worth now"
    if intent is DETAILS and (ent.reading.max_price or ent.reading.min_price) and ent.has_card_words:
        intent = BY_NAME["marketplace"]   # "<card> undr $5": a copy to buy within that price
    figure_asked = bool(intent is not None and intent.name in ("marketplace", "price", "trend") and
                        MY_WANTS.search(conv.question.lower()) and not card_words(conv.question) and not ent.number)
    if figure_asked:
        intent = BY_NAME["wantlist"]   # "anyone selling the base set card from my wants": which of the list
    if _describes_owned(conv, intent, ent):
        intent = BY_NAME["owned_among"]   # "what did i pay for my psa 9": the owned cards those words fit
    # "whats it worth now" after "do i own X": my copy of X, as if "my" were said
    mine = ent.says_my or bool(conv.history and ent.follow_up and not ent.has_card_words and
                               (_previous_intent(conv.history) or BY_NAME["unknown"]).collection)
    if mine and intent is not None and intent.name in ("owns", "price") and PAID.search(conv.question):
        intent = BY_NAME["collection_roi"]   # "and what did i pay for it": my copy against its price
    st = State(intent, ent, conv, confidence, mine=mine, figure_asked=figure_asked)
    if not conv.history and intent is not None and intent.name in LOOSE_FAMILIES and \
            _everyday_words_only(conv.question):
        st.tentative = True   # "best way to store cards": a name only if the catalog has the word exactly
    if intent is None and (ent.tokens or ent.number) and confidence >= 0.35:
        st.intent, st.tentative = DETAILS, True   # a bare name, maybe: the catalog decides
        st.guessed = True   # no family fits: a one-word name counts only when the question is only names
    elif intent is DETAILS and not conv.history and not (ent.number or ent.year) and classifier.bare_name(conv.question):
        st.tentative = True   # one or two words, no year or number: a name only if the catalog has it exactly
    return st


PAID = re.compile(r"\b(i|did i) (pay|paid|spend|spent)\b|\bcost me\b", re.I)
# families asking about one card, which a card of mine described without its name may answer
ABOUT_ONE_OWNED = {"price", "trend", "marketplace", "collection_roi", "owns", "collection_value", "collection_cards",
                   "details", "find", "population", "unknown"}
OWNED_STATE = {"graded", "slabbed", "raw", "ungraded", "unslabbed"}
CARD_NOUNS = {"card", "cards", "one", "ones", "slab", "slabs", "copy", "copies"}
RELEASE_WORDS = {"base", "set", "edition", "1st", "first", "unlimited", "shadowless", "series", "update", "traded"}
# "any base set cards in my collection", "which of my cards are psa 9s": the description outside "my ..."
DESCRIBED_IN_MINE = re.compile(r"\b(?:any|which|what|got)\s+(.{2,40}?)\s+cards?\s+(?:in|of) my\b|"
                               r"\bwhich (?:of )?my cards (?:are|is)\s+(.{2,40})$|"
                               r"\bdo i (?:own|have|got) (?:any|a|an)\s+(.{2,40})$", re.I)


def _described_only(phrase: str) -> bool:
    """``phrase`` (what follows "my") starts with a description of cards and no name: grade, graded or
    raw, sport, year, maker, release words or a name in the plural, up to a card noun or another word."""
    said = read(phrase)
    vocab = classifier.vocabulary()
    described, end = False, len(phrase)
    for at, w in said.tokens:
        f = fold(w)
        if f in ("the", "a", "an"):
            continue
        if f in CARD_NOUNS:
            end = at + len(w)
            break
        if f in OWNED_STATE or f in SEGMENT_WORDS or f in BRANDS or f in RELEASE_WORDS:
            described = True
            continue
        if f in NEVER_NAMES or f in vocab or f in common_words():
            end = at
            break
        if len(f) >= 5 and f.endswith("s"):
            described = True   # "my charizards": every owned card of that name
            continue
        return False   # a word that may name the card ("my zard psa 8", "my 84 fleer sandberg")
    head = read(phrase[:end])
    return described or bool(head.grade or head.company or head.years or head.segment)


def _describes_owned(conv: Conversation, intent: Intent | None, ent: Any) -> bool:
    """My card told only by grade, graded or raw, sport, year, maker or release, or a name in the plural
    ("what's my raw card worth", "my graded pokemon card, am i up", "how are my charizards doing"): no
    word names one card, so the collection says which cards are meant. "and the psa 9 one?" after a
    question about my cards counts as mine."""
    if ent.number or intent is not None and intent.name not in ABOUT_ONE_OWNED:
        return False
    low = conv.question.lower()
    phrases = [m.group(1) for m in re.finditer(r"\bmy\s+(.+)$", low)]
    phrases += [p for m in DESCRIBED_IN_MINE.finditer(low) for p in m.groups() if p]
    if conv.history and ELLIPSIS.match(conv.question) and \
            (_previous_intent(conv.history) or BY_NAME["unknown"]).collection:
        phrases.append(ELLIPSIS.sub("", conv.question, count=1).lower())
    return any(_described_only(p) for p in phrases)


# every grade at once ("total across all psa grades"): a population follow-up about the same card
ACROSS_GRADES = re.compile(r"\b(total|all|every|across|combined|overall|altogether)\b", re.I)
# all the caller's cards at once, or "they" after a question about them
EVERY_CARD_MINE = re.compile(r"\b(every|all( of)?( the| my)?)\s+(card|cards|one|ones)\s+(i (own|have|got)|of mine)\b|"
                             r"\bmy (whole|entire|full) (collection|pc|binder)\b", re.I)
THEM = re.compile(r"\b(they|them|those|these|all of (it|them))\b", re.I)
# "wants" as another person's verb ("my cousin wants", "he wants"), and the list named outright
SOMEONE_WANTS = re.compile(r"\b(?!my\b|the\b|on\b|to\b|onto\b|of\b|i\b)[a-z']+ wants\b", re.I)
LIST_NAMED = re.compile(r"\b(list|wishlist|wantlist|grails?|my wants|wishlisted|wish|need|needs)\b", re.I)
# the best of the cards the conversation is about ("which card is the biggest chunk of that")
BEST_OF = re.compile(r"\bwhich (card|one)('?s| is)?\b.*\b(best|biggest|most|top|priciest|highest)\b|"
                     r"\b(best|biggest|top|priciest) (one|card) (of|in) (them|those|these|that|it)\b", re.I)
OTHER_COMPANIES = re.compile(r"\bwho (else )?(grades|slabs)\b|\b(which|what) (other |else )?(grading )?(compan|services?\b|graders)|"
                             r"\b(besides|other than|apart from|aside from)\b.*\b(who|which|what|any)\b|"
                             r"\b(other|more) (grading )?(companies|graders|services)\b", re.I)
PRICE_ASKED = re.compile(r"\b(price|prices|priced|worth|value|valuable|cost|costs|pricier|expensive|cheaper|sells?|"
                         r"sold|money|bucks|dollars|buy|investment|comps?)\b|\$", re.I)
ADDS_TO_IT = re.compile(r"\b(to|on|onto|in|into)\s+(it|that|this|there|them|the list|that list|the same list)\b", re.I)
LOOSE_FAMILIES = {"find", "details", "owns", "price", "trend", "marketplace", "population", "price_compare"}


def _names_left_in(text: str) -> bool:
    """A word that may name a card: no family's word, no everyday word, no grading word, no brand."""
    return bool(card_words(text))


def _everyday_words_only(text: str) -> bool:
    """The words that may name a card are all everyday English words ("store", "binder", "weekend"),
    with no year or number: such a word is a card only when the catalog has it as a whole name."""
    r = read(text)
    if r.years or r.number:
        return False
    vocab = classifier.vocabulary()
    left = [fold(w) for _, w in r.tokens if fold(w) not in NEVER_NAMES]
    return bool(left) and all(w in common_words() or w in vocab for w in left)


# --------------------------------------------------------------------------- variables
def _link(st: State) -> dict[str, Any] | None:
    return st.ok("link")


def _entities(st: State, kind: str) -> list[dict[str, Any]]:
    return [e for e in (_link(st) or {}).get("entities") or [] if e.get("kind") == kind]


def _card(st: State) -> dict[str, Any] | None:
    return chosen_card(_link(st), st.ent, priced=answers.priced(st), with_data=st.tied_with_data())


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
    for s in sets:
        names = {fold(s.get("setName") or ""), fold(s.get("releaseName") or "")}
        for p in phrases:
            # the longest phrase said that is a whole name or whole words of one ("neo destiny", not "set")
            if p and len(p) > best_len and (p in names or any(f" {p} " in f" {n} " for n in names if n)) and \
                    p not in DOMAIN_WORDS:
                best, best_len = s.get("setId"), len(p)
    return best


SIDES = re.compile(r"\s(?:or|vs\.?|versus|against|compared to)\s|,\s*or\s", re.I)


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


def _compare_ids(st: State) -> list[str] | None:
    a, b = st.ok("link"), st.ok("link_b")
    if a and b:
        picks = [chosen_card(x, st.ent, priced=True) or ((x.get("cards") or [None])[0]) for x in (a, b)]
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
    ids = [c.get("cardId") for c in cards if c.get("cardId")][:10]
    return ids or None


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
        return link_text(e, h, st.conv.last_answer)
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
                 "owned_set_id": _progress_set_id, "compare_ids": _compare_ids, "want_card_ids": _want_card_ids, "missing_ids": _missing_ids,
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
    "no_card": lambda st: _card_id(st) is None,
    "has_set": lambda st: _progress_set_id(st) is not None,
    "no_set": lambda st: _progress_set_id(st) is None,
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
                    not st.guessed and not _everyday_words_only(st.conv.question))):
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
               (whole or len(str(e.get("name") or "").split()) >= 2) for e in link.get("entities") or [])


__all__ = ["BY_NAME", "Decision", "PREDICATES", "decide", "understand", "variable"]
