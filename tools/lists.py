"""Want lists: named lists of catalog cards a collector is looking for."""

from __future__ import annotations

import uuid
from typing import Annotated, Literal

from pydantic import Field, RootModel

from store.models import WantList as ListRow
from store.models import WantListCard as ListCardRow
from store.queries import collections as q
from tools._models import CamelIn, CamelOut, LooseUUIDStr, Order, Out, Page, Skip, Take, listed_as
from tools._owned import BatchError, Description, Name, Text, collector_or_404, list_or_404, uid
from tools._registry import tool
from tools.context import ToolContext
from tools.errors import conflict, not_found


class WantList(CamelOut):
    id: str
    collector_id: str
    name: str | None = None
    description: str | None = None


class ListCard(CamelOut):
    id: str
    list_id: str
    card_id: str


def list_out(row: ListRow) -> WantList:
    return WantList(id=str(row.id), collector_id=str(row.collector_id), name=row.name, description=row.description)


def list_card_out(row: ListCardRow) -> ListCard:
    return ListCard(id=str(row.id), list_id=str(row.list_id), card_id=str(row.card_id))


class ListsQuery(CamelIn):
    take: Take = 20
    skip: Skip = 0
    collector_id: LooseUUIDStr | None = Field(None, description="Only this collector's lists")
    name: Text | None = Field(None, max_length=200, description="Partial, case-insensitive list name")
    sort: Literal["name"] | None = Field(None, description="Sort key: name")
    order: Order = "asc"


class ListsPage(Page[WantList], alias_generator=listed_as("lists")):
    pass


class ListCreate(CamelIn):
    collector_id: LooseUUIDStr = Field(description="Owner collector id")
    name: Name | None = Field(None, description="Want list name")
    description: Description | None = Field(None, description="Free-text description")


class ListRef(CamelIn):
    list_id: LooseUUIDStr = Field(description="List id")


class ListUpdate(ListRef):
    name: Name | None = Field(None, description="New want list name")
    description: Description | None = Field(None, description="Free-text description")


class ListCardsQuery(ListRef):
    take: Take = 20
    skip: Skip = 0
    card_id: LooseUUIDStr | None = Field(None, description="Only this catalog card's entry (is it on the list?)")


class ListCardsPage(Page[ListCard], alias_generator=listed_as("cards")):
    pass


class ListCardItem(CamelIn):
    card_id: LooseUUIDStr = Field(description="Catalog card id")


class ListCardsAdd(ListRef):
    items: ListCardItem | Annotated[list[ListCardItem], Field(min_length=1, max_length=100)] = Field(
        description="One {cardId} or an array of 1-100 of them")


class ListCardsBatch(Out):
    cards: list[ListCard]
    errors: list[BatchError] | None = None


class ListCardsAddResult(RootModel[ListCard | ListCardsBatch]):
    """A ListCard for a single {cardId}; {cards, errors} for an array."""


class ListCardRef(ListRef):
    card_id: LooseUUIDStr = Field(description="The list-card link id (not the catalog card id)")


@tool("lists_list", method="GET", path="/v1/lists/")
async def lists_list(ctx: ToolContext, query: ListsQuery) -> ListsPage:
    """List want lists of this API key, filtered by collector or partial name."""
    async with ctx.transaction() as s:
        rows, total = await q.list_lists(
            session=s, key_id=ctx.key_id(), collector_id=uid(query.collector_id) if query.collector_id else None,
            name=query.name, sort=query.sort, order=query.order, skip=query.skip, take=query.take)
    return ListsPage.of([list_out(r) for r in rows], total, query)


@tool("list_create", method="POST", path="/v1/lists/", status=201)
async def list_create(ctx: ToolContext, body: ListCreate) -> WantList:
    """Create a want list for one of your collectors."""
    async with ctx.transaction() as s:
        owner = await collector_or_404(s, ctx, body.collector_id)
        row = await q.add(session=s, row=ListRow(id=uuid.uuid4(), api_key_id=ctx.key_id(), collector_id=owner.id,
                                                 name=body.name, description=body.description))
    return list_out(row)


