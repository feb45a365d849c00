"""Catalog card tools: search, detail and random pulls (with parallel odds, see ``tools._odds``)."""

from __future__ import annotations

import json
import uuid
from typing import Literal

from pydantic import Field, SerializeAsAny

from store.queries import catalog_cards as q
from store.queries.catalog_filters import CardFilter
from store.search import CardFilters
from tools import _odds
from tools._catalog_models import (
    CardDetail, CardOut, CardsPage, FieldKV, card_items, card_out, fields_or_400, page_messages, parallel_out,
)
from tools._models import BoolStr, Count, In, Order, Out, Skip, Take, UUIDStr, Written, Year
from tools._registry import tool
from tools._search import catalog_index, current_index
from tools.context import ToolContext
from tools.errors import invalid, not_found


class _CardFilters(In):
    name: str | None = Field(None, description="Partial, case-insensitive card (player/subject) name")
    number: str | None = Field(None, description="Exact card number")
    year: Year | None = Field(None, description="Release year (string); overrides min_year/max_year")
    min_year: Year | None = Field(None, description="Earliest release year, inclusive (e.g. 1986)")
    max_year: Year | None = Field(None, description="Latest release year, inclusive (e.g. 1999)")
    manufacturer: str | None = Field(None, description="Manufacturer UUID or name")
    release_id: UUIDStr | None = Field(None, description="Release id (UUID)", alias="releaseId")
    release_name: str | None = Field(None, alias="releaseName", description="Partial release name")
    set_id: UUIDStr | None = Field(None, description="Set id (UUID)", alias="setId")
    set_name: str | None = Field(None, alias="setName", description="Partial set name")
    attribute_id: UUIDStr | None = Field(None, description="Attribute id (UUID)", alias="attributeId")
    attribute_short_name: str | None = Field(None, alias="attributeShortName",
                                             description="Attribute code such as RC or AU (case-sensitive)")

    def card_filter(self, fields: list[str] | None = None) -> CardFilter:
        return CardFilter(name=self.name, number=self.number, year=self.year, min_year=self.min_year,
                          max_year=self.max_year, manufacturer=self.manufacturer, release_id=self.release_id,
                          release_name=self.release_name, set_id=self.set_id, set_name=self.set_name,
                          attribute_id=self.attribute_id, attribute_short_name=self.attribute_short_name,
                          fields=fields_or_400(fields))


class CardsQuery(_CardFilters):
    field: list[str] | None = Field(None, description="Repeatable KEY:VALUE metadata filter, e.g. "
                                                      "field=RARITY:Rare Holo; all must match (keys upper case, "
                                                      "values compared case-insensitively)")
    take: Take = 20
    skip: Skip = 0
    sort: Literal["name", "release", "set", "year", "price-raw"] | None = Field(None, description="Sort key")
    order: Order = "asc"


@tool("catalog_cards", method="GET", path="/v1/catalog/cards", cache=True)
async def search_cards(ctx: ToolContext, query: CardsQuery) -> CardsPage | Written:
    """Search catalog cards by name, number, year, manufacturer, release, set or attribute; paginated. A name
    matches its words in any order, as prefixes and with small typos, best matches first (unless sort is given)."""
    found = await _search_by_name(ctx, query)
    if found is not None:
        # the index holds each card's entry as the page shows it (prices, fields and parallels too): the
        # page is spliced from those bytes, with no database read and no model
        entries, total = found
        messages = page_messages(total, query.skip, query.year, query.min_year, query.max_year)
        if messages is None:
            return Written(b'{"cards":[%b],"total_count":%d,"skip":%d,"take":%d}'
                           % (b",".join(entries), total, query.skip, query.take))
        return CardsPage.model_construct(items=[json.loads(e) for e in entries], total_count=total, skip=query.skip,
                                         take=query.take, messages=messages)
    async with ctx.transaction() as s:
        rows, total = await q.search_cards(session=s, f=query.card_filter(query.field), sort=query.sort,
                                           order=query.order, skip=query.skip, take=query.take)
        cards = await card_items(s, rows)
    return CardsPage.of(cards, total, query,
                        messages=page_messages(total, query.skip, query.year, query.min_year, query.max_year))


