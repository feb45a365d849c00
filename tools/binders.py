"""Binders: named, virtual groupings of a collection's cards (a card may sit in several binders)."""

from __future__ import annotations

import uuid
from typing import Literal

from pydantic import Field

from store.models import Binder as BinderRow
from store.models import BinderCard as LinkRow
from store.queries import collections as q
from tools._models import CamelIn, CamelOut, LooseUUIDStr, Order, Page, Skip, Take, listed_as
from tools._owned import Description, Name, Text, collection_or_404, uid
from tools._registry import tool
from tools.context import ToolContext
from tools.errors import conflict, not_found


class Binder(CamelOut):
    id: str
    collection_id: str
    name: str | None = None
    description: str | None = None


class BinderCard(CamelOut):
    id: str
    binder_id: str
    collection_card_id: str


def binder_out(row: BinderRow) -> Binder:
    return Binder(id=str(row.id), collection_id=str(row.collection_id), name=row.name, description=row.description)


def link_out(row: LinkRow) -> BinderCard:
    return BinderCard(id=str(row.id), binder_id=str(row.binder_id), collection_card_id=str(row.collection_card_id))


class CollectionRef(CamelIn):
    collection_id: LooseUUIDStr = Field(description="Collection id")


class BindersQuery(CollectionRef):
    take: Take = 20
    skip: Skip = 0
    name: Text | None = Field(None, max_length=200, description="Partial, case-insensitive binder name")
    sort: Literal["name"] | None = Field(None, description="Sort key (one of the listed values)")
    order: Order = "asc"


class BindersPage(Page[Binder], alias_generator=listed_as("binders")):
    pass


class BinderCreate(CollectionRef):
    name: Name | None = Field(None, description="Binder name (unique within the collection)")
    description: Description | None = Field(None, description="Free-text description")


class BinderRef(CollectionRef):
    binder_id: LooseUUIDStr = Field(description="Binder id")


class BinderUpdate(BinderRef):
    name: Name | None = Field(None, description="New binder name")
    description: Description | None = Field(None, description="Free-text description")


class BinderCardsQuery(BinderRef):
    take: Take = 20
    skip: Skip = 0


class BinderCardsPage(Page[BinderCard], alias_generator=listed_as("cards")):
    pass


class BinderCardAdd(BinderRef):
    collection_card_id: LooseUUIDStr = Field(description="Collection entry id to place in the binder")


class BinderCardRef(BinderRef):
    card_id: LooseUUIDStr = Field(description="The binder-card link id")


async def _binder_or_404(s, ctx: ToolContext, collection_id: str, binder_id: str) -> BinderRow:
    coll = await collection_or_404(s, ctx, collection_id)
    row = await q.get_binder(session=s, collection_id=coll.id, binder_id=uid(binder_id))
    if row is None:
        raise not_found("Binder", binder_id)
    return row


@tool("binders_list", method="GET", path="/v1/collection/{collectionId}/binders")
async def binders_list(ctx: ToolContext, query: BindersQuery) -> BindersPage:
    """List the binders of a collection, filtered by partial name."""
    async with ctx.transaction() as s:
        coll = await collection_or_404(s, ctx, query.collection_id)
        rows, total = await q.list_binders(session=s, collection_id=coll.id, name=query.name, sort=query.sort,
                                           order=query.order, skip=query.skip, take=query.take)
    return BindersPage.of([binder_out(r) for r in rows], total, query)


@tool("binder_create", method="POST", path="/v1/collection/{collectionId}/binders", status=201,
      extra_statuses=(409,))
async def binder_create(ctx: ToolContext, body: BinderCreate) -> Binder:
    """Create a binder in a collection (binder names are unique within a collection: 409 otherwise)."""
    async with ctx.transaction() as s:
        coll = await collection_or_404(s, ctx, body.collection_id)
        if await q.binder_name_taken(session=s, collection_id=coll.id, name=body.name):
            raise conflict(f"A binder named {body.name!r} already exists in this collection")
        row = await q.add(session=s, row=BinderRow(id=uuid.uuid4(), collection_id=coll.id, name=body.name,
                                                   description=body.description))
    return binder_out(row)


