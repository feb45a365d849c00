"""Collections and their cards: what a collector owns, with purchase and sale data."""

from __future__ import annotations

import logging
import uuid
from datetime import date
from typing import Annotated, Literal

from pydantic import Field, RootModel

from store.models import Collection as CollectionRow
from store.models import CollectionCard as EntryRow
from store.queries import collections as q
from tools._models import BoolStr, CamelIn, CamelOut, DateStr, LooseUUIDStr, Money, Order, Out, Page, Skip, Take, listed_as
from tools._models import cents_to_money
from tools._owned import (BatchError, Description, Name, Quantity, Text, cents, collection_or_404, collector_or_404,
                          uid)
from tools._refs import Ref, check_refs
from tools._registry import tool
from tools.context import ToolContext
from tools.errors import ServiceError, not_found

log = logging.getLogger("cardwise.collections")


class Collection(CamelOut):
    id: str
    collector_id: str
    name: str | None = None
    description: str | None = None


def collection_out(row: CollectionRow) -> Collection:
    return Collection(id=str(row.id), collector_id=str(row.collector_id), name=row.name, description=row.description)


class CollectionCard(CamelOut):
    """A collection entry. ``quantity`` is always present; unset optional fields are omitted."""

    id: str
    collection_id: str
    card_id: str
    parallel_id: str | None = None
    grade_id: str | None = None
    quantity: int
    buy_price: str | None = None
    buy_date: str | None = None
    sell_price: str | None = None
    sold_price: str | None = None
    sold_date: str | None = None


def _d(value: date | None) -> str | None:
    return value.isoformat() if value is not None else None


def entry_out(row: EntryRow) -> CollectionCard:
    return CollectionCard(
        id=str(row.id), collection_id=str(row.collection_id), card_id=str(row.card_id),
        parallel_id=str(row.parallel_id) if row.parallel_id else None,
        grade_id=str(row.grade_id) if row.grade_id else None, quantity=row.quantity,
        buy_price=cents_to_money(row.buy_price_cents), buy_date=_d(row.buy_date),
        sell_price=cents_to_money(row.sell_price_cents), sold_price=cents_to_money(row.sold_price_cents),
        sold_date=_d(row.sold_date),
    )


# --------------------------------------------------------------------------- collections
class CollectionsQuery(CamelIn):
    take: Take = 20
    skip: Skip = 0
    collector_id: LooseUUIDStr | None = Field(None, description="Only this collector's collections")
    name: Text | None = Field(None, max_length=200, description="Partial, case-insensitive name")
    sort: Literal["name"] | None = Field(None, description="Sort key: name")
    order: Order = "asc"


class CollectionsPage(Page[Collection], alias_generator=listed_as("collections")):
    pass


class CollectionCreate(CamelIn):
    collector_id: LooseUUIDStr = Field(description="Owner collector id")
    name: Name | None = Field(None, description="Collection name")
    description: Description | None = Field(None, description="Free-text description")


class CollectionRef(CamelIn):
    collection_id: LooseUUIDStr = Field(description="Collection id")


class CollectionUpdate(CollectionRef):
    name: Name | None = Field(None, description="New collection name")
    description: Description | None = Field(None, description="Free-text description")


@tool("collections_list", method="GET", path="/v1/collection/")
async def collections_list(ctx: ToolContext, query: CollectionsQuery) -> CollectionsPage:
    """List this API key's collections, filtered by collector or partial name."""
    async with ctx.transaction() as s:
        rows, total = await q.list_collections(
            session=s, key_id=ctx.key_id(), collector_id=uid(query.collector_id) if query.collector_id else None,
            name=query.name, sort=query.sort, order=query.order, skip=query.skip, take=query.take)
    return CollectionsPage.of([collection_out(r) for r in rows], total, query)


@tool("collection_create", method="POST", path="/v1/collection/", status=201)
async def collection_create(ctx: ToolContext, body: CollectionCreate) -> Collection:
    """Create a collection owned by one of your collectors."""
    async with ctx.transaction() as s:
        owner = await collector_or_404(s, ctx, body.collector_id)
        row = await q.add(session=s, row=CollectionRow(
            id=uuid.uuid4(), api_key_id=ctx.key_id(), collector_id=owner.id, name=body.name,
            description=body.description))
    return collection_out(row)


@tool("collection_get", method="GET", path="/v1/collection/{collectionId}")
async def collection_get(ctx: ToolContext, ref: CollectionRef) -> Collection:
    """Get one collection by id."""
    async with ctx.transaction() as s:
        row = await collection_or_404(s, ctx, ref.collection_id)
    return collection_out(row)


