"""THE table: question family -> tool calls and their arguments (edit it here), and which family a
question belongs to (``classify``: sentence embeddings over the labelled examples in
``prompts/intents.yaml``, with word patterns as the fallback when torch is missing).

An ``Intent``'s ``steps`` are groups run one round each: the calls of one group are independent and
are requested together. A ``Step`` names a tool (or alternatives: the first one offered is used)
and its arguments; ``"$var"`` is replaced by a value of ``planner.variable`` (``None`` leaves the
argument out). ``needs`` lists variables without which the step cannot run (the answer then says
what is missing); ``when`` names a predicate in ``planner.PREDICATES``; ``optional`` steps are
skipped when their tool is not offered; ``each`` runs the step once per value of a list variable.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from agent.builtin import classifier
from agent.builtin.linking import says_my
from tools._linking import BRANDS, NEVER_NAMES, fold, read
from tools.catalog_link import common_words


@dataclass(frozen=True)
class Step:
    tool: str | tuple[str, ...]
    args: dict[str, Any] = field(default_factory=dict)
    key: str | None = None           # where the result is kept (default: the tool name)
    needs: tuple[str, ...] = ()
    when: str | None = None
    optional: bool = False
    each: str | None = None          # run once per item of this list variable ("$item" in args)

    @property
    def tools(self) -> tuple[str, ...]:
        return self.tool if isinstance(self.tool, tuple) else (self.tool,)

    @property
    def result_key(self) -> str:
        return self.key or self.tools[0]


@dataclass(frozen=True)
class Intent:
    name: str
    pattern: str = ""                # the word fallback (and a tie-breaker for the embeddings)
    steps: tuple[tuple[Step, ...], ...] = ()
    needs_card: bool = False
    collection: bool = False         # scoped to the caller's collection

    def matches(self, text: str) -> bool:
        return bool(self.pattern) and re.search(self.pattern, text, re.I) is not None


LINK = Step("catalog_link", {"text": "$link_text", "history": "$link_history", "take": 10}, key="link")
COMPANY_LOOKUP = Step("grades_companies", {}, when="has_company", optional=True)
COLLECTIONS = Step("collections_list", {"take": 20}, when="no_collection")
# the linked card's own entry on the want list, wherever it stands in a long list
LISTED_CARD = Step("list_cards_list", {"listId": "$list_id", "card_id": "$card_id", "take": 5}, key="listed_card",
                   needs=("list_id", "card_id"), when="has_card", optional=True)
# "value on my X" where several cards bear the name: the collection read, to take the one I own
OWNED_TIED = (Step("collection_breakdown", {"collectionId": "$collection_id", "groupBy": "player", "take": 100},
                   key="owned", needs=("collection_id",), when="mine_undecided", optional=True),)
CARD_DETAIL = Step("catalog_card", {"id": "$card_id"}, needs=("card_id",))
# "is my pc in the green": my gain or loss, a family's own words and an override of a near family alike
MY_GREEN = re.compile(r"\bmy\b.*\bin the (green|red|black)\b")


def _card(*then: tuple[Step, ...], extra: tuple[Step, ...] = ()) -> tuple[tuple[Step, ...], ...]:
    return ((LINK, *extra), *then)


def _collection(*steps: Step) -> tuple[tuple[Step, ...], ...]:
    return ((COLLECTIONS,), steps)


def _analytics() -> tuple[tuple[Step, ...], ...]:
    return _collection(Step("collection_analytics", {"collectionId": "$collection_id"}, needs=("collection_id",)))


INTENTS: tuple[Intent, ...] = (
    Intent("identify", r"\b(identify|photo|picture|image|scan)\b"),
    Intent("help", r"\b(what can you do|help me|how do i use|what do you know)\b"),
    Intent("glossary", r"\bwhat (does|do|is|are) (an? |the )?[\w/ -]{1,20} (mean|stand for)\b|\bwhat makes a card an? \w+",
           steps=((Step("catalog_attributes", {"take": 100}),),)),
    Intent("feedback", r"\b(feedback|report (a|an|that|this|the)|is wrong|are wrong|incorrect|typo|mistake)\b",
           steps=((Step("catalog_link", {"text": "$link_text", "take": 5}, key="link", when="has_card_words"),),
                  (Step("feedback_submit", {"entity_type": "card", "id": "$card_id", "message": "$text",
                                            "feedback_type": "data_error"}, needs=("card_id",), when="feedback_card"),
                   Step("feedback_general", {"message": "$text", "feedback_type": "other"}, when="no_feedback_card")))),
    Intent("grades", r"\bgrading (compan|types?|scale)|\bwhat grades\b|\bgrades (does|do|of|for)\b|\bgrade scale",
           steps=((Step("grades_companies"),),
                  (Step("grades_types", {"companyId": "$company_id"}, needs=("company_id",), when="has_company"),),
                  (Step("grades_grades", {"companyId": "$company_id", "typeId": "$type_id"},
                        needs=("company_id", "type_id"), when="has_company"),))),
    Intent("catalog_stats", r"\bcatalog\b.*\b(size|big|large|statistics|stats)\b|\bhow many (cards|sets|releases|"
           r"parallels|manufacturers)\b.*\b(catalog|database|in total)\b|\b(size|statistics) of the catalog|"
           r"\b(big|large)\b.*\bcatalog\b",
           steps=((Step("catalog_statistics"),),)),
    Intent("segments", r"\b(segments|categories|which sports|what sports)\b",
           steps=((Step("catalog_segments", {"take": 50}),),)),
    Intent("calendar", r"\b(upcoming|release calendar|coming out|new releases)\b",
           steps=((Step("release_calendar", {}),),)),
    Intent("random", r"\brandom\b|\bpull (me )?a\b|\bsurprise me\b",
           steps=((Step("catalog_link", {"text": "$link_text", "take": 1}, key="link", when="has_scope_words"),),
                  (Step("catalog_cards_random", {"count": 1, "releaseId": "$random_scope_release",
                                                 "setId": "$random_scope_set", "setName": "$random_set_name",
                                                 "name": "$linked_name"},
                        when="random_in_catalog"),
                   # "from the 2019 prizm base set": the release's sets called base (answered when it has one)
                   Step("catalog_cards_random", {"count": 1, "releaseId": "$random_scope_release", "setName": "Base",
                                                 "name": "$linked_name"}, key="random_base", when="random_base_set"),
                   # a few releases, one card pulled from each at once: a release may hold no card yet
                   Step("catalog_releases_random", {"count": 5, "segment": "$segment"}, key="random_release",
                        when="random_by_segment")),
                  (Step("catalog_cards_random", {"count": 1, "releaseId": "$item"}, key="random_in",
                        needs=("random_release_ids",), each="random_release_ids", when="random_by_segment"),))),
    Intent("breakdown", r"\bbreak ?down\b|\bgroup(ed)? by\b|\bby (year|release|player|grade|manufacturer|brand)s?\b",
           collection=True,
           steps=_collection(Step("collection_breakdown", {"collectionId": "$collection_id", "groupBy": "$group_by"},
                                  needs=("collection_id",)))),
    Intent("set_missing", r"\bmissing\b|\bstill need\b|\bdon'?t (have|own)\b.*\bset\b",
           collection=True,
           steps=((COLLECTIONS, Step("catalog_link", {"text": "$link_text", "history": "$link_history", "take": 1},
                                     key="link", when="names_or_refers")),
                  (Step("collection_set_progress", {"collectionId": "$collection_id", "take": 100},
                        needs=("collection_id",)),),
                  (Step("collection_set_progress_set", {"collectionId": "$collection_id", "setId": "$owned_set_id"},
                        needs=("collection_id",), when="has_set"),
                   # a set I own no card of: its size, from the catalog
                   Step("catalog_release", {"id": "$release_id"}, when="unowned_release", optional=True)),
                  (Step("catalog_card", {"id": "$item"}, key="missing", each="missing_ids"),))),
    Intent("set_progress", r"\bset (completion|progress)|\bcomplet(e|ion)\b.*\bsets?\b|\bsets?\b.*\bcomplet|"
           r"\bclosest to (complete|finish)|\bfinish(ing)?\b.*\bset\b",
           collection=True,
           steps=_collection(Step("collection_set_progress", {"collectionId": "$collection_id"},
                                  needs=("collection_id",)))),
    Intent("collection_value", r"\b(my|the) collection\b.*\b(worth|value)|\b(worth|value)\b.*\bmy (collection|cards)\b",
           collection=True, steps=_analytics()),
    Intent("collection_best", r"\bmy (top|best|most valuable|priciest)\b|\b(top|best|most valuable)\b.*\bi (own|have)\b",
           collection=True,
           steps=_collection(Step("collection_analytics", {"collectionId": "$collection_id"}, needs=("collection_id",)),
                             # every owned card's value: "my top 3", "my cheapest card"
                             Step("collection_breakdown", {"collectionId": "$collection_id", "groupBy": "player",
                                                           "take": 100}, key="owned", needs=("collection_id",),
                                  when="asks_ranking", optional=True))),
    Intent("collection_roi", r"\b(roi|profit|made money|lost money|making money|losing money|return on)\b|"
           r"\bmy\b.*\b(up or down|gains?)\b|" + MY_GREEN.pattern,
           collection=True,
           # a card named ("is my 90 upper deck griffey up"): linked, to tell the owned copy or say it is not owned
           steps=((COLLECTIONS, Step(LINK.tool, LINK.args, key="link", when="names_card_words", optional=True)),
                  (Step("collection_analytics", {"collectionId": "$collection_id"}, needs=("collection_id",)),
                   Step("collection_breakdown", {"collectionId": "$collection_id", "groupBy": "player",
                                                 "take": 100}, key="owned", needs=("collection_id",),
                        optional=True))) +
           ((Step("catalog_card", {"id": "$owned_card_id"}, key="owned_card", needs=("owned_card_id",),
                  when="names_owned", optional=True),),)),
    Intent("collection_count", r"\bhow many cards (do i|have i|are in my)\b|\bsize of my collection\b",
           collection=True, steps=_analytics()),
    Intent("collection_cards", r"\b(what|which) cards do i (have|own)\b|\bmy cards\b|\bin my collection\b",
           collection=True,
           steps=((COLLECTIONS,),
                  (Step("collection_cards_list", {"collectionId": "$collection_id", "take": 20},
                        needs=("collection_id",)),
                   Step("collection_breakdown", {"collectionId": "$collection_id", "groupBy": "player"},
                        needs=("collection_id",), optional=True)),
                  # each card in full (name, number, release): a name alone does not tell my cards apart
                  (Step("catalog_card", {"id": "$item"}, key="owned_details", each="owned_ids"),))),
    Intent("owns", r"\bdo i (have|own)\b|\bis .* in my collection\b",
           collection=True,
           # the owned cards by player too: a name the catalog holds many cards of ("griffey") is
           # answered from the collection rather than with "which one?"
           steps=((COLLECTIONS, LINK),
                  (Step("collection_breakdown", {"collectionId": "$collection_id", "groupBy": "player", "take": 100},
                        key="owned", needs=("collection_id",), when="no_card", optional=True),
                   # "my griffey jr is the upper deck rookie right?": my cards too, in case the link read another
                   Step("collection_breakdown", {"collectionId": "$collection_id", "groupBy": "player", "take": 100},
                        key="owned", needs=("collection_id",), when="my_card_named", optional=True),
                   Step("collection_cards_list", {"collectionId": "$collection_id", "card_id": "$card_id",
                                                  "take": 20}, needs=("collection_id",), when="has_card")),
                  # the owned cards of that name, each in full ("a charizard": which ones, by number)
                  (Step("catalog_card", {"id": "$item"}, key="owned_named", each="owned_named_ids", when="no_card"),))),
    # my cards told only by grade, kind, year, brand or release ("my psa 9", "my raw pokemon card"): the
    # owned cards those words fit, each told apart (set by the planner, never by the classifier)
    Intent("owned_among", collection=True,
           # a card named beside the description ("my 1990 topps frank thomas"): linked, to name it if not mine
           steps=((COLLECTIONS, Step(LINK.tool, LINK.args, key="link", when="has_card_words", optional=True)),
                  (Step("collection_breakdown", {"collectionId": "$collection_id", "groupBy": "player", "take": 100},
                        key="owned", needs=("collection_id",)),
                   Step("collection_breakdown", {"collectionId": "$collection_id", "groupBy": "grade", "take": 100},
                        key="owned_grades", needs=("collection_id",))),
                  (Step("catalog_card", {"id": "$item"}, key="among", each="among_ids"),))),
    Intent("collections", r"\bmy collections\b|\bwhat collections\b|\bhow many collections\b",
           steps=((Step("collections_list", {"take": 20}),),)),
    Intent("wantlist_add", r"\b(add|ad|put|save)\b.*\b(want ?list|wish ?list|wants|grails?|grail list)\b",
           steps=((Step("catalog_link", {"text": "$link_text", "history": "$link_history", "take": 10}, key="link"),
                   Step("lists_list", {"take": 20})),
                  (Step("list_cards_add", {"listId": "$list_id", "items": "$want_items"},
                        needs=("card_id", "list_id")),))),
    # "take the 87 mcgwire off my wants": the card found on the list (by its list entry) and taken off;
    # set by the word reading only (REMOVE_FROM_LIST), a write the request must allow
    Intent("wantlist_remove",
           steps=((Step("catalog_link", {"text": "$link_text", "history": "$link_history", "take": 25}, key="link"),
                   Step("lists_list", {"take": 20})),
                  (Step("list_cards_list", {"listId": "$list_id", "take": 100}, needs=("list_id",)), LISTED_CARD),
                  # the list's cards read when none the link found is on it ("drop the gyarados": the one I want)
                  (Step("catalog_card", {"id": "$item"}, key="wanted", each="want_card_ids", when="not_on_list_yet"),),
                  (Step("list_card_remove", {"listId": "$list_id", "cardId": "$want_link_id"},
                        needs=("list_id", "want_link_id")),))),
    Intent("wantlist", r"\b(want ?list|wish ?list|wants list|my wants|my grails|grail list|chase list)\b|"
           r"\b(am i|i'?m) (still )?(chasing|hunting)\b",
           # "is the base set venusaur on my wants": the card linked, to look for on the list
           steps=((Step("lists_list", {"take": 20}), Step(LINK.tool, LINK.args, key="link", when="asks_membership",
                                                          optional=True)),
                  (Step("list_cards_list", {"listId": "$list_id", "take": 50}, needs=("list_id",)),
                   LISTED_CARD),
                  (Step("catalog_card", {"id": "$item"}, key="wanted", each="want_card_ids"),
                   # "which of my wants are for sale": each wanted card's listings
                   Step("marketplace_card", {"card_id": "$item"}, key="wanted_market", each="want_card_ids",
                        when="wants_for_sale", optional=True)))),
    Intent("population", r"\b(population|pop|pop report|pop count|graded copies)\b|\bhow many\b.*"
           r"\b(psa|bgs|sgc|cgc|beckett|graded|gem mint)\b|\b(psa|bgs|sgc|cgc) ?\d+(\.5)?s\b",
           needs_card=True,
           # cards the words do not tell apart: the one with a population report, when only one has
           steps=_card((Step("population_card", {"card_id": "$item", "grading_company_id": "$company_id",
                                                 "include_parallels": False}, key="tied_pops", each="tied_ids",
                             when="undecided"),),
                       (Step("population_card", {"card_id": "$card_id", "grading_company_id": "$company_id",
                                                 "include_parallels": False}, needs=("card_id",)),),
                       extra=(COMPANY_LOOKUP,))),
    Intent("marketplace", r"\b(for sale|listings?|listed|marketplace|ebay|auctions?|where can i buy|buy (a|one)|"
           r"who'?s selling|anyone selling|anybody selling|selling (a|one|any)|on sale|"
           r"on the market|lowest price on|cheapest .* (right now|available))\b",
           needs_card=True,
           steps=_card((Step("marketplace_card", {"card_id": "$card_id"}, needs=("card_id",)),),
                       # the card picked among others of its name and release (no number said) has no listing:
                       # theirs, so an unlisted pick is not answered while its twin is for sale
                       (Step("marketplace_card", {"card_id": "$item"}, key="near_market", each="near_ids",
                             when="unlisted_pick", optional=True),))),
    Intent("trend", r"\b(trend|trending|over time|price history|historical|(go|goes|going|gone|went) (up|down)|"
                    r"timeseries|chart|risen|climbing|dropping|(up|down) in (price|value)|moved|moving|movement|"
                    r"changed|change in (price|value)|price change|up or down)\b",
           needs_card=True,
           # weekly buckets: "the last six months" splits at a week's edge, not inside a month counted whole
           steps=_card(OWNED_TIED, (Step("pricing_timeseries", {"card_id": "$card_id", "interval": "weekly",
                                                                "periods": 104}, needs=("card_id",)),))),
    Intent("price_compare", r"\b(or|vs\.?|versus)\b.*\b(worth more|more valuable|pricier|cost more|better (card )?"
           r"(value|buy|investment)|value-wise|higher (value|price)|sells? for more|more expensive)\b|"
           r"\b(worth more|more valuable|better (card )?value|value-wise|more expensive)\b.*\b(or|vs\.?|versus)\b|"
           r"\bwhich is worth more\b",
           steps=((Step("catalog_link", {"text": "$compare_a", "take": 5}, key="link"),
                   Step("catalog_link", {"text": "$compare_b", "take": 5}, key="link_b", when="two_sides"),
                   Step("collections_list", {"take": 20}, when="my_no_collection", optional=True)),
                  # "is my zard worth more than my blastoise": the copies I own, at their own grades
                  (Step("collection_breakdown", {"collectionId": "$collection_id", "groupBy": "player", "take": 100},
                        key="owned", needs=("collection_id",), when="says_my", optional=True),),
                  (Step("catalog_card", {"id": "$item"}, key="compared", each="compare_ids"),))),
    Intent("price", r"\b(price|prices|priced|worth|value|cost|how much|sells? for|selling for|sold for)\b",
           needs_card=True,
           # "what is my X worth": the owned copy's value (its grade), when X is in the collection
           steps=_card(OWNED_TIED, (Step("pricing_card", {"card_id": "$card_id", "period": "$period"}, needs=("card_id",),
                             optional=True),
                        Step("catalog_card", {"id": "$card_id"}, needs=("card_id",), optional=True),
                        Step("collection_breakdown", {"collectionId": "$collection_id", "groupBy": "player",
                                                      "take": 100}, key="owned", needs=("collection_id",),
                             when="says_my", optional=True)),
                       extra=(Step("collections_list", {"take": 20}, when="my_no_collection", optional=True),))),
    Intent("parallels", r"\b(parallels?|variants?|versions?|refractors?|print runs?|numbered to)\b",
           needs_card=True,
           steps=((LINK,),
                  (Step("catalog_card", {"id": "$card_id"}, needs=("card_id",), when="card_or_no_release"),
                   Step("catalog_release", {"id": "$release_id"}, when="release_not_card"),
                   Step("catalog_set", {"id": "$set_id", "cards": "false"}, when="set_not_card")),
                  (Step("catalog_set", {"id": "$base_set_id", "cards": "false"}, needs=("base_set_id",),
                        when="release_not_card"),
                   # a base set without parallels: the release's other sets that have them
                   Step("catalog_set", {"id": "$item", "cards": "false"}, key="insert_pars", each="insert_set_ids",
                        when="release_not_card"),))),
    Intent("set_facts", r"\b(what|which) sets\b|\bsets (are )?in\b|\bchecklist\b|\bhow many cards (are )?in\b|"
           r"\bhow (big|large) is (the )?\d{4}\b|"
           r"\bwhen (did|was)\b.*\b(come out|released?)\b|\brelease date\b|\bcard count\b",
           steps=((LINK,),
                  (Step("catalog_release", {"id": "$release_id"}, needs=("release_id",)),
                   Step("release_calendar", {"year": "$release_year"}, key="calendar", when="asks_date",
                        optional=True)))),
    Intent("find", r"\b(find|search|look ?up|show me|do you have|list)\b",
           steps=((LINK,),)),
    Intent("details", "", needs_card=True, steps=_card((CARD_DETAIL,))),
    Intent("unknown"),   # out of scope: the answer says what can be done instead
)
BY_NAME = {i.name: i for i in INTENTS}
DETAILS = BY_NAME["details"]


def lexical(text: str) -> Intent | None:
    for intent in INTENTS:
        if intent.matches(text):
            return intent
    return None


LEXICAL_MARGIN = 0.2   # a word pattern wins when its family scores this close to the best


# words that settle the family whatever the rest says (an explicit request)
HARD = (("glossary", r"\bwhat (does|do) (an? |the )?[\w/ -]{1,20} (mean|stand for)\b|\bwhat makes a card an? \w+"),
        ("feedback", r"\b(feedback|report (a|an) (problem|bug|issue)|pass (that|this|it) on|let (the team|them|the devs?|"
                     r"the developers) know|tell (the team|the devs?|the developers|your team|whoever)|"
                     r"(found|there'?s|hit) an? (bug|glitch)|feature (request|idea|suggestion|wish)|i (would|'d) like to suggest|"
                     r"you should (add|support|let)|it would be (great|nice|cool) (if|to))\b|"
                     r"^\s*(suggestion|idea|request|bug|complaint|feedback|praise|fyi)\s*[:\-]|"
                     # the same heading typed without its colon ("suggestion add 1952 bowman")
                     r"^\s*(suggestion|complaint)s?\s+(?!(for|on|about)\s+(me|what|which|how)\b)(?=[a-z])|"
                     r"\bleave (some |a )?(feedback|note|comment)|\b(tell|let) (ur|your|the) (team|devs?|developers)\b|"
                     r"\bpass (it|this|that) (on|along)\b|\bto the (devs?|developers)\b|"
                     r"\bpass (my|our) (thanks|compliments|kudos|praise)\b|"
                     r"\bpass (it |this |that )?(on|along) to (the|your|ur) (team|devs?|developers|staff)\b|"
                     r"^\s*(suggestion|idea|request)s? (for|to) (the|your) (team|devs?|developers|app)\b|"
                     # reporting wrong or missing data, in the collector's words
                     r"\b(is|are|was|were|looks?|seems?|looked|seemed)\s+(all\s+)?(wrong|incorrect|inaccurate|"
                     r"mislabell?ed|outdated|out of date|way off|off by)\b|"
                     r"\b(price|prices|date|number|name|picture|image|photo|info|data|year|value|spelling)\b[^.?!]{0,40}"
                     r"\b(wrong|incorrect|inaccurate|mislabell?ed)\b|\b(seems?|looks?) (way |much )?(too high|too low|off|wrong)\b|"
                     r"\b(wrong|incorrect|inaccurate|bad)\s+(price|prices|date|release date|number|card number|"
                     r"picture|image|photo|name|year|set|info|information|data|spelling|checklist|value)\b|"
                     r"\b(has|have|had|got|shows?|lists?)\s+the\s+wrong\b|"
                     r"\b(typo|misspell(ed|ing)?|mistake|error)\s+(in|on|for|with)\b|\bthere'?s\s+an?\s+(typo|mistake|error)\b|"
                     r"\b(missing from|not in|isn'?t in|absent from)\s+(the|your)\s+(catalog|catalogue|database|db|"
                     r"checklist|data)\b|"
                     r"\b(please|pls|can you|could you)\s+(fix|correct|update)\s+(the|this|that|its|his|her)\b|"
                     r"\b(needs?|ought) to be (fixed|corrected|updated)\b|\bshould (say|read)\b|"
                     r"\b(bug|issue|problem) (report|with (the|your) (app|site|search|data|catalog))\b|"
                     r"\breport (that|this|it|an? (error|mistake|typo|wrong|missing))\b"),
        ("random", r"\brandom\b|\bsurprise me\b|\broll the dice\b|"
                   r"\b(pull|grab|pick|draw) (me )?(a|one|any) (card )?(from|out of)\b"),
        ("set_missing", r"\b(what|which)( cards)? (am i|i'?m|do i still need|do i need)\b.*\b(missing|need)\b.*\b(from|in|for|of)\b|"
                        r"\b(what|which)( cards?)?( else)? (do|would) i (still )?need (to (finish|complete)|for)\b|"
                        r"\b(am i|i'?m) missing (from|in|for)\b"),
        ("set_facts", r"\b(what|which|list|any|all)\b[^?]*\b(subsets|inserts|insert sets)\b"),
        ("help", r"\bwhere (do|should|can) i (start|begin)\b|\bhow do i (get started|start|begin)\b|"
                 r"\bgetting started\b|\bi'?m (new|a beginner|just starting)\b"),
        ("price_compare", r"\b(or|vs\.?|versus)\b.*\b(worth more|more valuable|pricier|sells? for more|costs? more|"
                          r"better (card )?(value|buy)|"
                          r"value-wise|more expensive)\b|\b(worth more|more valuable|better (card )?value|value-wise|"
                          r"more expensive)\b.*\b(or|vs\.?|versus)\b"),
        ("wantlist_add", r"\b(add|ad|put|save|track|stick|throw|include|pop)\b.*\b(on|to|onto|in|into) (my|the) "
                         r"(want ?list|wish ?list|wants|grails?|grail list)\b|"
                         r"\b(add|ad|put|save)\b.*\b(want ?list|wish ?list|wants|grails)\b|"
                         r"\b(add|ad|put|save|stick|throw|toss|chuck|slap|pop)\b[^?]{0,60}\b(to|on|onto)\s+my\s+(list|wants)\b"))


CHAT = set("""hi hello hey hiya yo there good morning afternoon evening night thanks thank you so much very lot
cheers bye goodbye ok okay cool great nice awesome that's thats all how are you doing today sir bot buddy friend
lol haha wow appreciate it""".split())


def classify(text: str) -> tuple[Intent | None, float]:
    """The question's family and a confidence in [0, 1]; (None, c) when nothing fits."""
    intent, confidence = _classify(text)
    low = text.lower()
    if (intent is None or intent.name in ("find", "details", "unknown", "set_missing") or intent.collection and
            not re.search(r"\b(in|of) my (collection|pc|binders?)\b", low) or
            intent.name == "marketplace" and not intent.matches(text)) and (MY_WANTS.search(low) or LIST_ENTRY.match(low)):
        intent = BY_NAME["wantlist"]   # "show me my grails", "my wishlist: X": the want list, refined below
    # a write needs a verb that asks for it: a look-alike question never adds to a list, nor does
    # asking whether it was added ("did i add X to my wants?", "is X on my wishlist already")
    if LIST_REQUEST.search(low) and not ASKS_LIST.match(low) and "?" not in low:
        intent, confidence = BY_NAME["wantlist_add"], max(confidence, 1.0)   # the list's name as the verb
    if intent is not None and intent.name == "wantlist_add" and (
            not (ADD_VERBS.search(low) or LIST_ENTRY.match(low) or ONTO_LIST.search(low) or LIST_REQUEST.search(low)) or
            ASKS_LIST.match(low) or "already" in low or ASKS_IF_ON.search(low)):
        intent = BY_NAME["wantlist"] if WANT_WORDS.search(low) else None
    elif intent is not None and intent.name == "wantlist" and _names_left(text) and (
            LIST_ENTRY.match(low) or not ASKS_LIST.match(low) and not ASKS_ANYWHERE.search(low)
            and not ASKS_IF_ON.search(low) and (ADD_VERBS.search(low) or ONTO_LIST.search(low))):
        # a list heading and a card after it, or a card "onto the want list pls": an entry to add
        intent = BY_NAME["wantlist_add"]
    if REMOVE_FROM_LIST.search(low):
        intent, confidence = BY_NAME["wantlist_remove"], max(confidence, 1.0)   # "drop X from my wants"
    elif LIST_COST.search(low) and COST_OF_LIST.search(low):
        intent = BY_NAME["wantlist"]   # "what would my want list cost": the list, priced (answers.collection)
    if intent is not None and intent.name == "price_compare" and not _two_sides(low):
        # "which of those two is worth more", "is that more than X", "worth more than i paid": the
        # other side is in the conversation or the collection, which the next family answers
        intent = _best_of(text, [i.name for i in INTENTS if i.steps and i.name != "price_compare"]) or intent
    if intent is not None and intent.name in ("set_facts", "catalog_stats") and MINE.search(low):
        intent = _best_of(text, [i.name for i in INTENTS if i.collection]) or intent   # about my cards
    if (intent is None or intent.name in ("details", "find", "price", "unknown")) and MINE.search(low) and \
            TOP_VALUE.search(low):
        intent = BY_NAME["collection_best"]   # "which one card of mine do i grab (value wise)"
    if intent is not None and intent.name in ("find", "details", "collection_cards") and NOT_OWNED.search(low):
        intent = BY_NAME["set_missing"]   # "give me some 1989 upper deck cards i don't have yet"
    if intent is not None and intent.name == "price" and re.search(r"\bhow much of\b", low) and MINE.search(low):
        intent = _best_of(text, ["set_progress", "set_missing", "collection_count"]) or intent   # "how much of X have i got"
    if (intent is None or intent.name in ("price", "details", "find", "grades")) and \
            re.search(r"\b(qualified|qualifiers?|pop counts?|counts)\b", low) and read(text).grade:
        intent = BY_NAME["population"]   # "psa 7 X, plain vs qualified counts?"
    if intent is not None and intent.name in ("find", "details") and re.search(r"\bon my list\b", low):
        intent = BY_NAME["wantlist"]   # "is venusaur 15 from base set on my list"
    if intent is not None and not intent.collection and WHOLE_COLLECTION.search(low):
        intent = _best_of(text, [i.name for i in INTENTS if i.collection]) or intent   # "cash for my whole collection"
    if intent is not None and (intent.name == "trend" and (PAID.search(low) or OWNED_HERE.search(low)) or
                               intent.name == "price" and PAID.search(low) and UP_DOWN.search(low)):
        # "has it gone up since i bought it", "rickey 95 pinnacle in my pc - has it gone up", "the 86 topps
        # ozzie i own, up or down vs what it cost me": against what I paid
        intent = BY_NAME["collection_roi"]
    if intent is None and re.search(r"\b(fetch|fetches|fetching)\b", low) and _names_left(text):
        intent = BY_NAME["price"]   # "92 ultra jim abbott 321 bgs 9.5 whats it fetch": what it sells for
    if (intent is None or intent.name in ("owns", "details", "find", "price") or intent.name == "trend" and
            MY_WHOLE.search(low)) and (MY_UP.search(low) or MY_GREEN.search(low)):
        # "is my griffey rookie up", "is my collection going to the moon or down", "is my pc in the green":
        # against what I paid
        intent = BY_NAME["collection_roi"]
    if MY_DOING.search(low) and not read(text).grade and (intent is None or not intent.collection):
        intent = BY_NAME["collection_roi"]   # "hows my zard doing value wise": my copy against what I paid
    if intent is not None and intent.name in ("population", "collection_count") and OWN_COUNT.search(low) and \
            not read(text).grade and not re.search(r"\bhow many (cards|different|unique|total)\b", low) and [
            w for w in _names_left(text) if w.lower() not in classifier.vocabulary()]:
        intent = BY_NAME["owns"]   # "how many copies of X do i have": my copies, not a graded population
    if (intent is None or intent.name in ("details", "find", "price", "trend", "unknown")) and SPENT_ON_CARDS.search(low):
        intent = BY_NAME["collection_value"]   # "how much cash have i dropped on cardboard": what I paid in all
    if (intent is None or intent.name in ("details", "find") or intent.name == "wantlist" and not WANT_WORDS.search(low)
            and not re.search(r"\blist\b", low)) and ACQUIRED.search(low) and not VALUE_ASKED.search(low):
        intent = BY_NAME["owns"]   # "did i ever snag the 86 fleer X": whether I own it
    if (intent is None or intent.name in ("details", "find", "parallels", "set_facts", "unknown")) and \
            OWN_ASKED.search(low) and _names_left(text):
        intent = BY_NAME["owns"]   # "do i have rickey's 95 topps card", "is 86 donruss ozzie one of mine"
    if intent is not None and intent.collection and MARKED_WANTED.search(low):
        intent = BY_NAME["wantlist"]   # "do i have X marked as a want": the want list, not the collection
    if intent is not None and intent.name == "owns" and not re.search(
            r"\b(own|owned|have|has|got|mine|collection|binder|my)\b", low) and not ACQUIRED.search(low):
        intent = None   # "order me a pizza": nothing about owning
    return intent, confidence


