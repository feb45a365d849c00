"""The question-level rewrites of the family a question was classified as, in the order they apply.

``understand`` (``planner.py``) classifies the question and then runs ``rewrite`` over ``RULES``: each
rule is a predicate over what has been read so far and the family it sets (or a change to the reading
only); later rules see the earlier ones' results, so the order is part of the meaning.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from agent.builtin import classifier
from agent.builtin.conversation import Conversation
from agent.builtin.intents import (
    ADD_VERBS,
    BOUGHT_BY_ME,
    BY_NAME,
    DETAILS,
    MINE,
    MY_WANTS,
    PAID_FOR,
    Intent,
    card_words,
    classify,
    grading_only,
    sale_asked,
)
from agent.builtin.linking import ACK, Entities, parse
from tools._linking import BRANDS, DOMAIN_WORDS, NEVER_NAMES, SEGMENT_WORDS, fold, read
from tools.catalog_link import common_words

INHERIT = {"details", "find", "help"}   # a follow-up classified as these keeps the earlier family
ONE_OF_MINE = {"owns", "collection_roi"}   # families about one card of mine, which "what about X" asks again
WEAK = 0.6   # a family's nearest example below this similarity is a weak reading
SAME_ASKED = re.compile(rf"^\s*{ACK}same (question|thing|deal|again)\b", re.I)   # the earlier question, other words
ELLIPSIS = re.compile(rf"^\s*{ACK}(and|what about|how about|same for|same (question|thing|deal|again)( for| with| at| on)?|"
                      r"now|ok and|also)\b", re.I)




def _previous_intent(history: list[str]) -> Intent | None:
    for q in reversed(history):
        intent, _ = classify(q)
        if intent is not None and intent.name not in ("help", "identify"):
            return intent
    return None


MY_CARD_ONLY = re.compile(r"^\s*(the one )?(in )?my\s+")


PAID = re.compile(r"\b(i|did i) (pay|paid|spend|spent)\b|\bcost me\b", re.I)
# what I paid for one card, or bought it for ("how much did i pay for rickey", "what did i buy my zard for"):
# the copy I own is meant, "my" said or not
PAID_FOR_ONE = re.compile(r"\b(did i (pay|spend)|i (paid|spent))\s+(for|on)\b(?!\s+(everything|it all|all|my (cards|"
                          r"collection|stuff)|cards|the lot)\b)|\bdid i (buy|get|grab)\s+(?!any\b).{2,60}?\s+for\s*\??\s*$",
                          re.I)
# families asking about one card, which a card of mine described without its name may answer
ABOUT_ONE_OWNED = {"price", "trend", "marketplace", "collection_roi", "owns", "collection_value", "collection_cards",
                   "details", "find", "population", "unknown"}
OWNED_STATE = {"graded", "slabbed", "raw", "ungraded", "unslabbed"}
CARD_NOUNS = {"card", "cards", "one", "ones", "slab", "slabs", "copy", "copies"}
RELEASE_WORDS = {"base", "set", "edition", "1st", "first", "unlimited", "shadowless", "series", "update", "traded"}
# "any base set cards in my collection", "which of my cards are psa 9s": the description outside "my ..."
DESCRIBED_IN_MINE = re.compile(r"\b(?:any|which|what|got)\s+(.{2,40}?)\s+cards?\s+(?:in|of) my\b|"
                               r"\bwhich (?:of )?my cards (?:are|is)\s+(.{2,40})$|"
                               r"\bdo i (?:own|have|got) (?:any|a|an)\s+(.{2,40})$|"
                               # "the psa 8 slab in my collection", "the raw one i own"
                               r"\b(?:the|that|this)\s+(.{2,40}?)\s+(?:card|slab|one|copy)\s+(?:in my|of mine|i (?:own|have|got|bought))\b",
                               re.I)
# a grading question asking what my card is worth ("the psa 8 slab in my collection, whats it going for")
GRADED_VALUE = re.compile(r"\b(price|priced|worth|value|go(es|ing)? for|fetch\w*|bring\w*|sells? for)\b", re.I)


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
        typed = re.match(r"\w*", phrase[at:])   # "kid's" is no plural
        raw = fold(typed.group(0)) if typed else f   # the word as typed ("zards", spelt "charizard")
        if len(f) >= 5 and f.endswith("s") or len(raw) >= 5 and raw.endswith("s") and raw != f:
            described = True   # "my charizards", "my zards": every owned card of that name
            continue
        return False   # a word that may name the card ("my zard psa 8", "my 84 fleer sandberg")
    head = read(phrase[:end])
    return described or bool(head.grade or head.company or head.years or head.segment)


def _describes_owned(conv: Conversation, intent: Intent | None, ent: Any) -> bool:
    """My card told only by grade, graded or raw, sport, year, maker or release, or a name in the plural
    ("what's my raw card worth", "my graded pokemon card, am i up", "how are my charizards doing"): no
    word names one card, so the collection says which cards are meant. "and the psa 9 one?" after a
    question about my cards counts as mine."""
    if PAID_FOR.search(conv.question) and BOUGHT_BY_ME.search(conv.question) and (
            intent is None or intent.name in ABOUT_ONE_OWNED or
            intent.name in ("collection_roi", "collection_best", "price_compare")):
        return True   # "the 2 dollar one i bought, did it go up", "worth more than the 25 bucks i gave for it"
    if ent.number or intent is not None and intent.name not in ABOUT_ONE_OWNED and not (
            intent.name == "grades" and GRADED_VALUE.search(conv.question)):
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
BEST_OF = re.compile(r"\bwhich (card|one)('?s| is)?\b.*\b(best|biggest|most|top|priciest|highest|"
                     r"carry(ing)?|carries|driv(e|es|ing)|the bulk)\b|"
                     r"\b(best|biggest|top|priciest) (one|card) (of|in) (them|those|these|that|it)\b", re.I)
OTHER_COMPANIES = re.compile(r"\bwho (else )?(grades|slabs)\b|\b(which|what) (other |else )?(grading )?(compan|services?\b|graders)|"
                             r"\b(besides|other than|apart from|aside from)\b.*\b(who|which|what|any)\b|"
                             r"\b(other|more) (grading )?(companies|graders|services)\b", re.I)
PRICE_ASKED = re.compile(r"\b(price|prices|priced|worth|value|valuable|cost|costs|pricier|expensive|cheaper|sells?|"
                         r"sold|money|bucks|dollars|buy|investment|comps?)\b|\$", re.I)
ADDS_TO_IT = re.compile(r"\b(to|on|onto|in|into)\s+(it|that|this|there|them|the list|that list|the same list)\b", re.I)


def _names_left_in(text: str) -> bool:
    """A word that may name a card: no family's word, no everyday word, no grading word, no brand."""
    return bool(card_words(text))


