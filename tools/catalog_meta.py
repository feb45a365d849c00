"""Catalog reference tools: manufacturers, parallels, attributes, metadata fields, autocomplete,
release calendar and card images."""

from __future__ import annotations

import base64
import io
import uuid
from typing import Literal

from pydantic import Field
from pydantic_core import to_json

from store.queries import catalog_meta as q
from store.search import CardFilters
from tools._models import (
    Binary,
    BoolStr,
    CamelOut,
    In,
    Order,
    Out,
    Page,
    Skip,
    Take,
    UUIDStr,
    Written,
    Year,
    listed_as,
)
from tools._registry import Tool, tool
from tools._search import catalog_index, current_index
from tools.context import ToolContext
from tools.errors import not_found


class ManufacturersQuery(In):
    name: str | None = Field(None, description="Partial, case-insensitive manufacturer name")
    take: Take = 20
    skip: Skip = 0
    sort: Literal["name"] | None = Field(None, description="Sort key (one of the listed values)")
    order: Order = "asc"


class ManufacturerOut(Out):
    id: str
    name: str
    description: str | None = None


class ManufacturersPage(Page[ManufacturerOut], alias_generator=listed_as("manufacturers")):
    pass


@tool("catalog_manufacturers", method="GET", path="/v1/catalog/manufacturers", cache=True)
async def search_manufacturers(ctx: ToolContext, query: ManufacturersQuery) -> ManufacturersPage:
    """Search card manufacturers (Topps, Panini, Upper Deck...) by partial name."""
    async with ctx.transaction() as s:
        rows, total = await q.search_manufacturers(session=s, name=query.name, order=query.order, skip=query.skip,
                                                   take=query.take)
    return ManufacturersPage.of([ManufacturerOut(id=str(r[0].id), name=r[0].name, description=r[0].description)
                                 for r in rows], total, query)


class ParallelsQuery(In):
    name: str | None = Field(None, description="Partial parallel name")
    release_id: UUIDStr | None = Field(None, description="Release id (UUID)", alias="releaseId")
    release_name: str | None = Field(None, description="Partial, case-insensitive release name", alias="releaseName")
    year: Year | None = Field(None, description="Exact year; overrides min_year/max_year")
    min_year: Year | None = Field(None, description="Earliest release year, inclusive (e.g. 1986)")
    max_year: Year | None = Field(None, description="Latest release year, inclusive (e.g. 1999)")
    take: Take = 20
    skip: Skip = 0
    sort: Literal["name", "release", "set", "year"] | None = Field(None, description="Sort key (one of the listed values)")
    order: Order = "asc"


class ParallelWithSet(CamelOut):
    __keep_none__ = frozenset({"release_year"})
    id: str
    name: str
    description: str | None = None
    is_partial: bool
    numbered_to: int | None = None
    cards: list[str] | None = None
    set_id: str
    set_name: str
    release_id: str
    release_name: str
    release_year: str | None = None
    card_count: int | None = None


def _par(row, cards=None, count=True) -> ParallelWithSet:
    p = row[0]
    return ParallelWithSet(id=str(p.id), name=p.name, description=p.description, is_partial=bool(p.is_partial),
                           numbered_to=p.numbered_to, cards=[str(c) for c in cards] if cards and p.is_partial else None,
                           set_id=str(p.set_id), set_name=row.set_name, release_id=str(row.release_id),
                           release_name=row.release_name, release_year=row.release_year,
                           card_count=row.card_count if count else None)


class ParallelsPage(Page[ParallelWithSet], alias_generator=listed_as("parallels")):
    pass


@tool("catalog_parallels", method="GET", path="/v1/catalog/parallels", cache=True)
async def search_parallels(ctx: ToolContext, query: ParallelsQuery) -> ParallelsPage:
    """Search parallels (Refractor, Gold /50, 1st Edition...) by name, release or year, with their set."""
    async with ctx.transaction() as s:
        rows, total = await q.search_parallels(
            session=s, name=query.name, release_id=query.release_id, release_name=query.release_name,
            year=query.year, min_year=query.min_year, max_year=query.max_year, sort=query.sort, order=query.order,
            skip=query.skip, take=query.take)
    return ParallelsPage.of([_par(r) for r in rows], total, query)