def _two_sides(low: str) -> bool:
    """Both sides of a comparison are in the question: "X or Y", "X vs Y", "is X worth more than Y"."""
    if re.search(r"\b(or|vs\.?|versus)\b", low):
        return True
    than = re.search(r"\bthan\b", low)
    return than is not None and not re.search(r"\b(that|it|this|those|these|them|one)\b", low[:than.start()]) and \
        bool([w for w in _names_left(low[than.end():]) if w not in ("two", "both", "pair")])


def _best_of(text: str, names: list[str]) -> Intent | None:
    """The best-scoring family among ``names`` (None without embeddings)."""
    scores = classifier.ranked(text)[2]
    return BY_NAME[max(names, key=lambda n: scores.get(n, -9.0))] if scores else None


# the asker's own cards: a catalog-wide fact is never what is asked
MINE = re.compile(r"\bmy\b(\s+[\w'-]+){0,3}?\s+(collection|cards?|pc|sets?|binders?|stuff|copies|copy|slabs)\b|"
                  r"\b(card|cards|one|ones) of mine\b|"
                  r"\bi (have|own|got|collect)\b|\bi'?ve got\b|\bdo i (have|own)\b|\b(am i|i'?m) missing\b")
ADD_VERBS = re.compile(r"\b(add|ad|put|save|stick|throw|track|include|pop|place|append|chuck|toss|slap|mark|note|jot|"
                       r"log|remember|bookmark|want list it|wishlist it|go on|go onto|goes on)\b")
