"""Collectors: the owners of collections and want lists, per API key."""

from __future__ import annotations

import uuid

from pydantic import Field

from store.models import Collector as CollectorRow
from store.queries import collections as q
from tools._models import CamelIn, CamelOut, In, LooseUUIDStr, Page, Skip, Take, listed_as
from tools._owned import Name, collector_or_404
from tools._registry import tool
from tools.context import ToolContext


class Collector(CamelOut):
    id: str
    name: str | None = None


def collector_out(row: CollectorRow) -> Collector:
    return Collector(id=str(row.id), name=row.name)


class CollectorsQuery(In):
    take: Take = 20
    skip: Skip = 0


class CollectorsPage(Page[Collector], alias_generator=listed_as("collectors")):
    pass


class CollectorCreate(CamelIn):
    name: Name | None = Field(None, description="Display name of the collector")


class CollectorRef(CamelIn):
    collector_id: LooseUUIDStr = Field(description="Collector id")


class CollectorUpdate(CollectorRef):
    name: Name | None = Field(None, description="New name (null clears it)")


@tool("collectors_list", method="GET", path="/v1/collectors/")
async def collectors_list(ctx: ToolContext, query: CollectorsQuery) -> CollectorsPage:
    """List the collectors (collection owners) of this API key, oldest first."""
    async with ctx.transaction() as s:
        rows, total = await q.list_collectors(session=s, key_id=ctx.key_id(), skip=query.skip, take=query.take)
    return CollectorsPage.of([collector_out(r) for r in rows], total, query)


@tool("collector_create", method="POST", path="/v1/collectors/", status=201)
async def collector_create(ctx: ToolContext, body: CollectorCreate) -> Collector:
    """Create a collector (an owner of collections and want lists) with an optional name."""
    async with ctx.transaction() as s:
        row = await q.add(session=s, row=CollectorRow(id=uuid.uuid4(), api_key_id=ctx.key_id(), name=body.name))
    return collector_out(row)


@tool("collector_get", method="GET", path="/v1/collectors/{collectorId}")
async def collector_get(ctx: ToolContext, ref: CollectorRef) -> Collector:
    """Get one collector by id."""
    async with ctx.transaction() as s:
        row = await collector_or_404(s, ctx, ref.collector_id)
    return collector_out(row)


@tool("collector_update", method="PUT", path="/v1/collectors/{collectorId}")
async def collector_update(ctx: ToolContext, body: CollectorUpdate) -> Collector:
    """Rename a collector; returns the updated collector."""
    async with ctx.transaction() as s:
        row = await collector_or_404(s, ctx, body.collector_id)
        if "name" in body.model_fields_set:
            row.name = body.name
        await s.flush()
    return collector_out(row)


@tool("collector_delete", method="DELETE", path="/v1/collectors/{collectorId}")
async def collector_delete(ctx: ToolContext, ref: CollectorRef) -> None:
    """Delete a collector with all its collections (their cards, images, binders) and want lists."""
    async with ctx.transaction() as s:
        row = await collector_or_404(s, ctx, ref.collector_id)
        await q.remove(session=s, row=row)