def everyday_words_only(text: str) -> bool:
    """The words that may name a card are all everyday English words ("store", "binder", "weekend"),
    with no year or number: such a word is a card only when the catalog has it as a whole name."""
    r = read(text)
    if r.years or r.number:
        return False
    vocab = classifier.vocabulary()
    left = [fold(w) for _, w in r.tokens if fold(w) not in NEVER_NAMES]
    return bool(left) and all(w in common_words() or w in vocab for w in left)



# --------------------------------------------------------------------------- the rules

# "since 2020" about my card: when I got it or the time asked about, never the card's year
SINCE_YEAR = re.compile(r"\bsince\s+(?:(?:19|20)\d\d|['\u2019]\d\d)\b", re.I)


@dataclass
class SoFar:
    """What has been read so far: the conversation, its entities and the family with its similarity."""
    conv: Conversation
    ent: Entities
    intent: Intent | None
    confidence: float
    figure_asked: bool = False   # a figure asked about the want list's cards, answered by the list

    @cached_property
    def earlier(self) -> Intent | None:
        """The family of the last question before this one (help and identify skipped)."""
        return _previous_intent(self.conv.history)

    @cached_property
    def mine(self) -> bool:
        """My card is meant: "my" said, or "whats it worth now" after "do i own X" (first read by the last
        rule, after every rule that changes ``follow_up``)."""
        return self.ent.says_my or bool(self.conv.history and self.ent.follow_up and not self.ent.has_card_words and
                                        (self.earlier or BY_NAME["unknown"]).collection) or \
            bool(self.ent.has_card_words and PAID_FOR_ONE.search(self.conv.question))

    def named(self, *names: str) -> bool:
        return self.intent is not None and self.intent.name in names