# the list's name used as the verb ("wishlist the 80 topps carter", "the 760 one, wishlist it") or said after
# the card as the request ("robin yount 1982 topps 435, want list please")
LIST_REQUEST = re.compile(r"^\s*(please |pls )?(wish ?list|want ?list)\s+(the|this|that|a|an|it|them|my|me)\b|"
                          # the list's name then a card with its year or number ("wishlist dave stieb 1983 fleer 441")
                          r"^\s*(please |pls )?(wish ?list|want ?list)\s+(?!(what|which|how|is|are|do|does|show|has|have|"
                          r"any|cards?|value|count|items?)\b)[a-z][^?]*\b\d{2,4}\b[^?]*$|"
                          r"\b(wish ?list|want ?list)\s+(it|that|this|them|that one|this one)\b|"
                          r"\S\s*([,:\-]|->|=>|\u2192)\s*(onto |on |to )?(my |the )?(want ?list|wish ?list|wants|grail list)\s*"
                          r"(please|pls|plz|thanks|thx|for me|it)?\s*[.!]*\s*$")
# taking a card off a list ("remove lugia from my wants", "take the 87 mcgwire off my list"); not a
# question about what to remove
REMOVE_FROM_LIST = re.compile(
    r"^(?!\s*(what|which|how|why|should)\b)[^?]*(\b(remove|remvoe|rmeove|delete|drop|cross|scratch|strike|ditch|"
    r"erase|get rid of)\b[^?]*\b(off|from|out of)|\btake\b[^?]*\b(off|out of))\s+(of\s+)?(my|the)?\s*"
    r"(want ?list|wish ?list|wants|wnat ?list|list|"
    r"grails?|grail list|needs? list|chase list)\b")