class IdQuery(In):
    id: UUIDStr = Field(description="The entity's id (UUID)")


@tool("catalog_parallel", method="GET", path="/v1/catalog/parallels/{id}", cache=True)
async def get_parallel(ctx: ToolContext, query: IdQuery) -> ParallelWithSet:
    """Get one parallel with its set and release (partial parallels list their cards)."""
    async with ctx.transaction() as s:
        found = await q.parallel_row(session=s, parallel_id=uuid.UUID(query.id))
    if found is None:
        raise not_found("Parallel", query.id)
    return _par(found[0], found[1], count=False)


class AttributesQuery(In):
    name: str | None = Field(None, description="Partial, case-insensitive attribute name")
    short_name: str | None = Field(None, description="Attribute code such as RC or AU", alias="shortName")
    take: Take = 20
    skip: Skip = 0
    sort: Literal["name", "shortName", "cardCount"] | None = Field(None, description="Sort key (one of the listed values)")
    order: Order = "asc"


class AttributeOut(CamelOut):
    id: str
    name: str
    short_name: str
    description: str | None = None
    card_count: int


def _attr(row) -> AttributeOut:
    a = row[0]
    return AttributeOut(id=str(a.id), name=a.name, short_name=a.short_name, description=a.description,
                        card_count=row.card_count)


class AttributesPage(Page[AttributeOut], alias_generator=listed_as("attributes")):
    pass


@tool("catalog_attributes", method="GET", path="/v1/catalog/attributes", cache=True)
async def search_attributes(ctx: ToolContext, query: AttributesQuery) -> AttributesPage:
    """List card attributes (RC rookie, AU autograph, SP short print...) with how many cards carry each."""
    async with ctx.transaction() as s:
        rows, total = await q.search_attributes(session=s, name=query.name, short_name=query.short_name,
                                                sort=query.sort, order=query.order, skip=query.skip, take=query.take)
    return AttributesPage.of([_attr(r) for r in rows], total, query)


@tool("catalog_attribute", method="GET", path="/v1/catalog/attributes/{id}", cache=True)
async def get_attribute(ctx: ToolContext, query: IdQuery) -> AttributeOut:
    """Get one card attribute with its card count."""
    async with ctx.transaction() as s:
        row = await q.attribute_row(session=s, attribute_id=uuid.UUID(query.id))
    if row is None:
        raise not_found("Attribute", query.id)
    return _attr(row)


class FieldsQuery(In):
    name: str | None = Field(None, description="Partial display name")
    key: str | None = Field(None, description="Partial key")
    take: Take = 20
    skip: Skip = 0
    sort: Literal["name", "key", "usageCount"] | None = Field(None, description="Sort key (one of the listed values)")
    order: Order = "asc"


class FieldOut(CamelOut):
    id: str
    key: str
    name: str
    description: str | None = None
    usage_count: int


def _field(row) -> FieldOut:
    f = row[0]
    return FieldOut(id=str(f.id), key=f.key, name=f.name, description=f.description, usage_count=row.usage)


class FieldsPage(Page[FieldOut], alias_generator=listed_as("fields")):
    pass


@tool("catalog_fields", method="GET", path="/v1/catalog/fields", cache=True)
async def search_fields(ctx: ToolContext, query: FieldsQuery) -> FieldsPage:
    """List flexible KEY:VALUE metadata fields (HP, RARITY, ARTIST...) with usage counts."""
    async with ctx.transaction() as s:
        rows, total = await q.search_fields(session=s, name=query.name, key=query.key, sort=query.sort,
                                            order=query.order, skip=query.skip, take=query.take)
    return FieldsPage.of([_field(r) for r in rows], total, query)


@tool("catalog_field", method="GET", path="/v1/catalog/fields/{id}", cache=True)
async def get_field(ctx: ToolContext, query: IdQuery) -> FieldOut:
    """Get one metadata field with its usage count."""
    async with ctx.transaction() as s:
        row = await q.field_row(session=s, field_id=uuid.UUID(query.id))
    if row is None:
        raise not_found("Field", query.id)
    return _field(row)