@dataclass(frozen=True)
class Rule:
    when: Callable[[SoFar], bool]
    to: str | Callable[[SoFar], Intent | None] | None   # a family's name, one computed, or None: the family stays
    why: str
    then: Callable[[SoFar], None] | None = None   # a change to the reading that goes with it


def rewrite(r: SoFar) -> None:
    """Apply every rule whose predicate holds, in order, to ``r``."""
    for rule in RULES:
        if rule.when(r):
            if rule.to is not None:
                r.intent = BY_NAME[rule.to] if isinstance(rule.to, str) else rule.to(r)
            if rule.then is not None:
                rule.then(r)


def _since_a_year(r: SoFar) -> bool:
    """ "my psa 8 zard - up or down since 2020?": a time, not which of my cards (the one from 2020)."""
    return bool(r.ent.says_my and r.named("collection_roi", "price", "trend") and SINCE_YEAR.search(r.ent.text))


def _year_unsaid(r: SoFar) -> None:
    r.ent.text = SINCE_YEAR.sub(" ", r.ent.text)
    r.ent.reading = read(r.ent.text)


def _rest(r: SoFar) -> str:
    return ELLIPSIS.sub("", r.conv.question, count=1)


def _mine_again(r: SoFar) -> bool:
    """ "and my sandberg?" after a question about my zard: the same question about my other card."""
    rest = _rest(r)
    return bool(r.conv.history and ELLIPSIS.match(r.conv.question) and MY_CARD_ONLY.match(rest) and
                classifier.bare_name(MY_CARD_ONLY.sub("", rest, count=1).rstrip("?! ")) and
                (r.earlier or BY_NAME["unknown"]).collection)


def _elliptical(r: SoFar) -> bool:
    """ "and the psa 9?", "what about dark scizor": the earlier family, about these words."""
    return bool(ELLIPSIS.match(r.conv.question)) and (
        r.ent.elliptical or classifier.bare_name(_rest(r)) or bool(SAME_ASKED.match(r.conv.question)) or _mine_again(r))


def _weak(r: SoFar) -> bool:
    """ "and the lowest one?": a weak reading of a short follow-up naming nothing."""
    return bool(ELLIPSIS.match(r.conv.question)) and r.confidence < WEAK and not r.ent.has_card_words


def _keeps_earlier(r: SoFar) -> bool:
    q, ent, intent = r.conv.question, r.ent, r.intent
    if not (r.conv.history and (ent.reply or _elliptical(r) or _weak(r) or
                                (ent.follow_up and (intent is None or intent.name in INHERIT)))):
        return False
    earlier = r.earlier
    return bool(earlier is not None and (ent.reply or earlier.needs_card or _weak(r) or intent is None or
                                         intent.name == "unknown" or SAME_ASKED.match(q) or _mine_again(r) or
                                         # "is my sandberg up" then "what about his 84 donruss?": mine too?
                                         earlier.name in ONE_OF_MINE and _elliptical(r) or
                                         # "is venusaur on my wants" then "what about base set blastoise?"
                                         earlier.name == "wantlist" and bool(ELLIPSIS.match(q)) and ent.has_card_words)
                and not (intent is not None and intent.name == "wantlist_add" and r.confidence >= 1.0))