# "take it off", "remove that one": a removal of the card the conversation is about (planner.understand)
REMOVE_IT = re.compile(r"^\s*((actually|nah|no|oh|wait|ok|okay|hmm|on second thought)[\s,]+)*(please |pls |can you |could you )?"
                       r"(take|remove|delete|drop|scratch|cross)\s+(it|that|that one|this|this one|them)\b"
                       r"(\s+(off|out))?(\s+(again|please|pls|thanks))?\s*[.!]*\s*$")
# what buying the list would come to ("how much would my want list cost", "the bill for my wants")
COST_OF_LIST = re.compile(r"\b(want ?list|wish ?list|wnat ?list|my wants|grail list|chase list|on my list)\b|"
                          r"\b(everything|all (the )?(cards )?|the cards|every card) i (still )?(want|'?m (after|hunting|chasing))\b")
LIST_COST = re.compile(r"\b(cost|costs|how much|total|value|valued|worth|bill|spend|afford|price (tag|of)|"
                       r"price (it |them |this |that |everything )?(out|up)|priced out|run me|set me back|"
                       r"(gonna|going to|would|will|does|did) (it )?take)\b")
# listings asked of ("which of my wants are for sale"); "buy" alone beside a cost word is the cost
# ("what would it cost to buy everything on my wants")
FOR_SALE = re.compile(r"\b(for sale|on sale|listed|listings?|selling|available|in stock|on the market|marketplace)\b", re.I)
TO_BUY = re.compile(r"\bbuy\b", re.I)