@tool("binder_get", method="GET", path="/v1/collection/{collectionId}/binders/{binderId}")
async def binder_get(ctx: ToolContext, ref: BinderRef) -> Binder:
    """Get one binder of a collection."""
    async with ctx.transaction() as s:
        row = await _binder_or_404(s, ctx, ref.collection_id, ref.binder_id)
    return binder_out(row)


@tool("binder_update", method="PUT", path="/v1/collection/{collectionId}/binders/{binderId}", extra_statuses=(409,))
async def binder_update(ctx: ToolContext, body: BinderUpdate) -> Binder:
    """Rename or re-describe a binder; returns the updated binder."""
    async with ctx.transaction() as s:
        row = await _binder_or_404(s, ctx, body.collection_id, body.binder_id)
        if "name" in body.model_fields_set and await q.binder_name_taken(
                session=s, collection_id=row.collection_id, name=body.name, exclude=row.id):
            raise conflict(f"A binder named {body.name!r} already exists in this collection")
        for f in ("name", "description"):
            if f in body.model_fields_set:
                setattr(row, f, getattr(body, f))
        await s.flush()
    return binder_out(row)


@tool("binder_delete", method="DELETE", path="/v1/collection/{collectionId}/binders/{binderId}")
async def binder_delete(ctx: ToolContext, ref: BinderRef) -> None:
    """Delete a binder; its card links go, the cards stay in the collection."""
    async with ctx.transaction() as s:
        row = await _binder_or_404(s, ctx, ref.collection_id, ref.binder_id)
        await q.remove(session=s, row=row)


@tool("binder_cards_list", method="GET", path="/v1/collection/{collectionId}/binders/{binderId}/cards")
async def binder_cards_list(ctx: ToolContext, query: BinderCardsQuery) -> BinderCardsPage:
    """List the card links of a binder (link id, binder id, collection entry id)."""
    async with ctx.transaction() as s:
        binder = await _binder_or_404(s, ctx, query.collection_id, query.binder_id)
        rows, total = await q.list_binder_cards(session=s, binder_id=binder.id, skip=query.skip, take=query.take)
    return BinderCardsPage.of([link_out(r) for r in rows], total, query)


@tool("binder_card_add", method="POST", path="/v1/collection/{collectionId}/binders/{binderId}/cards", status=201,
      extra_statuses=(409,))
async def binder_card_add(ctx: ToolContext, body: BinderCardAdd) -> BinderCard:
    """Put a collection entry into a binder (it must be in the same collection; 409 if already there)."""
    async with ctx.transaction() as s:
        binder = await _binder_or_404(s, ctx, body.collection_id, body.binder_id)
        entry = await q.get_collection_card(session=s, collection_id=binder.collection_id,
                                            entry_id=uid(body.collection_card_id))
        if entry is None:
            raise not_found("Collection card", body.collection_card_id)
        if await q.binder_has_card(session=s, binder_id=binder.id, entry_id=entry.id):
            raise conflict("This card is already in the binder")
        row = await q.add(session=s, row=LinkRow(id=uuid.uuid4(), binder_id=binder.id, collection_card_id=entry.id))
    return link_out(row)


@tool("binder_card_remove", method="DELETE", path="/v1/collection/{collectionId}/binders/{binderId}/cards/{cardId}")
async def binder_card_remove(ctx: ToolContext, ref: BinderCardRef) -> None:
    """Take a card out of a binder by its binder-card link id (the card stays in the collection)."""
    async with ctx.transaction() as s:
        binder = await _binder_or_404(s, ctx, ref.collection_id, ref.binder_id)
        link = await q.get_binder_card(session=s, binder_id=binder.id, link_id=uid(ref.card_id))
        if link is None:
            raise not_found("Binder card", ref.card_id)
        await q.remove(session=s, row=link)