def _qualifier_again(r: SoFar) -> bool:
    return bool(r.conv.history and not r.ent.qualifier and ELLIPSIS.match(r.conv.question) and
                read(r.conv.history[-1]).qualifier)


def _other_qualifier(r: SoFar) -> None:
    older = read(r.conv.history[-1])
    r.ent.reading.qualifier = read(f"{older.company or 'psa'} {r.conv.question}").qualifier
    r.ent.reading.company = r.ent.company or older.company


def _scale_follow_up(r: SoFar) -> bool:
    ent = r.ent
    return bool(r.conv.history and ent.follow_up and r.confidence < WEAK and not (ent.years or ent.number) and
                r.named("price", "marketplace", "details", "find", "population", "trend") and
                not _names_left_in(r.conv.question) and r.earlier is not None and r.earlier.name == "grades")


def _grouped(r: SoFar) -> bool:
    ent, intent = r.ent, r.intent
    return bool(ent.group_by and (intent is None or intent.name not in ("breakdown", "set_progress", "set_missing")) and (
        intent is not None and intent.name in ("collection_value", "collection_count", "collection_cards") and
        ent.group_by != "release" or intent is not None and intent.name in ("collection_value", "collection_count")
        or MINE.search(r.conv.question.lower())))


# where my cards are from, not how far along each set is ("what sets do my cards come from")
FROM_WHERE = re.compile(r"\b(come|comes|came|are|is) from\b|\bbelong(s)? to\b|\bspread (across|over)\b", re.I)


def _sets_of_mine(r: SoFar) -> bool:
    return bool(r.named("set_missing", "set_progress") and r.ent.group_by == "release" and
                FROM_WHERE.search(r.conv.question) and not (r.ent.years or r.ent.number))


def _count_after(r: SoFar) -> bool:
    ent, intent = r.ent, r.intent
    if not (r.conv.history and intent is not None and intent.name in ("set_facts", "catalog_stats", "grades") and
            not ent.company and not ent.grade and (ent.follow_up or ELLIPSIS.match(r.conv.question))):
        return False
    earlier = r.earlier
    return bool(earlier is not None and earlier.name != intent.name and (
        earlier.collection and intent.name != "grades" and not ent.has_card_words or
        earlier.name in ("population", "price") and intent.name == "grades"))


def _count_or_earlier(r: SoFar) -> Intent | None:
    return BY_NAME["collection_count"] if r.earlier is not None and r.earlier.collection else r.earlier


def _report_across_grades(r: SoFar) -> bool:
    ent = r.ent
    return bool(r.conv.history and r.named("grades") and not ent.grade and ACROSS_GRADES.search(r.conv.question) and
                not (ent.years or ent.number) and r.earlier is not None and r.earlier.name == "population")


def _follow_up(r: SoFar) -> None:
    r.ent.follow_up = True


def _pop_across_grades(r: SoFar) -> bool:
    ent = r.ent
    return bool(r.conv.history and r.named("population") and not ent.grade and not ent.follow_up and
                ACROSS_GRADES.search(r.conv.question) and not (ent.years or ent.number) and
                not _names_left_in(r.conv.question))


def _best_of_mine(r: SoFar) -> bool:
    ent, intent = r.ent, r.intent
    return bool(r.conv.history and BEST_OF.search(r.conv.question) and not (ent.years or ent.number) and (
        intent is None or r.confidence < WEAK or
        intent.name in ("details", "find", "collection_cards", "collection_roi", "collection_value"))
        and r.earlier is not None and r.earlier.collection)


def _card_by_number(r: SoFar) -> bool:
    q = r.conv.question
    return bool(r.named("set_facts") and r.ent.number and not re.search(
        r"\bhow (many|big|large)\b|\bwhen\b|\bsets?\b.*\bin\b.*\?$", q, re.I) and
        re.search(r"\b(who|which|what)( card)? is\b|\bcard\s*#?\d", q, re.I))


