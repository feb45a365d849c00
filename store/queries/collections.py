"""Collectors, collections, collection cards, binders and want lists (user data scoped by API key).

Every lookup takes the caller's ``key_id``: another key's row is indistinguishable from a
missing one (``None``). Binders, binder cards and collection cards are reached through their
collection, so the key check happens once on the collection.
"""

from __future__ import annotations

import uuid
from typing import Any, Literal

from sqlalchemy import and_, delete, exists, func, select
from sqlalchemy.orm.exc import StaleDataError
from sqlalchemy.ext.asyncio import AsyncSession

from store.models import (
    Binder,
    BinderCard,
    Card,
    Collection,
    CollectionCard,
    CollectionCardImage,
    Collector,
    Grade,
    Parallel,
    ParallelCard,
    WantList,
    WantListCard,
)
from store.queries._util import icontains, page

Order = Literal["asc", "desc"]


def _ordered(col: Any, order: Order) -> Any:
    return col.desc() if order == "desc" else col.asc()


# --------------------------------------------------------------------------- collectors
async def get_collector(*, session: AsyncSession, key_id: uuid.UUID, collector_id: uuid.UUID) -> Collector | None:
    return await session.scalar(
        select(Collector).where(Collector.id == collector_id, Collector.api_key_id == key_id)
    )


async def list_collectors(*, session: AsyncSession, key_id: uuid.UUID, skip: int, take: int) -> tuple[list[Any], int]:
    stmt = select(Collector).where(Collector.api_key_id == key_id).order_by(Collector.created_at, Collector.id)
    rows, total = await page(session, stmt, skip=skip, take=take)
    return [r[0] for r in rows], total


async def add(*, session: AsyncSession, row: Any) -> Any:
    session.add(row)
    await session.flush()
    return row


async def remove(*, session: AsyncSession, row: Any, must_exist: bool = True) -> None:
    """Delete one row; the database cascades to its dependants (collections, cards, binders, lists).
    Raises ``StaleDataError`` when ``must_exist`` and a concurrent transaction deleted it first."""
    result = await session.execute(delete(type(row)).where(type(row).id == row.id))
    if must_exist and getattr(result, "rowcount", None) == 0:
        raise StaleDataError(f"{type(row).__tablename__} {row.id} was deleted by a concurrent transaction")


async def _named_page(session: AsyncSession, stmt: Any, model: Any, *, name: str | None, sort: str | None,
                      order: Order, skip: int, take: int) -> tuple[list[Any], int]:
    """One page of named user objects (collections, lists, binders): partial name filter, then sorted
    by name (case-insensitive, unnamed first) or by creation time, the id breaking ties."""
    if name:
        stmt = stmt.where(icontains(model.name, name))
    if sort == "name":
        stmt = stmt.order_by(_ordered(func.lower(func.coalesce(model.name, "")), order), model.id)
    else:
        stmt = stmt.order_by(_ordered(model.created_at, order), model.id)
    rows, total = await page(session, stmt, skip=skip, take=take)
    return [r[0] for r in rows], total


# --------------------------------------------------------------------------- collections
async def get_collection(*, session: AsyncSession, key_id: uuid.UUID, collection_id: uuid.UUID) -> Collection | None:
    return await session.scalar(
        select(Collection).where(Collection.id == collection_id, Collection.api_key_id == key_id)
    )


async def list_collections(
    *, session: AsyncSession, key_id: uuid.UUID, collector_id: uuid.UUID | None, name: str | None,
    sort: str | None, order: Order, skip: int, take: int,
) -> tuple[list[Collection], int]:
    stmt = select(Collection).where(Collection.api_key_id == key_id)
    if collector_id is not None:
        stmt = stmt.where(Collection.collector_id == collector_id)
    return await _named_page(session, stmt, Collection, name=name, sort=sort, order=order, skip=skip, take=take)