# --------------------------------------------------------------------------- autocomplete
class Suggestions(Out):
    suggestions: list[str]


# each kind's query is the one before it plus one narrower filter
class AcSegments(In):
    q: str = Field(min_length=1, max_length=200, description="Text typed so far")


class AcManufacturers(AcSegments):
    segment_id: UUIDStr | None = Field(None, description="Segment id (UUID)", alias="segmentId")


class AcYears(AcManufacturers):
    manufacturer_id: UUIDStr | None = Field(None, description="Manufacturer id (UUID)", alias="manufacturerId")


class AcReleases(AcYears):
    year: Year | None = Field(None, description="Release year or season, e.g. 2024 or 1986-87")


class AcSets(AcReleases):
    release_id: UUIDStr | None = Field(None, description="Release id (UUID)", alias="releaseId")


class AcCards(AcSets):
    set_id: UUIDStr | None = Field(None, description="Set id (UUID)", alias="setId")


AC_LIMIT = 10
_FILTERS: dict[type, tuple[str, ...]] = {}  # each query model's filters (its fields but ``q``)
INDEXED_AC = {"cards": "card", "sets": "set", "releases": "release"}


async def _ac(ctx: ToolContext, kind: str, query: AcSegments) -> Suggestions | Written:
    args = {name: getattr(query, name) for name in _FILTERS[type(query)]}
    if kind in INDEXED_AC:
        found = await _ac_from_index(ctx, INDEXED_AC[kind], query.q, args)
        if found:  # written as ``Suggestions`` would be (no model: autocomplete's hot path)
            return Written(b'{"suggestions":%b}' % to_json(found))
    async with ctx.transaction() as s:
        return Suggestions(suggestions=await q.autocomplete(session=s, kind=kind, q=query.q, **args))


async def _ac_from_index(ctx: ToolContext, kind: str, text: str, args: dict) -> list[str]:
    """Up to 10 distinct names from the search index, best first (the typed words as prefixes, in any
    order, small typos forgiven); empty when it finds none (SQL's substring match then answers)."""
    index = current_index(ctx) or await catalog_index(ctx)
    if kind == "card" and not any(args.values()):
        return index.completions(text, kinds=["name"], limit=AC_LIMIT)
    filters = CardFilters(year=args.get("year"), segment=args.get("segment_id"),
                          manufacturer=args.get("manufacturer_id"), release_id=args.get("release_id"),
                          set_id=args.get("set_id"))
    out: list[str] = []
    take = AC_LIMIT * 5
    for offset in range(0, AC_LIMIT * 50, take):  # a popular name holds many cards: read on until 10 differ
        hits, total = index.entities(kind, text, filters=filters, limit=take, offset=offset, prefix=True,
                                     in_text=False)
        for h in hits:
            if h.name not in out:
                out.append(h.name)
        if len(out) >= AC_LIMIT or offset + take >= total:
            break
    return out[:AC_LIMIT]


def _autocomplete(kind: str, query_model: type[AcSegments], description: str) -> Tool:
    """Register ``autocomplete_<kind>`` at ``GET /v1/autocomplete/<kind>``: ``_ac`` behind its own filters."""
    _FILTERS[query_model] = tuple(f for f in query_model.model_fields if f != "q")

    async def complete(ctx: ToolContext, query: AcSegments) -> Suggestions | Written:
        return await _ac(ctx, kind, query)

    complete.__name__ = complete.__qualname__ = f"autocomplete_{kind}"
    complete.__doc__ = description
    # the registry takes the input model (the query's parameters) from this annotation
    complete.__annotations__ = {**complete.__annotations__, "query": query_model}
    return tool(f"autocomplete_{kind}", method="GET", path=f"/v1/autocomplete/{kind}", cache=True)(complete)