# "what bo jackson card is in 1990 fleer", "which tony gwynn card did fleer put out in 1983": a player's card
NAMED_CARD_ASKED = re.compile(r"\b(?:what|which)\s+((?:[a-z][\w.'-]*\s+){1,3}?)(?:card|rookie|rc)s?\b", re.I)


def _card_by_name(r: SoFar) -> bool:
    """A release and a player's name, asking which card of his it holds: that card, not the release."""
    m = NAMED_CARD_ASKED.search(r.conv.question)
    if not (r.named("set_facts") and not r.ent.number and m) or re.search(r"\bhow (many|big|large)\b|\bwhen\b",
                                                                         r.conv.question, re.I):
        return False
    vocab = classifier.vocabulary()
    words = [fold(w) for w in m.group(1).split()]
    # a first and last name ("bo jackson"), never a kind of card ("what insert cards", "which good rookie cards")
    return len(words) >= 2 and all(w not in vocab and w not in NEVER_NAMES and w not in BRANDS and
                                   w not in DOMAIN_WORDS for w in words)


def _earlier_grade(r: SoFar) -> None:
    r.ent.reading.grade = read(r.conv.history[-1]).grade


def _no_company(r: SoFar) -> None:
    r.ent.reading.company = None


def _asked_company(r: SoFar) -> None:
    """The company of the last question that named one, else PSA for a grade name alone (the most common)."""
    for q in reversed(r.conv.history):
        asked = parse(q)
        if asked.company:
            r.ent.reading.company = asked.company
            break
    else:
        if r.ent.grade or re.search(r"\b(mint|gem|grade \d)", r.conv.question, re.I):
            r.ent.reading.company = "PSA"


def _sets_counted(r: SoFar) -> bool:
    ent = r.ent
    return bool(r.named("set_facts", "find") and ent.segment and
                re.search(r"\bhow many\b.*\b(sets|releases|expansions)\b", r.conv.question, re.I) and
                all(fold(w) in NEVER_NAMES or fold(w) in SEGMENT_WORDS or fold(w) in classifier.vocabulary()
                    for _, w in ent.tokens))


def _qualifier_meant(r: SoFar) -> bool:
    ent, intent = r.ent, r.intent
    return bool(ent.qualifier and not (ent.number or ent.year) and (intent is None or intent.name in (
        "find", "details", "unknown", "help", "glossary", "grades") or intent.name in ("price", "population") and
        re.search(r"\bwhat('?s| is| does| do)\b|\bmeans?\b|\bstands? for\b", r.conv.question, re.I)))


def _company_or_psa(r: SoFar) -> None:
    r.ent.reading.company = r.ent.company or "PSA"


def _grading_only(r: SoFar) -> bool:
    intent = r.intent
    return bool(not r.conv.history and grading_only(r.conv.question) and (intent is None or intent.name not in (
        "grades", "feedback", "help", "glossary", "unknown") and not intent.collection))


def _psa_unless_named(r: SoFar) -> None:
    if not r.ent.company:
        r.ent.reading.company = "PSA"


def _adds_to_list(r: SoFar) -> bool:
    q = r.conv.question
    return bool(r.conv.history and ADD_VERBS.search(q.lower()) and ADDS_TO_IT.search(q) and
                r.earlier is not None and r.earlier.name in ("wantlist", "wantlist_add"))


def _no_card_compared(r: SoFar) -> bool:
    q, ent = r.conv.question, r.ent
    return bool(r.named("price_compare") and not PRICE_ASKED.search(q) and (
        everyday_words_only(q) or re.search(r"\bmore (?!valuable|expensive|pricey)[a-z]{4,}", q, re.I)
        and not (ent.years or ent.number or ent.grade or ent.company)))


def _someone_wants(r: SoFar) -> bool:
    q, ent = r.conv.question, r.ent
    return bool(r.named("wantlist", "wantlist_add") and SOMEONE_WANTS.search(q) and not LIST_NAMED.search(q) and
                (ent.years or ent.number))


