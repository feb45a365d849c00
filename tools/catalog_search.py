"""Catalog-wide search: one ranked query across cards, sets, releases and parallels."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from store.queries import catalog_search as q
from tools._catalog_models import fields_or_400
from tools._models import CamelOut, In, Out, Skip, Take, Year
from tools._registry import tool
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


class SearchPage(Out):
    results: list[SearchResult]
    total_count: int
    skip: int
    take: int


@tool("catalog_search", method="GET", path="/v1/catalog/search", cache=True)
async def catalog_search(ctx: ToolContext, query: SearchQuery) -> SearchPage:
    """Search the whole catalog (cards, sets, releases, parallels) with one text query, best matches first."""
    fields = fields_or_400(query.field)
    async with ctx.transaction() as s:
        rows, total = await q.search(session=s, q=query.q.strip(), kind=query.type, segment=query.segment,
                                     manufacturer=query.manufacturer, year=query.year, min_year=query.min_year,
                                     max_year=query.max_year, fields=fields, skip=query.skip, take=query.take)
    return SearchPage(results=[SearchResult.model_validate(r) for r in rows], total_count=total, skip=query.skip,
                      take=query.take)