# --------------------------------------------------------------------------- catalog references
async def existing_cards(*, session: AsyncSession, card_ids: set[uuid.UUID]) -> dict[uuid.UUID, uuid.UUID]:
    """card id -> its set id, for the ids that exist."""
    if not card_ids:
        return {}
    rows = await session.execute(select(Card.id, Card.set_id).where(Card.id.in_(card_ids)))
    return {r[0]: r[1] for r in rows}


async def existing_parallels(*, session: AsyncSession, ids: set[uuid.UUID]) -> dict[uuid.UUID, tuple[uuid.UUID, bool]]:
    """parallel id -> (set id, is_partial)."""
    if not ids:
        return {}
    rows = await session.execute(select(Parallel.id, Parallel.set_id, Parallel.is_partial).where(Parallel.id.in_(ids)))
    return {r[0]: (r[1], bool(r[2])) for r in rows}


async def partial_members(*, session: AsyncSession, pairs: set[tuple[uuid.UUID, uuid.UUID]]) -> set[tuple[uuid.UUID, uuid.UUID]]:
    """Of the (parallel, card) pairs, those listed in a partial parallel's card list."""
    if not pairs:
        return set()
    par_ids = {p for p, _ in pairs}
    rows = await session.execute(
        select(ParallelCard.parallel_id, ParallelCard.card_id).where(ParallelCard.parallel_id.in_(par_ids))
    )
    members = {(r[0], r[1]) for r in rows}
    return pairs & members


async def existing_grades(*, session: AsyncSession, ids: set[uuid.UUID]) -> set[uuid.UUID]:
    if not ids:
        return set()
    return set((await session.scalars(select(Grade.id).where(Grade.id.in_(ids)))).all())


# --------------------------------------------------------------------------- collection cards
async def get_collection_card(
    *, session: AsyncSession, collection_id: uuid.UUID, entry_id: uuid.UUID
) -> CollectionCard | None:
    return await session.scalar(
        select(CollectionCard).where(CollectionCard.id == entry_id, CollectionCard.collection_id == collection_id)
    )


_SORT_COLUMNS = {
    "buyDate": CollectionCard.buy_date,
    "soldDate": CollectionCard.sold_date,
    "buyPrice": CollectionCard.buy_price_cents,
    "soldPrice": CollectionCard.sold_price_cents,
}


def sold_clause() -> Any:
    return and_(CollectionCard.sold_price_cents.is_not(None), CollectionCard.sold_date.is_not(None))


async def list_collection_cards(
    *, session: AsyncSession, collection_id: uuid.UUID, card_id: uuid.UUID | None, parallel_id: uuid.UUID | None,
    grade_id: uuid.UUID | None, has_sold: bool | None, sort: str | None, order: Order, skip: int, take: int,
) -> tuple[list[CollectionCard], int]:
    stmt = select(CollectionCard).where(CollectionCard.collection_id == collection_id)
    if card_id is not None:
        stmt = stmt.where(CollectionCard.card_id == card_id)
    if parallel_id is not None:
        stmt = stmt.where(CollectionCard.parallel_id == parallel_id)
    if grade_id is not None:
        stmt = stmt.where(CollectionCard.grade_id == grade_id)
    if has_sold is not None:
        stmt = stmt.where(sold_clause() if has_sold else ~sold_clause())
    col = _SORT_COLUMNS.get(sort or "", CollectionCard.created_at)
    # unset values sort last in either direction, on both engines
    stmt = stmt.order_by(col.is_(None), _ordered(col, order), _ordered(CollectionCard.created_at, order),
                         CollectionCard.id)
    rows, total = await page(session, stmt, skip=skip, take=take)
    return [r[0] for r in rows], total


async def card_image(*, session: AsyncSession, entry_id: uuid.UUID) -> CollectionCardImage | None:
    return await session.scalar(select(CollectionCardImage).where(CollectionCardImage.collection_card_id == entry_id))