@tool("collection_update", method="PUT", path="/v1/collection/{collectionId}")
async def collection_update(ctx: ToolContext, body: CollectionUpdate) -> Collection:
    """Rename or re-describe a collection; returns the updated collection."""
    async with ctx.transaction() as s:
        row = await collection_or_404(s, ctx, body.collection_id)
        for f in ("name", "description"):
            if f in body.model_fields_set:
                setattr(row, f, getattr(body, f))
        await s.flush()
    return collection_out(row)


@tool("collection_delete", method="DELETE", path="/v1/collection/{collectionId}")
async def collection_delete(ctx: ToolContext, ref: CollectionRef) -> None:
    """Delete a collection with all its cards, card images and binders."""
    async with ctx.transaction() as s:
        row = await collection_or_404(s, ctx, ref.collection_id)
        await q.remove(session=s, row=row)


# --------------------------------------------------------------------------- collection cards
class CardItem(CamelIn):
    card_id: LooseUUIDStr = Field(description="Catalog card id")
    parallel_id: LooseUUIDStr | None = Field(None, description="Parallel of the card's set (omit for base)")
    grade_id: LooseUUIDStr | None = Field(None, description="Grade if graded (omit for raw)")
    quantity: Quantity = 1
    buy_price: Money | None = Field(None, description="Price paid per copy, USD string")
    buy_date: DateStr | None = Field(None, description="YYYY-MM-DD")
    sell_price: Money | None = Field(None, description="Listed selling price per copy")
    sold_price: Money | None = Field(None, description="Actual sold price per copy")
    sold_date: DateStr | None = Field(None, description="YYYY-MM-DD")


class CardsAdd(CollectionRef):
    items: CardItem | Annotated[list[CardItem], Field(min_length=1, max_length=100)] = Field(
        description="One collection card item or an array of 1-100")


class CardsBatch(Out):
    cards: list[CollectionCard]
    errors: list[BatchError] | None = None


class CardsAddResult(RootModel[CollectionCard | CardsBatch]):
    """A CollectionCard for a single item; {cards, errors} for an array."""


class EntryRef(CollectionRef):
    card_id: LooseUUIDStr = Field(description="The collection-card entry id (not the catalog card id)")


class EntryUpdate(EntryRef):
    parallel_id: LooseUUIDStr | None = Field(None, description="Parallel id (UUID)")
    grade_id: LooseUUIDStr | None = Field(None, description="Grade id (UUID), from grades_grades")
    quantity: Quantity | None = Field(None, description="Number of copies (1 or more)")
    buy_price: Money | None = Field(None, description="Price paid per copy in USD, e.g. '12.50'")
    buy_date: DateStr | None = Field(None, description="Purchase date, YYYY-MM-DD")
    sell_price: Money | None = Field(None, description="Asking price in USD, e.g. '20.00'")
    sold_price: Money | None = Field(None, description="Price it sold for in USD")
    sold_date: DateStr | None = Field(None, description="Date sold, YYYY-MM-DD")


class CardsQuery(CollectionRef):
    take: Take = 20
    skip: Skip = 0
    card_id: LooseUUIDStr | None = Field(None, description="Catalog card id")
    parallel_id: LooseUUIDStr | None = Field(None, description="Parallel id (UUID)")
    grade_id: LooseUUIDStr | None = Field(None, description="Grade id (UUID), from grades_grades")
    has_sold: BoolStr | None = Field(None, description='"true": sold only; "false": not sold')
    sort: Literal["buyDate", "soldDate", "buyPrice", "soldPrice"] | None = Field(None, description="Sort key (one of the listed values)")
    order: Order = "desc"


class CardsPage(Page[CollectionCard], alias_generator=listed_as("cards")):
    pass


def _entry_row(collection_id: uuid.UUID, item: CardItem) -> EntryRow:
    return EntryRow(
        id=uuid.uuid4(), collection_id=collection_id, card_id=uid(item.card_id),
        parallel_id=uid(item.parallel_id) if item.parallel_id else None,
        grade_id=uid(item.grade_id) if item.grade_id else None, quantity=item.quantity,
        buy_price_cents=cents(item.buy_price, "buyPrice"), buy_date=_date(item.buy_date),
        sell_price_cents=cents(item.sell_price, "sellPrice"), sold_price_cents=cents(item.sold_price, "soldPrice"),
        sold_date=_date(item.sold_date),
    )


def _date(value: str | None) -> date | None:
    return date.fromisoformat(value) if value else None


@tool("collection_cards_add", method="POST", path="/v1/collection/{collectionId}/cards", status=201, body="field",
      body_field="items")