def sale_asked(text: str, max_price: float | None = None) -> bool:
    """Listings are asked for: a sale word, "buy" without a cost word, or a price bound."""
    return bool(FOR_SALE.search(text) or TO_BUY.search(text) and not LIST_COST.search(text.lower()) or
                max_price is not None)


LIST_ENTRY = re.compile(r"^\s*(my )?(want ?list|wish ?list|wants|grails?|grail list)\s*(add|it|this)?\s*([:\-]|\+=?)\s*\S")   # "wantlist: <card>"
# a card sent onto a list without a verb ("<card> onto the wishlist pls")
ONTO_LIST = re.compile(r"\b(onto|to|into)\s+(my|the|me)\s+(want ?list|wish ?list|wants|wnat ?list|grails?|grail list|"
                       r"needs? list)\b")
TOP_VALUE = re.compile(r"\b(most|biggest|top|highest|priciest)\b[\w\s]{0,20}\b(value|valuable|worth|expensive|money)\b|"
                       r"\bvalue[- ]?wise\b|\bworth the most\b")
NOT_OWNED = re.compile(r"\b(i )?(don'?t|do not|dont) (i )?(have|own)( yet| already)?\b|\b(i'?m|i am) missing\b|"
                       r"\bdo i not (have|own)\b|\bhaven'?t i got\b|"
                       r"\bnot in my (collection|pc|binders?)\b|\bi (still )?need\b")