_TYPED_WORDS = "matching the typed words (prefixes, any order, small typos), best first"
autocomplete_cards = _autocomplete("cards", AcCards, f"Suggest up to 10 unique card names {_TYPED_WORDS}.")
autocomplete_sets = _autocomplete("sets", AcSets, f"Suggest up to 10 set names {_TYPED_WORDS}.")
autocomplete_releases = _autocomplete("releases", AcReleases, f"Suggest up to 10 release names {_TYPED_WORDS}.")
autocomplete_manufacturers = _autocomplete("manufacturers", AcManufacturers,
                                           "Suggest up to 10 manufacturer names containing the typed text, alphabetically.")
autocomplete_years = _autocomplete("years", AcYears,
                                   "Suggest up to 10 release years containing the typed text, chronologically.")
autocomplete_segments = _autocomplete("segments", AcSegments,
                                      "Suggest up to 10 segment names (Baseball, Pokemon...) containing the typed text.")


# --------------------------------------------------------------------------- calendar
class CalendarQuery(In):
    take: Take = 20
    skip: Skip = 0
    segment: str | None = Field(None, description="Segment UUID or name (case-insensitive)")
    manufacturer: str | None = Field(None, description="Manufacturer UUID or name")
    year: Year | None = Field(None, description="Release year or season, e.g. 2024 or 1986-87")


class CalendarEntry(Out):
    __keep_none__ = frozenset({"year", "release_date", "pre_order_date", "segment_id", "manufacturer_id"})
    id: str
    name: str
    year: str | None = None
    release_date: str | None = None
    pre_order_date: str | None = None
    segment_id: str | None = None
    manufacturer_id: str | None = None


class CalendarPage(Page[CalendarEntry], alias_generator=listed_as("release_calendar")):
    pass


@tool("release_calendar", method="GET", path="/v1/release-calendar/", cache=True)
async def release_calendar(ctx: ToolContext, query: CalendarQuery) -> CalendarPage:
    """List releases by release date, newest first (upcoming and recent products)."""
    async with ctx.transaction() as s:
        rows, total = await q.release_calendar(session=s, segment=query.segment, manufacturer=query.manufacturer,
                                               year=query.year, skip=query.skip, take=query.take)
    entries = [CalendarEntry(id=str(r.id), name=r.name, year=r.year,
                             release_date=r.release_date.isoformat() if r.release_date else None,
                             pre_order_date=r.pre_order_date.isoformat() if r.pre_order_date else None,
                             segment_id=str(r.segment_id) if r.segment_id else None,
                             manufacturer_id=str(r.manufacturer_id) if r.manufacturer_id else None)
               for (r,) in rows]
    return CalendarPage.of(entries, total, query)


# --------------------------------------------------------------------------- images
class ImageQuery(In):
    id: UUIDStr
    format: Literal["raw", "json"] = "raw"
    default: BoolStr = Field("false", description='"true": a placeholder image instead of 404')


class ImageJson(CamelOut):
    data: str = Field(description="Base64 data URI, ready for an HTML img src")
    content_type: str = Field(description="MIME type of the image")
    size: int = Field(description="Size of the image in bytes")


def _placeholder() -> bytes:
    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (250, 350), (200, 200, 200)).save(buf, format="PNG")
    return buf.getvalue()


@tool("card_image", method="GET", path="/v1/images/cards/{id}", agent=False,
      response_content_types=("image/jpeg", "image/png", "application/json"), json_model=ImageJson)
async def card_image(ctx: ToolContext, query: ImageQuery) -> Binary:
    """Get a card's stored image (front first) as bytes, or format=json for a base64 data URI."""
    async with ctx.transaction() as s:
        img = await q.card_image(session=s, card_id=uuid.UUID(query.id))
        if img is None and query.default == "true" and await q.card_exists(session=s, card_id=uuid.UUID(query.id)):
            data, ctype = _placeholder(), "image/png"
        elif img is None:
            raise not_found("Image for card", query.id)
        else:
            data, ctype = img.data, img.content_type
    if query.format == "json":
        uri = f"data:{ctype};base64,{base64.b64encode(data).decode()}"
        body = ImageJson(data=uri, content_type=ctype, size=len(data)).model_dump_json(by_alias=True).encode()
        return Binary(content=body, content_type="application/json")
    return Binary(content=data, content_type=ctype)
