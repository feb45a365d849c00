"""Catalog tools: segments and catalog statistics (the catalog issue adds the rest)."""

from __future__ import annotations

from collections import defaultdict

from pydantic import Field

from store.queries import catalog as q
from tools._models import BoolStr, CamelOut, In, Order, Out, Skip, Take
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


class SegmentsPage(Out):
    segments: list[Segment]
    total_count: int
    skip: int
    take: int


@tool("catalog_segments", method="GET", path="/v1/catalog/segments", cache=True)
async def search_segments(ctx: ToolContext, query: SegmentsQuery) -> SegmentsPage:
    """List catalog segments (categories such as Baseball, Pokemon), filtered by name or identifiability."""
    ident = None if query.is_identifiable is None else query.is_identifiable == "true"
    async with ctx.transaction() as s:
        rows, total = await q.search_segments(
            session=s, name=query.name, identifiable=ident, order=query.order, skip=query.skip, take=query.take
        )
    segs = [Segment(id=str(r[0].id), name=r[0].name, shortname=r[0].shortname, is_identifiable=bool(r[1])) for r in rows]
    return SegmentsPage(segments=segs, total_count=total, skip=query.skip, take=query.take)


class StatisticsQuery(In):
    pass


class _SegCount(Out):
    id: str
    name: str
    count: int


class _ManCount(CamelOut):
    id: str
    name: str
    release_count: int


class _YearCount(Out):
    year: str
    count: int


class _SegYears(CamelOut):
    segment_name: str
    total: int
    by_year: list[_YearCount]


class _Segments(Out):
    total: int
    breakdown: list[_SegCount]


class _Manufacturers(Out):
    total: int
    breakdown: list[_ManCount]


class _Releases(CamelOut):
    total: int
    by_segment: list[_SegYears]


class _Sets(Out):
    total: int
    identifiable: int


class _Cards(Out):
    total: int
    base: int
    variations: int
    parallels: int


class _Parallels(CamelOut):
    total: int
    full_set: int
    partial: int


class Statistics(Out):
    segments: _Segments
    manufacturers: _Manufacturers
    releases: _Releases
    sets: _Sets
    cards: _Cards
    parallels: _Parallels


@tool("catalog_statistics", method="GET", path="/v1/catalog/statistics", cache=True, public=True)
async def catalog_statistics(ctx: ToolContext, _: StatisticsQuery) -> Statistics:
    """Catalog size: counts of segments, manufacturers, releases (by segment and year), sets, cards, parallels."""
    async with ctx.transaction() as s:
        st = await q.statistics(session=s)
    years: dict[str, list[_YearCount]] = defaultdict(list)
    for seg_name, year, n in st["releases_by_year"]:
        years[seg_name].append(_YearCount(year=year or "", count=n))
    by_segment = [_SegYears(segment_name=k, total=sum(y.count for y in v), by_year=v) for k, v in years.items()]
    releases_total = sum(r[2] for r in st["segments"])
    return Statistics(
        segments=_Segments(total=len(st["segments"]),
                           breakdown=[_SegCount(id=str(i), name=n, count=c) for i, n, c in st["segments"]]),
        manufacturers=_Manufacturers(total=len(st["manufacturers"]),
                                     breakdown=[_ManCount(id=str(i), name=n, release_count=c) for i, n, c in st["manufacturers"]]),
        releases=_Releases(total=releases_total, by_segment=by_segment),
        sets=_Sets(total=st["sets_total"], identifiable=st["sets_identifiable"]),
        cards=_Cards(total=st["cards_total"], base=st["cards_total"] - st["cards_variations"],
                     variations=st["cards_variations"], parallels=st["parallels_total"]),
        parallels=_Parallels(total=st["parallels_total"], full_set=st["parallels_total"] - st["parallels_partial"],
                             partial=st["parallels_partial"]),
    )
