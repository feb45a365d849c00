"""Active marketplace listings (beta): per card, grouped raw / graded, and a full-text title search.

The per-card view ends its raw records with a marketplace search link (``listing_type``
``search``, no price) so a caller can look further. Search results carry ``matched_card`` and
``grade`` only where the title matcher (store/matching.py) was sure at import time.
"""

from __future__ import annotations

import uuid
from collections import defaultdict
from typing import Any
from urllib.parse import quote_plus

from pydantic import Field

from store.queries import marketplace as q
from store.queries import pricing as pq
from tools._market import (
    CardContext,
    GradeRef,
    ListingType,
    MatchedCard,
    QueryEcho,
    SourceCount,
    UUIDOrNull,
    as_of,
    card_context,
    matched_card,
    money,
    parse_filter,
    sources,
)
from tools._models import In, Out, UUIDStr
from tools._registry import tool
from tools.context import ToolContext
from tools.errors import not_found
from tools.pricing import grade_ref


class MarketplaceRecord(Out):
    __keep_none__ = frozenset({"price", "bid_count", "parallel_id", "parallel_name"})
    title: str
    source: str
    price: float | None = None
    listing_type: str
    url: str | None = None
    image_url: str | None = None
    condition: str | None = None
    end_date: str | None = None
    bid_count: int | None = None
    parallel_id: str | None = None
    parallel_name: str | None = None


class RawListings(Out):
    count: int
    records: list[MarketplaceRecord]


class GradeListings(Out):
    grade_value: str
    grade_id: str
    count: int
    records: list[MarketplaceRecord]


class CompanyListings(Out):
    company_name: str
    company_id: str
    grades: list[GradeListings]


class MarketMeta(Out):
    sources: list[SourceCount]
    total_records: int


class MarketplaceResponse(Out):
    card: CardContext
    query: QueryEcho
    raw: RawListings
    graded: list[CompanyListings]
    meta: MarketMeta


class MarketplaceQuery(In):
    card_id: UUIDStr = Field(description="Catalog card id")
    listing_type: ListingType = Field("both", description="auction, fixed or both")
    parallel_id: UUIDOrNull | None = Field(None, description='Parallel UUID, "null" for the base card only; omit for all')
    grade_id: UUIDOrNull | None = Field(None, description='Grade UUID, "null" for ungraded only; omit for all')
    limit: int = Field(100, ge=1, le=500, description="Listings per card, 1-500 (default 100)")


def listing(r: Any, names: dict) -> MarketplaceRecord:
    end = r.end_date.isoformat().replace("+00:00", "Z") if r.end_date else None
    return MarketplaceRecord(title=r.title, source=r.source, price=money(r.price_cents), listing_type=r.listing_type,
                             url=r.url, image_url=r.image_url, condition=r.condition, end_date=end,
                             bid_count=r.bid_count if r.listing_type == "auction" else None,
                             parallel_id=str(r.parallel_id) if r.parallel_id else None,
                             parallel_name=names.get(r.parallel_id))


def search_link(row: Any, par: Any) -> MarketplaceRecord:
    card, cset, rel = row
    words = " ".join(x for x in (rel.name if rel.year and rel.name.startswith(rel.year) else f"{rel.year or ''} {rel.name}",
                                 card.name, f"#{card.number}" if card.number else "", par.name if par else "") if x)
    return MarketplaceRecord(title=f"Search eBay for {words.strip()}", source="eBay", price=None, listing_type="search",
                             url=f"https://www.ebay.com/sch/i.html?_nkw={quote_plus(words.strip())}")


