"""Shapes and helpers shared by the pricing and marketplace tools (card context, records, filters)."""

from __future__ import annotations

import re
import uuid
from datetime import date, datetime, timedelta
from typing import Annotated, Any, Literal
from zoneinfo import ZoneInfo

from pydantic import BeforeValidator, Field

from store.queries import pricing as pricing_queries
from tools._models import Out, _uuid_str
from tools._models import ServerMessage as ServerMessage  # re-exported for the pricing tools
from tools.errors import not_found

ListingType = Literal["auction", "fixed", "both"]
EASTERN = ZoneInfo("America/New_York")
PERIOD_RE = re.compile(r"^(\d+)([dwmy])$")
_UNIT_DAYS = {"d": 1, "w": 7, "m": 30, "y": 365}


def _uuid_or_null(value: Any) -> str:
    if value == "null" or value is None:
        return "null"
    return _uuid_str(value)


# A UUID, or the literal string "null" (base card only / ungraded only); omitted = all.
UUIDOrNull = Annotated[str, BeforeValidator(_uuid_or_null), Field(json_schema_extra={"format": "uuid-or-null"})]


def _period(value: Any) -> str:
    value = str(value)
    m = PERIOD_RE.match(value)
    if value != "all" and (not m or int(m.group(1)) < 1):
        raise ValueError("period must be 'all' or a number followed by d, w, m or y (7d, 2w, 3m, 1y)")
    return value


Period = Annotated[str, BeforeValidator(_period)]


def period_days(period: str) -> int | None:
    m = PERIOD_RE.match(period)
    return None if not m else int(m.group(1)) * _UNIT_DAYS[m.group(2)]


def as_of(value: str | None, now: datetime, tz: Any = EASTERN) -> date:
    """The effective as-of date: today in ``tz`` by default; a future date is clamped to today."""
    today = now.astimezone(tz).date()
    if value is None:
        return today
    return min(date.fromisoformat(value), today)


def window_start(as_of_date: date, days: int | None) -> date | None:
    return None if days is None else as_of_date - timedelta(days=days - 1)


def parse_filter(value: str | None) -> tuple[bool, uuid.UUID | None]:
    """(filter applied?, id) where id None with applied=True means the literal "null"."""
    if value is None:
        return False, None
    if value == "null":
        return True, None
    return True, uuid.UUID(value)


class SetContext(Out):
    set_id: str
    name: str
    year: str | None = None
    release: str | None = None


class ParallelContext(Out):
    parallel_id: str
    name: str


class CardContext(Out):
    card_id: str
    name: str
    number: str | None = None
    set: SetContext
    parallel: ParallelContext | None = None


class SourceCount(Out):
    source: str
    count: int


class QueryEcho(Out):
    __keep_none__ = frozenset()
    parallel_id: str | None = None
    grade_id: str | None = None
    period: str | None = None
    listing_type: str | None = None
    as_of_date: str


class MatchedCard(Out):
    card_id: str
    name: str
    number: str | None = None
    set: SetContext


class CompanyNames(Out):
    """Where a market answer names a grading company: the short name, as the published API has it, and
    the full name beside it."""

    company_name: str = Field(description='The grading company\'s short name ("PSA", "BGS", "SGC", "CGC")')
    company_full_name: str = Field(description="Its full name (Professional Sports Authenticator ...)")
    company_id: str


def company_names(company: Any) -> dict[str, str]:
    """The ``CompanyNames`` fields of a grading company row."""
    return {"company_name": company.abbreviation, "company_full_name": company.name, "company_id": str(company.id)}


class GradeRef(CompanyNames):
    grade_id: str
    grade_value: str


def card_context(row: Any, parallel: Any = None) -> CardContext:
    """``row``: (card, set, release) from ``store.queries.pricing.card_with_set``."""
    card, cset, rel = row
    return CardContext(card_id=str(card.id), name=card.name, number=card.number,
                       set=SetContext(set_id=str(cset.id), name=cset.name, year=rel.year, release=rel.name),
                       parallel=ParallelContext(parallel_id=str(parallel.id), name=parallel.name) if parallel else None)


def matched_card(row: Any) -> MatchedCard:
    card, cset, rel = row
    return MatchedCard(card_id=str(card.id), name=card.name, number=card.number,
                       set=SetContext(set_id=str(cset.id), name=cset.name, year=rel.year, release=rel.name))


def money(cents: int | None) -> float | None:
    return None if cents is None else round(cents / 100, 2)


def sources(records: list[Any]) -> list[SourceCount]:
    counts: dict[str, int] = {}
    for r in records:
        counts[r.source] = counts.get(r.source, 0) + 1
    return [SourceCount(source=k, count=v) for k, v in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))]


async def card_and_parallel(s: Any, card_id: uuid.UUID, parallel_id: uuid.UUID | None) -> tuple[Any, Any]:
    """The card's (card, set, release) row and, when ``parallel_id`` is given, that parallel of the
    card's set; 404 for an unknown card or a parallel of another set."""
    row = await pricing_queries.card_with_set(session=s, card_id=card_id)
    if row is None:
        raise not_found("Card", card_id)
    par = None
    if parallel_id is not None:
        par = await pricing_queries.parallel(session=s, parallel_id=parallel_id)
        if par is None or par.set_id != row[0].set_id:
            raise not_found("Parallel", parallel_id)
    return row, par
