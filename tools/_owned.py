"""Helpers shared by the collection-area tools: load a caller's row or answer 404, shared models."""

from __future__ import annotations

import uuid
from typing import Annotated

from pydantic import AfterValidator, BeforeValidator, Field
from sqlalchemy.ext.asyncio import AsyncSession

from store.models import Collection, Collector, WantList
from store.queries import collections as q
from tools._models import Out, money_to_cents
from tools.context import ToolContext
from tools.errors import invalid, not_found

# The largest amount an integer-cents column holds on both engines (PostgreSQL int4).
MAX_CENTS = 2**31 - 1
# Copies of one card in one entry; keeps value * quantity sums far from any overflow.
MAX_QUANTITY = 100_000

def _not_bool(value: object) -> object:
    if isinstance(value, bool):
        raise ValueError("must be a number of copies, not a boolean")
    return value


# the bounds before the validator, so pydantic publishes them as minimum/maximum
Quantity = Annotated[int, Field(ge=1, le=MAX_QUANTITY, description="Number of copies, at least 1"),
                     BeforeValidator(_not_bool)]
def _no_nul(value: str) -> str:
    if "\x00" in value:
        raise ValueError("must not contain NUL characters")
    return value


# Free text stored or searched: PostgreSQL text cannot hold NUL, so it is refused up front (400, not 500).
Text = Annotated[str, AfterValidator(_no_nul)]
Name = Annotated[str, AfterValidator(_no_nul), Field(max_length=200)]
Description = Annotated[str, AfterValidator(_no_nul), Field(max_length=5000)]


def uid(value: str) -> uuid.UUID:
    return uuid.UUID(value)


def cents(value: str | None, field: str) -> int | None:
    """Money string -> cents, rejecting amounts the database cannot hold."""
    c = money_to_cents(value)
    if c is not None and c > MAX_CENTS:
        raise invalid(f"{field}: at most {MAX_CENTS / 100:.2f}")
    return c


async def collector_or_404(s: AsyncSession, ctx: ToolContext, collector_id: str) -> Collector:
    row = await q.get_collector(session=s, key_id=ctx.key_id(), collector_id=uid(collector_id))
    if row is None:
        raise not_found("Collector", collector_id)
    return row


async def collection_or_404(s: AsyncSession, ctx: ToolContext, collection_id: str) -> Collection:
    row = await q.get_collection(session=s, key_id=ctx.key_id(), collection_id=uid(collection_id))
    if row is None:
        raise not_found("Collection", collection_id)
    return row


async def list_or_404(s: AsyncSession, ctx: ToolContext, list_id: str) -> WantList:
    row = await q.get_list(session=s, key_id=ctx.key_id(), list_id=uid(list_id))
    if row is None:
        raise not_found("List", list_id)
    return row


class BatchError(Out):
    """One failed item of a batch: its position in the request, the card it named, why it failed."""

    index: int
    card_id: str = Field(alias="cardId")
    error: str
