"""Historical prices of a card (beta): completed auction sales and fixed-price asks, raw and graded.

Records newest first, capped at ``limit`` (at most 500) rows ending at ``as_of_date`` (US
Eastern, default today, a future date is clamped); hitting the cap adds a warning to
``messages``: page back by re-querying with ``as_of_date`` = the oldest ``date`` returned.
"""

from __future__ import annotations

import uuid
from collections import defaultdict

from typing import Any

from pydantic import Field

from store.queries import pricing as q
from tools._market import (
    CardContext,
    GradeRef,
    ListingType,
    MatchedCard,
    Period,
    QueryEcho,
    ServerMessage,
    SourceCount,
    UUIDOrNull,
    as_of,
    card_context,
    matched_card,
    money,
    parse_filter,
    period_days,
    sources,
    window_start,
)
from tools._models import DateStr, In, Out, UUIDStr
from tools._registry import tool
from tools.context import ToolContext
from tools.errors import ServiceError, not_found

MAX_ROWS = 500


class PricingRecord(Out):
    title: str | None = None
    price: float
    date: str | None = None
    listing_type: str | None = None
    source: str
    url: str | None = None
    image_url: str | None = None
    parallel_id: str | None = None
    parallel_name: str | None = None


class RawPrices(Out):
    __keep_none__ = frozenset({"period_days"})
    period_days: int | None = None
    count: int
    records: list[PricingRecord]


class GradePrices(Out):
    __keep_none__ = frozenset({"period_days"})
    grade_value: str
    grade_id: str
    period_days: int | None = None
    count: int
    records: list[PricingRecord]


class CompanyPrices(Out):
    company_name: str
    company_id: str
    grades: list[GradePrices]


class PricingMeta(Out):
    sources: list[SourceCount]
    last_sale_date: str | None = None
    total_records: int


class PricingResponse(Out):
    card: CardContext
    query: QueryEcho
    raw: RawPrices
    graded: list[CompanyPrices]
    meta: PricingMeta
    messages: list[ServerMessage] | None = None


_PAR = Field(None, description='Parallel UUID, "null" for the base card only; omit for all')
_GRADE = Field(None, description='Grade UUID, "null" for ungraded only; omit for all')
_PERIOD = Field("all", description="all, or a number of days/weeks/months/years: 7d, 2w, 3m, 1y")


class PricingQuery(In):
    card_id: UUIDStr = Field(description="Catalog card id")
    period: Period = _PERIOD
    listing_type: ListingType = Field("both", description="auction (completed sales), fixed (asks) or both")
    parallel_id: UUIDOrNull | None = _PAR
    grade_id: UUIDOrNull | None = _GRADE
    as_of_date: DateStr | None = Field(None, description="YYYY-MM-DD (US Eastern); default today")
    limit: int = Field(MAX_ROWS, ge=1, le=MAX_ROWS, description="Rows per card, 1-500")


def record(r: Any, par_names: dict) -> PricingRecord:
    return PricingRecord(title=r.title, price=money(r.price_cents), date=r.date.isoformat(), listing_type=r.listing_type,
                         source=r.source, url=r.url, image_url=r.image_url,
                         parallel_id=str(r.parallel_id) if r.parallel_id else None,
                         parallel_name=par_names.get(r.parallel_id))


async def card_prices(s: Any, ctx: ToolContext, card_id: uuid.UUID, *, period: str, listing_type: str,
                      parallel_id: str | None, grade_id: str | None, as_of_date: str | None, limit: int) -> PricingResponse:
    row = await q.card_with_set(session=s, card_id=card_id)
    if row is None:
        raise not_found("Card", card_id)
    par_filter, grade_filter = parse_filter(parallel_id), parse_filter(grade_id)
    par = None
    if par_filter[1] is not None:
        par = await q.parallel(session=s, parallel_id=par_filter[1])
        if par is None or par.set_id != row[0].set_id:
            raise not_found("Parallel", par_filter[1])
    end = as_of(as_of_date, ctx.clock())
    days = period_days(period)
    recs, matched = await q.records(session=s, card_id=card_id, parallel=par_filter, grade=grade_filter,
                                    listing_type=listing_type, start=window_start(end, days), end=end, limit=limit)
    names = await q.parallel_names(session=s, ids=[r.parallel_id for r in recs])
    info = await q.grade_info(session=s, ids=[r.grade_id for r in recs])
    raw = [record(r, names) for r in recs if r.grade_id is None]
    graded: dict[uuid.UUID, dict[uuid.UUID, list[PricingRecord]]] = defaultdict(lambda: defaultdict(list))
    for r in recs:
        if r.grade_id is not None and r.grade_id in info:
            graded[info[r.grade_id][1].id][r.grade_id].append(record(r, names))
    companies = []
    for cid in sorted(graded, key=lambda c: next(iter(info[g][1].sort_order for g in graded[c]))):
        company = info[next(iter(graded[cid]))][1]
        grades = [GradePrices(grade_value=info[g][0].value, grade_id=str(g), period_days=days, count=len(v), records=v)
                  for g, v in sorted(graded[cid].items(), key=lambda kv: info[kv[0]][0].sort_order)]
        companies.append(CompanyPrices(company_name=company.name, company_id=str(cid), grades=grades))
    messages = None
    if matched > limit:
        messages = [ServerMessage(type="warning", message=(
            f"Result capped at {limit} rows; re-query with as_of_date={recs[-1].date.isoformat()} for older records"))]
    sales = [r.date for r in recs if r.listing_type == "auction"]
    return PricingResponse(
        card=card_context(row, par),
        query=QueryEcho(parallel_id=parallel_id, grade_id=grade_id, period=period, listing_type=listing_type,
                        as_of_date=end.isoformat()),
        raw=RawPrices(period_days=days, count=len(raw), records=raw), graded=companies,
        meta=PricingMeta(sources=sources(recs), last_sale_date=max(sales).isoformat() if sales else None,
                         total_records=len(recs)),
        messages=messages)


