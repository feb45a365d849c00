"""Catalog release and set tools: search, detail, their cards, random picks."""

from __future__ import annotations

import uuid
from typing import Any, Literal

from pydantic import Field

from store.queries import catalog_browse as q
from store.queries import catalog_cards as cq
from store.queries.catalog_filters import CardFilter
from tools._catalog_models import CardsPage, FieldKV, ParallelOut, card_items, page_messages, parallel_out
from tools._models import BoolStr, CamelOut, Count, In, Order, Out, Page, Skip, Take, UUIDStr, Year, listed_as
from tools._registry import tool
from tools.context import ToolContext
from tools.errors import not_found


def _ident(v: str | None) -> bool | None:
    return None if v is None else v == "true"


class ReleaseOut(CamelOut):
    __keep_none__ = frozenset({"manufacturer_id", "year"})
    id: str
    manufacturer_id: str | None = None
    segment_id: str
    year: str | None = None
    name: str
    description: str | None = None
    is_identifiable: bool = Field(alias="is_identifiable")


def release_out(row: Any, cls: type[ReleaseOut] = ReleaseOut, **extra: Any) -> Any:
    r = row[0]
    return cls(id=str(r.id), manufacturer_id=str(r.manufacturer_id) if r.manufacturer_id else None,
               segment_id=str(r.segment_id), year=r.year, name=r.name, description=r.description,
               is_identifiable=bool(row.ident), **extra)


class _ReleaseFilters(In):
    name: str | None = Field(None, description="Partial, case-insensitive release name")
    year: Year | None = Field(None, description="Exact year; overrides min_year/max_year")
    min_year: Year | None = Field(None, description="Earliest release year, inclusive (e.g. 1986)")
    max_year: Year | None = Field(None, description="Latest release year, inclusive (e.g. 1999)")
    manufacturer: str | None = Field(None, description="Manufacturer UUID or name")
    segment: str | None = Field(None, description="Segment UUID or name (case-insensitive)")
    is_identifiable: BoolStr | None = Field(None, description='"true": has an identifiable set; "false": none')
    sort: Literal["year", "name"] | None = Field(None, description="Sort key (one of the listed values)")
    order: Order = "asc"

    def filters(self) -> dict[str, Any]:
        return {"name": self.name, "year": self.year, "min_year": self.min_year, "max_year": self.max_year,
                "manufacturer": self.manufacturer, "segment": self.segment,
                "identifiable": _ident(self.is_identifiable)}


class ReleasesQuery(_ReleaseFilters):
    take: Take = 20
    skip: Skip = 0


class ReleasesPage(Page[ReleaseOut], alias_generator=listed_as("releases")):
    pass


@tool("catalog_releases", method="GET", path="/v1/catalog/releases", cache=True)
async def search_releases(ctx: ToolContext, query: ReleasesQuery) -> ReleasesPage:
    """Search releases (products such as 2024 Topps Chrome) by name, year, manufacturer, segment."""
    async with ctx.transaction() as s:
        rows, total = await q.search_releases(session=s, skip=query.skip, take=query.take, sort=query.sort,
                                              order=query.order, **query.filters())
    return ReleasesPage.of([release_out(r) for r in rows], total, query)


class SetSummary(CamelOut):
    id: str
    name: str
    description: str | None = None
    card_count: int
    parallel_count: int
    is_identifiable: bool = Field(alias="is_identifiable")


class ReleaseDetail(ReleaseOut):
    sets: list[SetSummary]
    fields: list[FieldKV] | None = Field(None, description="Metadata of the segment and the release, in that "
                                                           "order (duplicate keys kept); omitted when none")


class IdQuery(In):
    id: UUIDStr = Field(description="The entity's id (UUID)")


