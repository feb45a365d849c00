"""Lightweight stand-ins for tools that other branches provide (catalog, collections, market).

They use the fixed tool names and the spec's REST parameter names, read the seeded catalog
(``tests.factories.seed_catalog``) where that is cheap, and otherwise return small canned results
in the spec's shapes. ``install(monkeypatch)`` puts them into the registry for one test only
(replacing a real tool of the same name, so tests stay deterministic after the branches merge).
"""

from __future__ import annotations

import uuid
from typing import Any, Literal

from pydantic import BaseModel, Field
from sqlalchemy import select

from store.models import Card, CardSet, Parallel, ParallelCard, Release
from tools import _registry
from tools._models import In, LooseUUIDStr, Take, UUIDStr
from tools._registry import Tool
from tools.errors import ServiceError, not_found

FAKE_COLLECTION = "5b0c1c4e-3f7a-4d2b-9a51-1f0e2d3c4b5a"


class CardsQ(In):
    name: str | None = None
    number: str | None = None
    year: str | None = None
    setName: str | None = None
    releaseName: str | None = None
    take: Take = 20
    skip: int = 0


class IdQ(In):
    id: UUIDStr


class CardIdQ(In):
    card_id: UUIDStr
    grading_company_id: UUIDStr | None = None


class PopQ(CardIdQ):
    include_parallels: bool = True


class SeriesQ(In):
    card_id: UUIDStr
    interval: Literal["daily", "weekly", "monthly"]
    periods: int | None = Field(None, ge=1, le=365)


class PricingQ(In):
    card_id: UUIDStr
    period: str | None = None
    listing_type: Literal["auction", "fixed", "both"] | None = None


class MarketQ(In):
    card_id: UUIDStr
    listing_type: Literal["auction", "fixed", "both"] | None = None
    limit: int | None = Field(None, ge=1, le=100)


class CollectionQ(In):
    collectionId: LooseUUIDStr


class CollectionCardsQ(In):
    collectionId: LooseUUIDStr
    take: Take = 20


class BreakdownQ(In):
    collectionId: LooseUUIDStr
    groupBy: Literal["release", "year", "grade", "player", "manufacturer"]


class ListQ(In):
    take: Take = 20
    collectorId: LooseUUIDStr | None = None


class FeedbackQ(In):
    entity_type: Literal["card", "set", "release", "manufacturer", "segment", "identify"]
    id: UUIDStr
    message: str = Field(min_length=1, max_length=1000)
    feedback_type: Literal["data_error", "missing_data", "suggestion", "bug", "other"] | None = None


class GeneralFeedbackQ(In):
    message: str = Field(min_length=1, max_length=1000)
    feedback_type: Literal["data_error", "missing_data", "suggestion", "bug", "other"] | None = None


class MarketSearchQ(In):
    q: str = Field(min_length=1)
    limit: int | None = None


def _card_json(c: Card, s: CardSet, r: Release) -> dict[str, Any]:
    out = {"id": str(c.id), "releaseId": str(r.id), "setId": str(s.id), "name": c.name, "setName": s.name,
           "number": c.number, "releaseName": r.name, "releaseYear": r.year}
    if c.variation_of:
        out["variationOf"] = str(c.variation_of)
    return out


async def catalog_cards(ctx, q: CardsQ) -> dict[str, Any]:
    """Search catalog cards by name, number and year."""
    async with ctx.transaction() as s:
        stmt = select(Card, CardSet, Release).join(CardSet, Card.set_id == CardSet.id).join(
            Release, Card.release_id == Release.id)
        if q.name:
            stmt = stmt.where(Card.name.ilike(f"%{q.name}%"))
        if q.number:
            stmt = stmt.where(Card.number == q.number)
        if q.year:
            stmt = stmt.where(Release.year == q.year)
        rows = (await s.execute(stmt.order_by(Card.name))).all()
    cards = [_card_json(*row) for row in rows]
    return {"cards": cards[q.skip:q.skip + q.take], "total_count": len(cards), "skip": q.skip, "take": q.take}


async def catalog_card(ctx, q: IdQ) -> dict[str, Any]:
    """Card detail with parallels."""
    async with ctx.transaction() as s:
        row = (await s.execute(select(Card, CardSet, Release).join(CardSet, Card.set_id == CardSet.id).join(
            Release, Card.release_id == Release.id).where(Card.id == uuid.UUID(q.id)))).first()
        if row is None:
            raise not_found("Card", q.id)
        pars = (await s.scalars(select(Parallel).where(Parallel.set_id == row[1].id).order_by(Parallel.sort_order))).all()
        linked = set((await s.scalars(select(ParallelCard.parallel_id).where(ParallelCard.card_id == row[0].id))).all())
    pars = [p for p in pars if not p.is_partial or p.id in linked]
    out = _card_json(*row)
    out["parallels"] = [{"id": str(p.id), "name": p.name, **({"numberedTo": p.numbered_to} if p.numbered_to else {}),
                         **({"isPartial": True} if p.is_partial else {})} for p in pars]
    out["parallelCount"] = len(pars)
    out["prices"] = {"raw": "12.50", "psa-10": "250.00", "psa-9": "80.00"}
    return out