@tool("pricing_card", method="GET", path="/v1/pricing/{card_id}")
async def pricing_card(ctx: ToolContext, query: PricingQuery) -> PricingResponse:
    """Historical sale and asking prices of a card, raw and graded (company > grade), newest first.

    Filter by period (7d, 2w, 3m, 1y, all), listing_type (auction = completed sales, fixed =
    asking prices), parallel_id and grade_id ("null" = base / ungraded only), as_of_date, limit.
    """
    async with ctx.transaction() as s:
        return await card_prices(s, ctx, uuid.UUID(query.card_id), period=query.period,
                                 listing_type=query.listing_type, parallel_id=query.parallel_id,
                                 grade_id=query.grade_id, as_of_date=query.as_of_date, limit=query.limit)


class BulkInput(In):
    card_ids: list[UUIDStr] = Field(min_length=1, max_length=100, description="1-100 catalog card ids")
    parallel_id: UUIDOrNull | None = _PAR
    grade_id: UUIDOrNull | None = _GRADE
    period: Period = _PERIOD
    listing_type: ListingType = "both"
    limit: int = Field(25, ge=1, le=100, description="Rows per card, 1-100 (default 25)")


class BulkError(Out):
    code: str
    message: str


class BulkItem(Out):
    card_id: str
    success: bool
    data: PricingResponse | None = None
    error: BulkError | None = None


class BulkMeta(Out):
    requested: int
    successful: int
    failed: int


class BulkResponse(Out):
    results: list[BulkItem]
    meta: BulkMeta


@tool("pricing_bulk", method="POST", path="/v1/pricing/")
async def pricing_bulk(ctx: ToolContext, body: BulkInput) -> BulkResponse:
    """Historical prices for 1-100 cards at once; each card succeeds or fails on its own."""
    results = []
    async with ctx.transaction() as s:
        for cid in body.card_ids:
            try:
                data = await card_prices(s, ctx, uuid.UUID(cid), period=body.period, listing_type=body.listing_type,
                                         parallel_id=body.parallel_id, grade_id=body.grade_id, as_of_date=None,
                                         limit=body.limit)
                results.append(BulkItem(card_id=cid, success=True, data=data))
            except ServiceError as exc:
                results.append(BulkItem(card_id=cid, success=False, error=BulkError(code=exc.code, message=exc.message)))
    ok = sum(1 for r in results if r.success)
    return BulkResponse(results=results, meta=BulkMeta(requested=len(results), successful=ok, failed=len(results) - ok))


class SearchQuery(In):
    q: str = Field(min_length=2, max_length=300, description="Free text over listing titles, 2-300 characters")
    period: Period = _PERIOD
    listing_type: ListingType = "both"
    limit: int = Field(100, ge=1, le=MAX_ROWS, description="1-500, default 100")


class SearchRecord(PricingRecord):
    matched_card: MatchedCard | None = None
    grade: GradeRef | None = None


class SearchEcho(Out):
    q: str
    listing_type: str
    period: str | None = None
    limit: int | None = None
    as_of_date: str


class SearchMeta(Out):
    sources: list[SourceCount]
    total_records: int


class SearchResponse(Out):
    query: SearchEcho
    results: list[SearchRecord]
    meta: SearchMeta


def grade_ref(grade_id: uuid.UUID | None, info: dict) -> GradeRef | None:
    if grade_id is None or grade_id not in info:
        return None
    g, c = info[grade_id]
    return GradeRef(grade_id=str(g.id), grade_value=g.value, company_name=c.name, company_id=str(c.id))


@tool("pricing_search", method="GET", path="/v1/pricing/search")
async def pricing_search(ctx: ToolContext, query: SearchQuery) -> SearchResponse:
    """Search historical sales and asks by title words (no card id needed), most relevant first."""
    end = as_of(query.as_of_date if hasattr(query, "as_of_date") else None, ctx.clock())
    async with ctx.transaction() as s:
        recs = await q.search(session=s, q=query.q, listing_type=query.listing_type,
                              start=window_start(end, period_days(query.period)), end=end, limit=query.limit)
        names = await q.parallel_names(session=s, ids=[r.parallel_id for r in recs])
        info = await q.grade_info(session=s, ids=[r.grade_id for r in recs])
        cards = await q.cards_with_set(session=s, card_ids=[r.card_id for r in recs])
    results = []
    for r in recs:
        base = record(r, names)
        results.append(SearchRecord(**base.model_dump(exclude_none=True),
                                    matched_card=matched_card(cards[r.card_id]) if r.card_id in cards else None,
                                    grade=grade_ref(r.grade_id, info)))
    return SearchResponse(query=SearchEcho(q=query.q, listing_type=query.listing_type, period=query.period,
                                           limit=query.limit, as_of_date=end.isoformat()),
                          results=results, meta=SearchMeta(sources=sources(recs), total_records=len(recs)))