@tool("marketplace_card", method="GET", path="/v1/marketplace/{card_id}")
async def marketplace_card(ctx: ToolContext, query: MarketplaceQuery) -> MarketplaceResponse:
    """Active marketplace listings of a card (auctions and fixed-price), raw and graded by company > grade.

    Filters: listing_type, parallel_id and grade_id ("null" = base / ungraded only), limit. The raw
    records end with a marketplace search link (listing_type "search").
    """
    now = ctx.clock()
    par_filter, grade_filter = parse_filter(query.parallel_id), parse_filter(query.grade_id)
    async with ctx.transaction() as s:
        row = await pq.card_with_set(session=s, card_id=uuid.UUID(query.card_id))
        if row is None:
            raise not_found("Card", query.card_id)
        par = None
        if par_filter[1] is not None:
            par = await pq.parallel(session=s, parallel_id=par_filter[1])
            if par is None or par.set_id != row[0].set_id:
                raise not_found("Parallel", par_filter[1])
        rows = await q.for_card(session=s, card_id=row[0].id, parallel=par_filter, grade=grade_filter,
                                listing_type=query.listing_type, now=now, limit=query.limit)
        names = await pq.parallel_names(session=s, ids=[r.parallel_id for r in rows])
        info = await pq.grade_info(session=s, ids=[r.grade_id for r in rows])
    raw = [listing(r, names) for r in rows if r.grade_id is None or r.grade_id not in info]
    graded: dict[uuid.UUID, dict[uuid.UUID, list[MarketplaceRecord]]] = defaultdict(lambda: defaultdict(list))
    for r in rows:
        if r.grade_id in info:
            graded[info[r.grade_id][1].id][r.grade_id].append(listing(r, names))
    companies = []
    for cid in sorted(graded, key=lambda c: info[next(iter(graded[c]))][1].sort_order):
        company = info[next(iter(graded[cid]))][1]
        grades = [GradeListings(grade_value=info[g][0].value, grade_id=str(g), count=len(v), records=v)
                  for g, v in sorted(graded[cid].items(), key=lambda kv: info[kv[0]][0].sort_order)]
        companies.append(CompanyListings(company_name=company.name, company_id=str(cid), grades=grades))
    count = len(raw)
    if grade_filter == (True, None) or not grade_filter[0]:
        raw.append(search_link(row, par))
    return MarketplaceResponse(
        card=card_context(row, par),
        query=QueryEcho(parallel_id=query.parallel_id, grade_id=query.grade_id, listing_type=query.listing_type,
                        as_of_date=as_of(None, now).isoformat()),
        raw=RawListings(count=count, records=raw), graded=companies,
        meta=MarketMeta(sources=sources(rows), total_records=len(rows)))


class MarketSearchQuery(In):
    q: str = Field(min_length=2, max_length=300, description="Free text over active listing titles, 2-300 characters")
    listing_type: ListingType = "both"
    limit: int = Field(100, ge=1, le=500, description="1-500, default 100")


class MarketSearchRecord(MarketplaceRecord):
    matched_card: MatchedCard | None = None
    grade: GradeRef | None = None


class MarketSearchEcho(Out):
    q: str
    listing_type: str
    limit: int | None = None
    as_of_date: str


class MarketSearchResponse(Out):
    query: MarketSearchEcho
    results: list[MarketSearchRecord]
    meta: MarketMeta


@tool("marketplace_search", method="GET", path="/v1/marketplace/search")
async def marketplace_search(ctx: ToolContext, query: MarketSearchQuery) -> MarketSearchResponse:
    """Search active marketplace listings by title words, most relevant first, with the matched catalog card."""
    now = ctx.clock()
    async with ctx.transaction() as s:
        rows = await q.search(session=s, q=query.q, listing_type=query.listing_type, now=now, limit=query.limit)
        names = await pq.parallel_names(session=s, ids=[r.parallel_id for r in rows])
        info = await pq.grade_info(session=s, ids=[r.grade_id for r in rows])
        cards = await pq.cards_with_set(session=s, card_ids=[r.card_id for r in rows if r.card_id])
    results = []
    for r in rows:
        base = listing(r, names).model_dump()
        results.append(MarketSearchRecord(**base, matched_card=matched_card(cards[r.card_id]) if r.card_id in cards else None,
                                          grade=grade_ref(r.grade_id, info) if r.card_id in cards else None))
    return MarketSearchResponse(query=MarketSearchEcho(q=query.q, listing_type=query.listing_type, limit=query.limit,
                                                       as_of_date=as_of(None, now).isoformat()),
                                results=results, meta=MarketMeta(sources=sources(rows), total_records=len(rows)))