def _all_mine_valued(r: SoFar) -> bool:
    q, ent, intent = r.conv.question, r.ent, r.intent
    return bool(intent is not None and intent.name in ("price", "trend") and not (ent.years or ent.number) and (
        EVERY_CARD_MINE.search(q) or r.conv.history and THEM.search(q) and
        not _names_left_in(q) and (r.earlier or intent).collection))


def _priced_copy(r: SoFar) -> bool:
    ent = r.ent
    return bool(r.intent is DETAILS and (ent.reading.max_price or ent.reading.min_price) and ent.has_card_words)


# a copy to buy asked for: who sells it, or the most the caller will spend on it
SELLING = re.compile(r"\b(who|anyone|anybody|someone|somebody)('?s| is| are)? (selling|got one for sale)\b|"
                     r"\bfor sale\b|\bwhere (can|do|could) i (buy|get|find)\b", re.I)
BUDGET = re.compile(r"\b(budget|under|below|less than|at most|up to|no more than|cheaper than|spend|max)\b", re.I)


def _copy_to_buy(r: SoFar) -> bool:
    """ "who is selling X and for how much", "budget is $10, anything for X": listings, not what X sold for."""
    q, ent = r.conv.question, r.ent
    return bool(r.named("price", "trend", "details", "find") and not r.mine and ent.has_card_words and (
        SELLING.search(q) or ent.reading.max_price is not None and BUDGET.search(q)))


def _figure_of_wants(r: SoFar) -> bool:
    q = r.conv.question
    return bool(r.named("marketplace", "price", "trend") and MY_WANTS.search(q.lower()) and not card_words(q)
                and not r.ent.number)


def _figure_asked(r: SoFar) -> None:
    r.figure_asked = True


# the want list in a collector's words ("my wants", "my list", "wants for sale..."), or the list our last answer read
WANTS_SAID = re.compile(r"\bmy (want ?list|wish ?list|wants|wnat ?list|grails|grail list|chase list|needs? list|list)\b|"
                        r"\b(want ?list|wish ?list|wishlist cards|wants list)\b|^\s*(any )?wants\b(?! to\b)", re.I)
LIST_ANSWER = re.compile(r"\b(on|to|from) (your |the )?want list\b|\byour want list\b|\bcards? on want list\b", re.I)
# a card asked of as needed ("do i still need a base set venusaur?"), or the cards still to buy: the want list
NEED_CARD = re.compile(r"^\s*(so |and |ok,? |wait,? )?(do|did) i (still |really |even )?need (a|an|the|that|this|one)\b|"
                       r"^\s*(i )?still need (a|an|the)\b", re.I)
NEED_TO_BUY = re.compile(r"\b(still )?need to (buy|get|grab|pick up|find|hunt down|track down|snag)\b", re.I)
SET_WORDS = re.compile(r"\b(finish|complete|completing|finishing|for the set|of the set|from the set)\b", re.I)
# a card asked of as wanted: "am i looking for a base set mewtwo", "base set venusaur wanted?", and "is X on
# there" right after the list was read
WANTED_ASKED = re.compile(r"^\s*(so |and |wait,? )?am i (still )?(looking for|hunting|chasing|after)\b|"
                          r"\bwanted\s*[?!.]*\s*$", re.I)
ON_THERE = re.compile(r"\bon (there|it|the list|that list|this list)\s*(already|still|yet)?\s*[?!.]*\s*$", re.I)
# a card I no longer want, or crossed off: taken off the want list
NO_LONGER_WANTED = re.compile(r"\b(don'?t|dont|do not) (really )?need\b[^?]*\b(anymore|any more|no more)\b|"
                              r"\bno longer (need|needed|want|wanted)\b|\bnot needed (anymore|any more)\b|"
                              r"\b(cross|scratch|strike|tick|check)\s+(it|that|this|them|that one|this one|him)\s+off\b", re.I)
# a removal asked right after the want list was read ("remove the mewtwo", "delete the first one")
REMOVE_LEAD = re.compile(r"^\s*((ok|okay|actually|then|now|and|nah|hmm)[\s,]+)*(please |pls |can you |could you )?"
                         r"(remove|delete|drop|ditch|scratch|cross off|take off|get rid of|lose)\b", re.I)