@tool("list_get", method="GET", path="/v1/lists/{listId}")
async def list_get(ctx: ToolContext, ref: ListRef) -> WantList:
    """Get one want list by id."""
    async with ctx.transaction() as s:
        row = await list_or_404(s, ctx, ref.list_id)
    return list_out(row)


@tool("list_update", method="PUT", path="/v1/lists/{listId}")
async def list_update(ctx: ToolContext, body: ListUpdate) -> WantList:
    """Rename or re-describe a want list; returns the updated list."""
    async with ctx.transaction() as s:
        row = await list_or_404(s, ctx, body.list_id)
        for f in ("name", "description"):
            if f in body.model_fields_set:
                setattr(row, f, getattr(body, f))
        await s.flush()
    return list_out(row)


@tool("list_delete", method="DELETE", path="/v1/lists/{listId}")
async def list_delete(ctx: ToolContext, ref: ListRef) -> None:
    """Delete a want list and its card links (the catalog cards are untouched)."""
    async with ctx.transaction() as s:
        row = await list_or_404(s, ctx, ref.list_id)
        await q.remove(session=s, row=row)


@tool("list_cards_list", method="GET", path="/v1/lists/{listId}/cards")
async def list_cards_list(ctx: ToolContext, query: ListCardsQuery) -> ListCardsPage:
    """List the cards on a want list (link id, list id, catalog card id), in the order added."""
    async with ctx.transaction() as s:
        row = await list_or_404(s, ctx, query.list_id)
        rows, total = await q.list_cards(session=s, list_id=row.id, skip=query.skip, take=query.take,
                                         card_id=uid(query.card_id) if query.card_id else None)
    return ListCardsPage.of([list_card_out(r) for r in rows], total, query)


@tool("list_cards_add", method="POST", path="/v1/lists/{listId}/cards", status=201, body="field", body_field="items",
      extra_statuses=(409,))
async def list_cards_add(ctx: ToolContext, body: ListCardsAdd) -> ListCardsAddResult:
    """Add catalog cards to a want list: one {cardId} (409 if already listed) or a batch of 1-100 with per-item errors."""
    items = body.items if isinstance(body.items, list) else [body.items]
    async with ctx.transaction() as s:
        wl = await list_or_404(s, ctx, body.list_id)
        ids = {uid(i.card_id) for i in items}
        known = await q.existing_cards(session=s, card_ids=ids)
        listed = await q.list_card_ids(session=s, list_id=wl.id, card_ids=ids)
        created: list[ListCardRow] = []
        errors: list[BatchError] = []
        for index, item in enumerate(items):
            cid = uid(item.card_id)
            if cid not in known:
                if not isinstance(body.items, list):
                    raise not_found("Card", item.card_id)
                errors.append(BatchError(index=index, card_id=item.card_id, error=f"Card {item.card_id} not found"))
            elif cid in listed:
                if not isinstance(body.items, list):
                    raise conflict(f"Card {item.card_id} is already on this list")
                errors.append(BatchError(index=index, card_id=item.card_id, error="Card is already on this list"))
            else:
                listed.add(cid)
                created.append(ListCardRow(id=uuid.uuid4(), list_id=wl.id, card_id=cid))
        s.add_all(created)
        await s.flush()
    if not isinstance(body.items, list):
        return ListCardsAddResult(list_card_out(created[0]))
    return ListCardsAddResult(ListCardsBatch(cards=[list_card_out(r) for r in created], errors=errors))


@tool("list_card_remove", method="DELETE", path="/v1/lists/{listId}/cards/{cardId}")
async def list_card_remove(ctx: ToolContext, ref: ListCardRef) -> None:
    """Remove one card from a want list by its list-card link id."""
    async with ctx.transaction() as s:
        wl = await list_or_404(s, ctx, ref.list_id)
        link = await q.get_list_card(session=s, list_id=wl.id, link_id=uid(ref.card_id))
        if link is None:
            raise not_found("List card", ref.card_id)
        await q.remove(session=s, row=link)