@tool("catalog_release", method="GET", path="/v1/catalog/releases/{id}", cache=True)
async def get_release(ctx: ToolContext, query: IdQuery) -> ReleaseDetail:
    """Get one release with its sets (card and parallel counts)."""
    async with ctx.transaction() as s:
        found = await q.release_detail(session=s, release_id=uuid.UUID(query.id))
        if found is None:
            raise not_found("Release", query.id)
        row, sets = found
        fields = await cq.inherited_fields(session=s, levels=[("segment", row[0].segment_id),
                                                                ("release", row[0].id)])
    return release_out(row, ReleaseDetail, fields=[FieldKV(key=k, value=v) for k, v in fields] or None, sets=[
        SetSummary(id=str(x[0].id), name=x[0].name, description=x[0].description, card_count=x.card_count,
                   parallel_count=x.parallel_count, is_identifiable=bool(x[0].is_identifiable)) for x in sets])


class ReleaseCardsQuery(In):
    id: UUIDStr = Field(description="Release id (UUID)")
    set_id: UUIDStr | None = Field(None, description="Set id (UUID)", alias="setId")
    name: str | None = Field(None, description="Partial card name")
    take: Take = 20
    skip: Skip = 0
    sort: Literal["number", "name"] | None = Field(None, description="Sort key (one of the listed values)")
    order: Order = "asc"


async def _cards_of(ctx: ToolContext, f: CardFilter, query: Any, exists_check) -> CardsPage:
    async with ctx.transaction() as s:
        if not await exists_check(s):
            raise not_found("Release" if f.release_id else "Set", query.id)
        rows, total = await cq.search_cards(session=s, f=f, sort=query.sort or "number", order=query.order,
                                            skip=query.skip, take=query.take)
        cards = await card_items(s, rows)
    return CardsPage.of(cards, total, query, messages=page_messages(total, query.skip))


@tool("catalog_release_cards", method="GET", path="/v1/catalog/releases/{id}/cards", cache=True)
async def release_cards(ctx: ToolContext, query: ReleaseCardsQuery) -> CardsPage:
    """List the base cards of a release (optionally one set), by number or name; no parallels."""
    from store.models import Release

    f = CardFilter(release_id=query.id, set_id=query.set_id, name=query.name, base_only=True)
    return await _cards_of(ctx, f, query, lambda s: s.get(Release, uuid.UUID(query.id)))


class ReleasesRandomQuery(_ReleaseFilters):
    count: Count = 1


class RandomReleases(Out):
    releases: list[ReleaseOut]
    count: int


@tool("catalog_releases_random", method="GET", path="/v1/catalog/releases/random")
async def random_releases(ctx: ToolContext, query: ReleasesRandomQuery) -> RandomReleases:
    """Pick random releases matching filters (fewer when fewer match)."""
    async with ctx.transaction() as s:
        rows = await q.random_releases(session=s, count=query.count, sort=query.sort, order=query.order,
                                       **query.filters())
    return RandomReleases(releases=[release_out(r) for r in rows], count=len(rows))


# --------------------------------------------------------------------------- sets
class SetOut(SetSummary):
    release_id: str
    release_name: str
    release_year: str | None = None
    __keep_none__ = frozenset({"release_year"})


def set_out(row: Any, cls: type[SetOut] = SetOut, **extra: Any) -> Any:
    s = row[0]
    return cls(id=str(s.id), name=s.name, description=s.description, card_count=row.card_count,
               parallel_count=row.parallel_count, is_identifiable=bool(s.is_identifiable), release_id=str(s.release_id),
               release_name=row.release_name, release_year=row.release_year, **extra)


class _SetFilters(In):
    release_id: UUIDStr | None = Field(None, description="Release id (UUID)", alias="releaseId")
    name: str | None = Field(None, description="Partial, case-insensitive set name")
    year: Year | None = Field(None, description="Exact year; overrides min_year/max_year")
    min_year: Year | None = Field(None, description="Earliest release year, inclusive (e.g. 1986)")
    max_year: Year | None = Field(None, description="Latest release year, inclusive (e.g. 1999)")
    manufacturer: str | None = Field(None, description="Manufacturer UUID or name")
    is_identifiable: BoolStr | None = Field(None, description="\"true\" or \"false\": only sets photo identification can (or cannot) recognise")
    sort: Literal["name", "year"] | None = Field(None, description="Sort key (one of the listed values)")
    order: Order = "asc"

    def filters(self) -> dict[str, Any]:
        return {"release_id": self.release_id, "name": self.name, "year": self.year, "min_year": self.min_year,
                "max_year": self.max_year, "manufacturer": self.manufacturer,
                "identifiable": _ident(self.is_identifiable)}