async def _search_by_name(ctx: ToolContext, query: CardsQuery) -> tuple[list[bytes], int] | None:
    """The page's card entries (JSON) and the total from the search index, for a name search in relevance
    order whose other filters the index holds; None sends it to SQL (as does a name the index finds nowhere,
    so a fragment from inside a word, "htan", still finds what it did)."""
    if not query.name or query.sort is not None or query.release_name or query.set_name or query.attribute_id \
            or query.attribute_short_name or query.field:
        return None
    index = current_index(ctx) or await catalog_index(ctx)
    filters = None  # most searches are a name alone: no filters to build
    if query.year or query.min_year or query.max_year or query.number or query.manufacturer or query.release_id \
            or query.set_id:
        filters = CardFilters(year=query.year, min_year=_year_int(query.min_year),
                              max_year=_year_int(query.max_year), number=query.number,
                              manufacturer=query.manufacturer, release_id=query.release_id, set_id=query.set_id)
    found = index.card_page(query.name, filters=filters, limit=query.take, offset=query.skip, prefix=True,
                            in_text=False)
    return found if found[1] else None


def _year_int(year: str | None) -> int | None:
    return int(year[:4]) if year else None


class CardQuery(In):
    id: UUIDStr = Field(description="Card id")


@tool("catalog_card", method="GET", path="/v1/catalog/cards/{id}", cache=True)
async def get_card(ctx: ToolContext, query: CardQuery) -> CardDetail:
    """Get one card with its parallels (print runs, prices), attributes, variation link and metadata fields."""
    async with ctx.transaction() as s:
        row = await q.card_row(session=s, card_id=uuid.UUID(query.id))
        if row is None:
            raise not_found("Card", query.id)
        card = row
        attrs = await q.attributes_for(session=s, card_ids=[card.id])
        prices = await q.prices_for(session=s, card_ids=[card.id], parallel=True)
        pars = await q.card_parallels(session=s, card=card)
        fields = await q.fields_for(session=s, entity_type="card", entity_id=card.id)
    parallels = [parallel_out(p, prices=prices.get((card.id, p.id))) for p in pars]
    for p in parallels:
        p.cards = None
    return card_out(row, attrs, prices, cls=CardDetail, numbered_to=card.numbered_to,
                    fields=[FieldKV(key=k, value=v) for k, v in fields] or None,
                    parallel_count=len(parallels), parallels=parallels)


class RandomCardsQuery(_CardFilters):
    count: Count = 1
    include_parallels: BoolStr = Field("false", alias="includeParallels",
                                       description='"true" to pull parallels with boosted odds')
    field: list[str] | None = Field(None, description="Repeatable KEY:VALUE metadata filter; all must match")
    sort: Literal["name", "release", "set", "year"] | None = Field(None, description="Sort key (one of the listed values)")
    order: Order = "asc"


class RandomCard(CardOut):
    is_parallel: bool | None = None
    parallel_id: str | None = None
    parallel_name: str | None = None
    numbered_to: int | None = None


class RandomParallelCard(RandomCard):
    __keep_none__ = frozenset({"numbered_to"})


class RandomCards(Out):
    cards: list[SerializeAsAny[RandomCard]]
    count: int


@tool("catalog_cards_random", method="GET", path="/v1/catalog/cards/random")
async def random_cards(ctx: ToolContext, query: RandomCardsQuery) -> RandomCards:
    """Pick random cards matching filters; with includeParallels=true, parallels come out with boosted odds."""
    if query.set_id and query.release_id:
        raise invalid("setId and releaseId are mutually exclusive")
    f = query.card_filter(query.field)
    async with ctx.transaction() as s:
        rows = await q.random_cards(session=s, f=f, count=query.count, sort=query.sort, order=query.order)
        pars = await q.parallels_of_cards(session=s, cards=list(rows)) if query.include_parallels == "true" else {}
        extra: dict[uuid.UUID, dict] = {}
        classes: dict[uuid.UUID, type[CardOut]] = {}
        for r in rows:
            if query.include_parallels != "true":
                continue
            hit = _odds.roll(pars.get(r.id, []))
            if hit is None:
                extra[r.id] = {"is_parallel": False}
            else:
                classes[r.id] = RandomParallelCard
                extra[r.id] = {"is_parallel": True, "parallel_id": str(hit.id), "parallel_name": hit.name,
                               "numbered_to": hit.numbered_to}
        out = await card_items(s, list(rows), RandomCard, extra, classes)
    return RandomCards(cards=out, count=len(out))