async def collection_cards_add(ctx: ToolContext, body: CardsAdd) -> CardsAddResult:
    """Add cards to a collection: one item (answers the entry) or an array of 1-100 (answers {cards, errors})."""
    single = not isinstance(body.items, list)
    items = [body.items] if single else list(body.items)
    rows = [_entry_row(uuid.UUID(int=0), it) for it in items]  # money limits checked before any write
    async with ctx.transaction() as s:
        coll = await collection_or_404(s, ctx, body.collection_id)
        problems = await check_refs(s, [Ref(r.card_id, r.parallel_id, r.grade_id) for r in rows])
        created: list[EntryRow] = []
        errors: list[BatchError] = []
        for index, (row, problem) in enumerate(zip(rows, problems)):
            if problem is not None:
                if single:
                    raise problem
                errors.append(BatchError(index=index, card_id=items[index].card_id, error=problem.message))
                continue
            row.collection_id = coll.id
            created.append(row)
        s.add_all(created)
        await s.flush()
    log.info("collection cards added", extra={"collection": body.collection_id, "added": len(created),
                                              "rejected": len(errors)})
    if single:
        return CardsAddResult(entry_out(created[0]))
    return CardsAddResult(CardsBatch(cards=[entry_out(r) for r in created], errors=errors or None))


@tool("collection_cards_list", method="GET", path="/v1/collection/{collectionId}/cards")
async def collection_cards_list(ctx: ToolContext, query: CardsQuery) -> CardsPage:
    """List a collection's cards, filtered by card, parallel, grade or sold state; sorted by dates or prices."""
    async with ctx.transaction() as s:
        coll = await collection_or_404(s, ctx, query.collection_id)
        rows, total = await q.list_collection_cards(
            session=s, collection_id=coll.id, card_id=uid(query.card_id) if query.card_id else None,
            parallel_id=uid(query.parallel_id) if query.parallel_id else None,
            grade_id=uid(query.grade_id) if query.grade_id else None,
            has_sold=None if query.has_sold is None else query.has_sold == "true",
            sort=query.sort, order=query.order, skip=query.skip, take=query.take)
    return CardsPage.of([entry_out(r) for r in rows], total, query)


async def entry_or_404(s, ctx: ToolContext, collection_id: str, entry_id: str) -> EntryRow:
    coll = await collection_or_404(s, ctx, collection_id)
    row = await q.get_collection_card(session=s, collection_id=coll.id, entry_id=uid(entry_id))
    if row is None:
        raise not_found("Collection card", entry_id)
    return row


@tool("collection_card_get", method="GET", path="/v1/collection/{collectionId}/cards/{cardId}")
async def collection_card_get(ctx: ToolContext, ref: EntryRef) -> CollectionCard:
    """Get one collection entry by its entry id."""
    async with ctx.transaction() as s:
        row = await entry_or_404(s, ctx, ref.collection_id, ref.card_id)
    return entry_out(row)


_MONEY_FIELDS = {"buy_price": "buy_price_cents", "sell_price": "sell_price_cents", "sold_price": "sold_price_cents"}


@tool("collection_card_update", method="PUT", path="/v1/collection/{collectionId}/cards/{cardId}")
async def collection_card_update(ctx: ToolContext, body: EntryUpdate) -> CollectionCard:
    """Update a collection entry; a null clears parallel, grade, prices or dates; quantity stays at least 1."""
    given = body.model_fields_set
    if "quantity" in given and body.quantity is None:
        raise ServiceError("VALIDATION_ERROR", "quantity: cannot be null (minimum 1)")
    money = {f: cents(getattr(body, f), f) for f in _MONEY_FIELDS if f in given}
    async with ctx.transaction() as s:
        row = await entry_or_404(s, ctx, body.collection_id, body.card_id)
        par = (uid(body.parallel_id) if body.parallel_id else None) if "parallel_id" in given else row.parallel_id
        grade = (uid(body.grade_id) if body.grade_id else None) if "grade_id" in given else row.grade_id
        if "parallel_id" in given or "grade_id" in given:
            (problem,) = await check_refs(s, [Ref(row.card_id, par, grade)])
            if problem is not None:
                raise problem
        row.parallel_id, row.grade_id = par, grade
        if "quantity" in given:
            row.quantity = body.quantity
        for f, c in money.items():
            setattr(row, _MONEY_FIELDS[f], c)
        for f in ("buy_date", "sold_date"):
            if f in given:
                setattr(row, f, _date(getattr(body, f)))
        await s.flush()
    return entry_out(row)


@tool("collection_card_delete", method="DELETE", path="/v1/collection/{collectionId}/cards/{cardId}")
async def collection_card_delete(ctx: ToolContext, ref: EntryRef) -> None:
    """Remove a collection entry with all its copies (lower the quantity with an update instead)."""
    async with ctx.transaction() as s:
        row = await entry_or_404(s, ctx, ref.collection_id, ref.card_id)
        await q.remove(session=s, row=row)