WHOLE_COLLECTION = re.compile(r"\b(my|the) (whole|entire|full|complete) (collection|pc|binder|stash)\b|"
                              r"\ball (of )?my (cards|collection|pc)\b")
PAID = re.compile(r"\bsince i (bought|got|paid|picked|grabbed|purchased|acquired)\b|\b(than|from|vs|versus) (what )?i paid\b|"
                  r"\bfrom my (buy|purchase)\b|\bmy (buy|purchase) price\b|"
                  r"\b(than|from|vs\.?|versus|against) what (it|they|that|this) cost( me)?\b")
# the card asked about is the caller's own copy ("in my pc", "i own")
OWNED_HERE = re.compile(r"\bin my (pc|collection|binders?)\b|\bi (own|have)\b|\bof mine\b")
MY_DOING = re.compile(r"\bhow(?:'?s| is| are)\s+my\b[^?]*\bdoing\b|"
                      r"\bmy\b[^?]{1,60}[,;\-]\s*how(?:'?s| is)\s+(it|that|that one|this one)\s+doing\b")   # "my 86 ozzie, how's it doing"
MY_UP = re.compile(r"^\s*(is|are)\s+my\b[^?]*\b(up|down)\s*[?!.]*$")
MY_WHOLE = re.compile(r"\bmy (whole |entire )?(collection|cards|pc)\b")
UP_DOWN = re.compile(r"\b(up or down|up|down|gain|gained|loss|lost|ahead|behind|underwater|profit)\b")
# asked whether a card is on the list, mid-sentence ("X, did that make it onto my want list", "X on my
# wishlist or no"): a question, never an add
ASKS_IF_ON = re.compile(r"[,;:\-]\s*(did|is|was|has|have)\b|\bor (no|not|nah|nope)\b|\bmake it (on|onto|to|in)\b")
MARKED_WANTED = re.compile(r"\b(marked|listed|flagged|tagged|saved|down) as (a |an )?(want|wish|need)|"
                           r"\bon my (want ?list|wish ?list|wants|list of wants|grails|grail list|chase list|needs? list)\b|"
                           r"\b(one|any) of my (wants|grails)\b")
