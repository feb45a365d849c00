"""Active marketplace listing queries (per card, and full-text search over titles)."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from sqlalchemy import or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from store.models import MarketplaceListing
from store.queries import textsearch
from store.queries.pricing import _filters


def _active(stmt: Any, now: datetime) -> Any:
    return stmt.where(or_(MarketplaceListing.end_date.is_(None), MarketplaceListing.end_date > now))


async def for_card(*, session: AsyncSession, card_id: uuid.UUID, parallel: tuple[bool, uuid.UUID | None],
                   grade: tuple[bool, uuid.UUID | None], listing_type: str, now: datetime, limit: int) -> list[MarketplaceListing]:
    stmt = _filters(_active(select(MarketplaceListing).where(MarketplaceListing.card_id == card_id), now),
                    MarketplaceListing, parallel=parallel, grade=grade, listing_type=listing_type)
    stmt = stmt.order_by(MarketplaceListing.price_cents.asc(), MarketplaceListing.id).limit(limit)
    return list((await session.scalars(stmt)).all())


async def search(*, session: AsyncSession, q: str, listing_type: str, now: datetime, limit: int) -> list[MarketplaceListing]:
    sub = textsearch.ranked(session, MarketplaceListing, q)
    if sub is None:
        return []
    stmt = _active(select(MarketplaceListing).join(sub, textsearch.join_on(MarketplaceListing, sub, session)), now)
    if listing_type != "both":
        stmt = stmt.where(MarketplaceListing.listing_type == listing_type)
    stmt = stmt.order_by(sub.c.score.desc(), MarketplaceListing.price_cents.asc(), MarketplaceListing.id).limit(limit)
    return list((await session.scalars(stmt)).all())
