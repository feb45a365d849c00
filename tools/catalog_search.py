"""Catalog-wide search: one ranked query across cards, sets, releases and parallels."""

from __future__ import annotations

import uuid
from typing import Literal

from pydantic import Field

from store.queries import catalog_search as q
from store.search import CardFilters
from store.search.fold import fold
from store.search.index import EXACT, SAME_WORDS
from tools._catalog_models import fields_or_400, page_messages
from tools._models import CamelOut, In, Page, ServerMessage, Skip, Take, Year, listed_as
from tools._registry import tool
from tools._search import catalog_index
from tools.context import ToolContext


class SearchQuery(In):
    q: str = Field(min_length=2, max_length=200, description="Search text (2-200 characters)")
    type: Literal["card", "set", "release", "parallel"] | None = Field(None, description="Only this kind")
    segment: str | None = Field(None, description="Segment UUID or name")
    manufacturer: str | None = Field(None, description="Manufacturer UUID or name")
    year: Year | None = Field(None, description="Release year or season, e.g. 2024 or 1986-87")
    min_year: Year | None = Field(None, description="Earliest release year, inclusive (e.g. 1986)")
    max_year: Year | None = Field(None, description="Latest release year, inclusive (e.g. 1999)")
    field: list[str] | None = Field(None, description="Repeatable KEY:VALUE card metadata filter")
    take: Take = 20
    skip: Skip = 0


class SearchResult(CamelOut):
    type: str
    id: str
    name: str
    relevance: float
    year: str | None = None
    set_name: str | None = None
    release_name: str | None = None
    manufacturer_name: str | None = None
    parallel_name: str | None = None
    numbered_to: int | None = None
    segment_name: str | None = None
    card_number: str | None = None
    match_kind: str | None = None


class SearchPage(Page[SearchResult], alias_generator=listed_as("results")):
    messages: list[ServerMessage] | None = None


@tool("catalog_search", method="GET", path="/v1/catalog/search", cache=True)
async def catalog_search(ctx: ToolContext, query: SearchQuery) -> SearchPage:
    """Search the whole catalog (cards, sets, releases, parallels) with one text query, best matches first."""
    fields = fields_or_400(query.field)
    if not fields:  # metadata fields are not in the index
        found = await _from_index(ctx, query)
        if found is not None:
            return found
    async with ctx.transaction() as s:
        rows, total = await q.search(session=s, q=query.q.strip(), kind=query.type, segment=query.segment,
                                     manufacturer=query.manufacturer, year=query.year, min_year=query.min_year,
                                     max_year=query.max_year, fields=fields, skip=query.skip, take=query.take)
    return SearchPage.of([SearchResult.model_validate(r) for r in rows], total, query,
                         messages=page_messages(total, query.skip, query.year, query.min_year, query.max_year))


async def _from_index(ctx: ToolContext, query: SearchQuery) -> SearchPage | None:
    """The page ranked by the search index (words in any order, prefixes, typos), its rows read by id;
    None when the index finds nothing (SQL's substring match then answers, as before)."""
    index = await catalog_index(ctx)
    filters = CardFilters(year=query.year, min_year=int(query.min_year[:4]) if query.min_year else None,
                          max_year=int(query.max_year[:4]) if query.max_year else None, segment=query.segment,
                          manufacturer=query.manufacturer)
    want = query.skip + query.take
    ranked: list[tuple[float, int, str, str]] = []
    total = 0
    for order, kind in enumerate(q.KINDS):
        if query.type and kind != query.type:
            continue
        hits, n = index.entities(kind, query.q, filters=filters, limit=want, prefix=True, need_name=True)
        total += n
        ranked += [(-h.score, order, kind, h.id) for h in hits]
    if total == 0:
        return None
    page = sorted(ranked)[query.skip:want]
    words = fold(query.q)
    top = EXACT + SAME_WORDS + 10 * max(len(words.split()), 1)
    async with ctx.transaction() as s:
        rows = await q.details(session=s, picks=[(kind, uuid.UUID(i)) for _, _, kind, i in page])
    results = []
    for neg_score, _, kind, i in page:
        row = rows.get((kind, i))
        if row is None:  # gone since the index was built
            continue
        exact = fold(row["name"]) == words
        results.append(SearchResult.model_validate({**row, "relevance": round(min(1.0, -neg_score / top), 4),
                                                    "matchKind": "exact" if exact else "fuzzy"}))
    return SearchPage.of(results, total, query,
                         messages=page_messages(total, query.skip, query.year, query.min_year, query.max_year))