# what I paid for my cards in all, in a collector's words
SPENT_ON_CARDS = re.compile(r"\bhow much (money |cash |dough )?(have i|did i|i'?ve|i have) (spent|spend|sunk|sink|put|"
                            r"dropped|drop|blown|blow|blew|invested|invest|paid|pay|shelled out)\b[\w\s]{0,12}?\b(into|on|in) "
                            r"(cards|cardboard|my (cards|collection|pc)|the hobby|this hobby|collecting|it all)\b")
# my card told by what I paid ("the 2 dollar one", "my $40 slab", "the one i paid 15 for", "the cheapest
# card i bought"): groups 1-3 the amount, 4 the cheapest or dearest
PAID_FOR = re.compile(r"\b(\d+(?:\.\d\d)?)\s*(?:dollars?|bucks?)\s+(?!(?:for|on|or|and|to|in|at|each|total|than|worth|"
                      r"apiece|a|an|the|more|less|i|me|is|was)\b)[a-z]+|\$(\d+(?:\.\d\d)?)\s+(?:one|card|copy|slab)\b|"
                      r"\bi (?:paid|spent|gave)\s+\$?(\d+(?:\.\d\d)?)\s*(?:dollars?|bucks?)?\s+(?:for|on)\b|"
                      r"(?:\$(\d+(?:\.\d\d)?)|\b(\d+(?:\.\d\d)?)\s*(?:dollars?|bucks?))\s+i\s+(?:paid|spent|gave)\b|"
                      r"\b(cheapest|priciest|most expensive|dearest)\s+(?:card|one|thing|slab)\s+i\s+(?:ever\s+)?"
                      r"(?:bought|paid for|picked up|purchased)\b|"
                      # "the most expensive card i ever got" was bought; "most expensive card i got?" is one I have
                      r"\b(cheapest|priciest|most expensive|dearest)\s+(?:card|one|thing|slab)\s+i\s+ever\s+got\b", re.I)
BOUGHT_BY_ME = re.compile(r"\bmy\b|\bi (?:ever |just |once )?(?:bought|paid|got|picked up|own|purchased|spent|gave)\b", re.I)
# whether I ever got a card ("did i ever pick up the X", "have i bought X yet")
ACQUIRED = re.compile(r"^\s*(did|have) i (ever |already |yet )?(pick(ed)? up|buy|bought|get|got|gotten|grab(bed)?|"
                      r"snag(ged)?|land(ed)?|acquired?|score[d]?)\b")
# whether a card is mine, asked outright: "do i have/own X" (never "do i have to"), "X one of mine",
# "got a X in there?"
OWN_ASKED = re.compile(r"(^\s*(so |and |hey,? |ok,? )?|[,;]\s*)(do|did) i (still |already |even )?(have|own)\b(?! to\b)|"
                       r"\b(one|any) of mine\b|\bin there\s*\?*\s*$")
OWN_COUNT = re.compile(r"\bhow many\b.*\b(do i (have|own)|have i got|i (have|own)|i'?ve got)\b")
# the caller's want list named outright, in a collector's words
MY_WANTS = re.compile(r"\bmy (want ?list|wish ?list|wants|grails|grail list|chase list|needs? list)\b|\bgrail list\b")
# a question about the list, not a request to change it ("which cards did i put on my wants")
ASKS_LIST = re.compile(r"^\s*(did|do|does|have|has|is|was|are|were|what|what's|whats|which|how|show|when|who)\b")
ASKS_ANYWHERE = re.compile(r"\?|\b(what|what's|whats|which|how|or not|remind|show|already|should)\b")
WANT_WORDS = re.compile(r"\b(want ?list|wish ?list|wants|wnat ?list|grails?|grail list|needs? list|chasing|hunting|looking for|"
                        r"my list)\b")
VALUE_ASKED = re.compile(r"\b(price|prices|priced|value|worth|cost|costs|sell|sells|selling|sold|go(es|ing)? for|"
                         r"bring|brings|bringing|fetch|fetches|"
                         r"\$|bucks|dollars|pop|pops|population|how many|listings?|for sale|trend)\b|\$")


# a card number code typed in lower case ("prv-kr", "cpa-dd"): letters, a dash, letters, no vowel-only word
LOWER_CODE = re.compile(r"\b[bcdfghjklmnpqrstvwxz]{2,4}-[a-z]{2,4}\b")
# words asking what a grade is rather than a card's figure in it
SCALE_ASKED = re.compile(r"\b(mean|means|meaning|scale|called|stand for|stands for|condition|lowest|highest)\b")


def grading_only(text: str) -> bool:
    """A grade or grading company and otherwise only the examples' everyday words ("is a bgs 9.5 better
    than a psa 9", "list the beckett grades"): about the grading scales, no card and no market figure."""
    r = read(text)
    if not (r.company or r.grade) or VALUE_ASKED.search(text.lower()) or says_my(text):
        return False
    vocab = classifier.vocabulary()
    return all(w.lower() in vocab or CONDITIONS.fullmatch(w.lower()) for _, w in r.tokens)