# --------------------------------------------------------------------------- binders
async def get_binder(*, session: AsyncSession, collection_id: uuid.UUID, binder_id: uuid.UUID) -> Binder | None:
    return await session.scalar(select(Binder).where(Binder.id == binder_id, Binder.collection_id == collection_id))


async def binder_name_taken(
    *, session: AsyncSession, collection_id: uuid.UUID, name: str | None, exclude: uuid.UUID | None = None
) -> bool:
    if name is None:
        return False
    stmt = select(Binder.id).where(Binder.collection_id == collection_id, Binder.name == name)
    if exclude is not None:
        stmt = stmt.where(Binder.id != exclude)
    return (await session.scalar(stmt)) is not None


async def list_binders(
    *, session: AsyncSession, collection_id: uuid.UUID, name: str | None, sort: str | None, order: Order,
    skip: int, take: int,
) -> tuple[list[Binder], int]:
    stmt = select(Binder).where(Binder.collection_id == collection_id)
    return await _named_page(session, stmt, Binder, name=name, sort=sort, order=order, skip=skip, take=take)


async def get_binder_card(*, session: AsyncSession, binder_id: uuid.UUID, link_id: uuid.UUID) -> BinderCard | None:
    return await session.scalar(select(BinderCard).where(BinderCard.id == link_id, BinderCard.binder_id == binder_id))


async def binder_has_card(*, session: AsyncSession, binder_id: uuid.UUID, entry_id: uuid.UUID) -> bool:
    return bool(await session.scalar(select(exists().where(
        BinderCard.binder_id == binder_id, BinderCard.collection_card_id == entry_id))))


async def list_binder_cards(
    *, session: AsyncSession, binder_id: uuid.UUID, skip: int, take: int
) -> tuple[list[BinderCard], int]:
    stmt = select(BinderCard).where(BinderCard.binder_id == binder_id).order_by(BinderCard.created_at, BinderCard.id)
    rows, total = await page(session, stmt, skip=skip, take=take)
    return [r[0] for r in rows], total


# --------------------------------------------------------------------------- want lists
async def get_list(*, session: AsyncSession, key_id: uuid.UUID, list_id: uuid.UUID) -> WantList | None:
    return await session.scalar(select(WantList).where(WantList.id == list_id, WantList.api_key_id == key_id))


async def list_lists(
    *, session: AsyncSession, key_id: uuid.UUID, collector_id: uuid.UUID | None, name: str | None,
    sort: str | None, order: Order, skip: int, take: int,
) -> tuple[list[WantList], int]:
    stmt = select(WantList).where(WantList.api_key_id == key_id)
    if collector_id is not None:
        stmt = stmt.where(WantList.collector_id == collector_id)
    return await _named_page(session, stmt, WantList, name=name, sort=sort, order=order, skip=skip, take=take)


async def list_card_ids(*, session: AsyncSession, list_id: uuid.UUID, card_ids: set[uuid.UUID]) -> set[uuid.UUID]:
    """Of ``card_ids``, those already on the list."""
    if not card_ids:
        return set()
    return set((await session.scalars(
        select(WantListCard.card_id).where(WantListCard.list_id == list_id, WantListCard.card_id.in_(card_ids))
    )).all())


async def list_cards(*, session: AsyncSession, list_id: uuid.UUID, skip: int, take: int,
                     card_id: uuid.UUID | None = None) -> tuple[list[WantListCard], int]:
    stmt = select(WantListCard).where(WantListCard.list_id == list_id).order_by(WantListCard.created_at, WantListCard.id)
    if card_id is not None:
        stmt = stmt.where(WantListCard.card_id == card_id)
    rows, total = await page(session, stmt, skip=skip, take=take)
    return [r[0] for r in rows], total


async def get_list_card(*, session: AsyncSession, list_id: uuid.UUID, link_id: uuid.UUID) -> WantListCard | None:
    return await session.scalar(select(WantListCard).where(WantListCard.id == link_id, WantListCard.list_id == list_id))
