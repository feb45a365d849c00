"""THE table: question family -> tool calls and their arguments.

Adjust the built-in model here. An ``Intent`` is tried in table order; the first whose pattern
matches the question wins (a follow-up with no pattern of its own keeps the previous question's
intent). Its ``steps`` are groups run one round each: the calls of one group are independent and
are requested together (the loop runs them concurrently).

A ``Step`` names a tool (or alternatives: the first one the server offers is used) and its
arguments. ``"$var"`` is replaced by an entity or a resolved value; arguments that resolve to
``None`` are left out. ``needs`` lists variables without which the step cannot run (the answer then
explains what is missing); ``when`` names a predicate in ``planner.PREDICATES``; ``optional`` steps
are skipped when their tool is missing (otherwise the answer says the capability isn't available).

Variables: name, name_last, number, year, company, grade, period, group_by, text, query,
release_name, collection_id (request context), and values resolved from earlier results:
card_id, company_id, type_id, release_id.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Step:
    tool: str | tuple[str, ...]
    args: dict[str, Any] = field(default_factory=dict)
    key: str | None = None           # where the result is kept (default: the tool name)
    needs: tuple[str, ...] = ()
    when: str | None = None
    optional: bool = False

    @property
    def tools(self) -> tuple[str, ...]:
        return self.tool if isinstance(self.tool, tuple) else (self.tool,)

    @property
    def result_key(self) -> str:
        return self.key or self.tools[0]


@dataclass(frozen=True)
class Intent:
    name: str
    pattern: str
    steps: tuple[tuple[Step, ...], ...] = ()
    needs_card: bool = False
    collection: bool = False         # scoped to the caller's collection

    def matches(self, text: str) -> bool:
        return bool(self.pattern) and re.search(self.pattern, text, re.I) is not None


# the card-finding rounds every card question starts with
CARD_SEARCH = Step("catalog_cards", {"name": "$name", "number": "$number", "year": "$year", "take": 25},
                   key="cards", needs=("name",))
CARD_RETRY = Step("catalog_cards", {"name": "$name_last", "take": 25}, key="cards_retry", when="no_cards")
COMPANY_LOOKUP = Step("grades_companies", {}, when="has_company", optional=True)
COLLECTIONS = Step("collections_list", {"take": 20}, when="no_collection")


def _card(*then: tuple[Step, ...], extra: tuple[Step, ...] = ()) -> tuple[tuple[Step, ...], ...]:
    return ((CARD_SEARCH, *extra), (CARD_RETRY,), *then)


def _collection(step: Step) -> tuple[tuple[Step, ...], ...]:
    return ((COLLECTIONS,), (step,))


INTENTS: tuple[Intent, ...] = (
    Intent("identify", r"\b(identify|photo|picture|image|scan)\b"),
    Intent("feedback", r"\b(feedback|report (a|an|that|this|the)|is wrong|are wrong|incorrect|typo|mistake)\b",
           steps=((Step("catalog_cards", {"name": "$name", "number": "$number", "year": "$year", "take": 25},
                        key="cards", when="has_name"),),
                  (Step("feedback_submit", {"entity_type": "card", "id": "$card_id", "message": "$text",
                                            "feedback_type": "data_error"}, needs=("card_id",), when="has_name"),
                   Step("feedback_general", {"message": "$text", "feedback_type": "other"}, when="no_name")))),
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
    Intent("random", r"\brandom\b", steps=((Step("catalog_cards_random", {"count": 1}),),)),
    Intent("breakdown", r"\bbreak ?down\b|\bgroup(ed)? by\b|\bby (year|release|player|grade|manufacturer|brand)s?\b",
           collection=True,
           steps=_collection(Step("collection_breakdown", {"collectionId": "$collection_id", "groupBy": "$group_by"},
                                  needs=("collection_id",)))),
    Intent("set_progress", r"\bset (completion|progress)|\bcomplet(e|ion)\b.*\bsets?\b|\bsets?\b.*\bcomplet|"
           r"\bmissing\b|\bclosest to (complete|finish)", collection=True,
           steps=_collection(Step("collection_set_progress", {"collectionId": "$collection_id"},
                                  needs=("collection_id",)))),
    Intent("collection_value", r"\b(my|the) collection\b.*\b(worth|value|valuable|top|best|invest|roi|gain|profit)|"
           r"\b(worth|value|valuable|invested|roi)\b.*\bmy (collection|cards)\b|\bmy (top|most valuable) card",
           collection=True,
           steps=_collection(Step("collection_analytics", {"collectionId": "$collection_id"},
                                  needs=("collection_id",)))),
    Intent("collection_cards", r"\b(what|which) cards do i (have|own)\b|\bmy cards\b|\bin my collection\b",
           collection=True,
           steps=((COLLECTIONS,),
                  (Step("collection_cards_list", {"collectionId": "$collection_id", "take": 20},
                        needs=("collection_id",)),
                   Step("collection_breakdown", {"collectionId": "$collection_id", "groupBy": "player"},
                        needs=("collection_id",), optional=True)))),
    Intent("collections", r"\bmy collections\b|\bwhat collections\b|\bhow many collections\b",
           steps=((Step("collections_list", {"take": 20}),),)),
    Intent("population", r"\b(population|pop report|pop count|graded copies)\b|\bhow many\b.*"
           r"\b(psa|bgs|sgc|cgc|beckett|graded|gem mint)\b|\b(psa|bgs|sgc|cgc) \d+(\.5)?s\b",
           needs_card=True,
           steps=_card((Step("population_card", {"card_id": "$card_id", "grading_company_id": "$company_id"},
                             needs=("card_id",)),), extra=(COMPANY_LOOKUP,))),
    Intent("marketplace", r"\b(for sale|listings?|listed|marketplace|ebay|auctions?|where can i buy|buy (a|one))\b",
           needs_card=True,
           steps=_card((Step("marketplace_card", {"card_id": "$card_id"}, needs=("card_id",)),))),
    Intent("trend", r"\b(trend|trending|over time|price history|historical|going (up|down)|timeseries|chart)\b",
           needs_card=True,
           steps=_card((Step("pricing_timeseries", {"card_id": "$card_id", "interval": "monthly", "periods": 12},
                             needs=("card_id",)),))),
    Intent("price", r"\b(price|prices|priced|worth|value|cost|how much|sells? for|selling for|sold for)\b",
           needs_card=True,
           steps=_card((Step("pricing_card", {"card_id": "$card_id", "period": "$period"}, needs=("card_id",),
                             optional=True),
                        Step("catalog_card", {"id": "$card_id"}, needs=("card_id",), optional=True)))),
    Intent("parallels", r"\b(parallels?|variants?|versions?|refractors?|print runs?)\b", needs_card=True,
           steps=_card((Step("catalog_card", {"id": "$card_id"}, needs=("card_id",)),))),
    Intent("sets_of_release", r"\b(what|which) sets\b|\bsets (are )?in\b|\bchecklist\b",
           steps=((Step("catalog_releases", {"name": "$release_name", "year": "$year", "take": 10},
                        needs=("release_name",)),),
                  (Step("catalog_release", {"id": "$release_id"}, needs=("release_id",)),))),
    Intent("find", r"\b(find|search|look ?up|show me|do you have)\b",
           steps=((Step("catalog_cards", {"name": "$name", "number": "$number", "year": "$year", "take": 25},
                        key="cards", needs=("name",)), ), (CARD_RETRY,))),
)

# a named card with no other family: show its details
DETAILS = Intent("details", "", needs_card=True,
                 steps=_card((Step("catalog_card", {"id": "$card_id"}, needs=("card_id",)),)))
FOLLOW_UP = re.compile(r"^\s*(and|what about|how about|also|ok|okay|then)\b|\b(its|it|that one|that card|same card)\b",
                       re.I)


def match(text: str) -> Intent | None:
    for intent in INTENTS:
        if intent.matches(text):
            return intent
    return None


def by_name(name: str) -> Intent | None:
    if name == DETAILS.name:
        return DETAILS
    return next((i for i in INTENTS if i.name == name), None)