def _company(name: str, full_name: str, cid: str, counts: dict[str, int]) -> dict[str, Any]:
    grades = [{"id": str(uuid.uuid5(uuid.NAMESPACE_URL, name + g)), "grade": g, "population": n,
               "qualified_population": 0} for g, n in counts.items()]
    return {"id": cid, "name": name, "full_name": full_name, "last_synced_at": "2026-11-01T00:00:00Z", "total_population": sum(counts.values()),
            "grading_types": [{"id": str(uuid.uuid5(uuid.NAMESPACE_URL, name)), "name": "Card",
                               "total_population": sum(counts.values()), "grades": grades}]}


async def population_card(ctx, q: PopQ) -> dict[str, Any]:
    """Graded population of a card."""
    async with ctx.transaction() as s:
        card = await s.get(Card, uuid.UUID(q.card_id))
        psa_id = (await s.execute(select(_registry_company_id()).limit(1))).scalar()
    if card is None:
        raise not_found("Card", q.card_id)
    psa = _company("PSA", "Professional Sports Authenticator", str(psa_id), {"10": 121, "9": 1403, "8": 2210})
    bgs = _company("BGS", "Beckett Grading Services", str(uuid.uuid5(uuid.NAMESPACE_URL, "bgs")), {"10": 4, "9.5": 57})
    # a company filter keeps that company (the BGS stand-in is kept when the id is not the seeded PSA's)
    companies = ([psa] if q.grading_company_id == str(psa_id) else [bgs]) if q.grading_company_id else [psa, bgs]
    base_total = sum(c["total_population"] for c in companies)
    parallels = [{"parallel_id": str(uuid.uuid4()), "parallel_name": "1st Edition", "total_population": 7,
                  "grading_companies": [_company("PSA", "Professional Sports Authenticator", str(psa_id), {"10": 7})]}] \
        if q.include_parallels else []
    return {"card_id": q.card_id, "card_name": card.name,
            "total_population": base_total + sum(p["total_population"] for p in parallels),
            "base": {"total_population": base_total, "grading_companies": companies}, "parallels": parallels}


def _registry_company_id():
    from store.models import GradingCompany

    return GradingCompany.id


async def pricing_card(ctx, q: PricingQ) -> dict[str, Any]:
    """Historical sales of a card."""
    recs = [{"title": "raw copy", "price": p, "date": f"2026-10-{10 + i:02d}", "listing_type": "auction",
             "source": "ebay"} for i, p in enumerate([10.0, 12.5, 15.0])]
    graded = [{"company_name": "PSA", "grades": [{"grade_value": "10", "count": 2, "records": [
        {"title": "PSA 10", "price": 240.0, "date": "2026-10-01", "listing_type": "auction", "source": "ebay"},
        {"title": "PSA 10", "price": 260.0, "date": "2026-10-05", "listing_type": "auction", "source": "ebay"}]}]}]
    return {"card": {"card_id": q.card_id}, "raw": {"period_days": 90, "count": 3, "records": recs},
            "graded": graded, "meta": {"total_records": 5}}


def _candle(start: str, median: float) -> dict[str, Any]:
    stats = {"mean": median, "median": median, "high": median, "low": median, "open": median, "close": median,
             "count": 2}
    return {"period_start": start, "types": {"auction": stats}}


async def pricing_timeseries(ctx, q: SeriesQ) -> dict[str, Any]:
    """Price candles of a card."""
    return {"card": {"card_id": q.card_id}, "query": {"interval": q.interval, "periods": q.periods or 24},
            "raw": {"candles": [_candle("2026-08-01", 10.0), _candle("2026-09-01", 11.0),
                                _candle("2026-10-01", 13.0)], "totals": {}}, "graded": []}


async def marketplace_card(ctx, q: MarketQ) -> dict[str, Any]:
    """Active listings of a card."""
    recs = [{"title": "Nice raw copy", "source": "ebay", "price": 14.99, "listing_type": "fixed"},
            {"title": "Raw auction", "source": "ebay", "price": 9.5, "listing_type": "auction", "bid_count": 3}]
    return {"card": {"card_id": q.card_id}, "raw": {"count": 2, "records": recs},
            "graded": [{"company_name": "PSA", "grades": [{"grade_value": "10", "count": 1, "records": []}]}],
            "meta": {"total_records": 3}}


async def marketplace_search(ctx, q: MarketSearchQ) -> dict[str, Any]:
    """Search active listings."""
    return {"query": {"q": q.q}, "results": []}


async def collections_list(ctx, q: ListQ) -> dict[str, Any]:
    """The caller's collections."""
    ctx.key_id()
    return {"collections": [{"id": FAKE_COLLECTION, "collectorId": str(uuid.uuid4()), "name": "Cardwise eval"}],
            "total_count": 1, "skip": 0, "take": q.take}