def _classify(text: str) -> tuple[Intent | None, float]:
    said = re.findall(r"[a-z']+", text.lower())
    if said and all(w in CHAT for w in said):
        return BY_NAME["unknown"], 1.0   # greetings and thanks: never a card name
    if len(said) <= 8 and not re.search(r"\d", text) and re.search(
            r"\b(thanks|thank you|thx|ty|bye|goodbye|cheers|see ya|later|appreciate it)\b", text.lower()) and \
            not re.search(r"\b(how|what|which|who|when|where|price|worth|value|pop|show|find|list|add)\b", text.lower()):
        return BY_NAME["unknown"], 1.0   # "super, thanks for the help", "you're an ace, bye"
    for family, pattern in HARD:
        if re.search(pattern, text, re.I):
            if family == "glossary" and (read(text).company or re.search(r"\b(gem|mint|grade)\b", text, re.I)):
                continue   # a grade's meaning is the grading scale's
            return BY_NAME[family], 1.0
    if re.search(r"\bwho (can|should|do|could) i send\b.*\b(grad|slab)|\bwhere (can|should|do) i (send|get)\b.*\b(grad|slab)",
                 text, re.I):
        return BY_NAME["grades"], 0.9   # "who can i send my cards to for slabbing": the grading companies
    if re.search(r"\bgrad(ing|ers?) (compan|services?|outfits?|houses?|firms?)|\bwho (grades|slabs)\b", text, re.I) and \
            not [w for w in _names_left(text) if w.lower() not in classifier.vocabulary() and not classifier.everyday(w)]:
        return BY_NAME["grades"], 0.9   # "which grading services do you know about"
    if re.search(r"\b(can|could|will|would|do) you (grade|slab|authenticate|buy|sell|appraise)\b", text, re.I):
        return BY_NAME["unknown"], 1.0   # a service we do not offer ("can you grade my card for me")
    if re.search(r"\b(lowest|highest|top|worst|minimum|maximum|best)\s+(possible\s+)?(\w+\s+)?grade\b|"
                 r"\bhow (low|high) does (the )?\w+ (scale|grading|grade)s? go\b", text, re.I) and \
            read(text).company and not _names_left(text):
        return BY_NAME["grades"], 0.9   # "lowest grade from bekett": the company's scale
    if scale_question(text):   # a grade's name or meaning ("what's a psa 9 called", "what grade is near mint")
        return BY_NAME["grades"], 0.9
    if classifier.bare_name(text):
        return BY_NAME["details"], 0.6   # only names, years and numbers: the card itself
    name, confidence, scores = classifier.ranked(text)
    # how many of a parallel were made is its print run ("cracked ice is /what", "purple /?"): the
    # sentence embedding and the cue words do not see the slash, so the bank alone misses these
    reading = read(text)
    low = text.lower()
    if not reading.grade and (PARALLEL_WORDS.search(low) and PRINT_RUN.search(low) or ASKS_RUN.search(low)):
        return BY_NAME["parallels"], confidence
    words = lexical(text)
    if name is None:
        return words, 0.5 if words else 0.0
    if words is not None and scores:
        if scores.get(words.name, 0.0) >= max(scores.values()) - LEXICAL_MARGIN or name == "none":
            return words, max(confidence, scores.get(words.name, 0.0))
    if name == "none":
        return None, confidence
    intent = BY_NAME.get(name)
    # a graded card without words of counting is a price question ("PSA 10 Charizard value",
    # "psa10 bo jackson 94 score"): population needs "pop", "how many", "graded copies"...
    if intent is not None and intent.name == "population" and not POP_WORDS.search(low):
        intent = BY_NAME["price"]
    # a grade and words of counting: a population question ("how many beckett 9s of X")
    if reading.grade and intent is not None and intent.name in ("set_facts", "details", "find", "catalog_stats") and \
            re.search(r"\bhow many\b|\bpops?\b|\bpopulation\b", low):
        return BY_NAME["population"], confidence
    # a grading family about a card named with its year or number ("how many joba chamberlain 2008 topps 596
    # has psa slabbed", "what does a beckett 9.5 tillero 2025 bowman auto go for"): that card's figures
    if intent is not None and intent.name == "grades" and (reading.years or reading.number or LOWER_CODE.search(low)) and [
            w for w in _names_left(text) if w.lower() not in classifier.vocabulary()]:
        if re.search(r"\bhow many\b|\bpops?\b|\bpopulation\b|\bslabbed\b|\bgraded\b", low):
            return BY_NAME["population"], confidence
        if VALUE_ASKED.search(low) or re.search(r"\bhow much\b", low):
            return BY_NAME["price"], confidence
        if LOWER_CODE.search(low) and not SCALE_ASKED.search(low):
            return BY_NAME["price"], confidence   # "kumar rocker prv-kr bgs 9.5": that card in that grade
    # the words of a population report settle it, whatever else the question resembles
    if intent is not None and intent.name in ("details", "price", "find", "grades") and \
            re.search(r"\b(pop|pops|population|pop report|pop count)\b", low):
        intent = BY_NAME["population"]
    # a price bound without words of value is a shopping question ("griffey rookie under $30?")
    if intent is not None and intent.name in ("price", "details", "find") and re.search(r"\b(under|below|less than|cheaper than|"
                                                                   r"up to|at most)\s*\$?\s*\d", low) \
            and not re.search(r"\b(worth|value|sells? for|sold for|price of|go(es)? for)\b", low):
        intent = BY_NAME["marketplace"]
    return intent, confidence


PRICE_WORDS = re.compile(r"\b(price|prices|priced|value|worth|cost|sell|sells|selling|sold|go(es|ing)? for|"
                         r"difference|\$|bucks|dollars)\b")
PARALLEL_WORDS = re.compile(r"\b(prizms?|refractors?|parallels?|superfractors?|x-?fractors?|shimmers?|speckles?|"
                            r"wave|mojo|holo|reverse holo)\b")
PRINT_RUN = re.compile(r"\bhow many\b.*\b(exist|exists|made|printed|produced|are there|were there|out there)\b|"
                       r"\bnumbered to\b|\bprint run\b|\bnumbered\b.*\?|\bserial")
# a print run asked outright ("is /what", "purple /?", "how many red wave prizms in ...")
ASKS_RUN = re.compile(r"/\s*(what|\?|$)|\bnumbered (to|out of) what\b|"
                      r"\bhow many\b[\w\s]{0,30}\b(prizms|refractors|parallels|superfractors|shimmers|waves)\b")
POP_WORDS = re.compile(r"\b(pops?|population|how many|count|graded copies|exist|exists|rare|rarity|qualifiers?|total|"
                       r"been graded|were graded|graded by|lowest grade|highest grade|\d+s)\b")


CONDITIONS = re.compile(r"\b(gem mint|gem mt|mint|near mint|nm|nm-mt|excellent|ex-mt|very good|vg|good|fair|poor|"
                        r"pristine|black label|authentic)\b")
_MEANING = re.compile(r"\b(called|mean|means|meaning|stand for|name for|named|what grade is|which grade is|"
                      r"what number is|equal to|equivalent|same as)\b")


def scale_question(text: str) -> bool:
    """A grade's name or a condition's grade, about no card ("what's a 9 called at psa", "what grade is
    near mint", "what does bgs 9.5 mean"): a grading-scale question."""
    low = text.lower()
    if not _MEANING.search(low):
        return False
    r = read(text)
    if not (r.grade or CONDITIONS.search(low)):
        return False
    # the clause asking it: "my energy search is over, just tell me what an isa 8.5 means"
    clause = next((c for c in reversed(re.split(r"[,;]|\s-\s", text)) if _MEANING.search(c.lower())), text)
    return not _names_left(clause)


def card_words(text: str) -> list[str]:
    """The words of ``text`` that may name a card: no family's word, no everyday word, no grading word,
    no brand (folded)."""
    vocab = classifier.vocabulary()
    return [f for _, w in read(text).tokens if len(w) >= 3 and w.lower() not in NEVER_NAMES
            and (f := fold(w)) not in NEVER_NAMES and f not in vocab and f not in common_words() and f not in BRANDS]


def _names_left(text: str) -> list[str]:
    """Words of ``text`` that may name a card, besides grading words."""
    return [w for _, w in read(text).tokens if w.lower() not in NEVER_NAMES and not CONDITIONS.fullmatch(w.lower())
            and w.lower() not in ("near", "very", "label", "pristine", "equal", "equivalent", "stand", "named",
                                  "condition", "conditions", "grade", "grades", "number", "possible", "give", "gives",
                                  "meaning", "called", "mean", "means", "scale", "psa's", "bgs's")]


def by_name(name: str) -> Intent | None:
    return BY_NAME.get(name)