def _after_wants(r: SoFar) -> bool:
    """Our last answer was about the want list (read it out, priced it, said a card is on it)."""
    return bool(r.conv.history and LIST_ANSWER.search(r.conv.last_answer or ""))


def _no_card_named(r: SoFar) -> bool:
    return not (card_words(r.conv.question) or r.ent.number or r.ent.years)


def _wants_for_sale(r: SoFar) -> bool:
    """ "which of my wants are for sale", "anything on my want list under $20", "any for sale?" after the list:
    the wanted cards' listings."""
    q = r.conv.question
    return sale_asked(q, r.ent.max_price) and _no_card_named(r) and bool(
        WANTS_SAID.search(q) or _after_wants(r) and not r.ent.has_card_words) and not r.named("wantlist_add",
                                                                                             "wantlist_remove")


def _wants_again(r: SoFar) -> bool:
    """ "and how much would both cost", "how many is that" after the want list: the list again."""
    return bool(_after_wants(r) and _no_card_named(r) and not r.ent.grade and
                re.search(r"\b(how much|cost|costs|total|how many|worth|value|price)\b", r.conv.question, re.I) and
                not r.named("wantlist", "wantlist_add", "wantlist_remove"))


def _needed_card(r: SoFar) -> bool:
    """ "do i still need a base set venusaur?": whether it is on my want list; "what cards do i still need to
    buy": the list (a set to finish is the set's progress)."""
    q = r.conv.question
    if SET_WORDS.search(q) or r.named("wantlist", "wantlist_add", "wantlist_remove"):
        return False
    return bool(NEED_CARD.search(q) and r.ent.has_card_words or NEED_TO_BUY.search(q) and _no_card_named(r) or
                (WANTED_ASKED.search(q) or ON_THERE.search(q) and _after_wants(r)) and not _no_card_named(r))


def _no_longer_wanted(r: SoFar) -> bool:
    """ "dont need the venusaur anymore", "got the base set venusaur! cross it off", "remove the mewtwo"
    after the want list was read: a card taken off the want list."""
    q = r.conv.question
    return bool(not r.named("wantlist_remove") and (
        NO_LONGER_WANTED.search(q) and (r.ent.has_card_words or r.conv.history) or
        REMOVE_LEAD.search(q) and _after_wants(r)))


# whether what I paid for my card was too much: my card's value against what I paid
OVERPAID = re.compile(r"\b(over ?pa(y|id)|pa(y|id) too much|(get|got|was i) ripped off)\b", re.I)


def _overpaid_mine(r: SoFar) -> bool:
    q = r.conv.question
    return bool(r.named("owns", "price", "trend", "details", "find") and OVERPAID.search(q) and
                (r.mine or MINE.search(q.lower())))


def _paid_for_mine(r: SoFar) -> bool:
    q = r.conv.question
    return bool(r.mine and (r.named("owns", "price") and PAID.search(q) or
                            r.named("owns", "price", "marketplace", "details", "find") and PAID_FOR_ONE.search(q)))