def _check(cid: str) -> None:
    if cid != FAKE_COLLECTION:
        raise not_found("Collection", cid)


async def collection_analytics(ctx, q: CollectionQ) -> dict[str, Any]:
    """Collection summary."""
    _check(q.collectionId)
    return {"overview": {"totalCards": 3, "uniqueCards": 3, "totalQuantity": 4},
            "financials": {"totalInvested": "150.00", "currentMarketValue": "412.50", "totalRealizedGains": "0.00",
                           "totalUnrealizedGains": "262.50", "overallROI": 175.0, "realizedROI": 0},
            "composition": {"gradedCount": 1, "rawCount": 2, "gradedPercentage": 33.3, "forSaleCount": 0,
                            "soldCount": 0},
            "performance": {"averageCardValue": "137.50", "averageROI": 175.0,
                            "topValue": {"cardId": str(uuid.uuid4()), "cardName": "Charizard", "releaseName": "Base Set",
                                         "releaseYear": "1999", "currentValue": "250.00", "quantity": 1},
                            "topGainer": None}}


async def collection_breakdown(ctx, q: BreakdownQ) -> dict[str, Any]:
    """Collection grouped by a dimension."""
    _check(q.collectionId)
    return {"summary": {"totalGroups": 2, "totalCards": 3, "totalQuantity": 4, "groupedBy": q.groupBy},
            "groups": [{"groupKey": "1999" if q.groupBy == "year" else "Charizard", "cardCount": 2,
                        "uniqueCardCount": 2, "totalCurrentValue": "262.50"},
                       {"groupKey": "2024" if q.groupBy == "year" else "Shohei Ohtani", "cardCount": 1,
                        "uniqueCardCount": 1, "totalCurrentValue": "150.00"}],
            "pagination": {"total_count": 2, "skip": 0, "take": 20, "page": 1, "pages": 1}}


async def collection_set_progress(ctx, q: CollectionQ) -> dict[str, Any]:
    """Set completion."""
    _check(q.collectionId)
    return {"summary": {"totalSets": 1, "nearCompleteSets": 0, "fullyCompleteSets": 0},
            "sets": [{"setName": "Base Set", "completionPercentage": 2.0, "ownedCards": 2, "totalCards": 102}],
            "total_count": 1, "skip": 0, "take": 20}


async def collection_cards_list(ctx, q: CollectionCardsQ) -> dict[str, Any]:
    """Cards in a collection."""
    _check(q.collectionId)
    return {"cards": [{"id": str(uuid.uuid4()), "collectionId": q.collectionId, "cardId": str(uuid.uuid4()),
                       "quantity": 2}],
            "total_count": 1, "skip": 0, "take": q.take}


async def feedback_submit(ctx, q: FeedbackQ) -> dict[str, Any]:
    """Feedback about an entity."""
    return {"success": True, "message": "Feedback received",
            "data": {"unique_id": "0d4f6c1e-8e1b-4f3e-9c7a-2b1d3e4f5a6b", "status": "not_reviewed"}}


async def feedback_general(ctx, q: GeneralFeedbackQ) -> dict[str, Any]:
    """General feedback."""
    if "rate" in q.message:
        raise ServiceError("FEEDBACK_LIMIT_EXCEEDED", "Daily feedback limit reached")
    return {"success": True, "message": "Feedback received",
            "data": {"unique_id": "1d4f6c1e-8e1b-4f3e-9c7a-2b1d3e4f5a6b", "status": "not_reviewed"}}


FAKES: dict[str, tuple[Any, type[BaseModel]]] = {
    "catalog_cards": (catalog_cards, CardsQ), "catalog_card": (catalog_card, IdQ),
    "population_card": (population_card, PopQ), "pricing_card": (pricing_card, PricingQ),
    "pricing_timeseries": (pricing_timeseries, SeriesQ), "marketplace_card": (marketplace_card, MarketQ),
    "marketplace_search": (marketplace_search, MarketSearchQ), "collections_list": (collections_list, ListQ),
    "collection_analytics": (collection_analytics, CollectionQ),
    "collection_breakdown": (collection_breakdown, BreakdownQ),
    "collection_set_progress": (collection_set_progress, CollectionQ),
    "collection_cards_list": (collection_cards_list, CollectionCardsQ),
    "feedback_submit": (feedback_submit, FeedbackQ), "feedback_general": (feedback_general, GeneralFeedbackQ),
}


def make_tool(name: str, fn: Any, model: type[BaseModel]) -> Tool:
    return Tool(name=name, fn=fn, input_model=model, output_model=None, description=fn.__doc__ or name)


def install(monkeypatch, names: list[str] | None = None) -> None:
    """Register the fakes (all, or ``names``) for the current test only."""
    _registry.all_tools()  # load the real ones first, so the fakes replace rather than precede them
    for name, (fn, model) in FAKES.items():
        if names is None or name in names:
            monkeypatch.setitem(_registry._REGISTRY, name, make_tool(name, fn, model))