class SetsQuery(_SetFilters):
    take: Take = 20
    skip: Skip = 0


class SetsPage(Page[SetOut], alias_generator=listed_as("sets")):
    pass


@tool("catalog_sets", method="GET", path="/v1/catalog/sets", cache=True)
async def search_sets(ctx: ToolContext, query: SetsQuery) -> SetsPage:
    """Search sets by release, name, year, manufacturer or identifiability, with card and parallel counts."""
    async with ctx.transaction() as s:
        rows, total = await q.search_sets(session=s, skip=query.skip, take=query.take, sort=query.sort,
                                          order=query.order, **query.filters())
    return SetsPage.of([set_out(r) for r in rows], total, query)


class SetDetail(SetOut):
    parallels: list[ParallelOut]
    fields: list[FieldKV] | None = Field(None, description="Metadata of the segment, the release and the set, in "
                                                           "that order (duplicate keys kept); omitted when none")


class SetQuery(IdQuery):
    cards: BoolStr | None = Field(None, description='"false": partial parallels do not list their card ids (a '
                                                    'shorter answer when only names and print runs are wanted)')


@tool("catalog_set", method="GET", path="/v1/catalog/sets/{id}", cache=True)
async def get_set(ctx: ToolContext, query: SetQuery) -> SetDetail:
    """Get one set with its parallels (print runs; partial parallels list their cards)."""
    from store.models import Release

    async with ctx.transaction() as s:
        row = await q.set_row(session=s, set_id=uuid.UUID(query.id))
        if row is None:
            raise not_found("Set", query.id)
        pars = await q.set_parallels(session=s, set_id=row[0].id)
        release = await s.get(Release, row[0].release_id)
        fields = await cq.inherited_fields(session=s, levels=[("segment", release.segment_id if release else None),
                                                                ("release", row[0].release_id), ("set", row[0].id)])
    listed = query.cards != "false"
    return set_out(row, SetDetail, parallels=[parallel_out(p, cards=cards if listed else None) for p, cards in pars],
                   fields=[FieldKV(key=k, value=v) for k, v in fields] or None)


class SetCardsQuery(In):
    id: UUIDStr = Field(description="Set id (UUID)")
    name: str | None = Field(None, description="Partial card name")
    number: str | None = Field(None, description="Exact card number")
    take: Take = 20
    skip: Skip = 0
    sort: Literal["number", "name"] | None = Field(None, description="Sort key (one of the listed values)")
    order: Order = "asc"


@tool("catalog_set_cards", method="GET", path="/v1/catalog/sets/{id}/cards", cache=True)
async def set_cards(ctx: ToolContext, query: SetCardsQuery) -> CardsPage:
    """List the base cards of a set by number or name; no parallels."""
    from store.models import CardSet

    f = CardFilter(set_id=query.id, name=query.name, number=query.number, base_only=True)
    return await _cards_of(ctx, f, query, lambda s: s.get(CardSet, uuid.UUID(query.id)))


class SetsRandomQuery(_SetFilters):
    count: Count = 1


class RandomSets(Out):
    sets: list[SetOut]
    count: int


@tool("catalog_sets_random", method="GET", path="/v1/catalog/sets/random")
async def random_sets(ctx: ToolContext, query: SetsRandomQuery) -> RandomSets:
    """Pick random sets matching filters (fewer when fewer match)."""
    async with ctx.transaction() as s:
        rows = await q.random_sets(session=s, count=query.count, sort=query.sort, order=query.order, **query.filters())
    return RandomSets(sets=[set_out(r) for r in rows], count=len(rows))