RULES: tuple[Rule, ...] = (
    Rule(_since_a_year, None, "\"my zard - up or down since 2020?\": a time, not the card's year", _year_unsaid),
    Rule(_keeps_earlier, lambda r: r.earlier,
         "a follow-up that names nothing new, or answers our question: the earlier family"
         " (an explicit add stays one: \"add the second one to my want list\")"),
    Rule(_qualifier_again, None,
         "\"what about PD\" after a label qualifier's meaning: another qualifier", _other_qualifier),
    Rule(_scale_follow_up, lambda r: r.earlier,
         "\"so what's the lowest one on it\" after a grading scale: that scale"),
    Rule(_grouped, "breakdown", "\"value of my collection per player\": its value, grouped"),
    Rule(_sets_of_mine, "breakdown", "\"what sets do my cards come from\": every release, not progress"),
    Rule(_count_after, _count_or_earlier,
         "\"and how many cards is that\" after my collection's value; \"how many across every grade\" after a pop"),
    Rule(_report_across_grades, lambda r: r.earlier,
         "\"total across all psa grades?\" after a pop: that card's report", _follow_up),
    Rule(_pop_across_grades, None,
         "\"how many psa graded total across all grades?\" after a card's pop: that card", _follow_up),
    Rule(_best_of_mine, "collection_best", "\"ok which one's the best of them\" after my cards"),
    Rule(lambda r: bool(r.named("set_progress") and (r.ent.year or r.ent.has_card_words)), "set_missing",
         "\"1986 topps set completion %\": that set's progress"),
    Rule(_card_by_number, "details", "\"who is card 58 in base set\": a release and a number name a card"),
    Rule(_card_by_name, "details", "\"what bo jackson card is in 1990 fleer\": a release and a name name a card"),
    Rule(lambda r: bool(r.conv.history and r.named("catalog_stats") and
                        re.search(r"\b(it|its|that set|this set|that release)\b", r.conv.question, re.I)),
         "set_facts", "\"how many cards in it\" after a release: that release's facts"),
    Rule(lambda r: bool(r.named("grades") and not r.ent.grade and r.conv.history and ELLIPSIS.match(r.conv.question)),
         None, "\"same question for sgc\" after \"a psa 8.5 called\": that grade", _earlier_grade),
    Rule(lambda r: bool(r.named("grades") and OTHER_COMPANIES.search(r.conv.question)), None,
         "\"besides psa and bgs, who else grades cards\": the companies", _no_company),
    Rule(lambda r: bool(r.named("grades") and not OTHER_COMPANIES.search(r.conv.question) and not r.ent.company),
         None, "a grading question naming no company: the one asked about before", _asked_company),
    Rule(_sets_counted, "catalog_stats", "\"how many pokemon sets are there\": the catalog's count"),
    Rule(_qualifier_meant, "grades", "\"what does OC mean on a psa slab\": a label qualifier", _company_or_psa),
    Rule(_grading_only, "grades", "grading words and nothing to look up: the grading scales", _psa_unless_named),
    Rule(_adds_to_list, "wantlist_add", "\"add blastoise to it\" after reading the want list"),
    Rule(_no_card_compared, "unknown", "\"is vanilla or chocolate ice cream more popular\": no card, no value asked"),
    Rule(_someone_wants, "details", "\"my cousin wants the 1980 topps fisk, pull it up\": someone's wish, not my list"),
    Rule(_all_mine_valued, "collection_value", "\"if i sold every card i own\", \"and what are they worth now\""),
    Rule(_priced_copy, "marketplace", "\"<card> undr $5\": a copy to buy within that price"),
    Rule(_copy_to_buy, "marketplace", "\"who is selling X and for how much\", \"budget is $10, anything for X\": listings"),
    Rule(_figure_of_wants, "wantlist", "\"anyone selling the base set card from my wants\": which of the list",
         _figure_asked),
    Rule(_wants_for_sale, "wantlist", "\"which of my wants are for sale\": the wanted cards' listings", _figure_asked),
    Rule(_wants_again, "wantlist", "\"and how much would both cost\" after the want list: the list again"),
    Rule(_needed_card, "wantlist", "\"do i still need a base set venusaur?\", \"am i looking for X\": is it on my want list"),
    Rule(_no_longer_wanted, "wantlist_remove", "\"dont need the venusaur anymore\": off the want list"),
    Rule(lambda r: _describes_owned(r.conv, r.intent, r.ent), "owned_among",
         "\"what did i pay for my psa 9\": the owned cards those words fit"),
    Rule(_overpaid_mine, "collection_roi", "\"did i overpay for the X i own\": its value against what I paid"),
    Rule(_paid_for_mine, "collection_roi", "\"and what did i pay for it\": my copy against its price"),
)
