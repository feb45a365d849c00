"""Catalog tools: segments and catalog statistics (the catalog issue adds the rest)."""

from __future__ import annotations

from collections import defaultdict

from pydantic import Field

from store.queries import catalog as q
from tools._models import BoolStr, CamelOut, In, Order, Out, Page, Skip, Take, listed_as
from tools._registry import tool
from tools.context import ToolContext


class Segment(Out):
    __keep_none__ = frozenset({"shortname"})
    id: str
    name: str
    shortname: str | None = None
    is_identifiable: bool


class SegmentsQuery(In):
    name: str | None = Field(None, description="Partial, case-insensitive segment name")
    is_identifiable: BoolStr | None = Field(None, description='"true" or "false"')
    take: Take = 20
    skip: Skip = 0
    sort: str | None = Field(None, pattern="^name$", description="Sort key: name")
    order: Order = "asc"


class SegmentsPage(Page[Segment], alias_generator=listed_as("segments")):
    pass


@tool("catalog_segments", method="GET", path="/v1/catalog/segments", cache=True)
async def search_segments(ctx: ToolContext, query: SegmentsQuery) -> SegmentsPage:
    """List catalog segments (categories such as Baseball, Pokemon), filtered by name or identifiability."""
    ident = None if query.is_identifiable is None else query.is_identifiable == "true"
    async with ctx.transaction() as s:
        rows, total = await q.search_segments(
            session=s, name=query.name, identifiable=ident, order=query.order, skip=query.skip, take=query.take
        )
    segs = [Segment(id=str(r[0].id), name=r[0].name, shortname=r[0].shortname, is_identifiable=bool(r[1])) for r in rows]
    return SegmentsPage.of(segs, total, query)


class StatisticsQuery(In):
    pass


class SegmentCount(Out):
    id: str
    name: str
    count: int


class ManufacturerCount(CamelOut):
    id: str
    name: str
    release_count: int


class YearCount(Out):
    year: str
    count: int


class SegmentYears(CamelOut):
    segment_name: str
    total: int
    by_year: list[YearCount]


class SegmentStats(Out):
    total: int
    breakdown: list[SegmentCount]


class ManufacturerStats(Out):
    total: int
    breakdown: list[ManufacturerCount]


class ReleaseStats(CamelOut):
    total: int
    by_segment: list[SegmentYears]


class SetStats(Out):
    total: int
    identifiable: int


class CardStats(Out):
    total: int
    base: int
    variations: int
    parallels: int


class ParallelStats(CamelOut):
    total: int
    full_set: int
    partial: int


class Statistics(Out):
    segments: SegmentStats
    manufacturers: ManufacturerStats
    releases: ReleaseStats
    sets: SetStats
    cards: CardStats
    parallels: ParallelStats


@tool("catalog_statistics", method="GET", path="/v1/catalog/statistics", cache=True, public=True)
async def catalog_statistics(ctx: ToolContext, _: StatisticsQuery) -> Statistics:
    """Catalog size: counts of segments, manufacturers, releases (by segment and year), sets, cards, parallels."""
    async with ctx.transaction() as s:
        st = await q.statistics(session=s)
    years: dict[str, list[YearCount]] = defaultdict(list)
    for seg_name, year, n in st["releases_by_year"]:
        years[seg_name].append(YearCount(year=year or "", count=n))
    by_segment = [SegmentYears(segment_name=k, total=sum(y.count for y in v), by_year=v) for k, v in years.items()]
    releases_total = sum(r[2] for r in st["segments"])
    return Statistics(
        segments=SegmentStats(total=len(st["segments"]),
                           breakdown=[SegmentCount(id=str(i), name=n, count=c) for i, n, c in st["segments"]]),
        manufacturers=ManufacturerStats(total=len(st["manufacturers"]),
                                     breakdown=[ManufacturerCount(id=str(i), name=n, release_count=c) for i, n, c in st["manufacturers"]]),
        releases=ReleaseStats(total=releases_total, by_segment=by_segment),
        sets=SetStats(total=st["sets_total"], identifiable=st["sets_identifiable"]),
        cards=CardStats(total=st["cards_total"], base=st["cards_total"] - st["cards_variations"],
                     variations=st["cards_variations"], parallels=st["parallels_total"]),
        parallels=ParallelStats(total=st["parallels_total"], full_set=st["parallels_total"] - st["parallels_partial"],
                             partial=st["parallels_partial"]),
    )
